"""An excerpt that shows nothing is a problem of its own kind (``empty``): a range past the end of the file
or of no width, an option that selects no line. The parser keeps RFC 5147's clamping (section 2.1.1: a
position past the end is the end); the verdict refuses the empty result, in check, pin and the builds."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from textfrag import parse_fragment
from textfrag.cli import main
from textfrag.reference.integrity import emptiness
from textfrag.reference.resolving import resolve
from textfrag.source.cache import Source
from textfrag.source.charsets import Digest

from ..processes import run_mkdocs, run_sphinx, run_textfrag

TEXT = "".join(f"line {i}\n" for i in range(1, 43))  # 42 lines
PIN = f"length={len(TEXT)};md5={hashlib.md5(TEXT.encode()).hexdigest()}"


@pytest.mark.parametrize(
    ("fragment", "empty"),
    [
        ("line=100,120", True),  # RFC 5147 2.1.1: both positions past the end are the end
        ("line=42,50", True),  # from the end on
        ("line=42,", True),
        ("line=5,5", True),  # a range of no width
        ("char=999,", True),
        ("line=41,100", False),  # the last line
        ("line=0,1", False),
        ("char=0,1", False),
        ("line=100", False),  # a position selects nothing by design
    ],
)
def test_the_parser_clamps_and_the_verdict_refuses_what_selects_nothing(fragment: str, empty: bool) -> None:
    source = Source("f.txt", TEXT.encode())
    parsed = parse_fragment(fragment)
    assert resolve(source, parsed).empty == (empty or not parsed.scheme.is_range)  # (clamped, not refused)
    digest = Digest.of("f.txt", TEXT.encode())
    assert digest.lines == 42 and source.digest.lines == 42
    assert (emptiness(digest, parsed) is not None) == empty


@pytest.mark.parametrize(("text", "lines"), [("", 0), ("a", 1), ("a\n", 1), ("a\r\nb", 2), ("a\rb\r", 2), ("é\u0085x", 2)])
def test_the_digest_counts_the_rfc_line_positions(text: str, lines: int) -> None:
    assert Digest.of("f", text.encode()).lines == lines == Source("f", text.encode()).digest.lines


def _project(tmp_path: Path, refs: list[str]) -> Path:
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "f.txt").write_text(TEXT)
    (root / "docs" / "index.rst").write_text("T\n=\n\n" + "".join(f".. txtfrag:: {r}\n\n" for r in refs))
    return root


def test_check_and_pin_refuse_a_range_past_the_end_with_its_lines(tmp_path: Path) -> None:
    root = _project(tmp_path, [f"f.txt#line=100,120;{PIN}", "f.txt#line=100,120", f"f.txt#line=40,42;{PIN}"])
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--root", str(root), str(root / "docs")], stdout=out, stderr=err) == 2
    said = err.getvalue()
    assert said.count("the excerpt is empty") == 2 and "(lines 101-120)" in said and "which has 42 lines" in said, said
    assert "index.rst:4:" in said and "index.rst:6:" in said and "index.rst:8:" not in said
    before = (root / "docs" / "index.rst").read_text()
    pinned = run_textfrag("pin", "--write", "--root", str(root), str(root / "docs"), timeout=60)
    assert pinned.returncode == 2 and "the excerpt is empty" in pinned.stderr
    assert (root / "docs" / "index.rst").read_text() == before  # (nothing pinned: the excerpt would show nothing)
    js = run_textfrag("check", "--format", "json", "--root", str(root), str(root / "docs"), timeout=60)
    kinds = [r["kind"] for r in json.loads(js.stdout)["results"]]
    assert kinds.count("empty") == 2


def test_a_large_file_kept_by_the_store_is_refused_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of 64 KB or more: its digest (with its line count) comes from the store on the next run."""
    big = "".join(f"line {i:06d}\n" for i in range(9000))
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "big.txt").write_text(big)
    pin = f"length={len(big)};md5={hashlib.md5(big.encode()).hexdigest()}"
    (root / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: big.txt#line=9000,9010;{pin}\n")
    import os
    import time

    os.utime(root / "big.txt", (time.time() - 60, time.time() - 60))
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TEXTFRAG_NO_CACHE", raising=False)
    for _ in range(2):
        err = io.StringIO()
        assert main(["check", "--root", str(root), str(root / "docs")], stdout=io.StringIO(), stderr=err) == 2
        assert "which has 9000 lines" in err.getvalue(), err.getvalue()


def test_the_sphinx_build_fails_on_an_empty_excerpt_as_check_does(tmp_path: Path) -> None:
    root = _project(tmp_path, [f"f.txt#line=100,120;{PIN}"])
    (root / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    b = run_sphinx("-E", "-q", "-b", "html", str(root / "docs"), str(tmp_path / "out"), timeout=120)
    assert b.returncode != 0 and "index.rst:4" in b.stderr and "the excerpt is empty" in b.stderr, b.stderr
    assert "[textfrag.empty]" in b.stderr


def test_the_mkdocs_build_fails_on_an_empty_excerpt(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "f.txt").write_text(TEXT)
    (root / "mkdocs.yml").write_text("site_name: S\nplugins: [textfrag]\nmarkdown_extensions: [attr_list]\n")
    (root / "docs" / "index.md").write_text(
        f"# S\n\n![](txtfrag:f.txt#line=41,42;{PIN})\n\n![](txtfrag:f.txt#line=50,60;{PIN})\n"
    )
    b = run_mkdocs("build", "--strict", "-q", cwd=root, timeout=120)
    assert b.returncode != 0 and "the excerpt is empty" in b.stderr, b.stderr
    ok = f"# S\n\n![](txtfrag:f.txt#line=41,42;{PIN})\n"
    (root / "docs" / "index.md").write_text(ok)
    b = run_mkdocs("build", "--strict", "-q", cwd=root, timeout=120)
    assert b.returncode == 0, b.stderr
    soup = BeautifulSoup((root / "site" / "index.html").read_text(), "html.parser")
    assert "line 42" in soup.select_one("[data-txtfrag-ref]").get_text()
