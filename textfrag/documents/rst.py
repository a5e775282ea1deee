"""References in reStructuredText, found as docutils and Sphinx read the text (``scan_rst``); also what
the MyST scanner shares with it (an ``{eval-rst}`` body is reStructuredText, a code directive's caption
is text)."""

from __future__ import annotations

import re

from .found import CODE_DIRECTIVES, Directive, Found, LineIndex, mask_text

__all__ = ["scan_rst"]

# docutils: ".. " then the name (case-insensitive), at most one space, "::", then a space or the end; also
# as a list item's first line ("- .. txtfrag::", "* - .. txtfrag::" in a list-table, "1. .. txtfrag::")
_RST_ITEMS = r"(?:(?:[-*+\u2022\u2023\u2043]|\d+[.)]|#\.|\(\d+\)|:(?![: ])[^:`\n]*[^: `\n]:)[ ]+)*"
_RST_DIRECTIVE = re.compile(r"^([ \t]*" + _RST_ITEMS + r")\.\.[ \t]+txtfrag[ ]?::(?:[ \t]+|$)(.*)$", re.IGNORECASE)
_RST_EXPLICIT = re.compile(r"^([ \t]*" + _RST_ITEMS + r")\.\.(?:[ \t]+([\w.:+-]+?)[ ]?::(?:[ \t]|$)|\s|$)")
# an image or figure directive's argument that is a txtfrag: URI
_IMAGE_URI = re.compile(r"[ \t]*(txtfrag:\S+)[ \t]*\r?$")
# a role declared as txtfrag's under another name (docutils' role directive)
_RST_ROLE_ALIAS = re.compile(r"^[ \t]*\.\.[ \t]+role::[ \t]+([\w.:+-]+?)[ \t]*\([ \t]*txtfrag[ \t]*\)[ \t]*$", re.IGNORECASE)
# an option line in a directive's header: a field marker (``:class: x``) as docutils recognises one
_RST_OPTION = re.compile(r"[ \t]+:(?![: ])(?:[^:\\]|\\.|:(?!(?:[ `]|$)))*(?<! ):(?:[ \t]+|$)")
# what Sphinx reads as literal text besides code: a grammar's productions (only its tokens are links)
_RST_LITERAL_DIRECTIVES = frozenset({"productionlist"})
# a doctest block: a paragraph that starts with ">>> " (literal to its end)
_RST_DOCTEST = re.compile(r"^[ \t]*>>>(?:[ \t]|$)")
_RST_DEFAULT_ROLE = re.compile(r"^[ \t]*\.\.[ \t]+default-role[ ]?::[ \t]*(\S*)", re.IGNORECASE)
_RST_CODE_DIRECTIVES = CODE_DIRECTIVES | _RST_LITERAL_DIRECTIVES
# code directives whose :caption: Sphinx parses as text (roles in it are rendered)
RST_PARSED_CAPTION = frozenset({"code-block", "code", "sourcecode", "literalinclude"})
# inline markup starts after white space, the start of the text, or one of - : / ' " < ( [ { (docutils'
# inline markup recognition rules); a backslash before it escapes it
_RST_START = r"(?<![^\s\-:/'\"<(\[{])"
_RST_ROLE = re.compile(_RST_START + r"(?i::txtfrag:)`((?:[^`\\]|\\.)+)`")
_RST_ROLE_SUFFIX = re.compile(_RST_START + r"`((?:[^`\\]|\\.)+)`(?i::txtfrag:)")
# interpreted text with no role (the default role applies), not a literal, a reference or another role
_RST_INTERPRETED = re.compile(r"(?<![^\s\-'\"<(\[{])`((?:[^`\\]|\\.)+)`(?![`_:\w])")
# an inline literal never crosses a blank line (docutils reads inline markup paragraph by paragraph)
_RST_INLINE_LITERAL = re.compile(r"``(?!\s)(?:(?!\n[ \t]*\n).)*?(?<!\s)``", re.DOTALL)
# a section title's underline or overline, or a transition: one punctuation character repeated
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{3,}[ \t]*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def scan_rst(text: str, file: str = "<text>", directives: list[Directive] | None = None) -> list[Found]:
    """References in a reStructuredText text, in order of appearance.

    As docutils reads them: directive names and role names in any case, a directive's argument on its
    own line or on the lines after it, ``.. default-role:: txtfrag`` for plain interpreted text, suffix
    roles; not inside literal blocks, comments, code directives, the directive's own options (but its
    :caption:, which is text, as a code directive's), inline
    literals, or after a backslash.
    """
    found: list[Found] = []
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    offset = 0
    skip_indent: int | None = None  # mask lines indented more than this (a literal or code body)
    keep_caption = False  # in a code directive's options: its :caption: is parsed as text
    pending_literal: int | None = None  # a paragraph ended with '::' at this indent
    directive: tuple[int, int] | None = None  # an open txtfrag directive: (indent, line) whose argument is next
    default_role: list[tuple[int, bool]] = []  # (offset, the default role is txtfrag) from here on
    in_doctest = False
    aliases: list[tuple[int, str]] = []  # (offset, a role declared as txtfrag's from there on)
    header: int | None = None  # in a directive's header (to its first blank line): the directive's indent
    option_at: int | None = None  # in an option of that header: the option's indent (its value is not text)
    for number, raw in enumerate(lines, 1):
        body = raw.rstrip("\r\n")
        ending = raw[len(body) :]
        blank = not body.strip()
        if header is not None:  # a directive's options are values, not text (docutils parses none of them)
            if blank or _indent(body) <= header:
                header = option_at = None
            elif _RST_OPTION.match(body) or (option_at is not None and _indent(body) > option_at):
                option_at = _indent(body) if _RST_OPTION.match(body) else option_at
                out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
            elif option_at is not None:
                header = option_at = None
        if directive is not None:
            if not blank and _indent(body) > directive[0] and not body.lstrip().startswith(":"):
                arg = body.strip()  # the argument on the line after ".. txtfrag::"
                start = offset + len(body) - len(body.lstrip())
                found.append(Found(file, number, arg, start, start + len(arg), "directive"))
            directive = None
        if skip_indent is not None:
            if blank or _indent(body) > skip_indent:
                if keep_caption and re.match(r"[ \t]+:caption:", body):
                    out.append(raw)
                else:
                    out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
            skip_indent, keep_caption = None, False
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
            arg = d.group(2).strip()
            if arg:
                start = offset + d.start(2) + (len(d.group(2)) - len(d.group(2).lstrip()))
                found.append(Found(file, number, arg, start, start + len(arg), "directive"))
            else:
                directive = (len(d.group(1)), number)
            skip_indent = len(d.group(1))  # the argument and options below are not text,
            keep_caption = True  # but its :caption: is, as literalinclude's (roles in it are rendered)
            out.append(" " * len(body) + ending)
            offset += len(raw)
            continue
        r = _RST_DEFAULT_ROLE.match(body)
        if r:
            default_role.append((offset, r.group(1).lower() == "txtfrag"))
        alias = _RST_ROLE_ALIAS.match(body)
        if alias:  # ``.. role:: tf(txtfrag)``: :tf: is txtfrag's role from here on
            aliases.append((offset, alias.group(1).lower()))
        e = _RST_EXPLICIT.match(body)
        if e and e.group(2) is not None and directives is not None:
            directives.append(Directive(e.group(2).lower(), number, offset, ""))
        if e and e.group(2) is not None and e.group(2).lower() in ("image", "figure") and "txtfrag:" in body:
            i = _IMAGE_URI.match(body, e.end())
            if i is not None:  # (an image of a txtfrag: URI: no excerpt; said, with the directive to use)
                found.append(Found(file, number, i.group(1), offset + i.start(1), offset + i.end(1), "image-directive"))
        if e and (e.group(2) is None or e.group(2).lower() in _RST_CODE_DIRECTIVES):
            is_comment = e.group(2) is None and not re.match(r"\s*\.\.\s+(?:_|\[|\|)", body[len(e.group(1)) - _indent(body) :])
            # (".." alone before a blank line is an empty comment: the indented text after it is not its)
            empty = is_comment and not body[len(e.group(1)) + 2 :].strip() and (number == len(lines) or not lines[number].strip())
            if (is_comment and not empty) or e.group(2) is not None:
                skip_indent = len(e.group(1))
                keep_caption = e.group(2) is not None and e.group(2).lower() in (
                    "code-block",
                    "code",
                    "sourcecode",
                    "literalinclude",
                )
                out.append(" " * len(body) + ending)
                offset += len(raw)
                continue
        if e and e.group(2) is not None:
            header = _indent(body)  # (its argument and content are text; its options, below, are not)
        if (number == 1 or not lines[number - 2].strip()) and _RST_DOCTEST.match(body):
            in_doctest = True  # a doctest block: literal, to the blank line that ends it
        if in_doctest and not blank:
            out.append(" " * len(body) + ending)
            offset += len(raw)
            continue
        in_doctest = False
        if _RST_ADORNMENT.match(body):  # ```````` under a title is not an inline literal
            out.append(" " * len(body) + ending)
            offset += len(raw)
            continue
        if body.rstrip().endswith("::") and not blank and not e:  # '.. note::' is a directive, not '::'
            pending_literal = _indent(body)
        out.append(raw)
        offset += len(raw)
    masked = "".join(out)
    masked = mask_text(masked, [m.span() for m in _RST_INLINE_LITERAL.finditer(masked)])
    numbered = LineIndex(masked)
    for pattern in (_RST_ROLE, _RST_ROLE_SUFFIX):
        for m in pattern.finditer(masked):
            found.append(Found(file, numbered.line_at(m.start(1)), m.group(1), m.start(1), m.end(1), "role"))
    for at, name in aliases:
        named = f"(?i::{re.escape(name)}:)"
        for spelled in (_RST_START + named + r"`((?:[^`\\]|\\.)+)`", _RST_START + r"`((?:[^`\\]|\\.)+)`" + named):
            for m in re.compile(spelled).finditer(masked, at):
                found.append(Found(file, numbered.line_at(m.start(1)), m.group(1), m.start(1), m.end(1), "role"))
    if any(on for _, on in default_role):
        for m in _RST_INTERPRETED.finditer(masked):
            if _default_role_at(default_role, m.start()) and not masked.endswith(":", 0, m.start()):
                found.append(Found(file, numbered.line_at(m.start(1)), m.group(1), m.start(1), m.end(1), "role"))
    found.sort(key=lambda f: f.start)
    return found


def _default_role_at(changes: list[tuple[int, bool]], offset: int) -> bool:
    """Whether the default role at ``offset`` is txtfrag (the last ``default-role`` before it says)."""
    on = False
    for at, is_txtfrag in changes:
        if at > offset:
            break
        on = is_txtfrag
    return on
