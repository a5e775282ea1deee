"""The parts a document pulls in, which its build reads as part of it: reStructuredText's ``.. include::``
and MyST's ``{include}``.

A reference in an included part is rendered in the page that includes it, wherever the part lies and
whatever its name (``.inc``, ``.txt``, or a document the build excludes): ``check``, ``pin`` and
``update`` read each part once, in the syntax its build reads it in, and report its references at the
part's own lines, where the build reports them. A ``:literal:`` or ``:code:`` include shows the part as
text, with no reference in it; docutils' standard parts (``<isonum.txt>``) hold none. An include that takes
only some of the part (``:start-line:``, ``:end-line:``, ``:start-after:``, ``:end-before:``) renders only
those references: :func:`window_of` says which part of its text that is, as docutils cuts it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from .found import trimmed
from .scan import MD_SUFFIXES, RST_SUFFIXES, code_directives

__all__ = ["included_parts", "parts_read_as", "Part", "window_of"]

_RST_INCLUDE = re.compile(r"^[ \t]*\.\.[ \t]+include[ ]?::[ \t]*(.*)\r?$", re.IGNORECASE)
_MYST_INCLUDE = re.compile(r"^[ \t]*(?:`{3,}|~{3,}|:{3,})\{include\}[ \t]*(.*)\r?$", re.IGNORECASE)
_OPTION = re.compile(r"^[ \t]+:([\w-]+):(?:[ \t]+(.*))?\r?$")
_MYST_OPTION = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t]+(.*))?\r?$")


#: the options that take only some of a part
WINDOW_OPTIONS = ("start-line", "end-line", "start-after", "end-before")


class Part(NamedTuple):
    """A part a document includes: its path, the suffix its build reads it as, and the options that cut it
    (none: the whole part)."""

    path: Path
    suffix: str
    window: tuple[tuple[str, str], ...] = ()


def included_parts(text: str, doc: Path, suffix: str, srcdir: Path | None = None) -> list[Part]:
    """The files ``text`` (the document ``doc``, read as ``suffix`` says) includes, each with the suffix
    its build reads it as: reStructuredText for an rST document's parts, and for a MyST part whose
    ``:parser:`` says so; the part's own Markdown otherwise. A path starting with ``/`` starts at
    ``srcdir`` (Sphinx's source folder), as Sphinx reads it; others at the document's folder. Parts
    that do not exist are left to the build to report."""
    rst = suffix.lower() in RST_SUFFIXES
    if ("include::" if rst else "{include}") not in text.lower():
        return []
    lines = text.split("\n")
    out: list[Part] = []
    for d in code_directives(text, suffix):
        if d.name != "include":
            continue
        argument, options = _block(lines, d.line - 1, rst)
        if not argument or argument.startswith("<") or "literal" in options or "code" in options:
            continue
        if argument.startswith("/") and srcdir is not None:
            path = srcdir / argument.lstrip("/")
        else:
            path = doc.parent / argument
        try:
            if not path.is_file():
                continue
        except OSError:
            continue
        own = path.suffix.lower()
        if rst or "rst" in options.get("parser", "").lower():
            as_suffix = ".rst"
        else:
            as_suffix = own if own in MD_SUFFIXES else ".md"
        out.append(Part(path, as_suffix, tuple((k, options[k]) for k in WINDOW_OPTIONS if k in options)))
    return out


def window_of(text: str, window: tuple[tuple[str, str], ...]) -> tuple[int, int]:
    """The offsets (start, end) of the text an include shows of a part whose text is ``text``, cut as
    docutils cuts it: ``:start-line:`` and ``:end-line:`` (0-based, Python's slice of its lines), then the
    text after ``:start-after:`` and before ``:end-before:`` (their first occurrence). An option it cannot
    read, or a marker that is not there, leaves the whole part (the build says what is wrong)."""
    options = dict(window)
    start, end = 0, len(text)
    try:
        first = int(options["start-line"]) if options.get("start-line", "").strip() else None
        last = int(options["end-line"]) if options.get("end-line", "").strip() else None
    except ValueError:
        return 0, len(text)
    if first or last is not None:
        lines = text.splitlines(True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        kept = range(len(lines))[first:last]
        if not kept:
            return 0, 0
        start, end = starts[kept[0]], starts[kept[-1]] + len(lines[kept[-1]].rstrip("\r\n"))
    after = options.get("start-after")
    if after:
        at = text.find(after, start, end)
        if at < 0:
            return 0, len(text)
        start = at + len(after)
    before = options.get("end-before")
    if before:
        at = text.find(before, start, end)
        if at < 0:
            return 0, len(text)
        end = at
    return start, end


def _block(lines: list[str], first: int, rst: bool) -> tuple[str, dict[str, str]]:
    """The argument and options of the include directive whose first line is ``lines[first]`` (docutils'
    grammar: the argument may stand on the lines below the marker, up to an option or a blank line)."""
    m = (_RST_INCLUDE if rst else _MYST_INCLUDE).match(lines[first])
    if m is None:
        return "", {}
    argument = lines[first][slice(*trimmed(m, 1))]
    options: dict[str, str] = {}
    for line in lines[first + 1 : first + 40]:
        if not line.strip() or (not rst and line.lstrip().startswith(("```", "~~~", ":::"))):
            break
        o = (_OPTION if rst else _MYST_OPTION).match(line)
        if o is not None:
            options[o.group(1).lower()] = line[slice(*trimmed(o, 2))] if o.group(2) is not None else ""
        elif not options and rst and line[:1] in (" ", "\t"):
            argument = f"{argument} {line.strip()}".strip()
        else:
            break
    return argument.strip(), options


def parts_read_as(
    documents: Iterable[Path],
    srcdir: Path | None,
    read: Callable[[Path], str | None],
    most: int = 20_000,
    windows: dict[str, list[tuple[tuple[str, str], ...]]] | None = None,
) -> dict[str, str]:
    """The parts the ``documents`` pull in, and theirs: the real path of each -> the suffix its build reads
    it as (what the editor needs to read an ``.inc`` part as the rST its page makes it). ``read`` gives a
    document's text (None: unreadable); at most ``most`` files are read. ``windows``, when given, gets what
    each include of a part takes of it (``()``: the whole part; :func:`window_of`)."""
    out: dict[str, str] = {}
    queue = [(doc, doc.suffix) for doc in documents]
    done: set[str] = set()
    while queue and len(done) < most:
        doc, suffix = queue.pop()
        real = os.path.realpath(doc)
        if real in done:
            continue
        done.add(real)
        text = read(doc)
        if text is None or "include" not in text:
            continue
        for part, as_suffix, window in included_parts(text, doc, suffix, srcdir):
            out.setdefault(os.path.realpath(part), as_suffix)
            if windows is not None:
                windows.setdefault(os.path.realpath(part), []).append(window)
            queue.append((part, out[os.path.realpath(part)]))
    return out
