"""Grammar -> value objects. Strict: nothing is guessed or corrected (RFC 5147 section 4.4).

The grammar of RFC 5147 section 3 (ABNF, RFC 5234; literal text is case-sensitive, "exactly the
indicated lower-case letters")::

    text-fragment   =  text-scheme 0*( ";" integrity-check )
    text-scheme     =  ( char-scheme / line-scheme )
    char-scheme     =  "char=" ( position / range )
    line-scheme     =  "line=" ( position / range )
    integrity-check =  ( length-scheme / md5-scheme )
                         [ "," mime-charset ]
    position        =  number
    range           =  ( position "," [ position ] ) / ( "," position )
    number          =  1*( DIGIT )
    length-scheme   =  "length=" number
    md5-scheme      =  "md5=" md5-value
    md5-value       =  32HEXDIG

``mime-charset`` is RFC 2978 section 2.3. Section 3.1 requires new kinds of integrity check to be
ignored, so ``integrity-check`` is widened to ``check-name "=" check-value [ "," mime-charset ]`` for
names other than ``length`` and ``md5``; those are kept in the value object but never verified. A name
that is ``length`` or ``md5`` in another case is refused rather than silently ignored.

A range whose start is greater than its end is refused (RFC 5147 section 4.2: it "MUST be ignored";
textfrag reports it instead of quoting nothing).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import cast

from ..errors import FragmentSyntaxError
from ..source.paths import check_path_syntax, decode_path
from .dialects import parse_selector
from .fragment import Fragment, IntegrityCheck, Reference, Scheme, SchemeName
from .linespec import MAX_DIGITS  # the one digit limit (any position past the end means the end, 4.2)

__all__ = ["parse_fragment", "parse_reference", "split_reference", "PREFIX", "MAX_DIGITS"]

#: The prefix that marks a reference in documentation sources (the manual's reference/syntax page).
PREFIX = "txtfrag:"


# ABNF core rules (RFC 5234 appendix B.1): ASCII only, unlike str.isdigit() or \d.
DIGIT = re.compile(r"[0-9]*")
HEXDIG = re.compile(r"[0-9A-Fa-f]*")
# RFC 2978 section 2.3, mime-charset-chars.
MIME_CHARSET_CHARS = re.compile(r"[A-Za-z0-9!#$%&'+\-^_`{}~]*")
# Names of integrity checks this version verifies (RFC 5147 section 3).
KNOWN_CHECKS = ("length", "md5")
CHECK_NAME_CHARS = re.compile(r"[A-Za-z0-9\-_.]*")
# RFC 3986 fragment characters, less ";" and "," which delimit checks and charsets.
CHECK_VALUE_CHARS = re.compile(r"[A-Za-z0-9\-._~!$&'()*+=:@/?%]*")


class _Cursor:
    """A position in the fragment text, with errors that point at it."""

    def __init__(self, text: str, offset: int = 0, shown: str | None = None) -> None:
        self.text = text
        self.pos = 0
        # where ``text`` starts inside ``shown`` (the whole reference), for the caret
        self.offset = offset
        self.shown = text if shown is None else shown

    def error(self, message: str, start: int | None = None, end: int | None = None, section: str = "3") -> FragmentSyntaxError:
        """A syntax error pointing at ``start``..``end`` of the text (default: here)."""
        start = self.pos if start is None else start
        end = start + 1 if end is None else end
        return FragmentSyntaxError(message, source=self.shown, span=(self.offset + start, self.offset + end), section=section)

    def peek(self) -> str:
        """The next character, or '' at the end."""
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_end(self) -> bool:
        """Whether the whole text is consumed."""
        return self.pos >= len(self.text)

    def take(self, literal: str) -> bool:
        """Consume ``literal`` if the text continues with it."""
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def run(self, chars: re.Pattern[str]) -> str:
        """Take the longest run of characters matched by the class ``chars``."""
        m = chars.match(self.text, self.pos)
        assert m is not None  # every class is written with '*'
        self.pos = m.end()
        return m.group(0)

    def describe_here(self) -> str:
        """What stands at the cursor, in words for an error message."""
        if self.at_end():
            return "the end"
        ch = self.peek()
        if ch.isspace():
            return "a space" if ch == " " else f"white space {ch!r}"
        return repr(ch)


def _number(cur: _Cursor, what: str) -> int:
    start = cur.pos
    digits = cur.run(DIGIT)
    if not digits:
        raise cur.error(f"expected {what} (digits 0-9) but found {cur.describe_here()}")
    if len(digits) > MAX_DIGITS:
        raise cur.error(
            f"{what} has {len(digits)} digits; at most {MAX_DIGITS} are accepted "
            "(any position past the end already means the end, section 4.2)",
            start,
            cur.pos,
            section="4.2",
        )
    return int(digits)


def _scheme(cur: _Cursor) -> Scheme:
    start = cur.pos
    name: SchemeName
    if cur.take("char="):
        name = "char"
    elif cur.take("line="):
        name = "line"
    else:
        word = cur.run(CHECK_NAME_CHARS)
        if word.lower() in ("char", "line") and word not in ("char", "line"):
            raise cur.error(f"scheme names are lower case: write {word.lower()!r}, not {word!r}", start, cur.pos)
        cur.pos = start
        raise cur.error("expected 'char=' or 'line=' at the start of the fragment", start, max(start + 1, start + len(word)))
    what = "a line position" if name == "line" else "a character position"
    range_start = cur.pos
    if cur.take(","):
        # ( "," position ): the start is omitted and means 0
        end = _number(cur, f"{what} after ','")
        return Scheme(name, None, end, True)
    first = _number(cur, what)
    if not cur.take(","):
        return Scheme(name, first)
    if cur.at_end() or cur.peek() == ";":
        return Scheme(name, first, None, True)
    second = _number(cur, f"{what} after ','")
    if first > second:
        raise cur.error(
            f"the range {first},{second} starts after it ends; a range is written start,end",
            range_start,
            cur.pos,
            section="4.2",
        )
    return Scheme(name, first, second, True)


def _charset(cur: _Cursor) -> str | None:
    if not cur.take(","):
        return None
    charset = cur.run(MIME_CHARSET_CHARS)
    if not charset:
        raise cur.error(f"expected a charset name after ',' but found {cur.describe_here()}")
    return charset


def _check(cur: _Cursor) -> IntegrityCheck:
    start = cur.pos
    name = cur.run(CHECK_NAME_CHARS)
    if not name:
        raise cur.error(f"expected an integrity check such as 'length=' or 'md5=' after ';' but found {cur.describe_here()}")
    if name.lower() in KNOWN_CHECKS and name not in KNOWN_CHECKS:
        raise cur.error(f"check names are lower case: write {name.lower()!r}, not {name!r}", start, cur.pos)
    if name in ("char", "line"):
        raise cur.error(f"a fragment has one '{name}=' scheme; the parts after ';' are integrity checks", start, cur.pos)
    if not cur.take("="):
        raise cur.error(f"expected '=' after the check name {name!r} but found {cur.describe_here()}")
    if name == "length":
        value = str(_number(cur, "a length"))
    elif name == "md5":
        vstart = cur.pos
        value = cur.run(HEXDIG)
        if len(value) != 32:
            bad = cur.peek()
            if len(value) < 32 and bad and bad not in ",;":
                raise cur.error(f"an md5 value is 32 hexadecimal digits (0-9, a-f); {cur.describe_here()} is not one")
            raise cur.error(f"an md5 value is exactly 32 hexadecimal digits, this one has {len(value)}", vstart, cur.pos)
        value = value.lower()
    else:
        value = cur.run(CHECK_VALUE_CHARS)
        if not value:
            raise cur.error(f"expected a value after '{name}=' but found {cur.describe_here()}")
    return IntegrityCheck(name, value, _charset(cur))


# The whole grammar above as one expression, for the common case of a well-formed fragment; anything
# it does not match goes through the cursor parser, which finds and reports the error.
_WHITE_SPACE = re.compile(r"\s")
_N = f"[0-9]{{0,{MAX_DIGITS}}}"
_FAST = re.compile(
    rf"(char|line)=(?:([0-9]{{1,{MAX_DIGITS}}})|({_N}),({_N}))"
    rf"((?:;(?:length=[0-9]{{1,{MAX_DIGITS}}}|md5=[0-9A-Fa-f]{{32}})(?:,[A-Za-z0-9!#$%&'+\-^_`{{}}~]+)?)*)\Z"
)
_FAST_CHECK = re.compile(r";(length|md5)=([0-9A-Fa-f]+)(?:,([^;]+))?")


def _parse_fast(text: str) -> Fragment | None:
    m = _FAST.match(text)
    if m is None:
        return None
    name, pos, a, b, tail = m.groups()
    if pos is not None:
        scheme = Scheme(cast(SchemeName, name), int(pos))
    else:
        if not a and not b:
            return None  # "char=," : let the cursor parser explain
        start, end = (int(a) if a else None), (int(b) if b else None)
        if start is not None and end is not None and start > end:
            return None
        scheme = Scheme(cast(SchemeName, name), start, end, True)
    checks = tuple(
        IntegrityCheck(c.group(1), c.group(2).lower() if c.group(1) == "md5" else str(int(c.group(2))), c.group(3))
        for c in _FAST_CHECK.finditer(tail)
    )
    return Fragment(scheme, checks)


def parse_fragment(text: str, *, offset: int = 0, shown: str | None = None) -> Fragment:
    """Parse an RFC 5147 fragment (the part after ``#``).

    ``offset`` and ``shown`` place ``text`` inside a longer reference so that errors point into it.

    >>> parse_fragment("char=,4")
    Fragment(scheme=Scheme(name='char', start=None, end=4, is_range=True), checks=())
    >>> parse_fragment("line=20,10")
    Traceback (most recent call last):
    ...
    textfrag.errors.FragmentSyntaxError: the range 20,10 starts after it ends; a range is written start,end (RFC 5147 section 4.2)
    """
    fast = _parse_fast(text)
    if fast is not None:
        return fast
    return _parse_cursor(text, offset, shown)


def _parse_cursor(text: str, offset: int = 0, shown: str | None = None) -> Fragment:
    """The reference parser: slower, and the one that explains what is wrong."""
    cur = _Cursor(text, offset, shown)
    if not text:
        raise cur.error("the fragment after '#' is empty; expected 'char=' or 'line=' (or no '#' for the whole file)", 0, 1)
    scheme = _scheme(cur)
    checks: list[IntegrityCheck] = []
    while not cur.at_end():
        if not cur.take(";"):
            raise cur.error(f"expected ';' before the next integrity check but found {cur.describe_here()}")
        checks.append(_check(cur))
    return Fragment(scheme, tuple(checks))


def split_reference(text: str) -> tuple[str, str | None, int]:
    """Split ``[txtfrag:]PATH[#FRAGMENT]`` into PATH, FRAGMENT (None if absent) and the fragment's offset."""
    body_start = len(PREFIX) if text.startswith(PREFIX) else 0
    hash_at = text.find("#", body_start)
    if hash_at < 0:
        return text[body_start:], None, len(text)
    return text[body_start:hash_at], text[hash_at + 1 :], hash_at + 1


def parse_reference(text: str) -> Reference:
    """Parse ``[txtfrag:]PATH[#FRAGMENT]``; no fragment means the whole file.

    >>> str(parse_reference("txtfrag:src/app.py#line=10,20"))
    'src/app.py#line=10,20'

    A reference written again (the same lines quoted on many pages) is parsed once: its value is frozen.
    """
    return _parse_once(text)


@lru_cache(maxsize=4096)
def _parse_once(text: str) -> Reference:
    """:func:`parse_reference` (a failure is not kept: it is raised, and found again, each time)."""
    body = text[len(PREFIX) :] if text.startswith(PREFIX) else text
    try:
        if body[:8].lower().startswith(("urn:pdi:", "pdi://")):
            # the whole reference is a URN, mapped to a file when it is quoted (textfrag.verdict.quoting)
            from .dialects.pdi import parse_pdi

            pdi = parse_pdi(body)
            return Reference(pdi.resource, None, text, pdi)
        path, frag_text, offset = split_reference(text)
        path = decode_path(path, text)  # (then checked: an escaped "..", NUL or "\\" is refused as any)
        check_path_syntax(path, text)
        if frag_text is None:
            return Reference(path, None, text)
        if frag_text.startswith(("char=", "line=")):  # RFC 5147, the common case: no dialect machinery
            return Reference(path, parse_fragment(frag_text, offset=offset, shown=text), text)
        space = _WHITE_SPACE.search(frag_text)
        if space is not None:  # (RFC 5147's own grammar refuses it too, with its section)
            raise FragmentSyntaxError(
                "a fragment has no white space; write a space as %20",
                source=text,
                span=(offset + space.start(), offset + space.start() + 1),
                spec="RFC 3986 section 3.5",
            )
        selector = parse_selector(frag_text, offset=offset, shown=text)
        if selector is not None:
            return Reference(path, None, text, selector)
        return Reference(path, parse_fragment(frag_text, offset=offset, shown=text), text)
    except FragmentSyntaxError as err:
        failed = err.with_reference(text)
        hint = near_miss(text)
        if hint is not None and hint not in failed.notes:
            failed.notes = f"{failed.notes}\n{hint}" if failed.notes else hint
        raise failed from None


# what people write for a range of lines that RFC 5147 writes otherwise: line=10-12, lines=10,12,
# line=10..12, line=10:12 (their numbers are taken as an editor's, 1-based and inclusive)
_NEAR_MISS = re.compile(r"^(?P<head>.*?#)lines?=(?P<a>[0-9]{1,12})(?:-|\.\.|:|,)(?P<b>[0-9]{1,12})(?P<tail>(?:;.*)?)$", re.S)


def near_miss(text: str) -> str | None:
    """For a reference that almost follows RFC 5147, the reference it probably means, in words:
    ``line=10-12`` -> ``did you mean line=9,12 (lines 10-12)?``. None when none is clear."""
    m = _NEAR_MISS.match(text)
    if m is None or text[m.end("head") : m.start("a")] == "line=" and "," in text[m.end("a") : m.start("b")]:
        return None
    first, last = int(m.group("a")), int(m.group("b"))
    if first < 1 or last < first:
        return None
    fixed = f"{m.group('head')}line={first - 1},{last}{m.group('tail')}"
    return (
        f"did you mean {fixed}? RFC 5147 counts positions between lines from 0: line={first - 1},{last} is lines "
        f"{first}-{last} as an editor numbers them"
    )
