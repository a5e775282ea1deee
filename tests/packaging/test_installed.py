"""The package under test is the one users get: the wheel, installed, never the source tree beside the tests."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import sysconfig
from importlib.metadata import distribution
from pathlib import Path

import pytest

from ..conftest import REPO

PACKAGES = (
    "textfrag",
    "sphinx_textfrag",
    "mkdocs_textfrag",
    "markdown_textfrag",
    "myst_textfrag",
    "context_textfrag",
    "mdbook_textfrag",
)


@pytest.mark.parametrize("name", PACKAGES)
def test_the_package_under_test_is_installed_not_the_source_tree(name: str) -> None:
    module = importlib.import_module(name)
    where = Path(module.__file__ or "").resolve()
    assert not where.is_relative_to((REPO / name).resolve()), f"{name} was imported from the source tree: {where}"
    assert where.is_relative_to(Path(sysconfig.get_paths()["purelib"]).resolve())


def test_the_installed_distribution_is_not_editable() -> None:
    direct = distribution("textfrag").read_text("direct_url.json")
    if direct is not None:  # pip records how it installed: an editable install says so
        assert not json.loads(direct).get("dir_info", {}).get("editable", False)


def test_a_subprocess_run_from_the_checkout_also_gets_the_installed_package() -> None:
    code = "import textfrag, sphinx_textfrag, mkdocs_textfrag, markdown_textfrag, myst_textfrag, context_textfrag; print(textfrag.__file__)"
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert not Path(r.stdout.strip()).resolve().is_relative_to((REPO / "textfrag").resolve())
