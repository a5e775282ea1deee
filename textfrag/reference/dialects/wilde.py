"""draft-wilde-text-fragment-00: ``char(N)``, ``char(A,B)``, ``line(N)``, ``line(A,B)``, ``match(BRE)``.

Section 3's grammar (its ``regex-scheme`` is the ``match-scheme`` it defines)::

    text-fragment = 1*text-scheme
    text-scheme   = ( char-scheme / line-scheme / match-scheme )
    char-scheme   = "char(" ( count / range ) ")"
    line-scheme   = "line(" ( count / range ) ")"
    match-scheme  = "match(" regex ")"
    count         = 1*DIGIT
    range         = count "," count
    regex         = StringWithBalancedParens      ; "^(" "^)" "^^" escape

Counts start at 1 and ranges are inclusive (2.1); a count past the end means the last character or
line (3); parts concatenated select the union of what each selects (2.1.6). A reversed range is an error
here (the draft says to ignore the part; textfrag never quotes less than was asked for silently).

``match()`` takes a POSIX basic regular expression (ISO 9945-2), translated to the ``regex`` module's
syntax and run in its POSIX (leftmost-longest) mode, line by line as grep does, every non-empty match
selected. A pattern that takes longer than :data:`MATCH_TIMEOUT` seconds (the searches of one file
together: ``Source.SEARCH_BUDGET``) is stopped and reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import ClassVar
from urllib.parse import quote, unquote

import regex

from ...errors import FragmentSyntaxError, TextFragError
from ...source.cache import Source
from ..resolving import Selection, select, select_lines
from . import merge

SPEC = "draft-wilde-text-fragment-00 section 3"
#: Seconds the searches of one file may take in one build before they are stopped (Source.SEARCH_BUDGET).
MATCH_TIMEOUT = Source.SEARCH_BUDGET
#: The largest pattern compiled, counted as atoms with intervals multiplied out (see translate_bre).
MAX_PATTERN_SIZE = 10_000
# printable ASCII that stands for itself in a fragment (everything but space and %)
_FRAGMENT_SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) != "%")
_CLASSES = {"alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit"}


@dataclass(frozen=True)
class Count:
    """``char(...)``/``line(...)``: a count (``last`` None) or an inclusive range, 1-based."""

    unit: str
    first: int
    last: int | None

    def __str__(self) -> str:
        inner = str(self.first) if self.last is None else f"{self.first},{self.last}"
        return f"{self.unit}({inner})"

    def select(self, source: Source) -> Selection:
        """The selection(s) this part or fragment makes."""
        last = self.first if self.last is None else self.last
        if self.unit == "char":
            n = source.length
            if n == 0:
                return select(source, 0, 0)
            a, b = min(self.first, n), min(last, n)  # past the end: the last character (section 3)
            return select(source, source.index_of_char(a - 1), source.index_of_char(b))
        return select_lines(source, self.first, last)  # past the end: the last line (section 3)


@dataclass(frozen=True)
class Match:
    """``match(...)``: ``written`` as in the fragment (escapes kept), ``bre`` after unescaping."""

    written: str
    bre: str
    compiled: regex.Pattern[str] = field(compare=False)

    def __str__(self) -> str:
        # percent-encoded again where a fragment cannot hold the character (a space, %, non-ASCII)
        return f"match({quote(self.written, safe=_FRAGMENT_SAFE)})"

    def select(self, source: Source) -> list[Selection]:
        """The selection(s) this part or fragment makes."""
        found: list[Selection] = []
        text = source.text
        starts = source.line_starts
        try:
            with source.searching() as deadline:  # one budget for the whole file, shared by its references
                for i, start in enumerate(starts):
                    end = starts[i + 1] if i + 1 < len(starts) else len(text)
                    line = text[start:end].rstrip("\r\n\x85")  # matching is line by line, as grep does
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError
                    for m in self.compiled.finditer(line, timeout=left):
                        if m.end() > m.start():
                            found.append(select(source, start + m.start(), start + m.end()))
        except TimeoutError:
            raise TextFragError(
                f"match({self.written}) ran longer than {source.SEARCH_BUDGET:g} s on this file and was stopped; "
                "simplify the pattern (nested repetition and back-references are the usual cause)"
            ) from None
        if not found:
            raise TextFragError(f"match({self.written}) matches nothing in the file (draft-wilde-text-fragment-00 section 2.1.5)")
        return found


@dataclass(frozen=True)
class WildeFragment:
    """Concatenated ``char()``/``line()``/``match()`` parts: the union of what each selects."""

    parts: tuple[Count | Match, ...]
    dialect: ClassVar[str] = "wilde"

    def __str__(self) -> str:
        return "".join(map(str, self.parts))

    def select(self, source: Source) -> list[Selection]:
        """The selection(s) this part or fragment makes."""
        pieces: list[Selection] = []
        for part in self.parts:
            if isinstance(part, Count):
                pieces.append(part.select(source))
            else:
                pieces.extend(part.select(source))
        return merge(source, pieces)


def _error(message: str, shown: str, start: int, end: int) -> FragmentSyntaxError:
    return FragmentSyntaxError(message, source=shown, span=(start, max(end, start + 1)), spec=SPEC)


def parse_wilde(text: str, *, offset: int = 0, shown: str | None = None) -> WildeFragment:
    """Parse concatenated ``char()``/``line()``/``match()`` parts (percent-decoded first)."""
    shown = text if shown is None else shown
    try:
        decoded = unquote(text, errors="strict") if "%" in text else text
    except UnicodeDecodeError as exc:
        raise _error(f"a percent-escape does not decode as UTF-8 ({exc.reason})", shown, offset, offset + len(text)) from None
    if decoded != text:
        # positions in errors refer to the decoded text, shown on its own
        shown, offset = decoded, 0
    text = decoded
    pos = 0
    parts: list[Count | Match] = []
    while pos < len(text):
        start = pos
        for unit in ("char(", "line(", "match("):
            if text.startswith(unit, pos):
                pos += len(unit)
                break
        else:
            raise _error("expected char(, line( or match( here", shown, offset + pos, offset + pos + 1)
        if unit == "match(":
            written, bre, pos = _balanced(text, pos, shown, offset)
            parts.append(Match(written, bre, _compile(bre, shown, offset + start, offset + pos)))
            continue
        close = text.find(")", pos)
        if close < 0:
            raise _error(f"{unit} is not closed with ')'", shown, offset + start, offset + len(text))
        inner = text[pos:close]
        a, comma, b = inner.partition(",")
        if not a.isascii() or not a.isdigit() or (comma and (not b.isascii() or not b.isdigit())) or len(inner) > 40:
            raise _error(
                f"{unit}...) takes a count N or a range A,B of digits, not {inner!r}", shown, offset + pos, offset + close
            )
        first, last = int(a), int(b) if comma else None
        if first < 1 or (last is not None and last < 1):
            raise _error("counts start at 1 (section 2.1.1)", shown, offset + pos, offset + close)
        if last is not None and last < first:
            raise _error(f"the range {first},{last} ends before it starts", shown, offset + pos, offset + close)
        parts.append(Count(unit[:-1], first, last))
        pos = close + 1
    if not parts:
        raise _error("empty fragment", shown, offset, offset + 1)
    return WildeFragment(tuple(parts))


def _balanced(text: str, pos: int, shown: str, offset: int) -> tuple[str, str, int]:
    """Read a StringWithBalancedParens up to its closing ')': (as written, unescaped, position after)."""
    depth, out, start = 0, [], pos
    while pos < len(text):
        ch = text[pos]
        if ch == "^" and pos + 1 < len(text) and text[pos + 1] in "()^":
            out.append(text[pos + 1])
            pos += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return text[start:pos], "".join(out), pos + 1
            depth -= 1
        out.append(ch)
        pos += 1
    raise _error(
        "match( is not closed: its parentheses are unbalanced (escape one as ^( or ^))",
        shown,
        offset + start - 6,
        offset + len(text),
    )


def translate_bre(bre: str) -> str:
    """A POSIX basic regular expression as an expression of the ``regex`` module (same matches).

    >>> translate_bre(r"a\\(b*\\)\\{2,3\\}[]x-z]+?|{}\\1")
    'a(b*){2,3}[\\\\]x-z]\\\\+\\\\?\\\\|\\\\{\\\\}\\\\1'
    """
    out: list[str] = []
    i, n = 0, len(bre)
    # how large the compiled pattern gets: every atom counts 1, a group the sum of its atoms, and an
    # interval multiplies what it repeats; nested intervals multiply, and the regex compiler expands
    # them before any timeout can start ((a{255}){255}){255} would take gigabytes)
    sizes: list[list[int]] = [[]]
    opened = 0  # groups are numbered in the order they open
    open_stack: list[int] = []
    closed: set[int] = set()
    at_start = True  # where '*' is literal and '^' an anchor
    while i < n:
        ch = bre[i]
        if ch == "\\":
            if i + 1 >= n:
                raise ValueError("a trailing backslash escapes nothing")
            nxt = bre[i + 1]
            i += 2
            if nxt == "(":
                opened += 1
                open_stack.append(opened)
                out.append("(")
                sizes.append([])
                at_start = True
                continue
            if nxt == ")":
                if not open_stack:
                    raise ValueError("\\) closes no group")
                closed.add(open_stack.pop())  # a back-reference may name closed groups only
                out.append(")")
                inner = sizes.pop()
                sizes[-1].append(max(1, sum(inner)))
            elif nxt == "{":
                close = bre.find("\\}", i)
                if close < 0:
                    raise ValueError("\\{ is not closed with \\}")
                body = bre[i:close]
                lo, comma, hi = body.partition(",")
                if (
                    not lo.isdigit()
                    or (hi and not hi.isdigit())
                    or (hi and int(hi) < int(lo))
                    or int(lo) > 255
                    or (hi and int(hi) > 255)
                ):
                    raise ValueError(f"\\{{{body}\\}} is not an interval such as \\{{2,5\\}} (bounds up to 255)")
                if at_start:
                    raise ValueError("an interval \\{...\\} must follow something to repeat")
                out.append("{" + body + ("" if comma else "") + "}")
                i = close + 2
                if sizes[-1]:
                    sizes[-1][-1] *= max(1, int(hi) if hi else int(lo) + (1 if comma else 0))
                    total = sum(sum(level) for level in sizes)
                    if total > MAX_PATTERN_SIZE:
                        raise ValueError(
                            f"its intervals repeat it {total} times, over the limit of {MAX_PATTERN_SIZE} "
                            "(nested intervals multiply)"
                        )
            elif nxt.isdigit() and nxt != "0":
                if int(nxt) not in closed:
                    raise ValueError(f"\\{nxt} refers to a group that is not closed before it")
                out.append("\\" + nxt)
                sizes[-1].append(1)
            elif nxt in ".[]*^$\\":
                out.append("\\" + nxt)
                sizes[-1].append(1)
            else:
                raise ValueError(f"\\{nxt} is not defined in a POSIX basic regular expression")
            at_start = False
            continue
        if ch == "[":
            i, cls = _bracket(bre, i)
            out.append(cls)
            sizes[-1].append(1)
            at_start = False
            continue
        if ch == "*":
            out.append("\\*" if at_start else "*")
            if at_start:
                sizes[-1].append(1)
        elif ch == "^":
            out.append("^" if at_start and (not out or out[-1] == "(") else "\\^")
            if out[-1] == "^":
                i += 1
                continue  # '*' right after an anchor '^' is literal too
        elif ch == "$":
            anchor = i + 1 == n or bre.startswith("\\)", i + 1)
            out.append("$" if anchor else "\\$")
        elif ch == ".":
            out.append(".")
            sizes[-1].append(1)
        else:
            out.append(regex.escape(ch))
            sizes[-1].append(1)
        at_start = False
        i += 1
    return "".join(out)


def _bracket(bre: str, i: int) -> tuple[int, str]:
    """Translate the bracket expression at ``bre[i] == '['``; (index after it, translation)."""
    j = i + 1
    negate = j < len(bre) and bre[j] == "^"
    if negate:
        j += 1
    items: list[str] = []
    first = True
    while True:
        if j >= len(bre):
            raise ValueError("a bracket expression [ is not closed with ]")
        ch = bre[j]
        if ch == "]" and not first:
            j += 1
            break
        first = False
        if ch == "[" and j + 1 < len(bre) and bre[j + 1] in ":=.":
            kind = bre[j + 1]
            close = bre.find(kind + "]", j + 2)
            if close < 0:
                raise ValueError(f"[{kind} is not closed with {kind}]")
            name = bre[j + 2 : close]
            if kind == ":":
                if name not in _CLASSES:
                    raise ValueError(f"[:{name}:] is not a POSIX character class")
                items.append(f"[:{name}:]")
            else:  # [=a=] and [.a.]: single characters in the C and UTF-8 locales
                if len(name) != 1:
                    raise ValueError(f"[{kind}{name}{kind}] names a multi-character collating element")
                items.append(regex.escape(name) if name not in "-" else "\\-")
            j = close + 2
            continue
        if ch == "\\":
            items.append("\\\\")  # a backslash is literal inside brackets
        elif ch in "[]^&~|":
            items.append("\\" + ch)  # special in the regex module's set syntax (VERSION1 set operations)
        elif ch == "-" and j + 1 < len(bre) and bre[j + 1] != "]" and items:
            items.append("-")
        elif ch == "-":
            items.append("\\-")
        else:
            items.append(ch)
        j += 1
    return j, "[" + ("^" if negate else "") + "".join(items) + "]"


def _compile(bre: str, shown: str, start: int, end: int) -> regex.Pattern[str]:
    try:
        return regex.compile(translate_bre(bre), regex.POSIX | regex.VERSION0)
    except (ValueError, regex.error) as exc:
        raise _error(f"match({bre}) is not a valid POSIX basic regular expression: {exc}", shown, start, end) from None
