"""The manual's pictures, taken by this test in the real browser from the example site, so that
they show what a reader sees today: a current excerpt, a stale one with its mark (a build set to warn, a
quoted file edited), and a context page. Each scene is checked as it is taken.

They are written to ``.artifacts/pictures``; ``make pictures`` runs this test with
``TEXTFRAG_PICTURES=docs/_static``, which refreshes the manual's copies."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from ..processes import run_sphinx
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
    r = run_sphinx("-E", "-q", "-b", "html", str(work / "sphinx"), str(out))
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


#: the picture's part after the manual's configuration: once the diagnostics came, the cursor on the
#: first and its whole message shown (Neovim's diagnostic float), then a file says the editor is ready
_SHOW_DIAGNOSTIC = r"""
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  if vim.bo.filetype == "" then vim.bo.filetype = "rst" end -- (setting it again would start the FileType autocmd again)
  local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local first = vim.diagnostic.get(0)[1]
  if first then
    vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
    vim.cmd("normal! zt")
    vim.api.nvim_win_set_cursor(0, { math.max(1, first.lnum - 2), 0 })
    vim.cmd("normal! zt")
    vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
    vim.diagnostic.open_float({ scope = "cursor", border = "single", max_width = 84 })
  end
  local f = io.open(os.getenv("TEXTFRAG_NVIM_READY"), "w")
  f:write(ok and "ok" or "no diagnostics")
  f:close()
end })
"""


def test_the_picture_of_a_stale_reference_in_an_editor(browser: object, tmp_path: Path) -> None:
    """The editor's diagnostic: Neovim, configured as the manual says, in a real terminal (a pseudo-terminal
    read by an emulator), on the example site after its quoted class moved down a line; the screen is
    drawn as HTML and photographed in the browser."""
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("Neovim is required here (apt-get install neovim)")
        pytest.skip("no nvim here (apt-get install neovim)")
    from ..conftest import commit_all, neovim_config
    from .terminal import Terminal

    work = _site(tmp_path, "")
    commit_all(work)
    source = work / "src" / "inventory.py"
    source.write_text("# the inventory of the example site\n" + source.read_text(encoding="utf-8"), encoding="utf-8")
    commit_all(work, "a line above")
    init = tmp_path / "init.lua"
    init.write_text(neovim_config() + _SHOW_DIAGNOSTIC, encoding="utf-8")
    ready = tmp_path / "ready"
    env = dict(os.environ, TEXTFRAG_NVIM_READY=str(ready), PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env["XDG_STATE_HOME"] = env["XDG_DATA_HOME"] = env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")  # (no user's Neovim)
    terminal = Terminal([nvim, "-n", "-i", "NONE", "-u", str(init), "sphinx/index.rst"], work, env, columns=104, rows=22)
    try:
        shown = terminal.read_until(lambda t: ready.exists() and "moved" in t.text(), timeout=120)
        screen = terminal.text()
    finally:
        terminal.close()
    assert shown, f"no diagnostic came ({ready.read_text() if ready.exists() else 'not ready'}):\n{screen}"
    assert ".. txtfrag:: src/inventory.py#line=21,36" in screen  # (the reference, and its diagnostic's message)
    assert "textfrag update" in screen.replace("\n", " ") or "update --write" in screen, screen
    page = tmp_path / "editor.html"
    page.write_text(terminal.html(), encoding="utf-8")
    _shoot(browser, page, "#terminal", "editor-diagnostic.png")


@pytest.mark.parametrize("name", ["excerpt-current.png", "excerpt-stale.png", "context-page.png", "editor-diagnostic.png"])
def test_the_manual_has_each_picture(name: str) -> None:
    """The manual shows the pictures this test takes (``make pictures`` refreshes them)."""
    assert (REPO / "docs" / "_static" / name).stat().st_size > 2000
