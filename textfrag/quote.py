"""The pipeline in one call: reference text -> parse -> load (cached) -> resolve -> verify.

This is what the CLI and both engine adapters call; none of them parses or counts on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._parser import parse_reference
from .errors import StaleError
from .fragment import Fragment, IntegrityCheck, Reference, Scheme
from .resolve import Selection, resolve
from .source import DEFAULT_CHARSET, Source, SourceCache, same_charset
from .verify import verify

__all__ = ["Quote", "quote", "make_fragment", "make_reference"]


@dataclass(frozen=True)
class Quote:
    """A resolved reference: the selection, and the stale error if an integrity check failed.

    A stale quote still has its selection, so an engine configured to only warn can embed it.
    """

    reference: Reference
    selection: Selection
    stale: StaleError | None = None

    @property
    def source(self) -> Source:
        return self.selection.source

    @property
    def text(self) -> str:
        return self.selection.text


def quote(cache: SourceCache, text: str) -> Quote:
    """Resolve the reference ``text`` (``[txtfrag:]PATH[#FRAGMENT]``) against the cache's root.

    Raises :class:`~textfrag.errors.TextFragError` for a bad reference; a failed integrity check is
    returned in :attr:`Quote.stale`, with the selection as it is now and a way to mint a fresh one.
    """
    ref = parse_reference(text)
    source = cache.get(ref.path, text)
    selection = resolve(source, ref.fragment)
    stale = None
    try:
        verify(source, ref.fragment, reference=text)
    except StaleError as err:
        assert ref.fragment is not None
        where = f"{ref.fragment.scheme} is {selection.lines_display()} of the file as it is now"
        fresh = make_reference(selection)
        err.message = f"{err.message} ({where}; if that is still the text to quote, the reference is {fresh})"
        stale = err
    return Quote(ref, selection, stale)


def make_fragment(selection: Selection, *, length: bool = True, md5: bool = True, lines: bool | None = None) -> Fragment:
    """The RFC 5147 fragment for ``selection`` with integrity checks of its file.

    Whole lines are written as ``line=`` (``lines=None`` decides by the selection), anything else as
    ``char=``. A file not in UTF-8 gets the charset on each check, so a reader in another charset
    knows what was hashed (RFC 5147 section 3.1).
    """
    source = selection.source
    scheme: Scheme | None = None
    if lines is not False:
        scheme = selection.to_line_scheme()
    if scheme is None:
        if selection.empty:
            scheme = Scheme("char", selection.char_start)
        else:
            scheme = Scheme("char", selection.char_start, selection.char_end, True)
    charset = None if same_charset(source.charset, DEFAULT_CHARSET) else source.charset
    checks = []
    if length:
        checks.append(IntegrityCheck("length", str(source.length), charset))
    if md5:
        checks.append(IntegrityCheck("md5", source.md5, charset))
    return Fragment(scheme, tuple(checks))


def make_reference(selection: Selection, *, length: bool = True, md5: bool = True, lines: bool | None = None) -> str:
    """``PATH#FRAGMENT`` for ``selection`` (see :func:`make_fragment`)."""
    return f"{selection.source.path}#{make_fragment(selection, length=length, md5=md5, lines=lines)}"
