"""Migration: ``literalinclude``, ``pymdownx.snippets`` and ``markdown-include`` includes turned into
``txtfrag`` references that show the same excerpts; also the include grammar guard mode reads.

May import: the layers below it (``textfrag.verdict`` and under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .literalinclude import Outcome, convert, find_includes
    from .snippets import SnippetSettings, convert_snippet, find_snippet_fences

__all__ = [
    "Outcome",
    "SnippetSettings",
    "convert",
    "convert_snippet",
    "find_includes",
    "find_snippet_fences",
]

_WHERE = {
    "Outcome": "literalinclude",
    "SnippetSettings": "snippets",
    "convert": "literalinclude",
    "convert_snippet": "snippets",
    "find_includes": "literalinclude",
    "find_snippet_fences": "snippets",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
