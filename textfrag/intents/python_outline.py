"""The classes and functions of a Python module from its layout, without building its syntax tree.

``:pyobject:`` (and ``:symbol:`` in Python) need only where each definition starts and ends. Python's
own parser answers that, but builds every node of the module to do so (about a millisecond for 5 KB);
the layout answers it line by line: a definition is a ``def`` or ``class`` statement at the start of a
logical line, and ends with the last statement indented under it. :func:`outline` reads the lines as
they are, and tokenizes (comments, strings, brackets, continuations) only a line that holds a bracket,
a quote or a backslash, until its logical line ends. It returns the table
:func:`textfrag.intents.intent.python_objects` returns (Sphinx's ``:pyobject:`` rules); for what it does not
model (tabs or form feeds in indentation, an f-string that nests its own quotes, unbalanced brackets,
an unterminated string, a NUL) it returns None and the caller parses the module. The suite holds it to
the parser's answers across the standard library and on generated modules.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import accumulate

__all__ = ["outline"]

#: the tokens that decide where a logical line ends: comments, strings (one or three quotes, backslash
#: escapes), brackets, a backslash continuation, a newline; a quote that opens no string ends the reading
#: (an unterminated string: the parser then says what is wrong)
_TOKEN = re.compile(
    r"""(?P<c>\#[^\n]*)"""
    r"""|(?P<s>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\""""
    r"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
    r"""|(?P<o>[(\[{])|(?P<x>[)\]}])|(?P<k>\\\n)|(?P<n>\n)|(?P<bad>['"\\])""",
    re.DOTALL,
)
#: a line that may not end its logical line by itself
_SPECIAL = re.compile(r"""['"\\()\[\]{}]""")
#: a definition's head: ``def name``, ``async def name``, ``class name``
_DEFINITION = re.compile(r"(?:async[ \t]+)?(def|class)[ \t]+(\w+)")
#: a head that names a definition this reading could not (a continuation inside it)
_KEYWORD = re.compile(r"(?:async[ \t]+)?(?:def|class)\b|async[ \t]*\\")

_Found = dict[str, tuple[int, int, int]]


def outline(text: str) -> _Found | None:
    """Dotted names of the module's classes and functions -> (first line, from the first decorator; last
    line of the body; the line of the name), 1-based, as ``python_objects`` gives them; None when the
    layout holds something this reading does not model (the caller then parses the module)."""
    if "\0" in text:
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    ends = list(accumulate(map(len, lines)))  # (line n starts at ends[n - 2] + n - 1)
    special = _SPECIAL.search
    # (a tab or form feed in an indentation: every line is read, and the first such line declines)
    plain = ("\t" not in text and "\f" not in text) or _TAB_INDENT.search(text) is None
    found: dict[str, list[int]] = {}
    # open blocks: [header indentation, body indentation (-1 until its first statement), is a function,
    # the table's entry (None: a function directly in a function, not listed)]
    stack: list[list[object]] = []
    names: list[str] = []
    top = -1  # the header indentation of the innermost open block (-1: none)
    decorated = 0  # the line of the first of the decorators just read (0: none)
    previous_end = 0
    skip = 0  # the last line of a logical line read on (its lines are not statements)
    number, total = 0, len(lines)
    while True:
        number = max(number + 1, skip + 1)  # (the lines of a logical line, or of a plain body, passed over at once)
        if number > total:
            break
        line = lines[number - 1]
        head = line.lstrip(" \t\f")
        if not head or head[0] == "#":
            continue  # blank, or a comment alone: no statement
        indent = len(line) - len(head)
        if head[0] == "\\" or (indent and ("\t" in line[:indent] or "\f" in line[:indent])):
            return None  # (a continuation alone; tabs or form feeds in the indentation: the parser counts them)
        last = number
        if special(line) is not None and not _closes(line):  # a bracket, a string or a continuation carries it on
            start = ends[number - 2] + number - 1 if number > 1 else 0
            spans = _logical_end(text, start)
            if spans is None:
                return None
            skip = number + text.count("\n", start, spans[0])
            last = number + text.count("\n", start, spans[1])
        if indent <= top:
            while stack and stack[-1][0] >= indent:  # type: ignore[operator]
                entry = stack.pop()[3]
                names.pop()
                if entry is not None:
                    entry[1] = previous_end  # type: ignore[index]
            top = stack[-1][0] if stack else -1  # type: ignore[assignment]
        if stack and stack[-1][1] == -1:
            stack[-1][1] = indent  # the first statement of a body sets its indentation
        previous_end = last
        c = head[0]
        if c == "@":
            decorated = decorated or number
            continue
        if c not in "dca" or (m := _DEFINITION.match(head)) is None:
            if c in "dca" and _KEYWORD.match(head):
                return None
            decorated = 0
            continue
        is_function = m.group(1) == "def"
        own = m.group(2) if m.group(2).isascii() else unicodedata.normalize("NFKC", m.group(2))
        in_function = bool(stack) and bool(stack[-1][2]) and stack[-1][1] == indent
        listed: list[int] | None = None
        if not (in_function and is_function):
            listed = [decorated or number, last, number]
            found[".".join([*names, own])] = listed
        stack.append([indent, -1, is_function, listed])
        names.append(own)
        top = indent
        decorated = 0
        if plain:  # a body with nothing that opens a span or a definition is passed over at once
            body = _plain_body(text, lines, ends, last, indent)
            if body is not None:
                skip, previous_end = body
                stack[-1][1] = indent + 1  # (no definition is in it: its own indentation does not matter)
    for block in stack:
        entry = block[3]
        if entry is not None:
            entry[1] = previous_end  # type: ignore[index]
    return {name: (e[0], e[1], e[2]) for name, e in found.items()}


def _plain_body(text: str, lines: list[str], ends: list[int], header_end: int, indent: int) -> tuple[int, int] | None:
    """For the definition whose header ends on line ``header_end`` at ``indent``: the last line of its
    body and the last line of its last statement, when nothing in the body can open a span (a bracket, a
    quote, a backslash) or a definition (``def``, ``class``, ``async``, a decorator), so that its end is
    the last line before the next statement indented no more than the header; None otherwise (the lines
    are read one by one)."""
    if header_end >= len(lines):
        return None
    start = ends[header_end - 1] + header_end  # (the offset of the line after the header)
    # (the next definition first: a body that holds one declines at once, without reading on to its end,
    # so that definitions nested deep are not each read to the end of all they hold)
    inner = _DEFINES.search(text, start - 1)
    limit = inner.end() if inner is not None else len(text)
    closer = _closer(indent).search(text, start - 1, limit)
    if closer is None and inner is not None:
        return None
    stop = closer.start() + 1 if closer is not None else len(text)
    if _SPANS.search(text, start, stop) is not None:
        return None
    body_last = header_end + text.count("\n", start, stop) if closer is not None else len(lines)
    end = body_last
    while end > header_end:
        head = lines[end - 1].lstrip(" ")
        if head and head[0] != "#":
            break
        end -= 1
    return body_last, end


#: what in a body makes its lines be read one by one: a bracket, a quote or a backslash (a span across
#: lines may hold lines that look like statements), or a line that starts a definition
_SPANS = re.compile(r"""['"\\()\[\]{}]""")
_DEFINES = re.compile(r"\n[ ]*(?:@|def\b|class\b|async\b)")
#: a line indented with a tab or a form feed
_TAB_INDENT = re.compile(r"^[ ]*[\t\f]", re.MULTILINE)


@lru_cache(maxsize=64)
def _closer(indent: int) -> re.Pattern[str]:
    """The newline before the next line that holds a statement indented at most ``indent`` columns."""
    return re.compile(rf"\n {{0,{indent}}}(?=[^ \n#])")


def _closes(line: str) -> bool:
    """Whether a line with brackets but no quote or backslash closes all it opens (its comment aside):
    it then ends its logical line (in a module that parses, brackets never close before they open)."""
    if "'" in line or '"' in line or "\\" in line:
        return False
    code = line.split("#", 1)[0]
    return code.count("(") + code.count("[") + code.count("{") == code.count(")") + code.count("]") + code.count("}")


def _logical_end(text: str, start: int) -> tuple[int, int] | None:
    """The offset of the newline that ends the logical line starting at ``start`` (the text's length at
    its end), and the offset from which on only a comment or nothing follows a continuation (the line
    after ``x = 1 \\`` that holds a comment alone is not the statement's); None for what this reading
    does not model."""
    depth = 0
    significant = pos = start
    for m in _TOKEN.finditer(text, start):
        kind = m.lastgroup
        at = m.start()
        if at > pos and not text[pos:at].isspace():
            significant = at - 1  # code between the tokens
        pos = m.end()
        if kind == "n":
            if depth == 0:
                return at, significant
            continue
        if kind in ("c", "k"):
            continue
        significant = pos - 1
        if kind == "o":
            depth += 1
        elif kind == "x":
            depth -= 1
            if depth < 0:
                return None
        elif kind == "s":
            body = m.group()
            if "{" in body and any(c in "fFtT" for c in text[max(start, at - 2) : at]) and not _braces_close(body):
                return None  # an f-string whose expressions hold its own quote (Python 3.12): the parser reads it
        elif kind == "bad":
            return None
    if depth:
        return None
    if pos < len(text) and not text[pos:].isspace():
        significant = len(text) - 1
    return len(text), significant


def _braces_close(body: str) -> bool:
    """Whether every ``{`` of an f-string's text (``{{`` aside) is closed within it: when it is not, the
    quote that ended the match was inside an expression."""
    depth = 0
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c in "{}" and depth == 0 and i + 1 < n and body[i + 1] == c:
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return depth == 0
