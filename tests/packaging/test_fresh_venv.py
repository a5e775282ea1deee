"""A fresh virtual environment with nothing but the wheel (and its one dependency) quotes every dialect.

This is what a new user does: `pip install textfrag-*.whl`, then `textfrag show`. No engine is installed,
so this also proves that the core and the CLI import no engine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .test_wheel import _one

TEXT = "".join(f"line {i}: the quick brown fox\n" for i in range(1, 11))

# one reference of every dialect (shared/CONTRACT.md section 2), with what it selects
DIALECTS = [
    ("rfc5147", "f.txt#line=1,2", "line 2: the quick brown fox\n"),
    ("github", "f.txt#L3-L3", "line 3: the quick brown fox\n"),
    ("w3m", "f.txt#4", "line 4: the quick brown fox\n"),
    ("wilde line()", "f.txt#line(5)", "line 5: the quick brown fox\n"),
    ("wilde char()", "f.txt#char(1,4)", "line"),
    ("wilde match()", "f.txt#match(line%206:)", "line 6:"),
    ("yee", "f.txt#:words:line-7-(the-quick)", "the quick"),
    ("w3c text fragment", "f.txt#:~:text=line%208:", "line 8:"),
    ("pdi", "pdi://example.org/2026/11/22/f.text.1#char=0,4", "line"),
]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = os.environ.get("TEXTFRAG_DIST")
    if not dist:
        pytest.fail("TEXTFRAG_DIST names no folder: run the suite with `make test`")
    where = tmp_path_factory.mktemp("fresh") / "venv"
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    r = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(_one(Path(dist), "textfrag-*.whl"))],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    return where


def test_only_the_core_and_its_dependency_are_installed(fresh: Path) -> None:
    r = subprocess.run([str(fresh / "bin" / "python"), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True)
    names = {line.split("==")[0].lower() for line in r.stdout.split()}
    assert "textfrag" in names and "regex" in names
    assert not names & {"sphinx", "docutils", "mkdocs", "markdown", "pygments"}


@pytest.mark.parametrize(("dialect", "reference", "excerpt"), DIALECTS, ids=[d[0] for d in DIALECTS])
def test_the_installed_command_shows_every_dialect(
    fresh: Path, tmp_path: Path, dialect: str, reference: str, excerpt: str
) -> None:
    (tmp_path / "f.txt").write_text(TEXT, encoding="utf-8")
    args = ["show", "--root", str(tmp_path), reference]
    if dialect == "pdi":
        args[1:1] = ["--pdi", "pdi://example.org/2026/11/22/f.text.1=f.txt"]
    r = subprocess.run([str(fresh / "bin" / "textfrag"), *args], capture_output=True, timeout=60, cwd=tmp_path)
    assert (r.returncode, r.stderr.decode()) == (0, "")
    assert r.stdout.decode() == excerpt


def test_the_installed_module_runs_with_the_fresh_interpreter(fresh: Path, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(TEXT, encoding="utf-8")
    r = subprocess.run(
        [str(fresh / "bin" / "python"), "-m", "textfrag", "make", "--root", str(tmp_path), "--from", "f.txt#L2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("f.txt#line=1,2;length=") and sys.executable not in r.stdout
