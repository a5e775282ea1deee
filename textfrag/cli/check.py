"""``textfrag check``: the core's verdict on every reference of the documents, as a build reaches it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..documents.files import doc_files
from ..documents.scan import Found
from ..errors import StaleError, TextFragError
from ..project.settings import highlighter_of, lets_pass, relaxed_by
from ..reference.fragment import Reference
from ..report.formats import FORMATS, Finding, Warned, output_format
from ..report.terminal import Progress
from ..source import store
from ..source.cache import SourceCache
from ..source.digesting import Digester, usable_cores
from ..source.paths import typed_path
from ..verdict.judging import Settings, Verdict, judge, no_link_target
from ..verdict.presentation import identity
from ..verdict.quoting import prefetch_history
from ._base import (
    BAD,
    OK,
    STALE,
    add_common,
    add_output,
    add_require_pin,
    cache_of,
    checked_so_far,
    finding_of,
    finish,
    nothing_checked,
    plural,
    unpinned_note,
)
from ._guarded import guarded_run
from ._scan import Scan, built_documents, scan_documents, targets_of
from .context import Command, RunContext

if TYPE_CHECKING:
    from ..project.config import BuildConfig


def add_parser(sub: Any) -> None:
    """The ``check`` subcommand's parser."""
    check = sub.add_parser(
        "check",
        help="verify every reference in documentation sources",
        description="Find every reference in .rst/.md sources under the paths (without building) and verify it.",
        epilog=(
            "What a run finds in quoted files is kept for the next run in ~/.cache/textfrag (TEXTFRAG_CACHE_DIR moves "
            "it, TEXTFRAG_NO_CACHE=1 turns it off): the digest of a file of 64 KB or more under its metadata, the "
            "definitions of a file an intent names, a good verdict on a pinned reference. It never decides a verdict: "
            "a file whose metadata or digest changed is read again."
        ),
    )
    add_common(check)
    add_output(check)
    check.add_argument(
        "--allow-bidi",
        action="store_true",
        help="do not warn of bidirectional control characters in quoted text (Trojan Source, CVE-2021-42574)",
    )
    add_require_pin(check)
    check.add_argument(
        "--strict",
        action="store_true",
        help="fail on what the build only warns of (a stale quote where on_stale is 'warning', a language Pygments does "
        "not know), as sphinx-build -W and mkdocs build --strict do (MkDocs' strict: true sets it)",
    )
    check.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )


#: documents from which check runs on every core (each process scans and judges a part; fewer cost more
#: to start than they save); and how many documents a part holds at most
PARALLEL_DOCS, PART_DOCS = 1000, 1000


class _Tally:
    """What judging a list of references found: the findings said, the problems, and the counts."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.problems: list[tuple[Found, TextFragError]] = []
        self.total = self.docs = self.unpinned = self.warned = self.searched = 0
        #: (only where links point to excerpts: a Markdown engine's project) the good links, each with what
        #: it points to; and the excerpts embedded, by page
        self.links: list[tuple[Found, tuple[str, str]]] = []
        self.embedded: set[tuple[str, tuple[str, str]]] = set()
        #: Markdown files the pages include (pymdownx.snippets) and the parts they pull in (``.. include::``):
        #: a part's, followed once by the whole run, each read as its build reads it
        #: the parts the documents pull in: (as shown, the real path)
        self.included: list[tuple[str, str]] = []
        self.read_as: dict[str, str] = {}

    def add(self, other: _Tally) -> None:
        self.findings += other.findings
        self.problems += other.problems
        self.links += other.links
        self.embedded |= other.embedded
        self.included += other.included
        self.read_as.update(other.read_as)
        self.total += other.total
        self.docs += other.docs
        self.unpinned += other.unpinned
        self.warned += other.warned
        self.searched += other.searched


def _check(run: RunContext, out: TextIO, err: TextIO) -> int:
    cache_of(run)  # a bad --charset fails here
    progress = run.progress
    run, targets = targets_of(run)  # FILE:LINE, as check prints a place: only the references there
    tally = _in_parts(run, progress) if targets is None else None
    if tally is None:
        tally = _check_here(run, targets, progress)
    if run.link_targets is not None:
        _links_without_target(tally, site=run.link_targets == "site")
    guarded = guarded_run(run, cache_of(run))
    includes = guarded.check(run, targets) if guarded is not None else None
    if includes is not None:  # (guard mode: the build's literalinclude/snippets includes, beside the references)
        tally.findings += includes.findings
        tally.problems += includes.problems
    config = run.config
    relaxed = _relax(tally, config, strict=run.strict)
    problems = tally.problems
    if not problems and not tally.total and not (includes is not None and includes.count):
        raise nothing_checked(run, tally.docs)  # (never "all current" for a run that checked nothing)
    stale = sum(isinstance(e, StaleError) for _, e in problems)
    bad = sum(e.exit_code != STALE for _, e in problems)
    said = f"{tally.total} reference{'s' if tally.total != 1 else ''}"
    if includes is not None:
        said += f" and {plural(includes.count, 'include')}"
    said += f" in {plural(tally.docs, 'document')}"
    summary = f"textfrag check: {said}: " + (f"{stale} stale, {bad} bad" if problems else "all current")
    summary += unpinned_note(tally.unpinned)
    if includes is not None and guarded is not None:
        summary += _unrecorded_note(includes.unrecorded, guarded.lock_shown)
    if tally.warned:
        summary += f"; {plural(tally.warned, 'warning')}"
    if relaxed and config is not None:
        summary += f"; {relaxed} not failing, as in the build ({relaxed_by(config)})"
    finish(run, tally.findings, problems, summary, out, err)
    if not problems:
        return OK
    return BAD if bad else STALE


def _relax(tally: _Tally, config: BuildConfig | None, *, strict: bool = False) -> int:
    """The problems the build's settings make fail nothing (a stale quote with ``on_stale`` set to warn,
    unless the build is strict, ``--strict`` as ``sphinx-build -W`` and ``mkdocs build --strict``; a kind
    ``suppress_warnings`` silences in Sphinx, which is never said) turned into warnings that say which
    setting did, as the build does with them; how many."""
    if config is None or (config.on_stale != "warning" and not config.suppressed):
        return 0

    def is_relaxed(e: TextFragError) -> bool:
        return lets_pass(config, e, strict=strict)

    if not any(is_relaxed(e) for _, e in tally.problems):
        return 0
    why = relaxed_by(config)
    kept = [(f, e) for f, e in tally.problems if not is_relaxed(e)]
    count = len(tally.problems) - len(kept)
    tally.problems = kept
    tally.findings = [
        fi._replace(error=None, warnings=(*fi.warnings, Warned(fi.error.kind, f"{fi.error.message} (not failing: {why})")))
        if fi.error is not None and is_relaxed(fi.error)
        else fi
        for fi in tally.findings
    ]
    return count


def _links_without_target(tally: _Tally, *, site: bool) -> None:
    """A link to a reference that no page embeds (the MkDocs plugin) or that its own page does not (the
    Markdown extension) has no target: the build warns, and --strict fails it; check fails it."""
    anywhere = {i for _, i in tally.embedded}

    def has_target(f: Found, to: tuple[str, str]) -> bool:
        return to in anywhere if site else (f.file, to) in tally.embedded

    lost = [(f, no_link_target(f.text, site=site)) for f, to in tally.links if not has_target(f, to)]
    if lost:
        tally.problems += lost
        tally.findings += [finding_of(f, e) for f, e in lost]
        tally.problems.sort(key=lambda p: (p[0].file, p[0].line, p[0].column))


def _check_here(run: RunContext, targets: set[tuple[str, int]] | None, progress: Progress | None) -> _Tally:
    """Scan and judge in this process, the quoted files digested on every core as they are found."""
    cache = cache_of(run)
    digester = Digester(cache, progress.show if progress is not None else None)
    scan = scan_documents(run, digester)
    digester.finish()
    if targets is not None:
        scan.entries = [(f, ref) for f, ref in scan.entries if (f.file, f.line) in targets]
        scan.total = len(scan.entries) + sum(1 for f, _ in scan.problems if f.text and (f.file, f.line) in targets)
        scan.problems = [(f, e) for f, e in scan.problems if not f.text or (f.file, f.line) in targets]
    return _judged(run, cache, scan, progress)


def _in_parts(run: RunContext, progress: Progress | None) -> _Tally | None:
    """A large tree: its documents in parts, each scanned and judged by a forked process, the results
    joined in the documents' order (the same output as one process gives). None for a small tree, one
    core, or where processes are not forked."""
    workers = usable_cores()
    if workers < 2:  # (before listing: this process lists the tree itself)
        return None
    tally = _Tally()

    def unlistable(folder: Path, error: OSError) -> None:
        shown = typed_path(folder)
        tally.problems.append(
            (Found(shown, 0, "", 0, 0, "file"), TextFragError(f"cannot list the folder {shown}: {error.strerror}"))
        )

    reads = built_documents(run)
    config = run.config
    engine = config.engine if config is not None else ""  # (AsciiDoc documents and MDX pages: their includes)
    mdx = config is None or engine == "docusaurus"  # (MDX pages: a Docusaurus site's, or remark-textfrag's anywhere)
    extra = [suffix for suffix, _ in config.other_suffixes] if config is not None else []
    walked = doc_files((Path(p) for p in run.paths), unlistable, asciidoc=engine == "asciidoc", mdx=mdx, extra=extra)
    docs = [str(d) for d in walked if reads is None or reads(d)]
    if len(docs) < PARALLEL_DOCS and len(docs) + _includes(docs) < PARALLEL_DOCS:
        return None
    import multiprocessing  # (only a large tree pays for these)
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return None

    size = max(100, min(PART_DOCS, -(-len(docs) // (workers * 4))))
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker, initargs=(run,)
    ) as pool:
        # (the documents' real paths only when they pull in parts: the rest never need them)
        listed: set[str] | None = None
        pending, rounds = [(d, "") for d in docs], 0
        while pending:  # (then the parts the documents pull in, and theirs, each once: in parts too)
            if listed is not None:
                listed.update(real for _, real in pending)
            parts = [pending[i : i + size] for i in range(0, len(pending), size)]
            futures = [pool.submit(_check_part, [d for d, _ in part], _read_as(part, tally.read_as)) for part in parts]
            tally.included = []
            for done, future in enumerate(futures, 1):
                tally.add(future.result())  # in the parts' order, whatever order they end in
                if progress is not None and not rounds:
                    progress.show(f"checked {done}/{len(futures)} parts of {len(docs)} documents")
            first: dict[str, str] = {}  # (each part once, in the order it was first pulled in)
            if tally.included and listed is None:
                listed = {os.path.realpath(d) for d in docs}
            for shown, real in tally.included:
                assert listed is not None
                if real not in listed and real not in first:
                    first[real] = shown
            pending = [(shown, real) for real, shown in first.items()]
            rounds += 1
    return tally


def _read_as(docs: list[tuple[str, str]], read_as: dict[str, str]) -> dict[str, str]:
    """The suffixes the build reads these parts as, by the names the worker is given (what it needs of
    ``read_as``, and no more)."""
    return {shown: read_as[real] for shown, real in docs if real in read_as} if read_as else {}


def _includes(docs: list[str]) -> int:
    """How many parts the documents pull in (``.. include::``, ``{include}``), counted in their text: what
    makes a tree of fewer documents large enough for every core. 0 for a handful of documents."""
    if len(docs) < PARALLEL_DOCS // 20:
        return 0
    count = 0
    for doc in docs:
        try:
            with open(doc, "rb") as f:
                text = f.read(1 << 20)
        except OSError:
            continue
        count += text.count(b"include::") + text.count(b"{include}")
    return count


class _Worker:
    """What a worker process of one ``check`` keeps from part to part: the run's settings, its source
    cache (each quoted file read and hashed once per worker, not once per part) and the verdicts on
    references written the same way again."""

    def __init__(self, run: RunContext) -> None:
        self.run = run.but(paths=(), listed=True)  # (forked: the run's context as it is, never pickled)
        self.cache = cache_of(self.run)
        self.judged: dict[tuple[str, object], Verdict] = {}


#: the worker process's own (set by the pool's initializer in each forked worker, which lives only as
#: long as the check that started it)
_WORKER: _Worker | None = None


def _start_worker(run: RunContext) -> None:
    global _WORKER
    _WORKER = _Worker(run)


def _check_part(docs: list[str], read_as: dict[str, str]) -> _Tally:
    """One part of a large tree, in a worker process: its documents scanned and their references judged
    (a part an include pulls in read as ``read_as`` says: the real path -> the suffix its page gives it)."""
    assert _WORKER is not None
    run = _WORKER.run.but(paths=tuple(docs), read_as=read_as)
    try:
        return _judged(run, _WORKER.cache, scan_documents(run, None), None, _WORKER.judged)
    finally:
        store.flush()  # (a worker exits without running exit handlers)


#: the kinds of warning check says (a language Pygments does not know fails with --strict, as with -W)
_SAID = ("bidi", "integrity", "language")
_STRICT = ("language",)


def _judged(
    run: RunContext,
    cache: SourceCache,
    scan: Scan,
    progress: Progress | None,
    judged: dict[tuple[str, object], Verdict] | None = None,
) -> _Tally:
    """The core's verdict on every reference of ``scan``, as the findings and problems check reports."""
    tally = _Tally()
    config = run.config
    strict = run.strict
    tally.included = [(str(p), scan.real_of.get(str(p)) or os.path.realpath(p)) for p in scan.included]
    tally.read_as = scan.read_as
    tally.problems = list(scan.problems)
    tally.findings = [finding_of(f, e) for f, e in scan.problems]
    tally.total, tally.docs = scan.total, len(scan.docs)
    total = len(scan.entries)
    # each reference written the same way again is looked up once; a file whose text some verdict reads
    # (an intent, an option checked against the excerpt) is read once, for its digest too
    unique: dict[str, Reference] = {}
    for _, ref in scan.entries:
        unique.setdefault(ref.text, ref)
    prefetch_history(cache, unique.values(), load_text=scan.texts)
    settings = Settings(require_pin=run.require_pin, highlighter=highlighter_of(config))
    # every result is kept only for JSON, which lists them all; the other formats say only what is wrong
    every = output_format(run.format, os.environ, FORMATS).every
    links = run.link_targets is not None  # (links are then told where they point)
    #: the verdict on a reference written the same way again (one file quoted many times, the same
    #: lines on many pages): judged once; bounded, so that memory does not grow with the references
    judged = {} if judged is None else judged
    for i, (f, ref) in enumerate(scan.entries, 1):
        (raw, syntax, form), said = scan.written_at(f)
        key = (ref.text, said)
        verdict = judged.get(key)
        if verdict is None:
            verdict = judge(
                cache,
                ref,
                raw,
                syntax=syntax,
                form=form,
                settings=settings,
                show=False,
                bidi=not run.args.allow_bidi,
                remember=True,
            )
            if len(judged) >= 65536:
                judged.clear()
            judged[key] = verdict
        if links and not verdict.problems and f.kind in ("link", "definition", "image"):
            if f.kind == "image":
                tally.embedded.add((f.file, identity(ref)))
            else:
                tally.links.append((f, identity(ref)))
        tally.unpinned += not verdict.pinned
        problems = verdict.problems
        if not problems and not verdict.warnings and not every:  # (the usual verdict: nothing to say)
            if progress is not None:
                progress.show(checked_so_far(i, total, tally.searched))
            continue
        warned = tuple(Warned(w.kind, w.message) for w in verdict.warnings if w.kind in _SAID)
        if strict and any(w.kind in _STRICT for w in verdict.warnings):  # (as sphinx-build -W fails it)
            problems = [*problems, *(w for w in verdict.warnings if w.kind in _STRICT)]
            warned = tuple(w for w in warned if w.kind not in _STRICT)
        for problem in problems or [None]:  # type: ignore[list-item]
            if problem is None and not warned and not every:
                continue
            tally.findings.append(Finding(f.file, f.line, f.column, f.text or None, problem, warned, verdict.pinned))
            warned = ()  # (said once)
            if problem is not None:
                tally.problems.append((f, problem))
                tally.searched += isinstance(problem, StaleError) and problem.drift is not None
        tally.warned += any(w.kind in _SAID and not (strict and w.kind in _STRICT) for w in verdict.warnings)
        if progress is not None:
            progress.show(checked_so_far(i, total, tally.searched))
    return tally


def _unrecorded_note(count: int, lock: str) -> str:
    from ._guard import unrecorded_note

    return unrecorded_note(count, lock)


#: the command, as the command line lists it
COMMAND = Command("check", add_parser, _check)
