"""What every command shares: the parser's pieces, the run's settings and cache, and how findings are said."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..project.config import BuildConfig

from ..documents.scan import Found
from ..errors import StaleError, TextFragError, spell, spell_lines
from ..report.formats import FORMATS, Finding, findings_document, github_commands, machine_readable, names_of, output_format
from ..report.terminal import Progress, Style, laid_out, verdict_word
from ..source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, SourceCache
from ..source.paths import typed_path
from .context import RunContext

WHERE_ARGV = "command line"


def run_error(e: TextFragError) -> str:
    """What a run that stops on ``e`` says: located on the command line, unless its message starts with the
    file it is about (``docs/conf.py:3: not valid Python``), which is then its place."""
    head = e.message.split(": ", 1)[0]
    path, _, line = head.rpartition(":")
    named = path if line.isdigit() else head
    return e.describe("" if e.reference is None and named and os.path.isfile(named) else WHERE_ARGV)


OK, STALE, BAD, INTERNAL = 0, 1, 2, 3


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


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors exit 2, as every bad usage does (argparse's default is also 2, but prints differently)."""
        self.print_usage(sys.stderr)
        self.exit(BAD, f"{self.prog}: error: {message}\n")


def add_common(p: argparse.ArgumentParser) -> None:
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
        help="read the root, charset, size limit and PDI map from a Sphinx conf.py, an mkdocs.yml, a properdocs.yml, "
        "a zensical.toml or a myst.yml (with textfrag-myst's TEXTFRAG_* environment) "
        "(check and update find one by themselves when neither --root nor --config is given)",
    )
    p.add_argument("--charset", default=None, metavar="NAME", help="charset of files without a BOM (default: UTF-8)")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor keep what runs find in quoted files (~/.cache/textfrag); as TEXTFRAG_NO_CACHE=1",
    )
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


def add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=names_of(FORMATS),
        default=None,
        help="text (default), github (workflow commands that mark the lines in a pull request; the default "
        "when GITHUB_ACTIONS=true, with the text too), json (every reference) or sarif (SARIF 2.1.0 for code "
        "scanning); json and sarif go to standard output, alone",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only the problems, no summary line")


def projects_of(args: argparse.Namespace) -> list[tuple[BuildConfig, list[str]]]:
    """The projects a command's paths belong to (textfrag.project.discovery), when --config does not name
    one: [] when none is found; one for most runs; several when the paths hold several builds, each
    then run on its own paths (check, update and pin; the others refuse to choose). ``--root`` only sets
    the root: the configuration is still found and read (guard mode, exclusions, the engine's settings)."""
    if args.config is not None:
        return []
    if args.command not in ("check", "update", "pin", "migrate", "make", "show", "symbols", "impact", "sources", "index"):
        return []
    from ..project.discovery import find_projects

    # (make, show and symbols name a file under the root: the project is the root's, or the current folder's)
    found = find_projects([Path(p) for p in args.paths or [args.root or "."]])
    if args.root is not None:  # (--root: the configurations inside that root, none from above it)
        root = os.path.realpath(args.root)
        found = [p for p in found if os.path.realpath(p.config.path).startswith(root.rstrip(os.sep) + os.sep)]
    several = ("check", "update", "pin", "impact")  # (impact reports them together, in any format)
    if len(found) > 1 and (args.command not in several or (args.command != "impact" and machine_readable(args.format))):
        names = ", ".join(typed_path(p.config.path) for p in found)
        raise TextFragError(
            f"the paths hold {len(found)} projects ({names}): {args.command}"
            + (f" --format {args.format}" if args.command in ("check", "update", "pin") else "")
            + " takes one; give it with --config"
        )
    return [(p.config, list(p.paths)) for p in found]


def settle(args: argparse.Namespace, err: TextIO | None, found: BuildConfig | None = None, *, looked: bool = False) -> RunContext:
    """The run's context: --root, --charset, --max-size and the PDI map from the build's configuration
    (--config, or the project ``found`` for the paths, textfrag.project.discovery; ``looked``: none was
    found, do not look again), saying which one was used; the options given on the command line win. A
    root that is not a folder is a clear error, never an empty run."""
    config: BuildConfig | None = found
    if args.config is not None:
        from ..project.config import read_config  # (only a run that reads a configuration pays for it)

        config = read_config(Path(args.config))
    elif found is None and not looked:
        projects = projects_of(args)
        config = projects[0][0] if projects else None
    quiet = machine_readable(args.format) or args.quiet
    given = args.root is not None
    if config is not None and err is not None and not quiet:
        said = config.describe() if not given else f"{typed_path(config.path)} (root: {typed_path(Path(args.root))}, from --root)"
        print(f"textfrag: using the configuration in {spell(said)}", file=err)
    root = args.root if given else (str(config.root) if config else ".")
    if not os.path.isdir(root):
        said = "--root" if given else f"the configuration {typed_path(config.path)}" if config else "the root"
        what = "does not exist" if not os.path.exists(root) else "is not a folder"
        raise TextFragError(f"the root {spell(str(root))} (from {said}) {what}: nothing can be checked against it")
    run = RunContext(
        args,
        paths=tuple(args.paths or ()),
        root=root,
        root_given=given,
        config=config,
        charset=args.charset or (config.charset if config and config.charset else DEFAULT_CHARSET),
        max_size=args.max_size
        if args.max_size is not None
        else (config.max_size if config and config.max_size else DEFAULT_MAX_SIZE),
        pdi_table=dict(config.pdi_map) if config else {},
        attr_list=config.attr_list if config else True,  # (an mkdocs.yml without attr_list reads no { ... })
        # (links point to excerpts, or to source_url: with it, every link has a target)
        link_targets=config.link_targets if config is not None and not config.source_url else None,
        # (a build that requires pins fails on an unpinned reference: so does check)
        require_pin=args.require_pin or (config is not None and config.require_pin),
        terminal=_terminal(args, err),
    )
    if config is None:
        return run
    # the ways of writing a reference the engine renders, and how it reads raw HTML (only a run that reads a
    # configuration imports what says so)
    from ..project.config import forms_of, html_blocks_of, snippet_bases

    # (a page's snippets are Markdown of that page: judged too)
    return run.but(forms=forms_of(config), html_blocks=html_blocks_of(config), snippets=snippet_bases(config))


def context_of(args: argparse.Namespace, err: TextIO | None = None) -> RunContext:
    """The context of a command that reads no configuration (``options``, ``batch``): what was typed."""
    return RunContext(args, paths=tuple(args.paths or ()), terminal=_terminal(args, err))


def _terminal(args: argparse.Namespace, err: TextIO | None) -> tuple[Progress, Style]:
    """The run's progress line and colours for standard error ``err``: a person at a terminal sees
    progress on long runs, and colour; pipes, files and CI logs see neither."""
    stream = err if err is not None else sys.stderr
    return Progress(stream, enabled=not args.quiet), Style(stream)


def cache_of(run: RunContext) -> SourceCache:
    """The run's source cache, from the root, the charset, the size limit and the PDI map (--pdi too)."""
    table = dict(run.pdi_table)
    for item in run.args.pdi:
        key, sep, path = item.rpartition("=")
        if not sep or not key or not path:
            raise TextFragError(f"--pdi takes PDI=PATH, e.g. pdi://oma.eop.gov.us/1997/09/01/1.text.1=speech.txt, not {item!r}")
        table[key] = path
    return SourceCache(run.root, charset=run.charset, max_size=run.max_size, pdi_map=table)


def write_diff(out: TextIO, diff: str) -> None:
    """A patch to standard output: exact when piped or written to a file (``git apply`` takes it); spelled
    out on a terminal, where a control character in a document would otherwise move the cursor or restyle
    the screen, and in a GitHub Actions job's log, where a quoted line could be a workflow command."""
    style = Style(out)
    out.write(style.diff(spell_lines(diff) if style.terminal or _runner_reads(out) else diff))


def _runner_reads(out: TextIO) -> bool:
    """Whether GitHub's runner reads ``out`` as a job's log (GITHUB_ACTIONS=true, and not a file)."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        return False
    import stat

    try:
        return not stat.S_ISREG(os.fstat(out.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # (a stream of the Python API: a log's, as far as known)
        return True


def _report(problems: list[tuple[Found, TextFragError]], err: TextIO, style: Style) -> int:
    """Print the problems sorted by place; the number of stale ones."""
    problems.sort(key=lambda p: (p[0].file, p[0].line, p[0].start))
    stale = 0
    width = _width() if style.terminal else 0
    for f, e in problems:
        where = f"{f.file}:{f.line}" if f.line else f.file
        if style.terminal and f.text:  # (a person reads it: the verdict first, the details wrapped below)
            word = verdict_word(e)
            report = laid_out(spell(where), word, spell(e.reference or f.text), spell_lines(e.message), width)
        else:
            report = e.describe(where) if f.text else f"{spell(where)}: {spell_lines(e.message)}"
        print(style.problem(report, where, isinstance(e, StaleError)), file=err)
        stale += isinstance(e, StaleError)
    return stale


def _width() -> int:
    """The terminal's width (80 when it cannot be told)."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        columns = 0
    if not columns and os.environ.get("COLUMNS", "").isdigit():
        columns = int(os.environ["COLUMNS"])
    return columns or 80


def nothing_checked(run: RunContext, docs: int) -> TextFragError:
    """What a run that found nothing to check says instead of "all current" (exit 2): what it looked
    for, and where, so that a CI job started in the wrong folder, or a project its discovery missed,
    fails with a way out rather than passing."""
    from ..documents.scan import MD_SUFFIXES, RST_SUFFIXES
    from ..project.discovery import CONFIG_NAMES, LAYOUTS

    paths = run.paths or ["."]
    where = ", ".join(spell(str(p)) for p in paths)
    kinds = ", ".join(sorted(RST_SUFFIXES | MD_SUFFIXES))
    config = run.config
    if not docs:
        said = f"no documentation file ({kinds}) under {where}"
    else:
        guarded = " and no include guarded by textfrag.lock" if config is not None and config.guard else ""
        said = f"no txtfrag: reference{guarded} in the {plural(docs, 'documentation file')} under {where}"
    if config is not None:
        said += f" (the build configured in {spell(typed_path(config.path))}, root {spell(typed_path(Path(run.root)))})"
    elif run.args.config is None and not run.root_given:
        said += (
            f"; no configuration naming textfrag ({', '.join(CONFIG_NAMES)}) was found in {where}, the folders above"
            f" up to the repository's top, or below in {', '.join(LAYOUTS)}"
        )
    verb = "look at" if run.command == "impact" else run.command
    return TextFragError(f"nothing to {verb}: {said}; give the documentation's folder, or --config")


def add_require_pin(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--require-pin",
        action="store_true",
        help="a reference without md5 (unpinned: not protected against drift) is a problem: exit 1, rule textfrag/unpinned",
    )


def unpinned_note(count: int) -> str:
    """The summary's word on unpinned references (counted always, never listed one by one)."""
    if not count:
        return ""
    return f"; {count} unpinned (not protected against drift: `textfrag pin --write` pins them)"


def finish(
    run: RunContext,
    findings: list[Finding],
    problems: list[tuple[Found, TextFragError]],
    summary: str,
    out: TextIO,
    err: TextIO,
) -> int:
    """Say what was found in the chosen format; the number of stale problems."""
    run.progress.clear()
    form = output_format(run.format, os.environ, FORMATS)
    findings.sort(key=lambda f: (f.document, f.line, f.column))
    document = findings_document(form, findings, command=run.command, summary=summary)
    if document is not None:
        print(document, file=out)
        return sum(isinstance(e, StaleError) for _, e in problems)
    if form.annotations:
        for command in github_commands(findings):
            print(command, file=out)
    style = run.style
    stale = _report(problems, err, style)
    for f in findings:  # warnings: said, never failing
        for warning in f.warnings:
            where = f"{f.document}:{f.line}"
            said = f"{spell(where)}: {spell(f.reference or '')}: warning: {spell(warning.message)}"
            print(style.problem(said, spell(where), True), file=err)
    if not run.quiet:
        print(Style(out).paint(summary, "red" if problems else "green"), file=out)
    return stale


def finding_of(f: Found, error: TextFragError | None, pinned: bool | None = None) -> Finding:
    return Finding(f.file, f.line, f.column, f.text or None, error, pinned=pinned)


def checked_so_far(done: int, total: int, searched: int) -> str:
    """The progress line of ``check`` and ``update``."""
    return f"checked {done}/{total} references" + (f", {plural(searched, 'history', 'histories')} searched" if searched else "")


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else words or word + 's'}"
