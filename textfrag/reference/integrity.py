"""Integrity checks (RFC 5147 sections 2.3, 3.1 and 4.3). Pure: works on a loaded Source.

Every ``length`` and ``md5`` check present is verified; checks with other names are ignored (3.1).
md5 is over the file's raw bytes and compared case-insensitively (3.1: "uppercase or lowercase").
A check naming a charset other than the file's is applied after transcoding the text to that charset
(2.3 allows it); a text that cannot be transcoded makes the check unverifiable, which is reported.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..errors import EmptyError, SourceError, StaleError, UnverifiableError
from ..source.cache import Digest, Source, codec_name, length_of
from .fragment import Fragment, IntegrityCheck

__all__ = ["Mismatch", "emptiness", "empty_excerpt", "mismatches", "needs_text", "verify", "integrity_of"]


class Mismatch(NamedTuple):
    """One failed check: what the reference says and what the file has."""

    check: IntegrityCheck
    actual: str

    def __str__(self) -> str:
        cs = f" in {self.check.charset}" if self.check.charset else ""
        return f"{self.check.name} is {self.check.value}{cs} in the reference but {self.actual} for the file"


def needs_text(fragment: Fragment | None, charset: str) -> bool:
    """Whether verifying ``fragment`` needs the decoded text (a check in a charset other than ``charset``),
    so that a :class:`~textfrag.source.cache.Digest` alone is not enough."""
    if fragment is None:
        return False
    for check in fragment.known_checks:
        if check.charset is not None:
            try:
                if codec_name(check.charset) != codec_name(charset):
                    return True
            except SourceError:
                return True
    return False


def integrity_of(source: Source | Digest, check: IntegrityCheck) -> str:
    """The value ``check`` must have for ``source`` (transcoding first if it names another charset)."""
    if check.charset is None:
        return source.md5 if check.name == "md5" else str(source.length)
    try:
        codec = codec_name(check.charset)
    except SourceError:
        raise UnverifiableError(
            f"the {check.name} check names the charset {check.charset!r}, which textfrag does not know; "
            "it cannot be verified (RFC 5147 section 2.3)"
        ) from None
    if codec == codec_name(source.charset):
        return source.md5 if check.name == "md5" else str(source.length)
    if not isinstance(source, Source):
        raise TypeError("a check in another charset needs the Source, not its Digest (see needs_text)")
    try:
        data = source.text.encode(codec)
    except UnicodeEncodeError as exc:
        line = source.line_of_index(exc.start)
        raise UnverifiableError(
            f"the {check.name} check is for {check.charset}, but the file is {source.charset} and "
            f"{exc.object[exc.start]!r} (line {line}) has no {check.charset} form, so it cannot be verified "
            "(RFC 5147 section 2.3)"
        ) from None
    if check.name == "md5":
        return hashlib.md5(data).hexdigest()
    return str(length_of(data.decode(codec)))


def mismatches(source: Source | Digest, fragment: Fragment | None) -> list[Mismatch]:
    """Every known check of ``fragment`` that ``source`` fails; raises :class:`UnverifiableError`."""
    if fragment is None:
        return []
    found = []
    for check in fragment.known_checks:
        actual = integrity_of(source, check)
        if actual != check.value.lower():
            found.append(Mismatch(check, actual))
    return found


def verify(source: Source | Digest, fragment: Fragment | None, *, reference: str | None = None) -> None:
    """Raise :class:`StaleError` naming every failed check (RFC 5147 section 4.3)."""
    found = mismatches(source, fragment)
    if not found:
        return
    failed = "; ".join(map(str, found))
    md5_held = (
        fragment is not None
        and any(c.name == "md5" for c in fragment.known_checks)
        and not any(m.check.name == "md5" for m in found)
    )
    data = tuple((m.check.name, m.check.value, m.actual) for m in found)
    if md5_held:
        # the md5 says this is the very file the reference was made for: its length was never right
        raise StaleError(
            f"stale (RFC 5147 section 4.3): {failed}; the md5 matches, so the file has not changed: the "
            "reference's length is wrong (it counts code points, each line ending once, section 3.1)",
            reference=reference,
            md5_matches=True,
            mismatches=data,
        )
    raise StaleError(
        f"stale (RFC 5147 section 4.3): {failed}: the file changed since the reference was made",
        reference=reference,
        mismatches=data,
    )


def emptiness(digest: Digest, fragment: Fragment | None, *, reference: str | None = None) -> EmptyError | None:
    """The problem of an RFC 5147 range that selects nothing in the file ``digest`` measures (its start at
    or past the file's end, or its two positions one), found from the digest alone; None when it selects
    something, for a position (which selects nothing by design) and when the digest did not count lines.

    RFC 5147 clamps a position past the end to the end (section 2.1.1): the parser does; the verdict
    refuses the empty result, since an excerpt of nothing is never what a writer meant."""
    if fragment is None or not fragment.scheme.is_range:
        return None
    scheme = fragment.scheme
    total = digest.length if scheme.name == "char" else digest.lines
    if total < 0:
        return None
    start = min(scheme.start or 0, total)
    end = total if scheme.end is None else min(scheme.end, total)
    if start < end:
        return None
    return empty_excerpt(scheme.name, scheme.start or 0, scheme.end, total, reference=reference)


def empty_excerpt(unit: str, start: int, end: int | None, total: int, *, reference: str | None = None) -> EmptyError:
    """The problem of a range ``start``-``end`` (RFC positions in ``unit``: line or char) that selects nothing
    in a file of ``total`` of them, said with 1-based numbers beside the positions."""
    noun = "lines" if unit == "line" else "characters"
    written = f"{unit}={start},{'' if end is None else end}"
    wanted = f"{noun} {start + 1}-{end}" if end is not None and end > start else f"{noun} from {start + 1} on"
    if end is not None and end <= start:
        why = f"{written} starts where it ends: it selects no {noun[:-1]}"
    else:
        why = f"{written} ({wanted}) starts at or past the end of the file, which has {total} {noun}"
    fix = "; `textfrag make PATH --lines A-B` prints a reference to lines the file has" if unit == "line" else ""
    return EmptyError(f"the excerpt is empty: {why}{fix}", reference=reference)


def misspelt_checks(fragment: Fragment | None) -> list[tuple[IntegrityCheck, str]]:
    """The checks whose name is close to ``length`` or ``md5`` without being either (``lenght``, ``md6``,
    ``MD5``), each with the name meant: RFC 5147 ignores them (3.1), so they protect nothing.

    >>> from textfrag.reference.grammar import parse_reference
    >>> [(c.name, meant) for c, meant in misspelt_checks(parse_reference("a.txt#line=1,2;lenght=9").fragment)]
    [('lenght', 'length')]
    """
    if fragment is None:
        return []
    from difflib import get_close_matches

    out = []
    for check in fragment.checks:
        if not check.known:
            meant = get_close_matches(check.name.lower(), ("length", "md5"), n=1, cutoff=0.6)
            if meant:
                out.append((check, meant[0]))
    return out
