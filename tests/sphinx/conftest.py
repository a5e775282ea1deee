from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp

from ..conftest import Project
from ..processes import run_sphinx

APP = "".join(f"line {i}: value_{i} = {i} * 2\n" for i in range(1, 41))


def md5(data: str | bytes) -> str:
    return hashlib.md5(data.encode() if isinstance(data, str) else data).hexdigest()


@dataclass
class Site(Project):
    """A Sphinx project in a temporary folder: sources under src/, documents beside conf.py."""

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def build(self, builder: str = "html", *, fresh: bool = False, **overrides: object) -> Build:
        status, warning = StringIO(), StringIO()
        app = SphinxTestApp(
            builder,
            srcdir=self.docs,
            builddir=self.docs / "_build",
            freshenv=fresh,
            confoverrides=overrides or None,
            status=status,
            warning=warning,
        )
        try:
            app.build()
        finally:
            app.cleanup()
        return Build(app.statuscode, warning.getvalue(), status.getvalue(), Path(app.outdir))

    def sphinx_build(self, *args: str, builder: str = "html") -> subprocess.CompletedProcess[str]:
        out = self.docs / "_build" / builder
        return run_sphinx("-b", builder, *args, str(self.docs), str(out), timeout=300)


@dataclass
class Build:
    statuscode: int
    warnings: str
    status: str
    outdir: Path

    def soup(self, page: str = "index") -> BeautifulSoup:
        return BeautifulSoup((self.outdir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


CONF = """\
extensions = ["sphinx_textfrag", "myst_parser"]
textfrag_root = ".."
exclude_patterns = ["_build"]
"""


@pytest.fixture
def site(tmp_path: Path) -> Site:
    s = Site(tmp_path / "project")
    s.write("docs/conf.py", CONF)
    s.write("src/app.py", APP)
    return s


@pytest.fixture
def excerpt_text() -> Callable[[object], str]:
    def text(element: object) -> str:
        """The excerpt text of an HTML excerpt element, without a line-number gutter."""
        el = element.select_one("pre") or element.select_one("code")  # type: ignore[attr-defined]
        for gutter in el.select(".linenos"):
            gutter.decompose()
        return el.get_text()  # type: ignore[no-any-return]

    return text
