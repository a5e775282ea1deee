"""Guard mode switched on in one place for every engine: ``guard = true`` in a ``textfrag.toml`` or in the
``[tool.textfrag]`` table of ``pyproject.toml`` at the repository's top (as ``TEXTFRAG_GUARD=1`` does).
``check`` then finds the engine's configuration though it names nothing of textfrag's, and the build
guards the same includes, failing with the same words."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ..conftest import commit_all
from ..processes import run_sphinx, run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 21))
ENV = {k: v for k, v in os.environ.items() if k != "TEXTFRAG_GUARD"}


def textfrag(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*args, cwd=root, env=ENV, timeout=120)


def _sphinx_project(root: Path, switch: tuple[str, str]) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "app.txt").write_text(APP, encoding="utf-8")
    (root / "docs" / "conf.py").write_text('extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n', encoding="utf-8")
    (root / "docs" / "index.rst").write_text("T\n=\n\n.. literalinclude:: ../src/app.txt\n   :lines: 3-5\n", encoding="utf-8")
    (root / switch[0]).write_text(switch[1], encoding="utf-8")
    commit_all(root)
    return root


@pytest.mark.parametrize(
    "switch",
    [("textfrag.toml", "guard = true\n"), ("pyproject.toml", '[project]\nname = "x"\n\n[tool.textfrag]\nguard = true\n')],
)
def test_one_switch_guards_check_and_the_sphinx_build(tmp_path: Path, switch: tuple[str, str]) -> None:
    root = _sphinx_project(tmp_path / "p", switch)
    pinned = textfrag(root, "pin", "--write", "docs")
    assert pinned.returncode == 0 and "recorded 1 include" in pinned.stdout, pinned.stdout + pinned.stderr
    (root / "src" / "app.txt").write_text(APP.replace("line 4\n", "line four\n"), encoding="utf-8")
    checked = textfrag(root, "check", "docs")
    assert checked.returncode == 1
    said = next(line for line in checked.stderr.splitlines() if line.startswith("docs/index.rst:4: "))
    build = run_sphinx("-E", "-q", "-b", "html", "docs", "_out", cwd=root, env=ENV, timeout=300)
    assert build.returncode != 0 and said.split(": ", 2)[2][:80] in build.stderr, build.stderr


@pytest.mark.parametrize("given", [("--root", "."), ("--root", ".", "--quiet"), ("--config", "docs/conf.py")])
def test_root_and_config_on_the_command_line_keep_the_switch(tmp_path: Path, given: tuple[str, ...]) -> None:
    """``--root`` sets the root and ``--config`` names the file: neither switches guard mode off, so a drifted
    include fails ``check --root . docs`` as it fails ``check docs`` (the advice "--root .." leads there)."""
    root = _sphinx_project(tmp_path / "p", ("textfrag.toml", "guard = true\n"))
    assert textfrag(root, "pin", "--write", *given, "docs").returncode == 0
    assert textfrag(root, "check", *given, "docs").returncode == 0
    (root / "src" / "app.txt").write_text(APP.replace("line 4\n", "line four\n"), encoding="utf-8")
    checked = textfrag(root, "check", *given, "docs")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "docs/index.rst:4: literalinclude ../src/app.txt :lines: 3-5: it shows other text" in checked.stderr


def test_a_switch_that_is_not_true_or_false_is_said(tmp_path: Path) -> None:
    root = _sphinx_project(tmp_path / "p", ("textfrag.toml", 'guard = "yes"\n'))
    (root / "docs" / "conf.py").write_text('extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n', encoding="utf-8")
    r = textfrag(root, "check", "docs")
    assert r.returncode == 2 and "textfrag.toml: guard must be true or false, not 'yes'" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_switched_off_nothing_is_guarded(tmp_path: Path) -> None:
    root = _sphinx_project(tmp_path / "p", ("textfrag.toml", "guard = false\n"))
    r = textfrag(root, "check", "docs")
    assert r.returncode == 2 and "nothing to check" in r.stderr and "include" not in r.stdout, r.stdout + r.stderr
