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

import os
import posixpath
import re
from functools import lru_cache
from pathlib import Path

from ..documents.found import LineIndex
from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import MAX_LINE, GuardedInclude, IncludeEngine

__all__ = ["MDBOOK", "MDBOOK_LINK", "TYPES", "shift_mdbook_spec", "nested", "escaped_for_links"]

#: how deep mdBook follows an include in an included file (its MAX_LINK_NESTED_DEPTH)
MAX_DEPTH = 10

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


@lru_cache(maxsize=4096)
def _lines(text: str) -> tuple[str, ...]:
    """Rust's ``str::lines`` (split once per file text: a file's includes share it, however the chapters that
    quote it interleave with others)."""
    if not text:
        return ()
    lines = text.split("\n")
    last = lines.pop()  # (the text after the last "\n": a line of its own unless empty, its "\r" kept)
    out = [line[:-1] if line.endswith("\r") else line for line in lines]
    return tuple(out + [last] if last else out)


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
        if lines and first >= min(end if end is not None else len(lines), len(lines)):
            raise TextFragError(
                f"the range shows no line of the file ({len(lines)} lines): mdBook shows every line hidden and the "
                "reader an empty block; include lines the file has"
            )
        shown = [line if first <= i < (end if end is not None else len(lines)) else "# " + line for i, line in enumerate(lines)]
        return "\n".join(shown), None
    taken = lines[first:last] if last > first else []
    return "\n".join(taken), tuple(range(first + 1, first + 1 + len(taken)))


def _anchored(lines: tuple[str, ...], kind: str, anchor: str) -> tuple[str, tuple[int, ...] | None]:
    """The lines between ``ANCHOR: anchor`` and ``ANCHOR_END: anchor`` (rustdoc: every other line hidden)."""
    kept: list[str] = []
    numbers: list[int] = []
    inside = found = False
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
            found = found or inside
        elif kind == "rustdoc_include" and end is None:
            kept.append("# " + line)
    if not found:  # (mdBook shows nothing, or every line hidden: the reader sees an empty block)
        raise TextFragError(
            f"the file has no ANCHOR: {anchor} (mdBook shows {'nothing' if kind == 'include' else 'every line hidden'}); "
            "mark the lines with ANCHOR: and ANCHOR_END:, or name an anchor it has"
        )
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
    if not parts[0] and len(parts) > 1 and _number(parts[1]) is not None and d:
        parts[0] = "1"  # (an open start is line 1: moved, it is the line the text starts at now, ::2 -> :2:3)
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


def nested(text: str, rel: str, cache: SourceCache, depth: int = 1) -> tuple[str, tuple[str, ...]]:
    """What mdBook's ``links`` preprocessor makes of the text an include put in the page (from the file ``rel``
    under the root): each ``{{#include}}`` and ``{{#rustdoc_include}}`` in it replaced by what it shows, its
    path from that file's folder, to mdBook's depth; an escaped one (``\\{{#...}}``) shown without its
    backslash. The text, and the files read. An include that shows nothing is a :class:`TextFragError`
    (mdBook logs an error and leaves the line as written)."""
    if "{{" not in text:
        return text, ()
    out: list[str] = []
    files: list[str] = []
    pos = 0
    for m in MDBOOK_LINK.finditer(text):
        kind, rest = m.group(1), m.group(2)
        if kind is not None and (kind not in TYPES or not (rest or "").split()):
            continue  # (another helper, {{#playground}} or {{#title}}: left as it is)
        out.append(text[pos : m.start()])
        pos = m.end()
        if kind is None:  # (escaped: the text without its backslash)
            out.append(m.group(0)[1:])
            continue
        if depth >= MAX_DEPTH:
            raise TextFragError(
                f"{rel} includes files more than {MAX_DEPTH} deep (mdBook stops there): is one included in itself?"
            )
        argument = rest.split()[0]
        path = _parts(argument)[0]
        inner = under_root(os.path.join(cache.real_root, posixpath.dirname(rel), path), path, cache)
        inc = GuardedInclude(rel, 0, 0, MDBOOK, argument, (("type", kind),), 0, 0, (0, 0))
        try:
            shown, _ = of_text(inc, cache.get(inner, inner).text, None)  # type: ignore[arg-type]
            shown, deeper = nested(shown, inner, cache, depth + 1)
        except TextFragError as e:
            raise TextFragError(f"the {{{{#{kind} {argument}}}}} in {rel}, which mdBook follows: {e.message}") from None
        out.append(shown)
        files += [inner, *deeper]
    out.append(text[pos:])
    return "".join(out), tuple(files)


def rendered_by_links(text: str) -> str | None:
    """What mdBook's ``links`` preprocessor leaves of a text it reads (the escaped links without their
    backslash); None when the text holds a link it would replace."""
    out: list[str] = []
    pos = 0
    for m in MDBOOK_LINK.finditer(text):
        if m.group(1) is not None:
            return None
        out.append(text[pos : m.start()] + m.group(0)[1:])
        pos = m.end()
    return "".join(out) + text[pos:]


def escaped_for_links(text: str) -> str | None:
    """``text`` with a backslash before each link mdBook's ``links`` preprocessor would read in it (and before
    each escaped one), so that the page shows ``text`` as it is; None when no escape can do that (a link
    written ``{{ #include x}}``, with a blank after its braces)."""
    if "{{" not in text:
        return text
    out: list[str] = []
    pos = 0
    while (m := MDBOOK_LINK.search(text, pos)) is not None:
        if m.group(1) is None:  # (an escaped link in the text: one more backslash keeps it as written)
            out.append(text[pos : m.start()] + "\\" + m.group(0))
            pos = m.end()
            continue
        if not text.startswith("{{#", m.start()):
            return None
        # (escaped, it runs to the last }} of its line, as mdBook reads an escaped link)
        candidate = "\\" + text[m.start() : m.start() + 2048]
        e = MDBOOK_LINK.match(candidate)
        if e is None or e.group(1) is not None:
            return None
        out.append(text[pos : m.start()] + candidate[: e.end()])
        pos = m.start() + e.end() - 1
    result = "".join(out) + text[pos:]
    return result if rendered_by_links(result) == text else None


# mdBook's own pattern (preprocess/links.rs): an escaped link, or {{#type path props}}
# (bounded: an include is short, and the unbounded pattern takes quadratic time on a page of unclosed {{#)
MDBOOK_LINK = re.compile(r"\\\{\{#.{0,1024}\}\}|\{\{\s*#([a-zA-Z0-9_]+)\s+([^}\s][^}]{0,1024})\}\}")
#: the types whose text textfrag computes as mdBook does (playground, title and the others are not quotes)
TYPES = ("include", "rustdoc_include")


def mdbook_includes(text: str, doc: str) -> list[GuardedInclude]:
    """Every ``{{#include}}`` and ``{{#rustdoc_include}}`` of a chapter, in order."""
    if "{{" not in text:
        return []
    lines = LineIndex(text)
    out: list[GuardedInclude] = []
    for m in MDBOOK_LINK.finditer(text):
        kind, rest = m.group(1), m.group(2)
        if kind not in TYPES or rest is None or len(rest) > MAX_LINE:
            continue  # (escaped, or not a quote)
        argument = rest.split()[0] if rest.split() else ""
        if not argument:
            continue
        at = m.start(2) + (len(rest) - len(rest.lstrip()))
        line = lines.line_at(at)
        column = at - lines.line_start(at) + 1
        out.append(
            GuardedInclude(doc, line, column, MDBOOK, argument, (("type", kind),), m.start(), m.end(), (at, at + len(argument)))
        )
    return out


class MdBook(IncludeEngine):
    """mdBook's ``{{#include file:2:10}}`` and ``{{#rustdoc_include file:anchor}}`` (its ``links`` preprocessor)."""

    kind = "mdbook"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return mdbook_includes(text, doc)

    def key(self, inc: GuardedInclude) -> str:
        return f"{{{{#{inc.option('type')} {inc.argument}}}}}"

    def path_of(self, argument: str) -> str:
        return _parts(argument)[0]

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return file_of(inc, doc_path, cache, ctx, argument)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return of_text(inc, text, ctx, shift)

    def nested(
        self, inc: GuardedInclude, text: str, rel: str, cache: SourceCache, ctx: GuardContext
    ) -> tuple[str, tuple[str, ...]]:
        return nested(text, rel, cache)  # (mdBook reads what it included in turn)

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        return shiftable(inc)

    def shift(self, spec: str, d: int) -> str:
        return shift_mdbook_spec(spec, d)


#: the engine's one object
MDBOOK = MdBook()
