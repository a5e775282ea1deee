"""Machine-readable results: GitHub workflow commands parsed back, JSON validated against the schema the
package ships, --quiet (the manual's reference/cli page)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from ..conftest import commit_all, new_project
from ..processes import run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))
MD5 = hashlib.md5(APP.encode()).hexdigest()


def run(*argv: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    environ.update(env or {})
    return run_textfrag(*argv, cwd=cwd, env=environ, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "docs" / "index.md").write_text(
        "# T\n\n"
        f"![](txtfrag:src/app.txt#line=2,4;length={len(APP)};md5={MD5})\n\n"  # moved, once the file changes
        "Now ![x](txtfrag:src/app.txt#char=0,4) inline.\n\n"  # current (no checks)
        "![](txtfrag:src/nope.txt)\n",  # bad
        encoding="utf-8",
    )
    (root / "docs" / "api.rst").write_text("T\n=\n\n.. txtfrag:: src/app.txt#line=0,1;md5=" + "0" * 32 + "\n", encoding="utf-8")
    commit_all(root)
    (root / "src" / "app.txt").write_text("a new first line, with a comma: and a colon\n" + APP, encoding="utf-8")
    commit_all(root, "moved")
    return root


GITHUB = re.compile(r"^::(error|warning) file=([^,]*),line=(\d+),col=(\d+),title=([^:]*)::(.*)$")


def _unescape(text: str) -> str:
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_github_commands_mark_each_problem_and_parse_back(project: Path) -> None:
    r = run("check", "--root", ".", "--format", "github", "docs", cwd=project)
    assert r.returncode == 2
    commands = [GITHUB.match(line) for line in r.stdout.splitlines() if line.startswith("::")]
    assert all(commands), r.stdout
    parsed = [
        (m.group(1), _unescape(m.group(2)), int(m.group(3)), _unescape(m.group(5)), _unescape(m.group(6))) for m in commands
    ]  # type: ignore[union-attr]
    assert [(p[0], p[1], p[2], p[3]) for p in parsed] == [
        ("error", "docs/api.rst", 4, "textfrag: stale"),
        ("error", "docs/index.md", 3, "textfrag: stale"),
        ("error", "docs/index.md", 7, "textfrag: bad"),
    ]
    assert parsed[1][4].startswith("txtfrag:src/app.txt#line=2,4;") and "moved" in parsed[1][4]
    assert "no such file: src/nope.txt" in parsed[2][4]
    assert (
        "textfrag check: 4 references in 2 documents: 2 stale, 1 bad; 2 unpinned" in r.stdout.splitlines()[-1]
    )  # the summary too
    assert "docs/index.md:7: txtfrag:src/nope.txt: no such file" in r.stderr  # and the text


def test_github_actions_gets_annotations_without_asking(project: Path) -> None:
    r = run("check", "--root", ".", "docs", cwd=project, env={"GITHUB_ACTIONS": "true"})
    assert sum(line.startswith("::error ") for line in r.stdout.splitlines()) == 3
    plain = run("check", "--root", ".", "docs", cwd=project)
    assert "::error" not in plain.stdout + plain.stderr


def schema() -> dict[str, object]:
    return json.loads(files("textfrag").joinpath("schemas/results.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("command", [["check"], ["update"], ["update", "--write"]])
def test_json_lists_every_reference_and_validates_against_the_shipped_schema(project: Path, command: list[str]) -> None:
    r = run(*command, "--root", ".", "--format", "json", "docs", cwd=project)
    document = json.loads(r.stdout)
    jsonschema.validate(document, schema())
    by_line = {(x["document"], x["line"]): x for x in document["results"]}
    assert len(document["results"]) == 4
    moved = by_line[("docs/index.md", 3)]
    assert moved["column"] == 5 and moved["reference"].startswith("txtfrag:src/app.txt#line=2,4")
    if command == ["update", "--write"]:
        assert moved["status"] == "current"
    else:
        assert (moved["status"], moved["drift"]) == ("stale", "moved")
        assert moved["new_reference"].startswith("txtfrag:src/app.txt#line=3,5;")
    assert by_line[("docs/index.md", 5)]["status"] == "current" and by_line[("docs/index.md", 5)]["message"] == ""
    assert by_line[("docs/index.md", 7)]["status"] == "bad"
    assert by_line[("docs/api.rst", 4)]["status"] == "stale"
    assert r.stderr == ""  # nothing but the JSON


def test_quiet_prints_only_the_problems(project: Path) -> None:
    r = run("check", "--root", ".", "--quiet", "docs", cwd=project)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("docs/") == 3
    (project / "docs" / "index.md").write_text("# current\n\n![](txtfrag:src/app.txt#line=0,2)\n", encoding="utf-8")
    (project / "docs" / "api.rst").write_text("T\n=\n", encoding="utf-8")
    quiet = run("check", "--root", ".", "-q", "docs", cwd=project)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_sarif_validates_against_the_sarif_2_1_0_schema_with_a_rule_per_kind(project: Path) -> None:
    from ..conftest import DATA

    r = run("check", "--root", ".", "--format", "sarif", "docs", cwd=project)
    assert r.returncode == 2 and r.stderr == ""
    log = json.loads(r.stdout)
    jsonschema.validate(log, json.loads((DATA / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8")))
    [run_] = log["runs"]
    assert run_["tool"]["driver"]["name"] == "textfrag"
    assert [rule["id"] for rule in run_["tool"]["driver"]["rules"]] == ["textfrag/missing", "textfrag/stale"]
    located = [
        (
            x["ruleId"],
            x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            x["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for x in run_["results"]
    ]
    assert located == [
        ("textfrag/stale", "docs/api.rst", 4),
        ("textfrag/stale", "docs/index.md", 3),
        ("textfrag/missing", "docs/index.md", 7),
    ]
    assert all(x["level"] == "error" and x["message"]["text"] for x in run_["results"])
    assert all(run_["tool"]["driver"]["rules"][x["ruleIndex"]]["id"] == x["ruleId"] for x in run_["results"])
