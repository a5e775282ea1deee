"""Value objects of RFC 5147 fragments and of references.

They are frozen and their ``str()`` is the canonical spelling, which parses back to an equal object::

    >>> from textfrag import parse_fragment
    >>> frag = parse_fragment("line=10,20;md5=0123456789ABCDEF0123456789abcdef")
    >>> str(frag)
    'line=10,20;md5=0123456789abcdef0123456789abcdef'
"""

from __future__ import annotations

from typing import ClassVar, Literal, NamedTuple

from ..source.cache import Source
from .selection import Selection, Selector, select

__all__ = ["Scheme", "IntegrityCheck", "Fragment", "Reference", "line_scheme_of"]

SchemeName = Literal["char", "line"]


class _SchemeFields(NamedTuple):
    name: SchemeName
    start: int | None
    end: int | None = None
    is_range: bool = False


class Scheme(_SchemeFields):
    """``char=`` or ``line=`` with a position or a range (RFC 5147 section 2.2).

    A position has ``is_range`` false and its number in ``start``. A range may omit ``start`` (meaning 0)
    or ``end`` (meaning the end of the text), never both (RFC 5147 section 3).

    The value classes of the parse (this one, :class:`IntegrityCheck`, :class:`Fragment`,
    :class:`Reference`) are named tuples: immutable, and cheap to define, which every ``textfrag`` run pays.
    """

    __slots__ = ()

    def __new__(cls, name: SchemeName, start: int | None, end: int | None = None, is_range: bool = False) -> Scheme:
        if not is_range and (start is None or end is not None):
            raise ValueError("a position has exactly one number")
        if is_range and start is None and end is None:
            raise ValueError("a range needs at least one of its positions")
        if is_range and start is not None and end is not None and start > end:
            raise ValueError("a range's start must not be greater than its end")
        return super().__new__(cls, name, start, end, is_range)

    def __str__(self) -> str:
        if not self.is_range:
            return f"{self.name}={self.start}"
        start = "" if self.start is None else str(self.start)
        end = "" if self.end is None else str(self.end)
        return f"{self.name}={start},{end}"

    def select_in(self, source: Source) -> Selection:
        """The selection this scheme makes in ``source`` (RFC 5147 sections 2.1, 2.2 and 4.2)."""
        to_index = source.index_of_char if self.name == "char" else source.index_of_line
        if self.is_range:
            start = 0 if self.start is None else to_index(self.start)
            end = len(source.text) if self.end is None else to_index(self.end)
        else:
            assert self.start is not None
            start = end = to_index(self.start)
        return select(source, start, end)


class IntegrityCheck(NamedTuple):
    """``length=N`` or ``md5=HEX`` with an optional charset (RFC 5147 section 3.1).

    Checks with other names are kept (so ``str()`` round-trips) but ignored, as section 3.1 requires.
    The md5 value is stored in lower case: hex digits may be written in either case.
    """

    name: str
    value: str
    charset: str | None = None

    @property
    def known(self) -> bool:
        """Whether textfrag verifies this check (``length`` and ``md5``; others are ignored, 3.1)."""
        return self.name in ("length", "md5")

    def __str__(self) -> str:
        tail = f",{self.charset}" if self.charset is not None else ""
        return f"{self.name}={self.value}{tail}"


class _FragmentFields(NamedTuple):
    scheme: Scheme
    checks: tuple[IntegrityCheck, ...] = ()


class Fragment(_FragmentFields):
    """An RFC 5147 text fragment: one scheme and zero or more integrity checks."""

    __slots__ = ()
    dialect: ClassVar[str] = "rfc5147"

    def select(self, source: Source) -> list[Selection]:
        """The one selection the fragment makes (the :class:`~textfrag.reference.selection.Selector` protocol)."""
        return [self.scheme.select_in(source)]

    def __str__(self) -> str:
        return ";".join([str(self.scheme), *(str(c) for c in self.checks)])

    @property
    def known_checks(self) -> tuple[IntegrityCheck, ...]:
        """The checks that are verified."""
        return tuple(c for c in self.checks if c.known)


class Reference(NamedTuple):
    """``PATH#FRAGMENT``: a file under the root and, optionally, a fragment of it.

    ``fragment`` is None for the whole file. ``text`` is the reference as written (with or without the
    ``txtfrag:`` prefix), for messages and for ``data-txtfrag-ref``.
    """

    path: str
    fragment: Fragment | None
    text: str
    #: a fragment of another dialect (textfrag.reference.dialects); then ``fragment`` is None
    selector: Selector | None = None

    def __str__(self) -> str:
        if self.selector is not None:
            return f"{self.path}#{self.selector}"
        return self.path if self.fragment is None else f"{self.path}#{self.fragment}"

    @property
    def selecting(self) -> Selector | None:
        """What selects the text: the RFC 5147 fragment or another dialect's; None for the whole file."""
        return self.selector if self.selector is not None else self.fragment

    @property
    def dialect(self) -> str:
        """The name of the fragment's dialect (``rfc5147`` for none: a whole file is RFC 5147's)."""
        return "rfc5147" if self.selector is None else self.selector.dialect


def line_scheme_of(selection: Selection, *, open_end: bool = False) -> Scheme | None:
    """The ``line=`` range with the same text, when the selection is made of whole lines; with
    ``open_end``, one that runs to the end of the file is written ``line=N,`` (to the end, as it grows)."""
    src = selection.source
    starts = src.line_starts
    n = len(src.text)
    if open_end and selection.end == n and (n == 0 or selection.start == 0):
        return Scheme("line", 0, None, True)  # the whole file, even an empty one
    first = selection.first_line - 1
    at_line_start = selection.start == src.index_of_line(first) if not selection.empty else False
    at_end = selection.end == n or (selection.last_line < len(starts) and selection.end == starts[selection.last_line])
    if selection.empty or not at_line_start or not at_end:
        return None
    return Scheme("line", first, None if open_end and selection.end == n else selection.last_line, True)
