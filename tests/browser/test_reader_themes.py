"""What readers see, in every theme people use, on a desktop and on a phone (390 px wide): the permalink of
an excerpt shows on hover and on keyboard focus, a stale excerpt shows its mark with the reason, a broken
reference shows its message, an inline excerpt takes no more room than its text, and its source link reads
as one. One site per theme, built by the real engine, read in a real Chromium; a screenshot of each theme
and width is saved (``TEXTFRAG_ARTIFACTS``, default ``.artifacts/screenshots`` in the checkout) for people to
look at.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ..conftest import made_once
from ..processes import run_sphinx
from .conftest import until_shown
from .test_reader_state import MKDOCS_THEMES, mkdocs_site, sphinx_site

SPHINX_THEMES = ["alabaster", "furo", "sphinx_rtd_theme", "pydata_sphinx_theme", "sphinx_book_theme"]
THEMES = [("sphinx", t) for t in SPHINX_THEMES] + [("mkdocs", t) for t in MKDOCS_THEMES]
WIDTHS = {"desktop": (1200, 900), "phone": (390, 844)}
ARTIFACTS = Path(os.environ.get("TEXTFRAG_ARTIFACTS") or Path(__file__).resolve().parents[2] / ".artifacts" / "screenshots")


def assert_permalink_shows_when_asked_for(page: object, block: object, link: object) -> None:
    """A block's permalink: hidden, then shown on hover and on keyboard focus, and pointing at the block."""
    page.mouse.move(0, 0)  # type: ignore[attr-defined]
    until_shown(page, link, False, "the permalink shows before it is asked for")
    block.hover()  # type: ignore[attr-defined]
    until_shown(page, link, True, "hovering the excerpt shows its permalink")  # (themes fade it in)
    page.mouse.move(0, 0)  # type: ignore[attr-defined]
    until_shown(page, link, False, "the permalink stays shown once the pointer has left")  # (so focus is what shows it next)
    link.focus()  # type: ignore[attr-defined]
    until_shown(page, link, True, "a keyboard user reaching the permalink sees it")
    assert link.get_attribute("href") == f"#{block.get_attribute('id')}"  # type: ignore[attr-defined]


class _Sites(dict[tuple[str, str], Path]):
    """Each theme's site, built when a test first asks for it (once in the run: the workers share it)."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        super().__init__()
        self.factory = factory

    def __missing__(self, key: tuple[str, str]) -> Path:
        engine, theme = key
        build = sphinx_site if engine == "sphinx" else mkdocs_site
        self[key] = site = made_once(self.factory, f"site-{engine}-{theme}", lambda root: build(root, theme))
        return site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Each theme's site, built once for every width and every worker of the run."""
    return _Sites(tmp_path_factory)


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize(("engine", "theme"), THEMES, ids=[f"{e}-{t}" for e, t in THEMES])
def test_each_theme_shows_excerpts_their_state_and_their_links(
    engine: str,
    theme: str,
    width: str,
    sites: dict[tuple[str, str], Path],
    browser: object,
    serve: Callable[[Path], str],
) -> None:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})  # type: ignore[attr-defined]
    page.goto(f"{serve(sites[engine, theme])}/index.html")
    page.wait_for_load_state("load")

    # the permalink of a block: hidden, then shown on hover and on keyboard focus
    block = page.locator("div.txtfrag[data-txtfrag-state=current]").first
    link = block.locator("a.headerlink").first
    block.scroll_into_view_if_needed()
    assert_permalink_shows_when_asked_for(page, block, link)

    # a stale excerpt is marked, with the reason; a broken reference says what is wrong
    notice = page.locator("div.txtfrag[data-txtfrag-state=stale] .txtfrag-stale")
    notice.scroll_into_view_if_needed()
    assert notice.is_visible() and "src/mod.py changed since this excerpt was verified" in notice.inner_text()
    broken = page.locator(".txtfrag-error").first
    broken.scroll_into_view_if_needed()
    assert broken.is_visible() and "no such file: src/gone.py" in broken.inner_text()

    # an inline excerpt takes the room of its text, and its hidden permalink none
    inline = page.locator("span.txtfrag[data-txtfrag-state=current]")
    inline.scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    source = inline.locator("a.txtfrag-source")
    span, code, icon = inline.bounding_box(), inline.locator("code").bounding_box(), source.bounding_box()
    assert span is not None and code is not None and icon is not None
    assert span["width"] - code["width"] - icon["width"] <= 3  # the margin before the icon, and nothing more
    # the source link reads as one: an icon, named for screen readers
    assert source.get_attribute("aria-label") == "view source" and source.inner_text().strip() == "\u2197"
    assert source.get_attribute("href") == "https://example.org/src/ok.txt#L1"

    # the excerpt fits the page: nothing wider than the viewport
    assert page.evaluate("document.querySelector('div.txtfrag').getBoundingClientRect().right") <= w + 1

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{engine}-{theme}-{width}.png"), full_page=True)
    page.close()


def _captionless_site(root: Path, theme: str) -> Path:
    """A page with a caption-less txtfrag block and the literalinclude it replaces, in ``theme``."""
    import hashlib

    text = "def f():\n    return 1\n"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text(text)
    pin = f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(f"extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nhtml_theme = {theme!r}\n")
    (docs / "index.rst").write_text(
        "T\n=\n\nBefore.\n\n.. literalinclude:: ../src/a.py\n\nBetween.\n\n"
        f".. txtfrag:: src/a.py#line=0,;{pin}\n   :caption:\n   :language: default\n\nAfter.\n"
    )
    out = root / "html"
    r = run_sphinx("-E", "-q", "-b", "html", str(docs), str(out))
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.parametrize("theme", SPHINX_THEMES)
def test_a_block_without_caption_takes_the_room_literalinclude_takes_and_keeps_its_permalink(
    theme: str, tmp_path: Path, browser: object, serve: Callable[[Path], str]
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    page.set_default_timeout(10_000)
    page.goto(f"{serve(_captionless_site(tmp_path, theme))}/index.html")
    page.wait_for_load_state("load")
    block = page.locator("div.txtfrag").first
    plain = page.locator("div[class*='highlight-']").first  # the literalinclude, before the excerpt
    assert plain.evaluate("e => !e.closest('div.txtfrag')")
    assert page.locator("div.txtfrag .code-block-caption").count() == 0  # no empty bar
    ours, theirs = block.bounding_box(), plain.bounding_box()
    assert ours is not None and theirs is not None
    assert abs(ours["height"] - theirs["height"]) <= 1, (ours, theirs)  # the same room on the page
    link = block.locator("a.headerlink")
    block.scroll_into_view_if_needed()
    assert_permalink_shows_when_asked_for(page, block, link)
    # the permalink sits inside the block, at its corner
    box = link.bounding_box()
    assert box is not None and ours["y"] <= box["y"] <= ours["y"] + ours["height"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"sphinx-{theme}-captionless.png"), full_page=True)
    page.close()
