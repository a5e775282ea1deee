"""MyST-Parser's substitutions, one verdict: a reference written in a substitution's value (conf.py's
``myst_substitutions``, a page's ``myst: substitutions:``) is rendered where the substitution is used, and
``check`` judges it there, at the line the build reports; one defined and never used is not rendered, and
not judged. ``pin --write`` pins a value written in the page's front matter; one in conf.py is reported
with the reference to write there. Each case is a small project run through ``check`` and ``sphinx-build``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..processes import run_textfrag
from .test_project_verdict import CONF, GOOD, STALE, _both, _check, _project, _sphinx

MYST = CONF.replace('"sphinx_textfrag"', '"sphinx_textfrag", "myst_parser"') + 'myst_enable_extensions = ["substitution"]\n'


def _defined(**values: str) -> str:
    return MYST + f"myst_substitutions = {values!r}\n"


FRONT = '---\nmyst:\n  substitutions:\n    fm: "{{txtfrag}}`{ref}`"\n---\n'

CASES = {
    "conf.py's, used inline": (
        {"index.md": "# T\n\nUse {{ q }} here.\n"},
        _defined(q=f"{{txtfrag}}`{STALE}`"),
        (1, ["index.md:4"]),
    ),
    "conf.py's, used on the second line of a paragraph and as a block": (
        {"index.md": "# T\n\nA paragraph\nthat uses {{q}}.\n\n{{ q }}\n"},
        _defined(q=f"{{txtfrag}}`{STALE}`"),
        (1, ["index.md:4", "index.md:7"]),
    ),
    "the front matter's, over conf.py's": (
        {"index.md": FRONT.format(ref=STALE).replace("fm:", "q:") + "# T\n\nUse {{ q }}.\n"},
        _defined(q=f"{{txtfrag}}`{GOOD}`"),
        (1, ["index.md:9"]),
    ),
    "defined, never used": (
        {"index.md": FRONT.format(ref=STALE) + f"# T\n\n{{txtfrag}}`{GOOD}`\n"},
        _defined(q=f"{{txtfrag}}`{STALE}`"),
        (0, []),
    ),
    "used in code": (
        {"index.md": f"# T\n\n`{{{{ q }}}}`\n\n```\n{{{{ q }}}}\n```\n\n{{txtfrag}}`{GOOD}`\n"},
        _defined(q=f"{{txtfrag}}`{STALE}`"),
        (0, []),
    ),
    "without the substitution extension": (
        {"index.md": f"# T\n\n{{{{ q }}}}\n\n{{txtfrag}}`{GOOD}`\n"},
        MYST.replace('["substitution"]', "[]") + f"myst_substitutions = {{'q': '{{txtfrag}}`{STALE}`'}}\n",
        (0, []),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_judges_a_substitution_where_the_build_renders_it(tmp_path: Path, case: str) -> None:
    files, conf, expected = CASES[case]
    root = _project(tmp_path, files, conf)
    checked, built = _both(root)
    assert checked == built == expected, (checked, built)


def _pin(root: Path) -> subprocess.CompletedProcess[str]:
    return run_textfrag("pin", "--write", cwd=root, timeout=60)


def test_pin_writes_a_front_matter_value_once_however_often_it_is_used(tmp_path: Path) -> None:
    page = FRONT.format(ref="src/app.txt#line=2,4") + "# T\n\nOnce {{ fm }}.\n\nTwice {{ fm }}.\n"
    root = _project(tmp_path, {"index.md": page}, MYST)
    pinned = _pin(root)
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    text = (root / "docs" / "index.md").read_text()
    assert text == page.replace("src/app.txt#line=2,4", GOOD), text
    assert _check(root).returncode == 0 and _sphinx(root, "-W").returncode == 0


def test_a_value_in_conf_py_is_reported_with_the_reference_to_write_there(tmp_path: Path) -> None:
    root = _project(tmp_path, {"index.md": "# T\n\nUse {{ q }}.\n"}, _defined(q="{txtfrag}`src/app.txt#line=2,4`"))
    before = (root / "docs" / "index.md").read_text()
    pinned = _pin(root)
    assert pinned.returncode == 0 and "1 left as they are" in pinned.stdout, pinned.stdout + pinned.stderr
    assert (
        "docs/index.md:4: src/app.txt#line=2,4: left as it is: written in the value of the substitution {{ q }}" in pinned.stderr
    )
    assert f"write {GOOD} there" in pinned.stderr
    assert (root / "docs" / "index.md").read_text() == before
