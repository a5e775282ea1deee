"""Integrity checks: RFC 5147 sections 2.3, 3.1 and 4.3."""

from __future__ import annotations

import hashlib

import pytest

from textfrag import Source, StaleError, UnverifiableError, mismatches, parse_fragment, verify

DATA = b"This is line one.\n"
MD5 = hashlib.md5(DATA).hexdigest()


def check(fragment: str, data: bytes = DATA, charset: str = "UTF-8") -> list[str]:
    return [m.check.name for m in mismatches(Source("t", data, charset), parse_fragment(fragment))]


@pytest.mark.parametrize(
    ("fragment", "failed", "section"),
    [
        ("char=0,4;length=18", [], "3.1 length in code points"),
        ("char=0,4;length=19", ["length"], "4.3"),
        (f"char=0,4;md5={MD5}", [], "3.1"),
        (f"char=0,4;md5={MD5.upper()}", [], "3.1 either case"),
        ("char=0,4;md5=" + "0" * 32, ["md5"], "4.3"),
        (f"char=0,4;length=18;md5={'0' * 32}", ["md5"], "4.3 every check is verified"),
        (f"char=0,4;length=1;md5={MD5}", ["length"], "4.3 every check is verified"),
        ("char=0,4;length=1;length=18", ["length"], "4.3 every check is verified"),
        ("char=0,4;sha256=deadbeef", [], "3.1 unknown checks are ignored"),
        ("char=0,4;length=18,UTF-8", [], "2.3 same charset"),
        ("char=0,4;length=18,utf8", [], "2.3 same charset, other label"),
    ],
)
def test_checks(fragment: str, failed: list[str], section: str) -> None:
    assert check(fragment) == failed


def test_length_counts_crlf_once() -> None:
    assert check("line=0;length=3", b"a\r\nb") == []


def test_check_in_another_charset_is_applied_after_transcoding() -> None:
    text = "grüße\n"
    latin1_md5 = hashlib.md5(text.encode("iso-8859-1")).hexdigest()
    assert check(f"line=0;md5={latin1_md5},ISO-8859-1;length=6,ISO-8859-1", text.encode("utf-8")) == []
    assert check(f"line=0;md5={latin1_md5}", text.encode("utf-8")) == ["md5"]


def test_check_that_cannot_be_transcoded_is_unverifiable() -> None:
    with pytest.raises(UnverifiableError) as info:
        check("line=0;md5=" + "0" * 32 + ",ISO-8859-1", "snow ☃\n".encode())
    assert "line 1" in info.value.message and "2.3" in info.value.message


def test_check_with_unknown_charset_is_unverifiable() -> None:
    with pytest.raises(UnverifiableError):
        check("line=0;length=3,X-NO-SUCH-CHARSET")


def test_stale_error_names_every_failed_check() -> None:
    with pytest.raises(StaleError) as info:
        verify(Source("t", DATA), parse_fragment("line=0;length=2;md5=" + "0" * 32), reference="t#x")
    assert "length is 2" in info.value.message and "md5 is 000" in info.value.message
    assert info.value.exit_code == 1
