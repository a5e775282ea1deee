"""The lock file: what each guarded include showed when it was recorded.

``textfrag.lock`` stands beside the build's configuration (``conf.py``, ``mkdocs.yml``...). It is JSON,
one include per line, sorted, so that a review shows exactly the records that changed::

    {
      "textfrag.lock": 1,
      "includes": {
        "tutorial.rst": {
          "literalinclude ../src/app.py :lines: 5-7": "length=120;md5=0c2f6e...",
          "literalinclude ../src/app.py :pyobject: greet": "length=88;md5=91ab..."
        }
      }
    }

A document is named by its path from the lock file's folder; an include by what it selects as written
(textfrag.guard.includes: its key). A record is ``length=N;md5=HEX`` of the text the include shows, the
integrity checks of RFC 5147 section 3 over that text (UTF-8, line endings ``\\n``). Nothing in it
depends on where an include stands in its document, or on any line of a quoted file outside what it
shows: an edit elsewhere changes no record.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from ..errors import TextFragError

__all__ = ["LOCK_NAME", "Lock", "RECORD", "record_of"]

LOCK_NAME = "textfrag.lock"
FORMAT = 1
#: a record: what RFC 5147's integrity checks say of the shown text
RECORD = re.compile(r"length=[0-9]{1,15};md5=[0-9a-f]{32}")


def record_of(text: str) -> str:
    """``length=N;md5=HEX`` of a shown text (code points; UTF-8 bytes hashed), RFC 5147's checks."""
    return f"length={len(text)};md5={hashlib.md5(text.encode('utf-8', 'surrogatepass')).hexdigest()}"


#: a lock file larger than this is refused before it is read (it is a list of short lines)
MAX_BYTES = 64 << 20


class Lock:
    """The records of one build's guarded includes, read from and written to its lock file."""

    def __init__(self, path: Path, entries: dict[str, dict[str, str]] | None = None) -> None:
        self.path = path
        self.entries: dict[str, dict[str, str]] = entries or {}
        #: the file's data as it was read (a file not there: no records), to write only a change
        self._written: str = json.dumps(self._data(), indent=2)
        #: the (document, key) pairs that a rename of this lock gave a record (see :meth:`rename`)
        self._placed: set[tuple[str, str]] = set()

    @classmethod
    def read(cls, path: Path) -> Lock:
        """The lock file at ``path`` (no file: no records); :class:`TextFragError` naming the file and what
        is wrong with it when it is not one textfrag wrote."""
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return cls(path)
        except OSError as exc:
            raise TextFragError(f"{path}: cannot read the lock file: {exc.strerror}") from None
        if size > MAX_BYTES:
            raise TextFragError(f"{path}: the lock file is over {MAX_BYTES >> 20} MB; it is not one textfrag wrote")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise TextFragError(f"{path}: cannot read the lock file: {exc}") from None
        except json.JSONDecodeError as exc:
            raise TextFragError(f"{path}:{exc.lineno}: the lock file is not valid JSON ({exc.msg}); `git checkout` it") from None
        includes = data.get("includes") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get(LOCK_NAME) != FORMAT or not isinstance(includes, dict):
            raise TextFragError(f'{path}: not a textfrag lock file of format {FORMAT} (an object with "includes")')
        entries: dict[str, dict[str, str]] = {}
        for doc, records in includes.items():
            if not isinstance(records, dict):
                raise TextFragError(f"{path}: the records of {doc!r} are not an object")
            for key, record in records.items():
                if not isinstance(record, str) or not RECORD.fullmatch(record):
                    raise TextFragError(f"{path}: the record of {key!r} in {doc!r} is not length=N;md5=HEX")
            entries[str(doc)] = dict(records)
        lock = cls(path, entries)
        return lock

    @classmethod
    def beside(cls, config: Path) -> Lock:
        """The lock file beside a build's configuration file."""
        return cls.read(config.parent / LOCK_NAME)

    def copy(self) -> Lock:
        """Another lock file object with the same records, to change apart (an editor's proposed fix)."""
        other = Lock(self.path, {doc: dict(records) for doc, records in self.entries.items()})
        other._written = self._written
        return other

    def doc_name(self, doc: Path) -> str:
        """How the lock file names a document: its path from the lock file's folder, with ``/`` (worked out
        once per document)."""
        names: dict[Path, str] = self.__dict__.setdefault("_names", {})
        name = names.get(doc)
        if name is None:
            name = names[doc] = Path(os.path.relpath(os.path.abspath(doc), os.path.abspath(self.path.parent))).as_posix()
        return name

    def record(self, doc: str, key: str) -> str | None:
        """The record of an include (None: not recorded)."""
        return self.entries.get(doc, {}).get(key)

    def put(self, doc: str, key: str, record: str) -> None:
        self.entries.setdefault(doc, {})[key] = record

    def rename(self, doc: str, old: str, new: str, record: str) -> None:
        """An include rewritten by ``update`` (its lines moved, its file renamed): its record moves to its
        new key. Renames of one run are one move: a key that an earlier rename of this lock gave a record
        is not taken away by a later one, so that ``:lines: 1-2`` and ``:lines: 2-3`` both moved a line
        down keep both records (``2-3`` and ``3-4``), in whichever order they are renamed."""
        records = self.entries.setdefault(doc, {})
        if (doc, old) not in self._placed:
            records.pop(old, None)
        records[new] = record
        self._placed.add((doc, new))

    def keep_only(self, doc: str, keys: frozenset[str] | set[str]) -> None:
        """Forget the records of a document's includes that are no longer there."""
        records = self.entries.get(doc)
        if records is None:
            return
        for key in [k for k in records if k not in keys]:
            del records[key]
        if not records:
            del self.entries[doc]

    def _data(self) -> dict[str, object]:
        return {LOCK_NAME: FORMAT, "includes": {doc: dict(sorted(r.items())) for doc, r in sorted(self.entries.items()) if r}}

    @property
    def changed(self) -> bool:
        """Whether writing would change the file."""
        return json.dumps(self._data(), indent=2) != self._written

    def text(self) -> str:
        """The file's text: one record per line, documents and includes sorted."""
        return json.dumps(self._data(), indent=2, ensure_ascii=False) + "\n"

    def write(self, root: str | None = None) -> bool:
        """Write the file (atomically, only when it changes: no churn); whether it was written. With
        ``root``, the file must be under it."""
        if not self.changed:
            return False
        from ..repair.rewrite import write_atomic

        if root is not None:
            real_root = os.path.realpath(root)
            real = os.path.realpath(self.path)
            if not real.startswith(real_root.rstrip(os.sep) + os.sep):
                raise TextFragError(f"{self.path}: the lock file is outside the root; nothing was written")
        data = self.text().encode("utf-8")
        if self.path.exists():
            write_atomic(self.path, data, expected=self.path.read_bytes(), shown=str(self.path))
        else:
            try:
                with open(self.path, "xb") as new:
                    new.write(data)
            except OSError as exc:
                raise TextFragError(f"cannot write {self.path}: {exc.strerror}") from None
        self._written = json.dumps(self._data(), indent=2)
        return True
