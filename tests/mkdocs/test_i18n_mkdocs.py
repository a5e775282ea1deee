"""Captions and labels in the theme's language: Material's ``theme.language`` and the mkdocs
theme's ``locale`` choose textfrag's catalog too."""

from __future__ import annotations

import hashlib

import pytest
from bs4 import BeautifulSoup

from .conftest import Site

SRC = "".join(f"line {i}\n" for i in range(1, 11))


@pytest.mark.parametrize(
    ("theme", "caption", "stale"),
    [
        ("  name: material\n  language: de\n", "src/a.txt, Zeilen 4-6", "Veralteter Auszug"),
        ("  name: mkdocs\n  locale: ja\n", "src/a.txt、4-6 行目", "古くなった抜粋"),
        ("  name: material\n", "src/a.txt, lines 4-6", "Stale excerpt"),
    ],
)
def test_captions_and_labels_follow_the_theme_language(
    site: Site, caplog: pytest.LogCaptureFixture, theme: str, caption: str, stale: str
) -> None:
    site.write("src/a.txt", SRC)
    site.config(
        f"site_name: t\ntheme:\n{theme}markdown_extensions:\n  - attr_list\n  - admonition\n"
        "plugins:\n  - textfrag:\n      on_stale: warning\n"
    )
    pin = f"length={len(SRC)};md5={hashlib.md5(SRC.encode()).hexdigest()}"
    site.write("docs/index.md", f"# T\n\n![](txtfrag:src/a.txt#line=3,6;{pin})\n\n![](txtfrag:src/a.txt#line=0,1;length=1)\n")
    result = site.build(caplog)
    assert result.ok, result.error
    soup = BeautifulSoup((site.root / "site" / "index.html").read_text(encoding="utf-8"), "html.parser")
    blocks = soup.select("div.txtfrag")
    assert blocks[0].select_one(".filename").get_text().replace("¶", "") == caption
    assert blocks[1]["data-txtfrag-state"] == "stale"
    assert blocks[1].select_one(".txtfrag-stale .admonition-title").get_text() == stale
