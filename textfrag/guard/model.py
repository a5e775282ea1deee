"""What a guarded include is, and what an include engine is: the one interface every engine implements.

Each include has a key: what it selects as written (the kind, the file as written, the options that
change what it shows), which is what its record is kept under in the lock file. Moving an include in its
document, or changing how it is displayed (a caption, highlighted lines, numbering), changes no key.

Each include carries its engine (:class:`IncludeEngine`): the one object that knows how that engine finds
its includes in a page, the file an include names, what it shows of a text, how its line numbers move,
how it names a renamed file, and its key. Every engine is one module (textfrag.guard.literal, .snippets,
.mdinclude, .mdxinclude, .variants, .mdbook, .asciidoc, .vitepress, .codeimport) with one such object, and
textfrag.guard.registry lists them; the judge, the explanation and the repair only call the interface.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import TextFragError
from .context import GuardContext, Shown
from .lock import record_of

if TYPE_CHECKING:
    from ..source.cache import SourceCache

__all__ = [
    *("GuardedInclude", "IncludeEngine", "Edits", "SELECTING", "MAX_LINE", "ADOC_SUFFIXES"),
    *("search_shifts", "shift_numbers"),
]

#: an include is a short line: longer ones are not read (the engines' own patterns backtrack on them)
MAX_LINE = 4096

#: AsciiDoc documents
ADOC_SUFFIXES = frozenset({".adoc", ".asciidoc", ".asc"})

#: literalinclude's options that change the text it shows, in the order its reader applies them
SELECTING: tuple[str, ...] = ("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "dedent")
SELECTING += ("tab-width", "encoding", "prepend", "append", "diff")
SELECTING += ("start-line", "end-line")  # (mystmd's)

#: (start, end, new text) of each edit of a document
Edits = tuple[tuple[int, int, str], ...]


@dataclass(frozen=True)
class GuardedInclude:
    """One include as written: where it is, what it names, and the offsets ``update`` rewrites."""

    doc: str  # the document as shown
    line: int  # 1-based
    column: int  # 1-based
    engine: IncludeEngine  # the engine that reads it
    #: the file as written: literalinclude's argument, the snippet's path with its lines or section
    #: (``src/app.py:5:9``), markdown-include's file
    argument: str
    #: the options as written (name, value): literalinclude's, markdown-include's ``lines``...
    options: tuple[tuple[str, str], ...]
    start: int  # offsets of the whole include in the document
    end: int
    argument_span: tuple[int, int]
    #: (name, start, end) of each option's value in the document
    option_spans: tuple[tuple[str, int, int], ...] = ()
    #: the options whose value is followed by spaces on its line, with them (mystmd reads them)
    trailing: tuple[tuple[str, str], ...] = ()
    #: AsciiDoc: the document attributes defined above the include (``:name: value``) that its file's name
    #: uses, with their values (part of its key; never every attribute, which would grow with the page)
    named: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> str | None:
        """The value of an option as written (None: not given)."""
        return next((value for key, value in self.options if key == name), None)

    @property
    def kind(self) -> str:
        """The engine's name for its includes ("literalinclude", "snippet", "mdbook"...)."""
        return self.engine.kind

    @property
    def key(self) -> str:
        """What the include selects, as written: its record's key in the lock file."""
        return self.engine.key(self)

    @property
    def text(self) -> str:
        """The include in a message (its key: what it selects)."""
        return self.key


class IncludeEngine:
    """One include engine, as textfrag reads it without running it: a subclass per engine, one object each.

    A subclass says how the engine finds its includes (:meth:`find`), the file one names (:meth:`file_of`),
    what it shows of a file's text (:meth:`of_text`) and its key (:meth:`key`); the rest has defaults that
    an engine overrides where it differs (nested includes in :meth:`shown`, its encoding in :meth:`read`,
    the form of its numbers in :meth:`shift`, how it names a renamed file in :meth:`renamed`).
    """

    #: its includes' kind, in messages and in the lock file's keys
    kind: str = ""
    #: the option that holds the include's line numbers (None: its argument holds them, if any)
    numbers_option: str | None = None

    # -- finding -------------------------------------------------------------------------------------------

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        """The engine's includes of a page (``doc``: its name as shown), found as the engine finds them."""
        raise NotImplementedError

    def key(self, inc: GuardedInclude) -> str:
        """What the include selects as written: its key in the lock file (unique per include the engine
        tells apart)."""
        raise NotImplementedError

    # -- the file ------------------------------------------------------------------------------------------

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        """The file (under the root) the include names (``argument``: another argument as written);
        :class:`~textfrag.errors.PathError` when there is none or it is outside the root."""
        raise NotImplementedError

    def path_of(self, argument: str) -> str:
        """The file's name in an argument as written (the rest, lines or a region, left out)."""
        return argument

    def base_of(self, inc: GuardedInclude, doc_path: Path, ctx: GuardContext) -> Path:
        """The folder a relative file name starts from (the page's folder unless the engine says)."""
        return doc_path.parent

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        """The real path the include's file has, or had when it is not there (None: not known)."""
        path = os.path.expanduser(self.path_of(inc.argument))
        return os.path.realpath(path if os.path.isabs(path) else self.base_of(inc, doc_path, ctx) / path)

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        """The argument that names the file at its new real path, in the form the include names files
        (its lines or region kept); None when it cannot be said."""
        path = self.path_of(inc.argument)
        if os.path.isabs(os.path.expanduser(path)):
            new = new_real
        else:
            new = Path(os.path.relpath(new_real, os.path.realpath(self.base_of(inc, doc_path, ctx)))).as_posix()
        return new + inc.argument[len(path) :]

    # -- what it shows -------------------------------------------------------------------------------------

    def read(self, inc: GuardedInclude, cache: SourceCache, rel: str, ctx: GuardContext) -> str:
        """The text of a file under the root as the engine reads it (its encoding)."""
        return cache.get(rel, rel).text

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        """What the include shows of a file whose text is ``text`` (its line numbers moved by ``shift``), and
        the file's 1-based lines it shows as they are (None: not a run of the file's lines)."""
        raise NotImplementedError

    def shown(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        """What the include shows now (each file read once, through the build's cache), the includes in it
        followed as the engine follows them (:meth:`nested`); :class:`~textfrag.errors.TextFragError` when it
        shows nothing, in the engine's terms."""
        rel = self.file_of(inc, doc_path, cache, ctx)
        text, lines = self.of_text(inc, self.read(inc, cache, rel, ctx), ctx)
        expanded, inner = self.nested(inc, text, rel, cache, ctx)
        if expanded != text:
            return Shown(expanded, rel, None, (rel, *dict.fromkeys(inner)))
        return Shown(text, rel, lines, (rel,))

    def nested(
        self, inc: GuardedInclude, text: str, rel: str, cache: SourceCache, ctx: GuardContext
    ) -> tuple[str, tuple[str, ...]]:
        """What the engine makes of the includes in ``text`` (what ``inc`` showed of the file ``rel``), and the
        files they read: none by default (an engine that follows nested includes says how)."""
        return text, ()

    def unrecoverable(self, inc: GuardedInclude) -> str | None:
        """Why git history cannot tell what the include showed (None: it can)."""
        return None

    # -- moved lines ---------------------------------------------------------------------------------------

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        """Whether the include names lines by number (they can follow moved text)."""
        return False

    def shift_search(self, inc: GuardedInclude, ctx: GuardContext) -> Callable[[str, str], list[int]] | None:
        """A search of the shifts (``d``, nearest first) at which the include, its lines moved by ``d``,
        shows a recorded text, given the file's text; None for an include that follows its text by itself
        (an object, markers, a region) or shows a whole file."""
        if not self.shiftable(inc, ctx):
            return None

        def search(text: str, record: str) -> list[int]:
            return search_shifts(text.count("\n") + 1, record, lambda d: self.of_text(inc, text, ctx, d)[0])

        return search

    def shift(self, spec: str, d: int) -> str:
        """The include's numbers (its argument, or its :attr:`numbers_option`'s value) moved by ``d``, in
        its own syntax; :class:`~textfrag.errors.TextFragError` when one would move before the first line."""
        raise NotImplementedError

    def shifted(self, inc: GuardedInclude, d: int, text: str, ctx: GuardContext) -> tuple[Edits, GuardedInclude]:
        """The include with its lines moved by ``d`` (``text``: its file's): the document's edits and the
        include once edited."""
        name = self.numbers_option
        if name is None:
            argument = self.shift(inc.argument, d)
            return ((*inc.argument_span, argument),), dataclasses.replace(inc, argument=argument)
        spec = self.shift(inc.option(name) or "", d)
        edits = tuple((start, end, spec) for option, start, end in inc.option_spans if option == name)
        return edits, dataclasses.replace(inc, options=tuple((k, spec if k == name else v) for k, v in inc.options))


def search_shifts(total: int, record: str, shown: Callable[[int], str]) -> list[int]:
    """The shifts (every one within a file of ``total`` lines, nearest first, at most 20,000 lines each
    way) at which ``shown(d)`` is the recorded text."""
    length = record.split(";", 1)[0].partition("=")[2]
    found = []
    for k in range(1, min(total, 20_000) + 1):
        for d in (k, -k):
            try:
                text = shown(d)
            except (TextFragError, IndexError, ValueError):
                continue
            if str(len(text)) == length and record_of(text) == record:
                found.append(d)
    return found


def shift_numbers(spec: str, d: int, numbers: re.Pattern[str]) -> str:
    """``spec`` with every line number ``numbers`` finds in it moved by ``d`` (each engine's own pattern says
    which digits are line numbers); :class:`TextFragError` when one would move before the first line."""

    def moved(m: re.Match[str]) -> str:
        value = int(m.group(0))
        if value + d < 1:
            raise TextFragError("moved before the start of the file")
        return str(value + d)

    return numbers.sub(moved, spec)
