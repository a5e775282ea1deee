"""The options written beside a reference in a documentation file, where ``update`` can read and rewrite them.

- reStructuredText: the option lines of ``.. txtfrag:: REF`` (``:pyobject: Shelf.add``);
- MyST: the option lines after ```` ```{txtfrag} REF ````;
- Markdown (MkDocs): the attribute list right after the image (``{ .python pyobject="Shelf.add" }``).

Each option is returned with the offsets of its value in the document's text, so that a value can be
replaced and nothing else touched. Only the construct's own lines are read: nothing here scans further
than the options block, so the cost is linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..documents.found import Found, LineIndex
from ..errors import TextFragError
from ..reference.linespec import parse_line_list
from .option_table import Form, Syntax

if TYPE_CHECKING:
    from ..intents.intent import Intent

__all__ = ["Option", "intent_of", "options_of", "raw_of", "shifted", "how_written"]

_RST_OPTION = re.compile(r"[ \t]+:([A-Za-z][\w-]*):(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\r|$)")
_MYST_OPTION = re.compile(r"[ \t]*:([A-Za-z][\w-]*):(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\r|$)")
# attr_list's tokens: key="value", key='value', key=value, and a word (.class, #id, or a bare key)
_ATTR_TOKEN = re.compile(r"""(?P<key>[^ =}]+)=(?:"(?P<dq>[^"\r\n]*)"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[^ =}]+))|(?P<word>[^ =}]+)""")

#: an option block or attribute list longer than this is not read (a hostile document stays linear)
MAX_OPTION_LINES = 200


class Option(NamedTuple):
    """One option: its name, its value, and the offsets of the value in the document's text."""

    name: str
    value: str
    start: int
    end: int


def _myst_line(first_line: str) -> bool:
    """Whether a directive's first line (up to its argument) is MyST's: a code fence (```{txtfrag}, or
    ```txtfrag where myst_fence_as_directive makes it one) or a colon fence (:::{txtfrag})."""
    lead = first_line.lstrip()[:1]
    return lead in "`~" and lead != "" or ("{" in first_line and lead == ":")


def options_of(text: str, found: Found) -> list[Option]:
    """The options written with the reference ``found`` (a directive's option lines, an image's attribute list)."""
    if found.kind == "image" and found.span is not None:
        return _attributes(text, found.span[1])
    if found.kind != "directive":
        return []
    line_start = text.rfind("\n", 0, found.start) + 1
    first_line = text[line_start : found.start]
    pos = text.find("\n", found.end)
    if pos < 0:
        return []
    pos += 1
    myst = _myst_line(first_line)
    if myst and _YAML_FENCE.match(text, pos):
        return _yaml_options(text, text.find("\n", pos) + 1 if text.find("\n", pos) >= 0 else len(text))
    pattern = _MYST_OPTION if myst else _RST_OPTION
    indent = len(first_line) - len(first_line.lstrip())
    out: list[Option] = []
    for _ in range(MAX_OPTION_LINES):
        m = pattern.match(text, pos)
        if m is None or m.end() == pos:
            break
        if not myst and len(m.group(0)) - len(m.group(0).lstrip(" \t")) <= indent:
            break
        value = m.group(2) or ""
        start = m.start(2) if m.group(2) is not None else m.end(1) + 1
        end = start + len(value)
        if myst and value:  # (MyST-Parser reads the value as YAML: quotes and a comment are not in it)
            value, a, b = myst_scalar(value)
            start, end = start + a, start + b
        out.append(Option(m.group(1).lower(), value, start, end))
        pos = m.end()
    return out


#: the line that opens and closes a MyST directive's options written as YAML
_YAML_FENCE = re.compile(r"[ \t]*---[ \t]*(?:\r?\n|\r|$)")
#: an option in that block: ``name: value`` (a value on one line)
_YAML_OPTION = re.compile(r"[ \t]*([A-Za-z][\w-]*)[ \t]*:(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\r|$)")
_YAML_OTHER = re.compile(r"[^\r\n]*(?:\r?\n|\r|$)")


def _yaml_options(text: str, pos: int) -> list[Option]:
    """The options of a MyST directive written as YAML between ``---`` lines, from ``pos`` (after the
    first ``---``), as MyST-Parser reads them: comment lines and blank lines are none, values are YAML."""
    out: list[Option] = []
    for _ in range(MAX_OPTION_LINES):
        if pos >= len(text) or _YAML_FENCE.match(text, pos):
            break
        m = _YAML_OPTION.match(text, pos)
        if m is None:
            other = _YAML_OTHER.match(text, pos)
            assert other is not None
            pos = other.end() if other.end() > pos else len(text)
            continue
        value, a, b = myst_scalar(m.group(2) or "")
        start = m.start(2) if m.group(2) is not None else m.end(1) + 1
        out.append(Option(m.group(1).lower(), value, start + a, start + b))
        pos = m.end()
    return out


def myst_scalar(raw: str) -> tuple[str, int, int]:
    """A MyST option's value as MyST-Parser reads it, a YAML scalar on one line: quotes taken off (``''``
    in single quotes is ``'``; backslash escapes in double quotes), a comment left out (`` #`` after the
    value, or a value that starts with ``#``); and where in ``raw`` the value is written (its quotes
    included, its comment not), for a repair that rewrites it."""
    if raw.startswith("#"):
        return "", 0, 0
    quote = raw[:1]
    if quote in ("'", '"'):
        close = raw.find(quote, 1)
        while quote == "'" and close > 0 and raw[close + 1 : close + 2] == "'":
            close = raw.find(quote, close + 2)  # ('' is a quote inside single quotes)
        while quote == '"' and close > 0 and _escaped(raw, close):
            close = raw.find(quote, close + 1)
        if close > 0:
            inner = raw[1:close]
            if quote == "'":
                return inner.replace("''", "'"), 0, close + 1
            return _UNESCAPE.sub(_unescaped, inner), 0, close + 1
    comment = _COMMENT.search(raw)
    end = len(raw[: comment.start()].rstrip(" \t")) if comment else len(raw)
    return raw[:end], 0, end


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == "\\":
        n += 1
    return n % 2 == 1


_COMMENT = re.compile(r"[ \t]#")
#: YAML's escapes in double quotes (YAML 1.2 section 5.7): a character, or a code point in hexadecimal
_UNESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.DOTALL)
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
    " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip


def _unescaped(m: re.Match[str]) -> str:
    said = m.group(1)
    if len(said) > 1:  # \xXX, \uXXXX, \UXXXXXXXX
        code = int(said[1:], 16)
        return chr(code) if code <= 0x10FFFF else said
    return _ESCAPES.get(said, said)


def _attributes(text: str, at: int) -> list[Option]:
    """``{ .lang #id key="value" word }`` right after offset ``at``, on that line, read as Python-Markdown's
    attr_list reads it (a class is ``class``, an id ``id``, a bare word is itself as its value)."""
    if text[at : at + 1] != "{":
        return []
    end = text.find("}", at)
    newline = text.find("\n", at)
    if end < 0 or (0 <= newline < end) or end - at > 4000:
        return []
    out = []
    pos = at + 1 + (text[at + 1 : at + 2] == ":")
    for m in _ATTR_TOKEN.finditer(text, pos, end):
        if m.group("key") is not None:
            group = next(g for g in ("dq", "sq", "bare") if m.group(g) is not None)
            out.append(Option(m.group("key").lower(), m.group(group), m.start(group), m.end(group)))
        elif m.group("word") is not None:
            word = m.group("word")
            if word.startswith("."):
                out.append(Option("class", word[1:], m.start("word") + 1, m.end("word")))
            elif word.startswith("#"):
                out.append(Option("id", word[1:], m.start("word") + 1, m.end("word")))
            else:
                out.append(Option(word.lower(), word, m.start("word"), m.end("word")))
    return out


@lru_cache(maxsize=1024)
def _attribute_values(attributes: str) -> tuple[tuple[str, str | None], ...]:
    """Name -> value of an attribute list as written (``{ pyobject="f" .python }``): the same list on a
    thousand images is read once."""
    classes = []
    out: dict[str, str | None] = {}
    for o in _attributes(attributes, 0):
        if o.name == "class":
            classes.append(o.value)
        else:
            out[o.name] = o.value
    if classes:
        out["class"] = " ".join(classes)
    return tuple(out.items())


def raw_of(options: list[Option], edits: Iterable[tuple[int, int, str]] = ()) -> dict[str, str | None]:
    """The options as the core's verdict takes them (name -> value as written), with ``edits`` (of their
    values, by offsets in the document) applied: what they will say once a repair is written."""
    new = {(start, end): text for start, end, text in edits}
    raw: dict[str, str | None] = {}
    classes: list[str] = []
    for o in options:
        value = new.get((o.start, o.end), o.value)
        if o.name == "class":
            classes.append(value)
        else:
            raw[o.name] = value or None
    if classes:
        raw["class"] = " ".join(classes)
    return raw


#: the mark of an option written again with the same name (textfrag.verdict.option_table says what is wrong)
WRITTEN_TWICE = "\x00twice"


def how_written(text: str, found: Found, *, attr_list: bool = True) -> tuple[dict[str, str | None] | None, Syntax, Form]:
    """The options written with ``found`` as an engine reads them (name -> value as written; None for
    none), the syntax they are written in and whether the excerpt is a block or inline: what the core's
    verdict takes (textfrag.verdict.judging)."""
    if found.kind == "directive":
        line_start = text.rfind("\n", 0, found.start) + 1
        first_line = text[line_start : found.start]
        syntax: Syntax = "myst" if _myst_line(first_line) else "rst"
        options = options_of(text, found) if text[found.start : found.end] == found.text else []
        raw: dict[str, str | None] = {}
        for o in options:
            # docutils refuses a directive with an option written twice (MyST-Parser takes the last one)
            name = o.name + WRITTEN_TWICE if syntax == "rst" and o.name in raw else o.name
            raw[name] = o.value or None
        return raw or None, syntax, "block"
    if found.kind == "image" and found.span is not None:
        return image_options(*image_key(text, found), attr_list=attr_list)
    return None, "md" if found.kind in ("link", "definition") else "rst", "inline"


def image_key(text: str, found: Found) -> tuple[str | None, str, bool]:
    """All that the options written with a Markdown image depend on: its alt text, its attribute list as
    written (with the spaces before it: attr_list reads none after a space), whether it stands alone in
    its paragraph (``check`` reads the same ones once)."""
    assert found.span is not None
    start, at = found.span
    if text[at : at + 1] == "\n":  # (the usual image, at the end of its line: no attribute list)
        attributes, end = "", at
    else:
        m = _AFTER_IMAGE.match(text, at)
        assert m is not None  # (it matches the empty string)
        attributes = text[at : m.end()] if m.group(2) else ""
        end = m.end() if m.group(2) and not m.group(1) else at
    # (the usual image, between blank lines, with its attribute list or none: alone at once)
    if start >= 2 and text[start - 2 : start] == "\n\n":
        if text[end : end + 2] == "\n\n" or (end + 1 == len(text) and text[end] == "\n"):
            return found.label, attributes, True
    return found.label, attributes, _alone_read(text, found.span)


#: what follows an image: white space, and the attribute list on its line (the group 2)
_AFTER_IMAGE = re.compile(r"([ \t]*)(\{[^}\n]*\})?")


#: the mark of an attribute list that attr_list did not read (after a space; or attr_list is off), with
#: ``spaced`` or ``off`` (textfrag.verdict.option_table says what is wrong)
UNREAD_ATTRIBUTES = "\x00unread"


def image_options(
    label: str | None, attributes: str, alone: bool, *, attr_list: bool = True
) -> tuple[dict[str, str | None] | None, Syntax, Form]:
    """:func:`how_written` of an image from its :func:`image_key`; ``attr_list``: whether the build
    reads attribute lists (an mkdocs.yml without attr_list does not)."""
    raw: dict[str, str | None] = {"alt": label} if label else {}
    if attributes[:1] in (" ", "\t"):
        raw[UNREAD_ATTRIBUTES] = "spaced"  # (shown as text after the excerpt: its options are not read)
    elif attributes and not attr_list:
        raw[UNREAD_ATTRIBUTES] = "off"
    elif attributes:
        raw.update(_attribute_values(attributes))
    return raw or None, "md", "block" if alone else "inline"


def _alone_read(text: str, span: tuple[int, int]) -> bool:
    """Whether a Markdown image stands alone in its paragraph (a block excerpt): nothing but white space
    (or a quote's marker) before it on its line, and nothing after it (and its attribute list) on its
    line, with no text of the paragraph on the lines around it. (image_key answers the usual image, between
    blank lines, at once; a property test holds the two to one answer.)"""
    line_start = text.rfind("\n", 0, span[0]) + 1
    before = text[line_start : span[0]]
    if before.strip(" \t>"):  # (in a list item: a tight list has no paragraph, so it is inline there)
        return False
    line_end = text.find("\n", span[1])
    line_end = len(text) if line_end < 0 else line_end
    after = text[span[1] : line_end]
    if after.startswith("{"):
        close = after.find("}")
        after = after[close + 1 :] if close >= 0 else after
    if after.strip():
        return False
    previous = text[text.rfind("\n", 0, max(0, line_start - 1)) + 1 : max(0, line_start - 1)]
    following_end = text.find("\n", line_end + 1)
    following = text[line_end + 1 : len(text) if following_end < 0 else following_end]
    return _paragraph_break(previous) and _paragraph_break(following)


def _paragraph_break(line: str) -> bool:
    stripped = line.strip(" \t>")
    return not stripped or stripped.startswith(("```", "~~~", "#", "!!!", "???", "---", "***", "<")) or line.startswith(" " * 4)


def intent_of(options: list[Option]) -> Intent | None:
    """The selection intent the options state (None when none, or when they are contradictory: the
    build reports that)."""
    from ..intents.intent import Intent  # (check's start-up imports no parser it does not need)

    try:
        return Intent.from_options({o.name: o.value for o in options})
    except TextFragError:  # a contradiction is the build's to report, not update's
        return None


def shifted(
    options: list[Option], line_map: dict[int, int], old_first: int, new_first: int, *, new_last: int = 0
) -> list[tuple[int, int, str]] | str:
    """The edits that make the options counting source lines follow a rewritten range: each line of
    ``:emphasize-lines:`` to where that line is now (``line_map``: old line -> new line, for the lines
    that did not change), and of ``hl_lines`` (counted within the quote) to its place in the new quote;
    ``:lineno-start:`` (or MkDocs' ``linenums``) when it numbered from the quoted line in the file (it was
    ``old_first``). A string says why they cannot follow (a highlighted line was
    itself changed, or is past the quote). With ``new_last`` (a reviewed change accepted: the quote is now
    lines ``new_first`` to ``new_last``), a highlighted line that changed keeps its place in the quote."""
    edits: list[tuple[int, int, str]] = []
    for o in options:
        if o.name in ("emphasize-lines", "hl_lines"):
            # (hl_lines counts within the quote, as pymdownx does: its lines are followed in the file's numbers)
            within, shown = o.name == "hl_lines", f":{o.name}:"
            try:
                ranges = parse_line_list(o.value, shown, separators=", " if within else ",")
            except TextFragError as bad:
                return f"its {shown} cannot be read ({bad.message})"
            if sum(r.last - r.first + 1 for r in ranges) > max(len(line_map), new_last - new_first + 1):  # (before expanding)
                return f"{shown} names more lines than are unchanged in the quote: choose the lines to highlight by hand"
            now = []
            for r in ranges:
                for k in range(r.first, r.last + 1):
                    n = k + old_first - 1 if within else k
                    if n not in line_map and new_last:
                        # accepted: the changed line keeps its place (past the new end, the verdict says so)
                        now.append(new_first + n - old_first)
                        continue
                    if n not in line_map:
                        return (
                            f"{shown} highlights line {k}, which changed (or is not in the quote): "
                            "choose the lines to highlight by hand"
                        )
                    now.append(line_map[n])
            if within:
                now = [m - new_first + 1 for m in now]
            if sorted(set(now)) != sorted({k for r in ranges for k in range(r.first, r.last + 1)}):
                value = _spans(now)
                edits.append((o.start, o.end, value.replace(",", " ") if within else value))
        elif o.name in ("lineno-start", "linenums") and o.value.isdigit() and len(o.value) < 20 and int(o.value) == old_first:
            if new_first != old_first:
                edits.append((o.start, o.end, str(new_first)))
    return edits


def _spans(numbers: list[int]) -> str:
    """``12,14-16`` for the sorted numbers."""
    out: list[str] = []
    numbers = sorted(set(numbers))
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(str(numbers[i]) if i == j else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(out)


def with_option_references(text: str, found: list[Found]) -> tuple[list[Found], dict[int, str]]:
    """The references of a document with those its directives' options hold (``:diff: REF``, the older
    side of a diff, is verified and repaired as any reference is), and the charset each directive's
    ``:encoding:`` reads its files in, by the offset of the reference it applies to."""
    out: list[Found] = []
    charsets: dict[int, str] = {}
    lines = LineIndex(text)
    for f in found:
        out.append(f)
        if f.kind != "directive":
            continue
        options = options_of(text, f)
        charset = next((o.value for o in options if o.name == "encoding" and o.value), None)
        for o in options:
            if o.name == "diff" and o.value:
                line, column = lines.line_at(o.start), o.start - lines.line_start(o.start) + 1
                out.append(Found(f.file, line, o.value, o.start, o.end, "directive", column=column))
            if charset is not None:
                charsets[out[-1].start] = charset
        if charset is not None:
            charsets[f.start] = charset
    return out, charsets


def colon_fenced(text: str, found: Found) -> bool:
    """Whether a MyST directive found in ``text`` opens with a ``:::`` fence (MyST-Parser's colon_fence)."""
    line_start = text.rfind("\n", 0, found.start) + 1
    return found.kind == "directive" and text[line_start : found.start].lstrip(" \t>-*+0123456789.)").startswith(":::")
