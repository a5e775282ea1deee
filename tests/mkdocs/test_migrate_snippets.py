"""``textfrag migrate`` of pymdownx.snippets: a code fence that holds one snippet becomes a
txtfrag image; the site built before and after shows, block by block, the same text, line numbers,
emphasized lines, title and highlighting (the lexer's token classes). What cannot look the same is
listed and left as it is."""

from __future__ import annotations

import io

import pytest
from bs4 import BeautifulSoup, Tag

from .conftest import Site

CONFIG = """\
site_name: t
theme:
  name: material
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: [snippets]
plugins:
  - textfrag
"""

MODULE = "import os\n\n\ndef one():\n    return 1\n\n\ndef two():\n    return 2\n"
SECTIONS = "x = 0\n# --8<-- [start:one]\n\ndef one():\n    return 1\n\n# --8<-- [end:one]\ny = 1\n"
PADDED = "\n\n  value = 1\n  other = 2\n\n   \n"
SPACES = "a = 1\n    \nb = 2\n"

PAGE = """\
# Snippets

```python title="mod.py" hl_lines="2 4 30" linenums="1"
--8<-- "mod.py"
```
Text right after the fence.

```python
--8<-- "mod.py:4:5"
```

```py linenums="10"
--8<-- "mod.py:8"
```

!!! note "In a container"

    ```python
    --8<-- "sections.py:one"
    ```

```
--8<-- "padded.txt"
```

```python
--8<--
mod.py
--8<--
```

```python
--8<-- "mod.py"
--8<-- "padded.txt"
```

```python
--8<-- "spaces.py"
```

``` { .python .annotate }
--8<-- "mod.py:4:5"
```

````markdown
```python
--8<-- "mod.py"
```
````
"""


def _blocks(soup: BeautifulSoup) -> list[dict[str, object]]:
    article = soup.select_one("article")
    assert article is not None
    out = []
    for pre in article.select("pre"):
        if pre.find_parent(class_="linenodiv") or pre.find_parent(class_="linenos"):
            continue
        highlight = pre.find_parent(class_="highlight")
        assert isinstance(highlight, Tag)
        block = highlight.find_parent(class_="txtfrag") or highlight
        numbers = [n.get_text() for n in block.select(".linenodiv .normal, .linenos .normal")]
        title = block.select_one(".filename")
        out.append(
            {
                "text": pre.get_text(),
                "numbers": numbers,
                "emphasized": [h.get_text() for h in pre.select(".hll")],
                "title": title.get_text().replace("¶", "") if title is not None else "",
                "tokens": [tuple(s.get("class", [])) for s in pre.select("code span") if s.get("class") != ["hll"]],
            }
        )
    return out


def test_snippet_fences_become_txtfrag_images_that_show_the_same(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textfrag.cli import main

    monkeypatch.chdir(site.root)  # where mkdocs runs, and where snippets' base_path starts

    site.config(CONFIG)
    site.write("snippets/mod.py", MODULE)
    site.write("snippets/sections.py", SECTIONS)
    site.write("snippets/padded.txt", PADDED)
    site.write("snippets/spaces.py", SPACES)
    site.write("docs/index.md", PAGE)
    before = site.build(caplog)
    assert before.ok, before.error
    expected = _blocks(BeautifulSoup((site.root / "site" / "index.html").read_text(), "html.parser"))

    err = io.StringIO()
    code = main(
        ["migrate", "--config", str(site.root / "mkdocs.yml"), "--write", str(site.root / "docs")],
        stdout=io.StringIO(),
        stderr=err,
    )
    report = err.getvalue()
    assert code == 0, report
    # (the snippet in the ```` fence is expanded too: snippets are read before fences; it is left, with text around it)
    assert "textfrag migrate: 10 includes: converted 6 in 1 document; 4 left as they are" in report
    assert "the fence has the class .annotate, which an excerpt does not carry (Material's code annotations" in report
    assert "snippet spaces.py: left as it is: line 2 of the file has only spaces" in report
    assert "snippet (several): left as it is: the fence holds more than one include" in report
    assert 'hl_lines="2 4 30": line 30 is past the end of the excerpt (9 lines); pymdownx ignores it, so it is dropped' in report
    page = (site.root / "docs" / "index.md").read_text()
    assert page.count("![](txtfrag:") == 6
    assert "![](txtfrag:snippets/mod.py#line=0,;length=" in page  # the whole file, open to the end
    assert "![](txtfrag:snippets/mod.py#line=7,;length=" in page  # "mod.py:8": line 8 to the end, as it grows
    assert 'section="one"' in page  # the intent stays beside the pin
    assert '````markdown\n```python\n--8<-- "mod.py"\n```\n````' in page

    after = site.build(caplog)
    assert after.ok, after.error
    blocks = _blocks(BeautifulSoup((site.root / "site" / "index.html").read_text(), "html.parser"))
    assert len(blocks) == len(expected)
    for i, (old, new) in enumerate(zip(expected, blocks, strict=True)):
        assert new == old, f"block {i}"

    # pinned: check passes now and fails once a quoted file changes
    conf = str(site.root / "mkdocs.yml")
    assert main(["check", "--config", conf, str(site.root / "docs")], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    site.write("snippets/mod.py", MODULE.replace("return 1", "return 10"))
    assert main(["check", "--config", conf, str(site.root / "docs")], stdout=io.StringIO(), stderr=io.StringIO()) == 1


def test_a_section_intent_must_agree_with_the_pin(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    from textfrag import Source
    from textfrag.reference.selection import select_lines
    from textfrag.verdict.quoting import make_reference

    site.config(CONFIG)
    site.write("snippets/sections.py", SECTIONS)
    ref = make_reference(select_lines(Source("snippets/sections.py", SECTIONS.encode()), 1, 2), lines=True)
    site.write("docs/index.md", f'# T\n\n![](txtfrag:{ref}){{ .python section="one" }}\n')
    result = site.build(caplog)
    assert not result.ok
    assert any("the reference pins lines 1-2, but :section: one selects lines 4-5" in m for m in result.messages), result.messages


INCLUDE_CONFIG = """\
site_name: t
theme:
  name: material
markdown_extensions:
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - markdown_include.include:
      base_path: snippets
plugins:
  - textfrag
"""

INCLUDE_PAGE = """\
# markdown-include

```python hl_lines="2"
{!mod.py!}
```

```python title="two lines"
{!mod.py!lines=4-5}
```

```python
{!mod.py!lines=1 4-5}
```
"""


def test_markdown_include_fences_become_txtfrag_images_that_show_the_same(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textfrag.cli import main

    monkeypatch.chdir(site.root)  # markdown-include's base_path starts where mkdocs runs
    site.config(INCLUDE_CONFIG)
    site.write("snippets/mod.py", MODULE)
    site.write("docs/index.md", INCLUDE_PAGE)
    before = site.build(caplog)
    assert before.ok, before.error
    expected = _blocks(BeautifulSoup((site.root / "site" / "index.html").read_text(), "html.parser"))
    err = io.StringIO()
    code = main(["migrate", "--write", "docs"], stdout=io.StringIO(), stderr=err)
    assert code == 0, err.getvalue()
    assert "textfrag migrate: 3 includes: converted 2 in 1 document; 1 left as they are" in err.getvalue()
    assert "several line ranges" in err.getvalue()
    page = (site.root / "docs" / "index.md").read_text()
    assert page.count("![](txtfrag:snippets/mod.py#") == 2 and "{!mod.py!lines=1 4-5}" in page
    after = site.build(caplog)
    assert after.ok, after.error
    blocks = _blocks(BeautifulSoup((site.root / "site" / "index.html").read_text(), "html.parser"))
    assert blocks == expected


HIGHLIGHT_OPTIONS = [
    "line_spans: __span\n      anchor_linenums: true\n      pygments_lang_class: true",
    "linenums_style: pymdownx-inline\n      line_spans: __span",
    "linenums_style: inline\n      pygments_lang_class: true",
]


@pytest.mark.parametrize("options", HIGHLIGHT_OPTIONS)
def test_pymdownx_highlight_options_draw_the_same_markup(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, options: str
) -> None:
    """line_spans, anchor_linenums, pygments_lang_class and linenums_style: a migrated block is drawn by
    pymdownx's own highlighter with the site's options, so its markup is the fence's (ids aside, which
    are unique per block)."""
    import re

    from textfrag.cli import main

    monkeypatch.chdir(site.root)
    site.config(CONFIG.replace("  - pymdownx.highlight\n", f"  - pymdownx.highlight:\n      {options}\n"))
    site.write("snippets/mod.py", MODULE)
    site.write(
        "docs/index.md",
        '# H\n\n```python title="mod.py" hl_lines="2" linenums="1"\n--8<-- "mod.py"\n```\n\n'
        '```python linenums="4"\n--8<-- "mod.py:4:5"\n```\n\n```python\n--8<-- "mod.py:8:9"\n```\n',
    )

    def drawn() -> list[str]:
        soup = BeautifulSoup((site.root / "site" / "index.html").read_text(), "html.parser")
        out = []
        for block in soup.select("article div.highlight"):
            for link in block.select(".filename a"):
                link.decompose()  # textfrag's permalink in the title
            html = re.sub(r'((?:__span|__codelineno)-)[^"#]*?-(\d+)(["])', r"\1N-\2\3", str(block))
            out.append(html.replace('<span class="filename">mod.py</span>', "TITLE"))
        return out

    before = site.build(caplog)
    assert before.ok, before.error
    expected = drawn()
    assert len(expected) == 3
    assert (
        main(
            ["migrate", "--config", str(site.root / "mkdocs.yml"), "--write", str(site.root / "docs")],
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        == 0
    )
    assert (site.root / "docs" / "index.md").read_text().count("![](txtfrag:") == 3
    after = site.build(caplog)
    assert after.ok, after.error
    assert drawn() == expected


def test_escaped_snippets_and_section_markers_in_a_page_are_text_not_includes() -> None:
    """``;--8<--`` is shown as ``--8<--`` by pymdownx.snippets, and a section's markers mean something only
    in an included file: neither is an include to convert or to report (pymdown-extensions' own docs)."""
    from textfrag.migrate.snippets import find_snippet_fences

    page = (
        '```\n;--8<-- "include.md:name"\n\n;--8<--\ninclude.md:name\n;--8<--\n```\n\n'
        "```python\n# --8<-- [start:func]\ndef f():\n    pass\n# --8<-- [end:func]\n```\n\n"
        '```python\n--8<-- "mod.py"\n```\n'
    )
    found = find_snippet_fences(page, "index.md")
    assert [(f.line, f.argument) for f in found] == [(16, "mod.py")]


def test_migrate_refuses_where_attr_list_is_off_and_the_build_flags_an_unread_attribute_list(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without attr_list, a migrated block would render as inline code and literal braces
    while the build passes; migrate says so and writes nothing, and a build flags such an image."""
    from textfrag.cli import main

    monkeypatch.chdir(site.root)
    site.config(CONFIG.replace("  - attr_list\n", ""))
    site.write("snippets/mod.py", MODULE)
    site.write("docs/index.md", '# T\n\n```python\n--8<-- "mod.py:4:5"\n```\n')
    err = io.StringIO()
    assert main(["migrate", "--write", "docs"], stdout=io.StringIO(), stderr=err) == 0
    assert "does not enable attr_list, which reads the txtfrag image's attributes" in err.getvalue()
    assert "0 left as they are" not in err.getvalue() and "1 left as they are" in err.getvalue()
    assert "--8<--" in (site.root / "docs" / "index.md").read_text()  # unchanged
    site.write("docs/index.md", "# T\n\n![](txtfrag:snippets/mod.py#line=3,5){ .python }\n")
    built = site.build(caplog)
    assert not built.ok
    assert any(
        "the attribute list after this image is not read" in m and "enable attr_list" in m and m.startswith("index.md:3: ")
        for m in built.messages
    )
