"""Whole files and open ends, pinned: `make --whole` and `--lines A-` write a range without
its end (RFC 5147 section 3: ``line=0,`` runs to the end of the text), every tool keeps it open, and a
quote that runs to the end of a file that grew is changed, never "moved" to a range that drops the
new lines."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from textfrag import SourceCache, quote
from textfrag.cli import main

from ..conftest import commit_all, new_project
from ..processes import run_textfrag

TEXT = "one\ntwo\nthree\n"
MD5 = hashlib.md5(TEXT.encode()).hexdigest()


def make(root: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["make", "--root", str(root), *argv], stdout=out, stderr=err)
    return code, out.getvalue().strip(), err.getvalue().strip()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_project(tmp_path / "p", "a.txt", TEXT)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--whole"], "line=0,"),
        (["--lines", "2-"], "line=1,"),
        (["--lines", "3-"], "line=2,"),
        (["--lines", "2-3"], "line=1,3"),  # a closed range stays closed
        (["--from", "src/a.txt#line=1,"], "line=1,"),
        (["--from", "src/a.txt#line=0,"], "line=0,"),
        (["--from", "src/a.txt#char=4,"], "line=1,"),  # whole lines are written as lines
        (["--from", "src/a.txt#char=5,"], "char=5,"),
        (["--from", "src/a.txt#line=1,3"], "line=1,3"),
    ],
)
def test_make_writes_and_keeps_open_ends(project: Path, argv: list[str], fragment: str) -> None:
    code, out, err = make(project, *(["src/a.txt"] if argv[0] != "--from" else []), *argv)
    assert (code, err) == (0, "")
    assert out == f"src/a.txt#{fragment};length={len(TEXT)};md5={MD5}"
    q = quote(SourceCache(project), out)
    assert q.stale is None


def test_a_whole_file_reference_quotes_every_line_and_an_empty_file(project: Path) -> None:
    _, ref, _ = make(project, "src/a.txt", "--whole")
    assert quote(SourceCache(project), ref).text == TEXT
    (project / "src" / "empty.txt").write_bytes(b"")
    code, ref, err = make(project, "src/empty.txt", "--whole")
    assert (code, err) == (0, "") and ref.startswith("src/empty.txt#line=0,;length=0;")
    assert quote(SourceCache(project), ref).text == ""


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("9-", "--lines 9-: the file has 3 lines"),
        ("0-", "lines are numbered from 1"),
        ("x-", "the first line is written in digits 0-9, not 'x'"),
        ("9" * 200 + "-", "digits"),  # never turned into a number of 200 digits
    ],
)
def test_open_lines_out_of_the_file_are_refused_in_plain_words(project: Path, lines: str, message: str) -> None:
    code, out, err = make(project, "src/a.txt", "--lines", lines)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_a_grown_whole_file_is_changed_not_moved_and_an_open_end_that_moved_stays_open(project: Path) -> None:
    whole = make(project, "src/a.txt", "--whole")[1]
    (project / "src" / "b.txt").write_text("x\ny\n")
    tail = make(project, "src/b.txt", "--lines", "2-")[1]
    doc = project / "docs" / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {whole}\n\n.. txtfrag:: {tail}\n")
    commit_all(project)
    (project / "src" / "a.txt").write_text(TEXT + "four\n")  # appended: the quote runs to the end, so it grew
    (project / "src" / "b.txt").write_text("new\nx\ny\n")  # inserted above: the open end only moved
    r = run_textfrag("update", "--write", "--root", ".", "docs", cwd=project, timeout=60)
    assert r.returncode == 1, r.stderr
    assert "changed: the quote runs to the end of the file (lines 1-3" in r.stderr
    assert "+four" in r.stderr  # the diff shows what was appended
    new_tail = "src/b.txt#line=2,;length=8;md5=" + hashlib.md5(b"new\nx\ny\n").hexdigest()
    assert doc.read_text() == f"T\n=\n\n.. txtfrag:: {whole}\n\n.. txtfrag:: {new_tail}\n"
