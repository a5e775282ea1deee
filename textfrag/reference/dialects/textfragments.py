"""W3C Text Fragments: ``:~:text=[prefix-,]textStart[,textEnd][,-suffix]``, directives joined by ``&``.

Parsing follows the spec and Firefox's parser tests (dom/base/fragmentdirectives/test.rs): the value is
split on ``,`` first and each term percent-decoded after (a stray ``%`` stays literal); a first term
ending in ``-`` is the prefix (that one ``-`` removed), a last term starting with ``-`` the suffix; one
or two terms must remain, none empty. Directives other than ``text=`` are ignored; an ill-formed
``text=`` directive is an error here (a browser would silently skip it).

Matching follows the spec's "find a range from a text directive" on the file's text as one block:
case-insensitive; ``textStart`` must start on a word boundary (unless a prefix precedes it) and end on
one when there is no ``textEnd`` or no suffix; ``textEnd`` must start on one, and end on one unless a
suffix follows; the prefix must start on one and the suffix end on one; only white space may separate
the prefix and suffix from the match. Each directive selects its first match; several are a union.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import unquote

from ...errors import FragmentSyntaxError, TextFragError
from ...source.cache import Source
from ..resolving import Selection, select
from . import merge

SPEC = "W3C Text Fragments, text directive syntax"
#: Seconds the searches of one file may take in one build before they are stopped (Source.SEARCH_BUDGET).
SEARCH_TIMEOUT = Source.SEARCH_BUDGET


@dataclass(frozen=True)
class TextDirective:
    """One ``text=[prefix-,]textStart[,textEnd][,-suffix]`` directive, percent-decoded."""

    prefix: str | None
    start: str
    end: str | None
    suffix: str | None
    written: str


@dataclass(frozen=True)
class TextDirectives:
    """The text directives of one fragment; each selects its first match, together a union."""

    directives: tuple[TextDirective, ...]
    written: str
    dialect: ClassVar[str] = "textfragments"

    def __str__(self) -> str:
        return self.written

    def select(self, source: Source) -> list[Selection]:
        """The union of each directive's first match; an error if one matches nothing."""
        pieces = []
        with source.searching() as deadline:  # one budget per file, shared by its references
            finder = _Finder(source.text, deadline)
            spans = [(d, finder.find(d)) for d in self.directives]
        for d, span in spans:
            if span is None:
                raise TextFragError(f"the text directive text={d.written} matches nothing in the file (W3C Text Fragments)")
            pieces.append(select(source, *span))
        return merge(source, pieces)


def _is_word(ch: str) -> bool:
    cat = unicodedata.category(ch)
    if cat[0] not in "LNM" and ch != "_":
        return False
    # scripts written without spaces: every position between two of their characters is a boundary
    name = unicodedata.name(ch, "")
    return not name.startswith(("CJK ", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "LAO", "KHMER", "MYANMAR"))


def _fold(text: str) -> str:
    """Lower case with indices kept: characters whose lower case is longer stay as they are."""
    folded = text.lower()
    return folded if len(folded) == len(text) else "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class _Finder:
    """The spec's search on one text. Where the spec searches onward and then compares the position
    (a prefix's match, a suffix), this tests the one position instead, so each step is linear; what is
    still quadratic in the worst case (many prefix matches, each followed by a search for textEnd) is
    bounded by the per-file :data:`SEARCH_TIMEOUT`, like ``match()``."""

    def __init__(self, text: str, deadline: float) -> None:
        self.text = text
        self.folded = _fold(text)
        self.deadline = deadline
        self._last: dict[tuple[str, int], int] = {}

    def tick(self) -> None:
        """Stop the search once it has run past the file's time budget."""
        if time.monotonic() > self.deadline:
            raise TextFragError(
                f"the text directive search ran longer than {SEARCH_TIMEOUT:g} s on this file and was stopped; "
                "make the prefix or textStart more specific (W3C Text Fragments)"
            )

    def boundary(self, i: int) -> bool:
        """Whether a word boundary lies at index ``i`` (the spec's word-bounded matching)."""
        t = self.text
        if i <= 0 or i >= len(t):
            return True
        a, b = t[i - 1], t[i]
        if a in "'\u2019" and i >= 2 and _is_word(t[i - 2]) and _is_word(b):
            return False  # "don't": an apostrophe between letters does not end a word
        if b in "'\u2019" and i + 1 < len(t) and _is_word(a) and _is_word(t[i + 1]):
            return False
        return not (_is_word(a) and _is_word(b))

    def find_string(self, query: str, start: int, end: int, word_start: bool, word_end: bool) -> tuple[int, int] | None:
        """The first match of ``query`` in ``[start, end)`` whose ends fall on word boundaries as asked."""
        q = _fold(query)
        pos = start
        while True:
            self.tick()
            i = self.folded.find(q, pos, end)
            if i < 0:
                return None
            j = i + len(q)
            if (not word_start or self.boundary(i)) and (not word_end or self.boundary(j)):
                return i, j
            pos = i + 1

    def string_at(self, query: str, at: int, end: int, word_start: bool, word_end: bool) -> tuple[int, int] | None:
        """``query`` matched exactly at ``at`` (what the spec's search-then-compare accepts), or None."""
        q = _fold(query)
        j = at + len(q)
        if j > end or not self.folded.startswith(q, at):
            return None
        if (word_start and not self.boundary(at)) or (word_end and not self.boundary(j)):
            return None
        return at, j

    def last_match(self, query: str, end: int) -> int:
        """Start of the last match of ``query`` ending on a word boundary, or -1 (searched once per query)."""
        key = (query, end)
        if key not in self._last:
            q, pos, found = _fold(query), end, -1
            while True:
                self.tick()
                i = self.folded.rfind(q, 0, pos)
                if i < 0 or self.boundary(i + len(q)):
                    found = i
                    break
                pos = i + len(q) - 1
            self._last[key] = found
        return self._last[key]

    def skip_space(self, i: int, end: int) -> int:
        """The first index at or after ``i`` that is not white space."""
        while i < end and self.text[i].isspace():
            i += 1
        return i

    def find(self, d: TextDirective) -> tuple[int, int] | None:
        """The range the directive selects (the spec's find-a-range algorithm), or None."""
        search_start, search_end = 0, len(self.text)
        while search_start < search_end:
            self.tick()
            if d.prefix is not None:
                prefix = self.find_string(d.prefix, search_start, search_end, True, False)
                if prefix is None:
                    return None
                search_start = prefix[0] + 1
                match_start = self.skip_space(prefix[1], search_end)
                if match_start >= search_end:
                    return None
                potential = self.string_at(d.start, match_start, search_end, False, d.end is not None or d.suffix is None)
                if potential is None:
                    continue
            else:
                potential = self.find_string(d.start, search_start, search_end, True, d.end is not None or d.suffix is None)
                if potential is None:
                    return None
                search_start = potential[0] + 1
            range_end_start = potential[1]
            while range_end_start < search_end or d.end is None:
                self.tick()
                if d.end is not None:
                    end_match = self.find_string(d.end, range_end_start, search_end, True, d.suffix is None)
                    if end_match is None:
                        return None
                    potential = (potential[0], end_match[1])
                if d.suffix is None:
                    return potential
                suffix_start = self.skip_space(potential[1], search_end)
                if self.string_at(d.suffix, suffix_start, search_end, False, True) is not None:
                    return potential
                if suffix_start > self.last_match(d.suffix, search_end):
                    return None  # no suffix anywhere from here on: nothing further right can match
                if d.end is None:
                    break
                range_end_start = potential[1]
        return None


def _parse_directive(value: str) -> TextDirective | None:
    terms = value.split(",")
    if any(t == "" for t in terms):
        return None
    prefix = suffix = None
    if terms[0].endswith("-"):
        prefix = terms.pop(0)[:-1]
    if terms and terms[-1].startswith("-"):
        suffix = terms.pop()[1:]
    if len(terms) not in (1, 2) or prefix == "" or suffix == "":
        return None
    if any(t.startswith("-") or t.endswith("-") for t in terms):
        return None
    start = unquote(terms[0])
    end = unquote(terms[1]) if len(terms) == 2 else None
    return TextDirective(
        None if prefix is None else unquote(prefix), start, end, None if suffix is None else unquote(suffix), value
    )


def parse_text_directives(text: str, *, offset: int = 0, shown: str | None = None) -> TextDirectives:
    """Parse ``:~:text=...&text=...``; directives other than ``text=`` are ignored."""
    shown = text if shown is None else shown
    body = text[3:]
    if ":~:" in body:
        raise FragmentSyntaxError(
            "the fragment directive delimiter :~: may appear once", source=shown, span=(offset, offset + len(text)), spec=SPEC
        )
    directives = []
    pos = 3
    for part in body.split("&"):
        if part.startswith("text="):
            d = _parse_directive(part[5:])
            if d is None:
                raise FragmentSyntaxError(
                    "expected text=[prefix-,]textStart[,textEnd][,-suffix] with no empty terms",
                    source=shown,
                    span=(offset + pos, offset + pos + len(part)),
                    spec=SPEC,
                )
            directives.append(d)
        pos += len(part) + 1
    if not directives:
        raise FragmentSyntaxError(
            "the fragment directive has no text= directive", source=shown, span=(offset, offset + len(text)), spec=SPEC
        )
    return TextDirectives(tuple(directives), text)
