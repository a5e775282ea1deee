"""(Source, Fragment) -> Selection. Pure: no I/O, no verification.

RFC 5147 semantics (sections 2.1, 2.2 and 4.2): positions count from 0 and lie between characters or
lines; a position past the end means the end; an omitted range start means 0 and an omitted end the end
of the text. Line ranges include their line endings (section 2.1.2). The counting itself is the
fragment's own (:meth:`textfrag.reference.fragment.Scheme.select`); this module keeps the names callers use.
"""

from __future__ import annotations

from ..source.cache import Source
from .fragment import Fragment, Scheme
from .selection import Selection, occurrences, select, select_lines, whole

__all__ = ["Selection", "occurrences", "resolve", "resolve_scheme", "select", "select_lines", "whole"]


def resolve_scheme(source: Source, scheme: Scheme) -> Selection:
    """Apply one ``char=``/``line=`` scheme to a source."""
    return scheme.select_in(source)


def resolve(source: Source, fragment: Fragment | None) -> Selection:
    """The selection ``fragment`` makes in ``source`` (None: the whole file).

    >>> from textfrag import parse_fragment
    >>> src = Source("demo.txt", b"one\\r\\ntwo\\nthree")
    >>> resolve(src, parse_fragment("line=1,2")).text
    'two\\n'
    >>> resolve(src, parse_fragment("char=3,5")).text  # CR LF counts as one character
    '\\r\\nt'
    """
    if fragment is None:
        return whole(source)
    return fragment.scheme.select_in(source)
