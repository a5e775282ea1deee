"""textfrag as a user of a package index gets it: ``uvx textfrag check``, ``pipx run textfrag check`` and
``pip install textfrag``, each from a package index (PEP 503's simple layout, on disk) holding the wheel
``make`` builds and its one dependency, and nothing else: no clone, no source tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from importlib.metadata import version
from pathlib import Path

import pytest

from ..conftest import made_once
from .test_wheel import _one

BIN = Path(sys.executable).parent


def _index(folder: Path) -> Path:
    """A simple index at ``folder/simple``: the wheel, and the wheel of regex this suite runs with."""
    dist = os.environ.get("TEXTFRAG_DIST")
    if not dist:
        pytest.fail("TEXTFRAG_DIST names no folder: run the suite with `make test`")
    simple = folder / "simple"
    for name in ("textfrag", "regex"):
        (simple / name).mkdir(parents=True)
    shutil.copy(_one(Path(dist), "textfrag-*.whl"), simple / "textfrag")
    got = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps"]
        + ["--only-binary=:all:", f"regex=={version('regex')}", "-d", str(simple / "regex")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr
    for name in ("textfrag", "regex"):
        links = "".join(f'<a href="{w.name}">{w.name}</a>\n' for w in sorted((simple / name).glob("*.whl")))
        (simple / name / "index.html").write_text(f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n", encoding="utf-8")
    (simple / "index.html").write_text(
        '<!DOCTYPE html>\n<html><body>\n<a href="textfrag/">textfrag</a>\n<a href="regex/">regex</a>\n</body></html>\n',
        encoding="utf-8",
    )
    return simple


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> str:
    return (made_once(tmp_path_factory, "package-index", _index)).as_uri()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "src" / "app.py").write_text("def greet():\n    return 'hi'\n", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("# T\n\n![](txtfrag:src/app.py#line=0,1)\n", encoding="utf-8")
    return tmp_path


def _isolated(tmp: Path) -> dict[str, str]:
    """The environment of a user who has used neither tool before: their caches and homes empty, and no
    pip or uv configuration of this machine's (its other indexes) read."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_", "PIPX_"))}
    return {
        **env,
        "UV_CACHE_DIR": str(tmp / "uv-cache"),
        "UV_NO_CONFIG": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "PIPX_HOME": str(tmp / "pipx"),
        "PIPX_BIN_DIR": str(tmp / "pipx-bin"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
    }


def _said(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"


def test_uvx_textfrag_check_runs_from_the_index(index: str, project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    env = _isolated(tmp_path_factory.mktemp("uvx"))
    done = subprocess.run(
        [str(BIN / "uvx"), "--index-url", index, "textfrag", "check", "docs"],
        cwd=project, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and "1 reference in 1 document: all current" in done.stdout + done.stderr, _said(done)


def test_pipx_run_textfrag_check_runs_from_the_index(index: str, project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    env = _isolated(tmp_path_factory.mktemp("pipx"))
    done = subprocess.run(
        [str(BIN / "pipx"), "run", "--no-cache", "--index-url", index, "textfrag", "check", "docs"],
        cwd=project, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and "1 reference in 1 document: all current" in done.stdout + done.stderr, _said(done)


def test_pip_installs_textfrag_from_the_index(index: str, project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    where = tmp_path_factory.mktemp("pip") / "venv"
    venv.create(where, with_pip=False)
    env = _isolated(where.parent)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(where / "bin" / "python"), "install", "--quiet"]
        + ["--disable-pip-version-check", "--index-url", index, "textfrag"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, _said(done)
    done = subprocess.run(
        [str(where / "bin" / "textfrag"), "check", "docs"], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "all current" in done.stdout + done.stderr, _said(done)
