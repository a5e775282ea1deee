"""Yee's text-search fragment identifiers: ``:words:pre-(target-words)-post``.

The document is a sequence of words: unbroken runs of letters or digits, accented letters translated to
their unaccented counterparts, apostrophes (ASCII 39) ignored; any other character is a break (section
2). The whole sequence, ignoring the parentheses, is matched case-sensitively and the first occurrence
counts; the selection is the target phrase, from its first word's first character to its last word's
last character in the original text (section 4). Grammar (section 4)::

    words-fragid = ":words:" *precontext targetphrase *postcontext
    precontext   = word "-"
    targetphrase = "(" word *[ "-" word ] ")"
    postcontext  = "-" word
    word         = 1*alphadigit
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import unquote

from ...errors import FragmentSyntaxError, TextFragError
from ...source.cache import Source
from ..resolving import Selection, select

SPEC = "Yee, Text-Search Fragment Identifiers, section 4"
_FRAGMENT = re.compile(r"((?:[A-Za-z0-9]+-)*)\(([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)\)((?:-[A-Za-z0-9]+)*)")


def fold(word: str) -> str:
    """Accented letters to their unaccented counterparts, apostrophes dropped (section 2).

    >>> fold("mümsige"), fold("Räth'"), fold("didn't")
    ('mumsige', 'Rath', 'didnt')
    """
    decomposed = unicodedata.normalize("NFKD", word.replace("'", ""))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _is_word_char(ch: str) -> bool:
    return ch == "'" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) in ("Mn", "Mc")


def iter_words(text: str) -> Iterator[tuple[str, int, int]]:
    """(folded word, start, end) for each word of ``text``, one at a time; start/end index the original
    text (the selection runs from the first to the last letter or digit, not the apostrophes)."""
    i, n = 0, len(text)
    while i < n:
        if not _is_word_char(text[i]):
            i += 1
            continue
        j = i
        while j < n and _is_word_char(text[j]):
            j += 1
        run = text[i:j]
        folded = fold(run)
        if folded:
            lead = len(run) - len(run.lstrip("'"))
            trail = len(run) - len(run.rstrip("'"))
            yield folded, i + lead, j - trail
        i = j


def words(text: str) -> list[tuple[str, int, int]]:
    """(folded word, start, end) for each word of ``text``; start/end index the original text.

    >>> [w for w, _, _ in words("Hey! That 'quick' brown fox didn't jump over the lazy dog?")]
    ['Hey', 'That', 'quick', 'brown', 'fox', 'didnt', 'jump', 'over', 'the', 'lazy', 'dog']
    """
    return list(iter_words(text))


def find_sequence(wanted: list[str], doc: Iterable[tuple[str, int, int]]) -> list[tuple[str, int, int]] | None:
    """The first run of words of ``doc`` equal to ``wanted``: Knuth-Morris-Pratt over words, so the time
    is linear in the file and the fragment, and memory holds only the fragment's length of words.

    >>> [w for w, _, _ in find_sequence(["a", "b"], iter_words("a a b"))]
    ['a', 'b']
    """
    k = len(wanted)
    fail = [0] * k  # the longest proper prefix of wanted[:i+1] that is also its suffix
    j = 0
    for i in range(1, k):
        while j and wanted[i] != wanted[j]:
            j = fail[j - 1]
        if wanted[i] == wanted[j]:
            j += 1
        fail[i] = j
    window: deque[tuple[str, int, int]] = deque(maxlen=k)
    j = 0
    for word in doc:
        window.append(word)
        while j and word[0] != wanted[j]:
            j = fail[j - 1]
        if word[0] == wanted[j]:
            j += 1
            if j == k:
                return list(window)
    return None


@dataclass(frozen=True)
class WordsFragment:
    """``:words:pre-(target)-post``: the target words of the first occurrence of the whole sequence."""

    pre: tuple[str, ...]
    target: tuple[str, ...]
    post: tuple[str, ...]
    dialect: ClassVar[str] = "yee"

    def __str__(self) -> str:
        pre = "".join(w + "-" for w in self.pre)
        post = "".join("-" + w for w in self.post)
        return f":words:{pre}({'-'.join(self.target)}){post}"

    def select(self, source: Source) -> list[Selection]:
        """The target phrase, from its first word's first character to its last word's last."""
        wanted = [*self.pre, *self.target, *self.post]
        run = find_sequence(wanted, iter_words(source.text))
        if run is None:
            raise TextFragError(
                f"the words {' '.join(wanted)!r} do not occur in this order in the file "
                "(matched case-sensitively, accents and apostrophes ignored; Yee section 4)"
            )
        first, last = run[len(self.pre)], run[len(self.pre) + len(self.target) - 1]
        return [select(source, first[1], last[2])]


def parse_words(text: str, *, offset: int = 0, shown: str | None = None) -> WordsFragment:
    """Parse a ``:words:`` fragment (percent-decoded first)."""
    shown = text if shown is None else shown
    body = unquote(text[len(":words:") :])
    m = _FRAGMENT.fullmatch(body)
    if m is None:
        raise FragmentSyntaxError(
            "expected :words:pre-(target-words)-post: words of letters and digits joined by '-', "
            "exactly one pair of parentheses around the target words",
            source=shown,
            span=(offset + len(":words:"), offset + len(text)),
            spec=SPEC,
        )
    pre = tuple(w for w in m.group(1).split("-") if w)
    target = tuple(m.group(2).split("-"))
    post = tuple(w for w in m.group(3).split("-") if w)
    return WordsFragment(pre, target, post)
