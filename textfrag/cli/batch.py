"""``textfrag batch``: the batch protocol (textfrag.protocol) on standard input and output, for a plugin of
an engine written in another language."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
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
    p.add_argument(
        "--stream",
        action="store_true",
        help="serve a build: one request per line of standard input, each answered on a line of its own, in order, "
        "until the input ends (a plugin starts one process per build, not one per page)",
    )


def _batch(run: RunContext, out: TextIO, err: TextIO) -> int:
    if run.args.stream:
        return _stream(sys.stdin, out)
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
    out.write(json.dumps(answered, ensure_ascii=False) + "\n")  # (json.dump writes piece by piece: 10x slower)
    return STALE if answered["failed"] else OK


def _stream(lines: Iterable[str], out: TextIO) -> int:
    """``textfrag batch --stream``: each line a request, each answered on a line of its own, in order; a line
    that is not a request is answered ``{"error": ..., "status": 2}`` and the next is served. Ends (0) when
    the input does."""
    from ..protocol.batch import RequestError, answer

    carried: dict[Any, Any] = {}  # (one build: each quoted file read once while it stays the same)
    for line in lines:
        if not line.strip():
            continue
        try:
            answered: dict[str, Any] = answer(json.loads(line), carried=carried)
        except (json.JSONDecodeError, RecursionError) as bad:
            what = "nested too deeply" if isinstance(bad, RecursionError) else f"not JSON ({bad})"
            answered = {"error": f"textfrag batch: the request is {what}", "status": BAD}
        except RequestError as bad:
            answered = {"error": f"textfrag batch: {bad.message}", "status": BAD}
        except TextFragError as bad:
            answered = {"error": f"textfrag batch: the request: {bad.message}", "status": bad.exit_code}
        out.write(json.dumps(answered, ensure_ascii=False) + "\n")
        out.flush()
    return OK


#: the command, as the command line lists it
COMMAND = Command("batch", add_parser, _batch, settled=False)
