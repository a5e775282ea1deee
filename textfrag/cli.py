"""The ``textfrag`` command line (shared/CONTRACT.md section 3).

Exit codes for every subcommand: 0 ok; 1 one or more references are stale; 2 a bad reference or bad
usage; 3 an internal error (a bug in textfrag). Errors go to standard error as ``WHERE: REFERENCE: what
is wrong``, never as a traceback, except after the internal-error message: a bug must never read as a
finding about the documentation (exit 1 is what CI takes for drift).
"""

from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .config import BuildConfig
    from .intent import Intent
    from .rewrite import DocText

from . import __version__
from ._parser import parse_reference
from .errors import StaleError, TextFragError, UnpinnedError, internal_error_report, spell, spell_lines
from .fragment import Reference
from .linespec import number, parse_line_range
from .options import written_options
from .optiontable import Form, Syntax
from .pin import is_pinned
from .quote import make_reference, prefetch_history, quote
from .report import FORMATS, Finding, github_commands, json_results, sarif_log
from .resolve import Selection, occurrences, select, select_lines, whole
from .scan import Found, doc_files, read_text, scan_text
from .source import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, Digest, Source, SourceCache, digest_batch
from .terminal import Progress, Style
from .verdict import Settings, judge

__all__ = ["main"]

OK, STALE, BAD, INTERNAL = 0, 1, 2, 3
WHERE_ARGV = "command line"


class _Help(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal, measured without importing shutil (argparse's own way
    pulls in shutil and its compression modules on every run, for help that is rarely printed)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() gives it: COLUMNS, else standard output's, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors exit 2, as every bad usage does (argparse's default is also 2, but prints differently)."""
        self.print_usage(sys.stderr)
        self.exit(BAD, f"{self.prog}: error: {message}\n")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="folder that reference paths are relative to (default: the build's, see --config; else .)",
    )
    p.add_argument(
        "--config",
        default=None,
        metavar="FILE",
        help="read the root, charset, size limit and PDI map from a Sphinx conf.py, an mkdocs.yml or a zensical.toml "
        "(check and update find one by themselves when neither --root nor --config is given)",
    )
    p.add_argument("--charset", default=None, metavar="NAME", help="charset of files without a BOM (default: UTF-8)")
    p.add_argument(
        "--max-size",
        type=int,
        default=None,
        metavar="BYTES",
        help=f"refuse larger files (default: {DEFAULT_MAX_SIZE})",
    )
    p.add_argument(
        "--pdi",
        action="append",
        default=[],
        metavar="PDI=PATH",
        help="map a Persistent Document Identifier (pdi://...) to a file under the root; repeatable",
    )


def _output(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="text (default), github (workflow commands that mark the lines in a pull request; the default "
        "when GITHUB_ACTIONS=true, with the text too), json (every reference) or sarif (SARIF 2.1.0 for code "
        "scanning); json and sarif go to standard output, alone",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only the problems, no summary line")


def _settle(args: argparse.Namespace, err: TextIO | None) -> None:
    """Fill --root, --charset, --max-size and the PDI map from the build's configuration (--config, or for
    check and update one found beside the documentation), and say which one was used; the options given
    on the command line win."""
    config: BuildConfig | None = None
    if args.config is not None:
        from .config import read_config  # (only a run that reads a configuration pays for it)

        config = read_config(Path(args.config))
    elif args.root is None and args.command in ("check", "update", "pin", "migrate"):
        from .config import discover

        config = discover([Path(p) for p in args.paths])
    args.build_config = config
    quiet = getattr(args, "format", None) in ("json", "sarif") or getattr(args, "quiet", False)
    if config is not None and err is not None and not quiet:
        print(f"textfrag: using the configuration in {spell(config.describe())}", file=err)
    args.root = args.root if args.root is not None else (str(config.root) if config else ".")
    args.charset = args.charset or (config.charset if config and config.charset else DEFAULT_CHARSET)
    args.max_size = (
        args.max_size if args.max_size is not None else (config.max_size if config and config.max_size else DEFAULT_MAX_SIZE)
    )
    args.pdi_table = dict(config.pdi_map) if config else {}


def _cache(args: argparse.Namespace) -> SourceCache:
    """The run's source cache, from the root, the charset, the size limit and the PDI map (--pdi too)."""
    if not hasattr(args, "pdi_table"):  # a command called without main() (the Python API, tests)
        _settle(args, None)
    table = dict(args.pdi_table)
    for item in args.pdi:
        key, sep, path = item.rpartition("=")
        if not sep or not key or not path:
            raise TextFragError(f"--pdi takes PDI=PATH, e.g. pdi://oma.eop.gov.us/1997/09/01/1.text.1=speech.txt, not {item!r}")
        table[key] = path
    return SourceCache(args.root, charset=args.charset, max_size=args.max_size, pdi_map=table)


def build_parser(parser_class: type[_Parser] | None = None) -> argparse.ArgumentParser:
    """The argument parser of every subcommand (its help is the command line's reference)."""
    parser_class = parser_class or _Parser
    parser = parser_class(
        prog="textfrag",
        description="Quote text files by RFC 5147 fragment references, and keep the quotes honest.",
        epilog="Exit codes: 0 ok, 1 stale reference, 2 bad reference or usage, 3 internal error (a bug in textfrag).",
    )
    parser.add_argument("--version", action="version", version=f"textfrag {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=parser_class)

    show = sub.add_parser(
        "show",
        help="print the excerpt a reference selects",
        description="Print the excerpt exactly as it stands in the file (UTF-8, original line endings, nothing added).",
    )
    _common(show)
    show.add_argument("reference", metavar="REF", help="PATH#FRAGMENT, e.g. src/app.py#line=10,20")

    make = sub.add_parser(
        "make",
        help="print an RFC 5147 reference with integrity checks",
        description=(
            "Print PATH#FRAGMENT with length and md5 for a selection. "
            "--lines counts from 1 like an editor; the printed line= counts from 0."
        ),
    )
    _common(make)
    make.add_argument("path", metavar="PATH", nargs="?", help="file, relative to the root")
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
    make.add_argument("--no-length", action="store_true", help="leave out the length check")
    make.add_argument("--no-md5", action="store_true", help="leave out the md5 check")
    make.add_argument(
        "--batch",
        action="store_true",
        help="read one request per line from standard input (PATH and options, as on this command line); "
        "print the results in order, each file read once",
    )

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
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")

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
    _common(update)
    _output(update)
    update.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    update.add_argument(
        "--accept",
        action="store_true",
        help="also re-pin changed references (after review) to the text their range or intent selects now; "
        "FILE:LINE arguments limit it to the references at those lines",
    )
    _require_pin(update)
    update.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )

    symbols = sub.add_parser(
        "symbols",
        help="list a file's definitions with their lines (what --symbol and :symbol: name)",
        description="Print each definition of the file (name, 1-based first and last lines, kind), in the file's order.",
    )
    _common(symbols)
    symbols.add_argument("--language", help="the file's language, when its name does not say it")
    symbols.add_argument("path", metavar="PATH", help="a file under the root")

    sub.add_parser(
        "lsp",
        help="a Language Server Protocol server on standard input and output (pip install 'textfrag[lsp]')",
        description=(
            "Serve reStructuredText, Markdown and MyST documents to an editor: diagnostics, hover, go to definition, "
            "code actions (update, accept, pin), completion, and the documents that quote a file's lines. What it "
            "says is what check, update, pin and show say."
        ),
    )

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
    _common(pin)
    _output(pin)
    pin.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    pin.add_argument(
        "--convert",
        action="store_true",
        help="also turn text searches (match(), :words:, :~:text=) into the pinned RFC 5147 reference for the text they find now",
    )
    pin.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="files or folders, or FILE:LINE of a reference (default: .)"
    )

    migrate = sub.add_parser(
        "migrate",
        help="turn literalinclude and pymdownx.snippets includes into txtfrag references that show the same excerpts",
        description=(
            "Replace each literalinclude (reStructuredText and MyST) under the paths with a txtfrag directive, "
            "and each code fence that holds one pymdownx.snippets include with a txtfrag image, pinned with "
            "length and md5, that shows the same excerpt: text, line numbers, emphasized lines, caption or none, "
            "language. An include that would look different is listed with the reason and left as it is. "
            "Without --write, print the diff and change nothing."
        ),
    )
    _common(migrate)
    migrate.add_argument(
        "--srcdir",
        metavar="DIR",
        default=None,
        help="Sphinx's source folder, where '/path' arguments start (default: the folder of conf.py, else .)",
    )
    migrate.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    migrate.add_argument("-q", "--quiet", action="store_true", help="print only what is left as it is, and the diff")
    migrate.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")
    return parser


# -- show ----------------------------------------------------------------------------------------------


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cache = _cache(args)
    q = quote(cache, args.reference)
    if q.stale is not None:
        print(q.stale.describe(WHERE_ARGV), file=err)
        return STALE
    out.flush()
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        buffer.write(q.text.encode("utf-8"))
        buffer.flush()
    else:
        out.write(q.text)
    return OK


# -- make ----------------------------------------------------------------------------------------------


def _selection_for(args: argparse.Namespace, source: Source, reference: str) -> Selection:
    if args.lines is not None:
        count = source.line_count
        spec = args.lines.strip()
        try:
            if spec.endswith("-"):  # A-: to the end of the file
                first = number(spec[:-1].strip(), f"--lines {spec!r}: the first line")
                spec = f"{spec}{max(count, first)}"
            wanted = parse_line_range(spec, "--lines")
        except TextFragError as err:
            raise TextFragError(f"{err.message} (--lines takes A-B or A-, 1-based, e.g. 11-20)", reference=reference) from None
        if wanted.last > count:
            raise TextFragError(f"--lines {args.lines}: the file has {count} lines", reference=reference)
        return select_lines(source, wanted.first, wanted.last)
    if args.chars is not None:
        s, sep, e = args.chars.partition(",")
        try:
            if not sep:
                raise TextFragError("no comma")
            start, end = number(s, "the start"), number(e, "the end")
        except TextFragError as err:
            raise TextFragError(
                f"--chars takes S,E, two RFC 5147 character positions (e.g. 0,40), not {args.chars!r} ({err.message})",
                reference=reference,
            ) from None
        if start > end:
            raise TextFragError(f"--chars {args.chars}: the start is after the end", reference=reference)
        if end > source.length:
            raise TextFragError(f"--chars {args.chars}: the file has {source.length} characters", reference=reference)
        return select(source, source.index_of_char(start), source.index_of_char(end))
    needle = args.match
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


def _make(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cache = _cache(args)
    if not args.batch:
        return _make_one(args, cache, out)
    import shlex

    if args.path is not None or _intent_of(args) is not None or _selected_by(args):
        raise TextFragError("--batch reads every request from standard input; give none on the command line")
    parser = build_parser(_BatchParser)
    failed = 0
    for number_, line in enumerate(sys.stdin, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            request = parser.parse_args(["make", *shlex.split(line)])
            if request.batch:
                raise TextFragError("a request cannot ask for --batch")
            _make_one(request, cache, out)
        except (TextFragError, _UsageError, ValueError) as problem:
            failed += 1
            message = problem.describe("") if isinstance(problem, TextFragError) else str(problem)
            print(f"<stdin>:{number_}: {spell(line.strip())}: {spell_lines(message.lstrip(': '))}", file=err)
    return BAD if failed else OK


class _UsageError(Exception):
    """A request of ``make --batch`` that the command line would refuse."""


class _BatchParser(_Parser):
    """The parser of requests read by ``make --batch``: a usage error is raised, not printed and exited."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _selected_by(args: argparse.Namespace) -> bool:
    return any(getattr(args, name) for name in ("from_ref", "lines", "whole", "chars", "match"))


def _intent_of(args: argparse.Namespace) -> Intent | None:
    from .intent import Intent  # (make by intent only: ast is not imported by check)

    given = {
        "pyobject": args.pyobject,
        "start-after": args.start_after,
        "start-at": args.start_at,
        "end-before": args.end_before,
        "end-at": args.end_at,
        "section": args.section,
        "region": args.region,
        "symbol": args.symbol,
    }
    return Intent.from_options(given)


def _make_one(args: argparse.Namespace, cache: SourceCache, out: TextIO) -> int:
    checks = {"length": not args.no_length, "md5": not args.no_md5}
    intent = _intent_of(args)
    if intent is not None and _selected_by(args):
        raise TextFragError("give the lines either by intent (--pyobject, --start-after...) or by --lines, --chars...")
    if intent is None and not _selected_by(args):
        raise TextFragError("make needs what to quote: --lines, --whole, --chars, --match, --from, or an intent (--pyobject...)")
    if intent is not None:
        if args.path is None:
            raise TextFragError("make needs the PATH of the file to quote")
        from .intent import intent_lines

        source = cache.get(args.path, args.path)
        try:
            kept = intent_lines(source.text, intent, path=source.path)
        except TextFragError as why:
            raise TextFragError(f"{intent}: {why.message}", reference=args.path) from None
        print(make_reference(select_lines(source, kept[0], kept[-1]), lines=True, **checks), file=out)
        for name, value in intent.options():
            print(f"   :{name}: {value}", file=out)
        return OK
    if args.from_ref is not None:
        if args.path is not None:
            raise TextFragError("--from takes the file from the reference; give no PATH", reference=args.from_ref)
        q = quote(cache, args.from_ref, explain=False)
        scheme = q.reference.fragment.scheme if q.reference.fragment is not None else None
        open_end = scheme is not None and scheme.is_range and scheme.end is None  # what runs to the end still does
        for piece in q.selections:  # a disjoint selection becomes one reference per piece
            print(make_reference(piece, open_end=open_end, **checks), file=out)
        return OK
    if args.path is None:
        raise TextFragError("make needs the PATH of the file to quote (or --from REF)")
    source = cache.get(args.path, args.path)
    if args.whole:
        print(make_reference(whole(source), lines=True, open_end=True, **checks), file=out)
        return OK
    selection = _selection_for(args, source, args.path)
    lines = True if args.lines is not None else False
    open_end = args.lines is not None and args.lines.strip().endswith("-")
    print(make_reference(selection, lines=lines, open_end=open_end, **checks), file=out)
    return OK


def _shown(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's count), at most 8."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


def _process_pool(workers: int) -> Executor | None:
    """Forked worker processes, or None where fork is not how processes start (then the files are
    digested on first use). Started before this process has any thread of its own: forking a process
    with threads is unsafe."""
    import multiprocessing  # only `check` of a large tree pays for importing it

    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))


_Digests = list[tuple[str, "Digest | TextFragError"]]


class _Threads:
    """Threads that run jobs and put what each returns (or raises) on ``done``. Plain threads and a
    queue: concurrent.futures would import logging and more on every ``check``, which costs more than a
    small tree takes to hash."""

    def __init__(self, workers: int, done: queue.SimpleQueue[object]) -> None:
        self.inbox: queue.SimpleQueue[Callable[[], _Digests] | None] = queue.SimpleQueue()
        self.done = done
        self.threads = [threading.Thread(target=self._work, name=f"textfrag-digest-{i}", daemon=True) for i in range(workers)]
        for thread in self.threads:
            thread.start()

    def submit(self, job: Callable[[], _Digests]) -> None:
        self.inbox.put(job)

    def _work(self) -> None:
        while (job := self.inbox.get()) is not None:
            try:
                self.done.put(job())
            except BaseException as failure:  # a bug: raised again in the main thread
                self.done.put(failure)

    def shutdown(self) -> None:
        for _ in self.threads:
            self.inbox.put(None)
        for thread in self.threads:
            thread.join()


class _Digester:
    """Digests the quoted files on every core, as their paths are found, each file once.

    Hashing is the floor of ``check`` (it is what md5sum does, on one core). A large file is hashed a
    block at a time by a thread, which runs in parallel with the others because hashlib and reads
    release the GIL for large blocks. Small files are not worth a thread each (the GIL hand-off around
    each md5 costs about what the overlap saves; bench/bench_core.py): they go to forked worker
    processes in jobs of :attr:`JOB_FILES`, once there are :attr:`START_FILES` of them (fewer are
    digested on first use, in this process, where starting processes would cost more than it saves).
    Processes are forked before any thread is started, never after; small files found once threads run
    go to the threads. Only digests come back, never texts, so memory stays flat.
    """

    LARGE = 1 << 20  # bytes: a file this large has a thread
    JOB_FILES, START_FILES = 128, 256

    def __init__(self, cache: SourceCache, args: argparse.Namespace, progress: Progress | None = None) -> None:
        self.cache, self.args, self.progress = cache, args, progress
        self.seen: set[str] = set()
        self.small: list[str] = []  # not yet sent to a worker
        self.workers = _cores()
        self.processes: Executor | None = None
        self.threads: _Threads | None = None
        self.done: queue.SimpleQueue[object] = queue.SimpleQueue()  # what each job gave, as it ends
        self.jobs = 0  # sent
        self.files = 0  # in the jobs sent

    def add(self, path: str) -> None:
        """Queue a quoted file for digesting (each path once)."""
        if path in self.seen or self.workers < 2:
            return
        self.seen.add(path)
        try:  # only to share the work out: the file is checked when it is read
            size = os.stat(os.path.join(self.cache.real_root, path)).st_size
        except (OSError, ValueError):
            size = 0
        if size >= self.LARGE:
            self._send([path], threads=True)
            return
        self.small.append(path)
        if len(self.small) >= (self.JOB_FILES if self.jobs else self.START_FILES):
            for i in range(0, len(self.small), self.JOB_FILES):
                self._send(self.small[i : i + self.JOB_FILES], threads=False)
            self.small = []

    def _send(self, paths: list[str], *, threads: bool) -> None:
        a = self.args
        job = partial(digest_batch, str(a.root), a.charset, a.max_size, paths)
        if not threads and self.threads is None and self.processes is None:
            self.processes = _process_pool(self.workers)
        if threads or self.processes is None:
            if self.threads is None:
                self.threads = _Threads(self.workers, self.done)
            self.threads.submit(job)
        else:
            self.processes.submit(job).add_done_callback(self.done.put)
        self.jobs += 1
        self.files += len(paths)

    def finish(self) -> None:
        """Wait for the workers and record every digest in the cache (the rest are digested on first use)."""
        if self.jobs and self.small:
            self._send(self.small, threads=self.threads is not None)
            self.small = []
        hashed = 0
        try:
            for _ in range(self.jobs):
                result = self.done.get()
                if isinstance(result, BaseException):
                    raise result
                digests = cast("_Digests", result if isinstance(result, list) else result.result())  # type: ignore[attr-defined]
                for path, entry in digests:
                    self.cache.add_digest(path, entry)
                hashed += len(digests)
                if self.progress is not None:
                    self.progress.show(f"hashed {hashed}/{self.files} files")
        finally:
            for pool in (self.threads, self.processes):
                if pool is not None:
                    pool.shutdown()


class _Scan:
    """Every reference found under the paths, and what could not even be parsed."""

    def __init__(self) -> None:
        self.entries: list[tuple[Found, Reference]] = []
        self.problems: list[tuple[Found, TextFragError]] = []
        self.docs: dict[str, Path] = {}  # shown name -> path
        self.total = 0
        #: (document, offset) -> the charset a directive's ``:encoding:`` reads its file in
        self.charsets: dict[tuple[str, int], str] = {}
        #: (document, offset) -> the options written with a reference, their syntax and its form (block,
        #: inline), for those not read as the defaults (an inline reference with no option)
        self.written: dict[tuple[str, int], tuple[dict[str, str | None] | None, Syntax, Form]] = {}

    def written_at(self, f: Found) -> tuple[dict[str, str | None] | None, Syntax, Form]:
        """The options written with ``f``, their syntax and its form, as the core's verdict takes them."""
        return self.written.get((f.file, f.start)) or (None, "md" if f.kind in ("link", "definition") else "rst", "inline")

    def cache_for(self, cache: SourceCache, f: Found) -> SourceCache:
        """The cache that reads ``f``'s file: in its directive's ``:encoding:``, else the run's charset."""
        charset = self.charsets.get((f.file, f.start))
        return cache if charset is None else cache.with_charset(charset)

    def summary(self) -> str:
        """``N references in M files``, for the closing line."""
        files = len(self.docs)
        return f"{self.total} reference{'s' if self.total != 1 else ''} in {files} file{'s' if files != 1 else ''}"


def _scan(args: argparse.Namespace, digester: _Digester | None = None) -> _Scan:
    result = _Scan()

    def unlistable(folder: Path, error: OSError) -> None:
        """Report a folder that cannot be listed."""
        shown = _shown(folder)
        result.problems.append(
            (Found(shown, 0, "", 0, 0, "file"), TextFragError(f"cannot list the folder {shown}: {error.strerror}"))
        )

    for doc in doc_files((Path(p) for p in args.paths), unlistable):
        shown = _shown(doc)
        try:
            text = read_text(doc, shown, args.max_size)
        except TextFragError as unreadable:
            result.problems.append((Found(shown, 0, "", 0, 0, "file"), unreadable))
            continue
        found = scan_text(text, shown, doc.suffix)
        result.docs[shown] = doc
        if ":encoding:" in text or ":diff:" in text:
            found = _with_options(text, found, result)
        for f in found:
            result.total += 1
            if f.kind in ("directive", "image"):
                written = written_options(text, f)
                if written[0] is not None or written[2] == "block":
                    result.written[(f.file, f.start)] = written
            try:
                ref = parse_reference(f.text)
            except TextFragError as bad_ref:
                result.problems.append((f, bad_ref))
                continue
            result.entries.append((f, ref))
            if digester is not None and ref.selector is None and (f.file, f.start) not in result.charsets:
                digester.add(ref.path)
    return result


def _with_options(text: str, found: list[Found], result: _Scan) -> list[Found]:
    """The references of a document with those its directives' options hold (textfrag.options); each
    directive's ``:encoding:`` noted."""
    from .options import with_option_references

    out, charsets = with_option_references(text, found)
    file = found[0].file if found else ""
    for start, charset in charsets.items():
        result.charsets[(file, start)] = charset
    return out


def _write_diff(out: TextIO, diff: str) -> None:
    """A patch to standard output: exact when piped (``git apply`` takes it), spelled out on a terminal,
    where a control character in a document would otherwise move the cursor or restyle the screen."""
    style = Style(out)
    out.write(style.diff(spell_lines(diff) if style.terminal else diff))


def _report(problems: list[tuple[Found, TextFragError]], err: TextIO, style: Style) -> int:
    """Print the problems sorted by place; the number of stale ones."""
    problems.sort(key=lambda p: (p[0].file, p[0].line, p[0].start))
    stale = 0
    for f, e in problems:
        where = f"{f.file}:{f.line}" if f.line else f.file
        report = e.describe(where) if f.text else f"{spell(where)}: {spell_lines(e.message)}"
        print(style.problem(report, where, isinstance(e, StaleError)), file=err)
        stale += isinstance(e, StaleError)
    return stale


def _require_pin(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--require-pin",
        action="store_true",
        help="a reference without md5 (unpinned: not protected against drift) is a problem: exit 1, rule textfrag/unpinned",
    )


def _unpinned_note(count: int) -> str:
    """The summary's word on unpinned references (counted always, never listed one by one)."""
    if not count:
        return ""
    return f"; {count} unpinned (not protected against drift: `textfrag pin --write` pins them)"


def _finish(
    args: argparse.Namespace,
    findings: list[Finding],
    problems: list[tuple[Found, TextFragError]],
    summary: str,
    out: TextIO,
    err: TextIO,
) -> int:
    """Say what was found in the chosen format; the number of stale problems."""
    _terminal(args, err)[0].clear()
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    findings.sort(key=lambda f: (f.document, f.line, f.column))
    if fmt in ("json", "sarif"):
        document = json_results(findings, command=args.command, summary=summary) if fmt == "json" else sarif_log(findings)
        print(document, file=out)
        return sum(isinstance(e, StaleError) for _, e in problems)
    if fmt == "github":
        for command in github_commands(findings):
            print(command, file=out)
    stale = _report(problems, err, _terminal(args, err)[1])
    style = _terminal(args, err)[1]
    for f in findings:  # warnings: said, never failing
        for warning in f.warnings:
            where = f"{f.document}:{f.line}"
            said = f"{spell(where)}: {spell(f.reference or '')}: warning: {spell(warning)}"
            print(style.problem(said, spell(where), True), file=err)
    if not args.quiet:
        print(Style(out).paint(summary, "red" if problems else "green"), file=out)
    return stale


def _finding(f: Found, error: TextFragError | None, pinned: bool | None = None) -> Finding:
    return Finding(f.file, f.line, f.column, f.text or None, error, pinned=pinned)


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cache = _cache(args)  # a bad --charset fails here
    progress = _terminal(args, err)[0]
    digester = _Digester(cache, args, progress)
    scan = _scan(args, digester)
    digester.finish()
    problems = scan.problems
    findings = [_finding(f, e) for f, e in problems]
    total, searched = len(scan.entries), 0
    prefetch_history(cache, [ref for _, ref in scan.entries])
    warned = unpinned = 0
    settings = Settings(require_pin=args.require_pin)
    for i, (f, ref) in enumerate(scan.entries, 1):
        raw, syntax, form = scan.written_at(f)
        verdict = judge(cache, ref.text, raw, syntax=syntax, form=form, settings=settings, show=False, bidi=not args.allow_bidi)
        hidden = verdict.hidden
        unpinned += not verdict.pinned
        for problem in verdict.problems or [None]:  # type: ignore[list-item]
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


def _checked(done: int, total: int, searched: int) -> str:
    """The progress line of ``check`` and ``update``."""
    return f"checked {done}/{total} references" + (f", {_plural(searched, 'history', 'histories')} searched" if searched else "")


def _targets(args: argparse.Namespace) -> set[tuple[str, int]] | None:
    """``FILE:LINE`` arguments (a reference's place, as check prints it): the places ``update`` is
    limited to; the files are searched. None when there are none."""
    targets: set[tuple[str, int]] = set()
    paths = []
    for p in args.paths:
        file, sep, line = p.rpartition(":")
        if sep and line.isdigit() and len(line) < 12 and not os.path.exists(p) and os.path.isfile(file):
            targets.add((_shown(Path(file)), int(line)))
            paths.append(file)
        else:
            paths.append(p)
    args.paths = paths
    return targets or None


def _update(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Rewrite the references whose quoted text only moved (and, with --accept, re-pin the changed ones);
    list the others; change nothing else."""
    from .options import options_of
    from .repair import repair
    from .rewrite import read_doc, write_places

    cache = _cache(args)
    targets = _targets(args)
    scan = _scan(args)
    problems = scan.problems
    moved_to: dict[tuple[str, int], StaleError] = {}  # the moved references' errors, for the findings
    places = write_places(args.root, args.paths)  # (a document that is a link out of them is never rewritten)
    docs: dict[str, DocText] = {}
    rewritten: dict[tuple[str, int], str] = {}  # (document, offset) -> the new reference
    accepted = repinned = 0
    progress = _terminal(args, err)[0]
    total, searched = len(scan.entries), 0
    stale_at = prefetch_history(cache, [ref for _, ref in scan.entries], load_text=True)
    for i, (f, ref) in enumerate(scan.entries, 1):
        progress.show(_checked(i - 1, total, searched))
        targeted = targets is None or (f.file, f.line) in targets
        doc: DocText | None = None
        # a document is read again only where it may be rewritten: beside a stale or missing reference
        if i - 1 in stale_at and f.kind in ("directive", "image") and f.file not in docs:
            try:
                docs[f.file] = read_doc(scan.docs[f.file], f.file, args.max_size, within=places)
            except TextFragError as unreadable:
                problems.append((f, unreadable))
                continue
        doc = docs.get(f.file)
        options = options_of(doc.text, f) if doc is not None and doc.text[f.start : f.end] == f.text else []
        try:
            fix = repair(scan.cache_for(cache, f), ref, options, accept=args.accept and targeted)
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
                docs[f.file] = read_doc(scan.docs[f.file], f.file, args.max_size, within=places)
            except TextFragError as unreadable:
                problems.append((f, unreadable))
                continue
        doc = docs[f.file]
        if doc.text[f.start : f.end] != f.text:  # the scanner and the reader must agree, or nothing is written
            problems.append((f, TextFragError(f"{f.file} changed while textfrag was reading it; it is left as it is")))
            continue
        doc.edits.append((f.start, f.end, new))
        doc.edits.extend(follow)
        rewritten[(f.file, f.start)] = new
        moved_to[(f.file, f.start)] = stale
        accepted += accepting
        repinned += drift.kind == "invisible" and not accepting
        if args.format not in ("json", "sarif"):
            progress.clear()
            style = _terminal(args, err)[1]
            how = "accepted" if accepting else "renamed and moved" if drift.new_path else drift.kind
            place = style.paint(spell(f"{f.file}:{f.line}"), "bold")
            print(f"{place}: {spell(ref.text)}: {how} -> {style.paint(spell(new), 'green')}", file=err)
            if accepting and drift.diff:
                print(style.diff(spell_lines(drift.diff)), file=err)
    written = _write_or_show(args, docs, out, problems)
    kept = _written_names(docs, problems)
    for key in [k for k in rewritten if k[0] not in kept]:
        del rewritten[key]  # (its file could not be written)
    moved = len(rewritten) - accepted - repinned
    if written:
        problems.extend(_stale_after_writing(args, scan, written, rewritten))
    pins = {(f.file, f.start): is_pinned(ref) for f, ref in scan.entries}
    if args.require_pin:  # (a reference rewritten here keeps its checks: pinned if it was)
        problems.extend((f, UnpinnedError(reference=ref.text)) for f, ref in scan.entries if not pins[(f.file, f.start)])
    left = sum(isinstance(e, StaleError) for _, e in problems)
    unpinned = sum(not p for p in pins.values())
    bad = sum(e.exit_code != STALE for _, e in problems)
    remaining = left + (0 if args.write else len(rewritten)) + (unpinned if args.require_pin else 0)
    files = len(written) if args.write else len([d for d in docs.values() if d.edits])
    what = _plural(moved, "moved reference")
    what += f", {repinned} whose line endings, BOM or charset changed" if repinned else ""
    what += f" and {accepted} accepted" if accepted else ""
    if args.write:
        head = f"rewrote {what} in {_plural(files, 'file')}"
    else:
        head = f"{what} would be rewritten in {_plural(files, 'file')} (run with --write)"
    summary = f"textfrag update: {scan.summary()}: {head}; {left} stale left as they are, {bad} bad"
    summary += _unpinned_note(unpinned)
    failed = {(f.file, f.start): e for f, e in problems}
    findings = [_finding(f, failed.get((f.file, f.start))) for f, _ in problems if not f.text]
    for f, _ref in scan.entries:
        error = failed.get((f.file, f.start))
        if error is None and (not args.write or (f.file, f.start) not in rewritten):
            error = moved_to.get((f.file, f.start))  # still stale until written
        findings.append(_finding(f, error, pins[(f.file, f.start)]))
    _finish(args, findings, problems, summary, out, err)
    if bad:
        return BAD
    return STALE if remaining else OK


def _write_or_show(
    args: argparse.Namespace, docs: dict[str, DocText], out: TextIO, problems: list[tuple[Found, TextFragError]]
) -> list[str]:
    """Each document with edits replaced atomically (``--write``, only if unchanged since it was read) or
    its diff shown; a document that cannot be written is a problem. The names written."""
    from .rewrite import apply_edits, unified_diff, write_atomic

    written: list[str] = []
    for shown, doc in docs.items():
        if not doc.edits:
            continue
        try:
            new_text = apply_edits(doc)
            if args.write:
                write_atomic(doc.path, doc.encoded(new_text), expected=doc.raw, shown=shown)
                written.append(shown)
            elif args.format not in ("json", "sarif"):
                _write_diff(out, unified_diff(doc, new_text, shown))
        except TextFragError as failure:
            problems.append((Found(shown, 0, "", 0, 0, "file"), failure))
    return written


def _written_names(docs: dict[str, DocText], problems: list[tuple[Found, TextFragError]]) -> set[str]:
    """The documents with edits that no problem of their own stopped."""
    failed = {f.file for f, _ in problems if not f.text}
    return {name for name, doc in docs.items() if doc.edits and name not in failed}


def _pin(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Pin every unpinned reference in place (textfrag.pin); list those left, and why; change nothing else."""
    from .pin import pinned_form
    from .rewrite import read_doc, write_places

    cache = _cache(args)
    targets = _targets(args)
    scan = _scan(args)
    problems = scan.problems
    findings = [_finding(f, e) for f, e in problems]
    places = write_places(args.root, args.paths)
    docs: dict[str, DocText] = {}
    left: list[tuple[Found, str]] = []
    pinning: dict[tuple[str, int], Found] = {}
    for f, ref in scan.entries:
        if is_pinned(ref) or (targets is not None and (f.file, f.line) not in targets):
            findings.append(_finding(f, None, is_pinned(ref)))
            continue
        try:
            outcome = pinned_form(scan.cache_for(cache, f), ref, convert=args.convert)
            if outcome.text is None:
                left.append((f, outcome.reason or "left as it is"))
                findings.append(_finding(f, None, False))
                continue
            if f.file not in docs:
                docs[f.file] = read_doc(scan.docs[f.file], f.file, args.max_size, within=places)
            doc = docs[f.file]
            if doc.text[f.start : f.end] != f.text:  # the scanner and the reader must agree, or nothing is written
                raise TextFragError(f"{f.file} changed while textfrag was reading it; it is left as it is")
        except TextFragError as failure:  # bad, or stale (a wrong length): reported, nothing written for it
            problems.append((f, failure))
            findings.append(_finding(f, failure, False))
            continue
        doc.edits.append((f.start, f.end, outcome.text))
        pinning[(f.file, f.start)] = f
        findings.append(_finding(f, None, bool(args.write)))
    written = len(_write_or_show(args, docs, out, problems))
    kept = _written_names(docs, problems)
    for key in [k for k in pinning if k[0] not in kept]:
        del pinning[key]  # (its file could not be written)
    if args.format not in ("json", "sarif") and not args.quiet:
        style = _terminal(args, err)[1]
        for f, why in sorted(left, key=lambda item: (item[0].file, item[0].line)):
            print(f"{style.paint(spell(f'{f.file}:{f.line}'), 'bold')}: {spell(f.text)}: left as it is: {why}", file=err)
    files = len({k[0] for k in pinning})
    stale = sum(isinstance(e, StaleError) for _, e in problems)
    bad = sum(e.exit_code != STALE for _, e in problems)
    done = (
        f"pinned {_plural(len(pinning), 'reference')} in {_plural(written, 'file')}"
        if args.write
        else f"{_plural(len(pinning), 'reference')} would be pinned in {_plural(files, 'file')} (run with --write)"
    )
    summary = f"textfrag pin: {scan.summary()}: {done}; {len(left)} left as they are, {stale} stale, {bad} bad"
    _finish(args, findings, problems, summary, out, err)
    if bad:
        return BAD
    return STALE if stale else OK


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else words or word + 's'}"


def _stale_after_writing(
    args: argparse.Namespace, scan: _Scan, written: list[str], rewritten: dict[tuple[str, int], str]
) -> list[tuple[Found, TextFragError]]:
    """References made stale by this run's own rewrites: a rewritten document that is itself quoted.

    The files are verified as they are now (a fresh cache), with each reference as this run left it, so
    that ``update`` never exits 0 while a reference it can see is stale.
    """
    cache = _cache(args)
    real = {os.path.realpath(scan.docs[shown]) for shown in written}
    found = []
    for f, ref in scan.entries:
        if ref.dialect == "pdi" or os.path.realpath(os.path.join(cache.real_root, ref.path)) not in real:
            continue
        now = parse_reference(rewritten.get((f.file, f.start), ref.text))
        try:
            q = quote(cache, now, explain=False)
        except TextFragError as failure:
            found.append((f, failure))
            continue
        if q.stale is not None:
            found.append(
                (
                    f,
                    StaleError(
                        f"{q.stale.message}: this update rewrote the quoted file itself; run `textfrag update` again",
                        reference=now.text,
                    ),
                )
            )
    return found


def _migrate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Convert literalinclude directives; list what cannot be; change nothing else."""
    from .config import SphinxProject, snippet_settings, sphinx_project_of
    from .migrate import SnippetSettings, convert, convert_snippet, find_includes, find_snippet_fences
    from .rewrite import apply_edits, read_doc, unified_diff, write_atomic, write_places
    from .scan import MD_SUFFIXES

    cache = _cache(args)
    config: BuildConfig | None = args.build_config
    # the language and caption a page shows without options are its Sphinx project's (the conf.py nearest
    # above the document, whatever --root says), else those of --config's conf.py
    given = SphinxProject(config.path, config.highlight_language or "default") if config and config.path.suffix == ".py" else None
    projects: dict[Path, SphinxProject | None] = {}
    noted: set[str] = set()
    empty_captions = 0
    # pymdownx.snippets: paths from its base_path, from the folder of mkdocs.yml (where mkdocs runs)
    site = config.path.parent if config and config.path.suffix in (".yml", ".yaml") else Path(".")
    snippets_options = snippet_settings(config.path) if config and config.path.suffix in (".yml", ".yaml") else {}
    base_path = snippets_options.get("base_path", ["."])
    snippet_config = SnippetSettings(
        [site / str(b) for b in ([base_path] if isinstance(base_path, str) else base_path)],
        linenums=bool(snippets_options.get("linenums")),
        dedent_subsections=bool(snippets_options.get("dedent_subsections")),
        include_base=site / str(snippets_options.get("include_base_path", ".")),
        heading_offset=bool(snippets_options.get("include_headingOffset") or snippets_options.get("include_inheritHeadingDepth")),
    )
    style = _terminal(args, err)[1]
    places = write_places(args.root, args.paths)
    found = converted = left = files = written = 0
    problems = 0

    def say(where: str, text: str, color: str | None = None) -> None:
        where, text = spell(where), spell_lines(text)
        print(f"{style.paint(where, 'bold')}: {style.paint(text, color) if color else text}", file=err)

    unlistable: list[tuple[Path, OSError]] = []
    for path in doc_files((Path(p) for p in args.paths), lambda folder, e: unlistable.append((folder, e))):
        for folder, error in unlistable:  # said, never passed over in silence
            say(_shown(folder), f"cannot list the folder: {error.strerror}", "red")
            problems += 1
        unlistable.clear()
        shown = _shown(path)
        try:
            doc = read_doc(path, shown, args.max_size, within=places)
        except TextFragError as unreadable:
            say(shown, unreadable.message, "red")
            problems += 1
            continue
        includes = find_includes(doc.text, shown, path.suffix)
        snippets = find_snippet_fences(doc.text, shown) if path.suffix.lower() in MD_SUFFIXES else []
        if not includes and not snippets:
            continue
        found += len(includes) + len(snippets)
        for include, is_snippet in [*((i, False) for i in includes), *((s, True) for s in snippets)]:
            if is_snippet:
                outcome = convert_snippet(include, cache, snippet_config, doc.text)
                kind = "markdown-include" if include.options.get("(kind)") == "include" else "snippet"
                what = f"{kind} {include.argument or '(several)'}"
            else:
                project = sphinx_project_of(path, projects) or given
                if project is not None and project.note and project.note not in noted:
                    noted.add(project.note)
                    say(_shown(project.conf), project.note, "yellow")
                srcdir = Path(args.srcdir) if args.srcdir else (project.conf.parent if project else Path("."))
                outcome = convert(
                    include,
                    path,
                    cache,
                    srcdir=srcdir,
                    doc_text=doc.text,
                    highlight_language=project.highlight_language if project else "default",
                    caption_setting=project.caption if project else "path",
                )
                empty_captions += outcome.empty_caption
                what = f"literalinclude {include.argument}"
            where = f"{shown}:{include.line}"
            if outcome.replacement is None:
                left += 1
                say(where, f"{what}: left as it is: {outcome.reason}", "yellow")
                continue
            converted += 1
            doc.edits.append((include.start, include.end, outcome.replacement))
            for note in outcome.notes:
                say(where, f"{what}: {note}", "yellow")
        if not doc.edits:
            continue
        files += 1
        new_text = apply_edits(doc)
        if args.write:
            try:
                write_atomic(doc.path, doc.encoded(new_text), expected=doc.raw, shown=shown)
                written += 1
            except TextFragError as failure:
                say(shown, failure.message, "red")
                problems += 1
        else:
            _write_diff(out, unified_diff(doc, new_text, shown))
    for folder, error in unlistable:
        say(_shown(folder), f"cannot list the folder: {error.strerror}", "red")
        problems += 1
    done = (
        f"converted {converted} in {_plural(written, 'file')}"
        if args.write
        else (f"{converted} would be converted in {_plural(files, 'file')} (run with --write)")
    )
    summary = f"textfrag migrate: {_plural(found, 'include')}: {done}; {left} left as they are"
    if not args.quiet:
        if empty_captions:  # said once, not on every block
            print(
                f"textfrag migrate: {_plural(empty_captions, 'block')} say ':caption:' (empty) to show no caption, as "
                'literalinclude did; with textfrag_caption = "none" in conf.py they need not (set it, then migrate)',
                file=err,
            )
        print(summary, file=err)
    return BAD if problems else OK


def _symbols(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``textfrag symbols PATH``: the file's definitions with their 1-based lines."""
    from .intent import python_objects
    from .symbols import definitions, language_of

    cache = _cache(args)
    source = cache.get(args.path, args.path)
    language = language_of(args.path, args.language)
    if language is None:
        raise TextFragError(f"the language of {args.path} is not one textfrag reads definitions in; give --language")
    try:
        found = definitions(source.text, language, python_objects)
    except TextFragError as error:
        raise TextFragError(f"{args.path}: {error.message}") from None
    for d in found:
        print(f"{d.name}\t{d.first}-{d.last}\t{d.kind}", file=out)
    return OK


COMMANDS = {
    "show": _show,
    "make": _make,
    "check": _check,
    "update": _update,
    "pin": _pin,
    "migrate": _migrate,
    "symbols": _symbols,
}


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line with ``argv`` (without the program name) and return the exit code."""
    out = stdout if stdout is not None else _tolerant(sys.stdout)
    err = stderr if stderr is not None else _tolerant(sys.stderr)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else BAD
    if args.command == "lsp":  # the protocol owns standard input and output: no settling, no progress line
        try:
            return _lsp(err)
        except TextFragError as e:
            print(e.describe(WHERE_ARGV), file=err)
            return e.exit_code
    previous = _on_sigterm_raise()
    progress, _ = _terminal(args, err)
    try:
        _settle(args, err)
        try:
            return COMMANDS[args.command](args, out, err)
        finally:
            progress.clear()
    except Terminated:
        return 128 + signal.SIGTERM  # temporary files are gone: they are removed as the exception passes
    except TextFragError as e:
        print(e.describe(WHERE_ARGV), file=err)
        return e.exit_code
    except BrokenPipeError:
        # the reader went away (`textfrag show ... | head`); nothing more to say to it
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except KeyboardInterrupt:
        return 130
    except Exception as bug:  # a bug in textfrag: say so, with what a report needs, and never exit 1 ("stale")
        print(internal_error_report(bug), file=err, end="")
        return INTERNAL
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _lsp(err: TextIO) -> int:
    """``textfrag lsp``: the server an installed extra provides (entry point group ``textfrag.commands``,
    so that the core imports no adapter)."""
    from importlib.metadata import entry_points

    needs = "the language server needs pygls and lsprotocol: pip install 'textfrag[lsp]'"
    found = [e for e in entry_points(group="textfrag.commands") if e.name == "lsp"]
    if not found:
        raise TextFragError(needs)
    try:
        run = found[0].load()
        return int(run([]))
    except ImportError as missing:
        if (missing.name or "").split(".")[0] in ("pygls", "lsprotocol"):
            raise TextFragError(f"{needs} ({missing.name} is not installed)") from None
        raise


def _terminal(args: argparse.Namespace, err: TextIO) -> tuple[Progress, Style]:
    """The run's progress line and colours for standard error ``err``, made once per run."""
    if not hasattr(args, "terminal"):
        # a person at a terminal sees progress on long runs, and colour; pipes, files and CI logs see neither
        args.terminal = (Progress(err, enabled=not getattr(args, "quiet", False)), Style(err))
    terminal: tuple[Progress, Style] = args.terminal
    return terminal


class Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt so that every ``finally`` and cleanup on the way runs."""


def _on_sigterm_raise() -> signal.Handlers | Callable[[int, FrameType | None], Any] | int | None:
    """Turn SIGTERM into :class:`Terminated` while a command runs (main thread only); the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminate(signum: int, frame: FrameType | None) -> None:
        """Raise :class:`Terminated` where the program is."""
        raise Terminated

    return signal.signal(signal.SIGTERM, terminate)


def _tolerant(stream: TextIO) -> TextIO:
    """A console that cannot encode a character (LANG=C, a Windows code page) shows an escape instead of
    ending the run with a traceback; what textfrag writes is otherwise unchanged."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):  # a stream that cannot be changed
            pass
    return stream


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
