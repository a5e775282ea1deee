"""A real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright; never a downloaded one."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

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


#: whether an element can be seen: displayed, visible, not transparent, with a size (Playwright's
#: ``is_visible`` counts a transparent element as visible)
SHOWN = (
    "e => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();"
    " return s.visibility === 'visible' && s.display !== 'none' && parseFloat(s.opacity) > 0.5 && r.width > 0 && r.height > 0; }"
)


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
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def serve() -> Iterator[object]:
    """Serve a folder on a loopback port; returns a function folder -> base URL."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(folder: Path) -> str:
        handler = functools.partial(QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass
