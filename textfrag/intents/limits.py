"""How much parsing a quoted file may cost: measures of its text that refuse what a parser would search
for minutes (the same answer on every machine), and the limits of the child process every parse runs in
(a backstop). textfrag.intents.symbols applies them to tree-sitter's grammars; textfrag.intents.bounded runs the child."""

from __future__ import annotations

import os
import re
from itertools import accumulate
from typing import Any

from ..errors import TextFragError

__all__ = [
    *("ANGLED", "DEEPEST_BRACKETS", "MOST_ANGLES", "PARSE_MEMORY", "open_angles", "parse_seconds", "refuse_hostile"),
    *("parse_steps", "STEP", "ERROR_WEIGHT", "backstop_seconds", "parse_counted"),
]

#: how deep a file's brackets may nest (an unclosed nesting thousands deep makes tree-sitter's search of
#: its tree quadratic: 100,000 unclosed ``[`` took minutes)
DEEPEST_BRACKETS = 2000
_WEIGHTS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def parse_seconds() -> float:
    """How long a parse may take (``TEXTFRAG_PARSE_SECONDS``, default 5): a backstop only, which no file
    that passes the measures of :func:`refuse_hostile` comes near on any machine this is run on."""
    try:
        return max(0.1, float(os.environ.get("TEXTFRAG_PARSE_SECONDS", "5")))
    except ValueError:
        return 5.0


#: the memory a parse may take (bytes), besides what the process held before: the other backstop
PARSE_MEMORY = 1 << 30

#: tree-sitter reports its progress every 100 of its parsing operations: a step
STEP = 100
#: a step taken once the parse has met an error counts for this many (tree-sitter's error recovery costs
#: about four times an ordinary step: so the count follows the time a parse takes)
ERROR_WEIGHT = 4


def parse_steps(size: int) -> int:
    """How many steps (of :data:`STEP` parsing operations, counted by tree-sitter itself, the same on every
    machine) a parse of ``size`` bytes may take: 50,000, and 100 more for each KB. Ordinary code takes 4 to
    10 a KB, the densest code (``f(g<h,i>(j));`` again and again) about 100; a file past that is refused as
    one whose shape makes the parser search it, whatever the machine and its load (``bench/bench_parse.py``
    prints the margins)."""
    return 50_000 + 100 * (size // 1024)


def backstop_seconds(size: int) -> float:
    """The deadline of a parse of ``size`` bytes: :func:`parse_seconds`, and a second more for every 2,000
    steps it may take (500 µs a step; the slowest steps measured, tree-sitter's error recovery, take 200 µs
    on an idle machine), so that no parse the step budget accepts meets it on a slow, loaded runner."""
    return parse_seconds() + parse_steps(size) / 2_000


def refuse_hostile(text: str, language: str) -> None:
    """Refuse a file whose shape makes tree-sitter's search of it take minutes and gigabytes, by measures
    of the text alone (the same answer on every machine): brackets nested more than 2,000 deep; in the
    grammars whose ``<`` may open a type's arguments (Java, C#, TypeScript, TSX), more than 2,000 ``<``
    left open (each keeps a guess open that the parser carries to the end: 16 KB of ``a<a<...`` took
    C#'s grammar 2.5 s and 680 MB, 64 KB of ``a<a<a<a<a<;`` took TypeScript's 40 s and 7 GB)."""
    if _nesting(text) > DEEPEST_BRACKETS:
        raise TextFragError(
            f"the file's brackets nest more than {DEEPEST_BRACKETS:,} deep, past what textfrag reads definitions in "
            "(tree-sitter's search of it would take minutes); quote it by its lines instead"
        )
    if language in ANGLED and open_angles(text) > MOST_ANGLES:
        raise TextFragError(
            f"the file leaves more than {MOST_ANGLES:,} '<' open (as a type's arguments they never close), past what "
            f"textfrag reads definitions in: tree-sitter's {language} grammar would search it for minutes; quote it "
            "by its lines instead"
        )


#: the grammars in which an open ``<`` is a type's arguments or a comparison until the parser knows
ANGLED = frozenset({"java", "c_sharp", "typescript", "tsx"})
#: how many ``<`` a file of those may leave open (2,000 take TypeScript's grammar 60 MB and 0.1 s)
MOST_ANGLES = 2000
#: what is no type's argument list: shifts, comparisons with =, arrows
_NOT_ANGLES = re.compile(r"<<=?|>>>?=|<=|>=|->|=>|[^<>]+")


def open_angles(text: str) -> int:
    """The most ``<`` left open at once in ``text`` (each ``>`` closes one, ``>>`` two; never below none)."""
    if text.count("<") <= MOST_ANGLES:
        return text.count("<")
    depth = most = 0
    for c in _NOT_ANGLES.sub("", text):
        depth = depth + 1 if c == "<" else max(0, depth - 1)
        most = max(most, depth)
    return most


def _nesting(text: str) -> int:
    """How deep ``text``'s brackets nest at most (strings and comments counted too: a bound, not a parse)."""
    marks = _NOT_BRACKETS.sub("", text)
    if len(marks) <= DEEPEST_BRACKETS:
        return len(marks)
    return max(accumulate(map(_WEIGHTS.__getitem__, marks)), default=0)


_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")


def parse_counted(parser: Any, data: bytes, language: str) -> Any:
    """The tree of ``data``, parsed within :func:`parse_steps` steps that tree-sitter counts itself (one taken
    in error recovery counts for :data:`ERROR_WEIGHT`): a file whose parse takes more is refused, by a measure
    of the file, the same on every machine and under any load."""
    most = parse_steps(len(data))
    steps = 0

    def counted(offset: int, has_error: bool) -> bool:  # (True stops the parse)
        nonlocal steps
        steps += ERROR_WEIGHT if has_error else 1
        return steps > most

    parser.reset()
    try:
        return parser.parse(lambda at, _: data[at : at + 65536], progress_callback=counted)
    except ValueError:
        if steps <= most:
            raise
        raise TextFragError(
            f"tree-sitter's {language} grammar took more than {most * STEP:,} steps to parse this file ({len(data):,} "
            f"bytes; a file of that size may take {most * STEP:,}), a measure of the file that is the same on every "
            "machine: its shape makes the parser search it; quote it by its lines instead"
        ) from None
    finally:
        parser.reset()
