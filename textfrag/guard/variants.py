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

import re
from pathlib import Path

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import GuardedInclude, shift_numbers

__all__ = ["of_text", "file_of", "shift_variants", "shiftable"]

ABOVE, HERE, BELOW = "# Code above omitted 👆", "# Code here omitted 👈", "# Code below omitted 👇"


def _groups(spec: str) -> list[tuple[int, int]]:
    """``ln[5:10,12]``'s ranges, sorted (markdown_include_variants' parse_lines_index)."""
    out = []
    for part in spec.strip().split(","):
        a, colon, b = part.strip().partition(":")
        out.append((int(a), int(b)) if colon else (int(part), int(part)))
    return sorted(out)


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names, from the folder the build runs in."""
    path = inc.argument if argument is None else argument
    return under_root(str(ctx.site / path), path, cache)


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the first tab shows of a file whose text is ``text`` (its ``ln[...]`` moved by ``shift``)."""
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = (normal + "\n").splitlines()  # (mdx_include's reading: a last empty line)
    spec = inc.option("ln")
    if spec is None or _no_first_tab(spec):
        return "\n".join(lines), None  # (ln[0]: no first tab; the page shows the full file's preview)
    total = len(normal.splitlines())
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
        shown += lines[a - 1 : b]
        numbers += list(range(a, min(b, len(lines)) + 1))
        if i == len(groups) - 1 and b < total:
            shown += ["", BELOW]
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


def shiftable(inc: GuardedInclude) -> bool:
    """Whether the include names lines (``ln[...]``; ``ln[0]`` shows the whole file)."""
    spec = inc.option("ln")
    return spec is not None and not _no_first_tab(spec)
