"""``textfrag symbols PATH``: list a file's definitions."""

from __future__ import annotations

from typing import Any, TextIO

from ..errors import TextFragError
from ._base import OK, add_common, cache_of
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``symbols`` subcommand's parser."""
    symbols = sub.add_parser(
        "symbols",
        help="list a file's definitions with their lines (what --symbol and :symbol: name)",
        description="Print each definition of the file (name, 1-based first and last lines, kind), in the file's order.",
    )
    add_common(symbols)
    symbols.add_argument("--language", help="the file's language, when its name does not say it")
    symbols.add_argument("path", metavar="PATH", help="a file under the root")


def _symbols(run: RunContext, out: TextIO, err: TextIO) -> int:
    """``textfrag symbols PATH``: the file's definitions with their 1-based lines."""
    from ..intents.intent import python_objects
    from ..intents.symbols import definitions, language_of

    cache = cache_of(run)
    source = cache.get(run.args.path, run.args.path)
    language = language_of(run.args.path, run.args.language)
    if language is None:
        raise TextFragError(f"the language of {run.args.path} is not one textfrag reads definitions in; give --language")
    try:
        found = definitions(source.text, language, python_objects)
    except TextFragError as error:
        raise TextFragError(f"{run.args.path}: {error.message}") from None
    for d in found:
        print(f"{d.name}\t{d.first}-{d.last}\t{d.kind}", file=out)
    return OK


#: the command, as the command line lists it
COMMAND = Command("symbols", add_parser, _symbols)
