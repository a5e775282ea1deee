"""A use of the ``txtfrag`` directive or role as ``textfrag-myst`` receives it from mystmd, and the
placeholder node it is until its page's transform (:func:`myst_textfrag.plugin.resolve_pending`); nothing
of textfrag's is imported here."""

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
