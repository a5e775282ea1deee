"""Charsets and digests: a file's bytes decoded as RFC 5147 reads them (the BOM, the charset), its md5
and its length in characters, without a line index."""

from __future__ import annotations

import codecs
import hashlib
from typing import NamedTuple

from ..errors import DecodeError, SourceError
from .hidden_text import BIDI

# Byte order marks, longest first: the UTF-32LE BOM starts with the UTF-16LE one.
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "UTF-32LE", "utf-32-le"),
    (codecs.BOM_UTF32_BE, "UTF-32BE", "utf-32-be"),
    (codecs.BOM_UTF8, "UTF-8", "utf-8"),
    (codecs.BOM_UTF16_LE, "UTF-16LE", "utf-16-le"),
    (codecs.BOM_UTF16_BE, "UTF-16BE", "utf-16-be"),
)


#: Python text codecs that are not charsets: they escape or transform text rather than encode it
#: (``undefined`` raises on every use). Binary codecs (base64, rot13, zlib, hex...) are refused too.
_NOT_CHARSETS = frozenset({"undefined", "idna", "punycode", "unicode-escape", "raw-unicode-escape"})


DEFAULT_CHARSET = "UTF-8"


def codec_name(charset: str) -> str:
    """Python's canonical codec name for a charset label; :class:`SourceError` if it is no charset.

    >>> codec_name("utf8"), codec_name("Latin-1")
    ('utf-8', 'iso8859-1')
    >>> codec_name("base64")
    Traceback (most recent call last):
    ...
    textfrag.errors.SourceError: 'base64' is not a charset (a text encoding such as UTF-8 or ISO-8859-1)
    """
    try:
        info = codecs.lookup(charset)
    except (LookupError, TypeError, ValueError):  # ValueError: a label with a NUL byte
        raise SourceError(f"unknown charset {charset!r}") from None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        raise SourceError(f"{charset!r} is not a charset (a text encoding such as UTF-8 or ISO-8859-1)")
    return info.name


def same_charset(a: str, b: str) -> bool:
    """Whether two charset labels name the same encoding (``utf8`` and ``UTF-8`` do)."""
    return codec_name(a) == codec_name(b)


def decode(data: bytes, charset: str) -> tuple[bytes, str, str]:
    """(BOM, charset, text without the BOM): a BOM decides the charset, else ``charset`` is used.

    Raises :class:`DecodeError` naming the byte offset, the line and the charset.
    """
    bom, codec = b"", None
    for mark, name, bom_codec in _BOMS:
        if data.startswith(mark):
            bom, charset, codec = mark, name, bom_codec
            break
    codec = codec or codec_name(charset)
    body = memoryview(data)[len(bom) :]
    try:
        return bom, charset, str(body, codec)
    except UnicodeError as exc:
        if not isinstance(exc, UnicodeDecodeError):  # a codec that fails without saying where
            raise DecodeError(f"the file does not decode as {charset}: {exc}", offset=0, charset=charset) from None
        offset = len(bom) + exc.start
        line = _line_ends(str(body[: exc.start], codec)) + 1  # the part before decodes
        bad = bytes(data[offset : offset + min(4, max(1, exc.end - exc.start))]).hex(" ")
        raise DecodeError(
            f"byte {offset} (line {line}) does not decode as {charset}: {bad} ({exc.reason}); "
            "set the charset if the file is not in it",
            offset=offset,
            charset=charset,
        ) from None


def ascii_compatible(codec: str) -> bool:
    """Whether ASCII bytes mean the same ASCII characters in this codec (not so in UTF-16 or UTF-7)."""
    return codec in ("utf-8", "ascii", "latin-1") or codec.startswith(("iso8859-", "cp125"))


class Digest(NamedTuple):
    """What integrity checks need of a file, without its text: enough to verify a reference."""

    path: str
    charset: str
    md5: str
    length: int
    size: int
    #: the text holds bidirectional control characters somewhere (textfrag.source.hidden_text): then, and only then,
    #: ``check`` reads the quoted text to say where
    bidi: bool = False
    #: the RFC 5147 line positions past the start: the line endings, and one more for a last line without
    #: one (``line=N,`` with N at least this selects nothing); -1 when not counted
    lines: int = -1

    @classmethod
    def of(cls, path: str, data: bytes, charset: str = DEFAULT_CHARSET) -> Digest:
        """Hash and measure ``data``; pure ASCII in an ASCII-compatible charset is not decoded at all."""
        md5 = hashlib.md5(data).hexdigest()
        if data.isascii() and ascii_compatible(codec_name(charset)):
            # no BOM, no NEL in ASCII: CR LF is the only two-character line ending
            crs = data.count(b"\r") if b"\r" in data else 0  # `in` is a memchr; count is not
            pairs = data.count(b"\r\n") if crs else 0
            lines = ascii_lines(data.count(b"\n") + crs - pairs, data[-1:])
            return cls(path, charset, md5, len(data) - pairs, len(data), False, lines)
        _, charset, text = decode(data, charset)
        return cls(path, charset, md5, length_of(text), len(data), BIDI.search(text) is not None, text_lines(text))


def ascii_lines(ends: int, last: bytes) -> int:
    """The line positions of a text with ``ends`` line endings whose last byte is ``last``."""
    return ends + (1 if last and last not in (b"\n", b"\r") else 0)


def text_lines(text: str) -> int:
    r"""The line positions past the start of ``text`` (RFC 5147 section 2.1.2: lines end at CR LF, LF, CR,
    NEL and CR NEL; a last line without an ending counts too).

    >>> text_lines("a\r\nb"), text_lines("a\nb\n"), text_lines("")
    (2, 2, 0)
    """
    return _line_ends(text) + (1 if text and text[-1] not in "\n\r\x85" else 0)


def length_of(text: str) -> int:
    """RFC 5147 length of a text: code points, with CR LF and CR NEL counted once.

    >>> length_of("a\\r\\nb\\n")
    4
    """
    if "\r" not in text:
        return len(text)
    return len(text) - text.count("\r\n") - text.count("\r\x85")


def _line_ends(text: str) -> int:
    """Number of line endings in ``text`` (CR LF and CR NEL count once)."""
    pairs = text.count("\r\n") + text.count("\r\x85")
    return text.count("\n") + text.count("\r") + text.count("\x85") - pairs
