"""Pinning in every build: the end of a Sphinx and a MkDocs build counts the references that
carry no md5, and on demand (``textfrag_require_pin``, ``require_pin``, ``TEXTFRAG_REQUIRE_PIN=1``) each one
is a located problem that fails the build: Sphinx, the MkDocs plugin, the Markdown extension under Zensical,
and mystmd. Each engine run as its users run it."""

from __future__ import annotations

import os
from pathlib import Path

from ..processes import run_mkdocs, run_sphinx
from .conftest import MD5, engine, myst_project, project, run
from .test_zensical_properdocs import CONFIG

PAGE = f"# Home\n\n![](txtfrag:src/app.py#L1-L2)\n\n![](txtfrag:src/app.py#line=0,2;md5={MD5})\n"


def test_sphinx_counts_unpinned_references_and_requires_pins_on_demand(tmp_path: Path) -> None:
    root = project(
        tmp_path / "s",
        {"index.rst": f"T\n=\n\n.. txtfrag:: src/app.py#line=0,2\n\n.. txtfrag:: src/app.py#line=0,2;md5={MD5}\n"},
        {},
    )
    (root / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    build = ["-E", "-b", "html", str(root / "docs"), str(tmp_path / "out")]
    ok = run_sphinx(*build)
    assert ok.returncode == 0, ok.stderr
    assert "textfrag: 1 reference is not protected against drift (no md5): `textfrag pin --write` pins them" in ok.stdout
    assert "index.rst" not in ok.stderr  # counted, not listed
    required = run_sphinx(*build, "-D", "textfrag_require_pin=1")
    assert required.returncode == 1
    assert "index.rst:4: WARNING: src/app.py#line=0,2: unpinned: the reference has no md5" in required.stderr
    assert "[textfrag.unpinned]" in required.stderr


def test_the_mkdocs_plugin_counts_and_requires(tmp_path: Path) -> None:
    root = project(tmp_path / "m", {"index.md": PAGE}, {"mkdocs.yml": "site_name: t\nplugins:\n  - textfrag\n"})
    ok = run_mkdocs("build", cwd=root, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert ok.returncode == 0, ok.stderr
    assert "textfrag: 1 reference is not protected against drift (no md5): `textfrag pin --write` pins them" in ok.stderr
    (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag:\n      require_pin: true\n")
    required = run_mkdocs("build", cwd=root, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert required.returncode == 1
    assert "index.md:3: txtfrag:src/app.py#L1-L2: unpinned: the reference has no md5" in required.stderr


def test_the_markdown_extension_requires_pins_under_zensical(tmp_path: Path) -> None:
    zensical = engine("zensical")
    config = CONFIG.replace("  - textfrag\n", "  - textfrag:\n      require_pin: true\n")
    root = project(tmp_path / "z", {"index.md": PAGE}, {"mkdocs.yml": config})
    r = run([zensical, "build"], root)
    assert r.returncode == 1, r.stderr
    assert "Error: textfrag: index.md:3: txtfrag:src/app.py#L1-L2: unpinned: the reference has no md5" in r.stderr
    assert "Traceback" not in r.stderr


def test_textfrag_myst_requires_pins_when_told_to(tmp_path: Path) -> None:
    myst = engine("myst")
    page = "# Doc\n\n```{txtfrag} src/app.py#line=0,2\n```\n"
    root = myst_project(tmp_path / "book", {"doc.md": page})
    assert run([myst, "build", "--site"], root).returncode == 0
    r = run([myst, "build", "--site"], root, TEXTFRAG_REQUIRE_PIN="1")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "doc.md:3: src/app.py#line=0,2: unpinned: the reference has no md5" in out
