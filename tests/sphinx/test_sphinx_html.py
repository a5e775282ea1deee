"""The Sphinx extension's HTML: the manual's reference/html page, and the directive's options."""

from __future__ import annotations

from collections.abc import Callable

from .conftest import APP, Site, md5

REF = f"src/app.py#line=10,20;length={len(APP)};md5={md5(APP)}"
LINES_11_20 = "".join(APP.splitlines(keepends=True)[10:20])


def test_block_excerpt_carries_class_id_data_and_permalink(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.page("index.rst", f"Title\n=====\n\n.. txtfrag:: {REF}\n")
    b = site.build()
    assert b.statuscode == 0, b.warnings
    [el] = b.soup().select(".txtfrag")
    assert el.name == "div"
    assert el["id"] == "txtfrag-src-app-py-line-10-20"
    assert el["data-txtfrag-ref"] == REF
    assert el["data-txtfrag-md5"] == md5(APP)
    assert el["data-txtfrag-length"] == str(len(APP))
    assert el["data-txtfrag-charset"] == "UTF-8"
    assert el.select_one("a.headerlink")["href"] == "#txtfrag-src-app-py-line-10-20"
    assert el.select_one(".caption-text").get_text() == "src/app.py, lines 11-20"
    assert excerpt_text(el) == LINES_11_20
    assert "highlight-python" in el.select_one("div[class^=highlight-]")["class"]


def test_the_prefix_is_accepted_and_kept_out_of_data_ref(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: txtfrag:{REF}\n")
    b = site.build()
    assert b.soup().select_one(".txtfrag")["data-txtfrag-ref"] == REF


def test_inline_role_is_a_code_element_in_the_anchored_span(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.page("index.rst", "T\n=\n\nThe value :txtfrag:`src/app.py#char=8,17` is doubled.\n")
    b = site.build()
    assert b.statuscode == 0, b.warnings
    [el] = b.soup().select(".txtfrag")
    assert el.name == "span"
    assert el.select_one("code").get_text() == "value_1 ="
    assert el["id"] == "txtfrag-src-app-py-char-8-17"
    assert el.select_one("a.headerlink")["href"] == f"#{el['id']}"
    assert {"data-txtfrag-ref", "data-txtfrag-md5", "data-txtfrag-length", "data-txtfrag-charset"} <= set(el.attrs)


def test_quoted_markup_is_escaped_text(site: Site, excerpt_text: Callable[[object], str]) -> None:
    evil = 'x = "</pre><script>alert(1)</script>"\ny = "<b>&amp;</b>"\n'
    site.write("src/evil.py", evil)
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/evil.py\n\nInline :txtfrag:`src/evil.py#line=0,1`.\n")
    b = site.build()
    soup = b.soup()
    assert not soup.select("script:not([src])") or all("alert(1)" not in s.get_text() for s in soup.select("script"))
    block, inline = soup.select(".txtfrag")
    assert excerpt_text(block) == evil
    assert (
        inline.select_one("code").get_text() == evil.splitlines()[0]
    )  # (an inline excerpt ends without its last line ending: it reads as part of its sentence)
    assert "<script>alert" not in (b.outdir / "index.html").read_text()


def test_line_endings_are_shown_as_newlines(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.write("src/crlf.txt", b"one\r\ntwo\rthree\xc2\x85four\r\n")
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/crlf.txt#line=1,4\n")
    b = site.build()
    assert excerpt_text(b.soup().select_one(".txtfrag")) == "two\nthree\nfour\n"


def test_linenos_match_the_source_and_emphasize_lines_are_source_numbers(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {REF}\n   :linenos:\n   :emphasize-lines: 12,14-15\n")
    b = site.build()
    assert b.statuscode == 0, b.warnings
    el = b.soup().select_one(".txtfrag")
    numbers = [int(n.get_text()) for n in el.select(".linenos")]
    assert numbers == list(range(11, 21))
    emphasised = [hll.get_text() for hll in el.select(".hll")]
    assert [line.split(":")[0].strip().split()[-1] for line in emphasised] == ["12", "14", "15"]


def test_options_caption_language_dedent_class_name(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.write("src/indented.txt", "    def f():\n        return 1\n")
    site.page(
        "index.rst",
        "T\n=\n\n.. txtfrag:: src/indented.txt\n   :caption: My caption\n   :language: python\n   :dedent: 4\n"
        "   :class: extra\n   :name: my-block\n\nSee :ref:`my-block` and :numref:`my-block`.\n",
    )
    b = site.build(numfig=True)
    assert b.statuscode == 0, b.warnings
    el = b.soup().select_one(".txtfrag")
    assert el.select_one(".caption-text").get_text().endswith("My caption")
    assert excerpt_text(el) == "def f():\n    return 1\n"
    assert el.select_one("div.highlight-python.extra") is not None
    links = [a["href"] for a in b.soup().select("a.reference.internal")]
    assert links.count(f"#{el['id']}") == 2


def test_same_reference_twice_gets_unique_ids(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {REF}\n\n.. txtfrag:: {REF}\n")
    ids = [el["id"] for el in site.build().soup().select(".txtfrag")]
    assert ids == ["txtfrag-src-app-py-line-10-20", "txtfrag-src-app-py-line-10-20-2"]


def test_ids_are_stable_across_builds(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {REF}\n\n:txtfrag:`src/app.py#char=0,4`\n")
    first = [el["id"] for el in site.build(fresh=True).soup().select(".txtfrag")]
    second = [el["id"] for el in site.build(fresh=True).soup().select(".txtfrag")]
    assert first == second


def test_source_url_template_adds_a_view_source_link(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {REF}\n")
    b = site.build(textfrag_source_url="https://example.org/blob/main/{path}#L{first}-L{last}")
    link = b.soup().select_one(".txtfrag a.txtfrag-source")
    assert link["href"] == "https://example.org/blob/main/src/app.py#L11-L20"


def test_myst_directive_and_role(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.page("index.md", f"# T\n\n```{{txtfrag}} {REF}\n:linenos:\n```\n\nInline {{txtfrag}}`src/app.py#char=8,17`.\n")
    b = site.build()
    assert b.statuscode == 0, b.warnings
    block, inline = b.soup().select(".txtfrag")
    assert excerpt_text(block) == LINES_11_20
    assert inline.select_one("code").get_text() == "value_1 ="


def test_non_ascii_and_bom_files(site: Site, excerpt_text: Callable[[object], str]) -> None:
    site.write("src/bom.txt", "\ufeffgrüße\n日本\n".encode("utf-16"))
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/bom.txt#line=1,2\n")
    el = site.build().soup().select_one(".txtfrag")
    assert excerpt_text(el) == "日本\n"
    assert el["data-txtfrag-charset"] == "UTF-16LE"


def test_a_stale_blocks_notice_stands_above_its_caption_which_stays_with_its_code(site: Site) -> None:
    """In warning mode the stale notice comes first, then the caption, then the code."""
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: src/app.py#line=0,2;md5={'0' * 32}\n   :caption: My caption\n")
    b = site.build(textfrag_on_stale="warning")
    assert b.statuscode == 0, b.warnings
    block = b.soup().select_one("div.txtfrag")
    assert block is not None
    kinds = [" ".join(c.get("class", [])) for c in block.find_all(recursive=False)]
    assert "txtfrag-stale" in kinds[0] and "code-block-caption" in kinds[1] and "highlight" in kinds[2]
