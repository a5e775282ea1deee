"""The ``textfrag`` command line (the manual's reference/cli page).

Exit codes for every subcommand: 0 ok; 1 one or more references are stale; 2 a bad reference or bad
usage; 3 an internal error (a bug in textfrag). Errors go to standard error as ``WHERE: REFERENCE: what
is wrong``, never as a traceback, except after the internal-error message: a bug must never read as a
finding about the documentation (exit 1 is what CI takes for drift).

May import: every layer of the core (``textfrag.protocol``, ``textfrag.impact`` and under).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from .. import __version__
from ..errors import TextFragError, internal_error_report
from ..source import store
from . import batch, check, impact, index, make, migrate, options, pin, show, sources, symbols, update
from ._base import BAD, INTERNAL, OK, Parser, context_of, projects_of, run_error, settle
from .context import COMMON_DEFAULTS, Command

if TYPE_CHECKING:
    from ..project.config import BuildConfig

__all__ = ["main", "build_parser", "run"]


def build_parser(parser_class: type[Parser] | None = None, *, only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every subcommand (its help is the command line's reference); with ``only``, a
    command's name, the parser of that command alone (what a run of it parses: the others' cost a tenth of
    ``check``'s start-up)."""
    parser_class = parser_class or Parser
    parser = parser_class(
        prog="textfrag",
        description="Quote text files by RFC 5147 fragment references, and keep the quotes honest.",
        epilog="Exit codes: 0 ok, 1 stale reference, 2 bad reference or usage, 3 internal error (a bug in textfrag).",
    )
    parser.add_argument("--version", action="version", version=f"textfrag {__version__}")
    parser.set_defaults(**COMMON_DEFAULTS)  # (every command's arguments hold these: textfrag.cli.context)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=parser_class)

    for command in COMMANDS.values():  # (one module per command, in the order help lists them)
        if only is not None and command.name != only:
            continue
        command.add_parser(sub)
        if command.name == "symbols":
            _served_parsers(sub)  # (the installed extras': textfrag.commands)
    return parser


class Served(NamedTuple):
    """A command an installed extra provides (entry point group ``textfrag.commands``, so that the core
    imports no adapter): a server on standard input and output, which owns them."""

    name: str
    help: str
    description: str
    #: the packages it needs, and the extra that installs them
    needs: tuple[str, ...]
    extra: str


SERVED = (
    Served(
        "lsp",
        "a Language Server Protocol server on standard input and output (pip install 'textfrag[lsp]')",
        "Serve reStructuredText, Markdown and MyST documents to an editor: diagnostics, hover, go to definition, "
        "code actions (update, accept, pin), completion, and the documents that quote a file's lines. What it "
        "says is what check, update, pin and show say.",
        ("pygls", "lsprotocol"),
        "lsp",
    ),
    Served(
        "mcp",
        "a Model Context Protocol server on standard input and output, for agents (pip install 'textfrag[mcp]')",
        "Give an agent that writes documentation textfrag's tools: mint a pinned reference (by lines, symbol or "
        "region), pin, check (each verdict with its document and line), show an excerpt, and say which quotes a "
        "change touches. Each tool runs the command of its name and says what it says.",
        ("mcp",),
        "mcp",
    ),
)


def _served_parsers(sub: Any) -> None:
    """The parsers of the commands installed extras serve."""
    for served in SERVED:
        sub.add_parser(served.name, help=served.help, description=served.description)


#: every command, each declared by its module (``COMMAND``: its name, parser and run), in the order help
#: lists them
COMMANDS: dict[str, Command] = {
    m.COMMAND.name: m.COMMAND for m in (show, make, check, update, symbols, pin, migrate, options, batch, impact, sources, index)
}


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line with ``argv`` (without the program name) and return the exit code."""
    out = stdout if stdout is not None else _tolerant(sys.stdout)
    err = stderr if stderr is not None else _tolerant(sys.stderr)
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=argv[0] if argv and argv[0] in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else BAD
    # the definitions found in quoted files, kept from run to run (textfrag.source.store), for this command
    before = store.current()
    used = before or (None if args.no_cache else store.default_store())
    store.use(used)
    try:
        return _run(args, out, err)
    finally:
        store.use(before)  # (what was found is written first)
        if used is not None and used.refused and not args.quiet:
            print(f"textfrag: note: {used.refused}: what earlier runs kept is not used; every file is read", file=err)


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the parsed command line."""
    served = next((x for x in SERVED if x.name == args.command), None)
    if served is not None:  # the protocol owns standard input and output: no settling, no progress line
        try:
            return _serve(served)
        except TextFragError as e:
            print(run_error(e), file=err)
            return e.exit_code
    previous = _on_sigterm_raise()
    unsettled = context_of(args, err)
    try:
        try:
            with _fewer_collections():
                if not COMMANDS[args.command].settled:  # (a command that reads no files has nothing to settle)
                    return COMMANDS[args.command].run(unsettled, out, err)
                projects = projects_of(args)
                if len(projects) > 1 and args.command == "impact":  # (one change, one report of every build's quotes)
                    return impact.impact_projects(args, projects, out, err)
                if len(projects) > 1:  # (several builds under the paths: each run on its own, and named)
                    return _each(args, projects, out, err)
                run = settle(args, err, projects[0][0] if projects else None, looked=True)
                try:
                    return COMMANDS[args.command].run(run, out, err)
                finally:
                    run.progress.clear()
        finally:
            unsettled.progress.clear()
    except Terminated:
        return 128 + signal.SIGTERM  # temporary files are gone: they are removed as the exception passes
    except TextFragError as e:
        print(run_error(e), file=err)
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


def _each(args: argparse.Namespace, projects: list[tuple[BuildConfig, list[str]]], out: TextIO, err: TextIO) -> int:
    """The command once for each project found under the paths, on that project's paths and with its
    settings; the exit code is the worst of theirs (a bug, then a bad reference, then a stale one)."""
    worst = OK
    for config, paths in projects:
        each = settle(argparse.Namespace(**{**vars(args), "paths": paths}), err, config)
        try:
            worst = max(worst, COMMANDS[args.command].run(each, out, err))
        finally:
            each.progress.clear()
    return worst


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """A command run with the cyclic garbage collector woken 1 time in 100 as often as Python's default
    (700 new objects): a run over a tree makes millions of small objects that live to its end, and
    collecting them again and again cost 20% of ``check``'s time at 100,000 references (every object
    freed by its count is freed as before; only cycles wait longer). Restored afterwards (``main`` is
    also called in a long-lived process)."""
    before = gc.get_threshold()
    gc.set_threshold(70_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _serve(served: Served) -> int:
    """``textfrag lsp``, ``textfrag mcp``: the server an installed extra provides."""
    from importlib.metadata import entry_points

    needs = f"textfrag {served.name} needs {' and '.join(served.needs)}: pip install 'textfrag[{served.extra}]'"
    found = [e for e in entry_points(group="textfrag.commands") if e.name == served.name]
    if not found:
        raise TextFragError(needs)
    try:
        run = found[0].load()
        return int(run([]))
    except ImportError as missing:
        if (missing.name or "").split(".")[0] in served.needs:
            raise TextFragError(f"{needs} ({missing.name} is not installed)") from None
        raise


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
