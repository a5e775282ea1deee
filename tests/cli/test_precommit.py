"""The pre-commit hooks, as their users run them: `pre-commit run` on a sample repository whose configuration
names this repository (a copy of this checkout, committed) at its commit."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO, commit_all

APP = "".join(f"value_{i} = {i}\n" for i in range(1, 21))


def _pre_commit(sample: Path, home: Path, hook: str, repo: Path) -> subprocess.CompletedProcess[str]:
    """``pre-commit run HOOK --all-files`` in ``sample``, with a configuration that names this checkout's
    repository (``repo``) at its commit, as a user's names a release: the hook's environment is built
    once per pre-commit home (the tests share one)."""
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    config = sample.parent / f"pre-commit-{hook}.yaml"  # (outside the sample: pre-commit wants its own config staged)
    config.write_text(f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: {hook}\n", encoding="utf-8")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), NO_COLOR="1")
    env.pop("PYTHONSAFEPATH", None)  # pre-commit builds the hook's own environment from the repository
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "-c", str(config), hook, "--all-files", "--verbose"],
        cwd=sample,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


def _sample(tmp_path: Path, heading: str = "") -> Path:
    """A committed project whose page quotes lines 3-4 of src/app.py, pinned (under ``heading``, if any)."""
    sample = tmp_path / "sample"
    (sample / "src").mkdir(parents=True)
    (sample / "docs").mkdir()
    (sample / "src" / "app.py").write_text(APP, encoding="utf-8")
    md5 = hashlib.md5(APP.encode()).hexdigest()
    (sample / "docs" / "index.md").write_text(
        f"# Sample\n\n{heading}![](txtfrag:src/app.py#line=2,4;length={len(APP)};md5={md5})\n", encoding="utf-8"
    )
    commit_all(sample)
    return sample


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_textfrag_check_hook_passes_then_fails_on_drift(tmp_path: Path, hooks: tuple[Path, Path]) -> None:
    if not (REPO / ".git").exists():
        pytest.fail("try-repo needs this checkout to be a git repository")
    sample = _sample(tmp_path)
    repo, home = hooks

    ok = _pre_commit(sample, home, "textfrag-check", repo)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "textfrag check" in ok.stdout and "Passed" in ok.stdout

    (sample / "src" / "app.py").write_text("# a new first line\n" + APP, encoding="utf-8")
    commit_all(sample, "edit the quoted file")
    stale = _pre_commit(sample, home, "textfrag-check", repo)
    assert stale.returncode == 1
    assert "Failed" in stale.stdout
    assert re.search(r"^docs/index\.md:3: txtfrag:src/app\.py#line=2,4;\S*: stale .*moved", stale.stdout, re.MULTILINE), (
        stale.stdout
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_textfrag_update_hook_rewrites_moved_references_and_fails_as_a_formatter_does(
    tmp_path: Path, hooks: tuple[Path, Path]
) -> None:
    sample = _sample(tmp_path)
    doc = sample / "docs" / "index.md"
    (sample / "src" / "app.py").write_text("# a new first line\n" + APP, encoding="utf-8")
    commit_all(sample, "edit the quoted file")
    repo, home = hooks

    first = _pre_commit(sample, home, "textfrag-update", repo)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    assert "#line=3,5;" in doc.read_text(encoding="utf-8")  # the moved reference, rewritten

    commit_all(sample, "take the rewrite")
    again = _pre_commit(sample, home, "textfrag-update", repo)
    assert again.returncode == 0, again.stdout + again.stderr
    check = _pre_commit(sample, home, "textfrag-check", repo)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_textfrag_impact_hook_says_what_the_staged_change_does_and_never_fails(tmp_path: Path, hooks: tuple[Path, Path]) -> None:
    sample = _sample(tmp_path, heading="## Values\n\n")
    (sample / "src" / "app.py").write_text(APP.replace("value_3 = 3", "value_3 = 33"), encoding="utf-8")
    subprocess.run(["git", "add", "src/app.py"], cwd=sample, check=True, capture_output=True)
    repo, home = hooks

    said = _pre_commit(sample, home, "textfrag-impact", repo)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "Passed" in said.stdout
    assert (
        f"docs/index.md:5: changes quoted text: txtfrag:src/app.py#line=2,4;length={len(APP)};md5={hashlib.md5(APP.encode()).hexdigest()}"
        in said.stdout
    )
    assert "  shown under 'Values'" in said.stdout and "  +value_3 = 33" in said.stdout
    assert "textfrag impact: the index changes 1 file, 1 quoted file: 1 quote touched (1 changed)" in said.stdout
