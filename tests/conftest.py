from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"

# Processes the tests start (python -m sphinx, -m mkdocs, -m textfrag) import the installed package
# too, never the source tree of the folder they run in.
os.environ["PYTHONSAFEPATH"] = "1"
# What the machine running the suite says of its terminal and CI changes output formats and colour;
# the tests that are about these set them themselves.
for _variable in ("GITHUB_ACTIONS", "FORCE_COLOR", "NO_COLOR"):
    os.environ.pop(_variable, None)
# What the command line keeps from run to run (textfrag.source.store) goes to a folder of this
# run's, never to the user's cache; the tests of that store give each test its own.
os.environ["TEXTFRAG_CACHE_DIR"] = tempfile.mkdtemp(prefix="textfrag-cache-")
os.environ.pop("TEXTFRAG_NO_CACHE", None)
# jsonschema imports rfc3987_syntax where it is installed (Jupyter Book 2 brings it, through jupyter-events),
# which builds a Lark grammar of RFC 3987 as it is imported: 3 s in each of the suite's workers, for the "iri"
# format, which no schema the suite validates against uses (ours, SchemaStore's of actions and workflows).
# Not imported in the suite's processes: jsonschema then checks that format with what else is installed.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[assignment]


def _npm_version_said_once() -> None:
    """mystmd checks the versions of Node.js and npm at every start, twice, and ``npm --version`` costs
    0.15 s each time: a quarter of each small ``myst build`` the suite runs. The
    suite asks the real npm once: a folder first on PATH holds an ``npm`` that prints that answer to
    ``npm --version`` and runs the real npm for anything else."""
    import re
    import shlex
    import shutil
    import subprocess

    real = shutil.which("npm")
    if real is None:
        return
    try:
        said = subprocess.run([real, "--version"], capture_output=True, text=True, timeout=120, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return
    if not re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", said):
        return
    folder = Path(tempfile.mkdtemp(prefix="textfrag-npm-"))
    npm = folder / "npm"
    npm.write_text(
        f'#!/bin/sh\nif [ "$#" = 1 ] && [ "$1" = --version ]; then echo {said}; exit 0; fi\nexec {shlex.quote(real)} "$@"\n',
        encoding="utf-8",
    )
    npm.chmod(0o755)
    os.environ["PATH"] = f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"


_npm_version_said_once()


def conformance_cases(folder: Path = DATA / "conformance") -> list[tuple[str, dict[str, object]]]:
    """The conformance vectors in ``folder`` (default: the copies kept in tests/data), as (id, case)."""
    cases = []
    for path in sorted(folder.glob("*.json")):
        for i, case in enumerate(json.loads(path.read_text(encoding="utf-8"))["cases"]):
            cases.append((f"{path.stem}[{i}]#{case['fragment']}", case))
    return cases


@dataclass
class Project:
    """A folder of files for a test: the base of the engines' Site helpers."""

    root: Path

    def write(self, name: str, text: str | bytes) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def page(self, name: str, text: str) -> Path:
        return self.write(f"docs/{name}", text)


def new_project(folder: Path, source: str, text: str) -> Path:
    """A project folder with ``src/<source>`` holding ``text`` and an empty ``docs/``: the usual start."""
    (folder / "src").mkdir(parents=True)
    (folder / "docs").mkdir()
    (folder / "src" / source).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A fresh root folder for references."""
    r = tmp_path / "root"
    r.mkdir()
    return r


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Path]) -> Path:
    """What ``make(folder)`` returns (a path in ``folder``), made once for the whole run: the suite's
    workers (pytest-xdist) share the run's folder and take turns through a lock, so that the first to ask
    makes it and the others find it (a fixture scoped to a session or a module is made once per worker)."""
    import fcntl

    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # (the run's folder, which every worker's own is in)
    folder, done = base / f"once-{name}", base / f"once-{name}.done"
    with open(base / f"once-{name}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not done.exists():
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            done.write_text(str(make(folder).relative_to(folder)), encoding="utf-8")
    return folder / done.read_text(encoding="utf-8")


def neovim_config() -> str:
    """The Neovim configuration the manual shows (docs/howto/editor.md, between its markers)."""
    import re

    guide = (REPO / "docs" / "howto" / "editor.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- neovim-config -->\s*```lua\n(.*?)```", guide, re.S)
    assert m, "the manual (docs/howto/editor.md) shows the Neovim configuration between <!-- neovim-config --> markers"
    return m.group(1)


def commit_all(repo: Path, message: str = "snapshot") -> None:
    """Make ``repo`` a git repository (if it is not) and commit everything in it, with the git CLI."""
    import subprocess

    steps = (
        []
        if (repo / ".git").exists()
        else [["init", "-q"], ["config", "user.email", "t@example.org"], ["config", "user.name", "T"]]
    )
    for args in [*steps, ["config", "core.autocrlf", "false"], ["add", "."], ["commit", "-qm", message]]:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def read_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every file textfrag reads is appended to this log (a file: forked hashing workers read too)."""
    import textfrag.source.cache as source_module

    log = tmp_path / "reads.log"
    log.touch()
    for name in ("read_under_root", "digest_under_root"):  # whole texts, and digests read a block at a time
        real = getattr(source_module, name)

        def counting(real_root: str, path: str, *args: object, real: Callable[..., object] = real) -> object:
            with open(log, "a") as fh:
                fh.write(path + "\n")
            return real(real_root, path, *args)

        monkeypatch.setattr(source_module, name, counting)
    return log


def quoted_by_intent(root: Path, path: str, text: str, option: str, value: str) -> Path:
    """A git project: ``src/<path>`` holding ``text``, and ``docs/index.rst`` quoting it by the intent
    ``--<option> value`` (the reference ``textfrag make`` prints, with ``:<option>: value``), committed."""
    import io

    from textfrag.cli import main

    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "src" / path).write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert main(["make", "--root", str(root), f"src/{path}", f"--{option}", value], stdout=out, stderr=io.StringIO()) == 0
    doc = root / "docs" / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {out.getvalue().splitlines()[0]}\n   :{option}: {value}\n", encoding="utf-8")
    commit_all(root)
    return doc


#: the tests that take longest (npm's install of the editor extension's tools, fresh venvs, the real
#: browser and editor), handed out first: on two workers a long test that starts last is the run's tail
_LONG_FIRST = (
    "tests/editors/test_vscode.py",
    "tests/engines/test_js_sites.py::test_a_docusaurus_site",
    "tests/packaging/test_fresh_venv.py",
    "tests/browser/test_manual_pictures.py",
    "tests/cli/test_pin.py::test_the_pin_hook",
    "tests/cli/test_precommit.py",
    "tests/lsp/test_neovim.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the longest tests first (each test is independent of the order: this changes only the wall time)."""
    items.sort(key=lambda item: not item.nodeid.startswith(_LONG_FIRST))
