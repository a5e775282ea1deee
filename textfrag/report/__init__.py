"""Reports: what ``check`` and ``update`` found, as people and machines read it (text, GitHub workflow
commands, JSON, SARIF) from one list of findings; and what a terminal shows (progress, colour).

May import: ``textfrag.errors`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .formats import FORMATS, Finding, github_commands, json_results, sarif_log
    from .terminal import Progress, Style

__all__ = [
    "FORMATS",
    "Finding",
    "Progress",
    "Style",
    "github_commands",
    "json_results",
    "sarif_log",
]

_WHERE = {
    "FORMATS": "formats",
    "Finding": "formats",
    "Progress": "terminal",
    "Style": "terminal",
    "github_commands": "formats",
    "json_results": "formats",
    "sarif_log": "formats",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
