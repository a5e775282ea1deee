"""The reference: a ``txtfrag:`` reference's text read into frozen values, and what they select.

Takes reference text (RFC 5147 and the dialects of the seed documents: draft-wilde, Yee, PDI, W3C text
fragments, GitHub line anchors) and a loaded :class:`~textfrag.source.cache.Source`; gives a
:class:`Reference` (path, fragment, integrity checks), the :class:`Selection` its fragment makes of the
source, and the integrity verdict (``length``, ``md5``). Pure: no I/O.

May import: ``textfrag.errors`` and ``textfrag.source`` (the loaded text it selects from).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .dialects.pdi import mapped_path
    from .fragment import Fragment, IntegrityCheck, Reference, Scheme, line_scheme_of
    from .grammar import PREFIX, parse_fragment, parse_reference
    from .integrity import emptiness, empty_excerpt, integrity_of, mismatches, needs_text, verify
    from .linespec import number, parse_line_list, parse_line_range
    from .resolving import Selection, occurrences, resolve, select
    from .selection import ELISION, select_lines, whole

__all__ = [
    "ELISION",
    "Fragment",
    "IntegrityCheck",
    "PREFIX",
    "Reference",
    "Scheme",
    "Selection",
    "emptiness",
    "empty_excerpt",
    "integrity_of",
    "line_scheme_of",
    "mapped_path",
    "mismatches",
    "needs_text",
    "number",
    "occurrences",
    "parse_fragment",
    "parse_line_list",
    "parse_line_range",
    "parse_reference",
    "resolve",
    "select",
    "select_lines",
    "verify",
    "whole",
]

_WHERE = {
    "ELISION": "selection",
    "Fragment": "fragment",
    "IntegrityCheck": "fragment",
    "PREFIX": "grammar",
    "Reference": "fragment",
    "Scheme": "fragment",
    "Selection": "resolving",
    "emptiness": "integrity",
    "empty_excerpt": "integrity",
    "integrity_of": "integrity",
    "line_scheme_of": "fragment",
    "mapped_path": "dialects.pdi",
    "mismatches": "integrity",
    "needs_text": "integrity",
    "number": "linespec",
    "occurrences": "resolving",
    "parse_fragment": "grammar",
    "parse_line_list": "linespec",
    "parse_line_range": "linespec",
    "parse_reference": "grammar",
    "resolve": "resolving",
    "select": "resolving",
    "select_lines": "selection",
    "verify": "integrity",
    "whole": "selection",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
