"""What a change does to files, as git says it: for a range of commits, the index or the work tree, each
changed file's path before and after (a rename followed, at git's own similarity), its hunks (``git
diff -U0``) and its content on both sides. One ``git diff`` for the whole change; the contents of the
changed files through one ``git cat-file --batch``; nothing else is read.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TextFragError

__all__ = ["Change", "Changes", "Hunk", "read_changes", "NO_BLOB"]

NO_BLOB = "0" * 40
#: bytes of ``git diff`` output read at most (a change larger than this is refused, never half read)
MAX_DIFF = 256 << 20

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class Hunk:
    """One hunk of ``git diff -U0``: the old side's lines ``old_start`` .. (``old_count`` of them; with none,
    the new lines go after line ``old_start``) and the new side's; its removed and added lines."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()

    @property
    def old_last(self) -> int:
        return self.old_start + self.old_count - 1

    @property
    def shift(self) -> int:
        """How many lines the hunk adds (negative: removes) for what follows it."""
        return self.new_count - self.old_count

    def header(self) -> str:
        return f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@"

    def touches(self, first: int, last: int) -> bool:
        """Whether the hunk changes any of the old side's lines ``first`` .. ``last``, or adds lines
        between two of them."""
        if self.old_count:
            return self.old_start <= last and self.old_last >= first
        return first <= self.old_start < last

    def before(self, first: int) -> bool:
        """Whether the hunk is wholly above line ``first`` of the old side (it shifts that line)."""
        return (self.old_last if self.old_count else self.old_start) < first

    @property
    def annotated_line(self) -> int:
        """The new side's line a note on this hunk goes to (a removal: the line after it)."""
        return max(1, self.new_start if self.new_count else self.new_start + 1)

    @property
    def annotated_end(self) -> int:
        return max(self.annotated_line, self.new_start + self.new_count - 1)


@dataclass
class Change:
    """One file the change touches: paths relative to the work tree's top (``new_path`` None: deleted;
    ``path`` None: added), the hunks, and the blobs of both sides (``NO_BLOB``: the work tree's file)."""

    status: str  # A, M, D, R (renamed, perhaps edited), T (type)
    path: str | None
    new_path: str | None
    old_blob: str = NO_BLOB
    new_blob: str = NO_BLOB
    similarity: int = 100
    hunks: list[Hunk] = field(default_factory=list)
    binary: bool = False


@dataclass
class Changes:
    """The whole change: where, what it is called, and each file it touches, by its old path."""

    top: Path
    label: str  # ``A..B``, ``the index``, ``the work tree``
    base: str  # the commit of the old side
    head: str | None  # the commit of the new side (None: the index or the work tree)
    pending: str | None  # "staged" or "moved" for what is not committed yet
    #: the new side is the work tree: its files are read (git names a work tree file by the id its content
    #: would have, which is no object of the repository when the file is not staged)
    worktree: bool = False
    files: dict[str, Change] = field(default_factory=dict)
    #: the files the change adds (a copy's new file too): path -> blob
    added: dict[str, str] = field(default_factory=dict)
    _blobs: dict[str, bytes | None] = field(default_factory=dict)
    _deletions: dict[str, tuple[str, str]] | None = None

    def before(self, path: str, max_size: int) -> bytes | None:
        """The old side's content of ``path`` (None: none, or over ``max_size``)."""
        change = self.files[path]
        return self._blob(change.old_blob, None, max_size)

    def after(self, path: str, max_size: int) -> bytes | None:
        """The new side's content of the file ``path`` became (None: deleted, or over ``max_size``)."""
        change = self.files[path]
        if change.new_path is None:
            return None
        return self._blob(NO_BLOB if self.worktree else change.new_blob, change.new_path, max_size)

    def added_content(self, path: str, max_size: int) -> bytes | None:
        """The content of a file the change adds (None: over ``max_size``)."""
        return self._blob(NO_BLOB if self.worktree else self.added[path], path, max_size)

    def deletion(self, path: str) -> tuple[str, str] | None:
        """The newest commit of the range that deleted ``path`` (or renamed it away), with its date: one
        ``git log`` over the range for every file the change deletes or renames, asked once."""
        if self.head is None:
            return None
        if self._deletions is None:
            gone = [p for p, c in self.files.items() if c.new_path != p]
            self._deletions = {}
            for i in range(0, len(gone), 2000):
                out = _run(
                    self.top,
                    *("log", "--no-renames", "--diff-filter=D", "--name-only", "-z", "--format=%x01%H %cs"),
                    *(f"{self.base}..{self.head}", "--"),
                    *(f":(literal){p}" for p in gone[i : i + 2000]),
                )
                for part in out.split(b"\x01")[1:]:
                    head, _, names = part.partition(b"\0")
                    words = head.split()
                    for name in names.lstrip(b"\n").split(b"\0"):
                        if name and len(words) >= 2:
                            self._deletions.setdefault(os.fsdecode(name), (words[0].decode(), words[1].decode()))
        return self._deletions.get(path)

    def at_head(self, path: str, max_size: int) -> bytes | None:
        """The content of ``path`` on the new side (the head commit's, else the work tree's)."""
        if self.head is None:
            return self._blob(NO_BLOB, path, max_size)
        key = f"{self.head}:{path}"
        if key not in self._blobs:
            from ..drift.history import Blobs

            blobs = Blobs(self.top, max_size)
            try:
                self._blobs[key] = blobs.get(key)
            finally:
                blobs.close()
        return self._blobs[key]

    def load(self, max_size: int) -> None:
        """Fetch both sides of every changed file at once (one ``git cat-file --batch``)."""
        wanted = {c.old_blob for c in self.files.values() if c.path is not None}
        wanted |= {c.new_blob for c in self.files.values() if c.new_path is not None} | set(self.added.values())
        wanted = {b for b in wanted if b != NO_BLOB and b not in self._blobs}
        if not wanted:
            return
        from ..drift.history import Blobs

        blobs = Blobs(self.top, max_size)
        try:
            for blob in sorted(wanted):
                self._blobs[blob] = blobs.get(blob)
        finally:
            blobs.close()

    def _blob(self, blob: str, worktree_path: str | None, max_size: int) -> bytes | None:
        if blob == NO_BLOB:
            if worktree_path is None:
                return None
            try:
                full = self.top / worktree_path
                if full.stat().st_size > max_size:
                    return None
                return full.read_bytes()
            except OSError:
                return None
        if blob not in self._blobs:
            self.load(max_size)
        return self._blobs.get(blob)


def _run(top: Path, *args: str) -> bytes:
    try:
        r = subprocess.run(["git", *args], cwd=top, capture_output=True, timeout=300)
    except FileNotFoundError:
        raise TextFragError("impact reads the change from git, and git is not installed (no `git` on PATH)") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise TextFragError(f"git cannot be run: {exc}") from None
    if r.returncode != 0:
        said = r.stderr.decode("utf-8", "replace").strip().splitlines()
        raise TextFragError(f"git cannot read the change: {said[0] if said else 'git diff failed'}")
    if len(r.stdout) > MAX_DIFF:
        raise TextFragError(f"the change's diff is larger than {MAX_DIFF >> 20} MB; give a smaller range")
    return r.stdout


def top_of(folder: Path) -> Path:
    """The top of the git work tree holding ``folder``; a clear error when there is none."""
    try:
        r = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, timeout=60)
    except FileNotFoundError:
        raise TextFragError("impact reads the change from git, and git is not installed (no `git` on PATH)") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise TextFragError(f"git cannot be run: {exc}") from None
    if r.returncode != 0:
        raise TextFragError(f"{folder} is not in a git work tree: impact reads the change from git")
    return Path(os.fsdecode(r.stdout.strip())).resolve()


def read_changes(folder: Path, revisions: str | None, *, staged: bool = False) -> Changes:
    """The change ``revisions`` makes (``A..B``, ``A...B`` from their merge base, or one revision against
    the work tree, as ``git diff`` reads it), or the index's against HEAD (``staged``), or by default the
    work tree's against HEAD (staged or not)."""
    top = top_of(folder)
    diff = ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--no-abbrev"]
    if revisions is not None:
        if revisions.startswith("-") or not revisions.strip():
            raise TextFragError(f"{revisions!r} is not a range of commits (give A..B, A...B or a commit)")
        spec = [revisions]
        pending = None
        if "..." in revisions:
            a, b = revisions.split("...", 1)
            base = _commit(top, _merge_base(top, a or "HEAD", b or "HEAD"))
            head: str | None = _commit(top, b or "HEAD")
        elif ".." in revisions:
            a, b = revisions.split("..", 1)
            base, head = _commit(top, a or "HEAD"), _commit(top, b or "HEAD")
        else:
            base, head, pending = _commit(top, revisions), None, "moved"
        label = revisions
    elif staged:
        spec, label, pending = ["--cached", "HEAD"], "the index", "staged"
        base, head = _commit(top, "HEAD"), None
    else:
        spec, label, pending = ["HEAD"], "the work tree", "moved"
        base, head = _commit(top, "HEAD"), None
    raw = _run(top, *diff, "--raw", "-p", "-U0", *spec, "--")
    changes = Changes(top, label, base, head, pending, worktree=head is None and not staged)
    _parse(raw, changes)
    return changes


def _commit(top: Path, rev: str) -> str:
    if not rev.startswith("-"):
        try:
            return _run(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode("ascii").strip()
        except TextFragError:
            pass
    raise TextFragError(f"{rev!r} is not a commit of the repository at {top} (give A..B, A...B or a commit)")


def _merge_base(top: Path, a: str, b: str) -> str:
    return _run(top, "merge-base", _commit(top, a), _commit(top, b)).decode("ascii").strip()


def _parse(out: bytes, changes: Changes) -> None:
    """``git diff --raw -p -U0``: the raw lines (one per file), then each file's patch in the same order."""
    lines = out.split(b"\n")
    order: list[Change] = []
    i = 0
    while i < len(lines) and lines[i].startswith(b":"):
        meta, _, paths = lines[i].partition(b"\t")
        m = meta.split()
        names = [_unquote(p) for p in _split_paths(paths)]
        if len(m) >= 5 and names:
            status = m[4][:1].decode("ascii")
            score = m[4][1:].decode("ascii")
            old_blob, new_blob = m[2].decode("ascii"), m[3].decode("ascii")
            if status in ("R", "C") and len(names) >= 2:
                change = Change(status, names[0], names[1], old_blob, new_blob, int(score) if score.isdigit() else 100)
            elif status == "A":
                change = Change("A", None, names[0], old_blob, new_blob)
            elif status == "D":
                change = Change("D", names[0], None, old_blob, new_blob)
            else:
                change = Change(status, names[0], names[0], old_blob, new_blob)
            order.append(change)
        i += 1
    section = -1
    current: Change | None = None
    removed: list[str] = []
    added: list[str] = []
    hunk: tuple[int, int, int, int] | None = None

    def close() -> None:
        nonlocal hunk, removed, added
        if current is not None and hunk is not None:
            current.hunks.append(Hunk(*hunk, tuple(removed), tuple(added)))
        hunk, removed, added = None, [], []

    for line in lines[i:]:
        if line.startswith(b"diff --git ") or line.startswith(b"diff --cc "):
            close()
            section += 1
            current = order[section] if section < len(order) else None
            continue
        if current is None:
            continue
        if line.startswith(b"@@"):
            close()
            h = _HUNK.match(line)
            if h:
                a, b, c, d = h.groups()
                hunk = (int(a), 1 if b is None else int(b), int(c), 1 if d is None else int(d))
            continue
        if hunk is None:
            if line.startswith(b"Binary files "):
                current.binary = True
            continue
        if line.startswith(b"-"):
            removed.append(line[1:].decode("utf-8", "replace"))
        elif line.startswith(b"+"):
            added.append(line[1:].decode("utf-8", "replace"))
    close()
    for change in order:
        if change.status == "C" or change.path is None:  # (a copy leaves its source as it was)
            changes.added[change.new_path or ""] = change.new_blob
            continue
        changes.files[change.path] = change


def _split_paths(field: bytes) -> list[bytes]:
    """The one or two paths of a raw line (tab-separated; a quoted one may hold an escaped tab)."""
    return field.split(b"\t")


_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


def _unquote(path: bytes) -> str:
    """A path as git writes it: as it is, or C-quoted (``"a\\tb"``, octal bytes) when it holds control
    characters, quotes or backslashes."""
    if not (path.startswith(b'"') and path.endswith(b'"') and len(path) >= 2):
        return os.fsdecode(path)
    body, out, i = path[1:-1], bytearray(), 0
    while i < len(body):
        ch = body[i : i + 1]
        if ch == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            octal = body[i + 1 : i + 4]
            if len(octal) == 3 and all(48 <= c <= 55 for c in octal):
                out.append(int(octal, 8))
                i += 4
                continue
        out += ch
        i += 1
    return os.fsdecode(bytes(out))
