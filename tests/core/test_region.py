"""The ``region`` intent: the lines between a region's markers, the marker lines
left out, for the conventions real projects use, behind any line-comment syntax; a region marked twice or
not at all is an error that says so, never a guess."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from textfrag import TextFragError
from textfrag.cli import main
from textfrag.intents.intent import Intent, intent_lines, region_lines

from ..processes import run_mkdocs, run_sphinx

CASES = [
    # Google's samples
    ("# [START upload]\nblob.upload()\n# [END upload]\n", "upload", [2]),
    ("// [START main]\nint main() {\n  return 0;\n}\n// [END main]\n", "main", [2, 3, 4]),
    ("-- [START q]\nSELECT 1;\n-- [END q]\n", "q", [2]),
    # VS Code, C#, VitePress
    ("#region setup\nx = 1\n#endregion\n", "setup", [2]),
    ("// #region snippet\nconst a = 1;\n// #endregion snippet\n", "snippet", [2]),
    ("<!-- #region part -->\n<p>hi</p>\n<!-- #endregion -->\n", "part", [2]),
    ("    #region Inner\n    int x;\n    #endregion\n", "Inner", [2]),
    # Bluehawk
    ("// :snippet-start: connect\nclient.connect();\n// :snippet-end:\n", "connect", [2]),
    # pymdownx.snippets sections, with or without the scissors
    ("# --8<-- [start:func]\ndef f(): pass\n# --8<-- [end:func]\n", "func", [2]),
    ("# [start:func]\ndef f(): pass\n# [end:func]\n", "func", [2]),
    # nested: an unnamed end closes the innermost open region of its kind
    # mdBook's anchors (ANCHOR: / ANCHOR_END:), behind a comment or not
    ("fn main() {\n    // ANCHOR: body\n    let x = 1;\n    // ANCHOR_END: body\n}\n", "body", [3]),
    ("# ANCHOR: all\nx = 1\n# ANCHOR_END: all\n", "all", [2]),
    # AsciiDoc's tags (tag::name[] / end::name[])
    ("// tag::setup[]\nsetup();\n// end::setup[]\n", "setup", [2]),
    ("# tag::a-b[]\nx\n# end::a-b[]\n", "a-b", [2]),
    # javadoc's snippets (@start region=name / @end, named or not)
    ('// @start region="hello"\nSystem.out.println();\n// @end\n', "hello", [2]),
    ("// @start region=hello\nx();\n// @end region=hello\n", "hello", [2]),
    # Doxygen's snippet marker: the same line opens and closes it
    ("//! [Adding a resource]\nres.add();\n//! [Adding a resource]\n", "Adding a resource", [2]),
    ("/// [one]\na\n/// [two]\nb\n/// [two]\n/// [one]\n", "one", [2, 3, 4, 5]),
    ("#region outer\na\n#region inner\nb\n#endregion\nc\n#endregion\n", "outer", [2, 3, 4, 5, 6]),
    ("#region outer\na\n#region inner\nb\n#endregion\nc\n#endregion\n", "inner", [4]),
    ("# [START a]\n# [START b]\nx\n# [END a]\ny\n# [END b]\n", "b", [3, 4, 5]),
]


@pytest.mark.parametrize(("text", "name", "lines"), CASES)
def test_each_convention_selects_the_lines_between_its_markers(text: str, name: str, lines: list[int]) -> None:
    content = text.splitlines()
    assert region_lines(content, name) == lines
    assert intent_lines(text, Intent(region=name)) == lines


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        ("# [START a]\nx\n# [END a]\n", "b", "no region named 'b' in the file (regions: a)"),
        ("# [START a]\nx\n# [END a]\n# [START a]\ny\n# [END a]\n", "a", "marked 2 times (lines 2-2, lines 5-5)"),
        ("#region a\nx\n", "a", "opened but never closed"),
        ("x = '[START a]'  # not a marker: it is not on a line of its own\n", "a", "no region named 'a'"),
    ],
)
def test_a_missing_duplicate_or_open_region_is_said(text: str, name: str, message: str) -> None:
    with pytest.raises(TextFragError) as info:
        region_lines(text.splitlines(), name)
    assert message in info.value.message


def test_make_region_prints_the_pinned_reference_and_its_intent(tmp_path: Path) -> None:
    (tmp_path / "app.go").write_text("package main\n\n// [START hello]\nfunc hello() {}\n// [END hello]\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["make", "--root", str(tmp_path), "app.go", "--region", "hello"], stdout=out, stderr=err) == 0, err.getvalue()
    ref, option = out.getvalue().splitlines()
    assert ref.startswith("app.go#line=3,4;length=") and option == "   :region: hello"


def test_a_sphinx_build_checks_the_region_against_the_pin(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "src" / "app.cs").write_text("class A {\n  #region Body\n  int x;\n  #endregion\n}\n")
    out = io.StringIO()
    main(["make", "--root", str(tmp_path), "src/app.cs", "--region", "Body"], stdout=out, stderr=io.StringIO())
    ref = out.getvalue().splitlines()[0]
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (tmp_path / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref}\n   :region: Body\n")
    build = ["-E", "-b", "html", str(tmp_path / "docs"), str(tmp_path / "out")]
    ok = run_sphinx(*build)
    assert ok.returncode == 0, ok.stderr
    from bs4 import BeautifulSoup

    pre = BeautifulSoup((tmp_path / "out" / "index.html").read_text(), "html.parser").select_one("div.txtfrag pre")
    assert pre is not None and pre.get_text() == "  int x;\n"
    (tmp_path / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref}\n   :region: Other\n")
    bad = run_sphinx(*build)
    assert bad.returncode == 1 and "no region named 'Other'" in bad.stderr


def test_a_region_that_moved_is_moved_even_when_its_text_occurs_elsewhere(tmp_path: Path) -> None:
    from ..conftest import commit_all, quoted_by_intent

    src = "x = 1\n# [START one]\nvalue = 2\n# [END one]\n"
    doc = quoted_by_intent(tmp_path, "a.py", src, "region", "one")
    (tmp_path / "src" / "a.py").write_text("value = 2\n\n" + src)  # the same text above, and the region moved
    commit_all(tmp_path, "move")
    err = io.StringIO()
    assert main(["update", "--root", str(tmp_path), "--write", str(doc)], stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    assert "#line=4,5;" in doc.read_text()


def test_migrate_says_a_marker_pair_as_its_region_and_mkdocs_reads_the_attribute(tmp_path: Path) -> None:
    from bs4 import BeautifulSoup

    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "src" / "s.py").write_text("import os\n# [START use]\nos.getcwd()\n# [END use]\n")
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    page = tmp_path / "docs" / "index.rst"
    page.write_text("T\n=\n\n.. literalinclude:: ../src/s.py\n   :start-after: [START use]\n   :end-before: [END use]\n")
    assert main(["migrate", "--root", str(tmp_path), "--write", str(page)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    text = page.read_text()
    assert ":region: use" in text and ":start-after:" not in text and "#line=2,3;" in text

    out = io.StringIO()
    main(["make", "--root", str(tmp_path), "src/s.py", "--region", "use"], stdout=out, stderr=io.StringIO())
    ref = out.getvalue().splitlines()[0]
    (tmp_path / "docs" / "index.md").write_text(
        f'# T\n\n![](txtfrag:{ref}){{ region="use" }}\n\n![](txtfrag:{ref}){{ region="nope" }}\n'
    )
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions: [attr_list]\nplugins:\n  - textfrag\n")
    r = run_mkdocs("build", cwd=tmp_path)
    assert r.returncode == 1 and "no region named 'nope'" in r.stderr, r.stderr
    html = BeautifulSoup((tmp_path / "site" / "index.html").read_text(), "html.parser")
    assert html.select_one("div.txtfrag pre").get_text() == "os.getcwd()\n"
