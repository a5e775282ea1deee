"""Field trust: a migration changes nothing a page shows and writes only what differs from the
project's defaults. The language is the Sphinx project's whatever ``--root`` says; a block with no caption
has no caption element (no empty bar), its permalink at its corner; a caption textfrag writes shows a file
name exactly (no smart quotes). Real Sphinx builds, read with BeautifulSoup."""

from __future__ import annotations

import io
from pathlib import Path

from textfrag.cli import main

from ..processes import run_textfrag
from .conftest import Site
from .test_literalinclude_parity import shown

C_SOURCE = "".join(f"int f{i}(void) {{\n    return {i};\n}}\n\n" for i in range(1, 6))


def _blocks(site: Site) -> list[dict[str, object]]:
    soup = site.build(fresh=True).soup()
    body = soup.select_one("div[role=main], div.body")
    assert body is not None
    return [
        shown(b)
        for b in body.select("div.literal-block-wrapper, div[class*=highlight-]")
        if not b.find_parent(class_="literal-block-wrapper")
    ]


def _c_project(site: Site, conf_extra: str = "") -> None:
    site.write("src/lib.c", C_SOURCE)
    site.write("docs/conf.py", (site.docs / "conf.py").read_text() + "highlight_language = 'c'\n" + conf_extra)
    site.page(
        "index.rst",
        "T\n=\n\n"
        ".. literalinclude:: ../src/lib.c\n   :lines: 1-3\n\n"  # the project's language
        ".. literalinclude:: ../src/lib.c\n   :lines: 5-7\n   :language: c\n\n"  # said, and the same: not written
        ".. highlight:: text\n\n"
        ".. literalinclude:: ../src/lib.c\n   :lines: 9-11\n\n"  # the page's language from here on
        ".. literalinclude:: ../src/lib.c\n   :lines: 13-15\n   :language: c\n   :caption: Given\n",  # differs: kept
    )


def test_migrate_with_root_keeps_the_projects_language_and_writes_only_what_differs(site: Site, tmp_path: Path) -> None:
    _c_project(site)
    before = _blocks(site)
    assert [b["language"] for b in before] == [["highlight-c"], ["highlight-c"], ["highlight-text"], ["highlight-c"]]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # --root says where paths start; the language is still the conf.py's (found above the document)
    r = run_textfrag("migrate", "--root", str(site.root), "--write", str(site.docs), cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    page = (site.docs / "index.rst").read_text()
    assert page.count(".. txtfrag::") == 4
    assert ":language:" not in page.split(".. highlight:: text")[0]  # the project's language is not restated
    assert page.count(":language: c") == 1  # only where it differs from the page's
    assert ":language: default" not in page
    # every caption-less block says so once, and the run says which setting makes it unnecessary
    assert page.count(":caption:\n") == 3
    assert "3 blocks say ':caption:' (empty) to show no caption" in r.stderr and 'textfrag_caption = "none"' in r.stderr
    assert _blocks(site) == before


def test_migrate_writes_no_empty_caption_where_the_project_shows_none_anyway(site: Site) -> None:
    _c_project(site, 'textfrag_caption = "none"\n')
    before = _blocks(site)
    err = io.StringIO()
    assert main(["migrate", "--root", str(site.root), "--write", str(site.docs)], stdout=io.StringIO(), stderr=err) == 0
    page = (site.docs / "index.rst").read_text()
    assert ":caption:\n" not in page and ":caption: Given" in page
    assert "to show no caption" not in err.getvalue()
    # each migrated directive is the directive line plus what differs: here the :lines: pin alone
    first = page.split(".. txtfrag::")[1]
    assert first.split("\n\n")[0].count("\n") == 0
    assert _blocks(site) == before


def test_a_block_without_caption_has_no_caption_element_and_keeps_its_permalink(site: Site) -> None:
    site.write("src/a.txt", "one\ntwo\n")
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/a.txt#line=0,1\n   :caption:\n\n.. literalinclude:: ../src/a.txt\n")
    soup = site.build(fresh=True).soup()
    block = soup.select_one("div.txtfrag")
    assert block is not None
    assert block.select(".code-block-caption") == [] and block.select("div.caption, .caption-text") == []
    corner = block.select_one("a.headerlink.txtfrag-corner")
    assert corner is not None and corner["href"] == f"#{block['id']}" and corner.get("title") == "Link to this code"
    assert block.select_one("pre").get_text() == "one\n"  # the permalink is not part of the excerpt's text


def test_a_block_with_a_caption_keeps_sphinxs_permalink_in_it(site: Site) -> None:
    site.write("src/a.txt", "one\ntwo\n")
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/a.txt#line=0,1\n")
    block = site.build(fresh=True).soup().select_one("div.txtfrag")
    assert block is not None
    assert block.select_one(".code-block-caption a.headerlink") is not None
    assert block.select_one("a.txtfrag-corner") is None


def test_textfrags_own_caption_shows_a_file_name_exactly(site: Site) -> None:
    name = 'it\'s--a"name"...txt'
    site.write(f"src/{name}", "x\n")
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: src/{name}#line=0,1\n")
    result = site.build(fresh=True)
    assert result.statuscode == 0, result.warnings
    caption = result.soup().select_one("div.txtfrag .caption-text")
    assert caption is not None
    assert caption.get_text().startswith(f"src/{name}"), caption.get_text()
