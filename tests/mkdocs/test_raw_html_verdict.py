"""Raw HTML read as HTML: a ``txtfrag:`` URL in a real tag of a page (a raw HTML block, inline HTML) is
not rendered, and the MkDocs build, ``check`` and the editor each say so at the same line; one in a code
span, an HTML comment or an indented code block is text, for all three."""

from __future__ import annotations

import re
from pathlib import Path

from textfrag.documents.scan import raw_html_references

from ..processes import run_mkdocs, run_textfrag

PAGE = """\
# T

![](txtfrag:src/app.txt#line=0,2)

Code `<img src="txtfrag:src/app.txt#line=0,1">` here.

<!-- <img src="txtfrag:src/app.txt#line=1,2"> -->

    <img src="txtfrag:src/app.txt#line=2,3">

<div>
<img src="txtfrag:src/app.txt#line=3,4">
</div>

Text <a href='txtfrag:src/app.txt#line=4,5'>x</a>.
"""


def test_only_real_tags_hold_raw_html_references() -> None:
    assert [(f.line, f.text) for f in raw_html_references(PAGE, "index.md")] == [
        (12, "txtfrag:src/app.txt#line=3,4"),
        (15, "txtfrag:src/app.txt#line=4,5"),
    ]


def test_the_mkdocs_build_and_check_report_the_same_lines(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.txt").write_text("".join(f"line {i}\n" for i in range(1, 10)))
    (tmp_path / "mkdocs.yml").write_text("site_name: s\nplugins: [textfrag]\nmarkdown_extensions: [attr_list]\n")
    (tmp_path / "docs" / "index.md").write_text(PAGE)
    built = run_mkdocs("build", "-q", cwd=tmp_path, timeout=120)
    checked = run_textfrag("check", cwd=tmp_path, timeout=60)
    said = "a txtfrag: reference in raw HTML is not rendered"
    assert built.returncode != 0 and checked.returncode == 2
    assert re.findall(r"index\.md:(\d+): txtfrag:\S+: " + said, built.stderr) == ["12", "15"], built.stderr
    assert re.findall(r"docs/index\.md:(\d+): txtfrag:\S+: " + said, checked.stderr) == ["12", "15"], checked.stderr
