"""literalinclude, as Sphinx's ``LiteralIncludeReader`` and as mystmd's filter read it (guard mode).

- Found in reStructuredText and in MyST (```` ```{literalinclude} PATH ````), outside code, comments and
  literal blocks, as Sphinx reads it (textfrag.migrate.literalinclude's reading).
- Sphinx's reader: the file read in the include's encoding with its line endings as ``\\n``, tabs
  expanded by ``:tab-width:``, then ``:pyobject:``, the start and end markers, ``:lines:``, ``:dedent:``,
  ``:prepend:`` and ``:append:`` in that order; ``:diff:`` is the unified diff of two files (its two
  header lines, which name the files by their paths on the machine that builds, left out).
- mystmd's own filter (textfrag.guard.myst), in a build configured by ``myst.yml``
  (``GuardContext.literal_reader``).
- A file is ``/x`` from the source folder, ``x`` from the page's folder (Sphinx's ``relfn2path``).
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..documents.found import trimmed
from ..documents.scan import LineIndex
from ..errors import DecodeError, TextFragError
from ..migrate.literalinclude import find_includes
from ..source.charsets import same_charset
from ..source.reading import read_under_root
from .context import GuardContext, Shown, under_root
from .model import SELECTING, Edits, GuardedInclude, IncludeEngine, search_shifts
from .myst import myst_lines, myst_literal, myst_text

if TYPE_CHECKING:
    from ..source.cache import SourceCache

__all__ = ["LITERAL", "literalinclude_lines", "literal_of_lines", "line_num_spec", "shift_line_spec", "myst_read", "place"]


class Literalinclude(IncludeEngine):
    """Sphinx's and mystmd's ``literalinclude`` (``ctx.literal_reader`` says whose reader a build runs)."""

    kind = "literalinclude"
    numbers_option = "lines"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return _literalincludes(text, doc, suffix)

    def key(self, inc: GuardedInclude) -> str:
        given = dict(inc.options)
        said = "".join(f" :{name}: {_written(name, given[name])}".rstrip() for name in SELECTING if name in given)
        return f"literalinclude {inc.argument}{said}"

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        return ctx.srcdir if inc.argument.startswith("/") else doc_path.parent

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        arg = inc.argument if argument is None else argument
        # Sphinx's relfn2path: "/x" from the source folder, "x" from the document's folder
        target = (ctx.srcdir / arg.lstrip("/")) if arg.startswith("/") else (doc_path.parent / arg)
        return under_root(str(target), arg, cache)

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        return os.path.realpath(self.base_of(inc, doc_path, ctx) / inc.argument.lstrip("/"))

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        new = Path(os.path.relpath(new_real, os.path.realpath(self.base_of(inc, doc_path, ctx)))).as_posix()
        return "/" + new if inc.argument.startswith("/") else new

    def read(self, inc: GuardedInclude, cache: SourceCache, rel: str, ctx: GuardContext) -> str:
        if ctx.literal_reader == "mystmd":
            return myst_read(cache, rel)
        charset = inc.option("encoding")
        return (cache.with_charset(charset) if charset else cache).get(rel, rel).text

    def shown(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        return _literalinclude(inc, doc_path, cache, ctx)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        if ctx.literal_reader == "mystmd":
            options = {**dict(inc.options), **dict(inc.trailing)}
            if shift and options.get("lines"):
                options["lines"] = shift_line_spec(options["lines"], shift)
            return myst_literal(options, text)
        return literalinclude_lines(dict(inc.options), _normal(text), shift)

    def unrecoverable(self, inc: GuardedInclude) -> str | None:
        if inc.option("diff") is not None:
            return "a diff of two files is recorded as a whole, and one of them changed"
        return None

    def shift_search(self, inc: GuardedInclude, ctx: GuardContext) -> Callable[[str, str], list[int]] | None:
        written = dict(inc.options)
        spec = written.get("lines") or ""
        if ctx.literal_reader == "mystmd":
            if spec:  # (mystmd reads no other selecting option beside :lines:)

                def myst(text: str, record: str) -> list[int]:
                    lines = text.split("\n")
                    return search_shifts(len(lines), record, lambda d: myst_lines({"lines": shift_line_spec(spec, d)}, lines)[0])

                return myst
            try:
                moved_bounds(written, 0)
            except ValueError:
                return None  # (no :start-line:/:end-line:, or one that is not a line number)

            def bounds(text: str, record: str) -> list[int]:
                lines = text.split("\n")
                return search_shifts(len(lines), record, lambda d: myst_lines(moved_bounds(written, d), lines)[0])

            return bounds
        if not spec or {"pyobject", "start-after", "start-at", "end-before", "end-at", "diff"} & set(written):
            return None

        def literal(text: str, record: str) -> list[int]:
            normal = _normal(text)
            if "tab-width" in written:
                normal = normal.expandtabs(_tab_width(written["tab-width"]))
            lines = normal.splitlines(True)
            return search_shifts(len(lines), record, lambda d: literal_of_lines(written, lines, shift_line_spec(spec, d)))

        return literal

    def shift(self, spec: str, d: int) -> str:
        return shift_line_spec(spec, d)

    def shifted(self, inc: GuardedInclude, d: int, text: str, ctx: GuardContext) -> tuple[Edits, GuardedInclude]:
        edits: list[tuple[int, int, str]] = []
        if ctx.literal_reader == "mystmd" and not inc.option("lines"):
            moved = moved_bounds(dict(inc.options), d)  # (mystmd's :start-line: and :end-line:)
            number = int(inc.option("start-line") or 0) + 1
            if (inc.option("lineno-start") or "").strip() == str(number):  # (numbered as the file is: kept so)
                moved["lineno-start"] = str(number + d)
            edits += [(start, end, moved[name]) for name, start, end in inc.option_spans if name in moved]
            return tuple(edits), dataclasses.replace(inc, options=tuple((k, moved.get(k, v)) for k, v in inc.options))
        spec = inc.option("lines") or ""
        first = line_num_spec(spec, len(text.splitlines())) if spec else [0]
        new_spec = shift_line_spec(spec, d)
        for name, start, end in inc.option_spans:
            if name == "lines":
                edits.append((start, end, new_spec))
            elif name == "lineno-start" and (inc.option("lineno-start") or "").strip() == str(first[0] + 1):
                edits.append((start, end, str(first[0] + 1 + d)))  # (numbered as the file is: kept so)
        options = tuple((k, new_spec if k == "lines" else v) for k, v in inc.options)
        return tuple(edits), dataclasses.replace(inc, options=options)


#: the engine's one object
LITERAL = Literalinclude()


def _written(name: str, value: str) -> str:
    """An option's value in a key: as written, a number as the number it is (``:dedent: 04`` is 4, as
    Sphinx reads it, so that a build and ``check`` name an include alike)."""
    value = " ".join(value.split())
    if name in ("dedent", "tab-width") and value.lstrip("+-").isdigit():
        return str(int(value))
    return value


def moved_bounds(options: dict[str, str], d: int) -> dict[str, str]:
    """mystmd's ``:start-line:`` and ``:end-line:`` (0-based line numbers) moved by ``d``;
    :class:`ValueError` when there is neither, or one is not a line number or would move before the
    first line."""
    out: dict[str, str] = {}
    for name in ("start-line", "end-line"):
        value = (options.get(name) or "").strip()
        if name in options:
            if not value.isdigit() or int(value) + d < 0:
                raise ValueError(f"{name} {value!r}")
            out[name] = str(int(value) + d)
    if not out:
        raise ValueError("no start-line or end-line")
    return out


def _normal(text: str) -> str:
    """The text as a file opened in text mode reads it: every line ending as ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read(cache: SourceCache, rel: str, charset: str | None) -> str:
    reader = cache.with_charset(charset) if charset else cache
    return _normal(reader.get(rel, rel).text)


def myst_read(cache: SourceCache, rel: str) -> str:
    """The file under the root as mystmd reads it (UTF-8 as it is, a BOM kept; textfrag.guard.myst)."""
    try:
        if same_charset(cache.charset, "utf-8"):
            source = cache.get(rel, rel)
            if source.bom in (b"", b"\xef\xbb\xbf"):
                return ("\ufeff" if source.bom else "") + source.text
    except DecodeError:
        pass
    return myst_text(read_under_root(cache.real_root, rel, rel, cache.max_size))


_PAIRS = (
    *(("lineno-match", "lineno-start"), ("lineno-match", "append"), ("lineno-match", "prepend")),
    *(("start-after", "start-at"), ("end-before", "end-at"), ("diff", "pyobject"), ("diff", "lineno-start")),
    *(("diff", "lineno-match"), ("diff", "lines"), ("diff", "start-after"), ("diff", "end-before")),
    *(("diff", "start-at"), ("diff", "end-at")),
)


def _literalinclude(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
    options = dict(inc.options)
    if ctx.literal_reader == "mystmd":
        rel = LITERAL.file_of(inc, doc_path, cache, ctx)
        text, lines = myst_literal({**options, **dict(inc.trailing)}, myst_read(cache, rel))
        return Shown(text, rel, lines, (rel,))
    for a, b in _PAIRS:
        if a in options and b in options:
            raise TextFragError(f'literalinclude refuses both "{a}" and "{b}" options')
    charset = options.get("encoding") or ctx.literal_encoding
    if charset.lower().replace("_", "-") in ("utf-8-sig", "utf8-sig"):
        charset = ""  # (the cache's own UTF-8, a BOM read as one)
    rel = LITERAL.file_of(inc, doc_path, cache, ctx)
    if "diff" in options:
        old = LITERAL.file_of(inc, doc_path, cache, ctx, options["diff"])
        width = _tab_width(options["tab-width"]) if "tab-width" in options else None
        new_lines = _tabs(_read(cache, rel, charset), width).splitlines(True)
        old_lines = _tabs(_read(cache, old, charset), width).splitlines(True)
        diff = list(difflib.unified_diff(old_lines, new_lines, old, rel))
        return Shown("".join(diff[2:]), rel, None, (rel, old))
    text, lines = literalinclude_lines(options, _read(cache, rel, charset))
    return Shown(text, rel, lines, (rel,))


def literalinclude_lines(options: dict[str, str], text: str, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What literalinclude shows of ``text`` (line endings ``\\n``) with ``options`` (as written), and
    the file's 1-based lines it shows; ``shift`` moves ``:lines:`` by that many lines. Sphinx's reader,
    filter by filter."""
    if "tab-width" in options:
        text = text.expandtabs(_tab_width(options["tab-width"]))
    lines = text.splitlines(True)
    numbers = list(range(1, len(lines) + 1))
    pyobject = options.get("pyobject")
    if pyobject:
        from ..intents.intent import python_objects, signature_cut

        objects = python_objects(text)
        if pyobject not in objects:
            raise TextFragError(f"literalinclude finds no object named {pyobject!r} in the file")
        first, last, name_line = objects[pyobject]
        if last > name_line and signature_cut(text, name_line):
            last = name_line  # (Sphinx's finder ends a signature written over several lines at its first ':')
        lines, numbers = lines[first - 1 : last], numbers[first - 1 : last]
    for name, after in (("start-at", False), ("start-after", True)):
        start = options.get(name)
        if name in options and start:
            at = next((i for i, line in enumerate(lines) if start in line), None)
            if at is None:
                raise TextFragError(f"{name} pattern not found: {start}")
            lines, numbers = lines[at + after :], numbers[at + after :]
            break
    for name, inclusive in (("end-at", True), ("end-before", False)):
        end = options.get(name)
        if name in options and end:
            at = next((i for i, line in enumerate(lines) if end in line and (inclusive or i > 0)), None)
            if at is None:
                raise TextFragError(f"{name} pattern not found: {end}")
            lines, numbers = lines[: at + inclusive], numbers[: at + inclusive]
            break
    spec = options.get("lines")
    if spec:
        wanted = [n + shift for n in line_num_spec(spec, len(lines) - shift)]
        if shift and any(n < 0 for n in wanted):
            raise TextFragError("moved before the start of the file")
        lines = [lines[n] for n in wanted if n < len(lines)]
        numbers = [numbers[n] for n in wanted if n < len(numbers)]
        if not lines:
            raise TextFragError(f"Line spec {spec!r}: no lines pulled from include file")
    if "dedent" in options:
        value = options["dedent"].strip()
        lines = _dedent(lines, _int(value, "dedent") if value else None)
    shown = "".join(lines)
    if options.get("prepend"):
        shown = options["prepend"] + "\n" + shown
    if options.get("append"):
        shown = shown + options["append"] + "\n"
    return shown, tuple(numbers)


def literal_of_lines(options: dict[str, str], lines: list[str], spec: str) -> str:
    """What literalinclude shows with only ``:lines: spec`` selecting (and ``:dedent:``, ``:prepend:``,
    ``:append:``), of a file's lines already split: each moved include tried costs what it shows."""
    chosen = [lines[n] for n in line_num_spec(spec, len(lines)) if n < len(lines)]
    if not chosen:
        raise TextFragError(f"Line spec {spec!r}: no lines pulled from include file")
    if "dedent" in options:
        value = options["dedent"].strip()
        chosen = _dedent(chosen, _int(value, "dedent") if value else None)
    shown = "".join(chosen)
    if options.get("prepend"):
        shown = options["prepend"] + "\n" + shown
    if options.get("append"):
        shown = shown + options["append"] + "\n"
    return shown


def _tabs(text: str, width: int | None) -> str:
    return text if width is None else text.expandtabs(width)


#: the widest tab textfrag expands (Sphinx takes any number: ``:tab-width: 1000000000`` is a gigabyte a tab)
MAX_TAB_WIDTH = 1024


def _tab_width(value: str) -> int:
    """``:tab-width:`` as Sphinx reads it, refused past :data:`MAX_TAB_WIDTH` before it sizes a line."""
    width = _int(value, "tab-width")
    if width > MAX_TAB_WIDTH:
        raise TextFragError(f"tab-width {width} is more than textfrag expands a tab to (at most {MAX_TAB_WIDTH} columns)")
    return width


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise TextFragError(f"literalinclude's :{name}: must be a whole number, not {value!r}") from None


def line_num_spec(spec: str, total: int) -> list[int]:
    """Sphinx's ``parse_line_num_spec``: the 0-based numbers a ``:lines:`` spec names, as it reads them
    (``0`` is -1, the last line, as there)."""
    items: list[int] = []
    for part in spec.split(","):
        try:
            ends = part.strip().split("-")
            if ends == ["", ""]:
                raise ValueError
            if len(ends) == 1:
                items.append(int(ends[0]) - 1)
            elif len(ends) == 2:
                start = int(ends[0] or 1)
                end = int(ends[1] or max(start, total))
                if start > end or end - start > 10**7:
                    raise ValueError
                items.extend(range(start - 1, end))
            else:
                raise ValueError
        except ValueError:
            raise TextFragError(f"invalid line number spec: {spec!r}") from None
    return items


def shift_line_spec(spec: str, d: int) -> str:
    """literalinclude's ``:lines:`` with every line moved by ``d``, written as it was (``5-7`` ->
    ``6-8``, ``10-`` -> ``11-``, ``-3`` -> ``2-4``)."""
    parts = []
    for part in spec.split(","):
        a, dash, b = part.strip().partition("-")
        if not dash:
            if int(a) + d < 1:
                raise TextFragError("moved before the start of the file")
            parts.append(str(int(a) + d))
            continue
        start = int(a or 1) + d
        if start < 1:
            raise TextFragError("moved before the start of the file")
        parts.append(f"{start}-{int(b) + d if b else ''}")
    return ",".join(parts)


def _dedent(lines: list[str], dedent: int | None) -> list[str]:
    """Sphinx's ``dedent_lines``."""
    if dedent is None:
        return textwrap.dedent("".join(lines)).splitlines(True)
    out = []
    for line in lines:
        new = line[dedent:]
        if line.endswith("\n") and not new:
            new = "\n"
        out.append(new)
    return out


# -- where literalinclude is written ---------------------------------------------------------------


def place(lines: LineIndex, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset``."""
    return lines.line_at(offset), offset - lines.line_start(offset) + 1


# (each value runs to the end of its line, its trailing blanks taken off by trimmed: a lazy value before
# "[ \t]*\r?$" backtracks in quadratic time on a run of blanks)
# (a MyST directive in a block quote: its lines start with the quote's markers)
_OPTION_VALUE = re.compile(r"^(?:[ \t]*>)*[ \t]*:([\w-]+):(?:[ \t]+(.*))?\r?$", re.MULTILINE)
_YAML_VALUE = re.compile(r"^(?:[ \t]*>)*[ \t]*([\w-]+)[ \t]*:(?:[ \t]+(.*))?\r?$", re.MULTILINE)
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
        line, column = place(lines, argument_span[0])
        line = place(lines, a.start(1))[0]  # (the directive's line, where the build reports it)
        options = tuple((name, value) for name, value in inc.options.items())
        where = (inc.start, inc.end, argument_span, spans, trailing)
        out.append(GuardedInclude(doc, line, column, LITERAL, inc.argument, options, *where))
    return out
