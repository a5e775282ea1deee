"""The engines beyond Sphinx and the MkDocs plugin: Zensical, ProperDocs, MkDocs and plain Python-Markdown
through the ``textfrag`` Markdown extension, and mystmd through ``textfrag-myst``. Each is run as its users
run it: its own command line, in a fresh project folder, and its output read back.

The suite's installs (`make test`) put every engine here: Zensical and ProperDocs from PyPI (test extras),
mystmd from the npm registry (``TEXTFRAG_MYST``, set by the Makefile). A missing engine skips its tests on
a developer's machine, and fails them where ``TEXTFRAG_REQUIRE_ENGINES=1`` (CI) says every engine is there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
APP = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
MD5 = hashlib.md5(APP.encode()).hexdigest()
STALE = "0" * 32


def engine(name: str) -> Path:
    """The command of an engine: the venv's script, or mystmd's from ``TEXTFRAG_MYST``."""
    path = Path(os.environ.get("TEXTFRAG_MYST", "")) if name == "myst" else BIN / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail(f"{name} is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip(f"{name} is not installed here")
    return path


def run(command: list[str | Path], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, NO_MKDOCS_2_WARNING="1", **env)
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600, env=environment)


def project(root: Path, pages: dict[str, str], config: dict[str, str]) -> Path:
    """A project folder: ``src/app.py``, the pages under ``docs/``, the configuration files."""
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    for name, text in pages.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    for name, text in config.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def myst_project(root: Path, pages: dict[str, str]) -> Path:
    """A mystmd project using textfrag-myst, with a local site template (a build needs no network)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "tpl").mkdir()
    (root / "tpl" / "template.yml").write_text("jtex: v1\ntitle: local\n", encoding="utf-8")
    plugin = shutil.which("textfrag-myst", path=str(BIN))
    assert plugin, "the wheel installs the textfrag-myst script"
    (root / "myst.yml").write_text(
        f"version: 1\nproject:\n  plugins:\n    - type: executable\n      path: {plugin}\nsite:\n  template: ./tpl\n",
        encoding="utf-8",
    )
    for name, text in pages.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def myst_content(root: Path, page: str) -> dict[str, object]:
    """The tree mystmd built for a page (what its themes render)."""
    data: dict[str, object] = json.loads((root / "_build" / "site" / "content" / f"{page}.json").read_text(encoding="utf-8"))
    return data


def nodes(tree: object) -> list[dict[str, object]]:
    """Every node of a mystmd tree, in document order."""
    out: list[dict[str, object]] = []
    if isinstance(tree, dict):
        out.append(tree)
        for child in tree.get("children") or ():
            out.extend(nodes(child))
    return out


def counted(folder: Path, command: Path) -> tuple[Path, Path]:
    """A command that runs ``command`` and writes a line (``start ARGS``) to a log for each start: what a
    plugin is told to run, so that a test counts the processes a build starts. (The command, the log.)"""
    log = folder / f"{command.name}-starts.log"
    wrapper = folder / f"{command.name}-counted"
    wrapper.write_text(f'#!/bin/sh\necho "start $*" >> "{log}"\nexec "{command}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return wrapper, log


def npm_installed(folder: Path, package: str) -> Path:
    """The npm package ``npm/PACKAGE`` of this repository as a user gets it: ``npm pack``, then installed
    from the tarball into ``folder/site`` (the package needs nothing else). Its entry module."""
    import subprocess

    from ..conftest import REPO

    packed = subprocess.run(
        ["npm", "pack", "--silent", "--pack-destination", str(folder), str(REPO / "npm" / package)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert packed.returncode == 0, packed.stderr
    site = folder / "site"
    site.mkdir()
    done = subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(site), str(folder / packed.stdout.strip().splitlines()[-1])],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return site / "node_modules" / package / "index.js"
