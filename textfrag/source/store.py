"""What the command line found in quoted files, kept from one run to the next.

Three things depend on a quoted file alone, besides what the reference says, and are kept:

- a file's digest (of 64 KB or more), under its metadata: device, inode, size, modification and change
  times to the nanosecond, as git keeps its index (:func:`kept_digest`). No program can set a change
  time back, so a file with the same metadata is the file that was read;
- a file's table of definitions (``:pyobject:``, ``:symbol:``: textfrag.intents.intent, textfrag.intents.symbols), under
  the digest of its text: an unchanged file is not parsed again, by this run's other processes
  (``check`` on both cores) or by the next run;
- a good verdict on a pinned reference whose verdict reads the quoted text, under every other input of
  the verdict (the reference, the options as written, the syntax, the settings: textfrag.verdict.judging). The
  pin fixes the file's whole text, so ``check`` finds the same reference good again from the file's
  digest alone, as it does a reference without options.

The digest of the core's code (the installed wheel's RECORD) names the store, so an entry is never
wrong, only unused. The store is a SQLite database in the user's cache folder
(``$XDG_CACHE_HOME/textfrag``, else ``~/.cache/textfrag``; ``TEXTFRAG_CACHE_DIR`` moves it,
``TEXTFRAG_NO_CACHE=1`` turns it off). It is only a cache: a folder that cannot be written, a locked,
damaged or another user's database, an entry that does not read back in the shape it was put, and the
answer is found from the file, as without it. The command line uses it (``check``, ``update``, ``pin``,
``lsp``); the engines' builds do not write outside their output.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = [
    "WORTH_KEEPING",
    "Store",
    "Untrusted",
    "current",
    "default_store",
    "flush",
    "keep_digest",
    "kept_digest",
    "trusted",
    "use",
]

#: the database is started afresh past this size (bytes): a cache, not an archive
_MAX_BYTES = 64 << 20
#: rows kept in memory before they are written in one transaction
_BATCH = 512


class Store:
    """What was found, by kind and the digest of what it was found from, in one database. Safe to share
    between threads; a forked process opens its own connection (and keeps nothing of its parent's)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._db: Any = None
        self._off = False
        self._pid = os.getpid()
        self._lock = threading.RLock()
        self._pending: list[tuple[str, str]] = []
        self._absent = False  # (no database when the run began, said by :meth:`settle`: nothing to look up)
        #: why the store is not used this run, when it is another user's (said once, by the command line)
        self.refused: str | None = None

    @property
    def path(self) -> Path:
        """The database (named by the digest of the core's code: read once, when first needed)."""
        return self.folder / f"store-{_code_digest()}.sqlite3"

    def get(self, kind: str, text: str) -> Any:
        """What was put for ``text`` under ``kind`` (JSON values), or None."""
        with self._held():
            db = None if self._absent else self._connection(create=False)
            if db is None:
                return None
            try:
                row = db.execute("SELECT v FROM kept WHERE k = ?", (_key(kind, text),)).fetchone()
                return None if row is None else _json().loads(row[0])
            except Exception:  # (a damaged database or entry: found from the text, as without a store)
                return None

    def put(self, kind: str, text: str, value: object) -> None:
        """Keep ``value`` (JSON) for ``text`` under ``kind``; written in batches, and by :meth:`flush`."""
        with self._held():
            if self._off:
                return
            self._pending.append((_key(kind, text), _json().dumps(value, separators=(",", ":"))))
            if len(self._pending) >= _BATCH:
                self.flush()

    def take(self) -> list[tuple[str, str]]:
        """What was put and not yet written, taken from this store: a forked worker sends it to the process
        that forked it, which writes it with its own (so that no worker imports SQLite to write)."""
        with self._held():
            rows, self._pending = self._pending, []
            return rows

    def give(self, rows: list[tuple[str, str]]) -> None:
        """Keep the rows another process :meth:`take` s, as if they had been put here."""
        with self._held():
            if self._off or not rows:
                return
            self._pending += rows
            if len(self._pending) >= _BATCH:
                self.flush()

    def settle(self) -> None:
        """Look nothing up in this run unless the database is there now: what a run writes in it later
        is what the run itself found (the process that forks the digest workers calls this first, so that
        no worker imports SQLite to look up a database the run made)."""
        try:
            self._absent = not os.path.lexists(self.path)
        except OSError:
            self._absent = True

    def flush(self) -> None:
        """Write what was put since the last flush (one transaction; a locked database drops it)."""
        with self._held():
            rows, self._pending = self._pending, []
            db = self._connection() if rows else None
            if db is None:
                return
            try:
                db.execute("BEGIN")
                try:
                    db.executemany("INSERT OR REPLACE INTO kept (k, v) VALUES (?, ?)", rows)
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            except Exception:
                pass  # (another process holds it, or the disk is full: the next run finds these again)

    def ready(self) -> None:
        """Open (or make) the database now: a process that waits for other work (check waiting for its
        digests) does it meanwhile rather than at its end."""
        _json()
        with self._held():
            self._connection()

    def _held(self) -> threading.RLock:
        """The lock, after a fork made afresh with the rest of what a process keeps (a forked child has one
        thread, and its parent's lock may have been held by another)."""
        if self._pid != os.getpid():
            self._pid, self._lock, self._db, self._pending = os.getpid(), threading.RLock(), None, []
        return self._lock

    def _connection(self, *, create: bool = True) -> Any:
        if self._off or self._db is not None:
            return self._db
        if not create and not os.path.lexists(self.path):  # (nothing kept yet: no database to open for a lookup)
            return None
        for attempt in range(4):  # (processes that start together may create the database together)
            try:
                self._db = self._open()
                return self._db
            except Untrusted as why:  # (another user's folder or file: never read, never removed)
                self.refused = str(why)
                break
            except OSError:  # (a folder that cannot be made or written)
                break
            except Exception as failed:
                if "locked" not in str(failed) and "busy" not in str(failed):  # (not a database: made afresh)
                    try:
                        for damaged in self.folder.glob(self.path.name + "*"):
                            damaged.unlink(missing_ok=True)
                    except OSError:  # (a folder in its place, a file that cannot be removed: none this run)
                        break
                time.sleep(0.02 * (attempt + 1))
        self._off = True  # (a folder that cannot be written, a database that is not one: none this run)
        return None

    def _open(self) -> Any:
        import sqlite3

        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.path
        trusted(self.folder, folder=True)
        for each in (path, *(Path(f"{path}{end}") for end in _COMPANIONS)):
            trusted(each)
        try:
            if path.stat().st_size > _MAX_BYTES:
                path.unlink()
        except FileNotFoundError:
            pass
        # (made by this user for this user alone: SQLite gives its -wal and -shm the database's mode; its
        # time says when it was last opened, so that no other install's run removes a store in use)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
        os.utime(path)
        # (readers never wait in WAL mode; a writer that waits longer drops its batch: the next run finds it again)
        db = sqlite3.connect(path, timeout=0.25, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS kept (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        except BaseException:
            db.close()
            raise
        _forget_older(self.folder, path.name)
        return db


#: the files SQLite keeps beside a database: each is trusted as the database is, or none is read
_COMPANIONS = ("-wal", "-shm", "-journal")


class Untrusted(OSError):
    """A store folder or file that another user owns or can write: it is not read (as git refuses a
    repository another user owns); the run reads every file instead."""


def trusted(path: Path, *, folder: bool = False) -> None:
    """Raise :class:`Untrusted` when ``path`` (if it exists) is not this user's alone: owned by another
    user, writable by the group or by others, or not what it should be (a link, a folder in a file's
    place). On systems without users (Windows), nothing is refused."""
    if not hasattr(os, "getuid"):
        return
    import stat

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    kind = stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)
    if not kind:
        raise Untrusted(f"{path} is not a {'folder' if folder else 'regular file'}")
    if st.st_uid != os.getuid():
        raise Untrusted(f"{path} belongs to another user (uid {st.st_uid})")
    if st.st_mode & 0o022:
        raise Untrusted(f"{path} can be written by other users (mode {stat.S_IMODE(st.st_mode):o})")


def _version() -> str:
    from .._version import __version__

    return __version__


def _json() -> Any:
    import json  # (only a run that uses the store pays for it)

    return json


def _key(kind: str, text: str) -> str:
    return kind + ":" + hashlib.md5(text.encode("utf-8", "surrogatepass")).hexdigest() + f":{len(text)}"


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The digest of the core's code and of the Python that runs it: a store written by other code (another
    version, another build of it) or another Python (whose parser may read a module otherwise) is not read.
    An installed wheel's RECORD holds the digest of every file it installed (read in a fraction of a
    millisecond): its modules' lines are taken, not what the installer adds (byte code, INSTALLER,
    direct_url.json), so that two installs of one wheel share one store; without one (a source tree),
    every module is read."""
    import sys

    here = Path(__file__).parent.parent  # (textfrag/, the package whose code is digested)
    md5 = hashlib.md5(f"{sys.implementation.name}{sys.version_info[:2]}".encode())
    try:
        record = (here.parent / f"textfrag-{_version()}.dist-info" / "RECORD").read_text(encoding="utf-8")
        md5.update("".join(sorted(line for line in record.splitlines(True) if line.split(",")[0].endswith(".py"))).encode())
    except (OSError, UnicodeDecodeError):
        for path in sorted(here.rglob("*.py")):
            md5.update(path.relative_to(here).as_posix().encode() + b"\0")
            try:
                md5.update(path.read_bytes())
            except OSError:
                pass
    return md5.hexdigest()[:12]


#: a store of other code that no run has used for this long (seconds) is removed: another install's
#: store in use is kept (two virtual environments of different versions do not remove each other's)
_UNUSED = 30 * 86400


def _forget_older(folder: Path, keep: str) -> None:
    """Remove the stores other code wrote that no run has opened for a month, where they are this user's
    (a store and its companion files go together)."""
    now = time.time()
    try:
        groups: dict[str, list[Path]] = {}
        for old in folder.glob("store-*.sqlite3*"):
            if not old.name.startswith(keep):
                groups.setdefault(old.name.split(".sqlite3")[0], []).append(old)
        for files in groups.values():
            stats = [f.lstat() for f in files]
            mine = not hasattr(os, "getuid") or all(st.st_uid == os.getuid() for st in stats)
            if mine and now - max(st.st_mtime for st in stats) > _UNUSED:
                for old in files:
                    old.unlink(missing_ok=True)
    except OSError:
        pass


def default_store() -> Store | None:
    """The user's store (see the module's text), or None when ``TEXTFRAG_NO_CACHE`` is set."""
    if os.environ.get("TEXTFRAG_NO_CACHE", "") not in ("", "0"):
        return None
    folder = os.environ.get("TEXTFRAG_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "textfrag")
    return Store(Path(folder))


_CURRENT: Store | None = None


def use(store: Store | None) -> None:
    """Make ``store`` the one looked up in (None: none, found from the text each time);
    what the store in use was given is written by :func:`flush`, and when another is made the one."""
    global _CURRENT
    if _CURRENT is not None and _CURRENT is not store:
        _CURRENT.flush()
    _CURRENT = store


def flush() -> None:
    """Write what the store in use was given (a forked process that answers with its results calls this,
    or sends what :meth:`Store.take` gives, before it answers: it exits without running exit handlers)."""
    if _CURRENT is not None:
        _CURRENT.flush()


def current() -> Store | None:
    """The store in use, if any."""
    return _CURRENT


#: a smaller file (bytes) is hashed again rather than looked up: reading and hashing it costs less
WORTH_KEEPING = 64 << 10
#: a file whose metadata changed this recently (nanoseconds) is not kept by it: a change within the
#: clock's granularity after it was read would leave the same metadata (git's "racily clean" files)
_SETTLED_NS = 2_000_000_000


def kept_digest(fd: int, full: str, path: str, charset: str) -> tuple[object, str, os.stat_result] | None:
    """A quoted file's digest as an earlier run found it, while its metadata (device, inode, size,
    modification and change times, to the nanosecond) is what it was then: ``(digest, key, stat)``;
    ``(None, key, stat)`` when it is to be found and kept (:func:`keep_digest`); None without a store,
    or for a file changed in the last two seconds. The change time cannot be set back by any program
    (writing a file, or setting its times, moves it on), so a file with the same metadata is the file
    that was read (on POSIX systems: on Windows every file is read). A file under 64 KB is read again
    (that costs less than looking it up).
    ``TEXTFRAG_NO_CACHE=1`` reads every file every time."""
    store = _CURRENT
    if store is None or os.name == "nt":  # (Windows' st_ctime is the file's creation, not its last change)
        return None
    st = os.fstat(fd)
    if st.st_size < WORTH_KEEPING or max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - _SETTLED_NS:
        return None
    key = "\0".join(map(str, (full, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, charset)))
    from .charsets import Digest

    try:
        found, md5, length, size, bidi, lines = store.get("digest", key)
        shaped = type(found) is str and type(md5) is str and len(md5) == 32 and type(length) is int and type(lines) is int
        if shaped and size == st.st_size:
            return Digest(path, found, md5, length, size, bidi is True, lines), key, st
    except (TypeError, ValueError):  # (none kept: None; or not in that shape)
        pass
    return None, key, st


def keep_digest(fd: int, kept: tuple[object, str, os.stat_result], digest: Any) -> None:
    """Keep ``digest`` under the key :func:`kept_digest` made, if the file did not change while it was read."""
    store = _CURRENT
    _, key, before = kept
    after = os.fstat(fd)
    if store is not None and (after.st_size, after.st_mtime_ns, after.st_ctime_ns) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ctime_ns,
    ):
        store.put("digest", key, [digest.charset, digest.md5, digest.length, digest.size, digest.bidi, digest.lines])


def kept_blob_digest(key: str, path: str) -> Any:
    """The digest of a declared source's file at a commit, as an earlier run found it (``key`` names the
    repository, the commit, the path and the charset: what it holds can never change); None without a
    store, or when none was kept."""
    store = _CURRENT
    if store is None:
        return None
    from .charsets import Digest

    try:
        found, md5, length, size, bidi, lines = store.get("blob-digest", key)
        if type(found) is str and type(md5) is str and len(md5) == 32 and type(length) is int and type(lines) is int:
            return Digest(path, found, md5, length, size, bidi is True, lines)
    except (TypeError, ValueError):
        pass
    return None


def keep_blob_digest(key: str, digest: Any) -> None:
    """Keep the digest of a declared source's file at a commit under ``key`` (:func:`kept_blob_digest`)."""
    store = _CURRENT
    if store is not None:
        store.put("blob-digest", key, [digest.charset, digest.md5, digest.length, digest.size, digest.bidi, digest.lines])
