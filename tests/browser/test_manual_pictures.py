"""The manual's pictures (issue 33), taken by this test in the real browser from the example site, so that
they show what a reader sees today: a current excerpt, a stale one with its mark (a build set to warn, a
quoted file edited), and a context page. Each scene is checked as it is taken.

They are written to ``.artifacts/pictures``; ``make pictures`` runs this test with
``TEXTFRAG_PICTURES=docs/_static``, which refreshes the manual's copies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import SHOWN

REPO = Path(__file__).resolve().parents[2]
PICTURES = Path(os.environ.get("TEXTFRAG_PICTURES") or REPO / ".artifacts" / "pictures")


def _site(tmp: Path, extra: str) -> Path:
    """The example Sphinx site, built with ``extra`` lines in its conf.py."""
    work = tmp / "example_site"
    shutil.copytree(REPO / "example_site", work, ignore=shutil.ignore_patterns("_build", "site"))
    conf = work / "sphinx" / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return work


def _build(work: Path) -> Path:
    out = work / "_build" / "sphinx"
    r = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(work / "sphinx"), str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def _shoot(browser: object, page_path: Path, selector: str, name: str, fragment: str = "") -> Path:
    page = browser.new_page(viewport={"width": 1000, "height": 900}, device_scale_factor=1)  # type: ignore[attr-defined]
    try:
        page.goto(page_path.as_uri() + (f"#{fragment}" if fragment else ""))
        element = page.locator(selector).first
        element.scroll_into_view_if_needed()
        assert element.evaluate(SHOWN), f"{selector} is not shown on {page_path}"
        PICTURES.mkdir(parents=True, exist_ok=True)
        target = PICTURES / name
        element.screenshot(path=str(target))
    finally:
        page.close()
    assert target.stat().st_size > 2000  # (a picture of something, not an empty box)
    return target


def test_the_pictures_of_a_current_and_a_stale_excerpt_and_of_a_context_page(browser: object, tmp_path: Path) -> None:
    current = _build(_site(tmp_path / "current", "textfrag_context_pages = True\n"))
    _shoot(browser, current / "index.html", "div.txtfrag", "excerpt-current.png")
    # the context page the first excerpt links to, at its lines
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((current / "index.html").read_text(encoding="utf-8"), "html.parser")
    link = soup.select_one("a.txtfrag-context-link")
    assert link is not None
    context, _, anchor = str(link["href"]).partition("#")
    assert anchor.startswith("L")  # (#L22-L36: the lines quoted, marked on the file's page)
    _shoot(browser, (current / context).resolve(), ".txtfrag-context", "context-page.png", anchor)
    # a quoted file edited, a build set to warn: the excerpt shows its stale mark with the reason
    work = _site(tmp_path / "stale", "textfrag_on_stale = 'warning'\n")
    source = work / "src" / "inventory.py"
    source.write_text(source.read_text(encoding="utf-8").replace("class Inventory", "class Stock", 1), encoding="utf-8")
    stale = _build(work)
    picture = _shoot(browser, stale / "index.html", "div.txtfrag[data-txtfrag-state=stale]", "excerpt-stale.png")
    assert picture.exists()


@pytest.mark.parametrize("name", ["excerpt-current.png", "excerpt-stale.png", "context-page.png"])
def test_the_manual_has_each_picture(name: str) -> None:
    """The manual shows the pictures this test takes (``make pictures`` refreshes them)."""
    assert (REPO / "docs" / "_static" / name).stat().st_size > 2000
