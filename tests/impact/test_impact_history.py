"""``textfrag impact`` over a git history, step by step: for each commit, what impact says of the change
from its parent must be what ``check`` says once the commit is in, quote by quote. References (Markdown
and reStructuredText, with an intent) and guarded literalincludes of a Sphinx project; the documents are
re-pinned at each parent (as a project keeps them current), the quoted files change by commit."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from textfrag.cli import main

from .shared import effect, git

APP = "".join(f"value_{i} = {i}\n" for i in range(1, 31))
TOOL = '''\
"""Tools."""


def first(x):
    return x + 1


def second(y):
    return y * 2
'''
NOTES = "".join(f"note {i}: {'abc' * i}\n" for i in range(1, 13))

CONF = 'extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\ntextfrag_guard = True\nexclude_patterns = ["_build"]\n'


def _index() -> str:
    return """\
Guide
=====

Your first quote
----------------

.. txtfrag:: src/app.py#line=9,12

Later lines
-----------

.. txtfrag:: src/app.py#line=19,22

.. txtfrag:: src/app.py#line=0,

A function
----------

.. txtfrag:: src/tool.py#line=3,5
   :pyobject: first

Notes
-----

.. txtfrag:: src/notes.txt#line=2,4

.. txtfrag:: src/notes.txt#char=0,20

Included
--------

.. literalinclude:: ../src/app.py
   :lines: 25-27

.. literalinclude:: ../src/tool.py
   :pyobject: second

.. literalinclude:: ../src/notes.txt
   :lines: 9-10
"""


def _edit(name: str, change: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    def step(root: Path) -> None:
        path = root / "src" / name
        lines = path.read_text(encoding="utf-8").splitlines(True)
        path.write_text("".join(change(lines)), encoding="utf-8")

    return step


def _mv(old: str, new: str, then: Callable[[list[str]], list[str]] | None = None) -> Callable[[Path], None]:
    def step(root: Path) -> None:
        git(root, "mv", f"src/{old}", f"src/{new}")
        if then is not None:
            _edit(new, then)(root)

    return step


def _rm(name: str) -> Callable[[Path], None]:
    return lambda root: git(root, "rm", "-q", f"src/{name}")


#: each commit of the history: its name and what it does to the quoted files
STEPS: list[tuple[str, Callable[[Path], None]]] = [
    ("insert a line above every quote", _edit("app.py", lambda ls: ["import os\n", *ls])),
    ("edit a line inside two quotes", _edit("app.py", lambda ls: [*ls[:20], "value_20 = 2000\n", *ls[21:]])),
    ("append below every quote", _edit("app.py", lambda ls: [*ls, "value_31 = 31\n"])),
    ("delete lines above a quote", _edit("app.py", lambda ls: ls[3:])),
    ("an include's lines move down", _edit("app.py", lambda ls: [*ls[:22], "x = 1\n", "y = 2\n", *ls[22:]])),
    ("a function moves, unchanged", _edit("tool.py", lambda ls: [*ls[:2], "\nimport sys\n", *ls[2:]])),
    ("a function's body changes", _edit("tool.py", lambda ls: [line.replace("x + 1", "x + 100") for line in ls])),
    ("the quoted text appears twice", _edit("notes.txt", lambda ls: [*ls[1:4], *ls])),
    ("a file renamed", _mv("notes.txt", "notes.md")),
    ("a file renamed and edited inside a quote", _mv("tool.py", "tools.py", lambda ls: [*ls[:8], "    return y * 3\n"])),
    ("nothing quoted changes", lambda root: (root / "src" / "unquoted.txt").write_text("new\n", encoding="utf-8")),
    ("a file deleted", _rm("notes.md")),
]


def _textfrag(root: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(root / "docs")
    try:
        code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def _checked(root: Path) -> dict[tuple[str, int], str | None]:
    code, out, err = _textfrag(root, "check", "--format", "json")
    assert code in (0, 1, 2), err
    return {(r["document"], r["line"]): effect(r) for r in json.loads(out)["results"]}


@pytest.fixture(scope="module")
def history(
    tmp_path_factory: pytest.TempPathFactory,
) -> list[tuple[str, dict[tuple[str, int], str], dict[tuple[str, int], str | None]]]:
    """Each step: its name, what impact predicted (place -> effect) and what check said after the commit."""
    root = tmp_path_factory.mktemp("impact-history")
    (root / "src").mkdir()
    (root / "docs").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "src" / "tool.py").write_text(TOOL, encoding="utf-8")
    (root / "src" / "notes.txt").write_text(NOTES, encoding="utf-8")
    (root / "docs" / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "docs" / "index.rst").write_text(_index(), encoding="utf-8")
    git(root, "init", "-q")
    git(root, "config", "core.autocrlf", "false")
    (root / ".git" / "info" / "exclude").write_text("docs/\n", encoding="utf-8")  # (the documents stay as they are)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    steps = []
    for name, step in STEPS:
        # the documents current at the parent: references re-pinned, includes recorded again
        _textfrag(root, "update", "--accept", "--write")
        (root / "docs" / "textfrag.lock").unlink(missing_ok=True)
        code, _, err = _textfrag(root, "pin", "--write")
        step(root)
        git(root, "add", "-A")
        git(root, "commit", "-qm", name)
        head = git(root, "rev-parse", "HEAD").strip()
        git(root, "checkout", "-q", "HEAD~1")
        before = _checked(root)
        code, out, err = _textfrag(root, "impact", f"HEAD..{head}", "--format", "json")
        assert code == 0, err
        predicted = {(q["document"], q["line"]): q["effect"] for q in json.loads(out)["quotes"]}
        git(root, "checkout", "-q", head)
        after = {place: said for place, said in _checked(root).items() if before.get(place) is None and place in before}
        steps.append((name, predicted, after))
    return steps


@pytest.mark.parametrize("step", range(len(STEPS)), ids=[name for name, _ in STEPS])
def test_impact_predicts_what_check_says_after_the_commit(history: list, step: int) -> None:
    name, predicted, after = history[step]
    said = {place: outcome for place, outcome in after.items() if outcome is not None}
    assert predicted == said, f"{name}: impact said {predicted}, check said {said}"


def test_the_history_exercises_every_effect(history: list) -> None:
    """The table is not vacuous: every effect impact knows happens in it, and a step touches nothing."""
    effects = {effect for _, predicted, _ in history for effect in predicted.values()}
    assert effects >= {"changed", "moved", "renamed", "deleted"}
    assert any(not predicted for _, predicted, _ in history)
