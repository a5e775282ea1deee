"""Value objects of RFC 5147 fragments and of references.

They are frozen and their ``str()`` is the canonical spelling, which parses back to an equal object::

    >>> from textfrag import parse_fragment
    >>> frag = parse_fragment("line=10,20;md5=0123456789ABCDEF0123456789abcdef")
    >>> str(frag)
    'line=10,20;md5=0123456789abcdef0123456789abcdef'
    >>> frag.scheme.display()
    'lines 11-20'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Scheme", "IntegrityCheck", "Fragment", "Reference"]

SchemeName = Literal["char", "line"]


@dataclass(frozen=True)
class Scheme:
    """``char=`` or ``line=`` with a position or a range (RFC 5147 section 2.2).

    A position has ``is_range`` false and its number in ``start``. A range may omit ``start`` (meaning 0)
    or ``end`` (meaning the end of the text), never both (RFC 5147 section 3).
    """

    name: SchemeName
    start: int | None
    end: int | None = None
    is_range: bool = False

    def __post_init__(self) -> None:
        if not self.is_range and (self.start is None or self.end is not None):
            raise ValueError("a position has exactly one number")
        if self.is_range and self.start is None and self.end is None:
            raise ValueError("a range needs at least one of its positions")
        if self.is_range and self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError("a range's start must not be greater than its end")

    def __str__(self) -> str:
        if not self.is_range:
            return f"{self.name}={self.start}"
        start = "" if self.start is None else str(self.start)
        end = "" if self.end is None else str(self.end)
        return f"{self.name}={start},{end}"

    def display(self) -> str:
        """The selection in the words of an editor (1-based, inclusive), before looking at any text.

        >>> Scheme("line", 10, 20, True).display()
        'lines 11-20'
        >>> Scheme("line", 3).display()
        'the start of line 4'
        >>> Scheme("char", None, 4, True).display()
        'characters 1-4'
        """
        unit = "lines" if self.name == "line" else "characters"
        if not self.is_range:
            assert self.start is not None
            if self.name == "line":
                return f"the start of line {self.start + 1}"
            return f"the point after character {self.start}"
        first = (self.start or 0) + 1
        if self.end is None:
            return f"{unit} {first}-end"
        if self.end < first:
            return f"no {unit} (empty range at {self.end})"
        return f"{unit} {first}-{self.end}"


@dataclass(frozen=True)
class IntegrityCheck:
    """``length=N`` or ``md5=HEX`` with an optional charset (RFC 5147 section 3.1).

    Checks with other names are kept (so ``str()`` round-trips) but ignored, as section 3.1 requires.
    The md5 value is stored in lower case: hex digits may be written in either case.
    """

    name: str
    value: str
    charset: str | None = None

    @property
    def known(self) -> bool:
        return self.name in ("length", "md5")

    def __str__(self) -> str:
        tail = f",{self.charset}" if self.charset is not None else ""
        return f"{self.name}={self.value}{tail}"


@dataclass(frozen=True)
class Fragment:
    """An RFC 5147 text fragment: one scheme and zero or more integrity checks."""

    scheme: Scheme
    checks: tuple[IntegrityCheck, ...] = ()

    def __str__(self) -> str:
        return ";".join([str(self.scheme), *(str(c) for c in self.checks)])

    @property
    def known_checks(self) -> tuple[IntegrityCheck, ...]:
        return tuple(c for c in self.checks if c.known)


@dataclass(frozen=True)
class Reference:
    """``PATH#FRAGMENT``: a file under the root and, optionally, a fragment of it.

    ``fragment`` is None for the whole file. ``text`` is the reference as written (with or without the
    ``txtfrag:`` prefix), for messages and for ``data-txtfrag-ref``.
    """

    path: str
    fragment: Fragment | None
    text: str
    #: a fragment of another dialect (textfrag.dialects); then ``fragment`` is None
    selector: Any = None

    def __str__(self) -> str:
        if self.selector is not None:
            return f"{self.path}#{self.selector}"
        return self.path if self.fragment is None else f"{self.path}#{self.fragment}"

    @property
    def dialect(self) -> str:
        return "rfc5147" if self.selector is None else str(self.selector.dialect)
