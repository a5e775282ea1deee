"""A selection of a source, and the one protocol every kind of fragment selects through.

:class:`Selection` is a span of a loaded :class:`~textfrag.source.cache.Source` in every unit a user meets
(indices into the text, RFC 5147 character positions, 1-based lines). :class:`Selector` is what an
RFC 5147 fragment and every dialect's fragment are (textfrag.reference.fragment, textfrag.reference.dialects): a value with
a ``dialect`` name whose ``str()`` is its canonical spelling and whose ``select`` turns a source into
the pieces it selects, in file order. Nothing here reads a file or knows a syntax.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple, Protocol

from ..source.cache import Source

__all__ = ["ELISION", "Selection", "Selector", "occurrences", "select", "select_lines", "whole"]

#: the mark between the pieces of a disjoint selection, wherever they are shown (a line of its own)
ELISION = "\u22ef"


class Selector(Protocol):
    """A parsed fragment of any dialect (RFC 5147 included).

    ``select`` returns one or more selections in file order (several for a disjoint selection) and
    raises :class:`~textfrag.errors.TextFragError` when nothing can be selected; ``str()`` spells the
    fragment so that it parses back to an equal value.
    """

    dialect: ClassVar[str]

    def select(self, source: Source) -> list[Selection]:
        """The pieces selected in ``source``, in file order; TextFragError when nothing can be."""
        ...


class Selection(NamedTuple):
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
        """Whether the selection holds no text (a position)."""
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


def select(source: Source, start: int, end: int) -> Selection:
    """The selection of ``source.text[start:end]`` (indices into the decoded text)."""
    first = source.line_of_index(start)
    last = source.line_of_index(end - 1) if end > start else first - 1
    return Selection(source, start, end, source.char_of_index(start), source.char_of_index(end), first, last)


def whole(source: Source) -> Selection:
    """The whole text of ``source``."""
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
