"""What the command line's tests share: the pre-commit hooks' repository, made once per run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ..conftest import REPO, commit_all, made_once


def _this_tree(into: Path) -> Path:
    """This checkout's files as they are (tracked and new, not ignored), committed in a repository of their
    own: try-repo of the checkout itself would leave out files that are not committed yet."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True
    )
    for name in filter(None, listed.stdout.decode("utf-8", "surrogateescape").split("\0")):
        if (REPO / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, into / name)
    commit_all(into)
    return into


@pytest.fixture(scope="session")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """This checkout as a repository of its own, and a pre-commit home: made once for every hook test of
    the run, so that pre-commit builds the hooks' environment once (it locks its own store; under xdist
    the workers share both)."""
    return made_once(tmp_path_factory, "textfrag-hooks", _this_tree), made_once(tmp_path_factory, "pre-commit-home", Path)
