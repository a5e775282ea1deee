"""match(): the POSIX BRE translation agrees with GNU grep on generated patterns and lines."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag import Source
from textfrag.reference.dialects.wilde import Match, _compile

GREP = shutil.which("grep")
pytestmark = pytest.mark.skipif(GREP is None, reason="GNU grep is not installed")


@st.composite
def bre(draw: st.DrawFn, depth: int = 0, groups: dict[str, object] | None = None) -> str:
    groups = {"opened": 0, "closed": []} if groups is None else groups
    pieces = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["lit", "lit", "lit", "dot", "set", "nset", "class", "group", "backref", "special"]))
        if kind == "lit":
            atom = draw(st.sampled_from(list("abx")))
        elif kind == "dot":
            atom = "."
        elif kind == "set":
            atom = draw(st.sampled_from(["[ab]", "[a-c]", "[]a]", "[x.]", "[*]"]))
        elif kind == "nset":
            atom = draw(st.sampled_from(["[^a]", "[^]b]", "[^ ]"]))
        elif kind == "class":
            atom = draw(st.sampled_from(["[[:alpha:]]", "[[:digit:]]", "[[:space:]]", "[[:punct:]]"]))
        elif kind == "group" and depth < 2:
            groups["opened"] = number = int(groups["opened"]) + 1  # type: ignore[call-overload]
            atom = "\\(" + draw(bre(depth + 1, groups)) + "\\)"
            groups["closed"].append(number)  # type: ignore[attr-defined]  # later atoms may refer to it
        elif kind == "backref" and groups["closed"]:
            atom = "\\" + str(draw(st.sampled_from(groups["closed"])))  # type: ignore[arg-type]
        elif kind == "special":
            atom = draw(st.sampled_from(["+", "?", "|", "{", "}", "\\.", "\\*", "\\[", "(", ")"]))
        else:
            atom = "a"
        quant = draw(st.sampled_from(["", "", "*", "\\{1,2\\}", "\\{2\\}", "\\{0,1\\}"]))
        if kind == "group" and quant and atom.startswith("\\("):
            # glibc (GNU grep) mishandles back-references to a repeated group; see the test below
            groups["closed"].remove(number)  # type: ignore[attr-defined]
        pieces.append(atom + quant)
    body = "".join(pieces)
    if depth == 0:
        if draw(st.booleans()):
            body = "^" + body
        if draw(st.booleans()):
            body = body + "$"
    return body


lines = st.lists(st.text(alphabet=st.sampled_from(list("abxc .*1+?|{}()[]]^$")), max_size=12), min_size=1, max_size=8)


def grep_matches(pattern: str, text_lines: list[str]) -> list[tuple[int, str]]:
    r = subprocess.run(
        [GREP, "-o", "-n", "-e", pattern],  # type: ignore[list-item]
        input="".join(line + "\n" for line in text_lines).encode(),
        capture_output=True,
        env=dict(os.environ, LC_ALL="C.UTF-8"),
        timeout=10,
    )
    assert r.returncode in (0, 1), r.stderr
    out = []
    for row in r.stdout.decode().splitlines():
        number, _, match = row.partition(":")
        out.append((int(number), match))
    return out


def our_matches(pattern: str, text_lines: list[str]) -> list[tuple[int, str]]:
    src = Source("t.txt", "".join(line + "\n" for line in text_lines).encode())
    m = Match(pattern, pattern, _compile(pattern, pattern, 0, 1))
    try:
        found = m.select(src)
    except Exception as exc:  # "matches nothing" is our error; grep prints nothing then
        if "matches nothing" in str(exc):
            return []
        raise
    return [(s.first_line, s.text) for s in found]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bre(), lines)
def test_translation_agrees_with_gnu_grep(pattern: str, text_lines: list[str]) -> None:
    assert our_matches(pattern, text_lines) == grep_matches(pattern, text_lines), pattern


@pytest.mark.parametrize(
    ("pattern", "line", "expected"),
    [
        ("a*ab", "aab", ["aab"]),  # leftmost-longest, where a backtracking engine would stop early
        ("\\(ab\\)\\1", "xababx", ["abab"]),
        ("[]a]*", "]a]b", ["]a]"]),
        ("[[:digit:]]\\{2\\}", "a123b45", ["12", "45"]),
        ("a+b?", "a+b? aab", ["a+b?"]),  # + ? are literal in a BRE
        ("^*x", "*x*x", ["*x"]),  # * right after ^ is literal
        ("x$y", "x$y", ["x$y"]),  # $ not at the end is literal
    ],
)
def test_bre_semantics_table(pattern: str, line: str, expected: list[str]) -> None:
    got = [text for _, text in our_matches(pattern, [line])]
    assert got == expected
    assert [text for _, text in grep_matches(pattern, [line])] == expected


def test_back_reference_to_a_repeated_group_follows_posix_not_glibc() -> None:
    """POSIX: \\(a*\\)\\{2\\} matches "" twice, so \\1 is "" and the pattern matches "1". GNU grep
    (glibc's regex, sed alike) finds no match for it although it matches .\\(a*\\)\\1: a known glibc
    quirk, excluded from the agreement property above and pinned here."""
    assert our_matches(".\\(a*\\)\\{2\\}\\1", ["1"]) == [(1, "1")]
    assert our_matches(".\\(a*\\)\\1", ["1"]) == grep_matches(".\\(a*\\)\\1", ["1"]) == [(1, "1")]
