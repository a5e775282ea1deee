"""The sources as one side of a change has them: a :class:`SourceCache` whose changed files come from
given contents (git's blobs of a commit, the index) instead of the work tree, and whose deleted files
are missing. The other files are read from the work tree as always (a change leaves them as they are).
``textfrag impact`` judges each quote twice through it, before and after the change, with the one
verdict ``check`` gives.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping

from ..errors import PathError, TextFragError
from .cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, Digest, Source, SourceCache

__all__ = ["OverlayCache"]


class OverlayCache(SourceCache):
    """A build's sources with ``contents`` (path under the root -> bytes, or None: no such file) in place
    of the work tree's files of those paths."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        contents: Mapping[str, bytes | None],
        *,
        charset: str = DEFAULT_CHARSET,
        max_size: int = DEFAULT_MAX_SIZE,
        pdi_map: dict[str, str] | None = None,
    ) -> None:
        super().__init__(root, charset=charset, max_size=max_size, pdi_map=pdi_map)
        self.contents = {posixpath.normpath(k): v for k, v in contents.items()}

    def with_charset(self, charset: str) -> SourceCache:
        sibling = super().with_charset(charset)
        if sibling is not self and not isinstance(sibling, OverlayCache):
            overlay = OverlayCache(self.root, self.contents, charset=charset, max_size=self.max_size, pdi_map=self.pdi_map)
            overlay.history = self.history
            with self._lock:
                self._siblings[charset.lower()] = overlay
            return overlay
        return sibling

    def _given(self, path: str, reference: str | None) -> Source | TextFragError | None:
        path = posixpath.normpath(path)
        if path not in self.contents:
            return None
        data = self.contents[path]
        if data is None:
            missing = PathError(f"no such file: {path}", reference=reference)
            missing.no_such_file = True
            return missing
        if len(data) > self.max_size:
            return PathError(f"{path} is larger than {self.max_size} bytes", reference=reference)
        try:
            return Source(path, data, self.charset)
        except TextFragError as bad:
            return bad.with_reference(reference)

    def get(self, path: str, reference: str | None = None) -> Source:
        key = posixpath.normpath(path)
        if key in self.contents and key not in self._entries:
            entry = self._given(key, reference)
            assert entry is not None
            with self._lock:
                self._entries.setdefault(key, entry)
        return super().get(path, reference)

    def present(self, full: str) -> bool:
        rel = os.path.relpath(os.path.realpath(full), self.real_root)
        key = posixpath.normpath(rel.replace(os.sep, "/"))
        if key in self.contents:
            return self.contents[key] is not None
        return super().present(full)

    def digest(self, path: str, reference: str | None = None) -> Digest:
        if posixpath.normpath(path) not in self.contents:
            return super().digest(path, reference)
        return self.get(path, reference).digest  # (a given content is held anyway: its digest from it)
