"""What the command line found in quoted files, kept from one run to the next.

``:pyobject:`` and ``:symbol:`` need a file's table of definitions (textfrag.intent, textfrag.symbols),
and a verdict that reads the quoted text (an intent, an option checked against the excerpt) needs that
text. Both depend on the file's text alone, besides what the reference says:

- a table of definitions is kept under the text's digest: a file that has not changed is not parsed for
  its definitions again, by this run's other processes (``check`` on both cores) or by the next run;
- a good verdict on a pinned reference is kept under every other input of the verdict (the reference,
  the options as written, the syntax, the settings: textfrag.verdict). The pin fixes the file's whole
  text, so ``check`` finds the same reference good again from the file's digest alone, as it does a
  reference without options, once the digest still matches the pin.

This code's own digest (the package's modules) names the store, so an entry is never wrong, only
unused. The store is a SQLite database in the user's cache folder (``$XDG_CACHE_HOME/textfrag``, else
``~/.cache/textfrag``; ``TEXTFRAG_CACHE_DIR`` moves it, ``TEXTFRAG_NO_CACHE=1`` turns it off). It is
only a cache: a folder that cannot be written, a locked or damaged database, an entry that does not
read back in the shape it was put, and the answer is found from the text, as without it. The command
line uses it (``check``, ``update``, ``pin``, ``lsp``); the engines' builds do not write outside their
output.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

__all__ = ["Store", "current", "default_store", "flush", "use"]

#: the database is started afresh past this size (bytes): a cache, not an archive
_MAX_BYTES = 64 << 20
#: rows kept in memory before they are written in one transaction
_BATCH = 512


class Store:
    """What was found, by kind and the digest of what it was found from, in one database."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / f"store-{_code_digest()}.sqlite3"
        self._db: Any = None
        self._pid = 0
        self._off = False
        self._pending: list[tuple[str, str]] = []

    def get(self, kind: str, text: str) -> Any:
        """What was put for ``text`` under ``kind`` (JSON values), or None."""
        db = self._connection()
        if db is None:
            return None
        try:
            row = db.execute("SELECT v FROM kept WHERE k = ?", (_key(kind, text),)).fetchone()
            return None if row is None else json.loads(row[0])
        except Exception:  # (a damaged database or entry: found from the text, as without a store)
            return None

    def put(self, kind: str, text: str, value: object) -> None:
        """Keep ``value`` (JSON) for ``text`` under ``kind``; written in batches, and by :meth:`flush`."""
        if self._off:
            return
        self._pending.append((_key(kind, text), json.dumps(value, separators=(",", ":"))))
        if len(self._pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        """Write what was put since the last flush (one transaction; a locked database drops it)."""
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

    def _connection(self) -> Any:
        if self._off:
            return None
        if self._db is not None and self._pid == os.getpid():
            return self._db
        # (a forked process opens its own: a connection is never used across a fork; the parent's is
        # left as it is, not closed here)
        try:
            import sqlite3

            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            try:
                if self.path.stat().st_size > _MAX_BYTES:
                    self.path.unlink()
            except FileNotFoundError:
                pass
            db = sqlite3.connect(self.path, timeout=0.5, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS kept (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        except Exception:
            self._off = True
            return None
        self._db, self._pid = db, os.getpid()
        _forget_older(self.folder, self.path.name)
        return db


def _key(kind: str, text: str) -> str:
    return kind + ":" + hashlib.md5(text.encode("utf-8", "surrogatepass")).hexdigest() + f":{len(text)}"


def _code_digest() -> str:
    """The digest of the core's code (every module of the package): a store written by other code (another
    version, an edited install) is not read."""
    here = Path(__file__).parent
    md5 = hashlib.md5()
    for path in sorted(here.rglob("*.py")):
        md5.update(path.relative_to(here).as_posix().encode() + b"\0")
        try:
            md5.update(path.read_bytes())
        except OSError:
            pass
    return md5.hexdigest()[:12]


def _forget_older(folder: Path, keep: str) -> None:
    """Remove the stores other code wrote (another version of textfrag)."""
    try:
        for old in folder.glob("store-*.sqlite3*"):
            if not old.name.startswith(keep):
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
    """Write what the store in use was given (a forked worker calls this before it answers: it exits
    without running exit handlers)."""
    if _CURRENT is not None:
        _CURRENT.flush()


def current() -> Store | None:
    """The store in use, if any."""
    return _CURRENT
