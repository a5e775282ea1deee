from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from textfrag.cli import main

from ..conftest import Project
from ..processes import run_mkdocs, run_sphinx

APP = "".join(f"line {i}: value_{i} = {i} * 2\n" for i in range(1, 31))


@contextmanager
def cwd(folder: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@dataclass
class Run:
    code: int
    out: str
    err: str


@dataclass
class Repo(Project):
    """A project in a git work tree, its configuration in ``config`` (a conf.py or an mkdocs.yml)."""

    config: str = "docs/conf.py"

    def git(self, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        }
        r = subprocess.run(["git", *args], cwd=self.root, capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout

    def commit(self, message: str = "c") -> None:
        self.git("add", "-A")
        self.git("commit", "-qm", message, "--allow-empty")

    def textfrag(self, *args: str) -> Run:
        """``textfrag ARGS`` through main(argv), run from the configuration's folder as a user runs it."""
        out, err = io.StringIO(), io.StringIO()
        with cwd((self.root / self.config).parent):
            code = main(list(args), stdout=out, stderr=err)
        return Run(code, out.getvalue(), err.getvalue())

    def read(self, name: str) -> str:
        return (self.root / name).read_text(encoding="utf-8")

    @property
    def lock(self) -> Path:
        return (self.root / self.config).parent / "textfrag.lock"

    def sphinx(self, *, conf: str | None = None, out: str = "html") -> tuple[subprocess.CompletedProcess[str], Path]:
        """A real ``sphinx-build -E`` of docs/ (with another conf.py folder: ``conf``)."""
        target = self.root / "_out" / out
        args = ["-E", "-q", "-b", "html"]
        if conf is not None:
            args += ["-c", str(self.root / conf)]
        r = run_sphinx(*args, str(self.root / "docs"), str(target), timeout=300)
        return r, target

    def mkdocs(
        self, *, config: str = "mkdocs.yml", out: str = "site", quiet: bool = True
    ) -> tuple[subprocess.CompletedProcess[str], Path]:
        target = self.root / "_out" / out
        r = run_mkdocs(
            "build",
            *(["-q"] if quiet else []),
            "-f",
            config,
            "-d",
            str(target),
            cwd=self.root,
            timeout=300,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        return r, target


def body(path: Path) -> str:
    """A built page as a reader gets it (the generator's build date left out)."""
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    for footer in soup.find_all(string=lambda s: s is not None and "Build Date UTC" in s):
        footer.replace_with("")
    return str(soup)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    r = Repo(tmp_path / "project")
    r.root.mkdir()
    r.git("init", "-q")
    return r
