"""Raw HTML blocks and unclosed fences as Python-Markdown reads them (MkDocs, ProperDocs, Zensical).

A block-level tag (Python-Markdown's ``Markdown.block_level_elements``) at the start of a line, indented
at most three spaces, opens a raw block that runs to the end of the tag that closes it (nested tags
counted), or to the end of the page when none does; what follows the closing tag on its line is Markdown
again. A ``![](txtfrag:...)`` inside is shown as the text it is, never embedded, so ``check`` does not
judge it. With the md_in_html extension, a block whose opening tag has a ``markdown`` attribute is
Markdown inside. CommonMark, which MyST follows (MyST-Parser, mystmd), reads HTML blocks its own way
(:func:`commonmark_html_spans`): most end at a blank line.
"""

from __future__ import annotations

import re

__all__ = ["BLOCK_LEVEL", "commonmark_html_spans", "raw_html_spans", "raw_everywhere", "unclosed_fences"]

#: Python-Markdown's ``Markdown.block_level_elements`` (3.x); a test holds them equal
BLOCK_LEVEL = (
    *("address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure"),
    *("footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu", "nav"),
    *("ol", "p", "pre", "section", "table", "ul", "canvas", "colgroup", "dd", "body", "dt", "group", "html"),
    *("iframe", "li", "legend", "math", "map", "noscript", "output", "object", "option", "progress", "script"),
    *("style", "summary", "tbody", "td", "textarea", "tfoot", "th", "thead", "tr", "video", "center"),
)
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"})
_START = re.compile(r"^ {0,3}(<)(" + "|".join(BLOCK_LEVEL) + r")(?=[\s/>])", re.IGNORECASE | re.MULTILINE)
# a tag (its attributes may hold '>' in quotes) or a comment; nothing of a tag runs past the next '<', so
# each try ends there and a page is read in one pass, whatever unclosed quotes it holds
_TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\"[^\"<]*\"|'[^'<]*'|[^'\"<>])*)>", re.DOTALL)
# md_in_html's attribute: valueless, "1", "block" or "span" make the block Markdown inside ("0", or any
# other value, leaves it raw); and the tags it never reads as Markdown (its ``raw_tags``)
_MARKDOWN_ATTRIBUTE = re.compile(r"""\smarkdown(?:\s*=\s*(["']?)([^"'\s>]*)\1)?(?=[\s/]|$)""", re.IGNORECASE)
_MARKDOWN_VALUES = frozenset({"", "1", "block", "span", "markdown"})
_RAW_TAGS = frozenset({"canvas", "math", "option", "pre", "script", "style", "textarea"})


def raw_html_spans(text: str, *, md_in_html: bool = False) -> list[tuple[int, int]]:
    """The spans of ``text`` (code already masked) that Python-Markdown keeps as raw HTML blocks."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while (m := _START.search(text, pos)) is not None:
        start = m.start(1)
        if md_in_html:
            tag = _TAG.match(text, start)
            name = tag.group(2).lower() if tag is not None and tag.group(2) else ""
            if tag is not None and name not in _RAW_TAGS and _markdown_attribute(tag.group(3)):
                # (Markdown inside, but a nested block without the attribute is raw)
                inner, end = _inside_markdown(text, start)
                spans += inner
                pos = max(end, m.end())
                continue
        end = _closing(text, start)  # (unclosed: raw to the end of the page)
        spans.append((start, end))
        pos = max(end, m.end())
    return spans


_BLOCK_NAMES = frozenset(BLOCK_LEVEL)


def _markdown_attribute(attributes: str) -> bool:
    attribute = _MARKDOWN_ATTRIBUTE.search(attributes)
    return attribute is not None and (attribute.group(2) or "").lower() in _MARKDOWN_VALUES


def _inside_markdown(text: str, start: int) -> tuple[list[tuple[int, int]], int]:
    """The raw blocks inside the md_in_html block whose opening tag is at ``start``, and where it ends: a
    nested block-level tag at the start of a line (indented at most three spaces) is Markdown inside only
    with its own ``markdown`` attribute (md_in_html does not pass it on), else raw to its closing tag; one
    after text on its line is part of a paragraph."""
    raw: list[tuple[int, int]] = []
    stack: list[str] = []
    pos = start
    while (t := _TAG.search(text, pos)) is not None:
        pos = t.end()
        name = t.group(2)
        if name is None:
            continue  # a comment
        name = name.lower()
        if t.group(1):
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
            if not stack:
                return raw, t.end()
            continue
        if name in _VOID or t.group(3).rstrip().endswith("/"):
            continue
        line_start = text.rfind("\n", 0, t.start()) + 1
        at_start = t.start() - line_start <= 3 and not text[line_start : t.start()].strip(" ")
        nested = bool(stack) and name in _BLOCK_NAMES and at_start  # (mid-line, a tag is a paragraph's)
        if nested and (name in _RAW_TAGS or not _markdown_attribute(t.group(3))):
            end = _closing(text, t.start())
            raw.append((t.start(), end))
            pos = max(end, t.end())
            continue
        stack.append(name)
    return raw, len(text)


def _closing(text: str, start: int) -> int:
    """The end of the tag that closes the one at ``start`` (nested tags counted), or of the text."""
    stack: list[str] = []
    for t in _TAG.finditer(text, start):
        name = t.group(2)
        if name is None:
            continue
        name = name.lower()
        if t.group(1):
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
        elif name not in _VOID and not t.group(3).rstrip().endswith("/"):
            stack.append(name)
        if not stack:
            return t.end()
    return len(text)


_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CLOSING_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")


def unclosed_fences(lines: list[str]) -> frozenset[int]:
    """The 1-based numbers of the lines that open a fence no later line closes (the same fence: character
    and length). Python-Markdown's fenced code (and pymdownx.superfences) needs the closing fence: without
    one the lines are Markdown, where CommonMark (MyST) runs the code block to the end."""
    later: set[str] = set()  # the closing fences below the line being read
    out = []
    for number in range(len(lines), 0, -1):
        line = lines[number - 1]
        if line[:4].lstrip(" ")[:1] not in ("`", "~"):
            continue
        opened = _FENCE_LINE.match(line)
        if opened is not None and opened.group(1) not in later:
            out.append(number)
        closing = _CLOSING_FENCE.match(line.rstrip("\r\n"))
        if closing is not None:
            later.add(closing.group(1))
    return frozenset(out)


# CommonMark's HTML blocks (spec 4.6): the start of each kind, and its end (a line holding the marker, or
# a blank line for kinds 6 and 7)
_CM_BLOCK_TAGS = (
    *("address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col"),
    *("colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure"),
    *("footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr"),
    *("html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup"),
    *("option", "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead"),
    *("title", "tr", "track", "ul"),
)
_CM_START = re.compile(
    r"(?P<indent>[ \t]*)(?:(?P<raw><(?:pre|script|style|textarea)(?:[\s>]|$))|(?P<comment><!--)|(?P<pi><\?)"
    r"|(?P<decl><![A-Za-z])|(?P<cdata><!\[CDATA\[)"
    r"|(?P<block></?(?:" + "|".join(_CM_BLOCK_TAGS) + r")(?:[\s>]|/>|$))"
    r"|(?P<tag>(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*"
    r"\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$))",
    re.IGNORECASE,
)
_CM_END = {
    "raw": re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE),
    "comment": re.compile(r"-->"),
    "pi": re.compile(r"\?>"),
    "decl": re.compile(r">"),
    "cdata": re.compile(r"\]\]>"),
}


_QUOTE_MARKERS = re.compile(r"(?: {0,3}> ?)+")


def commonmark_html_spans(text: str, masked: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that CommonMark reads as HTML blocks, their lines kept as raw HTML (MyST-Parser
    and mystmd show them as they are: a ``![](txtfrag:...)`` inside is no excerpt). A block starts on a line
    that ``masked`` (the text with code masked) leaves as it is; the first five kinds run to the line that
    holds their end marker (or the end of the text), the others to a blank line; the seventh (a tag alone
    on its line) does not interrupt a paragraph."""
    spans: list[tuple[int, int]] = []
    lines = text.splitlines(keepends=True)
    offset = 0
    i = 0
    paragraph = False  # the line before is a paragraph's
    while i < len(lines):
        line = lines[i]
        quoted = _QUOTE_MARKERS.match(line)  # (in a block quote: what it quotes)
        inner = line[quoted.end() :] if quoted is not None else line
        m = _CM_START.match(inner) if "<" in line and masked[offset : offset + len(line)] == line else None
        kind = m.lastgroup if m is not None else None
        if kind == "indent" or (m is not None and (len(m.group("indent").expandtabs(4)) > 3 and paragraph)):
            kind = None  # (indented four under a paragraph: the paragraph goes on; else a list item's, not code)
        if kind is None or (kind == "tag" and paragraph):
            paragraph = bool(line.strip()) and not line.lstrip().startswith(("#", "```", "~~~"))
            offset += len(line)
            i += 1
            continue
        start, end_marker = offset, _CM_END.get(kind)
        after = (quoted.end() if quoted is not None else 0) + (m.end() if m is not None else 0)
        while i < len(lines):
            line = lines[i]
            if end_marker is None and not _QUOTE_MARKERS.sub("", line, count=1).strip():
                break  # (a blank line ends kinds 6 and 7, and is not theirs)
            offset += len(line)
            i += 1
            if end_marker is not None and end_marker.search(line, after if offset - len(line) == start else 0):
                break
        spans.append((start, offset))
        paragraph = False
    return spans


def raw_everywhere(text: str, masked: str) -> list[tuple[int, int]]:
    """The spans that every engine keeps as raw HTML (Python-Markdown, with md_in_html or not, and
    CommonMark): with no engine known, only what none of them would render is passed over."""
    a, b = raw_html_spans(masked, md_in_html=True), commonmark_html_spans(text, masked)
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out
