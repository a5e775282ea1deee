"""``textfrag show REF``: print the excerpt a reference selects."""

from __future__ import annotations

from typing import Any, TextIO

from ..verdict.quoting import quote
from ._base import OK, STALE, WHERE_ARGV, add_common, cache_of
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``show`` subcommand's parser."""
    show = sub.add_parser(
        "show",
        help="print the excerpt a reference selects",
        description="Print the excerpt exactly as it stands in the file (UTF-8, original line endings, nothing added).",
    )
    add_common(show)
    show.add_argument("reference", metavar="REF", help="PATH#FRAGMENT, e.g. src/app.py#line=10,20")


def _show(run: RunContext, out: TextIO, err: TextIO) -> int:
    cache = cache_of(run)
    q = quote(cache, run.args.reference)
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


#: the command, as the command line lists it
COMMAND = Command("show", add_parser, _show)
