"""The engine-neutral excerpt model: what every engine shows of a quote is decided here, once."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import textfrag.reference.grammar
from textfrag import SourceCache, TextFragError, parse_reference, quote
from textfrag.verdict.excerpt import ELISION, INLINE_ELISION, excerpt_of

TEXT = "".join(f"line {i}\r\n" for i in range(1, 21))


@pytest.fixture
def cache(tmp_path: Path) -> SourceCache:
    (tmp_path / "app.py").write_bytes(TEXT.encode())
    return SourceCache(tmp_path)


def test_one_piece_with_its_contract_values(cache: SourceCache) -> None:
    md5 = hashlib.md5(TEXT.encode()).hexdigest()
    ex = excerpt_of(quote(cache, f"txtfrag:app.py#line=2,4;md5={md5}"), emphasize="3-4")
    [piece] = ex.pieces
    assert (piece.text, piece.first_line, piece.emphasized) == ("line 3\nline 4\n", 3, (1, 2))  # line endings as \n
    assert ex.caption == "app.py, lines 3-4" and ex.anchor == "txtfrag-app-py-line-2-4" and ex.language == "python"
    assert ex.data == {
        "ref": f"app.py#line=2,4;md5={md5}",
        "md5": md5,
        "length": str(len(TEXT) - 20),
        "charset": "UTF-8",
        "state": "current",
    }
    assert (ex.state, ex.problem) == ("current", None)


def test_disjoint_pieces_are_numbered_as_in_the_file_with_one_elision_mark(cache: SourceCache) -> None:
    ex = excerpt_of(quote(cache, "app.py#line(2)line(5,6)"), emphasize="6")
    assert [(p.first_line, p.emphasized) for p in ex.pieces] == [(2, ()), (5, (2,))]
    assert ex.text == f"line 2\n{ELISION}\nline 5\nline 6\n"
    assert (
        ex.inline_text == f"line 2\n{INLINE_ELISION}line 5\nline 6"
    )  # (an inline excerpt ends without its last line ending: it reads as part of its sentence)
    assert ex.caption == "app.py, line 2 and lines 5-6"


def test_options_caption_language_source_url_relative_emphasis_and_dedent(cache: SourceCache) -> None:
    q = quote(cache, "app.py#line=0,3")
    ex = excerpt_of(q, caption="", language="text", emphasize_in_excerpt="1 3", source_url_template="https://h/{path}#L{first}")
    assert (ex.caption, ex.language, ex.source_url, ex.pieces[0].emphasized) == ("", "text", "https://h/app.py#L1", (1, 3))
    assert excerpt_of(q, dedent_by=None).pieces[0].text == "line 1\nline 2\nline 3\n"
    with pytest.raises(TextFragError, match="outside the excerpt"):
        excerpt_of(q, emphasize="4")
    with pytest.raises(TextFragError, match="outside the excerpt"):
        excerpt_of(q, emphasize_in_excerpt="1-100000000000")


def test_a_stale_quote_is_shown_with_its_state_and_problem(cache: SourceCache) -> None:
    ex = excerpt_of(quote(cache, "app.py#line=0,1;md5=" + "0" * 32, explain=False))
    assert ex.state == "stale" and ex.problem is not None and "md5 is 000" in ex.problem


def test_rfc5147_references_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A well-formed RFC 5147 fragment is parsed by the one-expression fast path, never by the cursor
    parser or the dialect dispatch (which are for errors and other dialects)."""

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the slow path ran")

    monkeypatch.setattr(textfrag.reference.grammar, "_parse_cursor", must_not_run)
    monkeypatch.setattr(textfrag.reference.grammar, "parse_selector", must_not_run)
    for ref in [
        "a.py#line=10,20;length=9;md5=" + "a" * 32,
        "a.py#char=,4",
        "a.py#line=3",
        "txtfrag:a.py#char=5,;md5=" + "B" * 32 + ",utf-8",
    ]:
        assert str(parse_reference(ref)).startswith("a.py#")


def test_the_languages_known_without_pygments_are_the_ones_pygments_gives() -> None:
    """A file's language comes from a table for the common names (no Pygments search, no Pygments at all):
    for every name the table answers with Pygments installed, Pygments' own answer is the same."""
    from pygments.lexers import find_lexer_class_for_filename

    from textfrag.verdict.presentation import _SAME_AS_PYGMENTS, language_for

    for ext, language in _SAME_AS_PYGMENTS.items():
        name = ext if ext in ("Makefile", "Dockerfile") else f"x.{ext}"
        lexer = find_lexer_class_for_filename(name)
        assert lexer is not None and lexer.aliases[0] == language, (ext, language, lexer)
        assert language_for(f"src/{name}") == language
