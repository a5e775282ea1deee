"""``textfrag make``: print a pinned RFC 5147 reference for a selection (or ``--batch`` of them)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..intents.intent import Intent

from ..errors import TextFragError, spell, spell_lines
from ..reference.linespec import number, parse_line_range
from ..reference.resolving import Selection, occurrences, select, select_lines, whole
from ..source.cache import Source, SourceCache
from ..verdict.quoting import make_reference, quote
from ._base import BAD, OK, Parser, add_common, cache_of
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``make`` subcommand's parser."""
    make = sub.add_parser(
        "make",
        help="print an RFC 5147 reference with integrity checks",
        description=(
            "Print PATH#FRAGMENT with length and md5 for a selection. "
            "--lines counts from 1 like an editor; the printed line= counts from 0."
        ),
    )
    add_common(make)
    make.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        type=lambda path: path.removeprefix("txtfrag:"),
        help="file, relative to the root (or txtfrag://NAME/PATH: a file of the declared source NAME)",
    )
    what = make.add_mutually_exclusive_group()
    what.add_argument(
        "--from",
        dest="from_ref",
        metavar="REF",
        help="a reference of any dialect: print the RFC 5147 reference(s) for the same text, one per piece",
    )
    what.add_argument(
        "--lines",
        metavar="A-B",
        help="lines A to B, 1-based and inclusive (e.g. 11-20, or 7 for one line); A- runs to the end of the file, "
        "as it grows (an open end: line=A-1,)",
    )
    what.add_argument(
        "--whole", action="store_true", help="the whole file, as it grows (line=0, with an open end), still pinned by its checks"
    )
    what.add_argument("--chars", metavar="S,E", help="RFC 5147 character positions (0-based, E exclusive)")
    what.add_argument("--match", metavar="TEXT", help="the one occurrence of TEXT in the file")
    intent = make.add_argument_group(
        "by intent",
        "what the lines are, as literalinclude and pymdownx.snippets say it: the reference pins the lines they "
        "select now, and the options that say why are printed under it, to write beside it",
    )
    intent.add_argument("--pyobject", metavar="NAME", help="a Python class or function (Class.method), decorators included")
    intent.add_argument("--start-after", metavar="TEXT", help="from the line after the first line holding TEXT")
    intent.add_argument("--start-at", metavar="TEXT", help="from the first line holding TEXT")
    intent.add_argument("--end-before", metavar="TEXT", help="up to the line before the next line holding TEXT")
    intent.add_argument("--end-at", metavar="TEXT", help="up to the next line holding TEXT")
    intent.add_argument("--section", metavar="NAME", help="a pymdownx.snippets section (--8<-- [start:NAME] to [end:NAME])")
    intent.add_argument(
        "--symbol",
        metavar="NAME",
        help="a definition (Class.method, pkg::f) in Python, JavaScript, TypeScript, Go, Rust, Java, Kotlin, C, C++, "
        "C#, Ruby, PHP or Swift, decorators and attributes included (pip install 'textfrag[symbols]')",
    )
    intent.add_argument(
        "--region",
        metavar="NAME",
        help="the lines between region markers: [START NAME]/[END NAME], #region NAME/#endregion, "
        ":snippet-start: NAME/:snippet-end:, [start:NAME]/[end:NAME] (behind any line comment)",
    )
    make.add_argument(
        "--form",
        choices=("rst", "md"),
        default=None,
        help="print an intent as reStructuredText/MyST option lines (rst) or as a Markdown image with its attributes "
        "(md); default: the project's (md for an mkdocs.yml, properdocs.yml or zensical.toml)",
    )
    make.add_argument("--no-length", action="store_true", help="leave out the length check")
    make.add_argument("--no-md5", action="store_true", help="leave out the md5 check")
    make.add_argument(
        "--batch",
        action="store_true",
        help="read one request per line from standard input (PATH and options, as on this command line); "
        "print the results in order, each file read once",
    )


def _selection_for(run: RunContext, source: Source, reference: str) -> Selection:
    if run.args.lines is not None:
        count = source.line_count
        spec = run.args.lines.strip()
        try:
            if spec.endswith("-"):  # A-: to the end of the file
                first = number(spec[:-1].strip(), f"--lines {spec!r}: the first line")
                spec = f"{spec}{max(count, first)}"
            wanted = parse_line_range(spec, "--lines")
        except TextFragError as err:
            raise TextFragError(f"{err.message} (--lines takes A-B or A-, 1-based, e.g. 11-20)", reference=reference) from None
        if wanted.last > count:
            raise TextFragError(f"--lines {run.args.lines}: the file has {count} lines", reference=reference)
        return select_lines(source, wanted.first, wanted.last)
    if run.args.chars is not None:
        s, sep, e = run.args.chars.partition(",")
        try:
            if not sep:
                raise TextFragError("no comma")
            start, end = number(s, "the start"), number(e, "the end")
        except TextFragError as err:
            raise TextFragError(
                f"--chars takes S,E, two RFC 5147 character positions (e.g. 0,40), not {run.args.chars!r} ({err.message})",
                reference=reference,
            ) from None
        if start > end:
            raise TextFragError(f"--chars {run.args.chars}: the start is after the end", reference=reference)
        if end > source.length:
            raise TextFragError(f"--chars {run.args.chars}: the file has {source.length} characters", reference=reference)
        return select(source, source.index_of_char(start), source.index_of_char(end))
    needle = run.args.match
    if not needle:
        raise TextFragError("--match needs a non-empty text", reference=reference)
    hits = occurrences(source, needle, 10)
    if not hits:
        raise TextFragError(f"--match: the text {needle!r} does not occur in the file", reference=reference)
    if len(hits) > 1:
        lines = ", ".join(str(n) for n in dict.fromkeys(source.line_of_index(h) for h in hits))
        raise TextFragError(
            f"--match: the text {needle!r} occurs more than once (lines {lines}); make it longer or use --lines",
            reference=reference,
        )
    return select(source, hits[0], hits[0] + len(needle))


def _make(run: RunContext, out: TextIO, err: TextIO) -> int:
    cache = cache_of(run)
    if not run.args.batch:
        return _make_one(run, cache, out)
    import shlex

    if run.args.path is not None or _intent_of(run) is not None or _selected_by(run):
        raise TextFragError("--batch reads every request from standard input; give none on the command line")
    from . import build_parser  # (the whole command line's parser, for each request)

    parser = build_parser(_BatchParser)
    failed = 0
    for number_, line in enumerate(sys.stdin, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            request = parser.parse_args(["make", *shlex.split(line)])
            if request.batch:
                raise TextFragError("a request cannot ask for --batch")
            _make_one(run.but(args=request), cache, out)
        except (TextFragError, _UsageError, ValueError) as problem:
            failed += 1
            message = problem.describe("") if isinstance(problem, TextFragError) else str(problem)
            print(f"<stdin>:{number_}: {spell(line.strip())}: {spell_lines(message.lstrip(': '))}", file=err)
    return BAD if failed else OK


class _UsageError(Exception):
    """A request of ``make --batch`` that the command line would refuse."""


class _BatchParser(Parser):
    """The parser of requests read by ``make --batch``: a usage error is raised, not printed and exited."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _selected_by(run: RunContext) -> bool:
    typed = run.args
    return any((typed.from_ref, typed.lines, typed.whole, typed.chars, typed.match))


def _intent_of(run: RunContext) -> Intent | None:
    from ..intents.intent import Intent  # (make by intent only: ast is not imported by check)

    given = {
        "pyobject": run.args.pyobject,
        "start-after": run.args.start_after,
        "start-at": run.args.start_at,
        "end-before": run.args.end_before,
        "end-at": run.args.end_at,
        "section": run.args.section,
        "region": run.args.region,
        "symbol": run.args.symbol,
    }
    return Intent.from_options(given)


def _form(run: RunContext) -> str:
    """How the intent is printed: ``--form``, else the project's (a Markdown one for an mkdocs.yml,
    properdocs.yml or zensical.toml), else reStructuredText's option lines."""
    if run.args.form:
        return str(run.args.form)
    config = run.config
    return "md" if config is not None and config.path.suffix in (".yml", ".yaml", ".toml") else "rst"


def _make_one(run: RunContext, cache: SourceCache, out: TextIO) -> int:
    checks = {"length": not run.args.no_length, "md5": not run.args.no_md5}
    intent = _intent_of(run)
    if intent is not None and _selected_by(run):
        raise TextFragError("give the lines either by intent (--pyobject, --start-after...) or by --lines, --chars...")
    if intent is None and not _selected_by(run):
        raise TextFragError("make needs what to quote: --lines, --whole, --chars, --match, --from, or an intent (--pyobject...)")
    if intent is not None:
        if run.args.path is None:
            raise TextFragError("make needs the PATH of the file to quote")
        from ..intents.intent import intent_lines

        source = cache.get(run.args.path, run.args.path)
        try:
            kept = intent_lines(source.text, intent, path=source.path)
        except TextFragError as why:
            raise TextFragError(f"{intent}: {why.message}", reference=run.args.path) from None
        reference = make_reference(select_lines(source, kept[0], kept[-1]), lines=True, **checks)
        if _form(run) == "md":  # a MkDocs, Zensical or ProperDocs project writes the intent as attributes
            said = " ".join(f'{name}="{value}"' for name, value in intent.options() if '"' not in value)
            print(f"![](txtfrag:{reference}){{ {said} }}", file=out)
            return OK
        print(_spelt(reference), file=out)
        for name, value in intent.options():
            print(f"   :{name}: {value}", file=out)
        return OK
    if run.args.from_ref is not None:
        if run.args.path is not None:
            raise TextFragError("--from takes the file from the reference; give no PATH", reference=run.args.from_ref)
        q = quote(cache, run.args.from_ref, explain=False)
        scheme = q.reference.fragment.scheme if q.reference.fragment is not None else None
        open_end = scheme is not None and scheme.is_range and scheme.end is None  # what runs to the end still does
        for piece in q.selections:  # a disjoint selection becomes one reference per piece
            print(_spelt(make_reference(piece, open_end=open_end, **checks)), file=out)
        return OK
    if run.args.path is None:
        raise TextFragError("make needs the PATH of the file to quote (or --from REF)")
    source = cache.get(run.args.path, run.args.path)
    if run.args.whole:
        print(_spelt(make_reference(whole(source), lines=True, open_end=True, **checks)), file=out)
        return OK
    selection = _selection_for(run, source, run.args.path)
    lines = True if run.args.lines is not None else False
    open_end = run.args.lines is not None and run.args.lines.strip().endswith("-")
    print(_spelt(make_reference(selection, lines=lines, open_end=open_end, **checks)), file=out)
    return OK


def _spelt(reference: str) -> str:
    """A reference as make prints it: a declared source's file as ``txtfrag://NAME/PATH#...``, which every
    syntax reads (``//NAME/...`` alone would be a link to another site in Markdown)."""
    return f"txtfrag:{reference}" if reference.startswith("//") else reference


#: the command, as the command line lists it
COMMAND = Command("make", add_parser, _make)
