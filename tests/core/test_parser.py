"""The grammar of RFC 5147 section 3, strictly (section 4.4: never guess or correct)."""

from __future__ import annotations

import pytest

from textfrag import FragmentSyntaxError, IntegrityCheck, PathError, Scheme, parse_fragment, parse_reference

VALID = [
    # (fragment, scheme, checks, RFC section)
    ("char=100", Scheme("char", 100), (), "2.2.1 / 5"),
    ("char=0", Scheme("char", 0), (), "2.2.1"),
    ("char=3,6", Scheme("char", 3, 6, True), (), "2.2.2"),
    ("char=,4", Scheme("char", None, 4, True), (), '3 range = "," position'),
    ("char=248,", Scheme("char", 248, None, True), (), '3 range = position ","'),
    ("char=5,5", Scheme("char", 5, 5, True), (), "2.2.2 empty range"),
    ("line=10,20", Scheme("line", 10, 20, True), (), "5"),
    ("line=,1", Scheme("line", None, 1, True), (), "5"),
    ("line=3", Scheme("line", 3), (), "2.2.3"),
    ("line=10,20;length=9876,UTF-8", Scheme("line", 10, 20, True), (IntegrityCheck("length", "9876", "UTF-8"),), "5"),
    (
        "char=0,4;md5=FC8850705BC913A80EDCC0DEA2C300F1",
        Scheme("char", 0, 4, True),
        (IntegrityCheck("md5", "fc8850705bc913a80edcc0dea2c300f1"),),
        "3.1 upper or lower case",
    ),
    (
        "line=1;length=5;md5=00000000000000000000000000000000,ISO-8859-1",
        Scheme("line", 1),
        (IntegrityCheck("length", "5"), IntegrityCheck("md5", "0" * 32, "ISO-8859-1")),
        "3 several checks",
    ),
    ("line=1;sha256=abcdef", Scheme("line", 1), (IntegrityCheck("sha256", "abcdef"),), "3.1 unknown checks kept, ignored"),
    ("line=007,010", Scheme("line", 7, 10, True), (), "3 number = 1*DIGIT"),
]


@pytest.mark.parametrize(("text", "scheme", "checks", "section"), VALID, ids=[v[0] for v in VALID])
def test_valid_fragments_parse(text: str, scheme: Scheme, checks: tuple[IntegrityCheck, ...], section: str) -> None:
    frag = parse_fragment(text)
    assert frag.scheme == scheme
    assert frag.checks == checks


INVALID = [
    # (fragment, words in the message, caret column, RFC section)
    ("", "empty", 0, "3"),
    ("CHAR=1", "lower case", 0, "3"),
    ("Line=1", "lower case", 0, "3"),
    ("lines=1", "expected 'char=' or 'line='", 0, "3"),
    ("char", "expected 'char=' or 'line='", 0, "3"),
    ("char=", "expected a character position", 5, "3"),
    ("char=,", "after ','", 6, "3"),
    ("char=a", "expected a character position", 5, "3"),
    ("char=1,2,3", "expected ';'", 8, "3"),
    ("char=-1", "expected a character position", 5, "3"),
    ("char=+1", "expected a character position", 5, "3"),
    ("char= 1", "a space", 5, "3"),
    ("char=1 ", "a space", 6, "3"),
    ("line=1, 2", "a space", 7, "3"),
    ("line=1;", "expected an integrity check", 7, "3"),
    ("line=1;;length=3", "expected an integrity check", 7, "3"),
    ("line=1;LENGTH=3", "lower case", 7, "3"),
    ("line=1;MD5=" + "0" * 32, "lower case", 7, "3"),
    ("line=1;length", "expected '='", 13, "3"),
    ("line=1;length=", "expected a length", 14, "3"),
    ("line=1;length=x", "expected a length", 14, "3"),
    ("line=1;md5=abc", "exactly 32", 11, "3"),
    ("line=1;md5=" + "0" * 33, "exactly 32", 11, "3"),
    ("line=1;md5=" + "0" * 31 + "g", "hexadecimal", 42, "3"),
    ("line=1;length=3,", "charset", 16, "3"),
    ("line=1;line=2", "one 'line=' scheme", 7, "3"),
    ("line=20,10", "starts after it ends", 5, "4.2"),
    ("char=5,4", "starts after it ends", 5, "4.2"),
    ("line=\u0661", "expected a line position", 5, "3"),  # ARABIC-INDIC DIGIT ONE is not DIGIT
    ("line=1" + "0" * 200, "digits", 5, "4.2"),
    ("L10-L20", "expected 'char=' or 'line='", 0, "3"),
]


@pytest.mark.parametrize(("text", "words", "column", "section"), INVALID, ids=[repr(v[0])[:30] for v in INVALID])
def test_syntax_errors_are_reported_never_corrected(text: str, words: str, column: int, section: str) -> None:
    with pytest.raises(FragmentSyntaxError) as info:
        parse_fragment(text)
    err = info.value
    assert words in err.message
    assert err.span[0] == column
    assert f"RFC 5147 section {section}" in err.message


def test_syntax_error_shows_the_reference_with_a_caret_under_the_bad_part() -> None:
    with pytest.raises(FragmentSyntaxError) as info:
        parse_reference("txtfrag:src/app.py#line=10,x0")
    assert info.value.describe("docs/index.rst:12") == (
        "docs/index.rst:12: txtfrag:src/app.py#line=10,x0: expected a line position after ',' (digits 0-9) "
        "but found 'x' (RFC 5147 section 3)\n"
        "    txtfrag:src/app.py#line=10,x0\n"
        "                               ^"
    )


def test_reversed_range_caret_covers_the_range() -> None:
    with pytest.raises(FragmentSyntaxError) as info:
        parse_reference("a.txt#line=20,10")
    assert info.value.detail().splitlines()[1] == "    " + " " * len("a.txt#line=") + "^" * len("20,10")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("line=007,010", "line=7,10"),
        ("char=0,4;md5=FC8850705BC913A80EDCC0DEA2C300F1", "char=0,4;md5=fc8850705bc913a80edcc0dea2c300f1"),
        ("line=10,20;length=9876,UTF-8", "line=10,20;length=9876,UTF-8"),
        ("char=,4", "char=,4"),
        ("char=4,", "char=4,"),
    ],
)
def test_str_is_canonical(text: str, canonical: str) -> None:
    assert str(parse_fragment(text)) == canonical
    assert parse_fragment(canonical) == parse_fragment(text)


@pytest.mark.parametrize(
    ("text", "path", "fragment"),
    [
        ("txtfrag:src/app.py#line=10,20", "src/app.py", "line=10,20"),
        ("src/app.py#line=10,20", "src/app.py", "line=10,20"),
        ("txtfrag:README.md", "README.md", None),
        ("dir with space/a.txt#char=1", "dir with space/a.txt", "char=1"),
    ],
)
def test_references(text: str, path: str, fragment: str | None) -> None:
    ref = parse_reference(text)
    assert ref.path == path
    assert (None if ref.fragment is None else str(ref.fragment)) == fragment
    assert ref.text == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("#line=1", "names no file"),
        ("txtfrag:#line=1", "names no file"),
        ("../etc/passwd", "'..'"),
        ("docs/../../x", "'..'"),
        ("a/../b.txt", "'..'"),
        ("/etc/passwd", "absolute"),
        ("C:/x.txt", "absolute"),
        ("a\\b.txt", "'\\'"),
        ("a\x00b.txt", "NUL"),
    ],
)
def test_paths_that_could_never_be_inside_the_root_are_refused(text: str, words: str) -> None:
    with pytest.raises(PathError) as info:
        parse_reference(text)
    assert words in info.value.message


def test_empty_fragment_after_hash_is_an_error_not_the_whole_file() -> None:
    with pytest.raises(FragmentSyntaxError):
        parse_reference("a.txt#")
