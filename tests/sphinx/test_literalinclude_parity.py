"""A drop-in for literalinclude: the same page built with ``literalinclude`` and with the
equivalent ``txtfrag`` directive shows, block by block in the HTML, the same text, line numbers,
emphasized lines, caption and language."""

from __future__ import annotations

import hashlib

import pytest
from bs4 import BeautifulSoup, Tag

from .conftest import Site

SOURCE = "".join(f"def f{i}():\n\treturn {i}\n\n" for i in range(1, 8))  # 21 lines, with tabs
PIN = f"length={len(SOURCE)};md5={hashlib.md5(SOURCE.encode()).hexdigest()}"

#: (literalinclude options, txtfrag fragment and options): each pair must look the same
CASES = [
    ("", "line=0,", ":caption:"),  # the whole file, no caption
    (":language: text", "line=0,", ":caption:\n   :language: text"),
    (":lines: 4-6\n   :caption: Three lines", "line=3,6", ":caption: Three lines"),
    (":lines: 4-6\n   :linenos:", "line=3,6", ":caption:\n   :lineno-start: 1"),  # literalinclude counts from 1
    (":lines: 4-6\n   :lineno-match:", "line=3,6", ":caption:\n   :linenos:"),  # textfrag counts as the file
    (":lines: 4-6\n   :lineno-start: 10", "line=3,6", ":caption:\n   :lineno-start: 10"),
    (":lines: 4-8\n   :emphasize-lines: 2,4-5", "line=3,8", ":caption:\n   :emphasize-lines: 5,7-8"),  # relative vs the file's
    (":lines: 4-6\n   :tab-width: 4", "line=3,6", ":caption:\n   :tab-width: 4"),
    (":lines: 5\n   :tab-width: 2\n   :dedent: 2", "line=4,5", ":caption:\n   :tab-width: 2\n   :dedent: 2"),
    (
        ":lines: 1-3\n   :caption: Both\n   :linenos:\n   :emphasize-lines: 1",
        "line=0,3",
        ":caption: Both\n   :lineno-start: 1\n   :emphasize-lines: 1",
    ),
]


def shown(block: Tag) -> dict[str, object]:
    """What a reader sees of a code block: text, line numbers, emphasized lines, caption, language."""
    pre = block.select_one("pre")
    assert pre is not None
    numbers = [n.get_text().strip() for n in pre.select(".linenos")]
    for gutter in pre.select(".linenos"):
        gutter.decompose()
    emphasized = [h.get_text() for h in pre.select(".hll")]
    caption = block.select_one(".caption-text")
    own = any(c.startswith("highlight-") for c in block.get("class", []))
    highlight = block if own else block.select_one("div[class*=highlight-]")
    assert highlight is not None
    return {
        "text": pre.get_text(),
        "numbers": numbers,
        "emphasized": emphasized,
        "caption": caption.get_text() if caption is not None else "",
        "language": [c for c in highlight["class"] if c.startswith("highlight-")],
    }


@pytest.fixture
def built(site: Site) -> BeautifulSoup:
    site.write("src/tabs.py", SOURCE)
    parts = ["T\n=\n\n"]
    for i, (include, fragment, options) in enumerate(CASES):
        language = "" if ":language:" in include else "\n   :language: python"
        parts.append(f"Case {i}\n\n.. literalinclude:: ../src/tabs.py{language}\n   {include}\n\n".replace("   \n", ""))
        parts.append(f".. txtfrag:: src/tabs.py#{fragment};{PIN}{language}\n   {options}\n\n")
    site.page("index.rst", "".join(parts))
    result = site.build(fresh=True)
    assert result.statuscode == 0, result.warnings
    assert "WARNING" not in result.warnings and "ERROR" not in result.warnings, result.warnings
    return result.soup()


def test_every_literalinclude_option_has_a_txtfrag_equivalent_that_looks_the_same(built: BeautifulSoup) -> None:
    body = built.select_one("div[role=main], div.body")
    assert body is not None
    blocks = [
        b
        for b in body.select("div.literal-block-wrapper, div[class*=highlight-]")
        if not b.find_parent(class_="literal-block-wrapper")
    ]
    assert len(blocks) == 2 * len(CASES)
    for i in range(len(CASES)):
        # the highlighted HTML itself, to the byte: Sphinx makes a Pygments formatter for each
        # literalinclude, textfrag reuses one per set of options (sphinx_textfrag.nodes)
        pres = [str(blocks[2 * i + k].select_one("pre")) for k in (0, 1)]
        assert pres[1] == pres[0], f"case {i}: {CASES[i]}"
        literalinclude, txtfrag = shown(blocks[2 * i]), shown(blocks[2 * i + 1])
        assert txtfrag == literalinclude, f"case {i}: {CASES[i]}"
    assert "\t" not in shown(blocks[2 * 7])["text"]  # tabs were expanded, as asked


def test_textfrag_caption_none_and_an_explicit_empty_caption(site: Site) -> None:
    ref = f"src/tabs.py#line=0,3;{PIN}"
    site.write("src/tabs.py", SOURCE)
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {ref}\n\n.. txtfrag:: {ref}\n   :caption: Written\n")
    captions = {}
    for mode in ("path", "none"):
        result = site.build(fresh=True, textfrag_caption=mode)
        assert result.statuscode == 0, result.warnings
        captions[mode] = [c.get_text().strip("¶ ") for c in result.soup().select(".txtfrag .caption-text")]
    # no caption is no caption element (literalinclude draws none either), not an empty bar
    assert captions == {"path": ["src/tabs.py, lines 1-3", "Written"], "none": ["Written"]}
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match="textfrag_caption must be 'path' or 'none', not 'nothing'"):
        site.build(fresh=True, textfrag_caption="nothing")


def test_without_language_the_project_s_highlight_language_applies_as_for_literalinclude(site: Site) -> None:
    """highlight_language and a page's ``.. highlight::`` are the default language, as literalinclude's;
    with Sphinx's own ``default`` left, textfrag guesses from the file name."""
    site.write("src/notes.txt", "SELECT 1;\n")
    ref = f"src/notes.txt#line=0,1;length=10;md5={hashlib.md5(b'SELECT 1;' + bytes([10])).hexdigest()}"
    page = f"T\n=\n\n.. txtfrag:: {ref}\n\n.. highlight:: sql\n\n.. txtfrag:: {ref}\n\n.. literalinclude:: ../src/notes.txt\n"
    site.page("index.rst", page)

    def languages(**conf: object) -> list[list[str]]:
        result = site.build(fresh=True, **conf)
        assert result.statuscode == 0, result.warnings
        blocks = result.soup().select("div[class*=highlight-]")
        return [[c for c in b["class"] if c.startswith("highlight-")] for b in blocks]

    assert languages() == [["highlight-text"], ["highlight-sql"], ["highlight-sql"]]
    assert languages(highlight_language="c") == [["highlight-c"], ["highlight-sql"], ["highlight-sql"]]
