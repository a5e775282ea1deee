"""mdx_include's includes, as its preprocessor finds and shows them.

``{!path!}`` anywhere on a line (in a code fence too: the preprocessor reads the page's raw lines before
Markdown does), ``{!path[ln:1-7]!}`` (rows, and ``row.column`` ranges: its line slice syntax, several
joined by ``,`` with the configured separator lines between them), ``{!+path!}`` and ``{!-path!}`` (nested
includes followed or not), ``{!>path!}`` (each line after the text before the include), ``{!path | enc!}``;
``\\{!path!}`` is text. A relative path starts at the extension's ``base_path`` (from the folder the build
runs in; with ``recursive_relative_path``, a nested include's from its file's folder). The lines are the
file's text with a newline added, split by Python's ``str.splitlines``: the whole file ends in an empty
line. Nested includes are followed (``recurs_local``) as the extension follows them; a file included in
itself is a problem, as it fails the build. A URL is the network's, not the repository's: not guarded.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from pathlib import Path
from urllib.parse import urlparse

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import MAX_LINE, GuardedInclude, IncludeEngine, shift_numbers

__all__ = ["MDX_INCLUDE", "mdx_matches", "file_named", "row_slice", "shift_mdx_lines"]


def file_named(path: str, parent: str | None, ctx: GuardContext) -> str:
    """The file a path names, as the extension resolves it (``parent``: the file it is included from)."""
    name = os.path.expanduser(path)
    if os.path.isabs(name):
        return name
    if ctx.mdx_relative and parent:
        return os.path.normpath(os.path.join(os.path.dirname(parent), name))
    return os.path.normpath(os.path.join(ctx.mdx_base, name))


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names."""
    path = inc.argument if argument is None else argument
    return under_root(file_named(path, None, ctx), path, cache)


def _lines_of(text: str) -> list[str]:
    """A file's lines as the extension reads them (its text and a newline, split by ``str.splitlines``)."""
    return (text + "\n").splitlines()


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the include shows of a file whose text is ``text`` (its rows moved by ``shift``), nested
    includes not followed, and the 1-based lines it shows when it shows whole lines."""
    lines = _lines_of(text)
    spec = inc.option("ln")
    if spec is None:
        return "\n".join(lines), None
    spec = shift_mdx_lines(spec, shift) if shift else spec
    try:
        shown, numbers = row_slice(lines, spec, ctx.mdx_separator)
    except ValueError:
        raise TextFragError(f"[ln:{spec}] names no lines (write rows: [ln:1-7], [ln:2.4-5.10])") from None
    return "\n".join(shown), numbers


def _recurses(recurse: str, ctx: GuardContext) -> bool:
    """Whether an include's own includes are followed (the extension's recurs_local, and the +/- mark)."""
    if ctx.mdx_recursive:
        return recurse != "-"
    return ctx.mdx_recursive is None and recurse == "+"


def nested(inc: GuardedInclude, text: str, rel: str, cache: SourceCache, ctx: GuardContext) -> tuple[str, tuple[str, ...]]:
    """What the include shows once the includes in it are replaced as the extension replaces them, and the
    files they read (under the root). ``text`` is what :func:`of_text` gave for the file ``rel``."""
    if "{!" not in text or not _recurses(inc.option("recurse") or "", ctx):
        return text, ()
    files: list[str] = []
    lines = _expanded(
        text.split("\n"), os.path.join(cache.real_root, rel), cache, ctx, files, (os.path.join(cache.real_root, rel),)
    )
    return "\n".join(lines), tuple(files)


def _expanded(
    lines: list[str], parent: str, cache: SourceCache, ctx: GuardContext, files: list[str], chain: tuple[str, ...]
) -> list[str]:
    """The extension's processing of included lines: each include of a line replaced by its lines (the text
    before it joined to the first, after it to the last; with ``>``, before each)."""
    out: list[str] = []
    for line in lines:
        found = mdx_matches(line) if "{!" in line and len(line) <= MAX_LINE else []
        if not found:
            out.append(line)
            continue
        pieces: list[str] = []
        c = 0
        for s, e, escaped, (recurse, indent, path, spec) in found:
            if escaped:
                got = [line[s + 1 : e]]
            elif urlparse(path).netloc:
                got = [line[s:e]]  # (a URL: the network's, said nowhere here; left as written)
            else:
                target = file_named(path, parent, ctx)
                if target in chain:
                    raise TextFragError(f"{path} is included in itself (mdx_include refuses a circular inclusion)")
                rel = under_root(target, path, cache)
                files.append(rel)
                got = _lines_of(cache.get(rel, rel).text)
                if spec:
                    try:
                        got = row_slice(got, spec, ctx.mdx_separator)[0]
                    except ValueError:
                        raise TextFragError(f"[ln:{spec}] of the nested {path} names no lines") from None
                if _recurses(recurse, ctx):
                    got = _expanded(got, target, cache, ctx, files, (*chain, target))
            if not got:
                pieces = pieces or [""]
                pieces[-1] += line[c:s]
            elif pieces:
                pieces[-1] += line[c:s] + got[0]
                pieces += got[1:]
            elif indent:
                pieces = [line[c:s] + g for g in got]
            else:
                pieces = [line[c:s] + got[0], *got[1:]]
            c = e
        pieces[-1] += line[c:]
        out += pieces
    return out


def _cell(n: str, spec: str) -> tuple[int | None, int | None]:
    """rcslice's ``r.c`` (each 1-based, or None)."""
    if not n:
        return None, None
    parts = n.split(".")
    if len(parts) > 2:
        raise ValueError(spec)
    values = [int(x) if x else None for x in parts]
    if any(v is not None and v <= 0 for v in values):
        raise ValueError(spec)
    return values[0], (values[1] if len(values) > 1 else None)


def _zero(i: int | None) -> int | None:
    return None if i is None or i - 1 < 0 else i - 1


def _two_less(i: int | None) -> tuple[int | None, bool | None]:
    if i is None:
        return None, None
    return (None, False) if i - 2 < 0 else (i - 2, None)


def row_slice(lines: list[str], spec: str, separator: tuple[str, ...] = ("", "")) -> tuple[list[str], tuple[int, ...] | None]:
    """The lines ``spec`` (rcslice's row slice syntax, as mdx_include's ``[ln:...]`` gives it) takes of
    ``lines``, with ``separator`` between two slices; and their 1-based numbers when the spec is one slice
    of whole rows in order. :class:`ValueError` when the syntax is not rcslice's."""
    total = len(lines)
    if not total or not spec:
        return lines, tuple(range(1, total + 1))
    spec = spec.replace(".e", ".").replace("e", str(total))
    if not any(spec.split(",")):
        return lines, tuple(range(1, total + 1))  # (no slice: every line)
    out: list[str] = []
    numbers: list[int] | None = []
    for k, part in enumerate(p for p in spec.split(",") if p):
        ends = part.split("-")
        if len(ends) > 2:
            raise ValueError(spec)
        (r0, c0) = _cell(ends[0], spec)
        if len(ends) == 1:
            r1, c1, rstep, cstep, sliceable = r0, None, 1, 1, None
        else:
            r1, c1 = _cell(ends[1], spec)
            rstep = 1 if r1 is None or (r0 is not None and r0 <= r1) else -1
            cstep = 1 if c1 is None or (c0 is not None and c0 <= c1) else -1
            if rstep < 0:
                r1, sliceable = _two_less(r1)
            else:
                sliceable = None
        r0, c0 = _zero(r0), _zero(c0)
        if k:
            out += separator
        rows = list(range(total))[r0:r1:rstep]
        taken = [lines[r] for r in rows]
        if len(taken) == 1 or (taken and r0 is None and r1 is None and sliceable is not False):
            end = _two_less(c1)[0] if cstep < 0 else c1
            taken = [t[c0:end:cstep] for t in taken]
        elif taken:
            taken[0] = taken[0][c0:]
            taken[-1] = taken[-1][:c1]
        out += taken
        whole = rstep == 1 and c0 is None and c1 is None
        numbers = [r + 1 for r in rows] if numbers is not None and whole and not k else None
    return out, (tuple(numbers) if numbers is not None else None)


_ROW_NUMBERS = re.compile(r"(?<![.\d])\d+")


def shift_mdx_lines(spec: str, d: int) -> str:
    """``[ln:...]`` with every row moved by ``d`` (a column, after ``.``, and ``e``, the last row, kept)."""
    return shift_numbers(spec, d, _ROW_NUMBERS)


def shiftable(inc: GuardedInclude) -> bool:
    """Whether the include names rows (they can follow moved text)."""
    return bool(inc.option("ln"))


# mdx_include's {!path!}: its pattern, read in one pass (textfrag.guard.mdxinclude says what one shows)


#: a file name and its slice are short: a longer text between "{!" and "!}" is not read as one, and a name
#: holding "!}" more than a few times neither
MAX_INCLUDE, MAX_ENDS = 1024, 8
_END = re.compile(r"(?=!\})")


#: what may follow a name up to "!}": a slice, then an encoding after "|" (first with a character that is not a
#: blank, as the pattern's greedy blanks want it; then with any, once every "!}" after it has been tried)
_TAIL = re.compile(r"(?:\s*\[ln:([0-9.,-]+)\])?\s*(?:\|\s*\S.*)?")
_TAIL_ANY = re.compile(r"(?:\s*\[ln:([0-9.,-]+)\])?\s*(?:\|.+)?")
_SPECIAL = re.compile(r"[\[\]|]")


_BLANKS = re.compile(r"\s*")


def _starts(line: str, k: int) -> list[tuple[str, str, int]]:
    """Where the name of an include opening at ``k`` may start, in the order the extension's pattern tries
    them: ``[+-]?>?\\s*`` taken greedily, then given back one character at a time (a blank, the indent mark,
    the recursion mark may be the name's first character): (recursion mark, indent mark, offset)."""
    at = k + 2
    recurse = line[at] if line[at : at + 1] in ("+", "-") else ""
    indent = ">" if line[at + len(recurse) : at + len(recurse) + 1] == ">" else ""
    marks = at + len(recurse) + len(indent)
    blanks = _BLANKS.match(line, marks).end()  # type: ignore[union-attr]
    starts = [(recurse, indent, blanks)]
    if blanks > marks:
        starts.append((recurse, indent, blanks - 1))
    if indent:
        starts.append((recurse, "", marks - 1))
    if recurse:
        starts.append(("", "", at))
    return starts


def _named(rest: str, tail_pattern: re.Pattern[str] = _TAIL) -> tuple[str, str | None] | None:
    """(name, line slice) when ``rest`` (from the name's first character to ``!}``) is a name, lazy, without
    ``[``, ``]`` or ``|``, then `` [ln:...]`` and ``| encoding``, each optional; None when it is not."""
    special = _SPECIAL.search(rest)
    x = special.start() if special else len(rest)
    size = max(1, len(rest[:x].rstrip()))
    if size > x:
        return None
    tail = tail_pattern.fullmatch(rest, size)
    return (rest[:size], tail.group(1)) if tail is not None else None


def mdx_matches(line: str) -> list[tuple[int, int, bool, tuple[str, str, str, str | None]]]:
    """(start, end, escaped, (recursion mark, indent mark, name, line slice)) of each include of a line, left
    to right, as the extension's pattern finds them: each name start in the pattern's order, each ``!}`` after
    it in turn (of the first ``MAX_ENDS`` within ``MAX_INCLUDE`` characters: a name is short), every ``!}``
    found once."""
    if "{!" not in line:
        return []
    ends = [m.start() for m in _END.finditer(line)]
    out = []
    pos = 0
    while (k := line.find("{!", pos)) >= 0:
        found = None
        for recurse, indent, start in _starts(line, k):
            at = bisect_left(ends, start + 1)
            for tail in (_TAIL, _TAIL_ANY):
                for end in ends[at : at + MAX_ENDS]:
                    named = _named(line[start:end], tail) if end - k <= MAX_INCLUDE else None
                    if named is not None:
                        found = (end, (recurse, indent, *named))
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            pos = k + 1
            continue
        escaped = k > pos and line[k - 1] == "\\"
        out.append((k - escaped, found[0] + 2, escaped, found[1]))
        pos = found[0] + 2
    return out


def mdx_includes(text: str, doc: str) -> list[GuardedInclude]:
    """mdx_include's includes: every local ``{!path!}`` of a page, in order (an escaped one and a URL are not guarded)."""
    out = []
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
        if "{!" not in line or len(line) > MAX_LINE:
            continue
        for k, end, escaped, (recurse, indent, path, lines) in mdx_matches(line.rstrip("\r")):
            if escaped or urlparse(path).netloc:
                continue
            at = start + line.index(path, k)
            options = tuple((n, v) for n, v in (("recurse", recurse), ("indent", indent), ("ln", lines)) if v)
            spans: tuple[tuple[str, int, int], ...] = ()
            if lines:
                ln = start + line.rfind("[ln:", k, end) + 4
                spans = (("ln", ln, ln + len(lines)),)
            out.append(
                GuardedInclude(
                    doc, number, at - start + 1, MDX_INCLUDE, path, options, start + k, start + end, (at, at + len(path)), spans
                )
            )
    return out


class MdxInclude(IncludeEngine):
    """mdx_include's ``{!file!}`` and ``{!file[ln:1-7]!}`` (nested includes as ``recurs_local`` says)."""

    kind = "mdx-include"
    runnable = True  # (markdown_textfrag.engines runs the engine's own code)
    numbers_option = "ln"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return mdx_includes(text, doc) if "{!" in text else []

    def key(self, inc: GuardedInclude) -> str:
        lines = inc.option("ln")
        return f"{{!{inc.option('recurse') or ''}{inc.argument}" + (f"[ln:{lines}]" if lines else "") + "!}"

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        return ctx.mdx_base

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return file_of(inc, doc_path, cache, ctx, argument)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return of_text(inc, text, ctx, shift)

    def nested(
        self, inc: GuardedInclude, text: str, rel: str, cache: SourceCache, ctx: GuardContext
    ) -> tuple[str, tuple[str, ...]]:
        return nested(inc, text, rel, cache, ctx)  # (followed as recurs_local says)

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        return shiftable(inc)

    def shift(self, spec: str, d: int) -> str:
        return shift_mdx_lines(spec, d)


#: the engine's one object
MDX_INCLUDE = MdxInclude()
