"""Hypothesis properties: round trips, ranges that tile the text, no crash on any input."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from textfrag import (
    Fragment,
    FragmentSyntaxError,
    IntegrityCheck,
    Scheme,
    Source,
    TextFragError,
    parse_fragment,
    parse_reference,
    resolve,
)
from textfrag.reference.resolving import resolve_scheme

numbers = st.integers(min_value=0, max_value=10**30)
charsets = st.sampled_from([None, "UTF-8", "ISO-8859-1", "utf-16le"])


@st.composite
def schemes(draw: st.DrawFn) -> Scheme:
    name = draw(st.sampled_from(["char", "line"]))
    kind = draw(st.sampled_from(["position", "both", "open-start", "open-end"]))
    a, b = sorted((draw(numbers), draw(numbers)))
    if kind == "position":
        return Scheme(name, a)  # type: ignore[arg-type]
    if kind == "open-start":
        return Scheme(name, None, b, True)  # type: ignore[arg-type]
    if kind == "open-end":
        return Scheme(name, a, None, True)  # type: ignore[arg-type]
    return Scheme(name, a, b, True)  # type: ignore[arg-type]


checks = st.one_of(
    st.builds(lambda n, cs: IntegrityCheck("length", str(n), cs), numbers, charsets),
    st.builds(lambda h, cs: IntegrityCheck("md5", h, cs), st.text("0123456789abcdef", min_size=32, max_size=32), charsets),
    st.builds(lambda v: IntegrityCheck("sha256", v), st.text("0123456789abcdef", min_size=1, max_size=64)),
)
fragments = st.builds(Fragment, schemes(), st.lists(checks, max_size=4).map(tuple))

# Texts that mix every line ending with the characters that do not end lines.
pieces = st.sampled_from(["a", "é", "😀", " ", "\n", "\r", "\r\n", "\x85", "\r\x85", "\x0c", "\x0b", "\u2028", "\u2029"])
texts = st.lists(pieces, max_size=40).map("".join)


@given(fragments)
def test_str_round_trips(fragment: Fragment) -> None:
    text = str(fragment)
    assert parse_fragment(text) == fragment
    assert str(parse_fragment(text)) == text


@given(texts, st.integers(min_value=0, max_value=50))
def test_line_ranges_tile_the_text(text: str, k: int) -> None:
    src = Source("t", text.encode("utf-8"))
    head = resolve_scheme(src, Scheme("line", 0, k, True)).text
    tail = resolve_scheme(src, Scheme("line", k, None, True)).text
    assert head + tail == text


@given(texts)
def test_every_line_alone_tiles_the_text_and_ends_with_its_line_ending(text: str) -> None:
    src = Source("t", text.encode("utf-8"))
    lines = [resolve_scheme(src, Scheme("line", i, i + 1, True)).text for i in range(src.line_count + 1)]
    assert "".join(lines) == text
    for line in lines[:-1]:
        body = line.rstrip("\r\n\x85")
        assert line[len(body) :] in ("\n", "\r", "\r\n", "\x85", "\r\x85", "")


@given(texts, st.integers(min_value=0, max_value=50))
def test_char_ranges_tile_the_text_and_never_split_a_line_ending(text: str, k: int) -> None:
    src = Source("t", text.encode("utf-8"))
    head = resolve_scheme(src, Scheme("char", None, k, True)).text
    tail = resolve_scheme(src, Scheme("char", k, None, True)).text
    assert head + tail == text
    assert not (head.endswith("\r") and tail[:1] in ("\n", "\x85"))
    assert len(head) - head.count("\r\n") - head.count("\r\x85") == min(k, src.length)


@given(texts, fragments)
def test_resolving_any_valid_fragment_on_any_text_never_raises(text: str, fragment: Fragment) -> None:
    src = Source("t", text.encode("utf-8"))
    selection = resolve(src, fragment)
    assert 0 <= selection.start <= selection.end <= len(text)
    assert src.char_of_index(selection.start) == selection.char_start


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(list("charlinemdgth5=,;0123456789 ABCDEF-_x\u0661\n\x00#")), max_size=60))
def test_parser_raises_only_its_own_error_on_arbitrary_input(text: str) -> None:
    try:
        parse_fragment(text)
    except FragmentSyntaxError as err:
        start, end = err.span
        assert 0 <= start < end <= len(text) + 1
        assert err.detail()


@given(st.text(max_size=80))
def test_reference_parser_raises_only_textfrag_errors(text: str) -> None:
    try:
        parse_reference(text)
    except TextFragError:
        pass


@settings(max_examples=1000)
@given(
    st.one_of(
        fragments.map(str),
        st.text(alphabet=st.sampled_from(list("charlinemd5gth=,;0123456789ABCDEFabcdef-_xU8T")), max_size=70),
    )
)
def test_fast_path_agrees_with_the_cursor_parser(text: str) -> None:
    from textfrag.reference.grammar import _parse_cursor, _parse_fast

    fast = _parse_fast(text)
    try:
        slow = _parse_cursor(text)
    except FragmentSyntaxError:
        assert fast is None
    else:
        assert fast is None or fast == slow


@settings(max_examples=150, deadline=None)
@given(
    data=st.binary(max_size=64).map(lambda b: b.replace(b"\x00", b""))
    | st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"\xc3\xa9", b"\x85"]), max_size=40).map(b"".join),
    block=st.integers(min_value=1, max_value=9),
    charset=st.sampled_from(["UTF-8", "ISO-8859-1", "US-ASCII"]),
)
def test_a_digest_read_a_block_at_a_time_is_the_digest_of_the_whole_file(data: bytes, block: int, charset: str) -> None:
    """digest_under_root hashes and measures a block at a time (CR LF may straddle two blocks, a byte
    that is not ASCII sends it back to a whole read): always what Digest.of says of the whole file."""
    import os
    import tempfile

    import textfrag.source.reading as source_module
    from textfrag.source.cache import Digest
    from textfrag.source.reading import digest_under_root

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "f.txt"), "wb") as fh:
            fh.write(data)
        saved = source_module._BLOCK
        source_module._BLOCK = block  # tiny blocks, so that every boundary case is met by short inputs
        try:
            try:
                streamed: object = digest_under_root(os.path.realpath(folder), "f.txt", "f.txt", 1 << 20, charset)
            except TextFragError as failure:
                streamed = type(failure)
            try:
                whole: object = Digest.of("f.txt", data, charset)
            except TextFragError as failure:
                whole = type(failure)
        finally:
            source_module._BLOCK = saved
    assert streamed == whole
