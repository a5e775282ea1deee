"""The history of a declared source's files, for telling moved from changed (textfrag.drift.classify).

A quote of ``txtfrag://NAME/PATH`` was made for the commit the source followed before its last update
(the lock's ``previous``; ``textfrag sources update`` records it), not for a version in the docs'
own git history. :class:`SourcesHistory` answers the questions :class:`~textfrag.drift.history.History`
answers, for such a path, from that commit (read from git's objects in the cache), and a renamed or
deleted file from the difference between the two commits (``git diff-tree -M``). Every other path is the
docs' own history's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import TextFragError
from ..reference.fragment import Fragment
from ..source.cache import Source
from ..source.gitrun import git
from .history import Fate, History, Version, described

__all__ = ["SourcesHistory"]


def _name(top: Path) -> str | None:
    """The source a "work tree top" ``//NAME`` stands for (None: a real folder)."""
    text = str(top)
    return text[2:] if text.startswith("//") and "/" not in text[2:] else None


class SourcesHistory(History):
    """The docs' git history, and for ``//NAME/PATH`` the source's previous commit."""

    def __init__(self, max_size: int, sources: Callable[[], Any]) -> None:
        super().__init__(max_size)
        self._sources = sources
        self._charsets: dict[tuple[str, str], str] = {}
        self._old: dict[tuple[str, str], Source | None] = {}
        self._fates: dict[str, dict[str, Fate]] = {}

    def locate(self, real_path: Path) -> tuple[Path, str] | None:
        text = str(real_path)
        if text.startswith("//"):
            name, _, rel = text[2:].partition("/")
            return Path(f"//{name}"), rel
        return super().locate(real_path)

    def shallow(self, top: Path) -> bool:
        return False if _name(top) is not None else super().shallow(top)

    def want(self, top: Path, rel: str, fragment: Fragment | None, charset: str, *, missing: bool = False) -> None:
        name = _name(top)
        if name is None:
            super().want(top, rel, fragment, charset, missing=missing)
        else:
            self._charsets[(name, rel)] = charset

    def _previous(self, name: str, rel: str) -> Source | None:
        """The file as the source's previous commit holds it (None: no such commit or file)."""
        key = (name, rel)
        if key not in self._old:
            old: Source | None = None
            try:
                tree = self._sources().previous_tree(name)
                if tree is not None:
                    data = tree.read(rel, None, self.max_size)
                    old = Source(f"//{name}/{rel}", data, self._charsets.get(key, "utf-8"))
            except TextFragError:
                old = None
            self._old[key] = old
        return self._old[key]

    def versions(self, top: Path, rel: str, fragment: Fragment) -> list[Version]:
        name = _name(top)
        if name is None:
            return super().versions(top, rel, fragment)
        old = self._previous(name, rel)
        if old is None or not described(old, fragment):
            return []
        return [Version(self._sources().previous_tree(name).commit, old)]

    def looked_at(self, top: Path, rel: str) -> int:
        name = _name(top)
        if name is None:
            return super().looked_at(top, rel)
        return int(self._previous(name, rel) is not None)

    def fate(self, top: Path, rel: str) -> Fate | None:
        name = _name(top)
        if name is None:
            return super().fate(top, rel)
        if name not in self._fates:
            self._fates[name] = self._changes(name)
        return self._fates[name].get(rel)

    def _changes(self, name: str) -> dict[str, Fate]:
        """The files renamed or deleted between the source's previous commit and its commit now."""
        try:
            sources = self._sources()
            before, now = sources.previous_tree(name), sources.tree(name)
            if before is None:
                return {}
            out = git(before.git_dir, "diff-tree", "-r", "-M", "-z", "--name-status", before.commit, now.commit, what=name)
        except TextFragError:
            return {}
        fates: dict[str, Fate] = {}
        since = f"in the source {name}, from {before.commit[:10]} to {now.commit[:10]}"
        fields = out.decode("utf-8", "surrogateescape").split("\x00")
        i = 0
        while i < len(fields) - 1:
            status = fields[i]
            if status.startswith(("R", "C")):
                old, new = fields[i + 1], fields[i + 2]
                if status.startswith("R"):
                    fates[old] = Fate(now.commit, "", renamed_to=new, similarity=int(status[1:] or 100), between=since)
                i += 3
            else:
                if status == "D":
                    fates[fields[i + 1]] = Fate(now.commit, "", between=since)
                i += 2
        return fates

    def successors(self, top: Path, old: str, new: str, rel: str) -> list[tuple[str, bool]]:
        return [] if _name(top) is not None else super().successors(top, old, new, rel)
