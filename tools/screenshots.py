"""Refresh the README's screenshots of the example sites (docs/_static/*.png) in headless Chromium.

    make example && .venv/bin/python tools/screenshots.py

Debian's Chromium (/usr/bin/chromium) through Playwright, as the reader's-view tests use it; the theme
matrix's screenshots (every theme, light and dark, desktop and 390 px) are the test suite's artifacts
(.artifacts/screenshots, tests/browser/test_reader_themes.py).
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
SITES = {
    "sphinx-example.png": REPO / "example_site" / "_build" / "sphinx",
    "mkdocs-example.png": REPO / "example_site" / "_build" / "mkdocs",
}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for name, folder in SITES.items():
            if not (folder / "index.html").exists():
                raise SystemExit(f"{folder} is not built: run `make example` first")
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            page = browser.new_page(viewport={"width": 1200, "height": 1000})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
            page.wait_for_load_state("load")
            page.screenshot(path=str(REPO / "docs" / "_static" / name))
            page.close()
            server.shutdown()
            print(f"docs/_static/{name}")
        browser.close()


if __name__ == "__main__":
    main()
