"""The ``textfrag-myst`` command: what mystmd starts for every use of the directive and the role, kept to
what Python's start costs.

mystmd starts an executable plugin once for every use of a directive or role of it (a book of 500
references is 500 processes). A use here is only read and set aside: the directive and the role become a
placeholder node holding what mystmd sent, with nothing imported beyond ``json``. The transform, which
mystmd runs once per page, replaces each placeholder with the core's verdict
(:func:`myst_textfrag.plugin.resolve_pending`), with one cache of the quoted files for the page. Anything
else (the specification, the transform) is :func:`myst_textfrag.plugin.run`'s.
"""

from __future__ import annotations

import json
import sys
from typing import Any

#: the data key of a placeholder: what mystmd sent for the use, as JSON
PENDING = "txtfrag-pending"
NAME = "txtfrag"


def placeholder(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The node a use of the directive (``kind`` "directive") or the role ("role") is until the page's
    transform: a ``div`` or an ``inlineCode`` (block or inline, as what replaces it) holding the reference,
    the options as mystmd typed them and the line of the use."""
    node = data.get("node")
    position = node.get("position") if isinstance(node, dict) else None
    use = {
        "kind": kind,
        "arg": data.get("arg") if kind == "directive" else data.get("body"),
        "options": data.get("options") if isinstance(data.get("options"), dict) else {},
        "position": position if isinstance(position, dict) else {},
    }
    said = {PENDING: json.dumps(use, ensure_ascii=False)}  # (RecursionError for options nested too deeply)
    if kind == "directive":
        return {"type": "div", "data": said, "children": []}
    return {"type": "inlineCode", "value": "", "data": said}


class BadInput(Exception):
    """What mystmd sent cannot be read: the message says why (exit 2)."""


def received() -> Any:
    """What mystmd sent on standard input, as JSON; :class:`BadInput` when it is not JSON or is nested too
    deeply for Python's reader."""
    try:
        return json.load(sys.stdin)
    except json.JSONDecodeError as err:
        raise BadInput(f"textfrag-myst: what mystmd sent is not JSON: {err}") from None
    except RecursionError:  # (Python's JSON reader recurses once per level)
        raise BadInput("textfrag-myst: what mystmd sent is nested too deeply to be read") from None


def run(argv: list[str] | None = None) -> int:
    """``textfrag-myst [--directive txtfrag | --role txtfrag | --transform txtfrag-problems]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] in ("--directive", "--role") and args[1] == NAME:
        try:
            data = received()
        except BadInput as bad:
            print(bad, file=sys.stderr)
            return 2
        if not isinstance(data, dict):
            print("textfrag-myst: what mystmd sent is not a JSON object", file=sys.stderr)
            return 2
        try:
            shown = json.dumps([placeholder(args[0][2:], data)], ensure_ascii=False)
        except (RecursionError, ValueError):  # (options nested too deeply to write, or not JSON's numbers)
            print("textfrag-myst: what mystmd sent is nested too deeply to be read", file=sys.stderr)
            return 2
        sys.stdout.write(shown)
        return 0
    from .plugin import run as run_plugin  # (the specification, the transform, and a wrong command line)

    return run_plugin(args)


def main() -> None:
    """Entry point of the ``textfrag-myst`` console script."""
    sys.exit(run())
