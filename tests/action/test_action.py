"""The GitHub Action (action.yml) run step by step against local repositories, as a pull request's job
runs it: its range (fetched from a shallow clone too), impact's notes and summary, the one comment it
posts and then updates, check, the gate, and the commit of repaired quotes to the pull request's branch."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ..conftest import REPO, made_once
from .runner import GH, Runner

APP = "".join(f"value_{i} = {i}\n" for i in range(1, 31))
MD5 = hashlib.md5(APP.encode()).hexdigest()
PAGE = (
    "# Guide\n\n## Your first quote\n\n"
    f"![](txtfrag:src/app.py#line=9,12;length={len(APP)};md5={MD5})\n\n## Later\n\n"
    f"![](txtfrag:src/app.py#line=19,22;length={len(APP)};md5={MD5})\n"
)
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def git(cwd: Path, *args: str) -> str:
    r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **ENV}, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def _wheel() -> Path:
    dist = Path(os.environ.get("TEXTFRAG_DIST") or REPO / "dist")
    [wheel] = sorted(dist.glob("textfrag-*.whl"))
    return wheel


def _install(folder: Path) -> Path:
    """The action's install step, run once for the whole run (a venv in RUNNER_TEMP, the wheel in it)."""
    runner = Runner(folder, folder, {"package": str(_wheel())}, {}, folder, only=("Install textfrag",))
    [ran] = runner.run()
    assert ran.code == 0, ran.err
    assert ran.out.startswith("textfrag ")
    # (the runner's own pip installed it: the venv was made without one of its own)
    assert not (folder / "textfrag-venv" / "bin" / "pip").exists()
    return folder / "textfrag-venv"


def test_a_runner_whose_python_has_no_pip_gets_a_venv_with_its_own(tmp_path: Path) -> None:
    """Where the runner's python3 has no pip (a Debian image without python3-pip), the install step gives
    the venv a pip of its own (ensurepip) and installs with it."""
    real = shutil.which("python3")
    assert real
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    python3 = bin_ / "python3"
    python3.write_text(
        f'#!/bin/sh\nif [ "$1" = -m ] && [ "$2" = pip ]; then echo "No module named pip" >&2; exit 1; fi\nexec {real} "$@"\n',
        encoding="utf-8",
    )
    python3.chmod(0o755)
    runner = Runner(tmp_path, tmp_path, {"package": str(_wheel())}, {}, bin_, only=("Install textfrag",))
    [ran] = runner.run()
    assert ran.code == 0, ran.err
    assert ran.out.startswith("textfrag ")
    assert (tmp_path / "textfrag-venv" / "bin" / "pip").exists()


@pytest.fixture
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, "action-venv", _install)


@pytest.fixture
def pull_request(tmp_path: Path) -> dict[str, object]:
    """A repository (a bare origin, and the job's clone of it) with a pull request from ``topic``: one
    quoted line changed, and a line put in above both quotes."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    seed = tmp_path / "seed"
    (seed / "src").mkdir(parents=True)
    (seed / "docs").mkdir()
    (seed / "src" / "app.py").write_text(APP, encoding="utf-8")
    (seed / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    git(seed, "init", "-q", "-b", "main")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "start")
    base = git(seed, "rev-parse", "HEAD")
    git(seed, "checkout", "-q", "-b", "topic")
    lines = APP.splitlines(True)
    lines[20] = "value_21 = 2100\n"
    (seed / "src" / "app.py").write_text("".join(["import os\n", *lines]), encoding="utf-8")
    git(seed, "commit", "-qam", "change the app")
    head = git(seed, "rev-parse", "HEAD")
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(origin))
    git(tmp_path, "clone", "-q", "--no-local", "--depth", "1", "--branch", "topic", f"file://{origin}", str(work))
    github = {
        "event_name": "pull_request",
        "repository": "octo/docs",
        "token": "token-of-the-job",
        "sha": head,
        "event": {
            "pull_request": {
                "number": 7,
                "base": {"sha": base},
                "head": {"sha": head, "ref": "topic", "repo": {"full_name": "octo/docs"}},
            }
        },
    }
    return {"work": work, "origin": origin, "seed": seed, "github": github, "base": base, "head": head}


def _runner(tmp_path: Path, venv: Path, pr: dict[str, object], **inputs: str) -> Runner:
    temp = tmp_path / f"runner-{len(list(tmp_path.glob('runner-*')))}"
    (temp / "bin").mkdir(parents=True)
    os.symlink(venv, temp / "textfrag-venv")
    (temp / "github_path").write_text(f"{venv}/bin\n", encoding="utf-8")
    gh = temp / "bin" / "gh"
    gh.write_text(GH, encoding="utf-8")
    gh.chmod(0o755)
    state = tmp_path / "gh-state.json"  # (the pull request's comments outlive one run)
    runner = Runner(pr["work"], temp, {"docs": "docs", **inputs}, pr["github"], temp / "bin", skip=("Install textfrag",))  # type: ignore[arg-type]
    runner.state = state
    return runner


def test_a_pull_requests_run_notes_the_lines_sums_up_and_comments_once(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    runner = _runner(tmp_path, venv, pull_request)
    ran = runner.run()
    assert [r.name for r in ran] == ["The change's range", "textfrag impact", "The pull request's comment", "textfrag check"]
    assert (
        runner.outputs["range"]["range"] == f"{pull_request['base']}...{pull_request['head']}"
    )  # (fetched: the clone was shallow)
    impact = runner.step("textfrag impact")
    assert impact.code == 0, impact.err
    notes = [line for line in impact.out.splitlines() if line.startswith("::")]
    assert notes[0].startswith(
        "::notice file=src/app.py,line=1,endLine=1,title=textfrag%3A shifts quoted lines::quoted by docs/index.md:5"
    )
    assert notes[1].startswith(
        "::warning file=src/app.py,line=22,endLine=22,title=textfrag%3A changes quoted text::quoted by docs/index.md:9 (Later)"
    )
    assert runner.outputs["impact"] == {"touched": "2", "needs-review": "1"}
    assert "| `docs/index.md:9` (Later) | `src/app.py:20-22` | changes quoted text |" in runner.summary
    state = json.loads(runner.state.read_text(encoding="utf-8"))
    [comment] = state["comments"]
    assert comment["issue"] == 7 and comment["body"].startswith(
        "<!-- textfrag impact -->\n### textfrag: quotes this change touches"
    )
    check = runner.step("textfrag check")
    assert check.code == 1  # (the quotes are stale: the job fails, after the comment is posted)
    assert "::error file=docs/index.md,line=9" in check.out

    # the author repairs and accepts: the next run updates the same comment
    work = pull_request["work"]
    subprocess.run(
        [str(venv / "bin" / "textfrag"), "update", "--accept", "--write", "--root", ".", "docs"],
        cwd=work,
        check=True,
        capture_output=True,
    )
    git(work, "commit", "-qam", "re-pin the quotes")
    pull_request["github"]["event"]["pull_request"]["head"]["sha"] = git(work, "rev-parse", "HEAD")
    again = _runner(tmp_path, venv, pull_request)
    again.state = runner.state
    again.run()
    assert again.step("textfrag check").code == 0
    state = json.loads(runner.state.read_text(encoding="utf-8"))
    [comment] = state["comments"]  # updated, not a second one
    assert "it touches none of the 2 quotes of the files it changes; 2 quotes re-pinned with the change" in comment["body"]
    assert [c[:3] for c in state["calls"]].count(["api", "--silent", "-X"]) == 2
    assert any("PATCH" in call for call in state["calls"])


def test_no_comment_when_nothing_quoted_is_touched(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    work = pull_request["work"]
    (work / "README.md").write_text("hello\n", encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "readme")
    (work / "src" / "app.py").write_text(APP, encoding="utf-8")  # (the change to the quoted file undone)
    git(work, "commit", "-qam", "back")
    pull_request["github"]["event"]["pull_request"]["head"]["sha"] = git(work, "rev-parse", "HEAD")
    runner = _runner(tmp_path, venv, pull_request, check="false")
    runner.run()
    assert runner.outputs["impact"] == {"touched": "0", "needs-review": "0"}
    assert "textfrag: the change touches no quote; no comment" in runner.step("The pull request's comment").out
    assert json.loads(runner.state.read_text(encoding="utf-8"))["comments"] == []


@pytest.mark.parametrize(("fail_on", "code"), [("changed", 1), ("any", 1), ("never", None)])
def test_the_gate_fails_the_job_as_asked(tmp_path: Path, venv: Path, pull_request: dict, fail_on: str, code: int | None) -> None:
    runner = _runner(tmp_path, venv, pull_request, check="false", comment="false", **{"fail-on": fail_on})
    runner.run()
    names = [r.name for r in runner.ran]
    if code is None:
        assert "Fail on touched quotes" not in names
        return
    gate = runner.step("Fail on touched quotes")
    assert gate.code == code and "::error title=textfrag::the change touches" in gate.out


def test_update_commits_what_only_moved_to_the_pull_requests_branch(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    runner = _runner(tmp_path, venv, pull_request, update="true", check="false", comment="false")
    runner.run()
    assert "pushed the repaired quotes to topic" in runner.step("textfrag update (quotes that only moved)").out
    origin = pull_request["origin"]
    assert git(origin, "log", "-1", "--format=%s", "topic") == "textfrag update: rewrite the quotes that only moved"
    page = git(origin, "show", "topic:docs/index.md")
    assert "txtfrag:src/app.py#line=10,13;" in page  # (moved: repaired)
    assert f"line=19,22;length={len(APP)};md5={MD5}" in page  # (changed: left for a person)
    assert runner.outputs["impact"] == {"touched": "1", "needs-review": "1"}


def test_a_comment_another_account_planted_with_the_marker_is_left_alone(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    """Anyone may comment "<!-- textfrag impact -->...": the action updates only its own account's comment, so
    it posts its own and leaves the planted one as it is."""
    state = tmp_path / "gh-state.json"
    planted = {"id": 1, "issue": 7, "body": "<!-- textfrag impact -->\nall clear, merge it", "user": "mallory"}
    state.write_text(json.dumps({"comments": [planted], "calls": []}), encoding="utf-8")
    runner = _runner(tmp_path, venv, pull_request, check="false")
    runner.run()
    comments = json.loads(state.read_text(encoding="utf-8"))["comments"]
    assert comments[0] == planted
    assert len(comments) == 2 and comments[1]["user"] == "github-actions[bot]"
    assert comments[1]["body"].startswith("<!-- textfrag impact -->\n### textfrag: quotes this change touches")


def test_update_pushes_nothing_to_a_forks_branch(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    pull_request["github"]["event"]["pull_request"]["head"]["repo"] = {"full_name": "mallory/docs"}
    runner = _runner(tmp_path, venv, pull_request, update="true", check="false", comment="false")
    runner.run()
    said = runner.step("textfrag update (quotes that only moved)").out
    assert "the pull request's branch is in another repository (mallory/docs): nothing is pushed" in said
    assert "textfrag update:" not in git(pull_request["origin"], "log", "-1", "--format=%s", "topic")


def test_a_push_without_an_earlier_commit_skips_impact(tmp_path: Path, venv: Path, pull_request: dict) -> None:
    pull_request["github"] = {
        "event_name": "push",
        "repository": "octo/docs",
        "token": "t",
        "sha": pull_request["head"],
        "event": {"before": "0" * 40},
    }
    runner = _runner(tmp_path, venv, pull_request)
    runner.run()
    assert [r.name for r in runner.ran] == ["The change's range", "textfrag check"]
    assert "impact is skipped" in runner.step("The change's range").out


def test_inputs_reach_the_steps_only_through_the_environment() -> None:
    """No input is written into a script (an input with quotes or $() would run): every run is one
    command, and every ${{ }} is in an env: value or an if:."""
    import yaml

    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    for step in action["runs"]["steps"]:
        assert "${{" not in step["run"], step["name"]
        assert step["run"].startswith('bash "$GITHUB_ACTION_PATH/action/textfrag-action.sh" ')
    assert shutil.which("bash")


def test_a_code_repository_hears_which_pages_of_a_docs_site_its_change_touches(
    tmp_path: Path, venv: Path, pull_request: dict
) -> None:
    """quoted-by: the quote index of a docs site that quotes this repository (as `textfrag index` writes it)."""
    origin = pull_request["origin"]
    quote = {"source": "app", "git": f"file://{origin}", "commit": pull_request["base"], "path": "src/app.py"}
    quotes = [
        {**quote, "reference": f"txtfrag://app/src/app.py#line={a},{b};length={len(APP)};md5={MD5}", "lines": [a + 1, b],
         "md5": MD5, "document": "guide/values.md", "line": line, "column": 5, "heading": "Values",
         "url": f"https://docs.example.org/guide/values/#txtfrag-app-src-app-py-line-{a}-{b}"}
        for a, b, line in ((9, 12, 3), (19, 22, 7))
    ]  # fmt: skip
    index = tmp_path / "site-quotes.json"
    index.write_text(json.dumps({"textfrag-index": 1, "site": "guide", "quotes": quotes}), encoding="utf-8")
    runner = _runner(tmp_path, venv, pull_request, check="false", comment="false", **{"quoted-by": str(index)})
    runner.run()
    impact = runner.step("textfrag impact")
    assert impact.code == 0, impact.err
    notes = [line for line in impact.out.splitlines() if line.startswith("::")]
    assert notes[1].startswith(
        "::warning file=src/app.py,line=22,endLine=22,title=textfrag%3A changes quoted text::quoted by guide: "
        "guide/values.md:7 (Values) https://docs.example.org/guide/values/#txtfrag-app-src-app-py-line-19-22"
    ), notes
    assert runner.outputs["impact"] == {"touched": "2", "needs-review": "1"}
    assert "| guide: `guide/values.md:7` (Values) [page](<https://docs.example.org/guide/values/#" in runner.summary
