"""What a guarded include is, and what an include engine is: the one interface every engine implements.

Each include has a key: what it selects as written (the kind, the file as written, the options that
change what it shows), which is what its record is kept under in the lock file. Moving an include in its
document, or changing how it is displayed (a caption, highlighted lines, numbering), changes no key.

Each include carries its engine (:class:`IncludeEngine`): the one object that knows how that engine finds
its includes in a page, the file an include names, what it shows of a text, how its line numbers move,
how it names a renamed file, and its key. Every engine is one module (textfrag.guard.literal, .snippets,
.mdinclude, .mdxinclude, .variants, .mdbook, .asciidoc, .vitepress, .codeimport) with one such object, and
textfrag.guard.registry lists them; the judge, the explanation and the repair only call the interface.

An engine's own code, where it can be run (:class:`EngineRun`). textfrag's core imports no engine: each
engine module reads its includes with a model of the engine, held to the engine by differential
properties. Where the engine is a Python package with a hook for reading files, an adapter that may
import it (markdown_textfrag for pymdownx.snippets and mdx_include) offers an :class:`EngineRun` through the entry point group
``textfrag.engines`` (the entry's name: the includes' kind), and the engine module asks it what an
include shows. The engine's code then chooses the lines and follows nested includes; every file it reads
still comes through the build's :class:`~textfrag.source.cache.SourceCache` (each once, never outside the
root), so running it costs no more than the model's own reading.

An engine that is not installed, or an adapter that cannot load, leaves the model in its place: the
verdict is the same one, and ``GuardContext.run_engines`` switches the running off (the differential
properties use it to hold the model itself to the engine).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import TextFragError
from .context import GuardContext, Shown, under_root
from .lock import record_of

if TYPE_CHECKING:
    from ..source.cache import SourceCache

__all__ = [
    *("GuardedInclude", "IncludeEngine", "Edits", "SELECTING", "MAX_LINE", "ADOC_SUFFIXES"),
    *("search_shifts", "shift_numbers"),
    *("EngineRun", "Reading", "engine_run", "engines_run"),
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


#: the entry point group of engine runs
GROUP = "textfrag.engines"


class EngineRun(Protocol):
    """One engine's own code, run on one include at a time."""

    #: the includes it runs (an :class:`~textfrag.guard.model.IncludeEngine`'s kind)
    kind: str
    #: the engine and its version, as a status line says it ("pymdown-extensions 13.1.2")
    engine: str

    def lines(self, inc: GuardedInclude, ctx: GuardContext, read: Callable[[str], str]) -> list[str]:
        """The lines the engine puts in a page in place of ``inc`` (written alone on its line), every file
        it reads read through ``read`` (the file's path as the engine makes it -> its text), which raises
        :class:`~textfrag.errors.PathError` for a file that is not there or lies outside the root."""
        ...


class Reading:
    """The files one include's expansion reads, through the build's cache, never outside the root: the
    ``read`` an :class:`EngineRun` is given, and what it read (in order; the number of lines of the first)."""

    def __init__(self, cache: SourceCache, charset: str | None) -> None:
        self.cache = cache.with_charset(charset) if charset else cache
        self.files: list[str] = []
        self.total = 0

    def __call__(self, filename: str) -> str:
        rel = under_root(filename, filename, self.cache)
        text = self.cache.get(rel, rel).text
        if not self.files:
            self.total = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")) if text else 0
        if rel not in self.files:
            self.files.append(rel)
        return text


@lru_cache(maxsize=1)
def _entries() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {entry.name: entry for entry in entry_points(group=GROUP)}


@cache
def _loaded(kind: str) -> EngineRun | None:
    """The run of ``kind``'s engine, loaded the first time one of its includes is read (an engine whose
    includes a project does not have is never imported)."""
    entry = _entries().get(kind)
    if entry is None:
        return None
    try:
        run = entry.load()()
    except (ImportError, AttributeError, TypeError, ValueError):
        return None  # (the engine, or its hook, is not installed here: the model reads its includes)
    return run if getattr(run, "kind", None) == kind else None


def engine_run(kind: str, ctx: GuardContext) -> EngineRun | None:
    """The engine's own code for includes of ``kind``, where an installed adapter runs it and ``ctx``
    allows it (None: the model reads them)."""
    return _loaded(kind) if ctx.run_engines else None


def engines_run() -> dict[str, str]:
    """Each kind of include whose engine's own code says what it shows here: kind -> the engine (every
    engine offered is loaded)."""
    return {kind: run.engine for kind in _entries() if (run := _loaded(kind)) is not None}


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
    #: whether an installed adapter may offer the engine's own code (:class:`EngineRun`): only such an
    #: engine looks for one, so that the others never pay for the entry points' lookup
    runnable: bool = False

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

    def charset(self, inc: GuardedInclude, ctx: GuardContext) -> str | None:
        """The encoding the engine reads the include's files in (None: the cache's own)."""
        return None

    def read(self, inc: GuardedInclude, cache: SourceCache, rel: str, ctx: GuardContext) -> str:
        """The text of a file under the root as the engine reads it (its encoding)."""
        charset = self.charset(inc, ctx)
        return (cache.with_charset(charset) if charset else cache).get(rel, rel).text

    def joined(self, lines: list[str]) -> str:
        """The text of the lines the engine puts in a page (what the lock file records of them)."""
        return "\n".join(lines)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        """What the include shows of a file whose text is ``text`` (its line numbers moved by ``shift``), and
        the file's 1-based lines it shows as they are (None: not a run of the file's lines)."""
        raise NotImplementedError

    def shown(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        """What the include shows now (each file read once, through the build's cache), the includes in it
        followed as the engine follows them (:meth:`nested`); :class:`~textfrag.errors.TextFragError` when it
        shows nothing, in the engine's terms."""
        run = engine_run(self.kind, ctx) if self.runnable else None
        if run is None:
            return self.modelled(inc, doc_path, cache, ctx)
        rel = self.file_of(inc, doc_path, cache, ctx)
        try:
            return self.run(inc, rel, run, cache, ctx)
        except TextFragError:
            raise
        except Exception as err:  # (the engine stops on it, as the build will: the model's words, where it has them)
            self.modelled(inc, doc_path, cache, ctx)
            raise TextFragError(f"{run.engine} stops on this include ({type(err).__name__}: {err})") from None

    def modelled(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
        """What the include shows, as textfrag's model of the engine says (where the engine is not run)."""
        rel = self.file_of(inc, doc_path, cache, ctx)
        text, lines = self.of_text(inc, self.read(inc, cache, rel, ctx), ctx)
        expanded, inner = self.nested(inc, text, rel, cache, ctx)
        if expanded != text:
            return Shown(expanded, rel, None, (rel, *dict.fromkeys(inner)))
        return Shown(text, rel, lines, (rel,))

    def run(self, inc: GuardedInclude, rel: str, run: EngineRun, cache: SourceCache, ctx: GuardContext) -> Shown:
        """What the include (whose file is ``rel``) shows, said by the engine's own code (``run``), every file
        it reads read through the build's cache; the file's lines it shows as they are, where the model
        shows the same text of ``rel`` alone."""
        reading = Reading(cache, self.charset(inc, ctx))
        text = self.joined(run.lines(inc, ctx, reading))
        files = tuple(reading.files) or (rel,)
        if files != (rel,):
            return Shown(text, files[0], None, files)
        try:
            own, lines = self.of_text(inc, self.read(inc, cache, rel, ctx), ctx)
        except TextFragError:
            own, lines = None, None
        return Shown(text, rel, lines if own == text else None, files)

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
