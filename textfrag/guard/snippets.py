"""pymdownx.snippets' includes, as its preprocessor finds them and computes what they put in a page (its
code read, its rules kept), for guard mode.

- Found: ``--8<-- "file"`` (``"file:5:9"``, ``"file:5"``, ``"file:name"``...) on a line of its own, and each
  path line of a block between two ``-8<-`` lines, on any line, code fences included (the snippets
  preprocessor runs before Markdown reads the page), not when escaped (``;--8<--``).
- Every file is read through the build's source cache, found under the snippets' base paths, never
  outside the root; nested snippets are expanded; a snippet from a URL is not guarded.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from ..documents.scan import LineIndex
from ..errors import PathError, TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, Shown, under_root
from .literal import place
from .model import MAX_LINE, GuardedInclude, IncludeEngine, search_shifts

__all__ = ["SNIPPETS", "split_path", "snippet_file", "snippet_lines", "shift_snippet_spec", "missing_snippet"]

#: nested includes followed at most this deep (the engines stop near Python's recursion limit)
MAX_DEPTH = 40

_SECTION_CHAR = re.compile(r"(?i)[-_0-9a-z]")
_LETTER = re.compile(r"(?i)[a-z]")


def split_path(path: str) -> tuple[str, str | None, str | None]:
    """pymdownx.snippets' ``split_path``: the path, its line ranges (``:1:5,10:``) and its section
    (``:name``), in linear time."""
    if ":" not in path:
        return path, None, None
    size = len(path)
    digits = [size] * (size + 1)
    for i in range(size - 1, -1, -1):
        digits[i] = digits[i + 1] if "0" <= path[i] <= "9" else i

    def number_end(i: int) -> int:
        return digits[i + 1] if i < size and path[i] == "-" else digits[i]

    tail = [False] * (size + 1)
    tail[size] = True
    for i in range(size - 1, -1, -1):
        if path[i] == "," and i + 1 < size and path[i + 1] in "-0123456789:":
            j = number_end(i + 1)
            if j < size and path[j] == ":":
                j = number_end(j + 1)
            tail[i] = tail[j]
    name = size
    while name > 0 and _SECTION_CHAR.fullmatch(path[name - 1]):
        name -= 1
    colon = path.find(":")
    while colon != -1:
        end = number_end(colon + 1)
        if end < size and path[end] == ":":
            end = number_end(end + 1)
        if tail[end]:
            return path[:colon], path[colon:], None
        if name <= colon + 1 < size and _LETTER.fullmatch(path[colon + 1]):
            return path[:colon], None, path[colon:]
        colon = path.find(":", colon + 1)
    return path, None, None


class _Target:
    """A snippet's path and what of it is wanted (``parse_snippet_target``)."""

    def __init__(self, spec: str) -> None:
        path, start, end, section = _target(spec)
        self.path = path
        self.start: list[int | None] = list(start)
        self.end: list[int | None] = list(end)
        self.section: str | None = section


@lru_cache(maxsize=4096)
def _target(spec: str) -> tuple[str, tuple[int | None, ...], tuple[int | None, ...], str | None]:
    """(path, starts, ends, section) of a snippet's path spec; the same spec on many pages read once."""
    path, ranges, section = split_path(spec)
    start: list[int | None] = []
    end: list[int | None] = []
    if ranges:
        for nums in ranges[1:].split(","):
            span = nums.split(":")
            st = int(span[0]) if span[0] else None
            start.append(st if st is None or st < 0 else max(0, st - 1))
            end.append(int(span[1]) if len(span) > 1 and span[1] else None)
    return path.strip(), tuple(start), tuple(end), section[1:] if section and not ranges else None


def snippet_file(path: str, ctx: GuardContext) -> str | None:
    """pymdownx.snippets' ``get_snippet_path``: the file under the first base path that has it."""
    for base in ctx.snippet_bases:
        b = str(base)
        if not os.path.exists(b):
            continue
        if os.path.isdir(b):
            if ctx.snippet_restrict:
                filename = os.path.abspath(os.path.join(b, path))
                if not filename.startswith(b + os.sep if not b.endswith(os.sep) else b):
                    continue
            else:
                filename = os.path.join(b, path)
            if os.path.exists(filename):
                return filename
        else:
            filename = os.path.join(os.path.dirname(b), path)
            if os.path.exists(filename) and os.path.samefile(filename, b):
                return filename
    return None


class _Snippets:
    """One include's expansion: the files read (under the root), and those open (a loop is not followed)."""

    def __init__(self, cache: SourceCache | None, ctx: GuardContext) -> None:
        self.cache, self.ctx = cache, ctx
        self.seen: set[str] = set()
        self.files: list[str] = []
        #: how many lines the first file read has (before its lines are chosen), and what it chose
        self.total = 0
        self.target: _Target | None = None

    def read(self, filename: str, written: str) -> list[str]:
        assert self.cache is not None
        rel = under_root(filename, written, self.cache)
        reader = self.cache.with_charset(self.ctx.snippet_encoding) if self.ctx.snippet_encoding else self.cache
        source = reader.get(rel, rel)
        lines = source.normal_lines() if source.text else []
        if not self.files:
            self.total = len(lines)
        if rel not in self.files:
            self.files.append(rel)
        return lines

    def select(self, lines: list[str], target: _Target) -> list[str]:
        if not lines:
            return lines
        if target.start and target.end:
            total = len(lines)
            out: list[str] = []
            for s, e in zip(target.start, target.end, strict=True):
                s_start = min(max(total + s, 0), total) if s and s < 0 else s
                s_end = min(max(total + 1 + e, 0), total) if e and e < 0 else e
                out.extend(lines[slice(s_start, s_end, None)])
            return self.dedent(out) if self.ctx.snippet_dedent else out
        if target.section:
            return self.section(target.section, lines)
        return lines

    def dedent(self, lines: list[str]) -> list[str]:
        return textwrap.dedent("\n".join(lines)).split("\n")

    def section(self, section: str, lines: list[str]) -> list[str]:
        out: list[str] = []
        start = False
        for line in lines:
            m = _match_section(line)
            if m and m.group("escape"):
                line = m.group("pre") + m.group("escape").replace(";", "", 1) + m.group("inline_marker") + m.group("section")
                line += m.group("post")
            elif m is not None and m.group("name") == section:
                if not start and m.group("type") == "start":
                    start = True
                    continue
                if start and m.group("type") == "start":
                    continue
                break  # (its end, or an end before any start)
            elif m and start:
                continue
            if start:
                out.append(line)
        return self.dedent(out) if self.ctx.snippet_dedent else out

    def expand(self, spec: str, depth: int = 0) -> list[str]:
        """The lines one path spec puts in the page (``parse_snippets`` for a path), nested ones expanded."""
        target = _Target(spec)
        if depth == 0:
            self.target = target
        if not target.path:
            return []
        _refuse_url(target.path)
        key = f"\0snippet\0{target.path}"  # (where a path is found, looked up once per build)
        known = self.cache.real_paths.get(key) if self.cache is not None else None
        found = (known or None) if known is not None else snippet_file(target.path, self.ctx)
        if self.cache is not None and known is None:
            self.cache.real_paths[key] = found or ""
        if found is None:
            raise missing_snippet(target.path, self.ctx, self.cache)
        if found in self.seen or depth > MAX_DEPTH:
            return []
        lines = self.select(self.read(found, target.path), target)
        return self.parse(lines, found, depth, is_section=target.section is not None)

    def parse(self, lines: list[str], file_name: str, depth: int, is_section: bool) -> list[str]:
        """``parse_snippets`` over an included file's lines: nested includes expanded, notation removed."""
        self.seen.add(file_name)
        out: list[str] = []
        block = False
        for line in lines:
            inline = False
            m = _ALL_SNIPPETS.match(line) if len(line) < 4096 else None
            if m:
                if m.group("escape"):
                    out.append(line.replace(";", "", 1))
                    continue
                if block and m.group("inline_marker"):
                    continue
                if m.group("inline_marker"):
                    inline = True
                else:
                    block = not block
                    continue
            elif not block:
                if not is_section:
                    m2 = _match_section(line)
                    if m2 and m2.group("escape"):
                        line = m2.group("pre") + m2.group("escape").replace(";", "", 1) + m2.group("inline_marker")
                        line += m2.group("section") + m2.group("post")
                        m2 = None
                    if m2 is not None:
                        continue
                out.append(line)
                continue
            path_match = m if inline else _BLOCK_PATH.match(line)
            assert path_match is not None
            space = path_match.group("space").expandtabs(self.ctx.tab_length)
            path = path_match.group("snippet")[1:-1].strip() if inline else path_match.group("snippet").strip()
            if not inline and not path:
                out.append("")
                continue
            if path.startswith(";"):
                continue
            try:
                nested = self.expand(path, depth + 1)
            except PathError as err:
                if err.no_such_file:
                    continue  # (a nested file that is not there: snippets leaves it out)
                raise
            out.extend(space + line2 for line2 in nested)
        self.seen.discard(file_name)
        return out


_SECTION = re.compile(
    r"""(?xi)^(?P<pre>.*?)(?<!;)(?!(?<=-)-)(?P<escape>;*)(?P<inline_marker>-{1,}8<-{1,}[ \t]+)"""
    r"""(?P<section>\[[ \t]*(?P<type>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\])(?P<post>.*?)$"""
)


def _match_section(line: str) -> re.Match[str] | None:
    return _SECTION.match(line) if "8<-" in line and len(line) < 4096 else None


def _refuse_url(path: str) -> None:
    if path.lower().startswith(("https://", "http://")):
        raise TextFragError(f"{path} is a URL: guard mode reads files under the root, not the web")


def _joined(lines: list[str]) -> str:
    """The shown text of a snippet: its lines, without the empty lines at its end (versions of
    pymdownx.snippets differ in whether a file's last line ending makes one)."""
    return "\n".join(lines).rstrip("\n")


def snippet_shown(inc: GuardedInclude, cache: SourceCache, ctx: GuardContext) -> Shown:
    """What a snippet include puts in the page (its own indentation aside)."""
    state = _Snippets(cache, ctx)
    lines = state.expand(inc.argument)
    if not state.files:
        raise TextFragError(f"the snippet {inc.argument} shows nothing")
    plain = None
    if len(state.files) == 1 and not ctx.snippet_dedent and state.target is not None:
        plain = _numbers(state.target, state.total)
    return Shown(_joined(lines), state.files[0], plain, tuple(state.files))


def _numbers(target: _Target, total: int) -> tuple[int, ...] | None:
    """The 1-based lines of a file of ``total`` lines a snippet shows as they are (the whole file, or its
    line ranges); None for a section or a range counted from the end."""
    if target.section is not None:
        return None
    if not target.start:
        return tuple(range(1, total + 1))
    numbers: list[int] = []
    for s, e in zip(target.start, target.end, strict=True):
        if (s is not None and s < 0) or (e is not None and e < 0):
            return None
        numbers.extend(range((s or 0) + 1, min(e if e is not None else total, total) + 1))
    return tuple(numbers)


def snippet_of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What a snippet include shows of a file whose text is ``text``, its line ranges moved by
    ``shift``; nested includes as they are now are not read (a version in history is compared alone)."""
    target = _Target(inc.argument)
    if shift:
        target.start = [None if s is None else s + shift for s in target.start]
        target.end = [None if e is None else e + shift for e in target.end]
        if any(s is not None and s < 0 for s in target.start):
            raise TextFragError("moved before the start of the file")
    state = _Snippets(None, ctx)
    normal = text.replace("\r\n", "\n").replace("\r", "\n")
    all_lines = normal.split("\n") if normal else []
    return _joined(state.select(all_lines, target)), _numbers(target, len(all_lines))


def missing_snippet(path: str, ctx: GuardContext, cache: SourceCache | None) -> PathError:
    """The problem of a snippet no base path holds: "no such file", or, where a base path lies outside the
    root, what a file found there is told (outside the root), so that a page cannot learn which files a
    machine has outside it."""
    if cache is not None:
        real_root = cache.real_root.rstrip(os.sep) + os.sep
        if any(not (os.path.realpath(b) + os.sep).startswith(real_root) for b in ctx.snippet_bases):
            return PathError(
                f"{path} is outside the textfrag root ({cache.root}): guard mode reads nothing outside it "
                "(set the root: --root, textfrag_root, root:)"
            )
    missing = PathError(f"no such file under the snippets' base_path: {path}")
    missing.no_such_file = True
    return missing


# pymdownx.snippets' own patterns (pymdownx/snippets.py): an include on a line of its own, or a block marker
_ALL_SNIPPETS = re.compile(
    r"""^(?P<space>[ \t]*)(?P<escape>;*)(?P<all>(?P<inline_marker>-{1,}8<-{1,}[ \t]+)"""
    r"""(?P<snippet>(?:"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))(?![ \t])|(?P<block_marker>-{1,}8<-{1,})(?![ \t]))\r?$"""
)
_BLOCK_PATH = re.compile(r"^(?P<space>[ \t]*)(?P<snippet>.*?)\r?$")


def snippet_lines(text: str) -> list[tuple[int, str, int, int]]:
    """(line offset, the line, start and end of the path in the text) of each snippet include of a page's
    lines, read as pymdownx.snippets reads them at the top level."""
    out = []
    block = False
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if ("8<-" not in line and not block) or len(line) > MAX_LINE:
            continue
        m = _ALL_SNIPPETS.match(line)
        if m is not None:
            if m.group("escape") or (block and m.group("inline_marker")):
                continue  # (escaped: text; an inline include directly in a block is ignored)
            if m.group("inline_marker"):
                raw = m.group("snippet")[1:-1]
                lead = len(raw) - len(raw.lstrip())
                path = raw.strip()
                at = start + m.start("snippet") + 1 + lead
                if path and not path.startswith(";"):
                    out.append((start, line, at, at + len(path)))
                continue
            block = not block
            continue
        if not block:
            continue
        b = _BLOCK_PATH.match(line)
        assert b is not None
        raw = b.group("snippet")
        path = raw.strip()
        if not path or path.startswith(";"):
            continue
        at = start + b.start("snippet") + (len(raw) - len(raw.lstrip()))
        out.append((start, line, at, at + len(path)))
    return out


def shift_snippet_spec(spec: str, d: int) -> str:
    """A snippet's ``file:5:9`` (``file:5``, ``file:1:3,8:9``) with every line moved by ``d``."""
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


class Snippets(IncludeEngine):
    """pymdownx.snippets' ``--8<--`` includes."""

    kind = "snippet"
    runnable = True  # (markdown_textfrag.engines runs the engine's own code)

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        if "8<-" not in text:
            return []
        lines = LineIndex(text)
        out = []
        for start, line, a, b in snippet_lines(text):
            number, column = place(lines, a)
            end = start + len(line.rstrip("\r"))
            out.append(GuardedInclude(doc, number, column, self, text[a:b], (), start, end, (a, b)))
        return out

    def key(self, inc: GuardedInclude) -> str:
        return f"snippet {inc.argument}"

    def path_of(self, argument: str) -> str:
        return split_path(argument)[0].strip()

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        path = self.path_of(inc.argument if argument is None else argument)
        _refuse_url(path)
        found = snippet_file(path, ctx)
        if found is None:
            raise missing_snippet(path, ctx, cache)
        return under_root(found, path, cache)

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        path = self.path_of(inc.argument)
        return next((os.path.realpath(base / path) for base in ctx.snippet_bases if base.is_dir()), None)

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        _, ranges, section = split_path(inc.argument)
        for base in ctx.snippet_bases:
            real_base = os.path.realpath(base)
            if base.is_dir() and new_real.startswith(real_base.rstrip(os.sep) + os.sep):
                return Path(os.path.relpath(new_real, real_base)).as_posix() + (ranges or section or "")
        return None

    def charset(self, inc: GuardedInclude, ctx: GuardContext) -> str | None:
        return ctx.snippet_encoding or None

    def joined(self, lines: list[str]) -> str:
        return _joined(lines)

    def modelled(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        return snippet_shown(inc, cache, ctx)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return snippet_of_text(inc, text, ctx, shift)

    def shift_search(self, inc: GuardedInclude, ctx: GuardContext) -> Callable[[str, str], list[int]] | None:
        target = _Target(inc.argument)
        if not target.start or target.section is not None or ctx.snippet_dedent:
            return None
        if any((s is not None and s < 0) or (e is not None and e < 0) for s, e in zip(target.start, target.end, strict=True)):
            return None
        select = _Snippets(None, ctx).select

        def snippet(text: str, record: str) -> list[int]:
            normal = text.replace("\r\n", "\n").replace("\r", "\n")
            lines = normal.split("\n") if normal else []
            return search_shifts(
                len(lines), record, lambda d: _joined(select(lines, _Target(shift_snippet_spec(inc.argument, d))))
            )

        return snippet

    def shift(self, spec: str, d: int) -> str:
        return shift_snippet_spec(spec, d)


#: the engine's one object
SNIPPETS = Snippets()
