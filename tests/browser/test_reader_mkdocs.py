"""What a reader of the rendered MkDocs site (Material) sees and follows, in a real browser."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ..processes import run_mkdocs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mkdocs") / "site"
    r = run_mkdocs(
        "build", "-q", "-d", str(out), cwd=REPO / "example_site" / "mkdocs", env=dict(os.environ, NO_MKDOCS_2_WARNING="1")
    )
    assert r.returncode == 0, r.stderr
    return out


def test_reader_follows_a_verified_link_to_the_excerpt(browser: object, serve: Callable[[Path], str], example_site: Path) -> None:
    base = serve(example_site)
    page = browser.new_page(viewport={"width": 1100, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{base}/index.html")
    page.mouse.wheel(0, 3000)
    page.get_by_text("verified link to the class above").click()
    assert page.url.endswith("#txtfrag-src-inventory-py-line-21-36")
    box = page.locator("#txtfrag-src-inventory-py-line-21-36").bounding_box()
    assert box is not None and -5 <= box["y"] < 800
    code = page.locator("#txtfrag-src-inventory-py-line-21-36 td.code pre").inner_text()
    assert code.startswith("class Inventory:\n")
    numbers = page.locator("#txtfrag-src-inventory-py-line-21-36 .linenos").inner_text().split()
    assert numbers == [str(n) for n in range(22, 37)]
    page.close()


def test_reader_sees_quoted_markup_as_text_and_the_permalink_on_hover(
    browser: object, serve: Callable[[Path], str], example_site: Path
) -> None:
    base = serve(example_site)
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{base}/index.html")
    block = page.locator("#txtfrag-src-inventory-py-line-37-40")
    assert '"<table>" + "".join(rows) + "</table>"' in block.locator("pre").inner_text()
    assert block.locator("table").count() == 0
    link = block.locator(".filename a.headerlink")
    assert link.evaluate("e => getComputedStyle(e).opacity") == "0"
    block.locator(".filename").hover()
    page.wait_for_timeout(300)
    assert float(link.evaluate("e => getComputedStyle(e).opacity")) > 0.9
    link.click()
    assert page.url.endswith("#txtfrag-src-inventory-py-line-37-40")
    page.close()


@pytest.mark.parametrize("width", [390, 1000])
def test_excerpts_sit_where_material_puts_its_own_code_blocks(
    browser: object, serve: Callable[[Path], str], tmp_path: Path, width: int
) -> None:
    """On a phone Material runs code blocks edge to edge; on a desktop they are inset: an excerpt, with or
    without a title, sits exactly where the same fence would."""
    import hashlib

    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    text = "x = 1\ny = 2\n"
    (tmp_path / "src" / "a.py").write_text(text)
    ref = f"src/a.py#line=0,;length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: material\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.highlight\n"
        "  - pymdownx.superfences\nplugins:\n  - textfrag\n"
    )
    (tmp_path / "docs" / "index.md").write_text(
        f'# T\n\n```python\n{text}```\n\n![](txtfrag:{ref}){{ .python title="" }}\n\n'
        f'```python title="a.py"\n{text}```\n\n![](txtfrag:{ref}){{ .python title="a.py" }}\n'
    )
    r = run_mkdocs("build", "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = browser.new_page(viewport={"width": width, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"{serve(tmp_path / 'site')}/index.html")
    boxes = page.eval_on_selector_all(
        "article div.highlight", "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert len(boxes) == 4
    fence, excerpt, titled_fence, titled_excerpt = boxes
    assert excerpt == pytest.approx(fence, abs=0.5) and titled_excerpt == pytest.approx(titled_fence, abs=0.5)
    if width == 390:
        assert fence == pytest.approx([0, 390], abs=0.5)  # edge to edge, as Material draws a fence there
    page.close()


def test_without_a_highlighter_numbered_and_plain_excerpts_look_alike(
    browser: object, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    """The mkdocs theme with no highlighter configured: an excerpt with line numbers and one without have
    the same font, size, colours and background (they used to differ on one page)."""
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: mkdocs\nmarkdown_extensions:\n  - attr_list\nplugins:\n  - textfrag\n"
    )
    (root / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/app.py#line=0,2)\n\n![](txtfrag:src/app.py#line=0,2){ linenums }\n", encoding="utf-8"
    )
    r = run_mkdocs("build", "-q", cwd=root)
    assert r.returncode == 0, r.stderr
    page = browser.new_page(viewport={"width": 1100, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{serve(root / 'site')}/index.html")
    look = (
        "els => els.map(e => { const pre = e.querySelector('td.code pre') || e.querySelector('pre'); const kw = pre.querySelector('.k');"
        " const s = getComputedStyle(pre); return [s.fontFamily, s.fontSize, s.backgroundColor, s.color,"
        " kw ? getComputedStyle(kw).color : null]; })"
    )
    plain, numbered = page.eval_on_selector_all("div.txtfrag", look)
    assert plain == numbered and plain[4] is not None  # the keyword is coloured, alike in both
    page.close()


def test_a_numbered_excerpt_with_a_title_has_a_line_number_column_as_narrow_as_a_fences(
    browser: object, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    """MkDocs' own theme with pymdownx.highlight, line numbers and a title: the numbers'
    column of an excerpt is as narrow as a fence's with the same title (the plugin's CSS made the title's
    th a block, and the column 185 px wide)."""
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("".join(f"value_line = {i}\n" for i in range(1, 31)), encoding="utf-8")
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: mkdocs\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.highlight\n"
        "  - pymdownx.superfences\nplugins:\n  - textfrag\n"
    )
    title = "A title that is rather long for a block"
    fence = "".join(f"value_line = {i}\n" for i in range(4, 9))
    (root / "docs" / "index.md").write_text(
        f'# T\n\n![](txtfrag:src/app.py#line=3,8){{ linenums title="{title}" }}\n\n```python linenums="4" title="{title}"\n{fence}```\n',
        encoding="utf-8",
    )
    r = run_mkdocs("build", "-q", cwd=root)
    assert r.returncode == 0, r.stderr
    page = browser.new_page(viewport={"width": 1200, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{serve(root / 'site')}/index.html")
    excerpt, fenced = page.eval_on_selector_all("td.linenos", "els => els.map(e => e.getBoundingClientRect().width)")
    assert excerpt < 60 and abs(excerpt - fenced) <= 3, (excerpt, fenced)
    page.close()
