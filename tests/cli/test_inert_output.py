"""Inert output: no line textfrag prints, whatever a quoted file or a reference holds, is a workflow command
to GitHub's runner, except textfrag's own annotations. The runner's parsing is reproduced from its
documented rules: a line whose text, less the white space around it, starts with ``::`` is a command
(``::name props::data``), and so is a line holding ``##[`` anywhere (the older form)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from textfrag.errors import spell, spell_lines

from ..conftest import commit_all
from ..processes import run_textfrag

HOSTILE = [
    "::error file=README.md,line=1::forged",
    "  ::add-mask::secret",
    "\u3000::stop-commands::token",
    "\t::warning::tabbed",
    "x ##[error]legacy anywhere",
    "##[group]folded",
]


def commands(output: str) -> list[str]:
    """The lines GitHub's runner takes for workflow commands (its rules, as documented)."""
    return [line for line in output.split("\n") if line.strip().startswith("::") or "##[" in line]


@pytest.mark.parametrize("line", HOSTILE)
def test_spelling_makes_no_line_a_command(line: str) -> None:
    assert commands(spell(line)) == []
    assert commands(spell_lines(f" {line}\n+{line}\n-{line}")) == []


def test_a_double_colon_inside_a_line_is_left_as_written() -> None:
    assert spell(".. txtfrag:: src/app.py#line=1,2") == ".. txtfrag:: src/app.py#line=1,2"


def _stale_project(tmp_path: Path) -> Path:
    """A quoted file whose lines are hostile, committed, then changed: the diff shows them as context."""
    body = "\n".join([*HOSTILE, "last line", ""])
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "q.txt").write_text(body)
    import hashlib

    pin = f"length={len(body)};md5={hashlib.md5(body.encode()).hexdigest()}"
    (root / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: q.txt#line=0,7;{pin}\n")
    (root / "docs" / "::error::forged.md").write_text("# x\n\n![](txtfrag:q.txt#line=0,1)\n")
    (root / "docs" / "##[error]legacy.md").write_text("# x\n\n![](txtfrag:nowhere.txt#line=0,1)\n")
    commit_all(root)
    (root / "q.txt").write_text(body.replace("last line", "LAST LINE"))
    return root


@pytest.mark.parametrize("argv", [["check"], ["update"], ["check", "--format", "github"], ["pin"]])
def test_under_github_actions_only_textfrags_own_annotations_are_commands(tmp_path: Path, argv: list[str]) -> None:
    root = _stale_project(tmp_path)
    env = {**os.environ, "GITHUB_ACTIONS": "true"}
    r = run_textfrag(*argv, "--root", ".", "docs", cwd=root, env=env, timeout=60)
    assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr, r.stderr
    said = commands(r.stdout) + commands(r.stderr)
    own = [c for c in said if c.startswith(("::error file=", "::warning file="))]
    assert said == own, said
    for command in own:
        assert "::" not in command.split("::", 2)[2].replace("%3A", "") or "forged" not in command.split("::")[1]
    if argv[0] != "pin":
        assert "LAST LINE" in r.stdout + r.stderr or "last line" in r.stdout + r.stderr  # (the diff is shown)


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_hold_the_same_values_and_no_command(tmp_path: Path, fmt: str) -> None:
    root = _stale_project(tmp_path)
    r = run_textfrag("check", "--format", fmt, "--root", ".", "docs", cwd=root, timeout=60)
    assert commands(r.stdout) == [] and r.stdout, r.stderr
    document = json.loads(r.stdout)
    exact = json.dumps(document, ensure_ascii=False)
    assert ("docs/##[error]legacy.md" if fmt == "json" else "docs/%23%23%5Berror%5Dlegacy.md") in exact  # (the value is exact)
