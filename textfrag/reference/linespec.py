"""Line lists such as ``12,14-16``: one parser for ``:emphasize-lines:``, ``make --lines`` and ``hl_lines``.

Numbers are 1-based, ASCII digits only (``²`` is a digit to Python, not here), at most
:data:`MAX_DIGITS` long; a range is ``A-B`` with A <= B. Nothing is expanded into a list before the bounds
are checked, so ``1-100000000000`` costs nothing and is refused as outside the excerpt.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import TextFragError

__all__ = ["MAX_DIGITS", "LineRange", "parse_line_list", "parse_line_range", "number"]

#: The longest number accepted anywhere a user writes one (positions, counts, line numbers). Any
#: position past the end already means the end (RFC 5147 section 4.2), so longer numbers add nothing,
#: and Python refuses to convert integers of more than 4300 digits.
MAX_DIGITS = 100

_NUMBER = re.compile(r"[0-9]+")


class LineRange(NamedTuple):
    """Lines ``first`` to ``last``, 1-based and inclusive."""

    first: int
    last: int

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def number(text: str, what: str) -> int:
    """A whole number written in ASCII digits, at most :data:`MAX_DIGITS` of them.

    >>> number("42", "a line")
    42
    >>> number("²", "a line")
    Traceback (most recent call last):
    ...
    textfrag.errors.TextFragError: a line is written in digits 0-9, not '²'
    """
    if not _NUMBER.fullmatch(text):
        raise TextFragError(f"{what} is written in digits 0-9, not {text!r}")
    if len(text) > MAX_DIGITS:
        raise TextFragError(f"{what} has {len(text)} digits; at most {MAX_DIGITS} are accepted")
    return int(text)


def parse_line_range(text: str, what: str = "a line range") -> LineRange:
    """``A-B`` or ``A`` (1-based, inclusive); A must not be after B, and lines start at 1.

    >>> parse_line_range("11-20")
    LineRange(first=11, last=20)
    """
    a, sep, b = text.strip().partition("-")
    first = number(a.strip(), f"{what} {text!r}: the first line")
    last = number(b.strip(), f"{what} {text!r}: the last line") if sep else first
    if first < 1:
        raise TextFragError(f"{what} {text!r}: lines are numbered from 1")
    if last < first:
        raise TextFragError(f"{what} {text!r}: the range starts after it ends (A must not be after B)")
    return LineRange(first, last)


def parse_line_list(text: str, what: str = "a line list", *, separators: str = ",") -> list[LineRange]:
    """``12,14-16`` as ranges, in the order written (``separators``: also " " for pymdownx's ``hl_lines``).

    >>> [str(r) for r in parse_line_list("12, 14-16")]
    ['12', '14-16']
    >>> [str(r) for r in parse_line_list("2 3-4", separators=", ")]
    ['2', '3-4']
    """
    parts = [p for p in re.split(f"[{re.escape(separators)}]+", text.strip()) if p.strip()]
    if not parts:
        raise TextFragError(f"{what} names no lines (expected line numbers such as 12,14-16)")
    return [parse_line_range(p, what) for p in parts]
