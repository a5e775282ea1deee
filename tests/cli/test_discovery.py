"""One discovery: every command finds the project the same way, from the repository's top, from inside the
documentation and from elsewhere, in the layouts real tools make (``sphinx-quickstart --sep``, ``mkdocs
new``); a run that finds nothing to check says what it looked for and fails (exit 2), never "all current"."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from textfrag.cli import main

from ..conftest import commit_all
from ..processes import run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 21))


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return run_textfrag(*argv, cwd=cwd, env=environ, timeout=120)


def _quickstart(repo: Path) -> Path:
    """A git repository whose Sphinx project ``sphinx-quickstart --sep`` made in ``docs/`` (conf.py in
    ``docs/source``), guard mode on, and a literalinclude of ``src/app.txt``."""
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "src").mkdir()
    (repo / "src" / "app.txt").write_text(APP)
    quickstart = Path(sys.executable).parent / "sphinx-quickstart"
    subprocess.run([str(quickstart), "-q", "--sep", "-p", "P", "-a", "A", str(repo / "docs")], check=True, capture_output=True)
    conf = repo / "docs" / "source" / "conf.py"
    assert conf.is_file()
    conf.write_text(conf.read_text() + "\nextensions = ['sphinx_textfrag']\ntextfrag_root = '../..'\ntextfrag_guard = True\n")
    index = repo / "docs" / "source" / "index.rst"
    index.write_text(index.read_text() + "\n.. literalinclude:: ../../src/app.txt\n   :lines: 3-5\n")
    return repo


def test_a_sphinx_quickstart_sep_project_is_found_from_the_top_from_docs_and_from_its_source(tmp_path: Path) -> None:
    repo = _quickstart(tmp_path / "repo")
    pinned = run("pin", "--write", "docs", cwd=repo)
    assert pinned.returncode == 0 and "recorded 1 include" in pinned.stdout, pinned.stdout + pinned.stderr
    assert (repo / "docs" / "source" / "textfrag.lock").is_file()
    assert "using the configuration in docs/source/conf.py" in pinned.stderr
    commit_all(repo)
    for cwd, argv in [(repo, ()), (repo, ("docs",)), (repo / "docs", ()), (repo / "docs" / "source", ()), (tmp_path, ("repo",))]:
        r = run("check", *argv, cwd=cwd)
        assert r.returncode == 0 and "0 references and 1 include in 1 document: all current" in r.stdout, (cwd, argv, r.stderr)
    (repo / "src" / "app.txt").write_text(APP.replace("line 4\n", "line four\n"))
    for cwd, argv in [(repo, ()), (repo, ("docs",)), (repo / "docs", ()), (repo / "docs" / "source", ()), (tmp_path, ("repo",))]:
        r = run("check", *argv, cwd=cwd)
        assert r.returncode == 1 and "1 stale" in r.stdout and "index.rst" in r.stderr, (cwd, argv, r.stdout, r.stderr)


def test_check_through_main_finds_the_same_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _quickstart(tmp_path / "repo")
    assert run("pin", "--write", cwd=repo).returncode == 0
    (repo / "src" / "app.txt").write_text(APP.replace("line 4\n", "line four\n"))
    monkeypatch.chdir(repo)
    out, err = io.StringIO(), io.StringIO()
    assert main(["check"], stdout=out, stderr=err) == 1
    assert "1 stale" in out.getvalue() and "docs/source/conf.py" in err.getvalue()


def test_make_and_migrate_find_the_project_check_finds(tmp_path: Path) -> None:
    repo = _quickstart(tmp_path / "repo")
    made = run("make", "--lines", "3-5", "src/app.txt", cwd=repo)
    assert made.returncode == 0 and "src/app.txt#line=2,5" in made.stdout, made.stderr
    assert "docs/source/conf.py" in made.stderr
    migrated = run("migrate", "docs", cwd=repo)
    assert migrated.returncode == 0, migrated.stderr


def test_check_inside_an_mkdocs_docs_folder_finds_mkdocs_yml_one_folder_up(tmp_path: Path) -> None:
    """``mkdocs new`` makes mkdocs.yml beside docs/; check run in docs/ (outside any git repository) reads it."""
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run([str(mkdocs), "new", str(tmp_path / "site")], check=True, capture_output=True)
    site = tmp_path / "site"
    (site / "src").mkdir()
    (site / "src" / "app.txt").write_text(APP)
    (site / "mkdocs.yml").write_text("site_name: S\nplugins: [textfrag]\nmarkdown_extensions: [attr_list]\n")
    (site / "docs" / "index.md").write_text("# S\n\n![](txtfrag:src/app.txt#line=0,2)\n")
    inside = run("check", cwd=site / "docs")
    assert inside.returncode == 0 and "1 reference in 1 document: all current" in inside.stdout, inside.stderr
    assert "using the configuration in ../mkdocs.yml (root: ..)" in inside.stderr
    assert "root" not in inside.stdout  # (no root hint: the reference resolved)


def test_a_root_that_does_not_exist_is_an_error_not_a_pass(tmp_path: Path) -> None:
    r = run("check", "--root", str(tmp_path / "no" / "such"), ".", cwd=tmp_path)
    assert r.returncode == 2 and "does not exist" in r.stderr and "all current" not in r.stdout, r.stdout + r.stderr
    (tmp_path / "file").write_text("x")
    r = run("check", "--root", "file", ".", cwd=tmp_path)
    assert r.returncode == 2 and "is not a folder" in r.stderr


def test_an_empty_folder_and_documents_without_references_fail_saying_what_was_looked_for(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("check", cwd=empty)
    assert r.returncode == 2 and "all current" not in r.stdout
    assert "no documentation file" in r.stderr and "docs/source" in r.stderr and "mkdocs.yml" in r.stderr, r.stderr
    (empty / "README.md").write_text("# Nothing quoted here\n")
    r = run("check", cwd=empty)
    assert r.returncode == 2 and "no txtfrag: reference in the 1 documentation file" in r.stderr, r.stderr


def test_a_configuration_whose_documents_hold_nothing_to_check_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n")
    (tmp_path / "docs" / "index.rst").write_text("T\n=\n\nNo quotes yet.\n")
    r = run("check", cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no txtfrag: reference and no include guarded by textfrag.lock" in r.stderr
    assert "docs/conf.py" in r.stderr


def test_two_projects_below_a_folder_are_each_checked_and_named(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.txt").write_text(APP)
    (tmp_path / "doc").mkdir()
    (tmp_path / "doc" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (tmp_path / "doc" / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/app.txt#line=0,2\n")
    (tmp_path / "docs" / "docs").mkdir(parents=True)
    (tmp_path / "docs" / "mkdocs.yml").write_text("site_name: S\nplugins: [{textfrag: {root: ..}}]\n")
    (tmp_path / "docs" / "docs" / "index.md").write_text(
        "# S\n\n![](txtfrag:src/app.txt#line=0,5;length=1;md5=00000000000000000000000000000000)\n"
    )
    r = run("check", cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "using the configuration in doc/conf.py" in r.stderr and "using the configuration in docs/mkdocs.yml" in r.stderr
    summaries = [line for line in r.stdout.splitlines() if line.startswith("textfrag check:")]
    assert summaries == [  # (in the order of the usual layouts: docs/ before doc/)
        "textfrag check: 1 reference in 1 document: 1 stale, 0 bad",
        "textfrag check: 1 reference in 1 document: all current; 1 unpinned (not protected against drift: `textfrag pin --write` pins them)",
    ], r.stdout
    js = run("check", "--format", "json", cwd=tmp_path)
    assert js.returncode == 2 and "give it with --config" in js.stderr and js.stdout == ""


def test_two_configurations_in_one_folder_are_an_ambiguous_choice(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# S\n\n![](txtfrag:mkdocs.yml)\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: S\nplugins: [textfrag]\n")
    (tmp_path / "zensical.toml").write_text("[project.markdown_extensions.textfrag]\n")
    r = run("check", cwd=tmp_path)
    assert r.returncode == 2 and "mkdocs.yml and zensical.toml" in r.stderr and "--config" in r.stderr, r.stderr
    chosen = run("check", "--config", "mkdocs.yml", cwd=tmp_path)
    assert chosen.returncode == 0, chosen.stderr


@pytest.mark.parametrize(
    ("files", "found"),
    [
        ({"mkdocs.yml": "plugins:\n  - textfrag\n", "conf.py": "extensions = []\n"}, ["mkdocs.yml"]),
        (
            {".vitepress/config.mts": "import textfrag from 'markdown-it-textfrag'\n", "book.toml": "[book]\n"},
            [".vitepress/config.mts"],
        ),
        ({".vitepress": "a file, not a folder\n", "myst.yml": "project:\n  plugins: [textfrag-myst]\n"}, ["myst.yml"]),
        ({"docs/conf.py": "extensions = ['sphinx_textfrag']\n", "zensical.toml": "[project]\n"}, []),
        ({}, []),
    ],
)
def test_a_folder_listed_once_holds_the_configurations_each_name_looked_for_finds(
    tmp_path: Path, files: dict[str, str], found: list[str]
) -> None:
    """configs_in lists the folder once instead of looking for each of its names: the same configurations
    either way."""
    from textfrag.project.discovery import CONFIG_NAMES, _names_textfrag, configs_in

    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert configs_in(tmp_path) == [tmp_path / n for n in CONFIG_NAMES if _names_textfrag(tmp_path / n)]
    assert configs_in(tmp_path) == [tmp_path / n for n in found]
    assert configs_in(tmp_path / "nowhere") == []
