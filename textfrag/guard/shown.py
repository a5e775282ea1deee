"""What a guarded include shows, computed as its engine computes it, with no engine imported: each
include's engine (textfrag.guard.model.IncludeEngine) says it, in its own module.

Files are read through the build's :class:`~textfrag.source.cache.SourceCache` (each once), found as the
engine finds them, and never outside the root. The text is what the engine puts in the page, with ``\\n``
between lines; its length and md5 are what the lock file records (:func:`textfrag.guard.record_of`).
"""

from __future__ import annotations

from pathlib import Path

from ..source.cache import SourceCache
from .context import GuardContext, Shown
from .model import GuardedInclude

__all__ = ["shown_text", "shown_of_text", "resolve"]


def resolve(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names, found as its engine finds it; :class:`PathError`
    when there is none or it is outside the root."""
    return inc.engine.file_of(inc, doc_path, cache, ctx, argument)


def shown_text(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> Shown:
    """What ``inc`` (in the document at ``doc_path``) shows now; :class:`TextFragError` when it shows
    nothing (a file that is not there, an object or a marker not found), in its engine's terms."""
    return inc.engine.shown(inc, doc_path, cache, ctx)


def shown_of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What ``inc`` shows of the file whose text is ``text`` (another version of it, in history), with
    its line numbers moved by ``shift`` (where a moved include would show the same text); and the
    1-based lines it shows. One file only (no ``:diff:``, nested includes read as they are now)."""
    return inc.engine.of_text(inc, text, ctx, shift)
