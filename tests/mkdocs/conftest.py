from __future__ import annotations

import hashlib
import logging
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..conftest import Project
from ..processes import run_mkdocs

APP = "".join(f"line {i}: value_{i} = {i} * 2\n" for i in range(1, 41))


def md5(data: str | bytes) -> str:
    return hashlib.md5(data.encode() if isinstance(data, str) else data).hexdigest()


MATERIAL = """\
site_name: t
theme:
  name: material
markdown_extensions:
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
plugins:
  - textfrag
"""

DEFAULT = """\
site_name: t
markdown_extensions:
  - attr_list
plugins:
  - textfrag
"""


@dataclass
class Result:
    ok: bool
    error: str
    logs: list[logging.LogRecord] = field(default_factory=list)

    @property
    def messages(self) -> list[str]:
        return [r.getMessage() for r in self.logs]


@dataclass
class Site(Project):
    def config(self, text: str) -> None:
        self.write("mkdocs.yml", text)

    def build(self, caplog: pytest.LogCaptureFixture, **overrides: object) -> Result:
        """build(load_config(...)) in this process, as mkdocstrings' tests do."""
        from mkdocs.commands.build import build
        from mkdocs.config import load_config
        from mkdocs.exceptions import MkDocsException

        caplog.clear()
        caplog.set_level(logging.INFO, logger="mkdocs")
        config = load_config(str(self.root / "mkdocs.yml"), **overrides)
        try:
            build(config)
        except MkDocsException as exc:
            return Result(False, str(exc), list(caplog.records))
        return Result(True, "", list(caplog.records))

    def mkdocs(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        return run_mkdocs(*args, cwd=self.root, timeout=300, env=env)

    def soup(self, page: str = "index.html") -> BeautifulSoup:
        return BeautifulSoup((self.root / "site" / page).read_text(encoding="utf-8"), "html.parser")


@pytest.fixture
def site(tmp_path: Path) -> Site:
    s = Site(tmp_path / "project")
    s.config(MATERIAL)
    s.write("src/app.py", APP)
    return s


def excerpt_text(element: object) -> str:
    """The excerpt text of an HTML excerpt element, without a line-number gutter."""
    el = element.select_one("td.code pre") or element.select_one("pre") or element.select_one("code")  # type: ignore[attr-defined]
    for gutter in el.select(".linenos, .filename"):
        gutter.decompose()
    return el.get_text()  # type: ignore[no-any-return]
