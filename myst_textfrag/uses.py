"""A use of the ``txtfrag`` directive or role as ``textfrag-myst`` receives it from mystmd, and the
placeholder node it is until its page's transform (:func:`myst_textfrag.plugin.resolve_pending`).

A use is a process of its own (mystmd starts the plugin for each), so this module imports nothing: not
textfrag, and neither ``json`` nor ``typing`` (``json`` imports ``re``, and the two are half of what a use
costs after Python's start). What mystmd sent is kept as it came, a JSON string in the placeholder's data,
and read where the page's transform judges it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NAME = "txtfrag"
#: the data keys of a placeholder: what mystmd sent for the use (JSON text), and which it is
PENDING, KIND = "txtfrag-pending", "txtfrag-use"
#: past this many brackets what mystmd sent is read here in full, so that what nests too deeply is refused
#: at once (a use's data has a few dozen)
_BRACKETS = 1000


def placeholder(kind: str, sent: str) -> str:
    """The JSON of the one node a use of the directive (``kind`` "directive") or the role ("role") is until
    its page's transform: a ``div`` or an ``inlineCode`` (block or inline, as what replaces it) holding
    ``sent``, the JSON text mystmd sent for it."""
    shape = '"type":"div","children":[]' if kind == "directive" else '"type":"inlineCode","value":""'
    return f'[{{{shape},"data":{{"{KIND}":{_string(kind)},"{PENDING}":{_string(sent)}}}}}]'


def refused(sent: str) -> str | None:
    """Why ``sent`` cannot be a use's data (None when it can): not a JSON object, or nested too deeply to
    be read. Read in full only when it has many brackets; mystmd sends JSON, and the transform reads it."""
    text = sent.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return "textfrag-myst: what mystmd sent is not a JSON object"
    if text.count("{") + text.count("[") > _BRACKETS:
        try:
            received(text)
        except BadInput as bad:
            return str(bad)
    return None


def _string(text: str) -> str:
    """``text`` as a JSON string (ASCII: what is not ASCII escaped)."""
    try:
        from _json import encode_basestring_ascii
    except ImportError:  # (a Python without the C accelerator)
        from json.encoder import encode_basestring_ascii
    return str(encode_basestring_ascii(text))


class BadInput(Exception):
    """What mystmd sent cannot be read: the message says why (exit 2)."""


def received(text: str | None = None) -> Any:
    """``text`` (default: standard input) read as JSON; :class:`BadInput` when it is not JSON or is nested
    too deeply for Python's reader."""
    import json

    try:
        return json.loads(sys.stdin.read() if text is None else text)
    except json.JSONDecodeError as err:
        raise BadInput(f"textfrag-myst: what mystmd sent is not JSON: {err}") from None
    except RecursionError:  # (Python's JSON reader recurses once per level)
        raise BadInput("textfrag-myst: what mystmd sent is nested too deeply to be read") from None
