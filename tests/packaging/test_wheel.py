"""What users install: the wheel and the sdist that `make test` built (TEXTFRAG_DIST), or built here.

Every file of the source packages is in the wheel (a missing subpackage once crashed half the syntax
once installed); the sdist builds the same wheel; the metadata says what the manual tells people.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
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
    "lsp_textfrag",
    "mdbook_textfrag",
    "mcp_textfrag",
)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("TEXTFRAG_DIST")
    if given:
        return Path(given)
    pytest.fail("TEXTFRAG_DIST names no folder: run the suite with `make test`, which builds the wheel it installs")


def _one(folder: Path, pattern: str) -> Path:
    [found] = folder.glob(pattern)
    return found


@pytest.fixture(scope="session")
def wheel(dist: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(_one(dist, "textfrag-*.whl"))


def source_files() -> list[str]:
    """Every file under the source packages, as a path relative to the checkout (caches left out)."""
    files = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append(path.relative_to(REPO).as_posix())
    return files


def test_every_file_of_the_source_packages_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    files = source_files()
    assert "textfrag/reference/dialects/wilde.py" in files and "sphinx_textfrag/static/textfrag.css" in files
    missing = sorted(set(files) - set(wheel.namelist()))
    assert not missing, f"not in the wheel: {missing}"


def test_the_wheel_holds_nothing_but_the_packages_and_its_metadata(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert tops == {*PACKAGES, next(t for t in tops if t.endswith(".dist-info"))}


def test_every_module_is_importable_from_the_wheel_as_installed() -> None:
    import importlib
    import pkgutil

    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if not info.name.endswith(".__main__"):  # that one runs the command line
                importlib.import_module(info.name)


def test_metadata_license_urls_and_extras(wheel: zipfile.ZipFile) -> None:
    meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel.read(meta_name).decode("utf-8"))
    assert meta["License-Expression"] == "MIT"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel.namelist())
    assert meta.get_all("Project-URL")
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"sphinx", "mkdocs", "myst", "test"} <= extras
    import textfrag

    assert meta["Version"] == textfrag.__version__


def test_the_makefile_builds_and_lints_every_package() -> None:
    """The Makefile's PACKAGES (what a change to rebuilds the wheel, what the linters read) are the wheel's."""
    [line] = [x for x in (REPO / "Makefile").read_text(encoding="utf-8").splitlines() if x.startswith("PACKAGES :=")]
    assert sorted(line.split(":=", 1)[1].split()) == sorted(PACKAGES)


def test_twine_accepts_the_sdist_and_the_wheel_as_the_release_uploads_them(dist: Path) -> None:
    """What the release workflow runs before it publishes (``twine check --strict``): the metadata and the
    README PyPI renders."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "twine",
            "check",
            "--strict",
            str(_one(dist, "textfrag-*.whl")),
            str(_one(dist, "textfrag-*.tar.gz")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and r.stdout.count("PASSED") == 2, r.stdout + r.stderr


def _extra(wheel: zipfile.ZipFile, extra: str) -> set[str]:
    meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel.read(meta_name).decode("utf-8"))
    names = set()
    for req in meta.get_all("Requires-Dist") or []:
        if f'extra == "{extra}"' in req:
            names.add(re.split(r"[<>=!~ ;\[]", req, maxsplit=1)[0].lower())
    return names


def test_the_mkdocs_extra_installs_what_the_manuals_configuration_uses(wheel: zipfile.ZipFile) -> None:
    readme = (REPO / "docs" / "reference" / "mkdocs.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n# mkdocs.yml\n(.*?)```", readme, re.DOTALL)
    assert block is not None
    used = set(re.findall(r"\b(pymdownx)\.\w+", block.group(1)))
    needs = {"pymdownx": "pymdown-extensions"}
    assert {needs[u] for u in used} | {"mkdocs", "pygments"} <= _extra(wheel, "mkdocs")


def test_the_sdist_holds_the_license_readme_and_every_package_file(dist: Path) -> None:
    with tarfile.open(_one(dist, "textfrag-*.tar.gz")) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "pyproject.toml"} <= names
    assert not set(source_files()) - names


def test_the_sdist_builds_the_same_wheel_as_the_tree(dist: Path, wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    """`python -m build` made the wheel from the sdist; a wheel made from the tree must be the same.
    (From a copy of the tree: setuptools leaves build/ and *.egg-info in the folder it builds.)"""
    tree = tmp_path / "tree"
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        tree.mkdir(exist_ok=True)
        shutil.copy(REPO / name, tree / name)
    for package in PACKAGES:
        shutil.copytree(REPO / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(tree)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    direct = zipfile.ZipFile(_one(tmp_path, "textfrag-*.whl"))
    assert sorted(direct.namelist()) == sorted(wheel.namelist())
    for name in direct.namelist():
        if not name.endswith("/RECORD"):
            assert direct.read(name) == wheel.read(name), name
