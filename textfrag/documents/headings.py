"""The heading a line of a document sits under: where a reader of the built page sees what that line
shows (``textfrag impact`` names it beside the file and line). Markdown (ATX and setext, outside fenced
code), reStructuredText (a title with its underline, perhaps an overline) and AsciiDoc (``== Title``)
are read line by line, once per document; the nearest title above the line is the answer.
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["headings", "heading_above"]

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ADOC = re.compile(r"^(={1,6})[ \t]+(\S.*)$")
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")
_ATTRS = re.compile(r"[ \t]*\{[#.][^}]*\}$")  # (attr_list's ``{#id .class}`` after a Markdown title)


def headings(text: str, suffix: str) -> list[tuple[int, str]]:
    """Each title of the document: (its 1-based line, its text), in order."""
    lines = text.splitlines()
    if suffix in (".rst", ".rest", ".txt", ".inc"):
        return _rst(lines)
    if suffix in (".adoc", ".asciidoc", ".asc"):
        return _asciidoc(lines)
    return _markdown(lines)


def heading_above(titles: list[tuple[int, str]], line: int) -> str | None:
    """The title nearest above ``line`` (1-based), or None when the line comes before every title."""
    i = bisect_right([n for n, _ in titles], line)
    return titles[i - 1][1] if i else None


def _markdown(lines: list[str]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        atx = _ATX.match(line)
        if atx:
            out.append((i + 1, _ATTRS.sub("", atx.group(2)).strip()))
            continue
        if i and _SETEXT.match(line) and lines[i - 1].strip() and not _ATX.match(lines[i - 1]):
            title = lines[i - 1].strip()
            if not (line.lstrip().startswith("-") and title.startswith(("- ", "* ", "+ "))):
                out.append((i, _ATTRS.sub("", title).strip()))
    return out


def _rst(lines: list[str]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for i in range(1, len(lines)):
        under = _RST_ADORNMENT.match(lines[i])
        title = lines[i - 1].rstrip()
        if not under or not title.strip() or title[0].isspace() or _RST_ADORNMENT.match(title):
            continue
        if len(lines[i].rstrip()) >= len(title):
            out.append((i, title.strip()))
    return out


def _asciidoc(lines: list[str]) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    block: str | None = None
    for i, line in enumerate(lines):
        stripped = line.rstrip()
        if stripped in ("----", "....", "++++", "////") or (stripped.startswith("```")):
            block = None if block == stripped[:4] else (block or stripped[:4])
            continue
        if block is not None:
            continue
        m = _ADOC.match(line)
        if m:
            out.append((i + 1, m.group(2).rstrip(" \t")))
    return out
