"""A reference to a file that is not under the root, but is under a folder above it: the build advises
its own setting (Sphinx's ``textfrag_root``, the MkDocs plugin's ``root:``), the command line its
``--root`` flag."""

from __future__ import annotations

from pathlib import Path

from ..conftest import new_project
from ..processes import run_mkdocs, run_sphinx, run_textfrag

APP = "one\ntwo\n"


def test_each_says_its_own_setting(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "docs" / "conf.py").write_text('extensions = ["sphinx_textfrag"]\n', encoding="utf-8")  # (root: docs/)
    (root / "docs" / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/app.txt#line=0,1\n", encoding="utf-8")
    build = run_sphinx("-q", "-b", "html", "docs", "out", cwd=root, timeout=300)
    assert build.returncode != 0
    assert "is that the root (textfrag_root = '..' in conf.py)?" in build.stderr, build.stderr
    assert "--root" not in build.stderr
    check = run_textfrag("check", "docs", cwd=root, timeout=60)
    assert "is that the root (--root .)?" in check.stderr, check.stderr

    (root / "docs" / "conf.py").unlink()
    (root / "mkdocs.yml").write_text("site_name: T\nplugins:\n  - textfrag:\n      root: docs\n", encoding="utf-8")
    (root / "docs" / "index.md").write_text("# T\n\n![](txtfrag:src/app.txt#line=0,1)\n", encoding="utf-8")
    (root / "docs" / "index.rst").unlink()
    mkdocs = run_mkdocs("build", "-q", cwd=root, timeout=300)
    assert mkdocs.returncode != 0
    assert "is that the root (root: . under the textfrag plugin in mkdocs.yml)?" in mkdocs.stderr, mkdocs.stderr
