"""VitePress's code snippets, as its ``snippet`` plugin reads and shows them.

``<<< @/snippets/app.js`` (``@``: the source folder) or ``<<< ./app.js`` (from the page's folder), on a
line of its own outside code (a block that is not indented four columns), optionally with a region
(``<<< ./app.js#setup``), highlighted lines, a language and a title (``{2,4 ts} [app.ts]``), which change
only how it is displayed. What it shows: the file with ``\\r\\n`` read as ``\\n``; for a region, the lines
between ``// #region name`` and ``// #endregion name`` (in the marker syntax of the file's language)
without any marker line of that syntax, dedented. A region that is not in the file makes VitePress show the
whole file: textfrag says so, as a problem.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import GuardedInclude, parse_raw_path

__all__ = ["of_text", "file_of", "shiftable"]

# VitePress's region markers, one syntax per kind of file (findRegion)
_REGIONS = (
    re.compile(r"^\/\/ ?#?((?:end)?region) ([\w*-]+)$"),
    re.compile(r"^\/\* ?#((?:end)?region) ([\w*-]+) ?\*\/$"),
    re.compile(r"^#pragma ((?:end)?region) ([\w*-]+)$"),
    re.compile(r"^<!-- #?((?:end)?region) ([\w*-]+) -->$"),
    re.compile(r"^#((?:End )Region) ([\w*-]+)$"),
    re.compile(r"^::#((?:end)region) ([\w*-]+)$"),
    re.compile(r"^# ?((?:end)?region) ([\w*-]+)$"),
)


def _test(line: str, regexp: re.Pattern[str], name: str, end: bool = False) -> bool:
    m = regexp.match(line.strip())
    if m is None or m.group(2) != name:
        return False
    return re.match(r"^[Ee]nd ?[rR]egion$" if end else r"^[rR]egion$", m.group(1)) is not None


def _region(lines: list[str], name: str) -> tuple[int, int, re.Pattern[str]] | None:
    regexp: re.Pattern[str] | None = None
    start = -1
    for k, line in enumerate(lines):
        if regexp is None:
            for each in _REGIONS:
                if _test(line, each, name):
                    start, regexp = k + 1, each
                    break
        elif _test(line, regexp, name, end=True):
            return start, k, regexp
    return None


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indents = [next((i for i, ch in enumerate(line) if ch not in " \t"), None) for line in lines]
    found = [i for i in indents if i is not None]
    if not found:
        return text
    cut = min(found)
    return "\n".join(line[cut:] for line in lines)


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) a snippet names: ``@`` from the source folder, else from the page's folder."""
    path = parse_raw_path(inc.argument if argument is None else argument)[0]
    target = (ctx.srcdir / path[1:].lstrip("/")) if path.startswith("@") else (doc_path.parent / path)
    return under_root(str(target), path, cache)


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the snippet shows of a file whose text is ``text``, and the 1-based lines it shows as they are
    (None for a region, which is dedented)."""
    content = text.replace("\r\n", "\n")
    name = parse_raw_path(inc.argument)[1]
    if not name:
        return content, tuple(range(1, content.count("\n") + 2))
    lines = content.split("\n")
    found = _region(lines, name)
    if found is None:
        raise TextFragError(
            f"the file has no region {name!r} (// #region {name} ... // #endregion {name}): VitePress shows "
            "the whole file in its place"
        )
    start, end, regexp = found
    kept = [line for line in lines[start:end] if regexp.match(line.strip()) is None]
    return _dedent("\n".join(kept)), None


def shiftable(inc: GuardedInclude) -> bool:
    """A snippet names no lines: a whole file or a region, which follows its text by itself."""
    return False
