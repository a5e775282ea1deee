"""Selecting by meaning: the intents a reference may carry besides its lines (``pyobject``, ``symbol``,
regions and markers, sections), found in the quoted text.

Takes a loaded text and an intent; gives the lines it selects now. Parsing a file is bounded in time
and memory (a forked worker process, limits measured on the text), so that no verdict depends on the
machine's speed.

May import: ``textfrag.errors`` and ``textfrag.source`` (the store of definitions found).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .intent import (
        INTENT_OPTIONS,
        Intent,
        disagreement,
        intent_lines,
        parse_line_spec,
        python_objects,
        region_lines,
        region_marker,
        section_lines,
        signature_cut,
        trim_blank,
    )
    from .symbols import definitions, language_of, parser_identity

__all__ = [
    "INTENT_OPTIONS",
    "Intent",
    "definitions",
    "disagreement",
    "intent_lines",
    "language_of",
    "parse_line_spec",
    "parser_identity",
    "python_objects",
    "region_lines",
    "region_marker",
    "section_lines",
    "signature_cut",
    "trim_blank",
]

_WHERE = {
    "INTENT_OPTIONS": "intent",
    "Intent": "intent",
    "definitions": "symbols",
    "disagreement": "intent",
    "intent_lines": "intent",
    "language_of": "symbols",
    "parse_line_spec": "intent",
    "parser_identity": "symbols",
    "python_objects": "intent",
    "region_lines": "intent",
    "region_marker": "intent",
    "section_lines": "intent",
    "signature_cut": "intent",
    "trim_blank": "intent",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
