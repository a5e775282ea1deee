"""A name that is not in the file, on a new reference, says what it selects (nothing) and the names meant:
an object, a region, a section, a symbol (the manual's reference/problems page, kind ``intent``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from textfrag.cli import main

from ..conftest import new_project

MODULE = """\
class Inventory:
    def add(self):
        pass

# [START setup]
x = 1
# [END setup]
"""


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (":pyobject: Inventroy", "no Python object named 'Inventroy' in the file; did you mean 'Inventory'"),
        (":pyobject: Inventory.ad", "did you mean 'Inventory.add'"),
        (":region: stup", "no region named 'stup' in the file; did you mean 'setup'? (regions: setup)"),
    ],
)
def test_a_misspelt_name_says_the_name_meant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, said: str) -> None:
    root = new_project(tmp_path / "p", "mod.py", MODULE)
    (root / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: src/mod.py#line=0,3\n   {option}\n", encoding="utf-8")
    monkeypatch.chdir(root)
    err = io.StringIO()
    assert main(["check", "--root", ".", "docs"], stdout=io.StringIO(), stderr=err) == 2
    assert said in err.getvalue(), err.getvalue()
    assert "selects nothing" in err.getvalue() and "no longer" not in err.getvalue()
