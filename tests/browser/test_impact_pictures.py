"""The manual's pictures of ``textfrag impact`` in review, taken in the real browser: the notes of
``--format github`` drawn on the changed file's lines of ``git diff`` as a pull request's "Files changed"
page places annotations (drawn here from the workflow commands: GitHub's own page needs GitHub), and the
``--format markdown`` comment rendered by Python-Markdown. Each picture is checked as it is taken: the
notes beside the lines they name, the comment's table with a row per quote.

Written to ``.artifacts/pictures``; ``make pictures`` writes the manual's copies."""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from urllib.parse import unquote

import markdown

from ..impact.shared import committed, git
from ..processes import run_textfrag
from .test_manual_pictures import PICTURES, REPO, _shoot

APP = "".join(f"value_{i} = {i}\n" for i in range(1, 31))
MD5 = hashlib.md5(APP.encode()).hexdigest()
PAGE = (
    "# Guide\n\n## Your first quote\n\n"
    f"![](txtfrag:src/app.py#line=9,12;length={len(APP)};md5={MD5})\n\n## Later\n\n"
    f"![](txtfrag:src/app.py#line=19,22;length={len(APP)};md5={MD5})\n"
)
STYLE = """
body { font: 14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 16px; color: #1f2328; }
.file { border: 1px solid #d0d7de; border-radius: 6px; width: 900px; }
.file > header { background: #f6f8fa; padding: 8px 12px; border-bottom: 1px solid #d0d7de; font-family: monospace; }
table.diff { border-collapse: collapse; width: 100%; font: 12px ui-monospace, monospace; }
table.diff td { padding: 0 8px; white-space: pre; }
td.n { color: #6e7781; text-align: right; width: 40px; }
tr.add td { background: #dafbe1; } tr.del td { background: #ffebe9; } tr.hunk td { background: #ddf4ff; color: #57606a; }
tr.note td { white-space: normal; padding: 8px 12px; }
.box { border: 1px solid #d0d7de; border-left: 4px solid #bf8700; border-radius: 6px; padding: 8px 12px; font: 13px sans-serif; }
.box.notice { border-left-color: #0969da; } .box b { display: block; margin-bottom: 4px; }
.comment { border: 1px solid #d0d7de; border-radius: 6px; width: 900px; padding: 0 16px 8px; }
.comment table { border-collapse: collapse; } .comment td, .comment th { border: 1px solid #d0d7de; padding: 4px 8px; }
.comment code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 12px; }
"""


def _sample(root: Path) -> None:
    committed(root, {"src/app.py": APP, "docs/index.md": PAGE})
    lines = APP.splitlines(True)
    lines[20] = "value_21 = 2100\n"
    (root / "src" / "app.py").write_text("".join(["import os\n", *lines]), encoding="utf-8")


def _impact(root: Path, fmt: str) -> str:
    r = run_textfrag("impact", "--root", ".", "--docs", "docs", "--format", fmt, cwd=root, check=True)
    return r.stdout


def _notes(commands: str) -> dict[int, list[tuple[str, str, str]]]:
    """The workflow commands' notes, by the (new) line they are on: (level, title, message)."""
    out: dict[int, list[tuple[str, str, str]]] = {}
    for line in commands.splitlines():
        m = re.match(r"::(notice|warning|error) (.*?)::(.*)$", line)
        if not m:
            continue
        props = dict(p.split("=", 1) for p in m.group(2).split(","))
        said = unquote(m.group(3).replace("%0A", "\n"))
        out.setdefault(int(props["line"]), []).append((m.group(1), unquote(props["title"]), said))
    return out


def _files_changed(diff: str, notes: dict[int, list[tuple[str, str, str]]]) -> str:
    rows, new = [], 0
    for line in diff.splitlines():
        if line.startswith(("diff ", "index ", "--- ", "+++ ")):
            continue
        hunk = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", line)
        if hunk:
            new = int(hunk.group(1))
            rows.append(f'<tr class="hunk"><td class="n"></td><td class="n"></td><td>{html.escape(line)}</td></tr>')
            continue
        kind = {"+": "add", "-": "del"}.get(line[:1], "ctx")
        shown = "" if kind == "del" else str(new)
        rows.append(
            f'<tr class="{kind}" data-line="{shown}"><td class="n"></td><td class="n">{shown}</td><td>{html.escape(line)}</td></tr>'
        )
        if kind != "del":
            for level, title, said in notes.get(new, []):
                box = f'<div class="box {level}"><b>{html.escape(title)}</b>{html.escape(said)}</div>'
                rows.append(f'<tr class="note" data-on="{new}"><td colspan="3">{box}</td></tr>')
            new += 1
    body = "".join(rows)
    return f'<div class="file" id="diff"><header>src/app.py</header><table class="diff">{body}</table></div>'


def test_the_pictures_of_impact_in_review(browser: object, tmp_path: Path) -> None:
    root = tmp_path / "sample"
    _sample(root)
    notes = _notes(_impact(root, "github"))
    assert sorted(notes) == [1, 22]  # the line put in above both quotes, the quoted line changed
    diff = git(root, "diff", "-U3")
    page = tmp_path / "files-changed.html"
    page.write_text(f"<!doctype html><style>{STYLE}</style>{_files_changed(diff, notes)}", encoding="utf-8")
    _shoot(browser, page, "#diff", "impact-annotations.png")
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    placed = {int(str(n["data-on"])): n.get_text() for n in soup.select("tr.note")}
    assert "quoted by docs/index.md:9 (Later)" in placed[22] and "quoted by docs/index.md:5 (Your first quote)" in placed[1]
    line_22 = soup.select_one('tr[data-line="22"]')
    assert line_22 is not None and "value_21 = 2100" in line_22.get_text()

    comment = markdown.markdown(_impact(root, "markdown"), extensions=["tables", "fenced_code", "md_in_html"])
    page = tmp_path / "comment.html"
    page.write_text(f'<!doctype html><style>{STYLE}</style><div class="comment" id="comment">{comment}</div>', encoding="utf-8")
    _shoot(browser, page, "#comment", "impact-comment.png")
    rows = BeautifulSoup(comment, "html.parser").select("tbody tr")
    assert [r.find_all("td")[2].get_text() for r in rows] == ["shifts quoted lines", "changes quoted text"]


def test_the_manual_shows_the_pictures_of_impact() -> None:
    for name in ("impact-annotations.png", "impact-comment.png"):
        assert (REPO / "docs" / "_static" / name).stat().st_size > 2000
    assert PICTURES.name in ("pictures", "_static")
