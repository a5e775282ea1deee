"""Declared sources: files of other repositories, quoted as ``txtfrag://NAME/PATH``.

A project names each repository once, in ``textfrag.toml`` (or the ``[tool.textfrag]`` table of
``pyproject.toml``) at its root or in a folder above it, up to the top of its git work tree::

    [sources]
    sdk = { git = "https://github.com/org/sdk", rev = "v1.4.0" }

``textfrag sources fetch`` records in ``textfrag-sources.lock``, beside that file, the commit each
revision resolved to, and fetches exactly that commit into the cache (:mod:`.fetching`). Every build and
command reads the lock's commit, never the moving branch, from git's objects in the cache: no network,
and the same bytes on every machine and day. A file of a source gets the bounds a local file gets (its
size, a symbolic link that stays inside the source, a regular file), and a submodule is never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import SourceError, TextFragError
from .gitrun import has_commit, redacted, safe_url
from .paths import SOURCE_NAME

if TYPE_CHECKING:  # (a run whose files are all known from the store starts no git, nor imports it)
    from .gittree import GitTree

__all__ = [
    "LOCK_NAME",
    "Declared",
    "Locked",
    "Sources",
    "default_cache",
    "git_dir_of",
    "has_commit",
    "read_lock",
    "textfrag_table",
    "write_lock",
]

LOCK_NAME = "textfrag-sources.lock"
_FORMAT = 1
_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
#: the files that may declare sources, in the order they are looked for in each folder
DECLARING = ("textfrag.toml", "pyproject.toml")


class Declared(NamedTuple):
    """A source as the configuration names it."""

    name: str
    git: str
    rev: str


class Locked(NamedTuple):
    """A source as the lock records it: the revision it followed and the commit that resolved to."""

    name: str
    git: str
    rev: str
    commit: str
    #: the commit it followed before ``textfrag sources update`` moved it (what a stale quote was made for)
    previous: str | None = None


def default_cache() -> Path:
    """Where fetched sources are kept when nothing says: ``$XDG_CACHE_HOME/textfrag/sources`` (or
    ``~/.cache/textfrag/sources``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "textfrag" / "sources"


def git_dir_of(cache: Path, url: str) -> Path:
    """The bare repository in the cache that holds the commits fetched of ``url`` (keyed by the URL
    without its credentials; the commits in it are git's, named by their content)."""
    shown = redacted(url)
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", shown.rstrip("/").removesuffix(".git").rsplit("/", 1)[-1])[:40] or "source"
    return cache / f"{slug}-{hashlib.sha256(shown.encode('utf-8')).hexdigest()[:16]}.git"


def _declaring_file(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest file at or above ``folder`` (up to the git work tree's top) that declares sources, and
    its textfrag table."""
    here = folder.resolve()
    while True:
        for name in DECLARING:
            path = here / name
            table = textfrag_table(path, "sources")
            if table is not None and "sources" in table:
                return path, table
        if os.path.exists(here / ".git") or here.parent == here:
            return None
        here = here.parent


def textfrag_table(path: Path, key: str) -> dict[str, Any] | None:
    """textfrag's table of a ``textfrag.toml`` (the file) or a ``pyproject.toml`` (``[tool.textfrag]``),
    when the file's text names ``key`` (a file that does not is not parsed); None when there is none.
    :class:`SourceError` naming the file for one that is not TOML."""
    try:
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    if key not in text:
        return None
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            raise SourceError(f"reading {path} needs Python 3.11 or tomli (pip install tomli)") from None
    try:
        data: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(f"{path}: not valid TOML ({exc})") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("textfrag") if isinstance(data.get("tool"), dict) else None
    return data if isinstance(data, dict) else None


def _declared(path: Path, table: dict[str, Any]) -> dict[str, Declared]:
    sources = table.get("sources")
    if not isinstance(sources, dict):
        raise SourceError(f"{path}: sources must be a table (sdk = {{ git = URL, rev = TAG }})")
    out: dict[str, Declared] = {}
    for name, value in sources.items():
        where = f"{path}: sources.{name}"
        if not SOURCE_NAME.fullmatch(name):
            raise SourceError(f"{where}: a source's name is lower-case letters, digits, '-' and '_'")
        if not isinstance(value, dict):
            raise SourceError(f"{where}: expected {{ git = URL, rev = TAG }}")
        unknown = sorted(set(value) - {"git", "rev"})
        if unknown:
            raise SourceError(f"{where}: unknown key {unknown[0]!r} (a source has git and rev)")
        rev = value.get("rev", "HEAD")
        if (
            not isinstance(rev, str)
            or not rev
            or rev.startswith("-")
            or any(c.isspace() or ord(c) < 0x20 or c in "\x7f~^:?*[\\" for c in rev)
        ):
            raise SourceError(f"{where}: rev must be a tag, a branch or a commit, not {rev!r}")
        out[name] = Declared(name, safe_url(value.get("git"), where), rev)
    return out


def read_lock(path: Path) -> dict[str, Locked]:
    """The records of ``textfrag-sources.lock`` (none when there is no file); :class:`SourceError` naming
    the file for one textfrag did not write."""
    try:
        if path.stat().st_size > 1 << 20:
            raise SourceError(f"{path}: the lock is over 1 MB; it is not one textfrag wrote")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot read the lock: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}:{exc.lineno}: the lock is not valid JSON ({exc.msg}); `git checkout` it") from None
    records = data.get("sources") if isinstance(data, dict) and data.get(LOCK_NAME) == _FORMAT else None
    if not isinstance(records, dict):
        raise SourceError(f'{path}: not a lock textfrag wrote (expected {{"{LOCK_NAME}": {_FORMAT}, "sources": ...}})')
    out: dict[str, Locked] = {}
    for name, record in records.items():
        got = record if isinstance(record, dict) else {}
        git_url, rev, commit, previous = (got.get(k) for k in ("git", "rev", "commit", "previous"))
        if (
            not isinstance(git_url, str)
            or not isinstance(rev, str)
            or not isinstance(commit, str)
            or not _COMMIT.fullmatch(commit)
            or not (previous is None or (isinstance(previous, str) and _COMMIT.fullmatch(previous)))
        ):
            raise SourceError(f"{path}: the record of {name!r} is not one textfrag wrote; `git checkout` the lock")
        out[name] = Locked(name, git_url, rev, commit, previous)
    return out


def write_lock(path: Path, records: dict[str, Locked]) -> bool:
    """Write the lock's records (sorted, one source per line, no credential); whether the file changed."""
    data = {
        LOCK_NAME: _FORMAT,
        "sources": {
            n: {"git": redacted(r.git), "rev": r.rev, "commit": r.commit, **({"previous": r.previous} if r.previous else {})}
            for n, r in sorted(records.items())
        },
    }
    text = json.dumps(data, indent=2) + "\n"
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return True


class Sources:
    """The declared sources of one project, their lock and the cache their commits are read from."""

    def __init__(self, file: Path | None, declared: dict[str, Declared], cache: Path, fetch: bool) -> None:
        #: the file that declares them (None: none is declared)
        self.file = file
        self.declared = declared
        self.cache = cache
        #: whether a build may fetch a locked commit missing from the cache (``fetch = true``, TEXTFRAG_FETCH=1)
        self.fetch = fetch
        self.lock_path = file.parent / LOCK_NAME if file is not None else None
        self._locked: dict[str, Locked] | None = None
        self._trees: dict[str, GitTree | TextFragError] = {}  # (NAME^: its previous commit)
        self._mutex = threading.Lock()

    @classmethod
    def find(cls, root: Path) -> Sources:
        """The sources declared at or above ``root``; :class:`SourceError` for a declaration that is wrong."""
        found = _declaring_file(root)
        env_cache = os.environ.get("TEXTFRAG_SOURCES_CACHE")
        env_fetch = os.environ.get("TEXTFRAG_FETCH", "").strip().lower() in ("1", "true", "yes", "on")
        if found is None:
            return cls(None, {}, Path(env_cache) if env_cache else default_cache(), env_fetch)
        path, table = found
        cache_setting = table.get("sources_cache")
        if cache_setting is not None and not isinstance(cache_setting, str):
            raise SourceError(f"{path}: sources_cache must be a folder's path")
        cache = Path(env_cache) if env_cache else (path.parent / cache_setting if cache_setting else default_cache())
        fetch = table.get("fetch_sources", False)
        if not isinstance(fetch, bool):
            raise SourceError(f"{path}: fetch_sources must be true or false")
        return cls(path, _declared(path, table), cache, fetch or env_fetch)

    @property
    def locked(self) -> dict[str, Locked]:
        if self._locked is None:
            self._locked = read_lock(self.lock_path) if self.lock_path is not None else {}
        return self._locked

    def record(self, name: str) -> Locked:
        """The lock's record of the declared source ``name``, or :class:`SourceError` saying what to run."""
        declared = self.declared.get(name)
        if declared is None:
            where = f" ({self.file} declares {', '.join(sorted(self.declared)) or 'none'})" if self.file else ""
            raise SourceError(
                f"no source named {name} is declared{where}: declare it under [sources] in textfrag.toml, "
                f'as {name} = {{ git = "https://...", rev = "v1.0" }}, then run `textfrag sources fetch`'
            )
        record = self.locked.get(name)
        if record is None or (redacted(record.git), record.rev) != (redacted(declared.git), declared.rev):
            said = "is not in the lock" if record is None else f"is locked at {record.rev}, but declared at {declared.rev}"
            if record is not None and redacted(record.git) != redacted(declared.git):
                said = "is locked for another repository than the one declared"
            raise SourceError(f"the source {name} {said} ({self.lock_path}): run `textfrag sources fetch`")
        return record

    def tree(self, name: str) -> GitTree:
        """The locked commit of the source ``name``, read from the cache (fetched first when the
        configuration allows it); :class:`SourceError` saying what to run when it cannot be."""
        with self._mutex:
            tree = self._trees.get(name)
            if tree is None:
                try:
                    tree = self._open(name)
                except TextFragError as failure:
                    tree = failure
                self._trees[name] = tree
        if isinstance(tree, TextFragError):
            raise tree
        return tree

    def _open(self, name: str) -> GitTree:
        record = self.record(name)
        git_dir = git_dir_of(self.cache, record.git)
        label = f"{name} ({redacted(record.git)} at {record.commit[:10]})"
        from .gittree import GitTree

        tree = GitTree(git_dir, record.commit, name, label)
        if not has_commit(git_dir, record.commit):
            if not self.fetch:
                raise SourceError(
                    f"the source {name}'s commit {record.commit[:10]} is not in the cache {self.cache}: run "
                    "`textfrag sources fetch` (and keep that folder between CI runs), or set fetch_sources = true"
                )
            from .fetching import fetch_commit

            fetch_commit(git_dir, self.declared[name].git, record.commit, name)
        return tree

    def tree_at(self, name: str, rev: str) -> GitTree:
        """The source ``name`` at another revision than the lock's (a pasted permalink's), fetched from the
        declared URL when the cache lacks it (``textfrag pin``: a command the user runs)."""
        from .fetching import fetch_commit, resolve_rev

        declared = self.declared[name]
        commit = resolve_rev(declared.git, rev, name)
        git_dir = git_dir_of(self.cache, declared.git)
        fetch_commit(git_dir, declared.git, commit, name)
        from .gittree import GitTree

        return GitTree(git_dir, commit, name, f"{name} at {commit[:10]}")

    def previous_tree(self, name: str) -> GitTree | None:
        """The commit the source ``name`` followed before its last update, when the lock records one and the
        cache holds it (fetched when the configuration allows): what a quote made before it is compared with."""
        from .gittree import GitTree

        key = f"{name}^"
        with self._mutex:
            if key not in self._trees:
                record = self.locked.get(name)
                tree: GitTree | TextFragError | None = None
                if record is not None and record.previous is not None:
                    git_dir = git_dir_of(self.cache, record.git)
                    try:
                        if not has_commit(git_dir, record.previous) and self.fetch:
                            from .fetching import fetch_commit

                            declared = self.declared.get(name)  # (its URL as declared: a credential is never locked)
                            fetch_commit(git_dir, declared.git if declared else record.git, record.previous, name)
                        if has_commit(git_dir, record.previous):
                            tree = GitTree(git_dir, record.previous, name, f"{name} at {record.previous[:10]}")
                    except TextFragError:
                        tree = None
                self._trees[key] = tree if tree is not None else SourceError(f"no earlier commit of {name}")
            found = self._trees[key]
        return found if isinstance(found, GitTree) else None

    def override(self, record: Locked) -> None:
        """Read the source ``record.name`` at ``record.commit`` in this run (``sources update`` without
        ``--write``: what the lock would say), not at the lock's."""
        self.locked[record.name] = record
        self.declared[record.name] = Declared(record.name, self.declared[record.name].git, record.rev)
        with self._mutex:
            self._trees.pop(record.name, None)
            self._trees.pop(f"{record.name}^", None)

    def close(self) -> None:
        for tree in self._trees.values():
            if not isinstance(tree, TextFragError):
                tree.close()
