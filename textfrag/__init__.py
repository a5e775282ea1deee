"""textfrag: quote text files by RFC 5147 fragment references, and keep the quotes honest.

The core knows nothing of Sphinx, docutils, MkDocs or HTML. Data flows one way::

    reference text -> parse_reference -> Reference
    path -> SourceCache.get -> Source          (read, hashed and decoded once per build)
    (Source, Fragment) -> resolve -> Selection -> verify -> adapter renders

:func:`quote` runs the whole pipeline for one reference.
"""

from __future__ import annotations

from ._parser import PREFIX, parse_fragment, parse_reference
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
from .fragment import Fragment, IntegrityCheck, Reference, Scheme
from .quote import Quote, make_fragment, make_reference, quote
from .resolve import Selection, resolve, select
from .source import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, Source, SourceCache
from .verify import mismatches, verify

__all__ = [
    "__version__",
    "PREFIX",
    "DEFAULT_CHARSET",
    "DEFAULT_MAX_SIZE",
    "DecodeError",
    "Fragment",
    "FragmentSyntaxError",
    "IntegrityCheck",
    "PathError",
    "Quote",
    "Reference",
    "Scheme",
    "Selection",
    "Source",
    "SourceCache",
    "SourceError",
    "StaleError",
    "TextFragError",
    "UnverifiableError",
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
