"""What the scanners find in a documentation file (textfrag.documents.scan), and the helpers they share."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Literal, NamedTuple

__all__ = ["Found", "FoundKind", "Directive", "LineIndex", "MD_SUFFIXES", "RST_SUFFIXES", "trimmed"]

#: the documents each scanner reads, by suffix
RST_SUFFIXES = frozenset({".rst", ".rest"})
MD_SUFFIXES = frozenset({".md", ".markdown", ".myst"})

FoundKind = Literal["directive", "role", "image", "link", "definition", "file", "include", "html", "image-directive"]


class Found(NamedTuple):
    """One reference in a documentation file: where it is and how it is written.

    ``start``/``end`` are offsets of the reference text (``text``) in the file's decoded content, so
    that ``update`` can replace exactly those characters and nothing else.
    """

    file: str
    line: int
    text: str
    start: int
    end: int
    kind: FoundKind
    #: offsets of the whole construct (``![label](txtfrag:REF "title")``); equal to start/end otherwise
    span: tuple[int, int] | None = None
    #: the caption of an image, the text of a link
    label: str = ""
    #: 1-based column of the reference text in its line (code points)
    column: int = 0


class Directive(NamedTuple):
    """A directive met outside code (``literalinclude``...), for ``textfrag migrate``."""

    name: str  # lower case
    line: int  # 1-based
    offset: int  # of the start of its first line
    fence: str  # MyST: the fence that opens it (``````` or ``:::``); "" in reStructuredText


def trimmed(m: re.Match[str], group: int) -> tuple[int, int]:
    """The span of a group that runs to the end of its line (``(.*)\\r?$``), without a last CR and the blanks
    before it: what ``(.*?)[ \\t]*\\r?$`` gives, which backtracks in quadratic time on a run of blanks."""
    start, end = m.span(group)
    text = m.string
    if end > start and text[end - 1] == "\r":
        end -= 1
    while end > start and text[end - 1] in " \t":
        end -= 1
    return start, end


def mask_text(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace each text[start:end] by spaces, keeping line endings (so line numbers are unchanged)."""
    if not spans:
        return text
    parts, pos = [], 0
    for start, end in spans:
        parts.append(text[pos:start])
        parts.append(re.sub(r"[^\r\n]", " ", text[start:end]))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """1-based lines of offsets in one text, as the engines count them: LF, CR LF and a lone CR end a line
    (an old Mac document written with CR alone has as many lines as it shows). The line starts are found
    once, when first asked, so that numbering every reference of a document is linear, not quadratic."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def _breaks(self) -> list[int]:
        if self._starts is None:
            text = self.text
            if "\r" in text:
                self._starts = [m.end() for m in _LINE_BREAK.finditer(text)]
            else:  # (LF alone: the same starts, three times as fast)
                self._starts = list(accumulate(len(line) + 1 for line in text.split("\n")))
                self._starts.pop()
        return self._starts

    def line_at(self, offset: int) -> int:
        """The 1-based line of ``offset``."""
        return bisect_right(self._breaks(), offset) + 1

    def line_and_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``offset`` (one search)."""
        starts = self._breaks()
        k = bisect_right(starts, offset)
        return k + 1, offset - (starts[k - 1] if k else 0) + 1

    def line_start(self, offset: int) -> int:
        """The offset where the line of ``offset`` starts."""
        starts = self._breaks()
        k = bisect_right(starts, offset)
        return starts[k - 1] if k else 0


# directives whose body is code or verbatim text in both reStructuredText and MyST: no reference in them
CODE_DIRECTIVES = frozenset(
    {
        "code-block",
        "code",
        "sourcecode",
        "literalinclude",
        "raw",
        "doctest",
        "testcode",
        "testoutput",
        "highlight",
        "ipython",
        "math",
    }
)


def with_columns(text: str, found: list[Found], lines: LineIndex | None = None) -> list[Found]:
    """``found`` with each reference's 1-based column in its line (those that have one kept as they are)."""
    if all(f.column for f in found):  # (each found with its column already, or none found)
        return found
    lines = LineIndex(text) if lines is None else lines
    # built again with its 1-based column (cheaper than f._replace(column=...) per reference)
    return [
        f
        if f.column
        else Found(f.file, f.line, f.text, f.start, f.end, f.kind, f.span, f.label, f.start - lines.line_start(f.start) + 1)
        for f in found
    ]
