"""What a command runs with, settled once: the typed, frozen context every command and helper of the
command line reads, instead of attributes added to the parsed arguments."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from ..report.terminal import Progress, Style
from ..source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE

if TYPE_CHECKING:
    from ..documents.scan import HtmlBlocks
    from ..project.config import BuildConfig
    from ..verdict.forms import Forms

__all__ = ["RunContext", "COMMON_DEFAULTS", "Command"]


class Command(NamedTuple):
    """One subcommand, declared by its module (``COMMAND``): its name, its parser and its run. The command
    line lists the modules once (textfrag.cli.COMMANDS), in the order its help shows them."""

    name: str
    #: adds the command's parser to the subparsers
    add_parser: Callable[[Any], None]
    #: runs it: the exit code
    run: Callable[[RunContext, TextIO, TextIO], int]
    #: whether it reads documentation and configuration (False: it runs with what was typed)
    settled: bool = True


#: what every command's arguments hold, whether or not its parser offers the option (the top-level
#: parser's defaults): a command reads each as an attribute, never asking whether it is there
COMMON_DEFAULTS: dict[str, Any] = {
    "paths": [],
    "root": None,
    "config": None,
    "charset": None,
    "max_size": None,
    "pdi": [],
    "no_cache": False,
    "format": None,
    "quiet": False,
    "require_pin": False,
    "strict": False,
    "allow_bidi": False,
    "accept_whole_files": False,
    "no_diffs": False,
    "write": False,
    "accept": False,
}


#: an empty mapping no one writes to
_NOTHING: Mapping[str, str] = MappingProxyType({})


class RunContext(NamedTuple):
    """A run's settings: what was typed (``args``, as argparse parsed it, never written to) and what
    textfrag.cli._base.settle made of it with the build's configuration. A named tuple: frozen, and
    cheaper to import than a dataclass. A command that narrows its run (a part of a large tree, the places
    ``update`` is limited to) makes another with :meth:`but`."""

    args: argparse.Namespace
    #: the paths to read (the command line's, or a part of them)
    paths: tuple[str, ...] = ()
    root: str = "."
    #: whether --root was given (the root is then not the configuration's)
    root_given: bool = False
    #: the build's configuration (--config, or found for the paths); None: none
    config: BuildConfig | None = None
    charset: str = DEFAULT_CHARSET
    max_size: int = DEFAULT_MAX_SIZE
    pdi_table: Mapping[str, str] = _NOTHING
    #: whether a Markdown page's ``{ ... }`` attribute lists are read (an mkdocs.yml without attr_list: not)
    attr_list: bool = True
    #: the ways of writing a reference the engine renders; how it reads raw HTML; pymdownx.snippets' bases
    forms: Forms | None = None
    html_blocks: HtmlBlocks = None
    snippets: tuple[tuple[Path, ...], tuple[str, ...]] | None = None
    #: where links point ("page", "site"); None: every link has a target (a source_url)
    link_targets: str | None = None
    require_pin: bool = False
    #: a part of a large tree: its documents were listed once by the process that split it
    listed: bool = False
    #: the suffix the build reads a pulled-in part as, by its real path
    read_as: Mapping[str, str] = _NOTHING
    #: impact: whether a document's text may name a file asked about (the others are counted, not scanned)
    mentions: Callable[[str], bool] | None = None
    #: the run's progress line and colours on standard error
    terminal: tuple[Progress, Style] | None = None

    def but(self, **changes: Any) -> RunContext:
        """The same run with ``changes``."""
        return self._replace(**changes)

    @property
    def command(self) -> str:
        return str(self.args.command)

    @property
    def format(self) -> str | None:
        return self.args.format  # type: ignore[no-any-return]

    @property
    def quiet(self) -> bool:
        return bool(self.args.quiet)

    @property
    def write(self) -> bool:
        return bool(self.args.write)

    @property
    def strict(self) -> bool:
        """``--strict``, or the configuration's (a build run with ``-W``)."""
        return bool(self.args.strict) or (self.config is not None and self.config.strict)

    @property
    def progress(self) -> Progress:
        assert self.terminal is not None
        return self.terminal[0]

    @property
    def style(self) -> Style:
        assert self.terminal is not None
        return self.terminal[1]
