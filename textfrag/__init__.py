"""textfrag: quote text files by RFC 5147 fragment references, and keep the quotes honest.

The core knows nothing of Sphinx, docutils, MkDocs or HTML. Data flows one way::

    reference text -> parse_reference -> Reference
    path -> SourceCache.get -> Source          (read, hashed and decoded once per build)
    (Source, Fragment) -> resolve -> Selection -> verify -> adapter renders

:func:`quote` runs the whole pipeline for one reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._version import __version__
from .errors import (
    DecodeError,
    FragmentSyntaxError,
    PathError,
    SourceError,
    StaleError,
    TextFragError,
    UnverifiableError,
)
from .reference.fragment import Fragment, IntegrityCheck, Reference, Scheme
from .reference.grammar import PREFIX, parse_fragment, parse_reference
from .reference.integrity import mismatches, verify
from .reference.resolving import Selection, resolve, select
from .source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, Source, SourceCache
from .verdict.quoting import Quote, make_fragment, make_reference, quote

if TYPE_CHECKING:  # (imported when first used: check's start-up needs neither)
    from .verdict.excerpt import Excerpt, Piece
    from .verdict.judging import Settings, Verdict, judge

__all__ = [
    "__version__",
    "PREFIX",
    "DEFAULT_CHARSET",
    "DEFAULT_MAX_SIZE",
    "DecodeError",
    "Excerpt",
    "Fragment",
    "FragmentSyntaxError",
    "IntegrityCheck",
    "PathError",
    "Piece",
    "Quote",
    "Reference",
    "Scheme",
    "Selection",
    "Settings",
    "Source",
    "SourceCache",
    "SourceError",
    "StaleError",
    "TextFragError",
    "UnverifiableError",
    "Verdict",
    "judge",
    "make_fragment",
    "make_reference",
    "mismatches",
    "parse_fragment",
    "parse_reference",
    "quote",
    "resolve",
    "select",
    "verify",
]

_LATER = {"Excerpt": "verdict.excerpt", "Piece": "verdict.excerpt", "Settings": "verdict.judging", "Verdict": "verdict.judging"}
_LATER["judge"] = "verdict.judging"


def __getattr__(name: str) -> object:
    from ._surface import exported

    return exported(__name__, _LATER, name)
