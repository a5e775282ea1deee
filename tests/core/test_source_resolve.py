"""Loading, line endings and resolution: RFC 5147 sections 2.1, 2.2, 4.1, 4.2."""

from __future__ import annotations

import codecs

import pytest

from textfrag import DecodeError, Source, parse_fragment, resolve
from textfrag.source.cache import length_of


def sel(data: bytes | str, fragment: str, charset: str = "UTF-8") -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return resolve(Source("t.txt", raw, charset), parse_fragment(fragment)).text


TEXT20 = "".join(f"L{i}\n" for i in range(1, 21))

TABLE = [
    # (text, fragment, excerpt, RFC section)
    (TEXT20, "line=10,20", "".join(f"L{i}\n" for i in range(11, 21)), "5: lines 11 to 20"),
    (TEXT20, "line=,1", "L1\n", "5: the first line"),
    (TEXT20, "line=0,1", "L1\n", "2.2.4"),
    (TEXT20, "line=19,25", "L20\n", "4.2: past the end means the end"),
    (TEXT20, "line=25,30", "", "4.2 / 5: fewer than 11 lines -> the position after the last line"),
    (TEXT20, "line=3", "", "2.2.3: a position selects nothing"),
    ("abc", "char=100", "", "5: fewer than 100 characters"),
    ("abcdef", "char=1,3", "bc", "2.2.2"),
    ("abcdef", "char=,2", "ab", "4.2: omitted start is 0"),
    ("abcdef", "char=4,", "ef", "4.2: omitted end is the end"),
    ("abcdef", "char=4,100", "ef", "4.2"),
    ("abc", "line=0,", "abc", "2.1.2: no line ending -> a single line"),
    ("abc", "line=1,", "", "2.1.2"),
    ("", "line=0,1", "", "2.1.2: empty text"),
    ("", "char=0,1", "", "2.2.1"),
    # line endings (4.1): CR LF, LF, CR, NEL, CR NEL each one character and one line ending
    ("a\r\nb\r\nc", "line=1,2", "b\r\n", "4.1 CR LF"),
    ("a\rb\rc", "line=1,2", "b\r", "4.1 CR"),
    ("a\x85b\x85c", "line=1,2", "b\x85", "4.1 NEL"),
    ("a\r\x85b\r\x85c", "line=1,2", "b\r\x85", "4.1 CR NEL"),
    ("a\n\rb", "line=1,2", "\r", "4.1 LF then CR: two line endings"),
    ("a\r\n\nb", "line=1,2", "\n", "4.1 CR LF then LF"),
    ("a\r\r\nb", "line=1,2", "\r\n", "4.1 CR then CR LF"),
    ("a\r\nb", "char=1,2", "\r\n", "2.1.2: CR LF counts as one character"),
    ("a\r\nb", "char=2,3", "b", "2.1.2"),
    ("a\r\x85b", "char=1,2", "\r\x85", "2.1.2: CR NEL counts as one character"),
    ("a\x0cb\x0bc\u2028d\u2029e\x1cf", "line=0,1", "a\x0cb\x0bc\u2028d\u2029e\x1cf", "4.1: FF VT LS PS FS end no line"),
    ("é\r\nü", "char=2,3", "ü", "2.1.2: characters are code points"),
    ("😀x", "char=1,2", "x", "2.1.2: a code point outside the BMP is one character"),
]


@pytest.mark.parametrize(("text", "fragment", "excerpt", "section"), TABLE, ids=[f"{t[3]}|{t[1]}" for t in TABLE])
def test_resolution_table(text: str, fragment: str, excerpt: str, section: str) -> None:
    assert sel(text, fragment) == excerpt


@pytest.mark.parametrize(
    ("text", "length"),
    [("", 0), ("abc", 3), ("a\r\nb", 3), ("a\r\x85b", 3), ("a\n\rb", 4), ("\r\r\n", 2), ("é😀", 2), ("\x0c\x0b", 2)],
)
def test_length_counts_code_points_and_line_endings_once(text: str, length: int) -> None:
    assert Source("t", text.encode("utf-8")).length == length == length_of(text)


@pytest.mark.parametrize(
    ("bom", "codec", "charset"),
    [
        (codecs.BOM_UTF8, "utf-8", "UTF-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16LE"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16BE"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32LE"),
        (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32BE"),
    ],
)
def test_a_bom_decides_the_charset_and_is_not_a_character(bom: bytes, codec: str, charset: str) -> None:
    data = bom + "héllo\nwörld".encode(codec)
    src = Source("t", data, "ISO-8859-1")
    assert src.charset == charset
    assert src.text == "héllo\nwörld"
    assert src.length == 11
    assert resolve(src, parse_fragment("char=0,1")).text == "h"
    import hashlib

    assert src.md5 == hashlib.md5(data).hexdigest()  # md5 over the raw bytes, BOM included


def test_configured_charset_without_bom() -> None:
    src = Source("t", "grüße".encode("iso-8859-1"), "ISO-8859-1")
    assert src.text == "grüße"
    assert src.length == 5


def test_undecodable_bytes_name_the_offset_line_and_charset() -> None:
    with pytest.raises(DecodeError) as info:
        Source("t", b"ok\r\nfine\n\xffbad", "UTF-8")
    err = info.value
    assert err.offset == 9
    assert err.charset == "UTF-8"
    assert "byte 9 (line 3)" in err.message and "UTF-8" in err.message


def test_undecodable_after_a_bom_counts_the_bom() -> None:
    with pytest.raises(DecodeError) as info:
        Source("t", codecs.BOM_UTF8 + b"a\xff", "UTF-8")
    assert info.value.offset == 4


def test_selection_reports_1_based_lines() -> None:
    src = Source("t", TEXT20.encode())
    s = resolve(src, parse_fragment("line=10,20"))
    assert (s.first_line, s.last_line) == (11, 20)
    assert s.lines_display() == "lines 11-20"
    s = resolve(src, parse_fragment("char=0,2"))
    assert s.lines_display() == "line 1"
    assert resolve(src, parse_fragment("line=30")).lines_display() == "the end of the file (after line 20)"


def test_selection_keeps_rfc_char_positions_across_crlf() -> None:
    src = Source("t", b"ab\r\ncd\r\nef")
    s = resolve(src, parse_fragment("line=1,2"))
    assert s.text == "cd\r\n"
    assert (s.char_start, s.char_end) == (3, 6)
    assert resolve(src, parse_fragment(f"char={s.char_start},{s.char_end}")).text == s.text


def test_line_index_is_built_once_and_never_with_splitlines() -> None:
    src = Source("t", b"a\x0cb\nc")
    assert src.line_starts == [0, 4]
    assert src.line_starts is src.line_starts
