"""What a ``pymdownx.snippets`` include and a markdown-include include put in a page, as those
preprocessors compute it (their code read, their rules kept), for guard mode (textfrag.guard.shown).

Every file is read through the build's source cache, found as the engine finds it (snippets' base
paths, markdown-include's base path), never outside the root; a snippet from a URL is not guarded.
"""

from __future__ import annotations

import os
import re
import textwrap
from functools import lru_cache

from ..errors import PathError, TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, Shown, under_root
from .model import GuardedInclude, IncludeMatch, markdown_include_matches

__all__ = [
    *("split_path", "snippet_file", "snippet_shown", "snippet_of_text"),
    *("markdown_include_shown", "markdown_include_of_text"),
]

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
        if target.path.lower().startswith(("https://", "http://")):
            raise TextFragError(f"{target.path} is a URL: guard mode reads files under the root, not the web")
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
        from .includes import _ALL_SNIPPETS, _BLOCK_PATH

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


# -- markdown-include ------------------------------------------------------------------------------------

_HEADING = re.compile("^#+")


def _first_include(line: str) -> IncludeMatch | None:
    """markdown-include's first ``{!file!}`` of a line (its pattern's ``search``, in one pass)."""
    if len(line) >= 4096 or "{!" not in line:
        return None
    found = markdown_include_matches(line)
    return found[0] if found else None


def _without_includes(line: str) -> str:
    """The line with every ``{!file!}`` taken out (its pattern's ``sub("", line)``)."""
    out, pos = [], 0
    for m in markdown_include_matches(line):
        out.append(line[pos : m.start])
        pos = m.end
    return "".join(out) + line[pos:]


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


def _include_file(name: str, ctx: GuardContext) -> str:
    name = os.path.expanduser(name)
    return name if os.path.isabs(name) else os.path.normpath(os.path.join(ctx.include_base, name))


def _wanted(lines_str: str, original: list[str]) -> list[str]:
    """markdown-include's ``lines=`` (a line past the end is the last line, as it warns and takes)."""
    wanted: list[str] = []
    for block in lines_str.split():
        if "-" in block:
            start, end = block.strip().split("-")
            current_start, current_end = int(start), int(end)
            if not len(original) >= current_end:
                current_end = len(original)
            if not current_start <= current_end:
                current_start = max(current_end - 1, 1)
            wanted.extend(original[current_start - 1 : current_end])
        else:
            current = min(int(block.strip()), len(original))
            wanted.append(original[current - 1])
    return wanted


def _insert(text: list[str], ctx: GuardContext) -> str:
    for i in range(len(text)):
        if ctx.heading_offset and _HEADING.search(text[i]):
            text[i] = "#" * ctx.heading_offset + text[i]
        text[i] = text[i].rstrip("\r\n")
    return "\r\n".join(text or [""]).strip()


def _run(lines: list[str], cache: SourceCache, ctx: GuardContext, files: list[str], depth: int) -> list[str]:
    """markdown-include's ``run`` over an included file's lines (nested includes, base path relative)."""
    out = list(lines)
    loc = 0
    while loc < len(out):
        line = out[loc]
        m = _first_include(line)
        while m is not None and depth < MAX_DEPTH:
            try:
                original = _included(m.path, cache, ctx, files, depth + 1)
            except PathError:
                out[loc] = _without_includes(line)
                break
            text = original if m.lines is None else _wanted(m.lines, original)
            line = line[: m.start] + _insert(list(text), ctx) + line[m.end :]
            out[loc : loc + 1] = line.splitlines()
            m = _first_include(line)
        loc += 1
    return out


def _included(name: str, cache: SourceCache, ctx: GuardContext, files: list[str], depth: int) -> list[str]:
    rel = under_root(_include_file(name, ctx), name, cache)
    if rel not in files:
        files.append(rel)
    reader = cache.with_charset(ctx.include_encoding) if ctx.include_encoding else cache
    return _run(reader.get(rel, rel).text.splitlines(True), cache, ctx, files, depth)


def markdown_include_shown(inc: GuardedInclude, cache: SourceCache, ctx: GuardContext) -> Shown:
    """What ``{!file!}`` (``{!file!lines=...}``) puts in the page in its place."""
    files: list[str] = []
    original = _included(inc.argument, cache, ctx, files, 0)
    spec = inc.option("lines")
    text = original if spec is None else _wanted(spec, original)
    inserted = _insert(list(text), ctx)
    plain = None
    if len(files) == 1 and not ctx.heading_offset:
        plain = _include_numbers(spec, len(original))
    return Shown("\n".join(inserted.splitlines()), files[0], plain, tuple(files))


def _include_numbers(spec: str | None, total: int) -> tuple[int, ...] | None:
    if spec is None:
        return tuple(range(1, total + 1))
    numbers: list[int] = []
    for block in spec.split():
        a, _, b = block.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            return None
        numbers.extend(range(int(a), min(int(b or a), total) + 1))
    return tuple(numbers)


def markdown_include_of_text(
    inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0
) -> tuple[str, tuple[int, ...] | None]:
    """What a markdown-include include shows of a file whose text is ``text`` (its ``lines=`` moved by
    ``shift``); nested includes are not read."""
    original = text.splitlines(True)
    spec = inc.option("lines")
    if spec is not None and shift:
        spec = shift_include_lines(spec, shift)
    chosen = original if spec is None else _wanted(spec, original)
    return "\n".join(_insert(list(chosen), ctx).splitlines()), _include_numbers(spec, len(original))


def shift_include_lines(spec: str, shift: int) -> str:
    """markdown-include's ``lines=5-9 12`` with every number moved by ``shift``."""
    out = []
    for block in spec.split():
        a, dash, b = block.partition("-")
        if int(a) + shift < 1:
            raise TextFragError("moved before the start of the file")
        out.append(f"{int(a) + shift}{dash}{int(b) + shift if b else ''}")
    return " ".join(out)
