"""What a reader of the rendered Sphinx site sees and follows, in a real browser."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ..processes import run_sphinx
from .conftest import SHOWN

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "html"
    r = run_sphinx("-E", "-q", "-b", "html", str(REPO / "example_site" / "sphinx"), str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_reader_follows_an_excerpt_anchor_and_sees_the_quoted_text(
    browser: object, serve: Callable[[Path], str], example_html: Path, tmp_path: Path
) -> None:
    base = serve(example_html)
    page = browser.new_page(viewport={"width": 1000, "height": 700})  # type: ignore[attr-defined]
    anchor = "txtfrag-src-notes-txt-line-3-6"
    page.goto(f"{base}/index.html#{anchor}")
    excerpt = page.locator(f"#{anchor}")
    assert excerpt.is_visible()
    box = excerpt.bounding_box()
    assert box is not None and -2 <= box["y"] < 700  # scrolled into view (subpixel rounding at the top)
    assert (
        excerpt.locator("pre").inner_text()
        == "Version 1.2 (2026-10-01)\n  * Faster startup.\n  * Fixed the crash when the shelf is empty.\n"
    )
    assert excerpt.locator(".caption-text").inner_text().startswith("src/NOTES.txt, lines 4-6")
    page.screenshot(path=str(tmp_path / "anchor.png"))
    page.close()


def test_reader_clicks_the_permalink_and_the_address_names_the_excerpt(
    browser: object, serve: Callable[[Path], str], example_html: Path
) -> None:
    base = serve(example_html)
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{base}/index.html")
    block = page.locator("div.txtfrag").first
    link = block.locator("a.headerlink")
    assert not link.evaluate(SHOWN)  # shown when the excerpt is pointed at (or the link has the focus)
    block.locator(".code-block-caption").hover()
    page.wait_for_timeout(300)
    assert link.evaluate(SHOWN)
    link.click()
    assert page.url.endswith("#txtfrag-src-inventory-py-line-21-36")
    page.close()


def test_quoted_markup_reaches_the_reader_as_text(browser: object, serve: Callable[[Path], str], example_html: Path) -> None:
    base = serve(example_html)
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{base}/index.html")
    render = page.locator("#txtfrag-src-inventory-py-line-37-40 pre").inner_text()
    assert '"<table>" + "".join(rows) + "</table>"' in render
    assert page.locator("#txtfrag-src-inventory-py-line-37-40 table").count() == 0
    assert page.evaluate("() => document.querySelectorAll('script:not([src])').length") == page.evaluate(
        "() => [...document.querySelectorAll('script:not([src])')].filter(s => !s.textContent.includes('<tr>')).length"
    )
    # line numbers shown are the file's own, and not part of the copied text
    numbers = page.locator("#txtfrag-src-inventory-py-line-21-36 .linenos").all_inner_texts()
    assert [int(n) for n in numbers] == list(range(22, 37))
    page.close()


def test_inline_excerpt_is_rendered_inline(browser: object, serve: Callable[[Path], str], example_html: Path) -> None:
    base = serve(example_html)
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{base}/index.html")
    span = page.locator("span.txtfrag").first
    assert span.locator("code").inner_text() == "こんにちは"
    assert span.evaluate("e => getComputedStyle(e).display") == "inline"
    page.close()
