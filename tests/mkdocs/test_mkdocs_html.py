"""The MkDocs plugin's HTML: the manual's reference/html page."""

from __future__ import annotations

import pytest

from .conftest import APP, DEFAULT, MATERIAL, Site, excerpt_text, md5

REF = f"src/app.py#line=10,20;length={len(APP)};md5={md5(APP)}"
LINES_11_20 = "".join(APP.splitlines(keepends=True)[10:20])


def test_block_excerpt_alone_in_a_paragraph(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", f"# T\n\n![](txtfrag:{REF})\n")
    r = site.build(caplog)
    assert r.ok, r.error
    [el] = site.soup().select(".txtfrag")
    assert el.name == "div" and el.parent.name != "p"
    assert el["id"] == "txtfrag-src-app-py-line-10-20"
    assert el["data-txtfrag-ref"] == REF
    assert el["data-txtfrag-md5"] == md5(APP)
    assert el["data-txtfrag-length"] == str(len(APP))
    assert el["data-txtfrag-charset"] == "UTF-8"
    assert el.select_one("a.headerlink")["href"] == "#txtfrag-src-app-py-line-10-20"
    assert el.select_one(".filename").get_text().startswith("src/app.py, lines 11-20")
    assert excerpt_text(el) == LINES_11_20
    assert el.select_one("div.highlight") is not None  # Material / pymdownx classes
    assert el.select_one("span.n") is not None  # highlighted by Pygments


def test_inline_excerpt_inside_a_sentence(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", "# T\n\nThe value ![x](txtfrag:src/app.py#char=8,17) is doubled.\n")
    assert site.build(caplog).ok
    [el] = site.soup().select(".txtfrag")
    assert el.name == "span" and el.parent.name == "p"
    assert el.select_one("code").get_text() == "value_1 ="
    assert el.select_one("a.headerlink")["href"] == f"#{el['id']}"


def test_caption_comes_from_the_alt_text(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", f"# T\n\n![The doubling]({'txtfrag:' + REF})\n")
    assert site.build(caplog).ok
    assert site.soup().select_one(".txtfrag .filename").get_text().startswith("The doubling")


def test_attr_list_sets_language_line_numbers_and_highlighted_lines(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page(
        "index.md", f'# T\n\n![](txtfrag:{REF}){{ .text linenums hl_lines="2 4" }}\n\n![](txtfrag:{REF}){{ linenums="5" }}\n'
    )
    r = site.build(caplog)
    assert r.ok, r.error
    first, second = site.soup().select(".txtfrag")
    assert [int(x) for x in first.select_one(".linenos").get_text().split()] == list(range(11, 21))
    assert [hll.get_text() for hll in first.select(".hll")] == ["line 12: value_12 = 12 * 2\n", "line 14: value_14 = 14 * 2\n"]
    assert first.select_one("span.n") is None  # .text: no Python tokens
    assert [int(x) for x in second.select_one(".linenos").get_text().split()] == list(range(5, 15))
    assert excerpt_text(first) == LINES_11_20


def test_references_in_code_are_left_as_text(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", "# T\n\nSpan `![x](txtfrag:src/app.py)` here.\n\n```\n[y](txtfrag:src/app.py)\n```\n")
    assert site.build(caplog).ok
    soup = site.soup()
    assert not soup.select(".txtfrag")
    assert "![x](txtfrag:src/app.py)" in soup.select_one("article code").get_text()


def test_no_txtfrag_uri_is_left_in_the_html(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page(
        "index.md",
        f"# T\n\n![](txtfrag:{REF})\n\nA [link](txtfrag:{REF}) and ![i](txtfrag:src/app.py#char=0,4).\n\n[d]: txtfrag:{REF}\n\nSee [def][d].\n",
    )
    assert site.build(caplog).ok
    soup = site.soup()
    for tag in soup.find_all(True):
        for attr in ("href", "src"):
            assert "txtfrag:" not in str(tag.get(attr, ""))
    assert "txtfrag.invalid" not in str(soup)


def test_quoted_markup_is_escaped(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    evil = 'x = "</pre><script>alert(1)</script>"\ny = "*not emphasis* <b>&amp;</b>"\n'
    site.write("src/evil.py", evil)
    site.page("index.md", "# T\n\n![](txtfrag:src/evil.py)\n\nInline ![x](txtfrag:src/evil.py#line=1,2) too.\n")
    assert site.build(caplog).ok
    soup = site.soup()
    block, inline = soup.select(".txtfrag")
    assert excerpt_text(block) == evil
    assert (
        inline.select_one("code").get_text() == evil.splitlines()[1]
    )  # (an inline excerpt ends without its last line ending: it reads as part of its sentence)
    assert all("alert(1)" not in s.get_text() for s in soup.select("script"))


def test_without_a_highlighter_every_excerpt_has_one_look(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """No highlighter configured (the mkdocs theme's highlight.js cannot number or emphasize lines): every
    excerpt, numbered or not, is drawn by Pygments in the same classes, with the plugin's stylesheet."""
    site.config(DEFAULT)
    site.write("src/crlf.txt", b"one\r\ntwo\r\nthree\r\n")
    site.page("index.md", f"# T\n\n![](txtfrag:{REF})\n\n![](txtfrag:src/crlf.txt#line=1,3){{ linenums }}\n")
    r = site.build(caplog)
    assert r.ok, r.error
    plain, numbered = site.soup().select(".txtfrag")
    assert excerpt_text(plain) == LINES_11_20 and plain.select_one("div.highlight pre") is not None
    assert numbered.select_one("div.highlight pre") is not None
    assert excerpt_text(numbered) == "two\nthree\n"
    assert [int(x) for x in numbered.select_one(".linenos").get_text().split()] == [2, 3]
    css = (site.root / "site/assets/textfrag/textfrag.css").read_text()
    assert ".txtfrag .highlight" in css  # Pygments style shipped, as the theme has none


def test_codehilite_classes(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.config(DEFAULT.replace("  - attr_list\n", "  - attr_list\n  - codehilite\n"))
    site.page("index.md", f"# T\n\n![](txtfrag:{REF})\n")
    assert site.build(caplog).ok
    assert site.soup().select_one(".txtfrag div.codehilite pre") is not None


def test_unique_ids_and_front_matter_lines(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page(
        "index.md", f"---\ntitle: T\n---\n# T\n\n![](txtfrag:{REF})\n\n![](txtfrag:{REF})\n\n![](txtfrag:src/app.py#line=1,x)\n"
    )
    r = site.build(caplog)
    ids = [el["id"] for el in site.soup().select(".txtfrag")]
    assert ids == ["txtfrag-src-app-py-line-10-20", "txtfrag-src-app-py-line-10-20-2"]
    assert any(m.startswith("index.md:10: txtfrag:src/app.py#line=1,x: expected a line position") for m in r.messages), r.messages


def test_non_ascii_and_bom(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.write("src/bom.txt", b"\xef\xbb\xbfgr\xc3\xbc\xc3\x9fe\n")
    site.page("index.md", "# T\n\n![](txtfrag:src/bom.txt)\n")
    assert site.build(caplog).ok
    el = site.soup().select_one(".txtfrag")
    assert excerpt_text(el) == "grüße\n"
    assert el["data-txtfrag-length"] == "6"


def test_caption_none_leaves_blocks_without_alt_text_uncaptioned_and_keeps_written_ones(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    site.config(DEFAULT.replace("  - textfrag\n", "  - textfrag:\n      caption: none\n"))
    site.page("index.md", f"# T\n\n![](txtfrag:{REF}){{ linenums }}\n\n![Written](txtfrag:{REF})\n")
    r = site.build(caplog)
    assert r.ok, r.error
    first, second = site.soup().select(".txtfrag")
    assert first.select_one(".filename").get_text().strip("¶ ") == ""  # no caption text; the permalink stays
    assert first.select_one("a.headerlink")["href"] == f"#{first['id']}"
    assert second.select_one(".filename").get_text().startswith("Written")


def test_caption_takes_path_or_none_only(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.config(DEFAULT.replace("  - textfrag\n", "  - textfrag:\n      caption: nothing\n"))
    site.page("index.md", "# T\n")
    r = site.mkdocs("build")
    assert r.returncode != 0 and "caption" in r.stderr and "Traceback" not in r.stderr


def test_the_sites_linenums_number_excerpts_as_they_number_fences(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """With pymdownx.highlight's linenums: true, fences are numbered, and so are excerpts."""
    site.config(MATERIAL.replace("  - pymdownx.highlight\n", "  - pymdownx.highlight:\n      linenums: true\n"))
    site.page("index.md", "# T\n\n```python\nx = 1\n```\n\n![](txtfrag:src/app.py#line=3,5)\n")
    r = site.build(caplog)
    assert r.ok, r.error
    fence, excerpt = site.soup().select("article .highlight")[:2]
    assert [n.get_text() for n in fence.select(".linenos .normal, .linenodiv .normal")] == ["1"]
    assert [n.get_text() for n in excerpt.select(".linenos .normal, .linenodiv .normal")] == ["4", "5"]
