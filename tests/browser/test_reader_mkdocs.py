"""What a reader of the rendered MkDocs site (Material) sees and follows, in a real browser."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mkdocs") / "site"
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)],
        cwd=REPO / "example_site" / "mkdocs",
        capture_output=True,
        text=True,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
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
