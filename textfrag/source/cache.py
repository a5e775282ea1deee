"""bytes -> decoded text, md5, length and line index: how quoted files (and documentation files) are read.

A :class:`Source` is loaded once per build: the raw bytes are read once, hashed once and decoded once,
then dropped; the length and the line index are computed on first use. :class:`SourceCache` owns the
loaded sources of one build (no module-level state).

Line endings are exactly those of RFC 5147 section 4.1: CR LF, LF, CR, NEL (U+0085) and CR NEL, each
counted as one character and belonging to the line it ends. ``str.splitlines`` is not used: it also
splits at FF, VT, FS, GS, RS, U+2028 and U+2029, which do not end lines here.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import accumulate, count
from operator import add
from pathlib import Path
from typing import Any

from ..errors import PathError, TextFragError
from .charsets import (
    DEFAULT_CHARSET,
    Digest,
    codec_name,
    decode,
    length_of,
    same_charset,
    text_lines,
)
from .hidden_text import BIDI
from .paths import check_path_syntax
from .reading import digest_under_root, read_under_root
from .store import current as current_store
from .store import keep_blob_digest, kept_blob_digest

__all__ = [
    "DEFAULT_CHARSET",
    "codec_name",
    "same_charset",
    "DEFAULT_MAX_SIZE",
    "Digest",
    "Source",
    "SourceCache",
    "decode",
    "digest_batch",
    "length_of",
]

#: Files larger than this are refused (override with ``max_size``); quoting a 64 MiB file is a mistake.
DEFAULT_MAX_SIZE = 64 * 1024 * 1024


class Source:
    """One decoded text file. Positions here are indices into :attr:`text` (Python string indices).

    RFC 5147 character positions differ from them where a line ends in two characters (CR LF, CR NEL),
    since each line ending counts as one character: :meth:`index_of_char` and :meth:`char_of_index`
    convert.
    """

    __slots__ = (
        *("path", "charset", "text", "md5", "size", "bom"),
        *("_line_starts", "_pairs", "_pair_chars", "_spent", "_has_cr", "_length", "_bidi", "_normal_lines", "_digest"),
    )

    #: Seconds that searches (match(), text directives) may spend on one file in one build, all together.
    SEARCH_BUDGET = 2.0

    def __init__(self, path: str, data: bytes, charset: str = DEFAULT_CHARSET) -> None:
        self.path = path
        self.size = len(data)
        self.md5 = hashlib.md5(data).hexdigest()
        self.bom, self.charset, self.text = decode(data, charset)
        self._line_starts: list[int] | None = None
        self._pairs: list[int] | None = None
        self._pair_chars: list[int] | None = None
        self._spent: float | None = None
        self._has_cr: bool | None = None
        self._length: int | None = None
        self._bidi: bool | None = None
        self._digest: Digest | None = None
        self._normal_lines: list[str] | None = None

    def normal_lines(self) -> list[str]:
        """The text as a file opened in text mode reads it, every line ending ``\\n``, split at them (an
        engine's own reading: literalinclude, pymdownx.snippets); made once, shared: never changed."""
        if self._normal_lines is None:
            self._normal_lines = self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return self._normal_lines

    @contextmanager
    def searching(self) -> Iterator[float]:
        """A search in this file: yields when it must stop (a ``time.monotonic()`` value). The budget is
        the time searches actually took, per file per build, so that many hostile references to one file
        cost no more than one (and time spent elsewhere in the build costs nothing)."""
        left = self.SEARCH_BUDGET if self._spent is None else self.SEARCH_BUDGET - self._spent
        start = time.monotonic()
        try:
            yield start + max(0.0, left)
        finally:
            self._spent = (self._spent or 0.0) + time.monotonic() - start

    @property
    def digest(self) -> Digest:
        """What integrity checks need of this source, without its text."""
        if self._digest is None:  # (once: a file quoted by many references is asked for it by each)
            self._digest = Digest(self.path, self.charset, self.md5, self.length, self.size, self.bidi, text_lines(self.text))
        return self._digest

    @property
    def bidi(self) -> bool:
        """Whether the text holds bidirectional control characters (textfrag.source.hidden_text)."""
        if self._bidi is None:
            self._bidi = not self.text.isascii() and BIDI.search(self.text) is not None
        return self._bidi

    def __repr__(self) -> str:
        return f"Source({self.path!r}, charset={self.charset!r}, md5={self.md5!r})"

    # -- line endings -------------------------------------------------------------------------------

    def _index(self) -> None:
        text = self.text
        if "\r" not in text and "\x85" not in text:
            # Only LF ends lines: cumulative lengths of the pieces between LFs, plus one per LF.
            pieces = text.split("\n")
            starts = [0]
            if len(pieces) > 1:
                starts.extend(map(add, accumulate(map(len, pieces[:-1])), count(1)))
                if starts[-1] == len(text):
                    starts.pop()
            self._line_starts, self._pairs = starts, []
        else:
            starts, pairs = [0], []
            i, n = 0, len(text)
            find_any = _next_terminator
            while True:
                j = find_any(text, i)
                if j < 0:
                    break
                if text[j] == "\r" and j + 1 < n and text[j + 1] in "\n\x85":
                    pairs.append(j)
                    i = j + 2
                else:
                    i = j + 1
                if i < n:
                    starts.append(i)
            self._line_starts, self._pairs = starts, pairs
        # RFC character position of each two-character line ending
        self._pair_chars = [q - k for k, q in enumerate(self._pairs)]

    @property
    def line_starts(self) -> list[int]:
        """Index in :attr:`text` where each line starts; a text without line endings is one line."""
        if self._line_starts is None:
            self._index()
        assert self._line_starts is not None
        return self._line_starts

    @property
    def line_count(self) -> int:
        """The number of lines (a text without line endings is one line)."""
        return len(self.line_starts)

    @property
    def length(self) -> int:
        """Length in code points with each line ending counted once (RFC 5147 sections 2.1.2, 3.1)."""
        if self._length is None:
            self._length = length_of(self.text)
        return self._length

    def _pair_list(self) -> tuple[list[int], list[int]]:
        if self._pairs is None:
            self._index()
        assert self._pairs is not None and self._pair_chars is not None
        return self._pairs, self._pair_chars

    def _two_char_endings(self) -> bool:
        """Whether any CR is in the text (looked for once: every lookup after that is a bisection)."""
        if self._has_cr is None:
            self._has_cr = "\r" in self.text
        return self._has_cr

    def index_of_char(self, position: int) -> int:
        """Index in :attr:`text` of RFC character position ``position`` (clamped to the end)."""
        if not self._two_char_endings():
            return min(position, len(self.text))
        _, pair_chars = self._pair_list()
        return min(position + bisect_left(pair_chars, position), len(self.text))

    def char_of_index(self, index: int) -> int:
        """RFC character position of the boundary at ``index`` in :attr:`text`."""
        if not self._two_char_endings():
            return index
        pairs, _ = self._pair_list()
        return index - bisect_left(pairs, index)

    def index_of_line(self, position: int) -> int:
        """Index in :attr:`text` of RFC line position ``position`` (past the last line: the end)."""
        starts = self.line_starts
        return starts[position] if position < len(starts) else len(self.text)

    def line_of_index(self, index: int) -> int:
        """1-based number of the line that holds the character at ``index``."""
        return bisect_right(self.line_starts, index)


def _next_terminator(text: str, start: int) -> int:
    """Index of the next CR, LF or NEL at or after ``start``, or -1."""
    best = -1
    for ch in "\n\r\x85":
        j = text.find(ch, start) if best < 0 else text.find(ch, start, best)
        if j >= 0:
            best = j
    return best


def _empty_cache(root: str, charset: str, max_size: int, pdi_map: dict[str, str] | None = None) -> SourceCache:
    return SourceCache(root, charset=charset, max_size=max_size, pdi_map=pdi_map)


class SourceCache:
    """The sources of one build: each file is read, hashed and decoded at most once.

    Failures are cached too, so a broken file is reported for every reference to it without being
    read again. Safe to share between threads.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        charset: str = DEFAULT_CHARSET,
        max_size: int = DEFAULT_MAX_SIZE,
        pdi_map: dict[str, str] | None = None,
    ) -> None:
        self.root = Path(root)
        #: Persistent Document Identifier -> path under the root, as configured (looked up by textfrag.verdict.quoting)
        self.pdi_map = dict(pdi_map or {})
        self.charset = charset
        self.max_size = max_size
        codec_name(charset)  # an unknown charset is a configuration error, reported at once
        self.real_root = os.path.realpath(self.root)
        self._entries: dict[str, Source | TextFragError] = {}
        self._digests: dict[str, Digest | TextFragError] = {}
        self._lock = threading.Lock()
        #: the git history drift is explained from (textfrag.drift.history.History), made when first needed
        self.history: Any = None
        self._siblings: dict[str, SourceCache] = {}
        #: a path as something outside textfrag names it (an include's file) -> its real path: looked up once
        self.real_paths: dict[str, str] = {}
        #: the sources declared at or above the root (``txtfrag://NAME/PATH``), found when first quoted
        self._sources: Any = None
        #: what each file read from the root was on disk just before it was read (``refresh``)
        self._stamps: dict[str, tuple[int, ...] | None] = {}
        #: the files seen as they are on disk since the last ``refresh`` (the others are looked at when asked for)
        self._fresh: set[str] = set()

    def with_charset(self, charset: str) -> SourceCache:
        """The cache of this build that reads files in ``charset`` (literalinclude's ``:encoding:``): this
        one for its own charset, else one kept beside it, so each file is still read once per charset.
        An unknown charset is a :class:`SourceError`."""
        if same_charset(charset, self.charset):
            return self
        with self._lock:
            sibling = self._siblings.get(charset.lower())
            if sibling is None:
                sibling = SourceCache(self.root, charset=charset, max_size=self.max_size, pdi_map=self.pdi_map)
                sibling.history = self.history
                sibling._sources = self._sources
                self._siblings[charset.lower()] = sibling
        return sibling

    def get(self, path: str, reference: str | None = None) -> Source:
        """The source for ``path``; raises the (cached) :class:`TextFragError` if it cannot be loaded."""
        check_path_syntax(path, reference if reference is not None else path)
        if path.startswith(("https://", "http://")):
            raise PathError(
                "a URL is not a file under the root: quote another repository as a declared source, txtfrag://NAME/PATH "
                "(`textfrag pin --write` makes a GitHub, GitLab or Codeberg permalink one)",
                reference=reference if reference is not None else path,
            )
        path = posixpath.normpath(path)
        self._as_now(path)
        entry = self._entries.get(path)
        if entry is None:
            self._stamp(path)
            try:
                data = self._remote(path) if path.startswith("//") else read_under_root(self.real_root, path, path, self.max_size)
                entry = Source(path, data, self.charset)
            except TextFragError as failure:
                entry = failure
            with self._lock:
                entry = self._entries.setdefault(path, entry)
        if isinstance(entry, TextFragError):
            raise entry.with_reference(reference)
        return entry

    @property
    def sources(self) -> Any:
        """The declared sources of this build (textfrag.source.remote.Sources), found at or above the root
        when first needed; :class:`~textfrag.errors.SourceError` for a declaration that is wrong."""
        if self._sources is None:
            from .remote import Sources

            with self._lock:
                if self._sources is None:
                    try:
                        self._sources = Sources.find(Path(self.real_root))
                    except TextFragError as failure:
                        self._sources = failure
        if isinstance(self._sources, TextFragError):
            raise self._sources
        return self._sources

    def _blob_key(self, path: str) -> str | None:
        """What names a declared source's file at its locked commit in the store (its digest never changes);
        None without a store, or when the source cannot be read (each reference says why)."""
        if current_store() is None:
            return None
        name, _, rest = path[2:].partition("/")
        try:
            record = self.sources.record(name)
        except TextFragError:
            return None
        from .gitrun import has_commit, redacted
        from .remote import git_dir_of

        if not has_commit(git_dir_of(self.sources.cache, record.git), record.commit):
            return None  # (the build could not read it: neither does check, which then says what to run)

        return "\0".join((redacted(record.git), record.commit, rest, self.charset))

    def prefetch_sources(self, paths: Iterable[str], *, text: bool = False) -> None:
        """Read ahead, all at once per source, the files of declared sources among ``paths`` (``check``
        knows every quoted file before it judges one) whose digest no earlier run kept (``text``: every
        one, the text is wanted); a failure waits for the reference that reads it."""
        wanted: dict[str, list[str]] = {}
        for path in paths:
            normal = posixpath.normpath(path)
            if not path.startswith("//") or normal in self._entries or (not text and normal in self._digests):
                continue
            if not text:
                key = self._blob_key(normal)
                kept = kept_blob_digest(key, normal) if key is not None else None
                if kept is not None:
                    self.add_digest(normal, kept)
                    continue
            name, _, rest = path[2:].partition("/")
            wanted.setdefault(name, []).append(posixpath.normpath(rest))
        for name, files in wanted.items():
            try:
                self.sources.tree(name).prefetch(files, self.max_size)
            except TextFragError:
                continue  # (said by each reference to it)

    def _remote(self, path: str) -> bytes:
        """The bytes of ``//NAME/PATH``: the file PATH of the declared source NAME, at its locked commit."""
        name, rest = path[2:].split("/", 1)
        data: bytes = self.sources.tree(name).read(rest, path, self.max_size)
        return data

    def forget(self, path: str) -> None:
        """Drop what is known of ``path`` (its source, digest or failure), here and in the caches beside
        this one, and the git history: a long-lived user (the language server) calls it when the file
        changed on disk, so the next read sees it as it is now."""
        path = posixpath.normpath(path)
        with self._lock:
            self._entries.pop(path, None)
            self._digests.pop(path, None)
            self._stamps.pop(path, None)
            self._fresh.discard(path)
            self.real_paths.clear()
            siblings = list(self._siblings.values())
            self.history = None
        for sibling in siblings:
            sibling.forget(path)

    def _stamp(self, path: str) -> None:
        """Note what a file of the root is on disk, before it is read (a change after it is seen next time)."""
        if not path.startswith("//") and path not in self._stamps:
            self._stamps[path] = _stamp_of(os.path.join(self.real_root, path))
            self._fresh.add(path)

    def refresh(self) -> None:
        """From now on, forget each file of the root that changed on disk, appeared or went since it was read,
        when it is next asked for: a build that lives on (``textfrag batch --stream``, a page at a time) calls
        it before each page, so a file is read once while it stays the same, and as it is now once it changed
        (a declared source's file, at a commit, never changes). Each file is looked at on disk once per page
        that asks for it, not every file read so far for every page."""
        with self._lock:
            self._fresh.clear()
            siblings = list(self._siblings.values())
        for sibling in siblings:
            sibling.refresh()

    def _as_now(self, path: str) -> None:
        """Forget ``path`` (normalised) if it changed on disk since it was read and it was not looked at since
        the last :meth:`refresh`."""
        if path in self._fresh or path not in self._stamps:
            return
        if _stamp_of(os.path.join(self.real_root, path)) != self._stamps[path]:
            self.forget(path)
        self._fresh.add(path)

    def present(self, full: str) -> bool:
        """Whether the file at the absolute path ``full`` exists (as a link, too) for this build."""
        return os.path.lexists(full)

    def __reduce__(self) -> tuple[Any, ...]:
        # a cache does not outlive its build: it pickles (with an engine's state) as an empty one
        return (_empty_cache, (str(self.root), self.charset, self.max_size, self.pdi_map))

    def digest(self, path: str, reference: str | None = None) -> Digest:
        """The file's :class:`Digest`, reading it once but keeping no text (``textfrag check``)."""
        check_path_syntax(path, reference if reference is not None else path)
        path = posixpath.normpath(path)
        self._as_now(path)
        entry = self._digests.get(path)
        if entry is None and path.startswith("//"):  # (a declared source's file: kept, or read from git's objects)
            key = self._blob_key(path)
            entry = kept_blob_digest(key, path) if key is not None else None
            if entry is None:
                try:
                    entry = self.get(path).digest
                    if key is not None:
                        keep_blob_digest(key, entry)
                except TextFragError as failure:
                    entry = failure
            with self._lock:
                entry = self._digests.setdefault(path, entry)
        if entry is None:
            loaded = self._entries.get(path)
            if isinstance(loaded, (Source, TextFragError)):
                entry = loaded.digest if isinstance(loaded, Source) else loaded
            else:
                self._stamp(path)
                try:
                    entry = digest_under_root(self.real_root, path, path, self.max_size, self.charset)
                except TextFragError as failure:
                    entry = failure
            with self._lock:
                entry = self._digests.setdefault(path, entry)
        if isinstance(entry, TextFragError):
            raise entry.with_reference(reference)
        return entry

    def add_digest(self, path: str, entry: Digest | TextFragError) -> None:
        """Record a digest (or the failure) computed elsewhere, e.g. by a worker process."""
        with self._lock:
            self._digests.setdefault(posixpath.normpath(path), entry)


def _stamp_of(full: str) -> tuple[int, ...] | None:
    """A file's identity and state on disk (None: there is none): what changes when it is written or replaced."""
    try:
        st = os.stat(full)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def digest_batch(root: str, charset: str, max_size: int, paths: list[str]) -> list[tuple[str, Digest | TextFragError]]:
    """Digests of ``paths`` (or why each failed), for a worker of ``textfrag check``; what the store in use
    is to keep of them waits in it (a forked worker sends it on: :meth:`textfrag.source.store.Store.take`)."""
    cache = SourceCache(root, charset=charset, max_size=max_size)
    out: list[tuple[str, Digest | TextFragError]] = []
    for path in paths:
        try:
            out.append((path, cache.digest(path)))
        except TextFragError as failure:
            out.append((path, failure))
    return out
