"""mdBook's includes, as its ``links`` preprocessor finds and shows them.

- ``{{#include file.rs}}``: the whole file; ``{{#include file.rs:2}}``: line 2; ``{{#include file.rs:2:10}}``:
  lines 2 to 10; ``{{#include file.rs::10}}`` up to line 10; ``{{#include file.rs:2:}}`` from line 2 (1-based,
  a range past the end cut at the end, an end before the start empty);
- ``{{#include file.rs:name}}``: the lines between ``ANCHOR: name`` and ``ANCHOR_END: name``, without the
  lines that hold any anchor;
- ``{{#rustdoc_include file.rs:2:10}}`` (or ``:name``): the whole file, the lines outside the range or
  anchor hidden behind ``# `` (rustdoc's hidden lines).

The preprocessor reads a chapter's raw text, so an include is one wherever it stands, in a code block
too, unless it is escaped (``\\{{#include ...}}``, which it shows as written). Its path is relative to
the chapter's folder. Lines are the file's lines as Rust's ``str::lines`` splits them (``\\n``, a ``\\r``
before it dropped), joined with ``\\n``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .includes import GuardedInclude

__all__ = ["of_text", "shift_mdbook_spec", "file_of"]

_ANCHOR_START = re.compile(r"ANCHOR:\s*([\w_-]+)")
_ANCHOR_END = re.compile(r"ANCHOR_END:\s*([\w_-]+)")


def _parts(argument: str) -> tuple[str, str | None]:
    """The path, and what follows its first ``:`` (None: nothing)."""
    path, colon, rest = argument.partition(":")
    return path, (rest if colon else None)


def _number(token: str) -> int | None:
    """A line number as Rust's ``usize`` parses it (digits, an optional leading ``+``); None otherwise."""
    digits = token[1:] if token.startswith("+") else token
    return int(digits) if digits.isascii() and digits.isdigit() else None


def _range(rest: str | None) -> tuple[int | None, int | None] | str:
    """mdBook's range or anchor: (start, end) 0-based, end exclusive (None: open), or the anchor's name."""
    parts = (rest or "").split(":", 2)
    first = parts[0]
    start = _number(first)
    if start is None and first:
        return first  # an anchor
    start = max(start - 1, 0) if start is not None else None
    if len(parts) < 2:
        return (start, start + 1) if start is not None else (None, None)
    end = _number(parts[1])
    if start is not None:
        return (start, end)
    return (None, end)


@lru_cache(maxsize=32)
def _lines(text: str) -> tuple[str, ...]:
    """Rust's ``str::lines`` (split once per file text: a file's includes share it)."""
    if not text:
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


def _select(
    lines: tuple[str, ...], kind: str, selection: tuple[int | None, int | None] | str
) -> tuple[str, tuple[int, ...] | None]:
    """What the include shows of a file's lines, and the 1-based lines it shows as they are in the file."""
    if isinstance(selection, str):
        return _anchored(lines, kind, selection)
    start, end = selection
    first = start or 0
    last = len(lines) if end is None else min(end, len(lines))
    if kind == "rustdoc_include":
        shown = [line if first <= i < (end if end is not None else len(lines)) else "# " + line for i, line in enumerate(lines)]
        return "\n".join(shown), None
    taken = lines[first:last] if last > first else []
    return "\n".join(taken), tuple(range(first + 1, first + 1 + len(taken)))


def _anchored(lines: tuple[str, ...], kind: str, anchor: str) -> tuple[str, tuple[int, ...] | None]:
    """The lines between ``ANCHOR: anchor`` and ``ANCHOR_END: anchor`` (rustdoc: every other line hidden)."""
    kept: list[str] = []
    numbers: list[int] = []
    inside = False
    for n, line in enumerate(lines, 1):
        end = _ANCHOR_END.search(line)
        start = _ANCHOR_START.search(line)
        if inside:
            if end is not None:
                if end.group(1) == anchor:
                    if kind == "include":
                        break
                    inside = False
            elif start is None:
                kept.append(line)
                numbers.append(n)
        elif start is not None:
            inside = start.group(1) == anchor
        elif kind == "rustdoc_include" and end is None:
            kept.append("# " + line)
    return "\n".join(kept), (tuple(numbers) if kind == "include" else None)


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names: its path from the chapter's folder."""
    path = _parts(inc.argument if argument is None else argument)[0]
    return under_root(str(doc_path.parent / path), path, cache)


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the include shows of a file whose text is ``text``, its line numbers moved by ``shift``."""
    argument = shift_mdbook_spec(inc.argument, shift) if shift else inc.argument
    kind = inc.option("type") or "include"
    return _select(_lines(text), kind, _range(_parts(argument)[1]))


def shift_mdbook_spec(argument: str, d: int) -> str:
    """``file.rs:2:10`` with its line numbers moved by ``d`` (``file.rs:3:11``); an anchor, or the whole
    file, as it is. :class:`TextFragError` when a line would move before the first."""
    path, rest = _parts(argument)
    if rest is None:
        return argument
    parts = rest.split(":", 2)
    if _number(parts[0]) is None and parts[0]:
        return argument  # (an anchor follows its text)
    moved = []
    for k, token in enumerate(parts):
        value = _number(token) if k < 2 else None
        if value is None:
            moved.append(token)
            continue
        if value + d < 1:
            raise TextFragError("moved before the start of the file")
        moved.append(str(value + d))
    return f"{path}:{':'.join(moved)}"


def shiftable(inc: GuardedInclude) -> bool:
    """Whether the include selects lines by number (its numbers can follow moved text)."""
    selection = _range(_parts(inc.argument)[1])
    return not isinstance(selection, str) and selection != (None, None)
