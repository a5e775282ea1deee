"""A misspelt integrity check (``lenght=``, ``md6=``): RFC 5147 ignores a check it does not know (3.1), so
the reference protects less than it reads. It is a warning with the name meant, in every output and in
the build, and ``pin --write`` corrects it rather than appending the real checks after it."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from ..conftest import new_project
from ..processes import run_sphinx, run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 11))
MD5 = hashlib.md5(APP.encode()).hexdigest()


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*args, cwd=root, timeout=60)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return new_project(tmp_path / "p", "app.txt", APP)


def test_a_misspelt_check_is_a_warning_with_the_name_meant(root: Path) -> None:
    (root / "docs" / "a.md").write_text(f"![](txtfrag:src/app.txt#line=1,2;lenght=99;md5={MD5})\n", encoding="utf-8")
    r = run(root, "check", "--root", ".", "docs")
    assert r.returncode == 0, r.stderr
    assert "docs/a.md:1: txtfrag:src/app.txt#line=1,2;lenght=99;" in r.stderr
    assert "warning: the integrity check lenght= is not one RFC 5147 knows" in r.stderr and "did you mean length=?" in r.stderr
    assert "all current; 1 warning" in r.stdout
    sarif = json.loads(run(root, "check", "--root", ".", "--format", "sarif", "docs").stdout)
    (result,) = sarif["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("textfrag/integrity", "warning")
    github = run(root, "check", "--root", ".", "--format", "github", "docs").stdout
    assert "::warning file=docs/a.md,line=1," in github and "title=textfrag%3A integrity::" in github


def test_a_name_far_from_length_and_md5_is_ignored_as_the_rfc_says(root: Path) -> None:
    (root / "docs" / "a.md").write_text(f"![](txtfrag:src/app.txt#line=1,2;sha256=abc;md5={MD5})\n", encoding="utf-8")
    r = run(root, "check", "--root", ".", "docs")
    assert r.returncode == 0 and "warning" not in r.stderr + r.stdout


def test_pin_corrects_a_misspelt_check_instead_of_appending_after_it(root: Path) -> None:
    page = root / "docs" / "a.md"
    page.write_text(f"![](txtfrag:src/app.txt#line=1,2;md6={MD5})\n![](txtfrag:src/app.txt#line=2,3;lenght=99;md5={MD5})\n")
    r = run(root, "pin", "--write", "--root", ".", "docs")
    assert r.returncode == 0, r.stderr
    assert page.read_text() == (
        f"![](txtfrag:src/app.txt#line=1,2;length={len(APP)};md5={MD5})\n"
        f"![](txtfrag:src/app.txt#line=2,3;md5={MD5};length={len(APP)})\n"
    )
    after = run(root, "check", "--root", ".", "docs")
    assert after.returncode == 0 and "warning" not in after.stderr, after.stderr


def test_the_sphinx_build_warns_and_goes_on(root: Path) -> None:
    (root / "docs" / "conf.py").write_text('extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n', encoding="utf-8")
    (root / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: src/app.txt#line=1,2;lenght=9;md5={MD5}\n", encoding="utf-8")
    r = run_sphinx("-q", "-b", "html", "docs", "out", cwd=root, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "index.rst:4: WARNING: " in r.stderr and "did you mean length=?" in r.stderr and "[textfrag.integrity]" in r.stderr
