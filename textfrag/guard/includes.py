"""The includes of a document that guard mode protects, found where their engines find them.

- ``literalinclude`` in reStructuredText and in MyST (```` ```{literalinclude} PATH ````), outside code,
  comments and literal blocks, as Sphinx reads it (textfrag.migrate.literalinclude's reading);
- ``pymdownx.snippets``: ``--8<-- "file"`` (``"file:5:9"``, ``"file:5"``, ``"file:name"``...) on a line of its
  own, and each path line of a block between two ``-8<-`` lines, on any line, code fences included (the
  snippets preprocessor runs before Markdown reads the page), not when escaped (``;--8<--``);
- markdown-include: every ``{!file!}`` and ``{!file!lines=5-9 12}`` of a line;
- mdx_include: every ``{!file!}`` and ``{!file[ln:1-7]!}`` of a line, code fences included
  (textfrag.guard.mdxinclude);
- mdBook: every ``{{#include file:2:10}}`` and ``{{#rustdoc_include ...}}`` of a chapter, code blocks
  included, not when escaped (textfrag.guard.mdbook);
- AsciiDoc: every ``include::file[lines=2..4]`` (``tag=``, ``tags=``, ``indent=``) at the start of a line
  of an ``.adoc`` document, not when escaped, not in a comment block or a skipped conditional
  (textfrag.guard.asciidoc).

What an include is, and its key, is textfrag.guard.model's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..documents.found import trimmed
from ..documents.scan import MD_SUFFIXES, LineIndex
from ..migrate.literalinclude import find_includes
from .asciidoc import asciidoc_includes
from .mdbook import mdbook_includes
from .mdxinclude import mdx_includes
from .model import (
    ADOC_SUFFIXES,
    CODE_IMPORT,
    LITERALINCLUDE,
    MARKDOWN_INCLUDE,
    MAX_LINE,
    SNIPPET,
    VARIANTS,
    VITEPRESS,
    GuardedInclude,
    markdown_include_matches,
)

if TYPE_CHECKING:
    from ..project.config import BuildConfig

__all__ = ["find_guarded", "guarded_by", "snippet_lines", "code_import_spec", "variant_options"]


def guarded_by(config: BuildConfig, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
    """The includes of a document that the build of ``config`` renders (its engine's, and those of the
    Markdown extensions it enables): what ``check``, the editor, the batch protocol and the mdBook
    preprocessor judge."""
    return find_guarded(
        text,
        doc,
        suffix,
        snippets=config.snippets is not None,
        markdown_include=config.markdown_include is not None,
        mdx_include=config.mdx_include is not None,
        mdbook=config.engine == "mdbook",
        vitepress=config.engine == "vitepress",
        code_import=config.engine == "docusaurus",
        include_variants=config.include_variants,
    )


def find_guarded(
    text: str,
    doc: str,
    suffix: str,
    *,
    snippets: bool = False,
    markdown_include: bool = False,
    mdx_include: bool = False,
    mdbook: bool = False,
    vitepress: bool = False,
    code_import: bool = False,
    include_variants: bool = False,
) -> list[GuardedInclude]:
    """The includes of a document (reStructuredText or Markdown/MyST by ``suffix``), in order:
    literalinclude always; in Markdown, pymdownx.snippets' and markdown-include's when the build enables
    those extensions (``--8<--`` is text otherwise); in an mdBook chapter (``mdbook``), mdBook's own."""
    if include_variants and "{*" in text and suffix.lower() in MD_SUFFIXES:  # (FastAPI's {* file ln[...] *})
        rest = find_guarded(text, doc, suffix, snippets=snippets, markdown_include=markdown_include, mdx_include=mdx_include)
        out = [*_variants(text, doc), *rest]
        return sorted(out, key=lambda i: i.start)
    if code_import:  # (remark-code-import: code blocks with file=)
        return _code_imports(text, doc) if suffix.lower() in (*MD_SUFFIXES, ".mdx") and "file=" in text else []
    if vitepress:  # (VitePress: its <<< snippets)
        return _vitepress_includes(text, doc) if suffix.lower() in MD_SUFFIXES and "<<<" in text else []
    if mdbook:  # (mdBook reads no directive: its includes are its own)
        return mdbook_includes(text, doc) if suffix.lower() in MD_SUFFIXES else []
    if suffix.lower() in ADOC_SUFFIXES:  # (Asciidoctor's include:: lines)
        return asciidoc_includes(text, doc) if "include::" in text else []
    out = _literalincludes(text, doc, suffix)
    if suffix.lower() in MD_SUFFIXES:
        if snippets and "8<-" in text:
            out += _snippets(text, doc)
        if mdx_include and "{!" in text:  # (mdx_include: its own reading of {!file!}, which it expands first)
            out += mdx_includes(text, doc)
        elif markdown_include and "{!" in text:
            out += _markdown_includes(text, doc)
    out.sort(key=lambda i: i.start)
    return out


def _place(lines: LineIndex, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset``."""
    return lines.line_at(offset), offset - lines.line_start(offset) + 1


# (each value runs to the end of its line, its trailing blanks taken off by trimmed: a lazy value before
# "[ \t]*\r?$" backtracks in quadratic time on a run of blanks)
_OPTION_VALUE = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t]+(.*))?\r?$", re.MULTILINE)
_YAML_VALUE = re.compile(r"^[ \t]*([\w-]+)[ \t]*:(?:[ \t]+(.*))?\r?$", re.MULTILINE)
_ARGUMENT = re.compile(r"(?:literalinclude[ ]?::|\{literalinclude\})[ \t]*(.*)\r?$", re.IGNORECASE | re.MULTILINE)
#: an argument on the line after the marker: the first line that is not blank and not an option
_NEXT_ARGUMENT = re.compile(r"^[ \t]+(?!:[\w-]+:)(\S.*)\r?$", re.MULTILINE)


def _with_blanks(o: re.Match[str]) -> str:
    """An option's value with the blanks after it (a last CR left out), when it has both; else ""."""
    if o.group(2) is None:
        return ""
    a, z = trimmed(o, 2)
    end = o.end(2) - (o.string[o.end(2) - 1 : o.end(2)] == "\r")
    return o.string[a:end] if a < z < end else ""


def _literalincludes(text: str, doc: str, suffix: str) -> list[GuardedInclude]:
    if "literalinclude" not in text.lower():
        return []
    lines = LineIndex(text)
    out = []
    for inc in find_includes(text, doc, suffix):
        if "(body)" in inc.options or not inc.argument:
            continue  # (a MyST directive with a body: MyST-Parser refuses it; nothing is shown)
        a = _ARGUMENT.search(text, inc.start, inc.end if inc.end > inc.start else len(text))
        if a is None:
            continue
        argument_span = trimmed(a, 1)
        if argument_span[0] == argument_span[1]:  # (the argument on the line after the marker, as docutils reads it)
            below = _NEXT_ARGUMENT.search(text, a.end(), inc.end)
            if below is None:
                continue
            argument_span = trimmed(below, 1)
        found = list(_OPTION_VALUE.finditer(text, a.end(), inc.end))
        if inc.fence and len(found) < len(inc.options):  # (MyST: options in a YAML block)
            found += [y for y in _YAML_VALUE.finditer(text, a.end(), inc.end) if y.group(1) in inc.options]
        spans = tuple(
            (o.group(1), *trimmed(o, 2)) if o.group(2) is not None else (o.group(1), o.end(1) + 1, o.end(1) + 1) for o in found
        )
        # mystmd keeps the spaces after a value (`:end-before: x  ` looks for "x  "), the others do not
        trailing = tuple((o.group(1), value) for o in found if o.re is _OPTION_VALUE and (value := _with_blanks(o)))
        line, column = _place(lines, argument_span[0])
        line = _place(lines, a.start(1))[0]  # (the directive's line, where the build reports it)
        options = tuple((name, value) for name, value in inc.options.items())
        where = (inc.start, inc.end, argument_span, spans, trailing)
        out.append(GuardedInclude(doc, line, column, LITERALINCLUDE, inc.argument, options, *where))
    return out


# pymdownx.snippets' own patterns (pymdownx/snippets.py): an include on a line of its own, or a block marker
_ALL_SNIPPETS = re.compile(
    r"""^(?P<space>[ \t]*)(?P<escape>;*)(?P<all>(?P<inline_marker>-{1,}8<-{1,}[ \t]+)"""
    r"""(?P<snippet>(?:"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))(?![ \t])|(?P<block_marker>-{1,}8<-{1,})(?![ \t]))\r?$"""
)
_BLOCK_PATH = re.compile(r"^(?P<space>[ \t]*)(?P<snippet>.*?)\r?$")


def snippet_lines(text: str) -> list[tuple[int, str, int, int]]:
    """(line offset, the line, start and end of the path in the text) of each snippet include of a page's
    lines, read as pymdownx.snippets reads them at the top level."""
    out = []
    block = False
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if ("8<-" not in line and not block) or len(line) > MAX_LINE:
            continue
        m = _ALL_SNIPPETS.match(line)
        if m is not None:
            if m.group("escape") or (block and m.group("inline_marker")):
                continue  # (escaped: text; an inline include directly in a block is ignored)
            if m.group("inline_marker"):
                raw = m.group("snippet")[1:-1]
                lead = len(raw) - len(raw.lstrip())
                path = raw.strip()
                at = start + m.start("snippet") + 1 + lead
                if path and not path.startswith(";"):
                    out.append((start, line, at, at + len(path)))
                continue
            block = not block
            continue
        if not block:
            continue
        b = _BLOCK_PATH.match(line)
        assert b is not None
        raw = b.group("snippet")
        path = raw.strip()
        if not path or path.startswith(";"):
            continue
        at = start + b.start("snippet") + (len(raw) - len(raw.lstrip()))
        out.append((start, line, at, at + len(path)))
    return out


def _snippets(text: str, doc: str) -> list[GuardedInclude]:
    lines = LineIndex(text)
    out = []
    for start, line, a, b in snippet_lines(text):
        number, column = _place(lines, a)
        end = start + len(line.rstrip("\r"))
        out.append(GuardedInclude(doc, number, column, SNIPPET, text[a:b], (), start, end, (a, b)))
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
            number, column = _place(lines, start + m.path_start)
            options = (("lines", m.lines),) if m.lines is not None else ()
            spans = (("lines", start + m.lines_start, start + m.lines_start + len(m.lines)),) if m.lines is not None else ()
            span = (start + m.path_start, start + m.path_start + len(m.path))
            inc = GuardedInclude(
                doc, number, column, MARKDOWN_INCLUDE, m.path, options, start + m.start, start + m.end, span, spans
            )
            out.append(inc)
    return out


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


# remark-code-import's file= meta (its own pattern)
_CODE_IMPORT = re.compile(r"^file=(?P<path>.+?)(?:(?:#(?:L(?P<from>\d+)(?P<dash>-)?)?)(?:L(?P<to>\d+))?)?$")
_CODE_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)\r?$")


def code_import_spec(argument: str) -> tuple[str, int | None, bool, int | None]:
    """(path, first line, whether a range runs on, last line) of a ``file=`` meta, as remark-code-import
    reads it."""
    m = _CODE_IMPORT.match(argument)
    if m is None:
        return argument, None, True, None
    first = int(m.group("from")) if m.group("from") else None
    return m.group("path"), first, bool(m.group("dash")) or first is None, int(m.group("to")) if m.group("to") else None


def _code_imports(text: str, doc: str) -> list[GuardedInclude]:
    """The fenced code blocks whose info string holds ``file=``: each an include."""
    out = []
    fence = ""
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
        m = _CODE_FENCE.match(line) if len(line) <= MAX_LINE else None
        if fence:
            if m is not None and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence) and not line[slice(*trimmed(m, 3))]:
                fence = ""
            continue
        if m is None:
            continue
        fence = m.group(2)
        info = line[slice(*trimmed(m, 3))]
        at = m.start(3)
        for token in re.finditer(r"(?:\\ |\S)+", info):
            if token.group(0).startswith("file="):
                a = start + at + token.start()
                span = (a, a + len(token.group(0)))
                out.append(
                    GuardedInclude(
                        doc, number, at + token.start() + 1, CODE_IMPORT, token.group(0), (), start, start + len(line), span
                    )
                )
                break
    return out


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
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
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
