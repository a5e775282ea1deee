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
from bisect import bisect_right
from dataclasses import dataclass
from urllib.parse import unquote

from ..errors import FragmentSyntaxError, TextFragError
from ..resolve import Selection, select
from ..source import Source

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


def words(text: str) -> list[tuple[str, int, int]]:
    """(folded word, start, end) for each word of ``text``; start/end index the original text.

    >>> [w for w, _, _ in words("Hey! That 'quick' brown fox didn't jump over the lazy dog?")]
    ['Hey', 'That', 'quick', 'brown', 'fox', 'didnt', 'jump', 'over', 'the', 'lazy', 'dog']
    """
    out = []
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
            # the selection runs from the first to the last letter or digit, not the apostrophes
            lead = len(run) - len(run.lstrip("'"))
            trail = len(run) - len(run.rstrip("'"))
            out.append((folded, i + lead, j - trail))
        i = j
    return out


@dataclass(frozen=True)
class WordsFragment:
    pre: tuple[str, ...]
    target: tuple[str, ...]
    post: tuple[str, ...]
    dialect: str = "yee"

    def __str__(self) -> str:
        pre = "".join(w + "-" for w in self.pre)
        post = "".join("-" + w for w in self.post)
        return f":words:{pre}({'-'.join(self.target)}){post}"

    def select(self, source: Source) -> list[Selection]:
        doc = words(source.text)
        wanted = [*self.pre, *self.target, *self.post]
        # whole-word search: words are letters and digits, so NUL separates them safely
        joined = "\x00" + "\x00".join(w for w, _, _ in doc) + "\x00"
        needle = "\x00" + "\x00".join(wanted) + "\x00"
        at = joined.find(needle)
        if at < 0:
            raise TextFragError(
                f"the words {' '.join(wanted)!r} do not occur in this order in the file "
                "(matched case-sensitively, accents and apostrophes ignored; Yee section 4)"
            )
        starts, pos = [], 1
        for w, _, _ in doc:
            starts.append(pos)
            pos += len(w) + 1
        first_word = bisect_right(starts, at + 1) - 1 + len(self.pre)
        last_word = first_word + len(self.target) - 1
        return [select(source, doc[first_word][1], doc[last_word][2])]


def parse_words(text: str, *, offset: int = 0, shown: str | None = None) -> WordsFragment:
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
