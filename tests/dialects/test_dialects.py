"""Every seed's fragment syntax, pinned by its own document's examples."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from textfrag import FragmentSyntaxError, Source, SourceCache, TextFragError, parse_reference, quote
from textfrag.reference.dialects.textfragments import parse_text_directives
from textfrag.reference.dialects.yee import words


def pieces(text: str | bytes, fragment: str) -> list[str]:
    data = text.encode() if isinstance(text, str) else text
    src = Source("t.txt", data)
    ref = parse_reference(f"t.txt#{fragment}")
    return [s.text for s in ref.selector.select(src)]


# -- draft-wilde-text-fragment-00 ---------------------------------------------------------------------

DOC = "".join(f"line {i} searchterm{'' if i % 3 else ' hello('}\n" for i in range(1, 31))


@pytest.mark.parametrize(
    ("fragment", "expected", "section"),
    [
        ("char(100)", [DOC[99]], "4: the 100th character"),
        ("line(10,20)", ["".join(DOC.splitlines(keepends=True)[9:20])], "4: lines 10 to 20"),
        ("line(25,40)", ["".join(DOC.splitlines(keepends=True)[24:30])], "4: fewer than 20 lines: to the last line"),
        ("line(40)", [DOC.splitlines(keepends=True)[-1]], "3: past the end: the last line"),
        ("char(99999)", ["\n"], "3: past the end: the last character"),
        ("match(searchterm)", ["searchterm"] * 30, "4: all occurrences, a disjoint fragment"),
        ("line(1)match(hello%5E()", ["line 1 searchterm\n", "hello("] + ["hello("] * 9, "4: union, percent-decoded, ^( escape"),
        ("char(1,4)char(3,6)", ["line 1"], "2.1.6: overlapping parts are one piece"),
        ("line(2)line(1)", ["line 1 searchterm\nline 2 searchterm\n"], "2.1.6: touching parts, in file order"),
        ("match(^line%203%20)", ["line 3 "], "BRE anchor, percent-decoded"),
        ("match(^^)", None, "^^ is a literal ^ (no match here)"),
    ],
)
def test_wilde_examples(fragment: str, expected: list[str] | None, section: str) -> None:
    if expected is None:
        with pytest.raises(TextFragError, match="matches nothing"):
            pieces(DOC, fragment)
        return
    got = pieces(DOC, fragment)
    if fragment.startswith("line(1)match(hello"):
        assert got[0] == expected[0] and got[1:] == ["hello("] * 10
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("fragment", "words_in_message"),
    [
        ("line(20,10)", "ends before it starts"),
        ("char(0)", "counts start at 1"),
        ("line(a)", "takes a count"),
        ("match(a(b)", "unbalanced"),
        ("match(a\\+)", "not defined in a POSIX basic"),
        ("match(\\1)", "not closed before it"),
        ("line(1)foo", "expected char(, line( or match("),
    ],
)
def test_wilde_syntax_errors(fragment: str, words_in_message: str) -> None:
    with pytest.raises(FragmentSyntaxError) as info:
        parse_reference(f"t.txt#{fragment}")
    assert words_in_message in info.value.message
    assert "draft-wilde-text-fragment-00" in info.value.message


def test_a_pathological_match_is_stopped_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Source, "SEARCH_BUDGET", 0.5)  # (the one budget of a file's searches; 2 s by default)
    text = ("a" * 60 + "\n") * 20  # nested bounded repetition backtracks exponentially on each line
    t = time.monotonic()
    with pytest.raises(TextFragError) as info:
        pieces(text, "match(\\(a\\{1,10\\}\\)\\{1,10\\}b)")
    assert time.monotonic() - t < 5
    assert "ran longer than 0.5 s" in info.value.message


# -- Yee -----------------------------------------------------------------------------------------------


def test_yee_word_splitting_examples() -> None:
    assert [w for w, _, _ in words("Hey! That 'quick' brown fox didn't jump over the lazy dog?")] == [
        "Hey",
        "That",
        "quick",
        "brown",
        "fox",
        "didnt",
        "jump",
        "over",
        "the",
        "lazy",
        "dog",
    ]
    german = "Es brillig war. Die schlichten Toven\nWirrten und wimmelten in\nWaben;\nUnd aller-mümsige Burggoven\nDie mohmem Räth' ausgraben1."
    assert [w for w, _, _ in words(german)] == [
        "Es",
        "brillig",
        "war",
        "Die",
        "schlichten",
        "Toven",
        "Wirrten",
        "und",
        "wimmelten",
        "in",
        "Waben",
        "Und",
        "aller",
        "mumsige",
        "Burggoven",
        "Die",
        "mohmem",
        "Rath",
        "ausgraben1",
    ]


# Section 4 of Yee's memo as the seed document has it: an old Mac text with CR line endings, a form feed
# and a page header between pages, and "distinguish" quoted again after the sentence it first occurs in.
YEE_SECTION_4 = (
    b"   The semantics of such a fragment identifier are as follows.  A\r"
    b"   case-sensitive match for the entire sequence of words, ignoring the\r"
    b"   parentheses, is to be sought within the target document's word\r"
    b"   sequence.\r\r"
    b"Yee                          Experimental                       [Page 3]\r\x0c\r"
    b"RFC 9999            Text-Search Fragment Identifiers          March 1998\r\r"
    b"   The words before and after the parentheses serve as context to distinguish\r"
    b"   multiple occurrences of the target phrase in the target document.\r"
    b"     For example, any of the following fragment identifiers\r"
    b'   could refer to the word "distinguish" in the previous paragraph.\r'
)


@pytest.mark.parametrize(
    "fragment",
    [":words:(distinguish)", ":words:serve-as-context-to-(distinguish)", ":words:context-to-(distinguish)-multiple-occurrences"],
)
def test_yee_distinguish_examples_on_a_document_shaped_like_the_seed(fragment: str) -> None:
    src = Source("yee.txt", YEE_SECTION_4)
    [sel] = parse_reference(f"yee.txt#{fragment}").selector.select(src)
    assert sel.text == "distinguish"
    assert src.text[sel.start - 20 : sel.start].endswith("serve as context to ")


def test_yee_selection_spans_the_original_text_and_folds_accents() -> None:
    assert pieces("Und aller-mümsige Burggoven!", ":words:Und-(aller-mumsige)-Burggoven") == ["aller-mümsige"]
    assert pieces("He said 'didn't' twice", ":words:(didnt)") == ["didn't"]
    assert pieces("Dog dog", ":words:(dog)") == ["dog"]  # case-sensitive
    with pytest.raises(TextFragError, match="do not occur"):
        pieces("the lazy dog", ":words:(lazy-cat)")
    with pytest.raises(FragmentSyntaxError, match="exactly one pair of parentheses"):
        parse_reference("t.txt#:words:no-parens")


# -- W3C Text Fragments ----------------------------------------------------------------------------------

# The text of web-platform-tests' scroll-to-text-fragment/find-range-from-text-directive-target.html as
# text/plain: the first three lines are above the fold there ("Won't scroll if matched").
WPT = """Won't scroll if matched:
match suffix
match suffix3

The quick brown fox jumped over the lazy dog.
a a b b b c

foo foo foo bar bar bar

match suffix2
prefix match suffix3 matchEnd suffix4 matchEnd suffix5

Lorem

   Ipsum

Whitespace

Dipsum

This text appears at the end of the document
"""
FOLD = WPT.index("\n\n")  # a match starting after this scrolls


@pytest.mark.parametrize(
    ("fragment", "scrolls"),
    [
        ("jumped", True),
        ("u-,mped", False),
        ("ju-,mped", True),
        ("null-,The%20quick", False),
        ("foo%20foo-,bar", True),
        ("a%20a-,b", True),
        ("quick%20brown-,brown%20fox", False),
        ("quick%20brown-,fox", True),
        ("Lorem-,Ipsum", True),
        ("end%20of%20the%20document-,test", False),
        ("fox-,jum,over", False),
        ("fox-,jum", False),
        ("fox-,jum,-ped", True),
        ("jum-,ped", True),
        ("jumped-,null", False),
        ("jumped-,null,lazy", False),
        ("brown-,jumped", False),
        ("foo-,bar", True),
        ("jum,over", False),
        ("jum", False),
        ("jum,-ped", True),
        ("umped", False),
        ("null", False),
        ("null,lazy", False),
        ("b%20b,-c", True),
        ("foo%20foo,-bar", True),
        ("brown,fox", True),
        ("brown,quick", False),
        ("quick,bro", False),
        ("quick,bro,-wn", True),
        ("quick,ro,-wn", False),
        ("bro,wn", False),
        ("quick,null", False),
        ("quick,jumped,-fox", False),
        ("The-,quick,brown", True),
        ("The-,quick,fox,-brown", False),
        ("Lorem-,Ipsum,Whitespace,-Dipsum", True),
        ("quick,-bro", False),
        ("qu,-ick", True),
        ("quick,-null", False),
        ("quick,-fox", False),
        ("match,-suffix2", True),
        ("prefix-,match,-suffix3", True),
        ("prefix-,match,matchEnd,-suffix5", True),
    ],
)
def test_w3c_find_range_cases_from_web_platform_tests(fragment: str, scrolls: bool) -> None:
    src = Source("t.txt", WPT.encode())
    try:
        [sel] = parse_reference(f"t.txt#:~:text={fragment}").selector.select(src)
    except TextFragError:
        found = False
    else:
        found = sel.start > FOLD
    assert found == scrolls


def test_w3c_range_selection_and_case_insensitivity() -> None:
    assert pieces(WPT, ":~:text=The-,quick,brown") == ["quick brown"]
    assert pieces(WPT, ":~:text=prefix-,match,matchEnd,-suffix5") == ["match suffix3 matchEnd suffix4 matchEnd"]
    assert pieces(WPT, ":~:text=THE%20QUICK") == ["The quick"]
    assert pieces(WPT, ":~:text=jumped&unknown=1&text=lazy%20dog") == ["jumped", "lazy dog"]


@pytest.mark.parametrize(
    ("directive", "parsed"),
    [
        ("text=start", (None, "start", None, None)),
        ("text=start,end", (None, "start", "end", None)),
        ("text=prefix-,start,end,-suffix", ("prefix", "start", "end", "suffix")),
        ("text=text=", (None, "text=", None, None)),
        ("text=%25", (None, "%", None, None)),
        ("text=%", (None, "%", None, None)),
        ("text=%%", (None, "%%", None, None)),
        ("text=%25%25F", (None, "%%F", None, None)),
        ("text=%E2%9C%85", (None, "\u2705", None, None)),
        ("text=prefix--,start", ("prefix-", "start", None, None)),
        ("text=p-refix-,start", ("p-refix", "start", None, None)),
        ("foo&text=start1", (None, "start1", None, None)),
    ],
)
def test_w3c_parser_cases_from_firefox(directive: str, parsed: tuple[str | None, ...]) -> None:
    d = parse_text_directives(":~:" + directive).directives[0]
    assert (d.prefix, d.start, d.end, d.suffix) == parsed


@pytest.mark.parametrize(
    "directive",
    [
        "text=start,start,start",
        "text=prefix-,prefix-",
        "text=prefix-,-suffix",
        "text=prefix-,start,end,-suffix,foo",
        "text=foo,prefix-,start",
        "text=prefix-,,start,",
        "text=,prefix,start",
        "text=",
        "text=&",
        "text=,",
        "text=foo-,bar,-baz:~:text=foo",
        "foo",
    ],
)
def test_w3c_invalid_directives_from_firefox_are_errors(directive: str) -> None:
    with pytest.raises(FragmentSyntaxError):
        parse_text_directives(":~:" + directive)


# -- GitHub / w3m ----------------------------------------------------------------------------------------


def test_line_anchors() -> None:
    text = "one\ntwo\r\nthree\nfour"
    assert pieces(text, "L2") == ["two\r\n"]
    assert pieces(text, "L2-L3") == ["two\r\nthree\n"]
    assert pieces(text, "L3-L99") == ["three\nfour"]
    assert pieces(text, "4") == ["four"]
    with pytest.raises(TextFragError, match="past the end"):
        pieces(text, "L9")
    with pytest.raises(FragmentSyntaxError, match="ends before it starts"):
        parse_reference("t.txt#L3-L2")
    with pytest.raises(FragmentSyntaxError, match="numbered from 1"):
        parse_reference("t.txt#0")


# -- Persistent Document Identifiers ------------------------------------------------------------------


def test_pdi_examples_resolve_through_the_mapping_in_crlf_canonical_positions(tmp_path: Path) -> None:
    (tmp_path / "speech.txt").write_bytes(b"Remarks by the President\nat the\r\ndedication of the memorial\n")
    cache = SourceCache(tmp_path, pdi_map={"pdi://oma.eop.gov.us/1997/09/01/1.text.1": "speech.txt"})
    # CRLF-canonical: "Remarks by the President\r\nat the\r\n" is 26 + 8 = 34 characters
    for ref in (
        "urn:pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51",
        "pdi://oma.eop.gov.us/1997/09/01/1.text.1#37,51",
        "txtfrag:URN:PDI://oma.eop.gov.us/1997/09/01/1.text.1#CHAR=37,51",
    ):
        assert quote(cache, ref).text == "ication of the"  # 34 = the "d" of dedication
    assert quote(cache, "pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=0,26").text == "Remarks by the President\n"


@pytest.mark.parametrize(
    ("ref", "words_in_message"),
    [
        ("pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=25,26", "between the CR and LF"),
        ("pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=0,999", "past the end"),
        ("pdi://other.org.us/1997/09/01/1.text.1#0,1", "no file is mapped"),
    ],
)
def test_pdi_errors(tmp_path: Path, ref: str, words_in_message: str) -> None:
    (tmp_path / "speech.txt").write_bytes(b"Remarks by the President\nat the\r\n")
    cache = SourceCache(tmp_path, pdi_map={"urn:pdi://oma.eop.gov.us/1997/09/01/1.text.1": "speech.txt"})
    with pytest.raises(TextFragError) as info:
        quote(cache, ref)
    assert words_in_message in info.value.message


@pytest.mark.parametrize(
    ("ref", "words_in_message"),
    [
        ("pdi://oma.eop.gov.us/1997/09/01/1#char=0,1", "needs a format and a version"),
        ("pdi://oma.eop.gov.us/1997/09/01/1.html.1#char=0,1", "for the format 'text'"),
        ("pdi://oma.eop.gov.us/1997/09/01/1.text.1#elt=0,1", "expected a text fragment"),
        ("pdi://oma.eop.gov.us/1997/09/01/1.text.1", "needs a text fragment"),
        ("pdi://nodots/1997/09/01/1.text.1#0,1", "not a PDI"),
        ("pdi://oma.eop.gov.us/1997/09/01/1.text.1#5,1", "ends before it starts"),
    ],
)
def test_pdi_syntax_errors(ref: str, words_in_message: str) -> None:
    with pytest.raises(FragmentSyntaxError) as info:
        parse_reference(ref)
    assert words_in_message in info.value.message and "draft-mallery-urn-pdi-00" in info.value.message


# -- make --from -------------------------------------------------------------------------------------------


def test_make_from_turns_every_dialect_into_rfc5147_for_the_same_text(tmp_path: Path) -> None:
    import io

    from textfrag.cli import main

    (tmp_path / "t.txt").write_text(WPT)
    for frag in ("L5-L6", "5", ":~:text=brown,fox", ":words:lazy-(dog)", "line(1)match(suffix[0-9])", "char(10,20)"):
        out = io.StringIO()
        assert main(["make", "--root", str(tmp_path), "--from", f"t.txt#{frag}"], stdout=out) == 0
        made = out.getvalue().splitlines()
        cache = SourceCache(tmp_path)
        original = [s.text for s in quote(cache, f"t.txt#{frag}").selections]
        assert [quote(cache, m).text for m in made] == original
        assert all(";length=" in m and ";md5=" in m for m in made)


# -- hostile input ---------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FORMS = [
    "",
    "char(",
    "line(",
    "match(",
    ":words:",
    ":~:text=",
    ":~:",
    "L",
    "L1-L",
    "pdi://a.b.us/1997/09/01/1.text.1#",
    "urn:pdi:",
]
TAILS = st.lists(
    st.sampled_from(list("()^,-%&=:#0123456789LaAbz\\[]*.{}$ \u00e9\ufffd") + ["%FF", "%E2%9C", "9" * 5000]), max_size=30
).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(FORMS), TAILS, st.text(alphabet=st.sampled_from(list("ab ()\n\r\x85fox.")), max_size=40))
def test_any_dialect_input_raises_only_textfrag_errors_and_never_hangs(form: str, tail: str, text: str) -> None:
    try:
        ref = parse_reference(f"t.txt#{form}{tail}" if not form.startswith(("pdi", "urn")) else form + tail)
    except TextFragError:
        return
    if ref.selector is None or ref.dialect == "pdi":
        return
    try:
        ref.selector.select(Source("t.txt", text.encode()))
    except TextFragError:
        pass


@pytest.mark.parametrize(
    "reference",
    [
        "f.txt#line=10,20;length=9;md5=" + "a" * 32,
        "f.txt#char=,4",
        "f.txt",
        "f.txt#line(3)char(2,5)",
        "f.txt#match(a%20b)",
        "f.txt#match(caf%C3%A9%25)",
        "f.txt#line(1)match(^(x^))",
        "f.txt#:words:serve-as-(context)-to",
        "f.txt#:~:text=a-,b%20c,d,-e&text=f",
        "f.txt#L10-L20",
        "f.txt#L7",
        "f.txt#12",
        "pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51",
    ],
)
def test_str_of_every_dialect_s_reference_parses_back_to_an_equal_one(reference: str) -> None:
    """The selection seam: every dialect's fragment spells itself so that it parses back (match(a%20b) too)."""
    ref = parse_reference(reference)
    again = parse_reference(str(ref))
    assert again.selecting == ref.selecting and again.path == ref.path and again.dialect == ref.dialect
    assert ref.selecting is None or type(ref.selecting).dialect == ref.dialect  # a class constant
