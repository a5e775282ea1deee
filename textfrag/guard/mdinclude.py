"""markdown-include's includes, as its preprocessor finds and shows them (its code read, its rules kept).

Every ``{!file!}`` and ``{!file!lines=5-9 12}`` of a line is replaced by the file's lines (nested includes
expanded, headings moved by ``headingOffset``); a relative file starts at the extension's ``base_path``.
Every file is read through the build's source cache, never outside the root.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..documents.scan import LineIndex
from ..errors import PathError
from ..source.cache import SourceCache
from .context import GuardContext, Shown, under_root
from .literal import place
from .model import MAX_LINE, GuardedInclude, IncludeEngine, search_shifts, shift_numbers

__all__ = ["MARKDOWN_INCLUDE", "IncludeMatch", "markdown_include_matches", "shift_include_lines"]

#: nested includes followed at most this deep (the engine stops near Python's recursion limit)
MAX_DEPTH = 40


class MarkdownInclude(IncludeEngine):
    """markdown-include's ``{!file!}``."""

    kind = "include"
    numbers_option = "lines"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return _markdown_includes(text, doc) if "{!" in text else []

    def key(self, inc: GuardedInclude) -> str:
        lines = inc.option("lines")
        return f"include {inc.argument}" + (f" lines={' '.join(lines.split())}" if lines else "")

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        return ctx.include_base

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        arg = inc.argument if argument is None else argument
        return under_root(_include_file(arg, ctx), arg, cache)

    def read(self, inc: GuardedInclude, cache: SourceCache, rel: str, ctx: GuardContext) -> str:
        reader = cache.with_charset(ctx.include_encoding) if ctx.include_encoding else cache
        return reader.get(rel, rel).text

    def shown(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        return markdown_include_shown(inc, cache, ctx)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return markdown_include_of_text(inc, text, ctx, shift)

    def shift_search(self, inc: GuardedInclude, ctx: GuardContext) -> Callable[[str, str], list[int]] | None:
        spec = inc.option("lines")
        if spec is None or ctx.heading_offset:
            return None

        def included(text: str, record: str) -> list[int]:
            original = text.splitlines(True)
            return search_shifts(
                len(original),
                record,
                lambda d: "\n".join(_insert(_wanted(shift_include_lines(spec, d), original), ctx).splitlines()),
            )

        return included

    def shift(self, spec: str, d: int) -> str:
        return shift_include_lines(spec, d)


#: the engine's one object
MARKDOWN_INCLUDE = MarkdownInclude()


_BLANKS = re.compile(r"\s*")
_NUMBERS = re.compile(r"\d+")


class IncludeMatch(NamedTuple):
    """One ``{!file!}`` of markdown-include on a line: its span, its file and where it starts, its ``lines=``
    value (None: none) and where that starts."""

    start: int
    end: int
    path: str
    path_start: int
    lines: str | None
    lines_start: int


def markdown_include_matches(line: str) -> list[IncludeMatch]:
    """markdown-include's pattern, ``{!\\s*(.+?)\\s*!((\\blines\\b)=([0-9 -]+))?\\}``, applied to a line as
    ``finditer`` applies it, in one pass: its lazy file name backtracks in quadratic time on a line of ``{!``,
    so where each include may end (a ``!}``, or a ``!lines=...}``) is found once, and each ``{!`` takes the
    first end after it."""
    if "{!" not in line:
        return []
    ends: list[int] = []  # (the position of each "!" that can end an include)
    info: list[tuple[int, str | None, int]] = []  # (its end, lines=, where that starts)
    n = len(line)
    e = line.find("!")
    while e >= 0:
        if line.startswith("}", e + 1):
            ends.append(e)
            info.append((e + 2, None, 0))
        elif line.startswith("lines=", e + 1):
            j = e + 7
            while j < n and line[j] in "0123456789 -":
                j += 1
            if j > e + 7 and j < n and line[j] == "}":
                ends.append(e)
                info.append((j + 1, line[e + 7 : j], e + 7))
        e = line.find("!", e + 1)
    out = []
    pos = 0
    while (k := line.find("{!", pos)) >= 0:
        start = _BLANKS.match(line, k + 2).end()  # type: ignore[union-attr]  # (the blanks after "{!", all of them)
        at = bisect_left(ends, start + 1)  # (a file name of one character at least)
        if at == len(ends) and start > k + 2:  # (else the last blank is the name, as the pattern backtracks)
            start -= 1
            at = bisect_left(ends, start + 1)
        if at == len(ends):
            pos = k + 1
            continue
        e = ends[at]
        end, lines, lines_start = info[at]
        path = line[start:e].rstrip() or line[start:e]
        out.append(IncludeMatch(k, end, path, start, lines, lines_start))
        pos = end
    return out


def _markdown_includes(text: str, doc: str) -> list[GuardedInclude]:
    lines = LineIndex(text)
    out = []
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if "{!" not in line or len(line) > MAX_LINE:
            continue
        for m in markdown_include_matches(line):  # (markdown-include's pattern, read in one pass)
            number, column = place(lines, start + m.path_start)
            options = (("lines", m.lines),) if m.lines is not None else ()
            spans = (("lines", start + m.lines_start, start + m.lines_start + len(m.lines)),) if m.lines is not None else ()
            span = (start + m.path_start, start + m.path_start + len(m.path))
            inc = GuardedInclude(
                doc, number, column, MARKDOWN_INCLUDE, m.path, options, start + m.start, start + m.end, span, spans
            )
            out.append(inc)
    return out


_HEADING = re.compile("^#+")


def _first_include(line: str) -> IncludeMatch | None:
    """markdown-include's first ``{!file!}`` of a line (its pattern's ``search``, in one pass)."""
    if len(line) >= 4096 or "{!" not in line:
        return None
    found = markdown_include_matches(line)
    return found[0] if found else None


def _without_includes(line: str) -> str:
    """The line with every ``{!file!}`` taken out (its pattern's ``sub("", line)``)."""
    out, pos = [], 0
    for m in markdown_include_matches(line):
        out.append(line[pos : m.start])
        pos = m.end
    return "".join(out) + line[pos:]


def _include_file(name: str, ctx: GuardContext) -> str:
    name = os.path.expanduser(name)
    return name if os.path.isabs(name) else os.path.normpath(os.path.join(ctx.include_base, name))


def _wanted(lines_str: str, original: list[str]) -> list[str]:
    """markdown-include's ``lines=`` (a line past the end is the last line, as it warns and takes)."""
    wanted: list[str] = []
    for block in lines_str.split():
        if "-" in block:
            start, end = block.strip().split("-")
            current_start, current_end = int(start), int(end)
            if not len(original) >= current_end:
                current_end = len(original)
            if not current_start <= current_end:
                current_start = max(current_end - 1, 1)
            wanted.extend(original[current_start - 1 : current_end])
        else:
            current = min(int(block.strip()), len(original))
            wanted.append(original[current - 1])
    return wanted


def _insert(text: list[str], ctx: GuardContext) -> str:
    for i in range(len(text)):
        if ctx.heading_offset and _HEADING.search(text[i]):
            text[i] = "#" * ctx.heading_offset + text[i]
        text[i] = text[i].rstrip("\r\n")
    return "\r\n".join(text or [""]).strip()


def _run(lines: list[str], cache: SourceCache, ctx: GuardContext, files: list[str], depth: int) -> list[str]:
    """markdown-include's ``run`` over an included file's lines (nested includes, base path relative)."""
    out = list(lines)
    loc = 0
    while loc < len(out):
        line = out[loc]
        m = _first_include(line)
        while m is not None and depth < MAX_DEPTH:
            try:
                original = _included(m.path, cache, ctx, files, depth + 1)
            except PathError:
                out[loc] = _without_includes(line)
                break
            text = original if m.lines is None else _wanted(m.lines, original)
            line = line[: m.start] + _insert(list(text), ctx) + line[m.end :]
            out[loc : loc + 1] = line.splitlines()
            m = _first_include(line)
        loc += 1
    return out


def _included(name: str, cache: SourceCache, ctx: GuardContext, files: list[str], depth: int) -> list[str]:
    rel = under_root(_include_file(name, ctx), name, cache)
    if rel not in files:
        files.append(rel)
    reader = cache.with_charset(ctx.include_encoding) if ctx.include_encoding else cache
    return _run(reader.get(rel, rel).text.splitlines(True), cache, ctx, files, depth)


def markdown_include_shown(inc: GuardedInclude, cache: SourceCache, ctx: GuardContext) -> Shown:
    """What ``{!file!}`` (``{!file!lines=...}``) puts in the page in its place."""
    files: list[str] = []
    original = _included(inc.argument, cache, ctx, files, 0)
    spec = inc.option("lines")
    text = original if spec is None else _wanted(spec, original)
    inserted = _insert(list(text), ctx)
    plain = None
    if len(files) == 1 and not ctx.heading_offset:
        plain = _include_numbers(spec, len(original))
    return Shown("\n".join(inserted.splitlines()), files[0], plain, tuple(files))


def _include_numbers(spec: str | None, total: int) -> tuple[int, ...] | None:
    if spec is None:
        return tuple(range(1, total + 1))
    numbers: list[int] = []
    for block in spec.split():
        a, _, b = block.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            return None
        numbers.extend(range(int(a), min(int(b or a), total) + 1))
    return tuple(numbers)


def markdown_include_of_text(
    inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0
) -> tuple[str, tuple[int, ...] | None]:
    """What a markdown-include include shows of a file whose text is ``text`` (its ``lines=`` moved by
    ``shift``); nested includes are not read."""
    original = text.splitlines(True)
    spec = inc.option("lines")
    if spec is not None and shift:
        spec = shift_include_lines(spec, shift)
    chosen = original if spec is None else _wanted(spec, original)
    return "\n".join(_insert(list(chosen), ctx).splitlines()), _include_numbers(spec, len(original))


def shift_include_lines(spec: str, shift: int) -> str:
    """markdown-include's ``lines=5-9 12`` with every number moved by ``shift`` (the spaces as written)."""
    return shift_numbers(spec, shift, _NUMBERS)
