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
from typing import NamedTuple

from .errors import TextFragError
from .intent import Intent
from .linespec import parse_line_list
from .scan import Found, LineIndex

__all__ = ["Option", "intent_of", "options_of", "shifted"]

_RST_OPTION = re.compile(r"[ \t]+:([A-Za-z][\w-]*):(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\r|$)")
_MYST_OPTION = re.compile(r"[ \t]*:([A-Za-z][\w-]*):(?:[ \t]+([^\r\n]*?))?[ \t]*(?:\r?\n|\r|$)")
_ATTR = re.compile(r"""([A-Za-z_][\w-]*)=(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s}"']+))""")
#: an option block or attribute list longer than this is not read (a hostile document stays linear)
MAX_OPTION_LINES = 200


class Option(NamedTuple):
    """One option: its name, its value, and the offsets of the value in the document's text."""

    name: str
    value: str
    start: int
    end: int


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
    myst = "{" in first_line and first_line.lstrip()[:1] in "`~:"
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
        out.append(Option(m.group(1).lower(), value, start, start + len(value)))
        pos = m.end()
    return out


def _attributes(text: str, at: int) -> list[Option]:
    """``{ .lang key="value" ... }`` right after offset ``at`` (attr_list's syntax), on that line."""
    if text[at : at + 1] != "{":
        return []
    end = text.find("}", at)
    newline = text.find("\n", at)
    if end < 0 or (0 <= newline < end):
        return []
    out = []
    for m in _ATTR.finditer(text, at + 1, end):
        group = next(g for g in (2, 3, 4) if m.group(g) is not None)
        out.append(Option(m.group(1).lower(), m.group(group), m.start(group), m.end(group)))
    return out


def intent_of(options: list[Option]) -> Intent | None:
    """The selection intent the options state (None when none, or when they are contradictory: the
    build reports that)."""
    try:
        return Intent.from_options({o.name: o.value for o in options})
    except TextFragError:  # a contradiction is the build's to report, not update's
        return None


def shifted(options: list[Option], line_map: dict[int, int], old_first: int, new_first: int) -> list[tuple[int, int, str]] | str:
    """The edits that make the options counting source lines follow a rewritten range: each line of
    ``:emphasize-lines:`` to where that line is now (``line_map``: old line -> new line, for the lines
    that did not change), ``:lineno-start:`` (or MkDocs' ``linenums``) when it numbered from the quoted
    line in the file (it was ``old_first``). A string says why they cannot follow (a highlighted line was
    itself changed, or is past the quote)."""
    edits: list[tuple[int, int, str]] = []
    for o in options:
        if o.name == "emphasize-lines":
            try:
                ranges = parse_line_list(o.value, ":emphasize-lines:")
            except TextFragError as bad:
                return f"its :emphasize-lines: cannot be read ({bad.message})"
            if sum(r.last - r.first + 1 for r in ranges) > len(line_map):  # before anything is expanded
                return ":emphasize-lines: names more lines than are unchanged in the quote: choose the lines to highlight by hand"
            now = []
            for r in ranges:
                for n in range(r.first, r.last + 1):
                    if n not in line_map:
                        return (
                            f":emphasize-lines: highlights line {n}, which changed (or is not in the quote): "
                            "choose the lines to highlight by hand"
                        )
                    now.append(line_map[n])
            value = _spans(now)
            if value != o.value:
                edits.append((o.start, o.end, value))
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
