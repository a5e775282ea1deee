"""The git history textfrag looks in to explain drift: one pass for every file at once, newest first.

For each quoted file that is stale (or missing), the version its reference's md5 (or length) describes
is wanted. All of a work tree's wanted files are looked up in one ``git log`` over their paths, read as
it streams, newest commit first; each new blob is fetched through one ``git cat-file --batch`` process
and hashed once; the log is stopped as soon as every file has what it needs. A missing file's deletion
commit comes out of the same pass, and ``git diff-tree -M`` of that one commit says whether it was a
rename (at any similarity git reports). A file whose history begins with a rename is then followed
with ``git log --follow``, the only per-file search, and only when the pass did not find its version.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TextFragError
from ..reference.fragment import Fragment
from ..reference.integrity import integrity_of
from ..source.cache import Source

__all__ = ["Fate", "History", "NoGit", "Version"]

#: Versions of one file looked at, newest first; history older than this is not searched.
MAX_VERSIONS = 200
#: Renames followed from a missing path to the file it is now.
MAX_RENAMES = 8
#: Bytes of pathspec given to one ``git log`` (more paths run in several passes).
MAX_PATHSPEC = 60_000
#: Files added or changed between two commits looked into for the text of a file deleted in between.
MAX_SUCCESSORS = 400


class NoGit(Exception):
    """git is not installed (not on PATH), or cannot be run."""


@dataclass(frozen=True)
class Version:
    """A version of a file in history: the commit and the file's content there (``C^``: the version just
    before commit ``C`` changed it, which a merge may have made)."""

    commit: str
    source: Source

    @property
    def short(self) -> str:
        return short_commit(self.commit)


def short_commit(commit: str) -> str:
    """A commit as messages name it: 10 hex digits (and ``^`` for the version before it)."""
    return commit[:10] + ("^" if commit.endswith("^") else "")


@dataclass(frozen=True)
class Fate:
    """What became of a path that is missing now: deleted or renamed, in which commit and when."""

    commit: str
    date: str  # YYYY-MM-DD, the committer's
    renamed_to: str | None = None  # the path now (relative to the work tree's top), renames followed
    similarity: int = 100  # percent, as git reports the (last) rename
    #: for a file renamed and later deleted: the last name it had (``commit``/``date`` are the deletion's)
    last_name: str | None = None
    #: the rename is not committed yet: "staged" (git mv, in the index) or "moved" (in the work tree only)
    pending: str | None = None
    #: a declared source's file: the commits it changed between (``in the source sdk, from A to B``)
    between: str | None = None

    @property
    def short(self) -> str:
        return self.commit[:10]


@dataclass
class _File:
    """What is wanted of one file's history and what has been found."""

    rel: str
    charset: str
    #: str(fragment) -> fragment; or a key -> a test of a version (guard mode: what an include showed)
    wanted: dict[str, Fragment | Callable[[Source], bool]] = field(default_factory=dict)
    found: dict[str, list[Version]] = field(default_factory=dict)
    blobs: set[str] = field(default_factory=set)  # blob ids already hashed
    #: versions seen only as what a commit changed (blob -> md5), until an older commit shows it made
    made_by_merge: dict[str, str] = field(default_factory=dict)
    versions: int = 0
    searched: set[str] = field(default_factory=set)  # fragments the pass has run for
    deleted: tuple[str, str] | None = None  # (commit, date) of the newest deletion
    born: bool = False  # the pass reached the commit that added the file (its history may go on under another name)
    missing: bool = False  # the path does not exist now: its deletion is wanted too
    fate: Fate | None = None

    def done(self) -> bool:
        if self.versions >= MAX_VERSIONS:
            return True
        for key, fragment in self.wanted.items():
            if key in self.found and _has_md5(fragment) and not self.found[key][0].commit.endswith("^"):
                continue  # an md5 names one version (once the commit that made it is known)
            return False  # a length alone: every version is looked at (two may fit)
        return True


def _has_md5(fragment: Fragment | Callable[[Source], bool]) -> bool:
    """Whether one version is all that is wanted (an md5 names one; a test is met by the newest)."""
    return not isinstance(fragment, Fragment) or any(c.name == "md5" for c in fragment.known_checks)


def described(old: Source, fragment: Fragment | Callable[[Source], bool]) -> bool:
    """Whether ``old`` is the version the reference's checks describe (its md5 first, else its length),
    or the version a test wants."""
    if not isinstance(fragment, Fragment):
        try:
            return fragment(old)
        except TextFragError:
            return False
    checks = fragment.known_checks
    md5s = [c for c in checks if c.name == "md5"]
    wanted = md5s or [c for c in checks if c.name == "length"]
    try:
        return bool(wanted) and all(integrity_of(old, c) == c.value.lower() for c in wanted)
    except TextFragError:
        return False


def _git(cwd: Path, *args: str, input: bytes | None = None) -> bytes | None:
    """git's output, None when git says no (not a work tree, no such object), NoGit when there is no git."""
    try:
        r = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, timeout=120)
    except FileNotFoundError:
        raise NoGit("git is not installed (no `git` on PATH)") from None
    except PermissionError:
        raise NoGit("git cannot be run (permission denied)") from None
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout if r.returncode == 0 else None


def _spawn(cwd: Path, *args: str, stdin: bool = False) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise NoGit("git is not installed (no `git` on PATH)") from None
    except OSError as exc:
        raise NoGit(f"git cannot be run ({exc.strerror})") from None


class Blobs:
    """One ``git cat-file --batch`` process: blob contents by id, a blob over the size limit skipped."""

    def __init__(self, top: Path, max_size: int) -> None:
        self.proc = _spawn(top, "cat-file", "--batch", stdin=True)
        self.max_size = max_size

    def get(self, blob: str) -> bytes | None:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write(blob.encode("ascii") + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob" or not header[2].isdigit():
            return None  # "missing", or not a blob
        size = int(header[2])
        if size > self.max_size:  # checked before anything of that size is held
            left = size + 1
            while left:
                left -= len(stdout.read(min(left, 1 << 20)) or b"\0" * left)
            return None
        data = stdout.read(size)
        stdout.read(1)  # the LF after the content
        return data

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.SubprocessError):
            self.proc.kill()
            self.proc.wait()
        finally:
            if self.proc.stdout is not None:
                self.proc.stdout.close()  # (left open, it is a ResourceWarning)


class History:
    """The git history of one run (a check, an update, a build): work trees found once, every wanted
    file searched in one pass per work tree, each blob hashed once. Safe to share between threads."""

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._tops: dict[str, Path | None] = {}
        self._files: dict[tuple[Path, str], _File] = {}
        self._between: dict[tuple[Path, str, str], list[tuple[str, str | None]]] = {}
        self._renamed: dict[tuple[Path, str], dict[str, tuple[str, int]]] = {}
        self._lock = threading.RLock()
        #: per work tree: renames not committed yet (the index's, the work tree's)
        self._pending: dict[Path, dict[str, Fate]] = {}

    # -- where ---------------------------------------------------------------------------------------

    def top_of(self, folder: Path) -> Path | None:
        """The top of the git work tree holding ``folder`` (None: not in one); NoGit without git."""
        key = str(folder)
        if key not in self._tops:
            d = folder
            while not d.is_dir() and d != d.parent:  # a missing file's folder may be gone too
                d = d.parent
            out = _git(d, "rev-parse", "--show-toplevel")
            self._tops[key] = Path(os.fsdecode(out.strip())).resolve() if out else None
        return self._tops[key]

    def shallow(self, top: Path) -> bool:
        """Whether the work tree at ``top`` is a shallow clone (CI's default: part of the history only)."""
        key = f"shallow:{top}"
        if key not in self._tops:
            out = _git(top, "rev-parse", "--is-shallow-repository")
            self._tops[key] = top if out is not None and out.strip() == b"true" else None
        return self._tops[key] is not None

    def locate(self, real_path: Path) -> tuple[Path, str] | None:
        """(work tree top, path relative to it) for a real path, or None when it is not in a work tree."""
        top = self.top_of(real_path.parent)
        if top is None:
            return None
        try:
            return top, real_path.relative_to(top).as_posix()
        except ValueError:
            return None

    # -- what is wanted --------------------------------------------------------------------------------

    def want(self, top: Path, rel: str, fragment: Fragment | None, charset: str, *, missing: bool = False) -> None:
        """Ask for the version of ``rel`` that ``fragment``'s checks describe (None: only the newest
        version); with ``missing``, also for its deletion (see :meth:`fate`)."""
        with self._lock:
            f = self._files.setdefault((top, rel), _File(rel, charset))
            if fragment is not None and str(fragment) not in f.wanted:
                f.wanted[str(fragment)] = fragment
                if f.searched:  # the versions seen so far were not compared with this one: look again
                    f.blobs.clear()
                    f.made_by_merge.clear()
                    f.versions = 0
            if missing and not f.missing:
                f.missing = True
                f.searched.clear()

    def want_matching(self, top: Path, rel: str, key: str, test: Callable[[Source], bool], charset: str) -> None:
        """Ask for the newest version of ``rel`` for which ``test`` holds (guard mode: the version in which
        an include showed the text it records), under ``key``."""
        with self._lock:
            f = self._files.setdefault((top, rel), _File(rel, charset))
            if key not in f.wanted:
                f.wanted[key] = test
                if f.searched:
                    f.blobs.clear()
                    f.made_by_merge.clear()
                    f.versions = 0

    def matching(self, top: Path, rel: str, key: str) -> list[Version]:
        """The versions found for :meth:`want_matching`'s ``key``, newest first (searching if not yet done)."""
        self.search()
        f = self._files[(top, rel)]
        if key not in f.found and f.born and f.versions < MAX_VERSIONS:
            self._follow(top, f)
        return f.found.get(key, [])

    def versions(self, top: Path, rel: str, fragment: Fragment) -> list[Version]:
        """The versions that ``fragment``'s checks describe, newest first (searching if not yet done)."""
        self.search()
        f = self._files[(top, rel)]
        if str(fragment) not in f.found and f.born and f.versions < MAX_VERSIONS:
            self._follow(top, f)
        return f.found.get(str(fragment), [])

    def looked_at(self, top: Path, rel: str) -> int:
        """How many versions of the file were looked at."""
        return self._files[(top, rel)].versions

    def fate(self, top: Path, rel: str) -> Fate | None:
        """What became of a missing path: its newest deletion, a rename then followed to the path now."""
        self.search()
        f = self._files[(top, rel)]
        if f.deleted is None:  # not deleted in history: perhaps renamed and not committed yet
            return self._pending_renames(top).get(rel)
        if f.fate is None:
            f.fate = self.fate_of(top, f.deleted, rel)
        return f.fate

    def _pending_renames(self, top: Path) -> dict[str, Fate]:
        """Renames not committed yet: those in the index (``git mv``, what a pre-commit hook sees) and, in
        the work tree, a tracked file gone whose exact content is now an untracked file's."""
        with self._lock:
            if top in self._pending:
                return self._pending[top]
        out: dict[str, Fate] = {}
        staged = _git(top, "diff", "--cached", "-M", "--name-status", "-z", "HEAD") or b""
        fields = staged.split(b"\0")
        i = 0
        while i < len(fields) - 1:
            status = fields[i].decode("ascii", "replace")
            if status.startswith("R") and i + 2 < len(fields):
                old, new = os.fsdecode(fields[i + 1]), os.fsdecode(fields[i + 2])
                similarity = int(status[1:]) if status[1:].isdigit() else 100
                out[old] = Fate("", "", renamed_to=new, similarity=similarity, pending="staged")
                i += 3
            else:  # (a copy names two paths, any other change one)
                i += 3 if status.startswith("C") else 2
        gone = [os.fsdecode(p) for p in (_git(top, "ls-files", "--deleted", "-z") or b"").split(b"\0") if p]
        if gone:
            listed = _git(top, "ls-files", "--others", "--exclude-standard", "-z") or b""
            new_files = [os.fsdecode(p) for p in listed.split(b"\0") if p]
            if new_files and len(new_files) <= 10_000:
                hashed = _git(top, "hash-object", "--stdin-paths", input="\n".join(new_files).encode()) or b""
                by_blob = dict(zip(hashed.decode().split(), new_files, strict=False))
                blobs = _git(top, "ls-files", "-s", "-z", "--", *gone) or b""
                for entry in blobs.split(b"\0"):
                    meta, _, path = entry.partition(b"\t")
                    parts = meta.split()
                    if len(parts) >= 2 and os.fsdecode(path) not in out and parts[1].decode() in by_blob:
                        out[os.fsdecode(path)] = Fate("", "", renamed_to=by_blob[parts[1].decode()], pending="moved")
        with self._lock:
            self._pending[top] = out
        return out

    def successors(self, top: Path, old: str, new: str, rel: str) -> list[tuple[str, bool]]:
        """Where the text of ``rel`` (present at commit ``old``, deleted by commit ``new``) may be now: the
        files added or changed from ``old`` to ``new``, as ``(path, paired)``; ``paired`` when git's rename
        and copy detection pairs the file with ``rel`` (a copy made, then the original deleted), those
        first, then files of the same suffix. One ``git diff`` per pair of commits, kept; at most
        :data:`MAX_SUCCESSORS` files."""
        key = (top, old, new)
        with self._lock:
            if key not in self._between:
                out = _git(top, "diff", "-z", "-M", "-C", "--name-status", "--no-ext-diff", old, new) or b""
                fields = out.split(b"\0")
                found: list[tuple[str, str | None]] = []
                i = 0
                while i < len(fields) - 1:
                    status = fields[i][:1]
                    if status in (b"R", b"C") and i + 2 < len(fields):
                        found.append((os.fsdecode(fields[i + 2]), os.fsdecode(fields[i + 1])))
                        i += 3
                        continue
                    if status in (b"A", b"M"):
                        found.append((os.fsdecode(fields[i + 1]), None))
                    i += 2
                self._between[key] = found
            pairs = self._between[key]
        paired = [(path, True) for path, source in pairs if source == rel]
        # then the others, those of the same kind of file (its suffix) first; at most MAX_SUCCESSORS in all
        suffix = os.path.splitext(rel)[1]
        others = sorted(
            (path for path, source in pairs if source != rel and path != rel),
            key=lambda path: os.path.splitext(path)[1] != suffix,
        )
        return (paired + [(path, False) for path in others])[:MAX_SUCCESSORS]

    # -- the pass --------------------------------------------------------------------------------------

    def search(self) -> None:
        """Run one pass per work tree over every file with something new to find."""
        with self._lock:
            by_top: dict[Path, list[_File]] = {}
            for (top, _), f in self._files.items():
                if not f.searched or set(f.wanted) - f.searched:
                    by_top.setdefault(top, []).append(f)
            for top, files in by_top.items():
                group: list[_File] = []
                size = 0
                for f in files:
                    if group and size + len(f.rel) > MAX_PATHSPEC:
                        self._pass(top, group)
                        group, size = [], 0
                    group.append(f)
                    size += len(f.rel) + 12
                if group:
                    self._pass(top, group)

    def _pass(self, top: Path, files: list[_File]) -> None:
        for f in files:
            f.searched = set(f.wanted) | {""}
        by_rel = {f.rel: f for f in files}
        todo = {rel for rel, f in by_rel.items() if not self._satisfied(f)}
        args = ["log", "-z", "--raw", "--no-abbrev", "--no-renames", "--format=%x01%H %cs", "--"]
        args += [f":(literal){rel}" for rel in by_rel]
        log = _spawn(top, *args)
        blobs: Blobs | None = None
        try:
            assert log.stdout is not None
            buffer = b""
            while todo:
                chunk = log.stdout.read1(1 << 16) if hasattr(log.stdout, "read1") else log.stdout.read(1 << 16)
                last = not chunk
                buffer += chunk
                parts = buffer.split(b"\x01")
                buffer = b"" if last else parts.pop()
                for part in parts:
                    if not part:
                        continue
                    if blobs is None:
                        blobs = Blobs(top, self.max_size)
                    self._commit(part, by_rel, todo, blobs)
                    if not todo:
                        break
                if last:
                    break
        finally:
            if log.poll() is None:
                log.kill()
            log.wait()
            if log.stdout is not None:
                log.stdout.close()
            if blobs is not None:
                blobs.close()

    def _commit(self, part: bytes, by_rel: dict[str, _File], todo: set[str], blobs: Blobs) -> None:
        """One commit of the log: ``HASH DATE\\0\\n`` then ``:META\\0PATH\\0`` per file."""
        head, _, rest = part.partition(b"\0")
        words = head.split()
        if len(words) < 2:
            return
        commit, date = words[0].decode("ascii", "replace"), words[1].decode("ascii", "replace")
        fields = rest.lstrip(b"\n").split(b"\0")
        for meta, raw_path in zip(fields[0::2], fields[1::2], strict=False):
            rel = os.fsdecode(raw_path)
            f = by_rel.get(rel)
            if f is None or rel not in todo:
                continue
            m = meta.split()
            if len(m) < 5:
                continue
            status, blob, before = m[4][:1], m[3].decode("ascii"), m[2].decode("ascii")
            if status == b"D":
                if f.deleted is None:
                    f.deleted = (commit, date)
            else:
                if status == b"A":
                    f.born = True
                self._version(f, commit, blob, blobs)
            if status != b"A" and before.strip("0"):
                # (the version this commit changed: a merge may have made it, and merges show no diff)
                self._version(f, commit, before, blobs, before=True)
            if self._satisfied(f):
                todo.discard(rel)

    @staticmethod
    def _satisfied(f: _File) -> bool:
        """Whether the pass has nothing more to find for ``f``."""
        return f.done() and (f.deleted is not None or not f.missing)

    def _version(self, f: _File, commit: str, blob: str, blobs: Blobs, *, before: bool = False) -> None:
        """Look at one version: ``blob`` as ``commit`` made it, or (``before``) as it was before ``commit``
        changed it, until an older commit shows which one made it (a merge's version never shows)."""
        if blob in f.blobs:
            if not before and blob in f.made_by_merge:
                self._made_by(f, blob, commit)
            return
        if f.versions >= MAX_VERSIONS:
            return
        f.blobs.add(blob)
        f.versions += 1
        data = blobs.get(blob)
        if data is None:
            return
        try:
            old = Source(f.rel, data, f.charset)
        except TextFragError:
            return
        for key, fragment in f.wanted.items():
            seen = f.found.get(key, ())
            if any(v.source.md5 == old.md5 for v in seen) or (seen and _has_md5(fragment)):
                continue
            if described(old, fragment):
                f.found.setdefault(key, []).append(Version(f"{commit}^" if before else commit, old))
        if before:
            f.made_by_merge[blob] = old.md5

    @staticmethod
    def _made_by(f: _File, blob: str, commit: str) -> None:
        """The commit that made a version first seen as the one another commit changed."""
        md5 = f.made_by_merge.pop(blob)
        for key, found in f.found.items():
            f.found[key] = [Version(commit, v.source) if v.source.md5 == md5 and v.commit.endswith("^") else v for v in found]

    def _follow(self, top: Path, f: _File) -> None:
        """The versions before the file's history began under this name (``git log --follow``)."""
        f.born = False
        out = _git(
            top,
            "log",
            "--follow",
            f"--max-count={MAX_VERSIONS}",
            "-z",
            "--raw",
            "--no-abbrev",
            "--format=%x01%H %cs",
            "--",
            f":(literal){f.rel}",
        )
        if not out:
            return
        blobs = Blobs(top, self.max_size)
        try:
            for part in out.split(b"\x01"):
                head, _, rest = part.partition(b"\0")
                words = head.split()
                if len(words) < 2:
                    continue
                fields = rest.lstrip(b"\n").split(b"\0")
                for meta in fields:
                    m = meta.split()
                    if meta.startswith(b":") and len(m) >= 5 and m[4][:1] != b"D":
                        self._version(f, words[0].decode("ascii"), m[3].decode("ascii"), blobs)
        finally:
            blobs.close()

    def _renames_in(self, top: Path, commit: str) -> dict[str, tuple[str, int]]:
        """The renames of one commit, asked of git once per run (many files leave in one commit)."""
        with self._lock:
            if (top, commit) not in self._renamed:
                self._renamed[(top, commit)] = _renames(top, commit)
            return self._renamed[(top, commit)]

    def fate_of(self, top: Path, deleted: tuple[str, str], rel: str, exists: Callable[[str], bool] | None = None) -> Fate:
        """What the commit ``deleted`` (its id and date) did to ``rel``: deleted it, or renamed it (followed
        through later renames to a path that ``exists``: by default, a file of the work tree)."""
        commit, date = deleted
        path, similarity, renamed = rel, 100, False
        for _ in range(MAX_RENAMES):
            target, score = self._renames_in(top, commit).get(path, (None, 0))
            if target is None:
                break
            renamed, path, similarity = True, target, score
            if exists(target) if exists is not None else (top / target).is_file():
                return Fate(deleted[0], deleted[1], target, similarity)
            # renamed again later, or deleted: the newest deletion of the new name
            later = _git(top, "log", "-1", "--diff-filter=D", "--no-renames", "--format=%H %cs", "--", f":(literal){target}")
            words = (later or b"").split()
            if len(words) < 2:
                break
            commit, date = words[0].decode("ascii"), words[1].decode("ascii")
        if not renamed:
            return Fate(commit, date)
        return Fate(commit, date, None, similarity, last_name=path)


def _renames(top: Path, commit: str) -> dict[str, tuple[str, int]]:
    """Every rename of ``commit`` (as git's rename detection sees it): old path -> (new path, similarity)."""
    out = _git(top, "diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id", "--root", commit) or b""
    fields = out.split(b"\0")
    found: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(fields) - 1:
        status = fields[i]
        if status[:1] in (b"R", b"C"):
            if status[:1] == b"R" and i + 2 < len(fields):
                score = status[1:]
                found[os.fsdecode(fields[i + 1])] = (os.fsdecode(fields[i + 2]), int(score) if score.isdigit() else 100)
            i += 3
        else:
            i += 2
    return found
