"""``textfrag batch``: the batch protocol (textfrag.protocol) on standard input and output, for a plugin of
an engine written in another language."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from ..errors import TextFragError
from ..protocol.version import PROTOCOL
from ._base import BAD, OK, STALE
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``batch`` subcommand's parser."""
    p = sub.add_parser(
        "batch",
        help="judge a build's documents or references given as JSON on standard input; the answer as JSON",
        description=(
            f"Read one request of the batch protocol (version {PROTOCOL}) as JSON from standard input (or FILE) and "
            "print the answer as JSON: each reference's excerpt, problems and repair, and in guard mode each include's. "
            "A plugin of another engine (remark, markdown-it, Asciidoctor.js) renders the answer. Exit 0 when nothing "
            "fails the build, 1 when something does, 2 for a request that is not one."
        ),
    )
    p.add_argument("request", nargs="?", default="-", metavar="FILE", help="the request (default: standard input)")


def _batch(run: RunContext, out: TextIO, err: TextIO) -> int:
    try:
        if run.args.request == "-":
            request = json.load(sys.stdin)
        else:
            with open(run.args.request, encoding="utf-8") as f:
                request = json.load(f)
    except (OSError, UnicodeDecodeError) as unreadable:
        print(f"textfrag batch: the request cannot be read: {unreadable}", file=err)
        return BAD
    except (json.JSONDecodeError, RecursionError) as bad:
        what = "nested too deeply" if isinstance(bad, RecursionError) else f"not JSON ({bad})"
        print(f"textfrag batch: the request is {what}", file=err)
        return BAD
    from ..protocol.batch import RequestError, answer  # (only a batch run loads the protocol)

    try:
        answered = answer(request)
    except RequestError as bad:
        print(f"textfrag batch: {bad.message}", file=err)
        return BAD
    except TextFragError as bad:  # (what the request names cannot be used: its configuration, say)
        print(f"textfrag batch: the request: {bad.message}", file=err)
        return bad.exit_code
    json.dump(answered, out, ensure_ascii=False)
    out.write("\n")
    return STALE if answered["failed"] else OK


#: the command, as the command line lists it
COMMAND = Command("batch", add_parser, _batch, settled=False)
