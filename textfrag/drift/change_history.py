"""The history of one change, as ``textfrag impact`` asks it: the version a quote was made for is the
change's old side (a commit, the index), what became of a deleted or renamed file is what the change
did to it, and the files that may hold a deleted file's text are those the change added or edited. The
drift of a quote is then told by the same classification ``check`` runs after the change, without
searching the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ..errors import TextFragError
from ..reference.fragment import Fragment
from ..source.cache import Source
from .history import Fate, History, Version, described

__all__ = ["ChangeHistory"]


class ChangeHistory(History):
    """``before``: the old side's content of each changed file (path relative to ``top`` -> bytes, None
    when there is none); ``fates``: what the change did to a file (deleted or renamed it; None: neither); ``successors``:
    the files it added or edited, each with the file it was copied from (or None); ``committed``: the new
    side is a commit (a deleted file's text is then looked for between the old side and the deletion
    commit, as ``check`` looks)."""

    def __init__(
        self,
        max_size: int,
        top: Path,
        base: str,
        before: Mapping[str, bytes | None],
        fates: Callable[[str], Fate | None],
        successors: Mapping[str, str | None],
        *,
        committed: bool = False,
    ) -> None:
        super().__init__(max_size)
        self.top, self.base = top, base
        self._before = dict(before)
        self._fates = fates
        self._successors = dict(successors)
        self._committed = committed
        self._sources: dict[tuple[str, str], Source | None] = {}

    def _old(self, top: Path, rel: str, charset: str) -> Source | None:
        if top != self.top or rel not in self._before:
            return None
        key = (rel, charset)
        if key not in self._sources:
            data = self._before[rel]
            try:
                self._sources[key] = None if data is None else Source(rel, data, charset)
            except TextFragError:
                self._sources[key] = None
        return self._sources[key]

    def search(self) -> None:  # (nothing to search: the change says it all)
        return None

    def shallow(self, top: Path) -> bool:
        return False

    def looked_at(self, top: Path, rel: str) -> int:
        return 1 if top == self.top and self._before.get(rel) is not None else 0

    def _found(self, top: Path, rel: str, test: Fragment | Callable[[Source], bool] | None) -> list[Version]:
        f = self._files.get((top, rel))
        old = self._old(top, rel, f.charset if f is not None else "utf-8")
        if old is None or test is None or not described(old, test):
            return []
        return [Version(self.base, old)]

    def versions(self, top: Path, rel: str, fragment: Fragment) -> list[Version]:
        return self._found(top, rel, fragment)

    def matching(self, top: Path, rel: str, key: str) -> list[Version]:
        f = self._files.get((top, rel))
        return self._found(top, rel, f.wanted.get(key) if f is not None else None)

    def fate(self, top: Path, rel: str) -> Fate | None:
        return self._fates(rel) if top == self.top else None

    def successors(self, top: Path, old: str, new: str, rel: str) -> list[tuple[str, bool]]:
        if self._committed and new:  # (a range of commits: between the old side and the deletion, as check looks)
            return super().successors(top, old, new, rel)
        paired = [(path, True) for path, source in self._successors.items() if source == rel]
        return paired + [(path, False) for path, source in self._successors.items() if source != rel and path != rel]
