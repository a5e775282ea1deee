"""What a reader is told when a build goes on with a stale or broken reference:
every excerpt carries ``data-txtfrag-state``; a stale one shows a visible warning with the short reason
(where the quoted text is now, when git history says so); a broken one is the theme's own error
admonition with the problem as the build reported it. Built by the real engines, read in a real browser.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from ..processes import run_mkdocs, run_sphinx
from .conftest import SHOWN

SRC = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(1, 8))


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True)


def stale_project(root: Path) -> tuple[str, str]:
    """A git project whose src/mod.py moved on: (the stale reference, a current one)."""
    (root / "src").mkdir(parents=True)
    (root / "src" / "mod.py").write_text(SRC)
    stale = f"src/mod.py#line=3,6;length={len(SRC)};md5={hashlib.md5(SRC.encode()).hexdigest()}"
    git(root, "init", "-q")
    git(root, "config", "user.email", "t@example.org")
    git(root, "config", "user.name", "T")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    moved = "# a new first line\n" + SRC
    (root / "src" / "mod.py").write_text(moved)
    git(root, "commit", "-qam", "header")
    (root / "src" / "ok.txt").write_text("fine\n")
    current = f"src/ok.txt#line=0,1;length=5;md5={hashlib.md5(b'fine' + bytes([10])).hexdigest()}"
    return stale, current


def sphinx_site(root: Path, theme: str = "alabaster") -> Path:
    stale, current = stale_project(root)
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_on_stale = 'warning'\n"
        "textfrag_source_url = 'https://example.org/{path}#L{first}'\n"
        f"html_theme = {theme!r}\n"
    )
    (docs / "index.rst").write_text(
        f"T\n=\n\n.. txtfrag:: {stale}\n\n.. txtfrag:: {current}\n\n.. txtfrag:: src/gone.py#line=0,1\n\n"
        f"Inline :txtfrag:`{stale}` here, and :txtfrag:`{current.replace('line=0,1', 'char=0,4')}` in a sentence.\n"
    )
    out = root / "html"
    r = run_sphinx("-E", "-q", "-b", "html", str(docs), str(out))
    assert r.returncode != 0 and "no such file: src/gone.py" in r.stderr  # the broken one fails the build
    assert (out / "index.html").exists()
    return out


MKDOCS_THEMES = {
    "mkdocs": "theme:\n  name: mkdocs\n",
    "readthedocs": "theme:\n  name: readthedocs\n",
    "material": "theme:\n  name: material\n",
    "material-dark": "theme:\n  name: material\n  palette:\n    scheme: slate\n",
}


def mkdocs_site(root: Path, theme: str = "material") -> Path:
    stale, current = stale_project(root)
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(
        f"site_name: t\n{MKDOCS_THEMES[theme]}markdown_extensions:\n  - attr_list\n  - admonition\n"
        "  - pymdownx.highlight\n  - pymdownx.superfences\nplugins:\n  - textfrag:\n      on_stale: warning\n"
        "      source_url: https://example.org/{path}#L{first}\n"
    )
    (root / "docs" / "index.md").write_text(
        f"# T\n\n![](txtfrag:{stale})\n\n![](txtfrag:{current})\n\n![](txtfrag:src/gone.py#line=0,1)\n\n"
        f"Inline ![](txtfrag:{stale}) here, and ![](txtfrag:{current.replace('line=0,1', 'char=0,4')}) in a sentence.\n"
    )
    r = run_mkdocs("build", "-q", cwd=root)
    assert r.returncode != 0 and "no such file: src/gone.py" in r.stderr + r.stdout
    assert (root / "site" / "index.html").exists()
    return root / "site"


@pytest.mark.parametrize("engine", ["sphinx", "mkdocs"])
def test_a_reader_sees_which_excerpt_is_stale_and_why_and_what_is_broken(
    engine: str, browser: object, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    site = sphinx_site(tmp_path / "p") if engine == "sphinx" else mkdocs_site(tmp_path / "p")
    page = browser.new_page(viewport={"width": 1000, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"{serve(site)}/index.html")
    states = page.eval_on_selector_all(".txtfrag[data-txtfrag-state]", "els => els.map(e => e.dataset.txtfragState)")
    assert states == ["stale", "current", "stale", "current"]  # blocks, then inline (the broken one is no excerpt)

    stale_block = page.locator("div.txtfrag[data-txtfrag-state=stale]")
    notice = stale_block.locator(".txtfrag-stale")
    assert notice.is_visible()
    said = notice.inner_text()
    assert "Stale excerpt" in said and "src/mod.py changed since this excerpt was verified" in said
    assert "the quoted text is now at lines 5-7; this shows lines 4-6" in said  # from git history
    assert page.locator("div.txtfrag[data-txtfrag-state=current] .txtfrag-stale").count() == 0

    mark = page.locator("span.txtfrag[data-txtfrag-state=stale] .txtfrag-stale-mark")
    assert mark.is_visible() and mark.inner_text().strip() == "stale"
    assert "now at lines 5-7" in (mark.get_attribute("title") or "")

    broken = page.locator(".admonition.txtfrag-error")
    assert broken.is_visible()
    text = broken.inner_text()
    assert "src/gone.py#line=0,1" in text and "no such file: src/gone.py" in text and "index." in text
    page.screenshot(path=str(tmp_path / f"state-{engine}.png"), full_page=True)
    page.close()


@pytest.mark.parametrize("engine", ["sphinx", "mkdocs"])
def test_an_inline_excerpt_takes_no_more_room_than_its_text_and_its_permalink_shows_on_hover(
    engine: str, browser: object, serve: Callable[[Path], str], tmp_path: Path
) -> None:
    site = sphinx_site(tmp_path / "p") if engine == "sphinx" else mkdocs_site(tmp_path / "p")
    page = browser.new_page(viewport={"width": 1000, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"{serve(site)}/index.html")
    inline = page.locator("span.txtfrag[data-txtfrag-state=current]")
    span, code = inline.bounding_box(), inline.locator("code").bounding_box()
    source = inline.locator("a.txtfrag-source").bounding_box()
    assert span is not None and code is not None and source is not None
    assert span["width"] - code["width"] - source["width"] <= 3  # the hidden permalink leaves no gap in the sentence
    link = inline.locator("a.headerlink")
    assert not link.evaluate(SHOWN)
    inline.hover()
    page.wait_for_timeout(300)  # (a theme may fade it in)
    assert link.evaluate(SHOWN)
    page.close()
