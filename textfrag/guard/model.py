"""What a guarded include is: its kind, where it stands, what it names, and its key.

Each include has a key: what it selects as written (the kind, the file as written, the options that
change what it shows), which is what its record is kept under in the lock file. Moving an include in its
document, or changing how it is displayed (a caption, highlighted lines, numbering), changes no key.
Every engine's module (textfrag.guard.asciidoc, .mdbook, .mdxinclude...) builds on this one, and
textfrag.guard.includes finds them in a page.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import TextFragError

__all__ = [
    *("GuardedInclude", "SELECTING", "MAX_LINE", "ADOC_SUFFIXES"),
    *("LITERALINCLUDE", "SNIPPET", "MARKDOWN_INCLUDE", "MDBOOK", "ASCIIDOC", "VITEPRESS", "CODE_IMPORT", "VARIANTS"),
    *("MDX_INCLUDE", "parse_raw_path", "IncludeMatch", "markdown_include_matches", "shift_numbers"),
]

#: an include is a short line: longer ones are not read (the engines' own patterns backtrack on them)
MAX_LINE = 4096

#: AsciiDoc documents
ADOC_SUFFIXES = frozenset({".adoc", ".asciidoc", ".asc"})

LITERALINCLUDE, SNIPPET, MARKDOWN_INCLUDE, MDBOOK = "literalinclude", "snippet", "include", "mdbook"
ASCIIDOC, VITEPRESS, CODE_IMPORT, VARIANTS = "asciidoc", "vitepress", "code-import", "variants"
MDX_INCLUDE = "mdx-include"

#: literalinclude's options that change the text it shows, in the order its reader applies them
SELECTING: tuple[str, ...] = ("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "dedent")
SELECTING += ("tab-width", "encoding", "prepend", "append", "diff")
SELECTING += ("start-line", "end-line")  # (mystmd's)


@dataclass(frozen=True)
class GuardedInclude:
    """One include as written: where it is, what it names, and the offsets ``update`` rewrites."""

    doc: str  # the document as shown
    line: int  # 1-based
    column: int  # 1-based
    kind: str  # LITERALINCLUDE, SNIPPET, MARKDOWN_INCLUDE or MDBOOK
    #: the file as written: literalinclude's argument, the snippet's path with its lines or section
    #: (``src/app.py:5:9``), markdown-include's file
    argument: str
    #: literalinclude's options as written (name, value); markdown-include's ``lines``
    options: tuple[tuple[str, str], ...]
    start: int  # offsets of the whole include in the document
    end: int
    argument_span: tuple[int, int]
    #: (name, start, end) of each option's value in the document
    option_spans: tuple[tuple[str, int, int], ...] = ()
    #: the options whose value is followed by spaces on its line, with them (mystmd reads them)
    trailing: tuple[tuple[str, str], ...] = ()
    #: AsciiDoc: the document attributes defined above the include (``:name: value``), for its file's name
    attributes: tuple[tuple[str, str], ...] = ()
    #: AsciiDoc: those of them that its file's name uses (part of its key)
    named: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> str | None:
        """The value of an option as written (None: not given)."""
        return next((value for key, value in self.options if key == name), None)

    @property
    def key(self) -> str:
        """What the include selects, as written: its record's key in the lock file."""
        if self.kind == LITERALINCLUDE:
            given = dict(self.options)
            said = "".join(f" :{name}: {_written(name, given[name])}".rstrip() for name in SELECTING if name in given)
            return f"literalinclude {self.argument}{said}"
        if self.kind == MDBOOK:
            return f"{{{{#{self.option('type')} {self.argument}}}}}"
        if self.kind == CODE_IMPORT:
            return f"```{self.argument}"
        if self.kind == VARIANTS:
            lines = self.option("ln")
            return f"{{* {self.argument}" + (f" ln[{lines}]" if lines else "") + " *}"
        if self.kind == VITEPRESS:
            path, region = parse_raw_path(self.argument)
            return f"<<< {path}" + (f"#{region}" if region else "")
        if self.kind == ASCIIDOC:
            said = ",".join(f"{k}={v}" for k, v in self.options if k in ("lines", "tag", "tags", "indent"))
            # (the values of the attributes its file's name uses: one name under two values is two includes)
            values = "".join(f" {{{k}={v}}}" for k, v in self.named)
            return f"include::{self.argument}[{said}]{values}"
        if self.kind == MDX_INCLUDE:
            lines = self.option("ln")
            return f"{{!{self.option('recurse') or ''}{self.argument}" + (f"[ln:{lines}]" if lines else "") + "!}"
        if self.kind == MARKDOWN_INCLUDE:
            lines = self.option("lines")
            return f"include {self.argument}" + (f" lines={' '.join(lines.split())}" if lines else "")
        return f"snippet {self.argument}"

    @property
    def text(self) -> str:
        """The include in a message (its key: what it selects)."""
        return self.key


def _written(name: str, value: str) -> str:
    """An option's value in a key: as written, a number as the number it is (``:dedent: 04`` is 4, as
    Sphinx reads it, so that a build and ``check`` name an include alike)."""
    value = " ".join(value.split())
    if name in ("dedent", "tab-width") and value.lstrip("+-").isdigit():
        return str(int(value))
    return value


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


_BLANKS = re.compile(r"\s*")


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


def shift_numbers(spec: str, d: int, numbers: re.Pattern[str]) -> str:
    """``spec`` with every line number ``numbers`` finds in it moved by ``d`` (each engine's own pattern says
    which digits are line numbers); :class:`TextFragError` when one would move before the first line."""

    def moved(m: re.Match[str]) -> str:
        value = int(m.group(0))
        if value + d < 1:
            raise TextFragError("moved before the start of the file")
        return str(value + d)

    return numbers.sub(moved, spec)
