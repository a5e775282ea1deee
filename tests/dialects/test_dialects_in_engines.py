"""One reference of each dialect through Sphinx and MkDocs; disjoint selections as one excerpt."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..mkdocs.conftest import MATERIAL
from ..mkdocs.conftest import Site as MkSite
from ..sphinx.conftest import APP, CONF, Site

TEXT = "".join(f"line {i}: the quick brown fox number {i}\n" for i in range(1, 21))
PDI = "pdi://oma.eop.gov.us/1997/09/01/1.text.1"
DIALECTS = {
    "wilde": ("src/t.txt#line(2)match(number%207$)", ["line 2: the quick brown fox number 2\n", "number 7"]),
    "yee": ("src/t.txt#:words:line-3-the-(quick-brown)", ["quick brown"]),
    "w3c": ("src/t.txt#:~:text=4:%20the-,quick,fox", ["quick brown fox"]),
    "github": ("src/t.txt#L5-L6", ["line 5: the quick brown fox number 5\nline 6: the quick brown fox number 6\n"]),
    "w3m": ("src/t.txt#8", ["line 8: the quick brown fox number 8\n"]),
    "pdi": (f"{PDI}#char=0,6", ["line 1"]),
}


@pytest.fixture
def sphinx_site(tmp_path: Path) -> Site:
    site = Site(tmp_path / "project")
    site.write("src/app.py", APP)
    site.write("src/t.txt", TEXT)
    site.write("docs/conf.py", CONF + f"textfrag_pdi_map = {{{PDI!r}: 'src/t.txt'}}\n")
    return site


def test_sphinx_embeds_one_reference_of_each_dialect(sphinx_site: Site) -> None:
    body = "".join(f".. txtfrag:: {ref}\n   :linenos:\n\n" for ref, _ in DIALECTS.values())
    sphinx_site.page("index.rst", f"T\n=\n\n{body}Inline :txtfrag:`src/t.txt#:~:text=brown%20fox`.\n")
    b = sphinx_site.build()
    assert b.statuscode == 0, b.warnings
    blocks = b.soup().select("div.txtfrag")
    assert len(blocks) == len(DIALECTS)
    for el, (name, (ref, expected)) in zip(blocks, DIALECTS.items(), strict=True):
        assert el["data-txtfrag-ref"] == ref, name
        pres = el.select("pre")
        for pre in pres:
            for gutter in pre.select(".linenos"):
                gutter.decompose()
        assert [pre.get_text() for pre in pres] == expected, name
        assert len(el.select(".txtfrag-elision")) == len(expected) - 1
    wilde = blocks[0]
    assert wilde.select_one(".caption-text").get_text().startswith("src/t.txt, line 2 and line 7")
    numbers = [[int(n.get_text()) for n in pre.select(".linenos")] for pre in b.soup().select("div.txtfrag")[0].select("pre")]
    html = (b.outdir / "index.html").read_text()
    assert html.count('<span class="linenos">') >= 2 and numbers  # each piece numbered as in the file
    assert b.soup().select_one("span.txtfrag code").get_text() == "brown fox"


def test_a_space_in_a_reference_is_reported_not_split(sphinx_site: Site) -> None:
    sphinx_site.page("index.rst", "T\n=\n\n.. txtfrag:: src/t.txt#match(number 7)\n")
    b = sphinx_site.build()
    assert b.statuscode == 1
    assert "a fragment has no white space; write a space as %20" in b.warnings


def test_sphinx_reports_a_dialect_that_matches_nothing(sphinx_site: Site) -> None:
    sphinx_site.page("index.rst", "T\n=\n\n.. txtfrag:: src/t.txt#:words:(no-such-words)\n")
    b = sphinx_site.build()
    assert b.statuscode == 1
    assert "index.rst:4" in b.warnings and "do not occur in this order" in b.warnings


def test_mkdocs_embeds_one_reference_of_each_dialect(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    site = MkSite(tmp_path / "mk")
    site.config(MATERIAL.replace("  - textfrag\n", f"  - textfrag:\n      pdi_map:\n        {PDI}: src/t.txt\n"))
    site.write("src/t.txt", TEXT)
    body = "".join(f"![](txtfrag:{ref}){{ linenums }}\n\n" for ref, _ in DIALECTS.values())
    site.page("index.md", f"# T\n\n{body}Inline ![x](txtfrag:src/t.txt#L2) here.\n")
    r = site.build(caplog)
    assert r.ok, r.messages
    blocks = site.soup().select("div.txtfrag")
    assert len(blocks) == len(DIALECTS)
    for el, (name, (ref, expected)) in zip(blocks, DIALECTS.items(), strict=True):
        assert el["data-txtfrag-ref"] == ref, name
        codes = el.select("td.code pre") or el.select("pre")
        assert [c.get_text() for c in codes] == expected, name
        assert len(el.select(".txtfrag-elision")) == len(expected) - 1
    first_piece_numbers = blocks[0].select(".linenos")[0].get_text().split()
    second_piece_numbers = blocks[0].select(".linenos")[1].get_text().split()
    assert (first_piece_numbers, second_piece_numbers) == (["2"], ["7"])
    assert (
        site.soup().select_one("span.txtfrag code").get_text() == "line 2: the quick brown fox number 2"
    )  # (an inline excerpt ends without its last line ending: it reads as part of its sentence)
