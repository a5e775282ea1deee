"""``textfrag check``: the core's verdict on every reference of the documents, as a build reaches it."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..errors import StaleError
from ..quote import prefetch_history
from ..report import Finding
from ..verdict import Settings, Verdict, judge
from ._base import (
    BAD,
    OK,
    STALE,
    _cache,
    _checked,
    _common,
    _finding,
    _finish,
    _output,
    _plural,
    _require_pin,
    _terminal,
    _unpinned_note,
)
from ._digest import _Digester
from ._scan import _scan, _targets


def add_parser(sub: Any) -> None:
    """The ``check`` subcommand's parser."""
    check = sub.add_parser(
        "check",
        help="verify every reference in documentation sources",
        description="Find every reference in .rst/.md sources under the paths (without building) and verify it.",
    )
    _common(check)
    _output(check)
    check.add_argument(
        "--allow-bidi",
        action="store_true",
        help="do not warn of bidirectional control characters in quoted text (Trojan Source, CVE-2021-42574)",
    )
    _require_pin(check)
    check.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cache = _cache(args)  # a bad --charset fails here
    progress = _terminal(args, err)[0]
    targets = _targets(args)  # FILE:LINE, as check prints a place: only the references there
    digester = _Digester(cache, args, progress)
    scan = _scan(args, digester)
    digester.finish()
    if targets is not None:
        scan.entries = [(f, ref) for f, ref in scan.entries if (f.file, f.line) in targets]
        scan.total = len(scan.entries) + sum(1 for f, _ in scan.problems if f.text and (f.file, f.line) in targets)
        scan.problems = [(f, e) for f, e in scan.problems if not f.text or (f.file, f.line) in targets]
    problems = scan.problems
    findings = [_finding(f, e) for f, e in problems]
    total, searched = len(scan.entries), 0
    prefetch_history(cache, [ref for _, ref in scan.entries])
    warned = unpinned = 0
    settings = Settings(require_pin=args.require_pin)
    # every result is kept only for JSON, which lists them all; the other formats say only what is wrong
    every = (args.format or "") == "json"
    #: the verdict on a reference written the same way again (one file quoted many times, the same
    #: lines on many pages): judged once; bounded, so that memory does not grow with the references
    judged: dict[tuple[str, object, str, str], Verdict] = {}
    for i, (f, ref) in enumerate(scan.entries, 1):
        raw, syntax, form = scan.written_at(f)
        key = (ref.text, tuple(raw.items()) if raw else None, syntax, form)
        verdict = judged.get(key)
        if verdict is None:
            verdict = judge(cache, ref, raw, syntax=syntax, form=form, settings=settings, show=False, bidi=not args.allow_bidi)
            if len(judged) >= 65536:
                judged.clear()
            judged[key] = verdict
        hidden = verdict.hidden
        unpinned += not verdict.pinned
        for problem in verdict.problems or [None]:  # type: ignore[list-item]
            if problem is None and hidden is None and not every:
                continue
            findings.append(
                Finding(f.file, f.line, f.column, f.text or None, problem, (hidden.message,) if hidden else (), verdict.pinned)
            )
            hidden = None  # (said once)
            if problem is not None:
                problems.append((f, problem))
                searched += isinstance(problem, StaleError) and problem.drift is not None
        warned += verdict.hidden is not None
        progress.show(_checked(i, total, searched))
    stale = sum(isinstance(e, StaleError) for _, e in problems)
    bad = sum(e.exit_code != STALE for _, e in problems)
    summary = f"textfrag check: {scan.summary()}: " + (f"{stale} stale, {bad} bad" if problems else "all current")
    summary += _unpinned_note(unpinned)
    if warned:
        summary += f"; {_plural(warned, 'warning')} (hidden text)"
    _finish(args, findings, problems, summary, out, err)
    if not problems:
        return OK
    return BAD if bad else STALE
