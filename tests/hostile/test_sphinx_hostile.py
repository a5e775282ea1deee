"""Hostile documents in real Sphinx builds: huge numbers, odd digits, non-text charsets, ids (families 3,
5 and 7). Each build runs in a process under a memory limit, as a user's CI would run it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ..processes import run_sphinx
from ..sphinx.conftest import APP, CONF, Site

MEMORY = 2 * 1024 * 1024 * 1024


@pytest.fixture
def site(tmp_path: Path) -> Site:
    s = Site(tmp_path / "project")
    s.write("docs/conf.py", CONF)
    s.write("src/app.py", APP)
    return s


def sphinx_build(site: Site, *args: str) -> subprocess.CompletedProcess[str]:
    return run_sphinx(
        "-E", "-q", "-b", "html", *args, str(site.docs), str(site.docs / "_build" / "html"), timeout=120, memory=MEMORY
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (":emphasize-lines: 1-100000000000", "outside the excerpt"),
        (":emphasize-lines: 3-100000000000", "outside the excerpt"),
        (":emphasize-lines: ²", "digits 0-9"),
        (":emphasize-lines: 3-2", "starts after it ends"),
        (":emphasize-lines: " + "9" * 5000, "at most 100 are accepted"),
        (":dedent: 10000000000000", "would remove text"),
    ],
)
@pytest.mark.parametrize("ref", ["src/app.py#line=1,4", "src/app.py#line(2)line(5)"])  # one piece, and disjoint pieces
def test_hostile_numbers_in_directive_options_are_clear_errors(site: Site, options: str, words: str, ref: str) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {ref}\n   {options}\n")
    r = sphinx_build(site)
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr[-2000:]
    assert r.returncode == 1
    assert "index.rst:4" in r.stderr and words in r.stderr, r.stderr


@pytest.mark.parametrize("codec", ["base64", "rot13", "zlib", "undefined", "hex"])
def test_a_non_text_codec_as_the_sphinx_charset_is_a_configuration_error(site: Site, codec: str) -> None:
    site.write("docs/conf.py", CONF + f"textfrag_charset = {codec!r}\n")
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/app.py#line=0,1\n")
    r = sphinx_build(site)
    # Sphinx's own report of a configuration error (it shows the raising line, never a crash)
    assert "Configuration error!" in r.stderr and "internal error" not in r.stderr, r.stderr[-2000:]
    assert "Traceback (most recent call last)" not in r.stderr
    assert r.returncode != 0
    assert "textfrag_charset: " in r.stderr and "is not a charset" in r.stderr


@pytest.mark.parametrize("codec", ["base64", "rot13"])
def test_a_non_text_codec_in_a_check_is_unverifiable_not_a_crash(site: Site, codec: str) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: src/app.py#line=0,1;md5={'0' * 32},{codec}\n")
    r = sphinx_build(site)
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.returncode == 1 and "cannot be verified" in r.stderr


def test_excerpt_ids_are_unique_beside_sections_and_targets(site: Site) -> None:
    site.page(
        "index.rst",
        "T\n=\n\n.. _txtfrag-src-app-py-line-1-2:\n\ntxtfrag src app py line 0 1\n---------------------------\n\n"
        ".. txtfrag:: src/app.py#line=0,1\n\n.. txtfrag:: src/app.py#line=1,2\n\n"
        "txtfrag src app py line 0 1\n---------------------------\n\nText.\n",
    )
    build = site.build(fresh=True)
    soup = build.soup()
    ids = [el["id"] for el in soup.select("[id]")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(soup.select("div.txtfrag")) == 2
