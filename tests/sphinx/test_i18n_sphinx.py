"""Captions and labels in the project's language, through Sphinx's i18n: a build with
``language = 'de'`` or ``'ja'`` shows them translated; text output prints the source URL, never a label
that leads nowhere."""

from __future__ import annotations

import pytest

from ..processes import run_sphinx
from .conftest import Site, md5

SRC = "".join(f"line {i}\n" for i in range(1, 11))


@pytest.mark.parametrize(
    ("language", "caption", "link", "stale"),
    [
        ("de", "src/a.txt, Zeilen 4-6", "Quelltext ansehen", "Veralteter Auszug"),
        ("ja", "src/a.txt、4-6 行目", "ソースを表示", "古くなった抜粋"),
        ("en", "src/a.txt, lines 4-6", "view source", "Stale excerpt"),
    ],
)
def test_captions_and_labels_follow_the_project_language(site: Site, language: str, caption: str, link: str, stale: str) -> None:
    site.write("src/a.txt", SRC)
    site.write(
        "docs/conf.py",
        (site.docs / "conf.py").read_text()
        + f"language = {language!r}\ntextfrag_on_stale = 'warning'\ntextfrag_source_url = 'https://example.org/{{path}}#L{{first}}'\n",
    )
    pin = f"length={len(SRC)};md5={md5(SRC)}"
    site.page(
        "index.rst", f"T\n=\n\n.. txtfrag:: src/a.txt#line=3,6;{pin}\n\n.. txtfrag:: src/a.txt#line=0,1;length=1;md5={'0' * 32}\n"
    )
    result = site.build(fresh=True)
    soup = result.soup()
    blocks = soup.select("div.txtfrag")
    assert blocks[0].select_one(".caption-text").get_text().startswith(caption + " ")
    assert blocks[0].select_one("a.txtfrag-source").get_text() == link
    assert blocks[1]["data-txtfrag-state"] == "stale"
    assert blocks[1].select_one(".txtfrag-stale .admonition-title").get_text() == stale

    text = run_sphinx("-E", "-q", "-b", "text", str(site.docs), str(site.docs / "_build" / "text"))
    assert (site.docs / "_build" / "text" / "index.txt").exists(), text.stderr
    out = (site.docs / "_build" / "text" / "index.txt").read_text(encoding="utf-8")
    assert "https://example.org/src/a.txt#L4" in out and link not in out, text.stderr
