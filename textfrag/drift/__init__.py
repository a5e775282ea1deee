"""Drift: why a pinned reference is stale, and what its text became.

Takes a stale reference and its file; gives whether the quoted text only moved (and where to) or changed,
from the file's git history (one pass for every file), and the diffs a reader is shown.

May import: ``textfrag.reference``, ``textfrag.source``, ``textfrag.intents``, ``textfrag.errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .classify import Drift, classify_missing, old_charset, reviewed_unknown, why_missing
    from .diffs import visible_diff
    from .history import History, NoGit

__all__ = [
    "Drift",
    "History",
    "NoGit",
    "classify_missing",
    "old_charset",
    "reviewed_unknown",
    "visible_diff",
    "why_missing",
]

_WHERE = {
    "Drift": "classify",
    "History": "history",
    "NoGit": "history",
    "classify_missing": "classify",
    "old_charset": "classify",
    "reviewed_unknown": "classify",
    "visible_diff": "diffs",
    "why_missing": "classify",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
