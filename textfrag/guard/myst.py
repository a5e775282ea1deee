"""What mystmd's ``literalinclude`` shows, computed as mystmd 1.x computes it, with no engine run.

mystmd's include directive (myst-directives ``include.js``) turns the options into a filter, and its
transform (myst-transforms ``include.js``, ``filterIncludedContent``) applies it to the file's text:

- the file is read as UTF-8 as it is: a BOM stays, line endings are not changed (a CR stays at the end of
  its line), a byte that is not UTF-8 becomes U+FFFD; its lines are the text split at ``\\n``;
- ``:lines:`` is a comma-separated list of ``N`` (line N), ``N-`` (N to the end) and ``N-M`` (N to M),
  1-based; an item it cannot read, and a lone ``0``, is left out;
- ``:start-line:`` and ``:end-line:`` (numbers, 0-based) become one such range, ``end-line``'s line
  included, a negative number counting from the end;
- otherwise ``:start-at:``/``:start-after:`` start at (after) the first line holding the text, and
  ``:end-at:``/``:end-before:`` end at (before) the first line holding theirs after the start line; a
  text that is not found is passed over (mystmd warns and shows from the top, or to the end);
- the lines shown are joined with ``\\n``: no line ending after the last one unless the file's last
  line was empty.

Option values are those mystmd reads: ``:name: value`` lines keep the value as written (after leading
spaces), a YAML block's are YAML's. A ``/path`` is found from the project's folder, as mystmd finds it.
"""

from __future__ import annotations

import math
import re

from ..errors import TextFragError

__all__ = ["myst_literal", "myst_lines", "myst_text", "MYST_SELECTING"]

#: the options of mystmd's literalinclude that change the text it shows
MYST_SELECTING = ("lines", "start-line", "end-line", "start-at", "start-after", "end-at", "end-before")

#: what one include may show: the items of ``:lines:`` each show up to the whole file
MAX_SHOWN_LINES = 10_000_000

_ITEM = re.compile(r"([0-9]+)(?:\s*(-)\s*([0-9]+)?)?")


def myst_literal(options: dict[str, str], text: str) -> tuple[str, tuple[int, ...] | None]:
    """What mystmd's literalinclude shows of ``text`` (the file as mystmd reads it) with ``options`` (as
    written), and the file's 1-based lines it shows."""
    return myst_lines(options, text.split("\n"))


def myst_lines(options: dict[str, str], lines: list[str]) -> tuple[str, tuple[int, ...] | None]:
    """:func:`myst_literal` of a file's lines already split at ``\n`` (each moved include tried costs
    what it shows)."""
    total = len(lines)
    spec = options.get("lines")
    items: list[int | list[float]] | None = None
    if spec:
        items = _items(spec)
    elif options.get("start-line") is not None or options.get("end-line") is not None:
        start, end = _number(options.get("start-line")), _number(options.get("end-line"))
        bounds: list[float] = []
        if start is not None:
            bounds.append(start)
        if start is None and end is not None:
            bounds.append(0)
        if end is not None:
            bounds.append(end)
        if bounds:
            items = [[n + 1 if n >= 0 else n for n in bounds]]
    if items is not None:
        spans: list[range] = []
        for item in items:
            if isinstance(item, int):
                at = _index(item, total)
                if at is not None:
                    spans.append(_slice(total, at[0], at[1]))
                continue
            first = _index(item[0], total)
            last = _index(item[1] if len(item) > 1 else total, total)
            if first is not None and last is not None:
                spans.append(_slice(total, first[0], last[1]))
        if sum(len(r) for r in spans) > MAX_SHOWN_LINES:  # (counted before a line is copied)
            written = f":lines: {spec}" if spec else ":start-line:/:end-line:"
            raise TextFragError(f"{written} shows more than {MAX_SHOWN_LINES:,} lines")
        chosen = [i for r in spans for i in r]
        return "\n".join(lines[i] for i in chosen), tuple(i + 1 for i in chosen)
    start_at, start_after = options.get("start-at") or "", options.get("start-after") or ""
    end_at, end_before = options.get("end-at") or "", options.get("end-before") or ""
    first_line = 0
    if start_at or start_after:
        first_line = next(
            (i for i, line in enumerate(lines) if (start_at and start_at in line) or (start_after and start_after in line)), -1
        )
        if first_line == -1:
            first_line = 0
    if start_after:
        first_line += 1
    last_line = total
    if end_at or end_before:
        found = next(
            (
                i
                for i, line in enumerate(lines[first_line + 1 :])
                if (end_at and end_at in line) or (end_before and end_before in line)
            ),
            -1,
        )
        if found != -1:
            last_line = found + first_line + (1 if end_at else 0)
    chosen = list(_slice(total, first_line, last_line + 1))
    return "\n".join(lines[i] for i in chosen), tuple(i + 1 for i in chosen)


def myst_text(data: bytes) -> str:
    """A file's bytes as mystmd reads them (Node's ``Buffer.toString()``): UTF-8, a BOM kept, a byte that
    is not UTF-8 read as U+FFFD, line endings as they are."""
    return data.decode("utf-8", "replace")


def _items(spec: str) -> list[int | list[float]]:
    """mystmd's ``parseLinesString``: each item a line number or [first] / [first, last]; what it cannot
    read, and a lone 0, left out (``.filter((l) => !!l)``)."""
    out: list[int | list[float]] = []
    for part in spec.split(","):
        m = _ITEM.fullmatch(part.strip())
        if m is None:
            continue
        first = _whole(m.group(1))
        if not m.group(2) and not m.group(3):
            if first:
                out.append(first)
        elif m.group(2) and not m.group(3):
            out.append([first])
        else:
            out.append([first, _whole(m.group(3))])
    return out


def _whole(digits: str) -> int:
    """A line number as written (one past every line when it is longer than any file could be)."""
    return int(digits) if len(digits) <= 18 else 10**18


def _index(n: float, total: int) -> tuple[float, float] | None:
    """mystmd's ``index``: the slice of line ``n`` (1-based; negative from the end); None for 0."""
    if n > 0:
        return n - 1, n
    if n < 0:
        return total + n, total + n + 1
    return None


def _slice(total: int, start: float, end: float) -> range:
    """The indices JavaScript's ``Array.prototype.slice(start, end)`` takes of ``total`` items."""

    def at(n: float) -> int:
        if math.isnan(n):
            return 0
        if math.isinf(n):
            return total if n > 0 else 0
        k = int(n)  # (toward zero, as ToIntegerOrInfinity)
        return max(total + k, 0) if k < 0 else min(k, total)

    return range(at(start), at(end))


def _number(value: str | None) -> float | None:
    """A ``Number`` option as mystmd reads it (JavaScript's ``Number()``); None when it is not one (mystmd
    warns and leaves the option out)."""
    if value is None:
        return None
    s = value.strip()
    if s == "":
        return None  # (a flag with no value is `true` to mystmd: not a number)
    try:
        if re.fullmatch(r"[+-]?(?:Infinity)", s):
            return math.inf if not s.startswith("-") else -math.inf
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+", s):
            return float(int(s, 0))
        if re.fullmatch(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", s):
            return float(s)
    except ValueError:
        return None
    return None
