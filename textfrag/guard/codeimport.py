"""remark-code-import's includes (Docusaurus and other remark sites), as the plugin reads and shows them.

A fenced code block whose info string holds ``file=./app.js`` (from the page's folder, or
``file=<rootDir>/app.js`` from the folder the site is built in) shows that file in place of its own
content: ``#L3-L6`` lines 3 to 6, ``#L3`` line 3, ``#L3-`` from line 3 (a last empty line left out), the
whole file otherwise (its last newline left out). Lines are split at ``\\n`` only, as the plugin splits
them on Linux (a ``\\r`` stays at the end of its line).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..documents.found import trimmed
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import MAX_LINE, GuardedInclude, IncludeEngine, shift_numbers

__all__ = ["CODE_IMPORT", "code_import_spec", "shift_code_import"]


def _file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) a code block imports: ``<rootDir>`` is the site's folder."""
    path = code_import_spec(inc.argument if argument is None else argument)[0].replace("\\ ", " ")
    if path.startswith("<rootDir>"):
        target = ctx.include_base / path[len("<rootDir>") :].lstrip("/")
    else:
        target = doc_path.parent / path
    return under_root(str(target), path, cache)


def _of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the block shows of a file whose text is ``text`` (its lines moved by ``shift``), and the 1-based
    lines it shows."""
    argument = shift_code_import(inc.argument, shift) if shift else inc.argument
    _, first, dash, last = code_import_spec(argument)
    lines = text.split("\n")
    start = first or 1
    if not dash:
        end = start
    elif last:
        end = last
    elif lines[-1] == "":
        end = len(lines) - 1
    else:
        end = len(lines)
    taken = lines[start - 1 : end]
    return "\n".join(taken), tuple(range(start, start + len(taken)))


#: the line numbers of a "#L3-L6"
_LINE_NUMBERS = re.compile(r"(?<=L)\d+")


def shift_code_import(argument: str, d: int) -> str:
    """``file=./app.js#L3-L6`` with its line numbers moved by ``d``."""
    path, _, rest = argument.rpartition("#")
    if not path or not re.fullmatch(r"(?:L\d+-?)?(?:L\d+)?", rest):
        return argument
    return f"{path}#" + shift_numbers(rest, d, _LINE_NUMBERS)


def _shiftable(inc: GuardedInclude) -> bool:
    """Whether the block names lines (its numbers can follow moved text)."""
    return code_import_spec(inc.argument)[1] is not None or code_import_spec(inc.argument)[3] is not None


class CodeImport(IncludeEngine):
    """remark-code-import's fenced code blocks with ``file=``."""

    kind = "code-import"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return _code_imports(text, doc) if "file=" in text else []

    def key(self, inc: GuardedInclude) -> str:
        return f"```{inc.argument}"

    def path_of(self, argument: str) -> str:
        return "file=" + code_import_spec(argument)[0]

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        path = code_import_spec(inc.argument)[0].replace("\\ ", " ")
        if path.startswith("<rootDir>"):
            return os.path.realpath(ctx.include_base / path[len("<rootDir>") :].lstrip("/"))
        return os.path.realpath(doc_path.parent / path)

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        path = code_import_spec(inc.argument)[0]
        if path.startswith("<rootDir>") or "\\ " in path:
            return None  # (left for the writer to say)
        new = Path(os.path.relpath(new_real, os.path.realpath(doc_path.parent))).as_posix()
        if path.startswith("./") and not new.startswith("../"):
            new = "./" + new  # (written as it was)
        return "file=" + new + inc.argument[len("file=" + path) :]

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return _file_of(inc, doc_path, cache, ctx, argument)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return _of_text(inc, text, ctx, shift)

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        return _shiftable(inc)

    def shift(self, spec: str, d: int) -> str:
        return shift_code_import(spec, d)


#: the engine's one object
CODE_IMPORT = CodeImport()


# remark-code-import's file= meta (its own pattern)
_CODE_IMPORT = re.compile(r"^file=(?P<path>.+?)(?:(?:#(?:L(?P<from>\d+)(?P<dash>-)?)?)(?:L(?P<to>\d+))?)?$")
_CODE_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)\r?$")


def code_import_spec(argument: str) -> tuple[str, int | None, bool, int | None]:
    """(path, first line, whether a range runs on, last line) of a ``file=`` meta, as remark-code-import
    reads it."""
    m = _CODE_IMPORT.match(argument)
    if m is None:
        return argument, None, True, None
    first = int(m.group("from")) if m.group("from") else None
    return m.group("path"), first, bool(m.group("dash")) or first is None, int(m.group("to")) if m.group("to") else None


def _code_imports(text: str, doc: str) -> list[GuardedInclude]:
    """The fenced code blocks whose info string holds ``file=``: each an include."""
    out = []
    fence = ""
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
        m = _CODE_FENCE.match(line) if len(line) <= MAX_LINE else None
        if fence:
            if m is not None and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence) and not line[slice(*trimmed(m, 3))]:
                fence = ""
            continue
        if m is None:
            continue
        fence = m.group(2)
        info = line[slice(*trimmed(m, 3))]
        at = m.start(3)
        for token in re.finditer(r"(?:\\ |\S)+", info):
            if token.group(0).startswith("file="):
                a = start + at + token.start()
                span = (a, a + len(token.group(0)))
                out.append(
                    GuardedInclude(
                        doc, number, at + token.start() + 1, CODE_IMPORT, token.group(0), (), start, start + len(line), span
                    )
                )
                break
    return out
