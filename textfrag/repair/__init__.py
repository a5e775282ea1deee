"""Repair: the changes ``update`` and the editor's quick fixes make to a stale reference, and rewriting
documentation files byte-exactly (only the characters of a reference replaced, atomically).

May import: the layers below it (``textfrag.verdict`` and under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .references import repair
    from .rewrite import DocText, apply_edits, read_doc, unified_diff, write_atomic, write_places

__all__ = [
    "DocText",
    "apply_edits",
    "read_doc",
    "repair",
    "unified_diff",
    "write_atomic",
    "write_places",
]

_WHERE = {
    "DocText": "rewrite",
    "apply_edits": "rewrite",
    "read_doc": "rewrite",
    "repair": "references",
    "unified_diff": "rewrite",
    "write_atomic": "rewrite",
    "write_places": "rewrite",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
