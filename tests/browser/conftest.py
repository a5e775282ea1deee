"""A real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright; never a downloaded one."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TEXTFRAG_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Chromium's features the tests turn off, on top of those Playwright turns off: the address bar's pop-ups,
#: which Chromium's headless mode still makes for every page as two pages of its own (chrome://omnibox-popup),
#: and which cost the browser tests about 40% of their CPU time while a page is open
DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
_PLAYWRIGHTS: list[str] = []  # the features Playwright turns off (as this worker's first browser was told)


def _feature_switch(playwright: Any) -> str:
    """One ``--disable-features`` with Playwright's features and :data:`DISABLED_FEATURES`. Chromium keeps
    only the last of two such switches, so a second one of ours would turn Playwright's back on: their
    list is read once from what the browser was started with (chrome://version)."""
    if not _PLAYWRIGHTS:
        b = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = b.new_page()
            page.goto("chrome://version")
            started = page.inner_text("#command_line").split()
        finally:
            b.close()
        theirs = [a.split("=", 1)[1] for a in started if a.startswith("--disable-features=")]
        _PLAYWRIGHTS.extend(name for value in theirs[-1:] for name in value.split(",") if name)
        _PLAYWRIGHTS.append("")  # (read: an empty list of theirs is not read again)
    names = dict.fromkeys([*filter(None, _PLAYWRIGHTS), *DISABLED_FEATURES])
    return "--disable-features=" + ",".join(names)


#: whether an element can be seen: displayed, visible, not transparent, with a size (Playwright's
#: ``is_visible`` counts a transparent element as visible)
SHOWN = (
    "e => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();"
    " return s.visibility === 'visible' && s.display !== 'none' && parseFloat(s.opacity) > 0.5 && r.width > 0 && r.height > 0; }"
)


def until_shown(page: object, element: object, shown: bool, message: str, timeout: float = 3000) -> None:
    """Wait until ``element`` is shown (or, with ``shown=False``, hidden) as :data:`SHOWN` judges, looking
    every 25 ms (a theme may fade it in or out), and fail with ``message`` if it never is."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    handle = element.element_handle()  # type: ignore[attr-defined]
    try:
        page.wait_for_function(f"e => ({SHOWN})(e) === {'true' if shown else 'false'}", arg=handle, polling=25, timeout=timeout)  # type: ignore[attr-defined]
    except PlaywrightTimeout:
        raise AssertionError(message) from None


def _missing() -> str | None:
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        return f"no browser at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    return None


@pytest.fixture(scope="module")  # (closed after each module: its event loop must not outlive the browser tests)
def browser() -> Iterator[object]:
    why = _missing()
    if why:
        if os.environ.get("TEXTFRAG_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests are required here but cannot run: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[*FLAGS, _feature_switch(p)], headless=True)
        yield b
        b.close()


@pytest.fixture
def serve() -> Iterator[object]:
    """Serve a folder on a loopback port; returns a function folder -> base URL."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(folder: Path) -> str:
        handler = functools.partial(QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        # (its loop looks for a shutdown every 50 ms: the default half second was most of each test's teardown)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass
