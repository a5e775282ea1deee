"""The Python engines' own code, run by guard mode to say what an include shows (textfrag.guard.model.EngineRun):
pymdownx.snippets and mdx_include, offered by the installed package through the entry point group
``textfrag.engines``, reading every file through the build's cache. What they say is held to the engine
by the differential properties (test_engine_differential.py, "engine-run"); here: that the installed
package runs them, that an engine stopping on an include is a located problem and never a traceback, that
a file they reach outside the root is refused, and that an engine a project does not use is never
imported."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from textfrag.guard import engines_run

from ..processes import run_textfrag

pytest.importorskip("pymdownx.snippets")
pytest.importorskip("mdx_include")

MKDOCS = "site_name: t\nplugins:\n  - textfrag:\n      guard: true\nmarkdown_extensions:\n"


def _site(root: Path, extension: str, page: str, files: dict[str, str]) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(MKDOCS + extension, encoding="utf-8")
    (root / "docs" / "index.md").write_text(page, encoding="utf-8")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_installed_package_runs_the_python_engines_that_can_read_through_its_cache() -> None:
    assert engines_run() == {
        "snippet": f"pymdown-extensions {version('pymdown-extensions')}",
        "mdx-include": f"mdx_include {version('mdx_include')}",
    }


@pytest.mark.parametrize(
    ("extension", "page", "included"),
    [
        ("  - mdx_include:\n      base_path: .\n", "# T\n\n{!code/q.txt!}\n", "a\n{!code/q.txt!}\n"),
        ("  - pymdownx.snippets:\n      base_path: ['.']\n", '# T\n\n--8<-- "code/q.txt"\n', 'a\n--8<-- "code/q.txt"\n'),
    ],
    ids=["mdx_include", "pymdownx.snippets"],
)
def test_a_file_that_includes_itself_is_a_located_problem_or_shown_as_the_engine_shows_it(
    tmp_path: Path, extension: str, page: str, included: str
) -> None:
    """mdx_include raises on a circular inclusion (the MkDocs build stops); pymdownx.snippets leaves the
    inner include out. ``pin --write`` says the first where it is and records the second."""
    root = _site(tmp_path, extension, page, {"code/q.txt": included})
    done = run_textfrag("pin", "--write", "docs", cwd=root)
    assert "Traceback" not in done.stderr, done.stderr
    if "mdx_include" in extension:
        assert done.returncode == 2 and "docs/index.md:3:" in done.stderr and "included in itself" in done.stderr, done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert run_textfrag("check", "docs", cwd=root).returncode == 0


@pytest.mark.parametrize(
    ("extension", "page", "nested"),
    [
        ("  - mdx_include:\n      base_path: .\n", "# T\n\n{!code/q.txt!}\n", "{!link/secret.txt!}\n"),
        ("  - pymdownx.snippets:\n      base_path: ['.']\n", '# T\n\n--8<-- "code/q.txt"\n', '--8<-- "link/secret.txt"\n'),
    ],
    ids=["mdx_include", "pymdownx.snippets"],
)
def test_a_nested_include_the_engine_reaches_outside_the_root_is_refused(
    tmp_path: Path, extension: str, page: str, nested: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n", encoding="utf-8")
    root = _site(tmp_path / "site", extension, page, {"code/q.txt": nested})
    (root / "link").symlink_to(outside)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    done = run_textfrag("pin", "--write", "docs", cwd=root)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "docs/index.md:3:" in done.stderr and "outside the textfrag root" in done.stderr, done.stderr


def test_an_engine_the_project_does_not_use_is_never_imported(tmp_path: Path) -> None:
    """A snippets site's ``check`` runs pymdownx.snippets and never imports mdx_include (each engine costs
    its import only where its includes are)."""
    root = _site(
        tmp_path, "  - pymdownx.snippets:\n      base_path: ['.']\n", '# T\n\n--8<-- "code/q.txt"\n', {"code/q.txt": "a\n"}
    )
    assert run_textfrag("pin", "--write", "docs", cwd=root).returncode == 0
    probe = (
        "import sys; from textfrag.cli import main; code = main(['check', 'docs']); "
        "print(code, 'pymdownx.snippets' in sys.modules, 'mdx_include' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.split()[-3:] == ["0", "True", "False"], done.stdout + done.stderr
