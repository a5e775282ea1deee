"""The ``textfrag`` Python-Markdown extension in plain Python-Markdown: ``markdown.markdown(text,
extensions=["textfrag"])`` embeds, verifies and links as the MkDocs plugin does, and a document with
problems raises the project's own error listing every one of them, located."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup

from markdown_textfrag.extension import MarkdownProblems, TextfragExtension
from textfrag import TextFragError

from ..processes import run_mkdocs
from .conftest import APP, MD5, STALE, project

PAGE = f"""# Title

![](txtfrag:src/app.py#line=0,2;md5={MD5}){{ .python hl_lines="2" }}

See [the function](txtfrag:src/app.py#line=0,2;md5={MD5}) and {{}} the inline ![](txtfrag:src/app.py#line=4,5;md5={MD5}).
"""


def test_the_entry_point_names_the_extension() -> None:
    [ep] = [ep for ep in entry_points(group="markdown.extensions") if ep.name == "textfrag"]
    assert ep.load() is TextfragExtension


def test_plain_markdown_embeds_links_and_keeps_the_contract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {}, {})
    monkeypatch.chdir(tmp_path)  # the root is the current folder unless `root` says otherwise
    html = markdown.markdown(PAGE, extensions=["attr_list", "textfrag"])
    soup = BeautifulSoup(html, "html.parser")
    block, inline = soup.select(".txtfrag")
    assert block.name == "div" and inline.name == "span"
    assert block["data-txtfrag-ref"] == f"src/app.py#line=0,2;md5={MD5}"
    assert (block["data-txtfrag-md5"], block["data-txtfrag-length"], block["data-txtfrag-state"]) == (
        MD5,
        str(len(APP)),
        "current",
    )
    assert block.select_one("pre").get_text() == "def f():\n    return 1\n"
    assert block.select_one(".hll").get_text() == "    return 1\n"  # hl_lines, 1-based in the excerpt
    assert (
        inline.select_one("code").get_text() == "def g():"
    )  # (an inline excerpt ends without its last line ending: it reads as part of its sentence)
    assert soup.select_one("p a:not(.headerlink)")["href"] == f"#{block['id']}"  # the link goes to the excerpt
    style = soup.select_one("style.txtfrag-style")
    assert style is not None  # the page carries the rules it needs
    style.decompose()
    assert "txtfrag:" not in str(soup)  # no reference is left in the page


def test_root_option_and_the_stylesheet_can_be_left_to_the_site(tmp_path: Path) -> None:
    project(tmp_path, {}, {})
    ext = TextfragExtension(root=str(tmp_path), stylesheet=False)
    html = markdown.markdown(PAGE, extensions=["attr_list", ext])
    assert "<style" not in html and html.count('data-txtfrag-state="current"') == 2


def test_every_problem_of_a_document_is_raised_with_its_line(tmp_path: Path) -> None:
    """Plain Python-Markdown, even in a process that has MkDocs loaded: MkDocs is not what runs it."""
    import mkdocs.exceptions  # noqa: F401

    project(tmp_path, {}, {})
    text = (
        "# T\n\n"
        f"![](txtfrag:src/app.py#line=0,2;md5={STALE})\n\n"
        "![](txtfrag:src/nope.py#line=0,1)\n\n"
        "![](txtfrag:src/app.py#line=9,2)\n"
    )
    with pytest.raises(MarkdownProblems) as caught:
        markdown.markdown(text, extensions=[TextfragExtension(root=str(tmp_path))])
    err = caught.value
    assert isinstance(err, TextFragError)  # the project's own error
    assert [p.split(": ", 1)[0] for p in err.problems] == ["line 3", "line 5", "line 7"]
    assert "stale" in err.problems[0] and "no such file: src/nope.py" in err.problems[1]
    assert f"line 3: txtfrag:src/app.py#line=0,2;md5={STALE}: stale" in str(err)


def test_a_stale_reference_set_to_warn_is_shown_marked(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    project(tmp_path, {}, {})
    ext = TextfragExtension(root=str(tmp_path), on_stale="warning")
    html = markdown.markdown(f"![](txtfrag:src/app.py#line=0,2;md5={STALE})\n", extensions=[ext])
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select_one(".txtfrag")["data-txtfrag-state"] == "stale"
    assert soup.select_one(".txtfrag-stale") is not None
    assert any("stale" in r.getMessage() for r in caplog.records)


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(TextFragError, match="on_stale must be 'error' or 'warning'"):
        TextfragExtension(on_stale="sometimes")


def test_a_heading_s_table_of_contents_does_not_end_the_document_early(tmp_path: Path) -> None:
    """toc runs the postprocessors on each heading: the document's problems are raised once, at its end."""
    project(tmp_path, {}, {})
    text = f"# A\n\n## B\n\n![](txtfrag:src/app.py#line=0,2;md5={MD5})\n\n## C\n"
    html = markdown.markdown(text, extensions=["toc", TextfragExtension(root=str(tmp_path))])
    assert html.count("<h2") == 2 and 'data-txtfrag-state="current"' in html


def test_mkdocs_anchor_validation_knows_the_extensions_excerpts(tmp_path: Path) -> None:
    """The Markdown extension alone (the Zensical and ProperDocs way) in MkDocs with
    `validation: anchors: warn` and --strict: a same-page link to an excerpt passes, as with the plugin."""
    import os

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/app.py#line=0,2)\n\nSee [the function](txtfrag:src/app.py#line=0,2).\n"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nvalidation:\n  anchors: warn\nmarkdown_extensions:\n  - attr_list\n  - textfrag:\n      root: .\n"
    )
    r = run_mkdocs("build", "--strict", "-q", cwd=tmp_path, timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    assert 'href="#txtfrag-src-app-py-line-0-2"' in html and 'id="txtfrag-src-app-py-line-0-2"' in html
