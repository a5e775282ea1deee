"""Where a moved include would show its recorded text again: for each kind of include whose lines are
given by number, a search of the shifts (nearest first) at which the include, its numbers moved, shows a
recorded text; and the include's numbers moved, in its own syntax."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import TextFragError
from .context import GuardContext
from .lock import record_of
from .model import LITERALINCLUDE, SNIPPET, GuardedInclude
from .shown import literal_of_lines, one_file_engine, shift_line_spec

__all__ = ["shiftable_search", "moved_bounds", "shift_snippet_spec"]


def shiftable_search(inc: GuardedInclude, ctx: GuardContext) -> Callable[[str, str], list[int]] | None:
    """A search of the shifts (``d``, nearest first) at which the include, its lines moved by ``d``,
    shows a recorded text; None for an include that follows its text by itself (an object, markers, a
    section) or shows a whole file. The file is split once; each shift costs the lines it shows."""
    if inc.kind == LITERALINCLUDE and ctx.literal_reader == "mystmd":
        from .myst import myst_lines

        written = dict(inc.options)
        spec = written.get("lines") or ""  # (mystmd reads no other selecting option beside :lines:)
        if spec:

            def myst(text: str, record: str) -> list[int]:
                lines = text.split("\n")
                return _search(len(lines), record, lambda d: myst_lines({"lines": shift_line_spec(spec, d)}, lines)[0])

            return myst
        try:
            moved_bounds(written, 0)
        except ValueError:
            return None  # (no :start-line:/:end-line:, or one that is not a line number)

        def bounds(text: str, record: str) -> list[int]:
            lines = text.split("\n")
            return _search(len(lines), record, lambda d: myst_lines(moved_bounds(written, d), lines)[0])

        return bounds
    if inc.kind == LITERALINCLUDE:
        options = dict(inc.options)
        spec = options.get("lines") or ""
        if not spec or {"pyobject", "start-after", "start-at", "end-before", "end-at", "diff"} & set(options):
            return None

        def literal(text: str, record: str) -> list[int]:
            normal = text.replace("\r\n", "\n").replace("\r", "\n")
            if "tab-width" in options:
                normal = normal.expandtabs(int(options["tab-width"]))
            lines = normal.splitlines(True)
            return _search(len(lines), record, lambda d: literal_of_lines(options, lines, shift_line_spec(spec, d)))

        return literal
    if inc.kind == SNIPPET:
        from .snippets import _joined, _Snippets, _Target

        target = _Target(inc.argument)
        if not target.start or target.section is not None or ctx.snippet_dedent:
            return None
        if any((s is not None and s < 0) or (e is not None and e < 0) for s, e in zip(target.start, target.end, strict=True)):
            return None
        select = _Snippets(None, ctx).select

        def snippet(text: str, record: str) -> list[int]:
            normal = text.replace("\r\n", "\n").replace("\r", "\n")
            lines = normal.split("\n") if normal else []
            return _search(len(lines), record, lambda d: _joined(select(lines, _Target(shift_snippet_spec(inc.argument, d)))))

        return snippet
    engine = one_file_engine(inc.kind)
    if engine is not None:  # (mdBook, AsciiDoc, VitePress, remark-code-import, FastAPI's variants)
        if not engine.shiftable(inc):
            return None
        read = engine

        def one_file(text: str, record: str) -> list[int]:
            return _search(text.count("\n") + 1, record, lambda d: read.of_text(inc, text, ctx, d)[0])

        return one_file
    include_spec = inc.option("lines")
    if include_spec is None or ctx.heading_offset:
        return None
    from .snippets import _insert, _wanted, shift_include_lines

    def included(text: str, record: str) -> list[int]:
        original = text.splitlines(True)
        assert include_spec is not None
        return _search(
            len(original),
            record,
            lambda d: "\n".join(_insert(_wanted(shift_include_lines(include_spec, d), original), ctx).splitlines()),
        )

    return included


def _search(total: int, record: str, shown: Callable[[int], str]) -> list[int]:
    """The shifts at which ``shown(d)`` is the recorded text, nearest first."""
    length = record.split(";", 1)[0].partition("=")[2]
    found = []
    for d in _nearest(total):
        try:
            text = shown(d)
        except (TextFragError, IndexError, ValueError):
            continue
        if str(len(text)) == length and record_of(text) == record:
            found.append(d)
    return found


def _nearest(total: int) -> list[int]:
    """Every shift within the file, nearest first (1, -1, 2, -2, ...); at most 20,000 lines each way."""
    limit = min(total, 20_000)
    out = []
    for k in range(1, limit + 1):
        out += [k, -k]
    return out


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


def shift_snippet_spec(spec: str, d: int) -> str:
    """A snippet's ``file:5:9`` (``file:5``, ``file:1:3,8:9``) with every line moved by ``d``."""
    from .snippets import split_path

    path, ranges, _ = split_path(spec)
    if not ranges:
        return spec
    parts = []
    for nums in ranges[1:].split(","):
        a, colon, b = nums.partition(":")
        start = int(a or 1) + d
        if start < 1:
            raise TextFragError("moved before the start of the file")
        parts.append(f"{start}{colon}{int(b) + d if b else ''}")
    return f"{path}:{','.join(parts)}"
