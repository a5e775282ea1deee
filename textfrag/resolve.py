"""(Source, Fragment) -> Selection. Pure: no I/O, no verification.

RFC 5147 semantics (sections 2.1, 2.2 and 4.2): positions count from 0 and lie between characters or
lines; a position past the end means the end; an omitted range start means 0 and an omitted end the end
of the text. Line ranges include their line endings (section 2.1.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .fragment import Fragment, Scheme
from .source import Source

__all__ = ["Selection", "occurrences", "resolve", "resolve_scheme", "select", "select_lines", "whole"]


@dataclass(frozen=True)
class Selection:
    """A span of a source: indices into ``source.text``, RFC positions, and 1-based lines for display.

    ``first_line``/``last_line`` are the 1-based numbers of the first and last line that the selection
    touches; for an empty selection ``last_line`` is ``first_line - 1``.
    """

    source: Source
    start: int
    end: int
    char_start: int
    char_end: int
    first_line: int
    last_line: int

    @property
    def text(self) -> str:
        """The excerpt exactly as it stands in the file (original line endings)."""
        return self.source.text[self.start : self.end]

    @property
    def empty(self) -> bool:
        return self.start == self.end

    def lines_display(self) -> str:
        """``lines 11-20``, ``line 5``, or where an empty selection lies, 1-based as editors number.

        Used in every message and caption that shows a range.
        """
        if self.empty:
            if self.start >= len(self.source.text):
                return f"the end of the file (after line {self.source.line_count})"
            return f"an empty selection in line {self.first_line}"
        if self.first_line == self.last_line:
            return f"line {self.first_line}"
        return f"lines {self.first_line}-{self.last_line}"

    def to_line_scheme(self) -> Scheme | None:
        """The ``line=`` range with the same text, when the selection is made of whole lines."""
        src = self.source
        starts = src.line_starts
        n = len(src.text)
        first = self.first_line - 1
        at_line_start = self.start == src.index_of_line(first) if not self.empty else False
        at_end = self.end == n or (self.last_line < len(starts) and self.end == starts[self.last_line])
        if self.empty or not at_line_start or not at_end:
            return None
        return Scheme("line", first, self.last_line, True)


def select(source: Source, start: int, end: int) -> Selection:
    """The selection of ``source.text[start:end]`` (indices into the decoded text)."""
    first = source.line_of_index(start)
    last = source.line_of_index(end - 1) if end > start else first - 1
    return Selection(source, start, end, source.char_of_index(start), source.char_of_index(end), first, last)


def resolve_scheme(source: Source, scheme: Scheme) -> Selection:
    """Apply one ``char=``/``line=`` scheme to a source."""
    if scheme.name == "char":
        to_index = source.index_of_char
    else:
        to_index = source.index_of_line
    if scheme.is_range:
        start = 0 if scheme.start is None else to_index(scheme.start)
        end = len(source.text) if scheme.end is None else to_index(scheme.end)
    else:
        assert scheme.start is not None
        start = end = to_index(scheme.start)
    return select(source, start, end)


def resolve(source: Source, fragment: Fragment | None) -> Selection:
    """The selection ``fragment`` makes in ``source`` (None: the whole file).

    >>> from textfrag import parse_fragment
    >>> src = Source("demo.txt", b"one\\r\\ntwo\\nthree")
    >>> resolve(src, parse_fragment("line=1,2")).text
    'two\\n'
    >>> resolve(src, parse_fragment("char=3,5")).text  # CR LF counts as one character
    '\\r\\nt'
    """
    if fragment is None:
        return whole(source)
    return resolve_scheme(source, fragment.scheme)


def whole(source: Source) -> Selection:
    return select(source, 0, len(source.text))


def select_lines(source: Source, first: int, last: int) -> Selection:
    """Lines ``first`` to ``last``, 1-based and inclusive as editors number them, cut at the file's end
    (callers that must refuse a line past the end check :attr:`Source.line_count` first).

    >>> select_lines(Source("t.txt", b"a\\nb\\nc\\n"), 2, 9).text
    'b\\nc\\n'
    """
    count = source.line_count
    return select(source, source.index_of_line(min(first, count) - 1), source.index_of_line(min(last, count)))


def occurrences(source: Source, needle: str, limit: int) -> list[int]:
    """Where ``needle`` occurs in the text (indices, overlapping ones too), at most ``limit`` of them."""
    hits: list[int] = []
    at = source.text.find(needle) if needle else -1
    while at >= 0 and len(hits) < limit:
        hits.append(at)
        at = source.text.find(needle, at + 1)
    return hits
