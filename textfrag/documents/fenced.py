"""The ``txtfrag`` directive written as a code fence (```` ```txtfrag REF ````), which MyST-Parser runs as
the directive where ``myst_fence_as_directive`` names txtfrag."""

from __future__ import annotations

import re

from .found import Found, LineIndex, with_columns

__all__ = ["fenced_directives"]


def fenced_directives(text: str, file: str = "<text>") -> list[Found]:
    """The ``txtfrag`` directives written as code fences (```` ```txtfrag REF ````), which MyST-Parser runs
    as directives where ``myst_fence_as_directive`` names txtfrag: each fence's argument, as the directive
    takes it (a fence inside another fence is that fence's code)."""
    if "txtfrag" not in text:
        return []
    found: list[Found] = []
    lines = LineIndex(text)
    inside: str | None = None  # the fence that holds the lines read
    for m in _ANY_FENCE.finditer(text):
        mark, info = m.group(2), m.group(3)
        if inside is not None:
            if not info.strip() and mark[0] == inside[0] and len(mark) >= len(inside):
                inside = None
            continue
        d = _FENCED_TXTFRAG.match(info)
        if d is not None and d.group(1):
            at = m.start(3) + d.start(1)
            found.append(Found(file, lines.line_at(at), d.group(1), at, at + len(d.group(1)), "directive"))
        inside = mark
    return with_columns(text, found)


_ANY_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})([^\n]*?)[ \t]*\r?$", re.MULTILINE)
_FENCED_TXTFRAG = re.compile(r"(?i:txtfrag)[ \t]+(\S+)")
