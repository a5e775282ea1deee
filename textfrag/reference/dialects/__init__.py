"""Fragment syntaxes other than RFC 5147, chosen by the fragment's form (the manual's reference/syntax page).

Every dialect parses into a :class:`~textfrag.reference.selection.Selector`, as RFC 5147 fragments do, whose one
method turns a loaded source into selections; everything after that (rendering, ``make --from``) is
shared. Only RFC 5147 carries integrity checks.

| form                          | module          | counts                                 |
|-------------------------------|-----------------|----------------------------------------|
| ``char(`` ``line(`` ``match(``| wilde           | 1-based, union of parts                |
| ``:words:``                   | yee             | words, first occurrence                |
| ``:~:``                       | textfragments   | W3C text directives                    |
| ``L10``, ``L10-L20``, ``10``  | lines           | 1-based inclusive lines                |
| ``urn:pdi:``/``pdi://`` refs  | pdi             | CRLF-canonical chars, end exclusive    |
"""

from __future__ import annotations

import re

from ...source.cache import Source
from ..selection import Selection, Selector, select

__all__ = ["Selector", "parse_selector", "merge"]

_GITHUB = re.compile(r"L[0-9]+(?:-L[0-9]+)?")
_W3M = re.compile(r"[0-9]+")


def parse_selector(text: str, *, offset: int = 0, shown: str | None = None) -> Selector | None:
    """The selector for a fragment of another dialect, or None when it has RFC 5147's form (or none)."""
    if text.startswith(("char(", "line(", "match(")):
        from .wilde import parse_wilde

        return parse_wilde(text, offset=offset, shown=shown)
    if text.startswith(":words:"):
        from .yee import parse_words

        return parse_words(text, offset=offset, shown=shown)
    if text.startswith(":~:"):
        from .textfragments import parse_text_directives

        return parse_text_directives(text, offset=offset, shown=shown)
    if _GITHUB.fullmatch(text) or _W3M.fullmatch(text):
        from .lines import parse_line_anchor

        return parse_line_anchor(text, offset=offset, shown=shown)
    return None


def merge(source: Source, pieces: list[Selection]) -> list[Selection]:
    """The union of selections: sorted by position, overlapping or touching ones joined."""
    spans: list[list[int]] = []
    for s in sorted(pieces, key=lambda p: (p.start, p.end)):
        if spans and s.start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], s.end)
        else:
            spans.append([s.start, s.end])
    return [select(source, a, b) for a, b in spans]
