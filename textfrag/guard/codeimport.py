"""remark-code-import's includes (Docusaurus and other remark sites), as the plugin reads and shows them.

A fenced code block whose info string holds ``file=./app.js`` (from the page's folder, or
``file=<rootDir>/app.js`` from the folder the site is built in) shows that file in place of its own
content: ``#L3-L6`` lines 3 to 6, ``#L3`` line 3, ``#L3-`` from line 3 (a last empty line left out), the
whole file otherwise (its last newline left out). Lines are split at ``\\n`` only, as the plugin splits
them on Linux (a ``\\r`` stays at the end of its line).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .includes import code_import_spec
from .model import GuardedInclude

__all__ = ["of_text", "file_of", "shift_code_import", "shiftable"]


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) a code block imports: ``<rootDir>`` is the site's folder."""
    path = code_import_spec(inc.argument if argument is None else argument)[0].replace("\\ ", " ")
    if path.startswith("<rootDir>"):
        target = ctx.include_base / path[len("<rootDir>") :].lstrip("/")
    else:
        target = doc_path.parent / path
    return under_root(str(target), path, cache)


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
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


def shift_code_import(argument: str, d: int) -> str:
    """``file=./app.js#L3-L6`` with its line numbers moved by ``d``."""

    def moved(m: re.Match[str]) -> str:
        value = int(m.group(1))
        if value + d < 1:
            raise TextFragError("moved before the start of the file")
        return f"L{value + d}"

    path, _, rest = argument.rpartition("#")
    if not path or not re.fullmatch(r"(?:L\d+-?)?(?:L\d+)?", rest):
        return argument
    return f"{path}#" + re.sub(r"L(\d+)", moved, rest)


def shiftable(inc: GuardedInclude) -> bool:
    """Whether the block names lines (its numbers can follow moved text)."""
    return code_import_spec(inc.argument)[1] is not None or code_import_spec(inc.argument)[3] is not None
