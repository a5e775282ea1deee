"""``textfrag update``: rewrite what only moved; with ``--accept``, re-pin what changed."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..guard import GuardedInclude, IncludeRepair
    from ..repair.rewrite import DocText
    from ..source.cache import SourceCache

from ..errors import StaleError, TextFragError, UnpinnedError, spell, spell_lines
from ..reference.fragment import Reference
from ..report.formats import Finding, machine_readable
from ..verdict.option_table import Syntax
from ..verdict.pins import is_pinned
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
    plural,
    unpinned_note,
    write_diff,
)
from ._guarded import guarded_run
from ._scan import left_as_is, scan_documents, stale_after_writing, targets_of, write_or_show, written_names
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``update`` subcommand's parser."""
    update = sub.add_parser(
        "update",
        help="rewrite stale references whose quoted text only moved (or was renamed, or changed line endings)",
        description=(
            "For every stale reference, find the version of the file it was made for in git history; if the "
            "quoted text is unchanged and occurs once in the file now (the file renamed, or only its line endings "
            "changed, included), rewrite the reference (path, range and checks) and the options that count its "
            "lines (:emphasize-lines:, :lineno-start:), and nothing else. With --accept, also re-pin changed "
            "references to what their range or intent selects now, after review. Without --write, print the "
            "diff and change nothing."
        ),
    )
    add_common(update)
    add_output(update)
    update.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    update.add_argument(
        "--accept",
        action="store_true",
        help="also re-pin changed references (after review) to the text their range or intent selects now; "
        "FILE:LINE arguments limit it to the references at those lines",
    )
    update.add_argument(
        "--accept-whole-files",
        action="store_true",
        help="also re-pin changed references that quote a whole file (line=0, to the end), showing each diff: "
        "a whole-file quote changes with every edit of its file (the pre-commit hook textfrag-update-whole-files)",
    )
    update.add_argument(
        "--no-diffs",
        action="store_true",
        help="say a changed quote left as it is in one line, without its diff (the pre-commit hook textfrag-update: "
        "textfrag check, the next hook, shows each diff once)",
    )
    add_require_pin(update)
    update.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )


def _whole_file(ref: Reference) -> bool:
    """Whether ``ref`` quotes its whole file, as it grows: ``line=0,`` or ``char=0,`` (or no fragment)."""
    fragment = ref.fragment
    if ref.selector is not None:
        return False
    if fragment is None:
        return True
    scheme = fragment.scheme
    return scheme.is_range and not scheme.start and scheme.end is None


def _update(run: RunContext, out: TextIO, err: TextIO) -> int:
    """Rewrite the references whose quoted text only moved (and, with --accept, re-pin the changed ones);
    list the others; change nothing else."""
    return run_update(run, out, err, cache_of(run))


def run_update(run: RunContext, out: TextIO, err: TextIO, cache: SourceCache) -> int:
    """:func:`_update` reading the quoted files through ``cache`` (``sources update``: the sources as they
    would be after the move)."""
    from ..repair.references import repair
    from ..repair.rewrite import read_doc, write_places
    from ..verdict.written_options import options_of

    run, targets = targets_of(run)
    scan = scan_documents(run)
    problems = scan.problems
    moved_to: dict[tuple[str, int], StaleError] = {}  # the moved references' errors, for the findings
    places = write_places(run.root, run.paths)  # (a document that is a link out of them is never rewritten)
    docs: dict[str, DocText] = {}
    rewritten: dict[tuple[str, int], str] = {}  # (document, offset) -> the new reference
    accepted = repinned = 0
    progress = run.progress
    total, searched = len(scan.entries), 0
    stale_at = prefetch_history(cache, [ref for _, ref in scan.entries], load_text=True)
    for i, (f, ref) in enumerate(scan.entries, 1):
        progress.show(checked_so_far(i - 1, total, searched))
        targeted = targets is None or (f.file, f.line) in targets
        doc: DocText | None = None
        # a document is read again only where it may be rewritten: beside a stale or missing reference
        if i - 1 in stale_at and f.kind in ("directive", "image") and f.file not in docs:
            try:
                docs[f.file] = read_doc(scan.docs[f.file], f.file, run.max_size, within=places)
            except TextFragError as unreadable:
                problems.append((f, unreadable))
                continue
        doc = docs.get(f.file)
        options = options_of(doc.text, f) if doc is not None and doc.text[f.start : f.end] == f.text else []
        try:
            syntax: Syntax = "md" if f.kind == "image" else "rst"
            accept = (run.args.accept and targeted) or (run.args.accept_whole_files and _whole_file(ref))
            fix = repair(scan.cache_for(cache, f), ref, options, accept=accept, syntax=syntax)
        except TextFragError as failure:
            problems.append((f, failure))
            continue
        if fix is None:
            continue
        searched += fix.drift is not None
        if fix.new is None or fix.drift is None or not targeted:
            problems.append((f, fix.stale))
            continue
        drift, stale, new, follow, accepting = fix.drift, fix.stale, fix.new, fix.follow, fix.accepted
        if f.file not in docs:
            try:
                docs[f.file] = read_doc(scan.docs[f.file], f.file, run.max_size, within=places)
            except TextFragError as unreadable:
                problems.append((f, unreadable))
                continue
        doc = docs[f.file]
        if (f.file, f.start) in rewritten:  # (a substitution used twice: its value rewritten once)
            continue
        if doc.text[f.start : f.end] != f.text:  # the scanner and the reader must agree, or nothing is written
            problems.append((f, left_as_is(doc, f, new)))
            continue
        doc.edits.append((f.start, f.end, new))
        doc.edits.extend(follow)
        rewritten[(f.file, f.start)] = new
        moved_to[(f.file, f.start)] = stale
        accepted += accepting
        repinned += drift.kind == "invisible" and not accepting
        if not machine_readable(run.format):
            progress.clear()
            style = run.style
            how = "accepted" if accepting else "renamed and moved" if drift.new_path else drift.kind
            place = style.paint(spell(f"{f.file}:{f.line}"), "bold")
            print(f"{place}: {spell(ref.text)}: {how} -> {style.paint(spell(new), 'green')}", file=err)
            if accepting and drift.diff:
                print(style.diff(spell_lines(drift.diff)), file=err)
    guarded = guarded_run(run, cache)
    include_findings: list[Finding] = []
    repairs: list[tuple[str, GuardedInclude, IncludeRepair]] = []
    if guarded is not None:  # (guard mode: moved and renamed includes repaired; with --accept, changed ones recorded)
        includes, repairs = guarded.update(run, targets, docs, places, err)
        problems.extend(includes.problems)
        include_findings = includes.findings
    written = write_or_show(run, docs, out, problems)
    if guarded is not None and not run.write and repairs and not machine_readable(run.format):
        write_diff(out, guarded.planned(repairs))  # (and the records that would follow them)
    kept = written_names(docs, problems)
    repaired = guarded.commit(repairs, set(written)) if guarded is not None and run.write else len(repairs)
    for key in [k for k in rewritten if k[0] not in kept]:
        del rewritten[key]  # (its file could not be written)
    moved = len(rewritten) - accepted - repinned
    if written:
        problems.extend(stale_after_writing(run, scan, written, rewritten))
    pins = {(f.file, f.start): is_pinned(ref) for f, ref in scan.entries}
    if run.require_pin:  # (a reference rewritten here keeps its checks: pinned if it was)
        problems.extend((f, UnpinnedError(reference=ref.text)) for f, ref in scan.entries if not pins[(f.file, f.start)])
    left = sum(isinstance(e, StaleError) for _, e in problems)
    unpinned = sum(not p for p in pins.values())
    bad = sum(e.exit_code != STALE for _, e in problems)
    remaining = left + (0 if run.write else len(rewritten) + len(repairs)) + (unpinned if run.require_pin else 0)
    files = len(written) if run.write else len([d for d in docs.values() if d.edits])
    # (only includes repaired: the documents rewritten are theirs, and no reference is counted)
    only_includes = guarded is not None and bool(repairs) and not (moved or repinned or accepted)
    said = [plural(moved, "moved reference")] if moved or not (repinned or accepted or only_includes) else []
    said += [f"{plural(repinned, 'reference')} whose line endings, BOM or charset changed"] if repinned else []
    said += [plural(accepted, "accepted reference")] if accepted else []
    what = " and ".join(said)
    if only_includes:
        head = (
            f"rewrote {plural(files, 'document')}"
            if run.write
            else f"{plural(files, 'document')} would be rewritten (run with --write)"
        )
    elif run.write and not files:
        head = f"rewrote {what}"  # (nothing: no document named)
    elif run.write:
        head = f"rewrote {what} in {plural(files, 'document')}"
    else:
        head = f"{what} would be rewritten in {plural(files, 'document')} (run with --write)"
    if guarded is not None:
        head += f"; {plural(repaired, 'include')} {'repaired' if run.write else 'to repair'}"
        head += f" (in {guarded.lock_shown})" if repaired else ""
    summary = f"textfrag update: {scan.summary()}: {head}; {left} stale left as they are, {bad} bad"
    summary += unpinned_note(unpinned)
    failed = {(f.file, f.start): e for f, e in problems}
    findings = [finding_of(f, failed.get((f.file, f.start))) for f, _ in problems if not f.text]
    for f, _ref in scan.entries:
        error = failed.get((f.file, f.start))
        if error is None and (not run.write or (f.file, f.start) not in rewritten):
            error = moved_to.get((f.file, f.start))  # still stale until written
        findings.append(finding_of(f, error, pins[(f.file, f.start)]))
    findings += include_findings
    if run.args.no_diffs:
        problems = [(f, _without_diff(e)) for f, e in problems]
    finish(run, findings, problems, summary, out, err)
    if bad:
        return BAD
    return STALE if remaining else OK


def _without_diff(error: TextFragError) -> TextFragError:
    """A quote ``update --no-diffs`` leaves as it is, said without the diff of what changed: the hook
    repairs what moved, and ``textfrag check`` (the next hook, the CI gate) shows each diff, once."""
    if not isinstance(error, StaleError) or not error.notes:
        return error
    brief = copy.copy(error)
    brief.notes = ""
    brief.message = f"{error.message} (`textfrag check` shows the diff)"
    brief.args = (brief.message,)
    return brief


#: the command, as the command line lists it
COMMAND = Command("update", add_parser, _update)
