"""Find references in documentation sources without building them (for ``check`` and ``update``).

Recognised (the manual's reference/syntax page):

- reStructuredText: the directive ``.. txtfrag:: REF`` and the role ``:txtfrag:`REF```;
- Markdown: ``![caption](txtfrag:REF)`` and ``[text](txtfrag:REF)``, and link definitions
  ``[label]: txtfrag:REF``;
- MyST: the directive ```` ```{txtfrag} REF ```` (also with ``:::``) and the role ``{txtfrag}`REF```.

Nothing inside code is a reference: fenced and indented code blocks, code spans, reStructuredText
literal blocks (``::``), inline literals, comments and code directives. Code is masked with spaces
(newlines kept) so that offsets and line numbers of what remains stay those of the file.
"""

from __future__ import annotations

import re
from typing import Literal

from .found import CODE_DIRECTIVES, MD_SUFFIXES, RST_SUFFIXES, Directive, Found, FoundKind, LineIndex, mask_text, with_columns
from .rst import RST_PARSED_CAPTION, scan_rst

__all__ = ["Directive", "code_directives", "Found", "FoundKind", "LineIndex", "scan_text", "RST_SUFFIXES", "MD_SUFFIXES"]

SKIP_DIRS = frozenset({"_build", "site", "node_modules", "__pycache__", "venv"})


def code_directives(text: str, suffix: str) -> list[Directive]:
    """The directives in ``text`` that are not inside code, comments or literal blocks, in order."""
    directives: list[Directive] = []
    if suffix.lower() in RST_SUFFIXES:
        scan_rst(text, "<text>", directives)
    else:
        _md_blocks(text, "<text>", [], directives)
    return directives


# -- Markdown / MyST ---------------------------------------------------------------------------------


# ``` and ~~~ fences everywhere; ::: fences only as MyST colon fences of a directive (in MkDocs, ::: is
# text, and mkdocstrings' "::: module" is not a fence)
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}|:{3,}(?=\{))[ \t]*(.*)$")
# in a list item, a fence stands after the item's marker or indented to its content
_LIST_FENCE = re.compile(r"^([ \t]*(?:(?:[-*+]|[0-9]+[.)])[ \t]+)*)(`{3,}|~{3,}|:{3,}(?=\{))[ \t]*(.*)$")
_FENCE_CLOSE = re.compile(r"^ {0,3}(`{3,}|~{3,}|:{3,})[ \t]*$")
_MYST_DIRECTIVE_NAME = re.compile(r"^\{([A-Za-z][\w.:+-]*)\}[ \t]*(.*)$")
# directives whose body is not Markdown (code, raw output, math, diagrams...): their fences are masked
_MYST_VERBATIM = CODE_DIRECTIVES | {
    "txtfrag",
    "code-cell",
    "eval-rst",
    "eval-md",
    "mermaid",
    "graphviz",
    "csv-table",
    "dot",
    "plantuml",
}
# Python-Markdown containers whose indented body is Markdown: admonition (!!!), pymdownx.details (???,
# ???+), pymdownx.tabbed (===, ===+)
_CONTAINER = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?|===\+?|===!)[ \t]+\S")
# a link destination may hold balanced parentheses (CommonMark; Wilde's line(2)match(x) needs them)
# (unrolled: runs of plain characters between balanced parentheses, so that the regular expression engine
# takes a run at a time, not a character at a time: a quarter of the time, and linear)
_DEST = r"(?=[^\s<>)])[^\s()<>]*(?:\((?:[^\s()<>]|\([^\s()<>]*\))*\)[^\s()<>]*)*"
# nothing of a link spans a blank line (a paragraph ends there): a line break inside a label, a title or the
# spaces around the destination is one not followed by a blank line
_BREAK = r"(?:\r\n|\r|\n)(?![ \t]*(?:\r\n|\r|\n))"
_SPACE = r"(?:[ \t]|" + _BREAK + r")"
_LABEL = r"((?:[^\[\]\\\r\n]|\\.|" + _BREAK + r"|\[(?:[^\[\]\\\r\n]|\\.|" + _BREAK + r")*\])*)"
_TITLE = (
    r"(?:" + _SPACE + r"+(?:\"(?:[^\"\\\r\n]|\\.|" + _BREAK + r")*\"|'(?:[^'\\\r\n]|\\.|" + _BREAK + r")*'"
    r"|\((?:[^()\\\r\n]|\\.|" + _BREAK + r")*\)))?"
)
_TARGET = r"\(" + _SPACE + r"*(?:<(txtfrag:[^<>\n]*)>|(txtfrag:" + _DEST + r"))" + _TITLE + _SPACE + r"*\)"
# (a backslash escapes the bracket, and the ! before it: \![x](y) is a link; each lookbehind is written after the
# bracket it guards, so that the engine looks for the literal first: the same matches, a link's search 30x as fast)
_MD_IMAGE = re.compile(r"!(?<!\\!)\[" + _LABEL + r"\]" + _TARGET)
_MD_LINK = re.compile(r"\[(?<![!\\]\[)" + _LABEL + r"\]" + _TARGET)
_MD_LINK_AFTER_ESCAPED_BANG = re.compile(r"(?<=\\!)\[" + _LABEL + r"\]" + _TARGET)  # (rare: looked for apart)
# Python-Markdown takes a destination with spaces in it too (the URL runs to a quoted title or the closing
# parenthesis): an image or link whose txtfrag: URL has a space is one there (with a bad reference)
_PM_SPACED = re.compile(
    r"(?<!\\)(!?)\[" + _LABEL + r"\]\([ \t]*(txtfrag:[^()\n\"']*?(?:\([^()\n]*\)[^()\n\"']*?)*)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'))?[ \t]*\)"
)
_MD_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*(?:<(txtfrag:[^<>\n]*)>|(txtfrag:\S+))", re.MULTILINE)
_MD_ANY_DEFINITION = re.compile(r"^ {0,3}\[([^\]]+)\]:[ \t]*\S", re.MULTILINE)
_MD_LABEL_USE = re.compile(r"\[((?:[^\[\]\\]|\\.)+)\](?:[ \t]?\[((?:[^\[\]\\]|\\.)*)\])?(?![(:])")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
# a list item's marker and the spaces after it (up to where its text starts)
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]{1,4}")
# a line indented four columns or more (a tab counts to the next multiple of four): code, in some places
# (at any line start str.splitlines knows, as the loop below reads lines)
_INDENTED = re.compile(r"(?:^|(?<=[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]))(?: {4}| {0,3}\t)", re.MULTILINE)


def _has_indented(text: str) -> bool:
    """Whether a line of ``text`` starts indented four columns (the regular expression tries every
    position of the text: a text with no four spaces and no tab cannot have one, and most have neither)."""
    return ("    " in text or "\t" in text) and _INDENTED.search(text) is not None


def _list_code_at(line: str, width: int) -> int:
    """The indentation from which a line after a blank line is code inside the list item ``line`` opens:
    four columns past the item's content, which Python-Markdown puts four columns past the marker's
    indentation and CommonMark (MyST) where the item's text starts; the larger of the two, so that no
    line either reads as text is taken for code."""
    marker = _LIST_MARKER.match(line)
    content = _width(line[: marker.end()] + "x") if marker is not None else width + 2
    return max(width + 8, content + 4)


def _width(line: str) -> int:
    """Indentation in columns (a tab to the next multiple of 4, as Python-Markdown counts)."""
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
    return col


# an option line at the top of a MyST directive's body (``:caption: text``)
_MYST_OPTION_LINE = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t]|$)")


# a line that ends a block as a blank line does: an ATX heading, a thematic break, a link's definition;
# and under a paragraph's line, a setext underline
_BLOCK_END = re.compile(r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\1){2,}[ \t]*$)")
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
# a link's definition alone on its line (it ends a block where it is one: always in Python-Markdown, which
# takes one anywhere in a paragraph; in CommonMark only where it starts a block, not under a paragraph)
_DEFINITION_LINE = re.compile(r"^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*\S+[ \t]*$")
# YAML front matter at the top of a page (MkDocs, Zensical, MyST-Parser and mystmd take it as metadata)
# (only a mapping is metadata to MkDocs: its first line a key)
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\r?\n(.*?\r?\n)?(?:-{3}|\.{3})[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_YAML_KEY = re.compile(r"\s*(?:[\w\"'][^:\n]*|[\w-]+):(?:[ \t]|\r?\n)")


def _front_matter(block: str) -> bool:
    """Whether a page's leading ``---`` block is front matter to MkDocs, which takes it as metadata only
    when it reads as a YAML mapping (else it renders the block as Markdown); MyST takes any such block, so
    with no engine known only a mapping is passed over."""
    if not _YAML_KEY.match(block):
        return False
    try:
        import yaml  # (PyYAML comes with MkDocs; without it, a block whose first line is a key is taken)
    except ImportError:
        return True
    try:
        return isinstance(yaml.safe_load(block), dict)
    except yaml.YAMLError:
        return False


# a block quote's line: its markers ('>' and one space after each), and what it quotes
_QUOTED = re.compile(r"^((?: {0,3}> ?)+)(.*)$")
_QUOTED_CODE = re.compile(r"^(?: {0,3}> ?)+(?: {4}| {0,3}\t)", re.MULTILINE)
# a MyST line that is no text: a comment (% ...), a block break (+++ ...), a target ((label)=), in a block
# quote or a list item too
_MYST_COMMENT = re.compile(
    r"^[ \t]*(?:>[ \t]?)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:%|\+\+\+|\([^()\r\n]*\)=[ \t]*$)", re.MULTILINE
)


def _eval_rst(body: str, file: str, at: int, line: int) -> list[Found]:
    """The references of an ``{eval-rst}`` body (reStructuredText, which MyST-Parser hands to docutils),
    at the offset ``at`` of the document, its first line after line ``line``."""
    return [f._replace(line=f.line + line, start=f.start + at, end=f.end + at) for f in scan_rst(body, file)]


def _md_blocks(
    text: str, file: str, found: list[Found], directives: list[Directive] | None = None, python_markdown: bool = False
) -> str:
    """Mask code (fenced, indented, in a block quote too, verbatim MyST directives) and HTML comments, and
    where MyST reads the page (not ``python_markdown``) a directive's options, comments, block breaks and
    targets; collect MyST directives, and the references of ``{eval-rst}`` bodies (read as
    reStructuredText) into ``found``; return the masked text (same length, same line breaks).

    Fences nest: a MyST directive fence whose body is Markdown (``{note}``, ``{admonition}``...) is
    scanned inside, with fences of its own; a code fence masks everything up to its closing fence.
    Python-Markdown's containers (``!!! note``, ``??? tip``, ``=== "Tab"``) have a Markdown body
    indented by four columns: only what is indented four more after a blank line is code there.
    """
    no_comment = python_markdown or not ("%" in text or "+++" in text or ")=" in text) or not _MYST_COMMENT.search(text)
    no_comment = no_comment and (">" not in text or not _QUOTED_CODE.search(text))  # (nor code in a quote)
    if "```" not in text and "~~~" not in text and ":::" not in text and not _has_indented(text) and no_comment:
        # no fence and no line indented four columns: no code block, nothing below would mask anything
        return mask_text(text, [c.span() for c in _HTML_COMMENT.finditer(text)])
    lines = text.splitlines(keepends=True)
    # Python-Markdown (fenced_code, pymdownx.superfences): a fence closes with the same fence only, and one
    # that nothing closes is text
    exact, text_fences = python_markdown, frozenset[int]()
    if python_markdown and ("```" in text or "~~~" in text):
        from .raw_html import unclosed_fences

        text_fences = unclosed_fences(lines)
    out: list[str] = []
    offset = 0
    fences: list[tuple[str, int, bool, bool]] = []  # open fences: (char, length, masks its body, in a quote)
    caption_open = False  # in the options of a directive whose :caption: is text (txtfrag, literalinclude...)
    containers: list[int] = []  # body indentation of the open Python-Markdown containers
    prev_blank = True
    in_list = False
    list_code_at = 0  # in a list: the indentation from which a line after a blank line is code
    in_indented_code = False
    code_at = 0  # in indented code: the indentation its lines keep
    quote_code, quote_fresh = False, True  # a block quote's line is code; the quote's next line may start code
    myst = not python_markdown  # (MyST: comments, breaks and targets, {eval-rst} bodies in reStructuredText)
    header = 0  # the lines of a MyST directive's body read so far while its options may still come (0: none)
    yaml_open = False  # in a directive's YAML options (between --- lines)
    rst_body: tuple[int, int, int] | None = None  # an open {eval-rst} fence: (its depth, body offset, its line)
    for number, raw in enumerate(lines, 1):
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        inner = containers[-1] if containers else 0  # a container's body is read without its indentation
        level = body[inner:] if inner and not body[:inner].strip() and "\t" not in body[:inner] else body
        quoted_line = _QUOTED.match(level) if ">" in level else None  # (a block quote's: read within it)
        while fences and fences[-1][3] and quoted_line is None:
            fences.pop()  # (the quote ended, and the fences open in it with it)
            header, rst_body = 0, None
        if fences:
            char, length, masks, in_quote = fences[-1]
            if in_quote and quoted_line is not None:
                level = quoted_line.group(2)
            close = _FENCE_CLOSE.match(level) or (_FENCE_CLOSE.match(level.lstrip()) if in_list else None)
            # (CommonMark closes a fence with one at least as long; Python-Markdown with the same fence only)
            closes = close is not None and close.group(1)[0] == char
            if closes and close is not None and (len(close.group(1)) == length if exact else len(close.group(1)) >= length):
                if rst_body is not None and rst_body[0] == len(fences):
                    found += _eval_rst(text[rst_body[1] : offset], file, rst_body[1], rst_body[2])
                    rst_body = None
                fences.pop()
                header = 0
                out.append(" " * len(body) + ending)
                offset += len(raw)
                prev_blank = myst  # (CommonMark: a block ends with its fence; superfences reads on)
                continue
            if header:  # a directive's options, at the top of its body, are values, not text
                header += 1
                stripped = level.strip()
                if yaml_open or (header == 2 and stripped == "---") or _MYST_OPTION_LINE.match(level):
                    if yaml_open and stripped == "---":
                        header = 0  # (the YAML options end: the content follows)
                    yaml_open = not yaml_open if stripped == "---" else yaml_open
                    out.append(" " * len(body) + ending)
                    offset += len(raw)
                    continue
                header = 0
            if masks:
                option = _MYST_OPTION_LINE.match(level)
                caption_open = caption_open and option is not None
                if caption_open and option is not None and option.group(1).lower() == "caption":
                    out.append(raw)  # a caption is inline text: a role in it is rendered, as Sphinx does
                else:
                    out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
        blank = not body.strip()
        width = _width(body)
        while containers and not blank and width < containers[-1]:
            containers.pop()
        base = containers[-1] if containers else 0
        m = _FENCE.match(body[base:] if base and not body[:base].strip() and "\t" not in body[:base] else body)
        if m is None and (in_list or _LIST_ITEM.match(body)):
            m = _LIST_FENCE.match(body)
        if m is not None and number in text_fences:  # (Python-Markdown: an unclosed fence is text)
            m = None
        opens_in_quote = m is None and quoted_line is not None and number not in text_fences
        if opens_in_quote:
            assert quoted_line is not None
            m = _FENCE.match(quoted_line.group(2))
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)) and not (in_indented_code and width - base >= 4):
            info = m.group(3)
            d = _MYST_DIRECTIVE_NAME.match(info)
            name = d.group(1).lower() if d else None
            if d is not None and directives is not None and name is not None:
                directives.append(Directive(name, number, offset, m.group(2)))
            if d is not None and name == "txtfrag" and d.group(2).strip():
                arg = d.group(2).strip()  # (all of it: the directive takes it whole, and a space in it is an error)
                ref_start = offset + body.index(info) + d.start(2) + (len(d.group(2)) - len(d.group(2).lstrip()))
                found.append(Found(file, number, arg, ref_start, ref_start + len(arg), "directive"))
            # (Python-Markdown knows no MyST directive: a ``` fence is code whatever its info, a ::: line is text)
            if not myst and m.group(2)[0] == ":":
                out.append(raw)
                offset += len(raw)
                prev_blank = False
                continue
            verbatim = name is None or name in _MYST_VERBATIM if myst else True
            fences.append((m.group(2)[0], len(m.group(2)), verbatim, opens_in_quote))
            caption_open = name is not None and (name == "txtfrag" or name in RST_PARSED_CAPTION)
            header = 1 if myst and name is not None and not verbatim else 0
            if myst and name == "eval-rst" and not opens_in_quote:
                rst_body = (len(fences), offset + len(raw), number)
            if _LIST_ITEM.match(body):
                in_list = True  # "- ```": the fence belongs to a list item
                list_code_at = _list_code_at(body, width)
            out.append(" " * len(body) + ending)
            offset += len(raw)
            prev_blank = False
            continue
        if _CONTAINER.match(body) and not (width - base >= 4 and (in_indented_code or (prev_blank and not in_list))):
            if width <= base:
                in_list = False  # a container at the margin ends a list, as a paragraph would
            containers.append(width + 4)
            out.append(raw)
            offset += len(raw)
            prev_blank, in_indented_code = False, False
            continue
        indented = width - base >= 4
        # indented code: after a blank line, four columns in (in a list item, four past its content)
        starts_code = not blank and prev_blank and not in_indented_code and (width >= list_code_at if in_list else indented)
        if starts_code:
            code_at = list_code_at if in_list else base + 4
        elif _LIST_ITEM.match(body):
            in_list = True
            list_code_at = _list_code_at(body, width)
        elif blank:
            pass
        elif width <= base:
            in_list = False
        quoted = _QUOTED.match(body) if not in_indented_code and not blank else None
        if quoted is not None:  # in a block quote: code four columns past its '>', after its start or a blank line
            inside = quoted.group(2)
            quote_code = bool(inside.strip()) and _width(inside) >= 4 and (quote_code or quote_fresh)
            quote_fresh = not inside.strip()
        else:
            quote_code, quote_fresh = False, True
        if not blank and (starts_code or (in_indented_code and width >= code_at) or quote_code):
            in_indented_code = not quote_code
            out.append(" " * len(body) + ending)
        else:
            if not blank:
                in_indented_code = False
            out.append(" " * len(body) + ending if myst and _MYST_COMMENT.match(body) else raw)
        # (a heading, a rule or a title's underline ends a block as a blank line does: code may start after it)
        ended = _BLOCK_END.match(level) is not None or (not prev_blank and _SETEXT.match(level) is not None)
        ended = ended or ((python_markdown or prev_blank) and _DEFINITION_LINE.match(level) is not None)
        prev_blank = blank or (not in_indented_code and ended)
        offset += len(raw)
    if rst_body is not None:  # (an {eval-rst} fence that nothing closes runs to the end)
        found += _eval_rst(text[rst_body[1] :], file, rst_body[1], rst_body[2])
    masked = "".join(out)
    return mask_text(masked, [c.span() for c in _HTML_COMMENT.finditer(masked)])


def _md_inline(text: str, file: str, found: list[Found]) -> str:
    """Collect MyST roles and mask code spans (a run of n backticks up to the next run of n)."""
    if "`" not in text:  # (no code span, no role: the search below looks at every character)
        return text
    lines = LineIndex(text)
    pos = 0
    spans: list[tuple[int, int]] = []
    while True:
        m = _BACKTICKS.search(text, pos)
        if not m:
            return mask_text(text, spans)
        n = len(m.group(0))
        k = m.start()
        while k > pos and text[k - 1] == "\\":  # (each backslash looked at once: linear)
            k -= 1
        slashes = m.start() - k
        if slashes % 2:  # an escaped backtick is text (CommonMark 6.1): the run opens one later, if at all
            if n == 1:
                pos = m.end()
                continue
            m = _BACKTICKS.search(text, m.start() + 1)
            assert m is not None
            n -= 1
        close = None
        blank = _BLANK_LINE.search(text, m.end())
        para_end = blank.start() if blank else len(text)  # a code span never crosses a blank line
        for c in _BACKTICKS.finditer(text, m.end(), para_end):
            if len(c.group(0)) == n:
                close = c
                break
        if close is None or _interrupted(text, m.start(), close.start()):
            pos = m.end()
            continue
        content_start, content_end = m.end(), close.start()
        name = m.start() - 9  # (a MyST role: {txtfrag}, in any case, then a code span of any length)
        if name >= 0 and text[name : m.start()].lower() == "{txtfrag}" and not _escaped(text, name):
            ref = text[content_start:content_end]
            found.append(Found(file, lines.line_at(content_start), ref, content_start, content_end, "role"))
        spans.append((m.start(), close.end()))
        pos = close.end()


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes (it is escaped)."""
    k = at
    while k > 0 and text[k - 1] == "\\":
        k -= 1
    return (at - k) % 2 == 1


# a line that starts a block even inside a paragraph: an ATX heading (Python-Markdown's needs no space
# after the #s: taken so, nothing the build renders is missed) or a block quote
_INTERRUPTING = re.compile(r"\n {0,3}(?:#|>)")


def _interrupted(text: str, start: int, end: int) -> bool:
    """Whether a heading or a block quote starts on a line between ``start`` and ``end``: a code span
    never crosses into another block (a quote's own lines go on quoting, so '>' ends none begun in one)."""
    if "\n" not in text[start:end]:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    quoted = text[line_start:start].lstrip(" ").startswith(">")
    for m in _INTERRUPTING.finditer(text, start, end):
        if not (quoted and m.group(0).endswith(">")):
            return True
    return False


def _label(text: str) -> str:
    """A link label as Markdown matches it: case-insensitive, runs of white space as one space."""
    return " ".join(text.split()).lower()


def _used_labels(text: str) -> dict[str, tuple[tuple[int, int], str] | None]:
    """The labels that references in ``text`` use: ``[text][label]``, ``[label][]``, ``[label]``; each with
    its first use by an image (``![alt][label]``, ``![label]``: its span and its alt text), None when only
    links use it."""
    used: dict[str, tuple[tuple[int, int], str] | None] = {}
    for m in _MD_LABEL_USE.finditer(text):
        second = m.group(2)
        label = _label(second if second else m.group(1))
        if m.start() and text[m.start() - 1] == "!" and used.get(label) is None:
            used[label] = ((m.start() - 1, m.end()), m.group(1))
        else:
            used.setdefault(label, None)
    return used


#: how a Markdown page's raw HTML blocks are read: None, as every engine reads them (the engine is not
#: known: only what none would render is passed over); "raw", as Python-Markdown reads them
#: (textfrag.documents.raw_html); "md_in_html", the same with the md_in_html extension (a block with a
#: ``markdown`` attribute is Markdown inside); "commonmark", as CommonMark reads them (MyST: MyST-Parser under Sphinx, mystmd);
#: "mdx", as MDX reads a tag: JSX, whose children are Markdown (an ``.mdx`` page)
HtmlBlocks = Literal["raw", "md_in_html", "commonmark", "mdx"] | None


def scan_markdown(text: str, file: str = "<text>", html_blocks: HtmlBlocks = None) -> list[Found]:
    """References in a Markdown or MyST text, in order of appearance."""
    return scan_markdown_masked(text, file, html_blocks)[0]


def raw_html_references(text: str, file: str = "<text>") -> list[Found]:
    """The ``txtfrag:`` URLs of a Markdown page that stand in raw HTML as Python-Markdown reads it (an
    ``<img src="txtfrag:...">``, an ``<a href=...>``): not in code blocks, code spans or HTML comments,
    which are text. Python-Markdown passes them through as they are, so no excerpt is made: the MkDocs
    plugin, ``check`` and the editor each say so (kind ``html``)."""
    if "txtfrag:" not in text or "<" not in text:
        return []
    sink: list[Found] = []
    masked = _md_inline(_md_blocks(text, file, sink, python_markdown=True), file, sink)
    masked = mask_text(masked, [m.span() for m in _RAW_COMMENT.finditer(masked)])
    lines = LineIndex(masked)
    return [Found(file, lines.line_at(m.start(2)), m.group(2), m.start(2), m.end(2), "html") for m in _TAG_URL.finditer(masked)]


def markdown_in_raw_html(text: str, file: str = "<text>", *, md_in_html: bool = False) -> list[Found]:
    """The Markdown images and links with a ``txtfrag:`` destination that stand inside a raw HTML block as
    Python-Markdown reads the page (textfrag.documents.raw_html): it shows them as the text they are, so no
    excerpt is made; ``check``, the editor and the build each say so (kind ``html``)."""
    if "](txtfrag:" not in text or "<" not in text:
        return []
    from .raw_html import raw_html_spans

    sink: list[Found] = []
    masked = _md_inline(_md_blocks(text, file, sink, python_markdown=True), file, sink)
    masked = mask_text(masked, [m.span() for m in _RAW_COMMENT.finditer(masked)])
    lines = LineIndex(masked)
    out = []
    for a, b in raw_html_spans(masked, md_in_html=md_in_html):
        for m in _MD_DESTINATION.finditer(masked, a, b):
            out.append(Found(file, lines.line_at(m.start(1)), m.group(1), m.start(1), m.end(1), "html"))
    return out


_MD_DESTINATION = re.compile(r"\]\((txtfrag:[^)\s]*)")
#: a comment in raw HTML (to the end of the page when it is not closed: no tag in it is one)
_RAW_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
#: a txtfrag: URL as an attribute's value in a tag (what the engine leaves in the page as it is)
_TAG_URL = re.compile(r"""<[A-Za-z][A-Za-z0-9-]*\b[^<>]*?\b(?:src|href)\s*=\s*(["']?)(txtfrag:[^"'\s>]*)\1""", re.IGNORECASE)


def scan_markdown_masked(text: str, file: str, html_blocks: HtmlBlocks = None) -> tuple[list[Found], str]:
    """The references and the masked text (code, code spans and comments blanked, the same length)."""
    found, masked, _ = scan_markdown_lines(text, file, html_blocks)
    return found, masked


def scan_markdown_lines(text: str, file: str, html_blocks: HtmlBlocks = None) -> tuple[list[Found], str, LineIndex]:
    """:func:`scan_markdown_masked`, and the index of the lines of the text (and of the masked text)."""
    found: list[Found] = []
    python_markdown = html_blocks in ("raw", "md_in_html")
    read = text
    front = _FRONT_MATTER.match(text) if text.startswith("---") else None
    if front is not None and (html_blocks == "commonmark" or _front_matter(front.group(1) or "")):
        read = mask_text(text, [front.span()])  # (front matter: the page's metadata, not Markdown)
    masked = _md_blocks(read, file, found, python_markdown=python_markdown)
    # (raw HTML blocks, as the engine reads them, or as every engine does: not Markdown; in MDX a tag is JSX,
    # whose children are Markdown)
    if "<" in masked and html_blocks != "mdx":
        from .raw_html import commonmark_html_spans, raw_everywhere, raw_html_spans

        if python_markdown:
            raw = raw_html_spans(masked, md_in_html=html_blocks == "md_in_html")
        else:
            raw = commonmark_html_spans(text, masked) if html_blocks == "commonmark" else raw_everywhere(text, masked)
        if raw:
            masked = mask_text(masked, raw)
            found[:] = [f for f in found if not any(a <= f.start < b for a, b in raw)]
    masked = _md_inline(masked, file, found)
    lines = LineIndex(masked)
    kinds: tuple[tuple[FoundKind, re.Pattern[str]], ...] = (("image", _MD_IMAGE), ("link", _MD_LINK))
    if "\\![" in masked:
        kinds += (("link", _MD_LINK_AFTER_ESCAPED_BANG),)
    before = len(found)
    for kind, pattern in kinds:
        # images first and links apart: an image inside a link is found as well as the link around it
        for m in pattern.finditer(masked):
            g = 2 if m.group(2) is not None else 3
            line, column = lines.line_and_column(m.start(g))  # (the masked text has the text's line starts)
            found.append(Found(file, line, m.group(g), m.start(g), m.end(g), kind, m.span(), m.group(1), column))
        if kind == "image" and masked.count("txtfrag:") == len(found) - before:
            # every txtfrag: of the text is an image's destination: no link, definition or spaced URL holds
            # one (each holds its own txtfrag:), so the passes that look for them are not made
            found.sort(key=lambda f: f.start)
            return found, masked, lines
    if python_markdown and "txtfrag:" in masked:  # (Python-Markdown: a destination with spaces)
        taken = {f.start for f in found}
        for m in _PM_SPACED.finditer(masked):
            if m.start(3) not in taken and any(c in m.group(3) for c in " \t"):
                spaced: FoundKind = "image" if m.group(1) else "link"
                at, end = m.span(3)
                found.append(Found(file, lines.line_at(at), m.group(3), at, end, spaced, m.span(), m.group(2)))
    definitions = list(_MD_DEFINITION.finditer(masked))
    if definitions:
        # Markdown renders a definition only where it is used ([text][label], [label][], [label]), and
        # of two definitions of one label Python-Markdown keeps the last; a footnote ([^1]: ...) is no link
        used = _used_labels(_MD_ANY_DEFINITION.sub(lambda m: " " * len(m.group(0)), masked))
        last = {_label(m.group(1)): m.start() for m in _MD_ANY_DEFINITION.finditer(masked)}
        for m in definitions:
            label = _label(m.group(1))
            if label.startswith("^") or label not in used or last.get(label) != m.start():
                continue
            if html_blocks == "commonmark" and _under_a_paragraph(masked, m.start()):
                continue  # (CommonMark: a definition does not interrupt a paragraph; it is the paragraph's text)
            g = 2 if m.group(2) is not None else 3
            line, image = lines.line_at(m.start(g)), used[label]
            if image is None:
                found.append(Found(file, line, m.group(g), m.start(g), m.end(g), "definition", m.span()))
            else:  # an image's: it is embedded with the options of the attribute list after that image
                found.append(Found(file, line, m.group(g), m.start(g), m.end(g), "image", image[0], image[1]))
    found.sort(key=lambda f: f.start)
    return found, masked, lines


def _under_a_paragraph(text: str, start: int) -> bool:
    """Whether the line at ``start`` follows a paragraph's line (not a blank line, a heading, a rule, code
    or another definition)."""
    if start == 0:
        return False
    before = text.rfind("\n", 0, start - 1) + 1
    previous = text[before : start - 1].rstrip("\r")
    return bool(previous.strip()) and not _BLOCK_END.match(previous) and not _MD_ANY_DEFINITION.match(previous)


# -- reStructuredText --------------------------------------------------------------------------------


def scan_text(text: str, file: str, suffix: str, html_blocks: HtmlBlocks = None) -> list[Found]:
    """References in ``text``, read as reStructuredText or Markdown by ``suffix`` (none in AsciiDoc, which
    has no txtfrag: form: its includes are guarded)."""
    if suffix.lower() in (".adoc", ".asciidoc", ".asc"):
        return []
    if suffix.lower() in RST_SUFFIXES:
        return with_columns(text, scan_rst(text, file))
    found, _, lines = scan_markdown_lines(text, file, "mdx" if suffix.lower() == ".mdx" else html_blocks)
    return with_columns(text, found, lines)  # (the masked text has the same line starts)
