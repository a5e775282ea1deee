"""What a guarded include shows, computed as its engine computes it, with no engine imported.

- ``literalinclude``: Sphinx's ``LiteralIncludeReader``: the file read in the include's encoding with
  its line endings as ``\\n``, tabs expanded by ``:tab-width:``, then ``:pyobject:``, the start and end
  markers, ``:lines:``, ``:dedent:``, ``:prepend:`` and ``:append:`` in that order; ``:diff:`` is the
  unified diff of two files (its two header lines, which name the files by their paths on the machine
  that builds, left out);
- ``pymdownx.snippets``: the lines it puts in the page for one include: the file's lines, its line ranges
  or its section, with the snippets nested in them expanded;
- markdown-include: the text it puts in place of ``{!file!}`` (its lines, nested includes expanded);
- mystmd's ``literalinclude``: its own filter (textfrag.guard.myst), in a build configured by ``myst.yml``.

Files are read through the build's :class:`~textfrag.source.cache.SourceCache` (each once), found as the
engine finds them (Sphinx's ``/path`` from the source folder, snippets' base paths), and never outside
the root. The text is what the engine puts in the page, with ``\\n`` between lines; its length and md5
are what the lock file records (:func:`textfrag.guard.record_of`).
"""

from __future__ import annotations

import difflib
import os
import textwrap
from pathlib import Path
from typing import Protocol, cast

from ..errors import DecodeError, TextFragError
from ..source.cache import SourceCache, read_under_root
from ..source.charsets import same_charset
from .context import GuardContext, Shown, under_root
from .model import (
    ASCIIDOC,
    CODE_IMPORT,
    LITERALINCLUDE,
    MARKDOWN_INCLUDE,
    MDBOOK,
    MDX_INCLUDE,
    VARIANTS,
    VITEPRESS,
    GuardedInclude,
)
from .myst import myst_literal, myst_text

__all__ = ["shown_text", "shown_of_text", "resolve", "literalinclude_lines", "literal_of_lines", "myst_read"]


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


class OneFileEngine(Protocol):
    """How an engine whose include shows lines of one file (mdBook, AsciiDoc, VitePress, remark-code-import,
    FastAPI's variants) is read: each has a module of its own with these."""

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        """The file (under the root) the include names (``argument``: its file as written, if another)."""

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        """What the include shows of the file's ``text`` (its line numbers moved by ``shift``), and the lines."""

    def shiftable(self, inc: GuardedInclude) -> bool:
        """Whether the include names lines by number (they can follow moved text)."""


def one_file_engine(kind: str) -> OneFileEngine | None:
    """The module that reads an include of ``kind`` when it is one of those engines'; None otherwise."""
    if kind not in (MDBOOK, ASCIIDOC, VITEPRESS, CODE_IMPORT, VARIANTS, MDX_INCLUDE):
        return None
    from . import asciidoc, codeimport, mdbook, mdxinclude, variants, vitepress

    engines = {MDBOOK: mdbook, ASCIIDOC: asciidoc, VITEPRESS: vitepress, CODE_IMPORT: codeimport, VARIANTS: variants}
    engines[MDX_INCLUDE] = mdxinclude
    engine = engines.get(kind)
    return cast(OneFileEngine, engine) if engine is not None else None


def resolve(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names, found as its engine finds it; :class:`PathError`
    when there is none or it is outside the root."""
    arg = inc.argument if argument is None else argument
    if inc.kind == LITERALINCLUDE:
        # Sphinx's relfn2path: "/x" from the source folder, "x" from the document's folder
        target = (ctx.srcdir / arg.lstrip("/")) if arg.startswith("/") else (doc_path.parent / arg)
        return under_root(str(target), arg, cache)
    engine = one_file_engine(inc.kind)
    if engine is not None:
        return engine.file_of(inc, doc_path, cache, ctx, arg)
    if inc.kind == MARKDOWN_INCLUDE:
        name = os.path.expanduser(arg)
        included = name if os.path.isabs(name) else os.path.normpath(os.path.join(ctx.include_base, name))
        return under_root(included, arg, cache)
    path = _snippet_path(arg)[0]
    found = _snippet_file(path, ctx)
    if found is None:
        from .snippets import missing_snippet

        raise missing_snippet(path, ctx, cache)
    return under_root(found, path, cache)


def shown_text(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
    """What ``inc`` (in the document at ``doc_path``) shows now; :class:`TextFragError` when it shows
    nothing (a file that is not there, an object or a marker not found), in its engine's terms."""
    if inc.kind == LITERALINCLUDE:
        return _literalinclude(inc, doc_path, cache, ctx)
    if inc.kind == MARKDOWN_INCLUDE:
        return _markdown_include(inc, doc_path, cache, ctx)
    engine = one_file_engine(inc.kind)
    if engine is not None:  # (one file, read once: its text is the build's)
        rel = engine.file_of(inc, doc_path, cache, ctx)
        text, lines = engine.of_text(inc, cache.get(rel, rel).text, ctx)
        if inc.kind == MDBOOK and "{{" in text:  # (mdBook reads what it included in turn)
            from .mdbook import nested

            expanded, inner = nested(text, rel, cache)
            if expanded != text:
                return Shown(expanded, rel, None, (rel, *dict.fromkeys(inner)))
        if inc.kind == MDX_INCLUDE and "{!" in text:  # (mdx_include follows what it included, as configured)
            from .mdxinclude import nested as mdx_nested

            expanded, inner = mdx_nested(inc, text, rel, cache, ctx)
            if expanded != text:
                return Shown(expanded, rel, None, (rel, *dict.fromkeys(inner)))
        return Shown(text, rel, lines, (rel,))
    from .snippets import snippet_shown

    return snippet_shown(inc, cache, ctx)


def shown_of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What ``inc`` shows of the file whose text is ``text`` (another version of it, in history), with
    its line numbers moved by ``shift`` (where a moved include would show the same text); and the
    1-based lines it shows. One file only (no ``:diff:``, nested snippets read as they are now)."""
    if inc.kind == LITERALINCLUDE:
        if ctx.literal_reader == "mystmd":
            options = {**dict(inc.options), **dict(inc.trailing)}
            if shift and options.get("lines"):
                options["lines"] = shift_line_spec(options["lines"], shift)
            return myst_literal(options, text)
        return literalinclude_lines(dict(inc.options), _normal(text), shift)
    if inc.kind == MARKDOWN_INCLUDE:
        from .snippets import markdown_include_of_text

        return markdown_include_of_text(inc, text, ctx, shift)
    engine = one_file_engine(inc.kind)
    if engine is not None:
        return engine.of_text(inc, text, ctx, shift)
    from .snippets import snippet_of_text

    return snippet_of_text(inc, text, ctx, shift)


# -- literalinclude ------------------------------------------------------------------------------------

_PAIRS = (
    *(("lineno-match", "lineno-start"), ("lineno-match", "append"), ("lineno-match", "prepend")),
    *(("start-after", "start-at"), ("end-before", "end-at"), ("diff", "pyobject"), ("diff", "lineno-start")),
    *(("diff", "lineno-match"), ("diff", "lines"), ("diff", "start-after"), ("diff", "end-before")),
    *(("diff", "start-at"), ("diff", "end-at")),
)


def _literalinclude(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
    options = dict(inc.options)
    if ctx.literal_reader == "mystmd":
        rel = resolve(inc, doc_path, cache, ctx)
        text, lines = myst_literal({**options, **dict(inc.trailing)}, myst_read(cache, rel))
        return Shown(text, rel, lines, (rel,))
    for a, b in _PAIRS:
        if a in options and b in options:
            raise TextFragError(f'literalinclude refuses both "{a}" and "{b}" options')
    charset = options.get("encoding") or ctx.literal_encoding
    if charset.lower().replace("_", "-") in ("utf-8-sig", "utf8-sig"):
        charset = ""  # (the cache's own UTF-8, a BOM read as one)
    rel = resolve(inc, doc_path, cache, ctx)
    if "diff" in options:
        old = resolve(inc, doc_path, cache, ctx, options["diff"])
        width = _int(options["tab-width"], "tab-width") if "tab-width" in options else None
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
        text = text.expandtabs(_int(options["tab-width"], "tab-width"))
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


# -- pymdownx.snippets and markdown-include: textfrag.guard.snippets -------------------------------------


def _snippet_path(spec: str) -> tuple[str, str | None, str | None]:
    from .snippets import split_path

    return split_path(spec)


def _snippet_file(path: str, ctx: GuardContext) -> str | None:
    from .snippets import snippet_file

    return snippet_file(path, ctx)


def _markdown_include(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
    from .snippets import markdown_include_shown

    return markdown_include_shown(inc, cache, ctx)
