"""Context pages (``textfrag_context_pages`` / ``context_pages``): each quoted file gets one highlighted page
with an anchor per line and every quoted range marked; an excerpt links "in context" to its lines there; on
that page RFC 5147 fragments (``#line=10,20``, ``#char=...``) and GitHub's (``#L11-L20``) scroll to the range
and highlight it, with no request leaving the site. Built by both engines, read in Chromium."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ..processes import run_mkdocs, run_sphinx

SRC = "".join(f"value_{n} = {n}  # line {n}\n" for n in range(1, 81))
PAGE_PATH = "_textfrag/src/app.py.html"


def _project(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(SRC, encoding="utf-8")


def sphinx_site(root: Path) -> Path:
    _project(root)
    docs = root / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_context_pages = True\n", encoding="utf-8"
    )
    (docs / "index.rst").write_text(
        "T\n=\n\n.. toctree::\n\n   sub/page\n\n.. txtfrag:: src/app.py#line=30,40\n\n.. txtfrag:: src/app.py#line=4,6\n\n"
        "Inline :txtfrag:`src/app.py#line=49,50` here.\n",
        encoding="utf-8",
    )
    (docs / "sub" / "page.rst").write_text("Sub\n===\n\n.. txtfrag:: src/app.py#line=59,60\n", encoding="utf-8")
    out = root / "html"
    r = run_sphinx("-q", "-b", "html", str(docs), str(out))
    assert r.returncode == 0, r.stderr
    return out


def mkdocs_site(root: Path) -> Path:
    _project(root)
    (root / "docs" / "sub").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        "site_name: t\ntheme:\n  name: material\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.highlight\n"
        "  - pymdownx.superfences\nplugins:\n  - textfrag:\n      context_pages: true\n",
        encoding="utf-8",
    )
    (root / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/app.py#line=30,40)\n\n![](txtfrag:src/app.py#line=4,6)\n\n"
        "Inline ![](txtfrag:src/app.py#line=49,50) here.\n",
        encoding="utf-8",
    )
    (root / "docs" / "sub" / "page.md").write_text("# Sub\n\n![](txtfrag:src/app.py#line=59,60)\n", encoding="utf-8")
    r = run_mkdocs("build", "-q", cwd=root)
    assert r.returncode == 0, r.stderr
    return root / "site"


BUILD = {"sphinx": sphinx_site, "mkdocs": mkdocs_site}


def _targets(page: object) -> list[int]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined,no-any-return]
        ".txtfrag-context .line.target", "els => els.map(e => +e.id.slice(1))"
    )


def _in_view(page: object, n: int) -> bool:
    box = page.locator(f"#L{n}").bounding_box()  # type: ignore[attr-defined]
    height = page.viewport_size["height"]  # type: ignore[attr-defined]
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


@pytest.mark.parametrize("engine", ["sphinx", "mkdocs"])
def test_an_excerpt_opens_its_lines_in_context_and_fragment_urls_work(
    engine: str, browser: object, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    site = BUILD[engine](tmp_path / "p")
    assert (site / PAGE_PATH).is_file()
    base = serve(site)
    page = browser.new_page(viewport={"width": 1000, "height": 600})  # type: ignore[attr-defined]
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{base}/index.html")
    link = page.locator("div.txtfrag a.txtfrag-context-link").first
    assert link.inner_text().strip() == "in context"
    link.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"{PAGE_PATH}#L31-L40")
    assert _targets(page) == list(range(31, 41))
    assert _in_view(page, 31) and _in_view(page, 40)
    # every quoted range is marked, from every page of the site
    quoted = page.eval_on_selector_all(".txtfrag-context .line.quoted", "els => els.map(e => +e.id.slice(1))")
    assert quoted == [5, 6, *range(31, 41), 50, 60]

    # RFC 5147 fragments work in the browser: line positions, and character positions
    page.goto("about:blank")
    requests.clear()  # (the site's theme may fetch fonts; the context page fetches nothing but itself)
    page.goto(f"{base}/{PAGE_PATH}#line=10,20")
    assert _targets(page) == list(range(11, 21)) and _in_view(page, 11) and _in_view(page, 20)
    start = len("".join(SRC.splitlines(keepends=True)[:69]))  # the first character of line 70
    page.goto(f"{base}/{PAGE_PATH}#char={start},{start + 5};length={len(SRC)}")
    assert _targets(page) == [70] and _in_view(page, 70)
    page.goto(f"{base}/{PAGE_PATH}#L75")
    assert _targets(page) == [75] and _in_view(page, 75)
    assert requests == [f"{base}/{PAGE_PATH}"], "the page makes no request of its own"
    # an inline excerpt links to its line by an icon named for screen readers
    page.goto(f"{base}/index.html")
    icon = page.locator("span.txtfrag a.txtfrag-context-link")
    assert icon.get_attribute("aria-label") == "in context" and icon.inner_text().strip() == "\u2922"
    icon.click()
    page.wait_for_load_state("load")
    assert _targets(page) == [50]
    # the page from a page in a subfolder
    page.goto(f"{base}/sub/{'page.html' if engine == 'sphinx' else 'page/'}")
    page.locator("a.txtfrag-context-link").first.click()
    page.wait_for_load_state("load")
    assert _targets(page) == [60]
    page.close()


def test_a_context_page_is_rewritten_only_when_what_it_shows_changed(tmp_path: Path) -> None:
    site = sphinx_site(tmp_path / "p")
    page = site / PAGE_PATH
    before = page.stat().st_mtime_ns
    docs = tmp_path / "p" / "docs"
    again = run_sphinx("-q", "-b", "html", str(docs), str(site))
    assert again.returncode == 0 and page.stat().st_mtime_ns == before
    (tmp_path / "p" / "src" / "app.py").write_text(SRC.replace("line 35", "line thirty-five"), encoding="utf-8")
    third = run_sphinx("-q", "-b", "html", str(docs), str(site))
    assert third.returncode == 0 and page.stat().st_mtime_ns != before
    assert "thirty-five" in page.read_text(encoding="utf-8")


def test_an_e_book_gets_no_context_pages_nor_links_to_them(tmp_path: Path) -> None:
    """An EPUB lists its files: pages outside its manifest would be links to nothing in a reader."""
    sphinx_site(tmp_path / "p")
    docs, out = tmp_path / "p" / "docs", tmp_path / "epub"
    r = run_sphinx("-q", "-b", "epub", str(docs), str(out))
    assert r.returncode == 0, r.stderr
    assert not (out / "_textfrag").exists()
    assert "txtfrag-context-link" not in (out / "index.xhtml").read_text(encoding="utf-8")
