"""Hostile input found in the field trials: names and references that would inject lines or
terminal sequences into the output, writes through links that leave the root, percent-encoded paths, and
the leftovers of the last round (an unreadable folder, an extra word after a directive's reference, an
escaped backtick before an image, a document whose lines end in CR alone, deeply nested JSON sent to
textfrag-myst). Each runs as a user meets it: the installed command in a process."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import commit_all, new_project
from ..processes import run_mkdocs, run_sphinx
from .conftest import Run, no_traceback, textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))
PIN = f"length={len(APP)};md5={hashlib.md5(APP.encode()).hexdigest()}"
NO_COLOR = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""}


def lines_of(run: Run) -> list[str]:
    return (run.out + run.err).splitlines()


# -- output injection ------------------------------------------------------------------------------------


def test_a_document_name_cannot_start_a_workflow_command_or_reach_the_terminal(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "docs" / "x\n::error title=pwned::y.md").write_text("![](txtfrag:src/nope.txt#line=0,1)\n")
    (root / "docs" / "esc.md").write_text("![](txtfrag:src/\x1b[2K\x1b]52;c;cHduZWQ=\x07.txt#line=0,1)\n")
    for fmt in ("text", "github"):
        r = textfrag("check", "--root", str(root), "--format", fmt, "docs", cwd=root, env=NO_COLOR)
        assert r.code == 2, r.err
        no_traceback(r)
        assert not [line for line in lines_of(r) if line.startswith("::error title=pwned")]
        assert "\x1b" not in r.out + r.err and "\x07" not in r.out + r.err
        assert "x\\n::error title=pwned::y.md" in r.out + r.err  # spelled out, as git quotes a path
        assert "src/\\033[2K\\033]52;c;cHduZWQ=\\007.txt" in r.out + r.err
        if fmt == "github":
            commands = [line for line in r.out.splitlines() if line.startswith("::")]
            assert len(commands) == 2 and all(c.startswith("::error file=") for c in commands)
    # JSON stays exact
    r = textfrag("check", "--root", str(root), "--format", "json", "docs", cwd=root, env=NO_COLOR)
    import json

    documents = {x["document"] for x in json.loads(r.out)["results"]}
    assert "docs/x\n::error title=pwned::y.md" in documents


def test_a_diff_names_a_hostile_document_as_git_does(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    name = "a\nb.md"
    (root / "docs" / name).write_text(f"![](txtfrag:src/app.txt#line=2,3;{PIN})\n")
    commit_all(root)
    (root / "src" / "app.txt").write_text("new first\n" + APP)
    r = textfrag("update", "--root", str(root), "docs", cwd=root, env=NO_COLOR)
    no_traceback(r)
    assert '--- "a/docs/a\\nb.md"' in r.out and '+++ "b/docs/a\\nb.md"' in r.out
    # and git reads that patch back
    patch = tmp_path / "fix.patch"
    patch.write_text(r.out)
    applied = subprocess.run(["git", "apply", str(patch)], cwd=root, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    assert "#line=3,4;" in (root / "docs" / name).read_text()


# -- writes never leave the root through a link -----------------------------------------------------------


def _moved_project(tmp_path: Path) -> tuple[Path, Path]:
    root = new_project(tmp_path / "p", "app.txt", APP)
    outside = tmp_path / "outside.md"
    outside.write_text(f"![](txtfrag:src/app.txt#line=2,3;{PIN})\n")
    (root / "docs" / "inside.md").write_text(f"![](txtfrag:src/app.txt#line=2,3;{PIN})\n")
    (root / "docs" / "link.md").symlink_to(outside)
    (root / "docs" / "again.md").symlink_to(root / "docs" / "inside.md")  # a link inside, to a document inside
    commit_all(root)
    (root / "src" / "app.txt").write_text("new first\n" + APP)
    return root, outside


def test_update_write_never_rewrites_a_document_outside_the_root_through_a_link(tmp_path: Path) -> None:
    root, outside = _moved_project(tmp_path)
    before = outside.read_bytes()
    r = textfrag("update", "--root", str(root), "--write", "docs", cwd=root, env=NO_COLOR)
    no_traceback(r)
    assert outside.read_bytes() == before
    assert "docs/link.md is a link to" in r.err and "outside the root" in r.err
    assert r.code == 2
    inside = (root / "docs" / "inside.md").read_text()
    assert "#line=3,4;" in inside  # repaired, once (through either name)
    assert (root / "docs" / "again.md").is_symlink()


def test_migrate_write_never_rewrites_a_document_outside_the_root_through_a_link(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    outside = tmp_path / "outside.rst"
    outside.write_text(".. literalinclude:: ../p/src/app.txt\n")
    (root / "docs" / "link.rst").symlink_to(outside)
    before = outside.read_bytes()
    r = textfrag("migrate", "--root", str(root), "--write", "docs", cwd=root, env=NO_COLOR)
    no_traceback(r)
    assert outside.read_bytes() == before
    assert "outside the root" in r.err and r.code == 2


# -- percent-encoded paths -----------------------------------------------------------------------------


def test_a_percent_encoded_path_names_the_file_everywhere(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "my file.txt", APP)
    (root / "docs" / "a.md").write_text(f"![](txtfrag:src/my%20file.txt#line=2,3;{PIN})\n")
    (root / "docs" / "b.rst").write_text(f"T\n=\n\n.. txtfrag:: src/my%20file.txt#line=2,3;{PIN}\n")
    r = textfrag("check", "--root", str(root), "docs", cwd=root, env=NO_COLOR)
    assert r.code == 0, r.err
    show = textfrag("show", "--root", str(root), "src/my%20file.txt#line=2,3", cwd=root)
    assert show.code == 0 and show.out == "line 3\n"
    made = textfrag("make", "--root", str(root), "src/my file.txt", "--lines", "3-3", cwd=root)
    assert made.out.startswith("src/my%20file.txt#line=2,3;"), made.out
    # moved: the path is kept as written, encoded
    commit_all(root)
    (root / "src" / "my file.txt").write_text("new first\n" + APP)
    assert textfrag("update", "--root", str(root), "--write", "docs", cwd=root, env=NO_COLOR).code == 0
    assert "](txtfrag:src/my%20file.txt#line=3,4;" in (root / "docs" / "a.md").read_text()


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("%2e%2e/outside.txt", "'..'"),
        ("src/a%00b.txt", "NUL"),
        ("src%5capp.txt", "'\\'"),
        ("src/%ff.txt", "percent-encoding is not UTF-8"),
    ],
)
def test_an_escape_cannot_smuggle_what_the_path_rules_refuse(tmp_path: Path, path: str, why: str) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (tmp_path / "outside.txt").write_text("secret\n")
    r = textfrag("show", "--root", str(root), f"{path}#line=0,1", cwd=root)
    assert r.code == 2 and why in r.err, r.err
    no_traceback(r)
    assert "secret" not in r.out


# -- the leftovers of the last round ---------------------------------------------------------------------


def _without_root_powers() -> list[str]:
    """A command prefix under which permissions hold (root reads every folder otherwise)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: an unreadable folder cannot be made")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]


@pytest.mark.parametrize("mode", [0o000, 0o444])  # neither listed nor entered; listed, not entered
@pytest.mark.parametrize("command", ["check", "update", "migrate"])
def test_a_folder_that_cannot_be_read_is_said_not_a_traceback(tmp_path: Path, mode: int, command: str) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    locked = root / "docs" / "locked"
    locked.mkdir()
    (locked / "x.md").write_text("![](txtfrag:src/app.txt#line=0,1)\n")
    locked.chmod(mode)
    try:
        for target in ("docs", "docs/locked/x.md"):
            r = subprocess.run(
                [*_without_root_powers(), sys.executable, "-m", "textfrag", command, "--root", str(root), target],
                capture_output=True,
                text=True,
                cwd=root,
                timeout=60,
            )
            run = Run(r.returncode, r.stdout, r.stderr)
            no_traceback(run)
            assert r.returncode == 2, (target, r.stderr)
            assert "docs/locked" in r.stderr and "Permission denied" in r.stderr, r.stderr
    finally:
        locked.chmod(0o755)


def test_a_word_after_a_directives_reference_fails_check_as_it_fails_the_build(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "a.txt", "one\n")
    (root / "docs" / "i.rst").write_text("T\n=\n\n.. txtfrag:: src/a.txt#line=0,1 extra\n")
    (root / "docs" / "m.md").write_text("```{txtfrag} src/a.txt#line=0,1 extra\n```\n")
    r = textfrag("check", "--root", str(root), "docs", cwd=root, env=NO_COLOR)
    assert r.code == 2
    assert "docs/i.rst:4: src/a.txt#line=0,1 extra:" in r.err and "docs/m.md:1: src/a.txt#line=0,1 extra:" in r.err


def test_an_image_after_an_escaped_backtick_is_checked(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "a.txt", "one\n")
    (root / "docs" / "m.md").write_text("A \\` tick ![](txtfrag:src/nope.txt#line=0,1) and `code` and \\\\`x`\n")
    r = textfrag("check", "--root", str(root), "docs", cwd=root, env=NO_COLOR)
    assert r.code == 2 and "docs/m.md:1: txtfrag:src/nope.txt#line=0,1: no such file" in r.err, r.err
    assert "1 reference" in r.out  # the code span after an escaped backslash is still code


def test_a_document_whose_lines_end_in_cr_alone_reports_each_problem_on_its_line(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "a.txt", "one\n")
    (root / "docs" / "cr.md").write_bytes(b"# T\r\rx ![](txtfrag:src/nope.txt)\r\r![](txtfrag:src/gone.txt)\r")
    (root / "docs" / "cr.rst").write_bytes(b"T\r=\r\r.. txtfrag:: src/nope.txt\r")
    r = textfrag("check", "--root", str(root), "docs", cwd=root, env=NO_COLOR)
    assert "docs/cr.md:3: txtfrag:src/nope.txt:" in r.err and "docs/cr.md:5: txtfrag:src/gone.txt:" in r.err, r.err
    assert "docs/cr.rst:4: src/nope.txt:" in r.err


def test_textfrag_myst_given_deeply_nested_json_says_so(tmp_path: Path) -> None:
    plugin = shutil.which("textfrag-myst", path=str(Path(sys.executable).parent))
    assert plugin
    deep = '{"children": [' * 100_000 + "]}" * 100_000
    for args in (["--transform", "txtfrag-problems"], ["--directive", "txtfrag"]):
        r = subprocess.run([plugin, *args], input=deep, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "nested too deeply" in r.stderr, r.stderr[-500:]
        no_traceback(Run(r.returncode, r.stdout, r.stderr))


def test_a_percent_encoded_path_works_in_the_builds(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "my file.txt", APP)
    (root / "docs" / "index.md").write_text("# T\n\n![](txtfrag:src/my%20file.txt#line=0,1)\n")
    (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag\n")
    r = run_mkdocs("build", cwd=root)
    assert r.returncode == 0, r.stderr
    assert "line 1" in (root / "site" / "index.html").read_text()
    (root / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (root / "docs" / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/my%20file.txt#line=0,1\n")
    s = run_sphinx("-b", "html", str(root / "docs"), str(tmp_path / "out"))
    assert s.returncode == 0, s.stderr
    assert "line 1" in (tmp_path / "out" / "index.html").read_text()
