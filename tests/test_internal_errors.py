"""A bug is never a finding: an unexpected exception inside textfrag names textfrag, its version and the
traceback, in the CLI (exit 3, never 1, which CI reads as drift) and in both engines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import textfrag
from textfrag.cli import main

from .mkdocs.conftest import APP as MK_APP
from .mkdocs.conftest import MATERIAL
from .mkdocs.conftest import Site as MkSite
from .sphinx.conftest import CONF
from .sphinx.conftest import Site as SphinxSite

HEAD = "textfrag: internal error (please report it with this output): ZeroDivisionError: planted bug"


def _planted(*args: object, **kwargs: object) -> object:
    raise ZeroDivisionError("planted bug")


def test_cli_main_reports_a_bug_with_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import textfrag.cli.show

    (tmp_path / "a.txt").write_text("abc\n", encoding="utf-8")
    monkeypatch.setattr(textfrag.cli.show, "quote", _planted)
    out, err = io.StringIO(), io.StringIO()
    code = main(["show", "--root", str(tmp_path), "a.txt#line=0,1"], stdout=out, stderr=err)
    assert code == 3
    assert err.getvalue().startswith(HEAD)
    assert f"textfrag {textfrag.__version__}" in err.getvalue()
    assert "Traceback (most recent call last)" in err.getvalue() and "_planted" in err.getvalue()


def test_cli_process_reports_a_bug_with_exit_3(tmp_path: Path) -> None:
    """A real process: sitecustomize plants the bug in the installed package before the CLI runs."""
    plant = tmp_path / "plant"
    plant.mkdir()
    (plant / "sitecustomize.py").write_text(
        "import textfrag.cli.show\n"
        "def _planted(*a, **k):\n    raise ZeroDivisionError('planted bug')\n"
        "textfrag.cli.show.quote = _planted\n",
        encoding="utf-8",
    )
    (tmp_path / "a.txt").write_text("abc\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(plant))
    r = subprocess.run(
        [sys.executable, "-m", "textfrag", "show", "--root", str(tmp_path), "a.txt#line=0,1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 3
    assert r.stderr.startswith(HEAD)
    assert "Traceback (most recent call last)" in r.stderr


def test_sphinx_reports_a_bug_as_textfrag_s_with_its_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sphinx_textfrag.directive

    site = SphinxSite(tmp_path / "project")
    site.write("docs/conf.py", CONF)
    site.write("src/app.py", MK_APP)
    site.page("index.rst", "Title\n=====\n\n.. txtfrag:: src/app.py#line=0,2\n\nInline :txtfrag:`src/app.py#char=0,4`.\n")
    monkeypatch.setattr(sphinx_textfrag.directive, "judge", _planted)
    build = site.build(fresh=True)
    assert build.statuscode == 1
    assert build.warnings.count(HEAD) == 2
    assert "index.rst:4: ERROR: textfrag: internal error" in build.warnings
    assert "index.rst:6: ERROR: textfrag: internal error" in build.warnings
    assert f"textfrag {textfrag.__version__}" in build.warnings
    assert "sphinx-doc" not in build.warnings + build.status


def test_sphinx_reports_a_bug_in_an_event_handler_and_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sphinx_textfrag.state

    site = SphinxSite(tmp_path / "project")
    site.write("docs/conf.py", CONF)
    site.write("src/app.py", MK_APP)
    site.page("index.rst", "Title\n=====\n\n.. txtfrag:: src/app.py#line=0,2\n")
    monkeypatch.setattr(sphinx_textfrag.state, "new_cache", _planted)
    build = site.build(fresh=True)
    assert build.statuscode == 1
    assert HEAD in build.warnings


def test_mkdocs_reports_a_bug_as_textfrag_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import markdown_textfrag.embed

    site = MkSite(tmp_path / "project")
    site.config(MATERIAL)
    site.write("src/app.py", MK_APP)
    site.page("index.md", "# T\n\n![x](txtfrag:src/app.py#line=0,2)\n")
    monkeypatch.setattr(markdown_textfrag.embed, "judge", _planted)
    result = site.build(caplog)
    assert not result.ok
    [report] = [m for m in result.messages if HEAD in m]
    assert report.startswith(HEAD)
    assert f"textfrag {textfrag.__version__}" in report and "Traceback (most recent call last)" in report


def test_mkdocs_process_names_textfrag_for_a_bug(tmp_path: Path) -> None:
    plant = tmp_path / "plant"
    plant.mkdir()
    (plant / "sitecustomize.py").write_text(
        "import markdown_textfrag.embed\n"
        "def _planted(*a, **k):\n    raise ZeroDivisionError('planted bug')\n"
        "markdown_textfrag.embed.judge = _planted\n",
        encoding="utf-8",
    )
    site = MkSite(tmp_path / "project")
    site.config(MATERIAL)
    site.write("src/app.py", MK_APP)
    site.page("index.md", "# T\n\n![x](txtfrag:src/app.py#line=0,2)\n")
    env = dict(os.environ, PYTHONPATH=str(plant), NO_MKDOCS_2_WARNING="1")
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=site.root, capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode != 0
    assert HEAD in r.stderr
    assert f"textfrag {textfrag.__version__}" in r.stderr
