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

import os
import re
from pathlib import Path

from ..documents.found import trimmed
from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import MAX_LINE, GuardedInclude, IncludeEngine

__all__ = ["VITEPRESS", "parse_raw_path"]

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


def _file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) a snippet names: ``@`` from the source folder, else from the page's folder."""
    path = parse_raw_path(inc.argument if argument is None else argument)[0]
    target = (ctx.srcdir / path[1:].lstrip("/")) if path.startswith("@") else (doc_path.parent / path)
    return under_root(str(target), path, cache)


def _of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
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


class VitePress(IncludeEngine):
    """VitePress's ``<<< path`` snippets (``@/`` from the source folder, ``#region``; no line numbers)."""

    kind = "vitepress"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return _vitepress_includes(text, doc) if "<<<" in text else []

    def key(self, inc: GuardedInclude) -> str:
        path, region = parse_raw_path(inc.argument)
        return f"<<< {path}" + (f"#{region}" if region else "")

    def path_of(self, argument: str) -> str:
        return parse_raw_path(argument)[0]

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        return ctx.srcdir if self.path_of(inc.argument).startswith("@") else doc_path.parent

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        return os.path.realpath(self.base_of(inc, doc_path, ctx) / self.path_of(inc.argument).lstrip("@").lstrip("/"))

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        path = self.path_of(inc.argument)
        new = Path(os.path.relpath(new_real, os.path.realpath(self.base_of(inc, doc_path, ctx)))).as_posix()
        return ("@/" + new if path.startswith("@") else new) + inc.argument[len(path) :]

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return _file_of(inc, doc_path, cache, ctx, argument)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return _of_text(inc, text, ctx, shift)


#: the engine's one object
VITEPRESS = VitePress()


_VP_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_VP_SNIPPET = re.compile(r"^ {0,3}<<<[ \t]*(.*)\r?$")


def _vitepress_includes(text: str, doc: str) -> list[GuardedInclude]:
    """VitePress's ``<<< path`` lines, outside fenced code (the block rule runs before fences)."""
    out = []
    fence = ""
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
        if len(line) > MAX_LINE:
            continue
        opening = _VP_FENCE.match(line)
        if fence:
            if opening is not None and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                if not line[opening.end() :].strip():
                    fence = ""
            continue
        if opening is not None:
            fence = opening.group(1)
            continue
        m = _VP_SNIPPET.match(line)
        a, z = trimmed(m, 1) if m is not None else (0, 0)
        if a == z:
            continue
        out.append(
            GuardedInclude(
                doc, number, a + 1, VITEPRESS, line[a:z], (), start, start + len(line.rstrip("\r")), (start + a, start + z)
            )
        )
    return out


# VitePress's rawPathRegexp, for the record (its lazy path before optional parts backtracks in cubic time on a
# line of "{"; parse_raw_path reads the same language in one pass):
# ^(.+?(?:(?:\.([a-z0-9]+))?))(?:(#[\w-]+))?(?: ?(?:{(\d+(?:[,-]\d+)*)? ?(\S+)? ?(\S+)?}))? ?(?:\[(.+)\])?$
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def parse_raw_path(raw: str) -> tuple[str, str]:
    """The file path and the region's name (or "") of a snippet's text after ``<<<``, as VitePress's
    rawPathRegexp reads it: the shortest path after which the rest is ``#region``, `` {lines lang}`` and
    `` [title]``, each optional, in that order. Linear in the text (a title is anything in brackets to the
    end; the braces' contents are bounded by their blanks), so a hostile line costs what a line costs."""
    n = len(raw)
    if not n:
        return raw, ""
    # tail[p]: raw[p:] is " ?(\[.+\])?", the title part (optional)
    titled = raw.endswith("]")
    tail = [False] * (n + 2)
    tail[n] = True
    for p in range(n - 1, -1, -1):
        bracket = titled and raw[p] == "[" and n - p >= 3
        tail[p] = bracket or (raw[p] == " " and (p + 1 == n or (titled and raw[p + 1] == "[" and n - p >= 4)))
    # after_braces[b]: braces opening at b close at the first "}" whose rest fits (a later one adds blanks or
    # keeps the same first part, so it cannot fit where the first did not), read with prefix counts
    spaces, blanks, odd, pairs = [0] * (n + 1), [0] * (n + 1), [0] * (n + 1), [0] * (n + 1)
    for k, c in enumerate(raw):
        spaces[k + 1] = spaces[k] + (c == " ")
        blanks[k + 1] = blanks[k] + (c.isspace() and c != " ")
        odd[k + 1] = odd[k] + (c not in "0123456789,-")
        pairs[k + 1] = pairs[k] + (c in ",-" and k + 1 < n and raw[k + 1] in ",-")
    first_space = [n] * (n + 1)
    closing = [n] * (n + 2)
    for k in range(n - 1, -1, -1):
        first_space[k] = k if raw[k] == " " else first_space[k + 1]
        closing[k] = k if raw[k] == "}" and tail[k + 1] else closing[k + 1]

    def digit_list(a: int, z: int) -> bool:  # raw[a:z] is \d+([,-]\d+)*
        return odd[z] - odd[a] == 0 and raw[a].isdigit() and raw[z - 1].isdigit() and pairs[z - 1] - pairs[a] == 0

    after_braces = [False] * (n + 1)
    for b in range(n):
        q = closing[b + 1] if raw[b] == "{" else n
        if q >= n or blanks[q] - blanks[b + 1] or spaces[q] - spaces[b + 1] > 2:
            continue
        s1 = first_space[b + 1]
        after_braces[b] = spaces[q] - spaces[b + 1] < 2 or s1 == b + 1 or digit_list(b + 1, s1)

    def braces_or_tail(p: int) -> bool:  # raw[p:] is "( ?{...})? ?(\[.+\])?"
        if tail[p]:
            return True
        b = p + 1 if p < n and raw[p] == " " else p
        return b < n and raw[b] == "{" and after_braces[b]

    for e in range(1, n + 1):  # (the shortest path whose rest fits)
        if braces_or_tail(e):
            return raw[:e], ""
        if e < n - 1 and raw[e] == "#" and raw[e + 1] in _WORD:
            end = e + 1
            while end < n and raw[end] in _WORD:
                end += 1
            if braces_or_tail(end):
                return raw[:e], raw[e + 1 : end]
    return raw, ""
