"""Find references in documentation sources without building them (for ``check`` and ``update``).

Recognised (shared/CONTRACT.md sections 4 and 5):

- reStructuredText: the directive ``.. txtfrag:: REF`` and the role ``:txtfrag:`REF```;
- Markdown: ``![caption](txtfrag:REF)`` and ``[text](txtfrag:REF)``, and link definitions
  ``[label]: txtfrag:REF``;
- MyST: the directive ```` ```{txtfrag} REF ```` (also with ``:::``) and the role ``{txtfrag}`REF```.

Nothing inside code is a reference: fenced and indented code blocks, code spans, reStructuredText
literal blocks (``::``), inline literals, comments and code directives. Code is masked with spaces
(newlines kept) so that offsets and line numbers of what remains stay those of the file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import DecodeError
from .source import DEFAULT_MAX_SIZE, read_regular

__all__ = ["Found", "scan_text", "scan_file", "read_text", "doc_files", "RST_SUFFIXES", "MD_SUFFIXES"]

RST_SUFFIXES = frozenset({".rst", ".rest"})
MD_SUFFIXES = frozenset({".md", ".markdown", ".myst"})
SKIP_DIRS = frozenset({"_build", "site", "node_modules", "__pycache__", "venv"})


@dataclass(frozen=True)
class Found:
    """One reference in a documentation file: where it is and how it is written.

    ``start``/``end`` are offsets of the reference text (``text``) in the file's decoded content, so
    that ``update`` can replace exactly those characters and nothing else.
    """

    file: str
    line: int
    text: str
    start: int
    end: int
    kind: str
    #: offsets of the whole construct (``![label](txtfrag:REF "title")``); equal to start/end otherwise
    span: tuple[int, int] | None = None
    #: the caption of an image, the text of a link
    label: str = ""


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace each text[start:end] by spaces, keeping line endings (so line numbers are unchanged)."""
    if not spans:
        return text
    parts, pos = [], 0
    for start, end in spans:
        parts.append(text[pos:start])
        parts.append(re.sub(r"[^\r\n]", " ", text[start:end]))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# -- Markdown / MyST ---------------------------------------------------------------------------------

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}|:{3,})[ \t]*(.*)$")
_MYST_DIRECTIVE = re.compile(r"^\{txtfrag\}[ \t]+(\S+)[ \t]*$")
# a link destination may hold balanced parentheses (CommonMark; Wilde's line(2)match(x) needs them)
_DEST = r"(?:[^\s()<>]|\((?:[^\s()<>]|\([^\s()<>]*\))*\))+"
_MD_LINK = re.compile(
    r"!?\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]\(\s*<?(txtfrag:" + _DEST + r")>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_MD_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*<?(txtfrag:[^\s>]+)>?", re.MULTILINE)
_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def _md_blocks(text: str, file: str, found: list[Found]) -> str:
    """Mask fenced and indented code blocks; collect MyST directives; return the masked text."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    offset = 0
    fence: tuple[str, int] | None = None  # (char, length) of the open fence
    prev_blank = True
    in_list = False
    in_indented_code = False
    for number, raw in enumerate(lines, 1):
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        if fence is not None:
            m = _FENCE.match(body)
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= fence[1] and not m.group(3).strip():
                fence = None
            out.append(" " * len(body) + ending)
            offset += len(raw)
            continue
        m = _FENCE.match(body)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            fence = (m.group(2)[0], len(m.group(2)))
            info = m.group(3)
            d = _MYST_DIRECTIVE.match(info)
            if d:
                ref_start = offset + m.start(3) + d.start(1)
                found.append(Found(file, number, d.group(1), ref_start, ref_start + len(d.group(1)), "directive"))
            out.append(" " * len(body) + ending)
            offset += len(raw)
            prev_blank = False
            continue
        blank = not body.strip()
        indented = body.startswith("    ") or body.startswith("\t")
        if _LIST_ITEM.match(body):
            in_list = True
        elif blank:
            pass
        elif not indented:
            in_list = False
        if not blank and indented and (in_indented_code or (prev_blank and not in_list)):
            in_indented_code = True
            out.append(" " * len(body) + ending)
        else:
            if not blank:
                in_indented_code = False
            out.append(raw)
        prev_blank = blank
        offset += len(raw)
    return "".join(out)


def _md_inline(text: str, file: str, found: list[Found]) -> str:
    """Collect MyST roles and mask code spans (a run of n backticks up to the next run of n)."""
    pos = 0
    spans: list[tuple[int, int]] = []
    while True:
        m = _BACKTICKS.search(text, pos)
        if not m:
            return _mask(text, spans)
        n = len(m.group(0))
        close = None
        blank = _BLANK_LINE.search(text, m.end())
        para_end = blank.start() if blank else len(text)  # a code span never crosses a blank line
        for c in _BACKTICKS.finditer(text, m.end(), para_end):
            if len(c.group(0)) == n:
                close = c
                break
        if close is None:
            pos = m.end()
            continue
        content_start, content_end = m.end(), close.start()
        if n == 1 and text.endswith("{txtfrag}", 0, m.start()):
            ref = text[content_start:content_end]
            found.append(Found(file, _line_at(text, content_start), ref, content_start, content_end, "role"))
        spans.append((m.start(), close.end()))
        pos = close.end()


def scan_markdown(text: str, file: str = "<text>") -> list[Found]:
    """References in a Markdown or MyST text, in order of appearance."""
    found: list[Found] = []
    masked = _md_blocks(text, file, found)
    masked = _md_inline(masked, file, found)
    for m in _MD_LINK.finditer(masked):
        kind = "image" if m.group(0).startswith("!") else "link"
        found.append(Found(file, _line_at(masked, m.start(2)), m.group(2), m.start(2), m.end(2), kind, m.span(), m.group(1)))
    for m in _MD_DEFINITION.finditer(masked):
        found.append(Found(file, _line_at(masked, m.start(1)), m.group(1), m.start(1), m.end(1), "definition", m.span()))
    found.sort(key=lambda f: f.start)
    return found


# -- reStructuredText --------------------------------------------------------------------------------

_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.[ \t]+txtfrag::[ \t]*(\S*)")
_RST_EXPLICIT = re.compile(r"^(\s*)\.\.(?:[ \t]+(\S+?)::|\s|$)")
_RST_CODE_DIRECTIVES = frozenset(
    {
        "code-block",
        "code",
        "sourcecode",
        "literalinclude",
        "raw",
        "doctest",
        "testcode",
        "testoutput",
        "parsed-literal",
        "highlight",
        "ipython",
        "math",
    }
)
_RST_ROLE = re.compile(r":txtfrag:`([^`]+)`")
_RST_INLINE_LITERAL = re.compile(r"``(?!\s).*?(?<!\s)``", re.DOTALL)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def scan_rst(text: str, file: str = "<text>") -> list[Found]:
    """References in a reStructuredText text, in order of appearance."""
    found: list[Found] = []
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    offset = 0
    skip_indent: int | None = None  # mask lines indented more than this (a literal or code body)
    pending_literal: int | None = None  # a paragraph ended with '::' at this indent
    for number, raw in enumerate(lines, 1):
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        blank = not body.strip()
        if skip_indent is not None:
            if blank or _indent(body) > skip_indent:
                out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
            skip_indent = None
        if pending_literal is not None and not blank:
            if _indent(body) > pending_literal:
                skip_indent = pending_literal
                out.append(" " * len(body) + ending)
                offset += len(raw)
                pending_literal = None
                continue
            pending_literal = None
        d = _RST_DIRECTIVE.match(body)
        if d:
            if d.group(2):
                found.append(Found(file, number, d.group(2), offset + d.start(2), offset + d.end(2), "directive"))
            out.append(" " * len(body) + ending)  # options below are not text
            offset += len(raw)
            continue
        e = _RST_EXPLICIT.match(body)
        if e and (e.group(2) is None or e.group(2) in _RST_CODE_DIRECTIVES):
            is_comment = e.group(2) is None and not re.match(r"\s*\.\.\s+(?:_|\[|\|)", body)
            if is_comment or e.group(2) is not None:
                skip_indent = _indent(body)
                out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
        if body.rstrip().endswith("::") and not blank and not e:  # '.. note::' is a directive, not '::'
            pending_literal = _indent(body)
        out.append(raw)
        offset += len(raw)
    masked = "".join(out)
    masked = _mask(masked, [m.span() for m in _RST_INLINE_LITERAL.finditer(masked)])
    for m in _RST_ROLE.finditer(masked):
        found.append(Found(file, _line_at(masked, m.start(1)), m.group(1), m.start(1), m.end(1), "role"))
    found.sort(key=lambda f: f.start)
    return found


def scan_text(text: str, file: str, suffix: str) -> list[Found]:
    """References in ``text``, read as reStructuredText or Markdown by ``suffix``."""
    if suffix.lower() in RST_SUFFIXES:
        return scan_rst(text, file)
    return scan_markdown(text, file)


def read_text(path: Path, shown: str | None = None, max_size: int = DEFAULT_MAX_SIZE) -> str:
    """A documentation file's text (UTF-8, a BOM allowed), with the rules quoted files have: a regular
    file of at most ``max_size`` bytes (a FIFO or ``/dev/zero`` is refused, never read). Raises
    :class:`~textfrag.errors.TextFragError` (a :class:`~textfrag.errors.PathError` or a decoding error)."""
    shown = shown or str(path)
    data = read_regular(str(path), shown, None, max_size)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DecodeError(
            f"byte {exc.start} (line {line}) does not decode as UTF-8 ({exc.reason}); documentation sources are read as UTF-8",
            offset=exc.start,
            charset="UTF-8",
        ) from None


def scan_file(path: Path, shown: str | None = None, max_size: int = DEFAULT_MAX_SIZE) -> list[Found]:
    """References in one documentation file (see :func:`read_text` for what is refused)."""
    return scan_text(read_text(path, shown, max_size), shown or str(path), path.suffix)


def doc_files(paths: Iterable[Path], on_error: Callable[[Path, OSError], None] | None = None) -> Iterator[Path]:
    """Documentation files under ``paths`` (files are taken as given), sorted, hidden folders skipped,
    each file once however often it is named (``docs docs/index.rst``). A folder that cannot be listed
    is passed to ``on_error`` (never silently skipped)."""
    seen: set[str] = set()

    def once(path: Path) -> bool:
        key = os.path.realpath(path)
        if key in seen:
            return False
        seen.add(key)
        return True

    suffixes = RST_SUFFIXES | MD_SUFFIXES
    for path in paths:
        if not path.is_dir():
            if once(path):
                yield path
            continue
        found: list[Path] = []
        errors: list[OSError] = []
        for folder, dirs, files in os.walk(path, onerror=errors.append):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
            found.extend(Path(folder, f) for f in files if Path(f).suffix.lower() in suffixes)
        for error in errors:
            if on_error is not None:
                on_error(Path(error.filename or path), error)
        for child in sorted(found):
            if not child.is_dir() and once(child):  # a FIFO or a device is reported when it is read
                yield child
