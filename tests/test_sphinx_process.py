"""The tests' Sphinx builds (tests/sphinx_process.py), forked from a process that imported Sphinx, answer as
``python -m sphinx`` does: the same exit status and the same words, in the test's folder and environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .sphinx_process import run_sphinx


def test_a_forked_build_answers_as_python_m_sphinx_does(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "docs" / "conf.py").write_text(
        "import os\nextensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nproject = os.environ['PROJECT_NAME']\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "index.rst").write_text(
        "T\n=\n\n.. txtfrag:: src/a.txt#line=0,1\n\n.. txtfrag:: src/gone.txt#line=0,1\n", encoding="utf-8"
    )
    env = {"PATH": "/usr/bin:/bin", "PROJECT_NAME": "Forked", "PYTHONSAFEPATH": "1"}
    args = ["-E", "-q", "--no-color", "-b", "html", "docs"]
    forked = run_sphinx(*args, "out-forked", cwd=tmp_path, env=env)
    spawned = subprocess.run(
        [sys.executable, "-m", "sphinx", *args, "out-spawned"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert forked.returncode == spawned.returncode == 1
    assert "no such file: src/gone.txt" in forked.stderr
    assert forked.stderr.replace("out-forked", "out-spawned") == spawned.stderr
    assert (forked.stdout, forked.args[1:]) == (spawned.stdout, ["-m", "sphinx", *args, "out-forked"])
    assert "Forked" in (tmp_path / "out-forked" / "index.html").read_text(encoding="utf-8")
    assert (
        run_sphinx("--version").stdout
        == subprocess.run([sys.executable, "-m", "sphinx", "--version"], capture_output=True, text=True).stdout
    )


def test_a_forked_build_past_its_time_is_ended_as_subprocess_ends_it(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    with pytest.raises(subprocess.TimeoutExpired):
        run_sphinx("-b", "html", str(tmp_path), str(tmp_path / "out"), timeout=0.5)
    assert run_sphinx("--version").returncode == 0  # (the next build is served)
