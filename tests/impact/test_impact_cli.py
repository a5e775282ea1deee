"""``textfrag impact`` as a user runs it: a process (and ``main(argv)``) in a git work tree of Markdown
documents, each format read as its reader reads it (GitHub's workflow commands, JSON and SARIF against
their schemas, Markdown rendered to HTML), the modes (--staged, --worktree, a range), exit codes, and
clear errors for what a user can get wrong."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import jsonschema
import markdown
import pytest
from bs4 import BeautifulSoup

from textfrag.cli import main

from ..conftest import DATA
from ..processes import run_textfrag
from .shared import git

APP = "".join(f"value_{i} = {i}\n" for i in range(1, 31))
MD5 = hashlib.md5(APP.encode()).hexdigest()


def ref(first: int, last: int) -> str:
    return f"txtfrag:src/app.py#line={first},{last};length={len(APP)};md5={MD5}"


PAGE = f"""\
# Guide

## Your first quote

![]({ref(9, 12)})

## Later

![]({ref(19, 22)})
"""


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return run_textfrag(*argv, cwd=cwd, env=env, timeout=120)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "config", "core.autocrlf", "false")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def edit(root: Path, *, insert_at: int | None = None, replace: int | None = None) -> None:
    lines = (root / "src" / "app.py").read_text(encoding="utf-8").splitlines(True)
    if replace is not None:
        lines[replace - 1] = f"value_{replace} = {replace * 100}\n"
    if insert_at is not None:
        lines.insert(insert_at - 1, "import os\n")
    (root / "src" / "app.py").write_text("".join(lines), encoding="utf-8")


def test_text_names_each_touched_quote_with_its_heading_diff_and_command(repo: Path) -> None:
    edit(repo, replace=21, insert_at=3)  # line 21 (quoted by the second reference) changes; a line goes in above both
    r = run("impact", "--root", ".", "--docs", "docs", cwd=repo)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    out = r.stdout.splitlines()
    assert out[0] == f"docs/index.md:5: shifts quoted lines: {ref(9, 12)}"
    assert "  shown under 'Your first quote'" in out
    assert "  the quoted src/app.py lines 10-12 keep their text at other lines, now lines 11-13" in out
    assert "  then: textfrag update --write docs/index.md:5" in out
    assert f"docs/index.md:9: changes quoted text: {ref(19, 22)}" in out
    assert ["  -value_21 = 21", "  +value_21 = 2100"] == [line for line in out if line.startswith(("  -v", "  +v"))]
    assert out[-1] == ("textfrag impact: the work tree changes 1 file, 1 quoted file: 2 quotes touched (1 changed, 1 moved)")


def test_the_prediction_is_what_check_then_says(repo: Path) -> None:
    edit(repo, replace=21, insert_at=3)
    predicted = json.loads(run("impact", "--root", ".", "--docs", "docs", "--format", "json", cwd=repo).stdout)
    checked = json.loads(run("check", "--root", ".", "--format", "json", "docs", cwd=repo).stdout)
    assert {(q["line"], q["effect"]) for q in predicted["quotes"]} == {(r["line"], r["drift"]) for r in checked["results"]}
    [moved] = [q for q in predicted["quotes"] if q["effect"] == "moved"]
    [said] = [r for r in checked["results"] if r["drift"] == "moved"]
    assert moved["repair"] == said["new_reference"]  # the same repair update --write makes


def test_staged_sees_only_the_index(repo: Path) -> None:
    edit(repo, insert_at=3)
    git(repo, "add", "src/app.py")
    edit(repo, replace=22)  # (in the work tree only)
    staged = json.loads(run("impact", "--staged", "--root", ".", "--docs", "docs", "--format", "json", cwd=repo).stdout)
    assert staged["change"]["label"] == "the index"
    assert sorted(q["effect"] for q in staged["quotes"]) == ["moved", "moved"]
    worktree = json.loads(run("impact", "--worktree", "--root", ".", "--docs", "docs", "--format", "json", cwd=repo).stdout)
    assert sorted(q["effect"] for q in worktree["quotes"]) == ["changed", "moved"]


def test_a_range_of_commits_and_a_pull_requests_three_dots(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "topic")
    edit(repo, replace=10)
    git(repo, "commit", "-qam", "edit line 10")
    for spec in (f"{base}..topic", f"{base}...topic", f"{base}..HEAD"):
        r = run("impact", spec, "--root", ".", "--docs", "docs", "--format", "json", cwd=repo)
        report = json.loads(r.stdout)
        assert [(q["line"], q["effect"]) for q in report["quotes"]] == [(5, "changed"), (9, "moved")], spec
        assert run("impact", spec, "--root", ".", "--docs", "docs", cwd=repo).stdout.count("keep their text and their lines") == 1
        assert report["change"]["base"] == base


def test_exit_codes_follow_fail_on(repo: Path) -> None:
    edit(repo, insert_at=1)  # everything only moves
    assert run("impact", "--root", ".", "--docs", "docs", cwd=repo).returncode == 0
    assert run("impact", "--root", ".", "--docs", "docs", "--fail-on", "changed", cwd=repo).returncode == 0
    assert run("impact", "--root", ".", "--docs", "docs", "--fail-on", "any", cwd=repo).returncode == 1
    edit(repo, replace=12)
    assert run("impact", "--root", ".", "--docs", "docs", "--fail-on", "changed", cwd=repo).returncode == 1
    git(repo, "checkout", "--", "src/app.py")
    untouched = run("impact", "--root", ".", "--docs", "docs", "--fail-on", "any", cwd=repo)
    assert (untouched.returncode, untouched.stdout) == (
        0,
        "textfrag impact: the work tree changes 0 files; no quote names them\n",
    )


def test_github_notes_go_on_the_changed_lines_of_the_quoted_file(repo: Path) -> None:
    edit(repo, replace=21, insert_at=3)
    r = run("impact", "--root", ".", "--docs", "docs", "--format", "github", cwd=repo)
    commands = [line for line in r.stdout.splitlines() if line.startswith("::")]
    assert commands == [
        "::notice file=src/app.py,line=3,endLine=3,title=textfrag%3A shifts quoted lines::quoted by docs/index.md:5 "
        "(Your first quote): the quoted src/app.py lines 10-12 keep their text at other lines, now lines 11-13; then: "
        "textfrag update --write docs/index.md:5",
        "::warning file=src/app.py,line=22,endLine=22,title=textfrag%3A changes quoted text::quoted by docs/index.md:9 "
        "(Later): the change edits the quoted src/app.py lines 20-22; then: textfrag update --accept --write "
        "docs/index.md:9  (once the new text is reviewed)",
    ]
    lines = (repo / "src" / "app.py").read_text(encoding="utf-8").splitlines()
    assert lines[2] == "import os" and lines[21] == "value_21 = 2100"  # (the lines the notes are on)


def test_a_deleted_files_note_goes_on_the_document(repo: Path) -> None:
    git(repo, "rm", "-q", "src/app.py")
    r = run("impact", "--root", ".", "--docs", "docs", "--format", "github", "--fail-on", "changed", cwd=repo)
    assert r.returncode == 1
    commands = [line for line in r.stdout.splitlines() if line.startswith("::")]
    assert len(commands) == 2 and all(c.startswith("::warning file=docs/index.md,line=") for c in commands)
    assert "no such file: src/app.py; it is deleted in the work tree (not committed yet)" in commands[0]


def test_json_follows_its_schema_and_sarif_the_sarif_schema(repo: Path) -> None:
    edit(repo, replace=21, insert_at=3)
    report = json.loads(run("impact", "--root", ".", "--docs", "docs", "--format", "json", cwd=repo).stdout)
    schema = json.loads(files("textfrag").joinpath("schemas/impact.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, schema)
    assert report["counts"] == {
        "changed": 1,
        "moved": 1,
        "renamed": 0,
        "deleted": 0,
        "unknown": 0,
        "stale_before": 0,
        "follows": 0,
    }
    changed = next(q for q in report["quotes"] if q["effect"] == "changed")
    assert (changed["lines"], changed["source_lines"], changed["heading"]) == ([20, 22], [22, 22], "Later")
    assert changed["diff"].splitlines()[-2:] == ["-value_21 = 21", "+value_21 = 2100"]
    log = json.loads(run("impact", "--root", ".", "--docs", "docs", "--format", "sarif", cwd=repo).stdout)
    jsonschema.validate(log, json.loads((DATA / "sarif-2.1.0-rtm.5.json").read_text(encoding="utf-8")))
    results = log["runs"][0]["results"]
    assert [(x["ruleId"], x["level"]) for x in results] == [
        ("textfrag/impact-moved", "note"),
        ("textfrag/impact-changed", "warning"),
    ]
    source = results[1]["locations"][0]["physicalLocation"]
    assert (source["artifactLocation"]["uri"], source["region"]["startLine"]) == ("src/app.py", 22)
    related = results[1]["relatedLocations"][0]["physicalLocation"]
    assert (related["artifactLocation"]["uri"], related["region"]["startLine"]) == ("docs/index.md", 9)


def test_markdown_is_a_comment_a_pull_request_shows(repo: Path) -> None:
    edit(repo, replace=21, insert_at=3)
    text = run("impact", "--root", ".", "--docs", "docs", "--format", "markdown", cwd=repo).stdout
    assert text.startswith("<!-- textfrag impact -->\n")
    html = BeautifulSoup(markdown.markdown(text, extensions=["tables", "fenced_code", "md_in_html"]), "html.parser")
    rows = [[cell.get_text() for cell in row.find_all("td")] for row in html.find_all("tr")[1:]]
    assert rows == [
        [
            "docs/index.md:5 (Your first quote)",
            "src/app.py:10-12",
            "shifts quoted lines",
            "textfrag update --write docs/index.md:5",
        ],
        [
            "docs/index.md:9 (Later)",
            "src/app.py:20-22",
            "changes quoted text",
            "textfrag update --accept --write docs/index.md:9",
        ],
    ]
    assert "+value_21 = 2100" in html.find("details").get_text()


def test_a_heading_with_markup_cannot_break_the_comment(repo: Path) -> None:
    page = PAGE.replace("## Later", "## Later | <script>alert(1)</script> `x`")
    (repo / "docs" / "index.md").write_text(page, encoding="utf-8")
    edit(repo, replace=21)
    text = run("impact", "--root", ".", "--docs", "docs", "--format", "markdown", cwd=repo).stdout
    html = BeautifulSoup(markdown.markdown(text, extensions=["tables"]), "html.parser")
    assert html.find("script") is None
    rows = html.find_all("tr")[1:]
    assert [len(r.find_all("td")) for r in rows] == [4, 4]
    row = rows[1]
    assert row.find_all("td")[0].get_text() == "docs/index.md:9 (Later | <script>alert(1)</script> `x`)"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["nope..HEAD"], "'nope' is not a commit of the repository"),
        (["--staged", "HEAD..HEAD"], "not allowed with argument"),
        (["-x"], "unrecognized arguments"),
    ],
)
def test_a_bad_range_is_a_clear_error(repo: Path, argv: list[str], said: str) -> None:
    r = run("impact", *argv, "--root", ".", "--docs", "docs", cwd=repo)
    assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr


def test_outside_a_git_work_tree(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    out, err = io.StringIO(), io.StringIO()
    code = main(["impact", "--root", str(tmp_path), "--docs", str(tmp_path / "docs")], stdout=out, stderr=err)
    assert code == 2
    assert re.search(r"is not in a git work tree: impact reads the change from git", err.getvalue())


def test_paths_git_quotes_are_read_as_they_are(repo: Path) -> None:
    name = "src/caf\u00e9 \u00fc.py"
    (repo / name).write_text(APP, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a file with a name git quotes")
    quoted = f"txtfrag:src/caf%C3%A9%20%C3%BC.py#line=1,2;length={len(APP)};md5={MD5}"
    (repo / "docs" / "more.md").write_text(f"# More\n\n![]({quoted})\n", encoding="utf-8")
    lines = APP.splitlines(True)
    (repo / name).write_text("".join([lines[0], "changed\n", *lines[2:]]), encoding="utf-8")
    report = json.loads(run("impact", "--root", ".", "--docs", "docs", "--format", "json", cwd=repo).stdout)
    assert [(q["document"], q["effect"], q["path"]) for q in report["quotes"]] == [("docs/more.md", "changed", name)]


def test_a_comment_of_many_quotes_is_cut_to_what_github_takes(repo: Path) -> None:
    """GitHub refuses a comment over 65,536 characters: a change that touches hundreds of quotes gets a
    table of the first hundred, says how many more there are, and stays under the limit."""
    page = "# Many\n\n" + "".join(f"## Quote {n}\n\n![]({ref(19, 22)})\n\n" for n in range(300))
    (repo / "docs" / "many.md").write_text(page, encoding="utf-8")
    edit(repo, replace=21)
    text = run("impact", "--root", ".", "--docs", "docs", "--format", "markdown", cwd=repo).stdout
    assert len(text) <= 60_000
    html = BeautifulSoup(markdown.markdown(text, extensions=["tables", "md_in_html"]), "html.parser")
    assert len(html.select("tbody tr")) == 100
    assert "And 202 more: textfrag impact lists every one." in html.get_text()
    assert text.rstrip().endswith("302 quotes touched (301 changed, 1 moved).")


def test_a_tree_with_nothing_to_quote_is_said_never_all_clear(repo: Path) -> None:
    """impact in a folder with no reference and no configuration (a CI job started in the wrong folder)
    fails as check does, instead of saying that no quote names the changed files."""
    (repo / "docs" / "index.md").write_text("# No quotes here\n", encoding="utf-8")
    git(repo, "commit", "-qam", "no quotes")
    edit(repo, replace=3)
    r = run("impact", "--root", ".", "--docs", "docs", cwd=repo)
    assert r.returncode == 2
    assert "nothing to look at: no txtfrag: reference in the 1 documentation file under docs" in r.stderr


def test_several_projects_are_one_report(repo: Path) -> None:
    """A site per language (two mkdocs.yml naming textfrag): the change is read once and every site's
    quotes are in one report, in any format."""
    for lang in ("en", "es"):
        site = repo / "docs" / lang
        (site / "docs").mkdir(parents=True)
        (site / "mkdocs.yml").write_text("site_name: s\nplugins:\n  - textfrag:\n      root: ../..\n", encoding="utf-8")
        (site / "docs" / "index.md").write_text(f"# {lang}\n\n![]({ref(19, 22)})\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "two sites")
    edit(repo, replace=21)
    r = run("impact", "--docs", "docs/en", "--docs", "docs/es", "--format", "json", cwd=repo)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert sorted((q["document"], q["effect"]) for q in report["quotes"]) == [
        ("docs/en/docs/index.md", "changed"),
        ("docs/es/docs/index.md", "changed"),
    ]


def _github(text: str) -> BeautifulSoup:
    """The comment as GitHub renders it: GitHub Flavored Markdown (markdown-it's gfm-like preset, whose tables
    end a cell at a ``|`` inside a code span unless it is escaped), raw HTML passed through as GitHub would
    before it sanitizes."""
    from markdown_it import MarkdownIt

    return BeautifulSoup(MarkdownIt("gfm-like", {"linkify": False}).render(text), "html.parser")


def test_a_file_name_with_a_pipe_and_html_stays_in_its_cell_as_text(repo: Path) -> None:
    """A quoted file named ``a|<img src=x onerror=alert(1)>.py``: its code span in the table neither splits the
    cell nor lets the HTML out."""
    name = "src/a|<img src=x onerror=alert(1)>.py"
    (repo / name).write_text(APP, encoding="utf-8")
    encoded = "src/a%7C%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.py"
    (repo / "docs" / "index.md").write_text(f"# G\n\n## H\n\n![](txtfrag:{encoded}#line=1,2;length={len(APP)};md5={MD5})\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a hostile name")
    (repo / name).write_text(APP.replace("value_2 = 2", "value_2 = 3"), encoding="utf-8")
    text = run("impact", "--root", ".", "--docs", "docs", "--format", "markdown", cwd=repo).stdout
    html = _github(text)
    assert html.find("img") is None and html.find("script") is None, text
    (row,) = html.select("tbody tr")
    cells = [c.get_text() for c in row.find_all("td")]
    assert len(cells) == 4 and cells[1] == f"{name}:2-2", cells


def test_a_comment_of_long_headings_is_cut_by_rows_to_what_github_takes(repo: Path) -> None:
    """150 quotes under headings of 3,000 characters: the diffs go first, then rows, and the comment says how
    many more there are; a heading is cut, and one that starts with ``::`` is shown as written."""
    long = "word " * 600
    page = "# Many\n\n## :: colons first\n\n![](" + ref(19, 22) + ")\n\n"
    page += "".join(f"## {n} {long}\n\n![]({ref(19, 22)})\n\n" for n in range(150))
    (repo / "docs" / "many.md").write_text(page, encoding="utf-8")
    edit(repo, replace=21)
    text = run("impact", "--root", ".", "--docs", "docs", "--format", "markdown", cwd=repo).stdout
    assert len(text) <= 60_000, len(text)
    html = _github(text)
    rows = html.select("tbody tr")  # (the headings cut: a hundred rows fit, where the whole took 312,909 characters)
    assert len(rows) == 100 and "And 53 more: textfrag impact lists every one." in html.get_text()
    assert any(r.find_all("td")[0].get_text().endswith("(:: colons first)") for r in rows), [r.get_text()[:80] for r in rows]
    assert "\\072" not in text


def test_the_diff_of_an_include_without_line_numbers_shows_the_removed_line(tmp_path: Path) -> None:
    """FastAPI's ``{* file ln[2:3] *}`` shows its lines between "omitted" lines, so its text's lines are not the
    file's: its diff is headed "as quoted" (it said "lines 0-0") and keeps the line the change removes."""
    pytest.importorskip("markdown_include_variants")
    root = tmp_path / "repo"
    (root / "docs_src").mkdir(parents=True)
    (root / "en" / "docs").mkdir(parents=True)
    (root / "docs_src" / "t001.py").write_text("l1\nl2\nl3\nl4\n", encoding="utf-8")
    (root / "en" / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - textfrag:\n      root: ..\n      guard: true\n"
        "markdown_extensions:\n  - mdx_include\n  - markdown_include_variants\n",
        encoding="utf-8",
    )
    (root / "en" / "docs" / "index.md").write_text("# T\n\n{* ../docs_src/t001.py ln[2:3] *}\n", encoding="utf-8")
    git(root, "init", "-q")
    assert run("pin", "--write", "docs", cwd=root / "en").returncode == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    (root / "docs_src" / "t001.py").write_text("l1\nl two\nl3\nl4\n", encoding="utf-8")
    r = run("impact", "--docs", "docs", cwd=root / "en")
    assert "--- a/docs_src/t001.py (as quoted)" in r.stdout + r.stderr and "lines 0-0" not in r.stdout + r.stderr, (
        r.stdout + r.stderr
    )
    assert "-l2" in r.stdout + r.stderr and "+l two" in r.stdout + r.stderr, r.stdout + r.stderr
