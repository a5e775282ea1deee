"""mystmd's literalinclude, as textfrag computes it (textfrag.guard.myst), pinned to mystmd 1.x's own code
(myst-directives include.js, myst-transforms include.js ``filterIncludedContent``); the guarded builds
in test_guard_myst.py hold it to what mystmd shows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textfrag.errors import TextFragError
from textfrag.guard.myst import MAX_SHOWN_LINES, myst_literal

TEXT = "a\nb\nc\nd\ne\n"  # (its lines, split at \n: a b c d e and an empty last one)


@pytest.mark.parametrize(
    ("options", "shown", "lines"),
    [
        ({}, TEXT, (1, 2, 3, 4, 5, 6)),  # no filter: the file as it is
        ({"lines": "2-3"}, "b\nc", (2, 3)),  # joined with \n, none after the last line
        ({"lines": "4-"}, "d\ne\n", (4, 5, 6)),  # to the end, the empty last line too
        ({"lines": "5, 1"}, "e\na", (5, 1)),  # in the order written
        ({"lines": "0, x, 2"}, "b", (2,)),  # a lone 0 and what is not a line spec are left out
        ({"lines": "9"}, "", ()),  # past the end: nothing
        ({"lines": "x"}, "", ()),  # nothing it can read: nothing shown
        ({"lines": ""}, TEXT, (1, 2, 3, 4, 5, 6)),  # an empty value is no filter
        ({"start-line": "1", "end-line": "2"}, "b\nc", (2, 3)),  # 0-based, end-line's line included
        ({"start-line": "-2"}, "e\n", (5, 6)),  # from the end
        ({"end-line": "1"}, "a\nb", (1, 2)),
        ({"start-line": "x"}, TEXT, (1, 2, 3, 4, 5, 6)),  # not a number: left out
        ({"lines": "2", "start-line": "3"}, "b", (2,)),  # :lines: first
        ({"start-at": "c"}, "c\nd\ne\n", (3, 4, 5, 6)),
        ({"start-after": "c"}, "d\ne\n", (4, 5, 6)),
        ({"start-at": "z"}, TEXT, (1, 2, 3, 4, 5, 6)),  # not found: from the top
        ({"start-after": "z"}, "b\nc\nd\ne\n", (2, 3, 4, 5, 6)),  # not found: from the top, after one line
        ({"end-at": "c"}, "a\nb\nc", (1, 2, 3)),
        ({"end-before": "c"}, "a\nb", (1, 2)),
        ({"start-at": "b", "end-before": "b"}, "b\nc\nd\ne\n", (2, 3, 4, 5, 6)),  # the end is looked for after the start
        ({"end-before": "z"}, TEXT, (1, 2, 3, 4, 5, 6)),  # not found: to the end
    ],
)
def test_what_mystmd_s_literalinclude_shows(options: dict[str, str], shown: str, lines: tuple[int, ...]) -> None:
    assert myst_literal(options, TEXT) == (shown, lines)


def test_a_line_ending_is_kept_as_it_is() -> None:
    assert myst_literal({"lines": "1-2"}, "a\r\nb\r\nc") == ("a\r\nb\r", (1, 2))


def test_what_would_show_too_many_lines_is_refused_before_a_line_is_copied() -> None:
    many = ",".join(["1-"] * 2000)
    with pytest.raises(TextFragError, match="more than"):
        myst_literal({"lines": many}, "x\n" * (MAX_SHOWN_LINES // 1000))
    assert myst_literal({"lines": "9" * 5000}, TEXT) == ("", ())  # (a number longer than any file)


@given(st.text(alphabet="ab\n\r-,0123456789 x", max_size=40), st.text(alphabet="ab\n", max_size=40))
def test_any_spec_shows_lines_of_the_file_or_nothing(spec: str, text: str) -> None:
    shown, lines = myst_literal({"lines": spec}, text)
    split = text.split("\n")
    assert lines is not None
    assert shown == "\n".join(split[n - 1] for n in lines)
