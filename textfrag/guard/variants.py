"""FastAPI's includes: ``{* ../../docs_src/app.py ln[5:10,12] hl[6] *}`` on a line of its own, which
markdown_include_variants turns into tabs of code that mdx_include fills, as they show it.

What is guarded is the first tab, the file named: its lines (``ln[...]``: ranges ``a:b`` and lines ``n``,
in the file's order), with ``# Code above omitted 👆`` before them when they do not start at line 1,
``# Code here omitted 👈`` between two ranges, and ``# Code below omitted 👇`` after them when the file goes
on; the whole file without ``ln[...]`` (mdx_include adds an empty last line). Its path starts at the folder
the build runs in. The collapsed previews of the whole file and of the other versions are whole files:
not guarded. ``hl[...]`` only highlights, and follows ``ln[...]`` when ``update`` moves it.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .mdxinclude import row_slice
from .model import MAX_LINE, Edits, GuardedInclude, IncludeEngine, shift_numbers

__all__ = ["VARIANTS", "variant_options", "shift_variants"]

ABOVE, HERE, BELOW = "# Code above omitted 👆", "# Code here omitted 👈", "# Code below omitted 👇"


def _groups(spec: str) -> list[tuple[int, int]]:
    """``ln[5:10,12]``'s ranges, sorted (markdown_include_variants' parse_lines_index)."""
    out = []
    for part in spec.strip().split(","):
        a, colon, b = part.strip().partition(":")
        out.append((int(a), int(b)) if colon else (int(part), int(part)))
    return sorted(out)


def _file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names, from the folder the build runs in."""
    path = inc.argument if argument is None else argument
    return under_root(str(ctx.site / path), path, cache)


def _of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the first tab shows of a file whose text is ``text`` (its ``ln[...]`` moved by ``shift``)."""
    # (mdx_include's reading: the file's text as it is and a newline, split by str.splitlines, so that a last
    # CR and that newline are one line ending)
    lines = (text + "\n").splitlines()
    spec = inc.option("ln")
    if spec is None or _no_first_tab(spec):
        return "\n".join(lines), None  # (ln[0]: no first tab; the page shows the full file's preview)
    total = len(text.splitlines())
    shown: list[str] = []
    numbers: list[int] = []
    try:
        groups = _groups(shift_variants(spec, shift) if shift else spec)
    except ValueError:
        raise TextFragError(f"ln[{spec}] names no lines (write numbers: ln[5:10,12])") from None
    for i, (a, b) in enumerate(groups):
        if i == 0 and a > 1:
            shown += [ABOVE, ""]
        if i >= 1:
            shown += ["", HERE, ""]
        # (each group is an mdx_include of [ln:a-b]: rcslice's rows, backwards when b < a; one of no row
        # leaves its line, empty)
        shown += row_slice(lines, f"{a}-{b}")[0] or [""]
        numbers += list(range(a, min(b, len(lines)) + 1))
        if i == len(groups) - 1 and b < total:
            shown += ["", BELOW]
    if not numbers:  # (past the end: the tab shows its "omitted" comments and none of the file)
        raise TextFragError(f"ln[{spec}] is past the end of the file ({total} lines): the first tab shows none of its lines")
    return "\n".join(shown), None


_LINE_NUMBERS = re.compile(r"\d+")


def shift_variants(spec: str, d: int) -> str:
    """``5:10,12`` (an ``ln[...]`` or ``hl[...]``) with every line moved by ``d``."""
    return shift_numbers(spec, d, _LINE_NUMBERS)


def _no_first_tab(spec: str) -> bool:
    """Whether ``ln[...]`` is ``ln[0]``: markdown_include_variants then writes no first tab at all."""
    try:
        return _groups(spec) == [(0, 0)]
    except ValueError:
        return False


def _shiftable(inc: GuardedInclude) -> bool:
    """Whether the include names lines (``ln[...]``; ``ln[0]`` shows the whole file)."""
    spec = inc.option("ln")
    return spec is not None and not _no_first_tab(spec)


class Variants(IncludeEngine):
    """markdown_include_variants' ``{* file.py ln[5:10] hl[7] *}`` (FastAPI's docs): the first tab's lines."""

    kind = "variants"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return _variants(text, doc) if "{*" in text else []

    def key(self, inc: GuardedInclude) -> str:
        lines = inc.option("ln")
        return f"{{* {inc.argument}" + (f" ln[{lines}]" if lines else "") + " *}"

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        return ctx.site

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return _file_of(inc, doc_path, cache, ctx, argument)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return _of_text(inc, text, ctx, shift)

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        return _shiftable(inc)

    def shift(self, spec: str, d: int) -> str:
        return shift_variants(spec, d)

    def shifted(self, inc: GuardedInclude, d: int, text: str, ctx: GuardContext) -> tuple[Edits, GuardedInclude]:
        moved = {name: shift_variants(value, d) for name, value in inc.options}  # (ln[...] and hl[...] alike)
        edits = tuple((start, end, moved[name]) for name, start, end in inc.option_spans)
        return edits, dataclasses.replace(inc, options=tuple((k, moved[k]) for k, _ in inc.options))


#: the engine's one object
VARIANTS = Variants()


# markdown_include_variants' own patterns (a whole line; its options as name[value])
_VARIANTS = re.compile(r"^\{\*\s*(\S+)\s*(.*)\*\}$")


def variant_options(configs: str) -> list[tuple[str, str, int]]:
    """(name, value, the value's offset) of each ``name[value]`` of an include's options, as the extension's
    ``(\\w+)\\[([^\\]]+)\\]`` finds them left to right, in one pass (its pattern is quadratic on ``ln[ln[...``)."""
    out = []
    pos = 0
    close = -1
    while (b := configs.find("[", pos)) >= 0:
        if close < b:
            close = configs.find("]", b)
            if close < 0:
                break  # (no "]" after it: no option after it either)
        a = b
        while a > pos and (configs[a - 1].isalnum() or configs[a - 1] == "_"):
            a -= 1  # (the name: the word before "[", from where the last option ended at the most)
        if a == b or close == b + 1:
            pos = b + 1
            continue
        out.append((configs[a:b], configs[b + 1 : close], b + 1))
        pos = close + 1
    return out


def _variants(text: str, doc: str) -> list[GuardedInclude]:
    out = []
    offset = 0
    for number, raw in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(raw) + 1
        line = raw[:-1] if raw.endswith("\r") else raw  # (MkDocs reads a page's CR LF as a line's end)
        # (the pattern backtracks on a long name without its closing "*}": it must end the line)
        m = _VARIANTS.match(line) if line.startswith("{*") and line.endswith("*}") and len(line) <= MAX_LINE else None
        if m is None:
            continue
        options = []
        spans = []
        for name, value, at in variant_options(m.group(2)):
            if name in ("ln", "hl"):
                options.append((name, value))
                spans.append((name, start + m.start(2) + at, start + m.start(2) + at + len(value)))
        span = (start + m.start(1), start + m.end(1))
        out.append(
            GuardedInclude(doc, number, 1, VARIANTS, m.group(1), tuple(options), start, start + len(line), span, tuple(spans))
        )
    return out
