"""``textfrag pin``: pin every unpinned reference in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..repair.rewrite import DocText

from ..documents.scan import Found
from ..errors import StaleError, TextFragError, spell
from ..report.formats import machine_readable
from ..verdict.pins import is_pinned
from ._base import BAD, OK, STALE, add_common, add_output, cache_of, finding_of, finish, plural, write_diff
from ._guarded import guarded_run
from ._scan import defined_elsewhere, left_as_is, scan_documents, targets_of, write_or_show, written_names
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``pin`` subcommand's parser."""
    pin = sub.add_parser(
        "pin",
        help="pin every unpinned reference in place (add length and md5)",
        description=(
            "Give every reference without an md5 its integrity checks, in place: an RFC 5147 reference keeps its "
            "range exactly as written and gains length and md5 (a length it has is verified first); a GitHub, w3m, "
            "draft-wilde line()/char() or PDI reference becomes the RFC 5147 reference for the same text; a text "
            "search (match(), :words:, :~:text=) is listed and left, unless --convert. Without --write, print the "
            "diff (a patch git apply takes) and change nothing; with it, files are replaced as update replaces them."
        ),
    )
    add_common(pin)
    add_output(pin)
    pin.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    pin.add_argument(
        "--convert",
        action="store_true",
        help="also turn text searches (match(), :words:, :~:text=) into the pinned RFC 5147 reference for the text they find now",
    )
    pin.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )


def _pin(run: RunContext, out: TextIO, err: TextIO) -> int:
    """Pin every unpinned reference in place (textfrag.verdict.pins); list those left, and why; change nothing else."""
    from ..reference.integrity import misspelt_checks
    from ..repair.rewrite import read_doc, write_places
    from ..verdict.pins import pinned_form
    from ..verdict.written_options import intent_of, options_of

    cache = cache_of(run)
    try:  # (pin, a command the user runs, fetches the commits the lock names that the cache lacks)
        cache.sources.fetch = True
    except TextFragError:
        pass  # (a declaration that is wrong: said by each quote of it)
    run, targets = targets_of(run)
    scan = scan_documents(run)
    problems = scan.problems
    findings = [finding_of(f, e) for f, e in problems]
    places = write_places(run.root, run.paths)
    docs: dict[str, DocText] = {}
    left: list[tuple[Found, str]] = []
    pinning: dict[tuple[str, int], Found] = {}
    for f, ref in scan.entries:
        settled = is_pinned(ref) and not (ref.fragment is not None and misspelt_checks(ref.fragment))
        if settled or (targets is not None and (f.file, f.line) not in targets):
            findings.append(finding_of(f, None, is_pinned(ref)))
            continue
        try:
            if f.file not in docs:
                docs[f.file] = read_doc(scan.docs[f.file], f.file, run.max_size, within=places)
            doc = docs[f.file]
            # (the intent written with it: a whole file's reference is pinned to the lines it selects)
            intent = intent_of(options_of(doc.text, f)) if doc.text[f.start : f.end] == f.text else None
            outcome = pinned_form(scan.cache_for(cache, f), ref, convert=run.args.convert, intent=intent)
            if outcome.text is None:
                left.append((f, outcome.reason or "left as it is"))
                findings.append(finding_of(f, None, False))
                continue
            if (f.file, f.start) in pinning:  # (a substitution used twice: its value pinned once)
                findings.append(finding_of(f, None, bool(run.write)))
                continue
            if doc.text[f.start : f.end] != f.text:  # the scanner and the reader must agree, or nothing is written
                elsewhere = defined_elsewhere(doc, f, outcome.text)
                if elsewhere is None:
                    raise left_as_is(doc, f, outcome.text)
                left.append((f, elsewhere))
                findings.append(finding_of(f, None, False))
                continue
        except TextFragError as failure:  # bad, or stale (a wrong length): reported, nothing written for it
            problems.append((f, failure))
            findings.append(finding_of(f, failure, False))
            continue
        doc.edits.append((f.start, f.end, outcome.text))
        pinning[(f.file, f.start)] = f
        findings.append(finding_of(f, None, bool(run.write)))
    written = len(write_or_show(run, docs, out, problems))
    kept = written_names(docs, problems)
    for key in [k for k in pinning if k[0] not in kept]:
        del pinning[key]  # (its file could not be written)
    if not machine_readable(run.format) and not run.quiet:
        style = run.style
        for f, why in sorted(left, key=lambda item: (item[0].file, item[0].line)):
            print(f"{style.paint(spell(f'{f.file}:{f.line}'), 'bold')}: {spell(f.text)}: left as it is: {why}", file=err)
    files = len({k[0] for k in pinning})
    recorded = ""
    guarded = guarded_run(run, cache)
    if guarded is not None:  # (guard mode: what each include shows, recorded in the lock file)
        includes, count = guarded.pin(run, targets)
        findings += includes.findings
        problems += includes.problems
        lock = guarded.lock_shown
        if not run.write and count and not machine_readable(run.format):
            write_diff(out, guarded.lock_diff())
        recorded = f"; {'recorded' if run.write else 'would record'} {plural(count, 'include')} in {lock}"
        recorded += "" if run.write or not count else " (run with --write)"
    stale = sum(isinstance(e, StaleError) for _, e in problems)
    bad = sum(e.exit_code != STALE for _, e in problems)
    done = (
        f"pinned {plural(len(pinning), 'reference')} in {plural(written, 'document')}"
        if run.write
        else f"{plural(len(pinning), 'reference')} would be pinned in {plural(files, 'document')} (run with --write)"
    )
    summary = f"textfrag pin: {scan.summary()}: {done}{recorded}; {len(left)} left as they are, {stale} stale, {bad} bad"
    finish(run, findings, problems, summary, out, err)
    if bad:
        return BAD
    return STALE if stale else OK


#: the command, as the command line lists it
COMMAND = Command("pin", add_parser, _pin)
