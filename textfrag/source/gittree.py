"""One commit of a declared source, its files read from git's objects in the cache (textfrag.source.remote):
through two long-lived ``git cat-file`` processes, one that says an object's size and one that reads it, so
that nothing larger than the size limit is ever read, and many files are asked for at once (pipelined)."""

from __future__ import annotations

import io
import posixpath
import subprocess
import threading
import weakref
from pathlib import Path
from typing import cast

from ..errors import PathError, SourceError, TextFragError
from .gitrun import git_environment

__all__ = ["GitTree"]

#: a tree object larger than this (a folder of some hundred thousand names) is refused
_MAX_TREE = 32 << 20
#: symbolic links followed in one path, as the kernel's limit (ELOOP)
_MAX_LINKS = 40
#: requests written before their answers are read (well under a pipe's buffer: no deadlock)
_CHUNK = 256
#: bytes read ahead at most (files past it are read when asked for)
_AHEAD_BYTES = 64 << 20

_Entry = tuple[str, str]  # (mode, object id)


class GitTree:
    """One commit of a source, its files read from git's objects through two long-lived ``git cat-file``
    processes (one asks an object's size, the other reads it: nothing larger than the limit is read)."""

    def __init__(self, git_dir: Path, commit: str, name: str, label: str) -> None:
        self.git_dir = git_dir
        self.commit = commit
        self.name = name
        self.label = label
        self._lock = threading.Lock()
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._folders: dict[str, dict[str, _Entry] | None] = {}
        #: files read ahead (:meth:`prefetch`), or why each cannot be: taken by :meth:`read`
        self._ahead: dict[str, bytes | TextFragError] = {}
        self._oid_bytes = len(commit) // 2
        #: whether one ``git cat-file --batch-command`` answers (git 2.36 and later)
        self._one_process = True
        self._finalizer = weakref.finalize(self, _stop, self._procs)

    def close(self) -> None:
        self._finalizer()

    # -- git's objects -------------------------------------------------------------------------------

    def _process(self, mode: str) -> subprocess.Popen[bytes]:
        proc = self._procs.get(mode)
        if proc is None or proc.poll() is not None:
            proc = subprocess.Popen(
                ["git", "--git-dir", str(self.git_dir), "cat-file", mode],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=git_environment(),
            )
            self._procs[mode] = proc
        return proc

    def _send(self, kind: str, oids: list[str]) -> subprocess.Popen[bytes]:
        """Ask git for ``oids``, all at once (``kind``: "info", each one's type and size; "contents", its
        bytes after them): the process whose output answers them, in order. One ``git cat-file
        --batch-command`` answers both kinds; a git before 2.36, which lacks it, gets one process for each."""
        if self._one_process:
            proc = self._process("--batch-command")
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(b"".join(f"{kind} {oid}\n".encode("ascii") for oid in oids))
                proc.stdin.flush()
                if cast(io.BufferedReader, proc.stdout).peek(1):
                    return proc
            except OSError:  # (it exited: the option is unknown)
                pass
            self._one_process = False
            _stop({"--batch-command": self._procs.pop("--batch-command")})
        proc = self._process("--batch-check" if kind == "info" else "--batch")
        assert proc.stdin is not None
        try:
            proc.stdin.write(b"".join(oid.encode("ascii") + b"\n" for oid in oids))
            proc.stdin.flush()
        except OSError:  # (it exited: no repository there; its answers read as missing)
            pass
        return proc

    @staticmethod
    def _header(proc: subprocess.Popen[bytes]) -> tuple[str, int]:
        """The next answer's (type, size); ("missing", 0) for an object the cache lacks."""
        assert proc.stdout is not None
        header = proc.stdout.readline().split()
        return ("missing", 0) if len(header) != 3 else (header[1].decode("ascii", "replace"), int(header[2]))

    @staticmethod
    def _bytes(proc: subprocess.Popen[bytes], size: int) -> bytes:
        """The next answer's bytes (and the line feed after them)."""
        assert proc.stdout is not None
        return proc.stdout.read(size + 1)[:size]

    def _object(self, oid: str, max_size: int, shown: str, reference: str | None) -> tuple[str, bytes]:
        """(type, bytes) of an object, refused before it is read when it is over ``max_size``."""
        kind, size = self._header(self._send("info", [oid]))
        if kind == "missing":
            raise SourceError(f"{shown}: git's object {oid[:10]} is missing from the cache {self.git_dir}", reference=reference)
        if size > max_size:
            raise PathError(
                f"{shown} is {size} bytes, over the limit of {max_size} bytes (raise the size limit to read it)",
                reference=reference,
            )
        proc = self._send("contents", [oid])
        kind, size = self._header(proc)
        return kind, self._bytes(proc, size)

    def _folder(self, folder: str) -> dict[str, _Entry] | None:
        """The names in ``folder`` of the tree (``""``: its top) -> (mode, object id); None: not a folder."""
        if folder in self._folders:
            return self._folders[folder]
        if folder:
            parent, _, base = folder.rpartition("/")
            above = self._folder(parent)
            entry = above.get(base) if above is not None else None
            if entry is None or entry[0] != "40000":
                self._folders[folder] = None
                return None
            oid = entry[1]
        else:
            oid = f"{self.commit}^{{tree}}"
        _, data = self._object(oid, _MAX_TREE, f"//{self.name}/{folder}", None)
        names: dict[str, _Entry] = {}
        i, step = 0, self._oid_bytes
        while i < len(data):
            space = data.index(b" ", i)
            nul = data.index(b"\x00", space)
            mode = data[i:space].decode("ascii")
            names[data[space + 1 : nul].decode("utf-8", "surrogateescape")] = (mode, data[nul + 1 : nul + 1 + step].hex())
            i = nul + 1 + step
        self._folders[folder] = names
        return names

    # -- files ---------------------------------------------------------------------------------------

    def read(self, path: str, reference: str | None, max_size: int) -> bytes:
        """The bytes of the regular file ``path`` of this commit, with a local file's bounds: at most
        ``max_size`` bytes, a symbolic link followed only inside the source, never a submodule."""
        with self._lock:
            ahead = self._ahead.pop(path, None)
            if ahead is None:
                _, data = self._object(self._resolve(path, reference), max_size, f"//{self.name}/{path}", reference)
                return data
        if isinstance(ahead, TextFragError):
            raise ahead.with_reference(reference)
        return ahead

    def prefetch(self, paths: list[str], max_size: int) -> None:
        """Read ``paths`` ahead, all at once: their sizes asked in one stream of requests, then the files
        within ``max_size`` read in another (a build's files of a source cost two round trips, not two each)."""
        with self._lock:
            wanted: list[tuple[str, str]] = []
            for path in dict.fromkeys(paths):
                if path in self._ahead:
                    continue
                try:
                    wanted.append((path, self._resolve(path, None)))
                except TextFragError as failure:
                    self._ahead[path] = failure
            held = 0
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                kept = []
                asked = self._send("info", [oid for _, oid in chunk])
                for path, oid in chunk:
                    kind, size = self._header(asked)
                    if kind == "missing":
                        self._ahead[path] = SourceError(
                            f"//{self.name}/{path}: git's object {oid[:10]} is missing from the cache"
                        )
                    elif size > max_size:
                        self._ahead[path] = PathError(
                            f"//{self.name}/{path} is {size} bytes, over the limit of {max_size} bytes "
                            "(raise the size limit to read it)"
                        )
                    elif held + size <= _AHEAD_BYTES:  # (the rest is read when asked for: memory stays bounded)
                        held += size
                        kept.append((path, oid))
                if kept:
                    read = self._send("contents", [oid for _, oid in kept])
                    for path, _ in kept:
                        kind, size = self._header(read)
                        self._ahead[path] = self._bytes(read, size) if kind != "missing" else SourceError(path)

    def _resolve(self, path: str, reference: str | None) -> str:
        """The object id of the regular file ``path``: its folders walked (links followed inside the source)."""
        shown = f"//{self.name}/{path}"
        parts = path.split("/")
        links = 0
        i = 0
        while i < len(parts):
            folder = "/".join(parts[:i])
            names = self._folder(folder)
            entry = names.get(parts[i]) if names is not None else None
            if entry is None:
                raise self._missing(path, parts[:i], parts[i], reference)
            mode, oid = entry
            last = i == len(parts) - 1
            if mode == "120000":  # a symbolic link: its target, inside the source, or refused
                links += 1
                _, target_bytes = self._object(oid, 4096, shown, reference)
                target = target_bytes.decode("utf-8", "surrogateescape")
                joined = posixpath.normpath(posixpath.join(folder, target, *parts[i + 1 :]))
                if links > _MAX_LINKS or target.startswith("/") or joined == ".." or joined.startswith("../"):
                    raise PathError(
                        f"{shown!r} resolves outside the source {self.name} (through a symbolic link)", reference=reference
                    )
                parts, i = joined.split("/"), 0
                continue
            if mode == "160000":
                raise PathError(
                    f"{shown}: {'/'.join(parts[: i + 1])} is a submodule of the source {self.name}; textfrag never fetches "
                    "submodules: declare that repository as a source of its own",
                    reference=reference,
                )
            if not last:
                if mode != "40000":
                    raise self._missing(path, parts[:i], parts[i], reference)
                i += 1
                continue
            if mode == "40000":
                break
            return oid
        raise PathError(f"{shown} is a directory; only regular files can be read", reference=reference)

    def _missing(self, path: str, found: list[str], name: str, reference: str | None) -> PathError:
        import difflib

        names = self._folder("/".join(found)) or {}
        close = difflib.get_close_matches(name, list(names)[:5000], n=3, cutoff=0.6)
        prefix = "".join(f"{p}/" for p in found)
        said = f"no such file: //{self.name}/{path} (in the source {self.label})"
        if close:
            said += "; did you mean " + " or ".join(f"//{self.name}/{prefix}{c}" for c in close) + "?"
        missing = PathError(said, reference=reference)
        missing.no_such_file = True
        return missing

    def names(self, folder: str) -> list[tuple[str, bool]]:
        """The names in ``folder`` of this commit and whether each is a folder (the editor's completion)."""
        with self._lock:
            names = self._folder(folder.strip("/")) or {}
        return sorted((n, mode == "40000") for n, (mode, _) in names.items() if mode != "160000")


def _stop(procs: dict[str, subprocess.Popen[bytes]]) -> None:
    for proc in procs.values():
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()
    procs.clear()
