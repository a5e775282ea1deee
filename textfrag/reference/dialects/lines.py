"""GitHub-style ``L10`` / ``L10-L20`` and w3m-style bare ``10``: 1-based inclusive lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...errors import FragmentSyntaxError, TextFragError
from ...source.cache import Source
from ..linespec import MAX_DIGITS
from ..resolving import Selection, select_lines


@dataclass(frozen=True)
class LineAnchor:
    """GitHub's ``L10``/``L10-L20``: lines ``first`` to ``last``, 1-based and inclusive."""

    first: int
    last: int
    dialect: ClassVar[str] = "github"

    def __str__(self) -> str:
        return f"L{self.first}" if self.first == self.last else f"L{self.first}-L{self.last}"

    def select(self, source: Source) -> list[Selection]:
        """The lines, cut at the file's end; a first line past the end is an error."""
        count = source.line_count
        if self.first > count:
            raise TextFragError(f"line {self.first} is past the end: the file has {count} lines ({self.dialect} line anchor)")
        return [select_lines(source, self.first, self.last)]


@dataclass(frozen=True)
class LineNumber(LineAnchor):
    """w3m's bare ``10``: one line, 1-based."""

    dialect: ClassVar[str] = "w3m"

    def __str__(self) -> str:
        return str(self.first)


def parse_line_anchor(text: str, *, offset: int = 0, shown: str | None = None) -> LineAnchor:
    """Parse ``L10``, ``L10-L20`` (GitHub) or ``10`` (w3m): 1-based inclusive lines."""
    shown = text if shown is None else shown
    if len(text) > 2 * MAX_DIGITS + 3:  # any line past the end is an error anyway; Python refuses int() of 4300+ digits
        raise FragmentSyntaxError(
            f"a line number of more than {MAX_DIGITS} digits",
            source=shown,
            span=(offset, offset + len(text)),
            spec="GitHub/w3m line anchor",
        )
    if text.startswith("L"):
        first_s, _, last_s = text[1:].partition("-L")
        first, last = int(first_s), int(last_s) if last_s else int(first_s)
        kind: type[LineAnchor] = LineAnchor
    else:
        first = last = int(text)
        kind = LineNumber
    if first < 1:
        raise FragmentSyntaxError(
            "lines are numbered from 1 in a line anchor",
            source=shown,
            span=(offset, offset + len(text)),
            spec="GitHub/w3m line anchor",
        )
    if last < first:
        raise FragmentSyntaxError(
            f"the range L{first}-L{last} ends before it starts",
            source=shown,
            span=(offset, offset + len(text)),
            spec="GitHub/w3m line anchor",
        )
    return kind(first, last)
