"""A fresh virtual environment with nothing but the wheel (and its one dependency) quotes every dialect.

This is what a new user does: `pip install textfrag-*.whl`, then `textfrag show`. No engine is installed,
so this also proves that the core and the CLI import no engine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from ..conftest import made_once
from .test_wheel import _one

TEXT = "".join(f"line {i}: the quick brown fox\n" for i in range(1, 11))

# one reference of every dialect (the manual's reference/syntax page), with what it selects
DIALECTS = [
    ("rfc5147", "f.txt#line=1,2", "line 2: the quick brown fox\n"),
    ("github", "f.txt#L3-L3", "line 3: the quick brown fox\n"),
    ("w3m", "f.txt#4", "line 4: the quick brown fox\n"),
    ("wilde line()", "f.txt#line(5)", "line 5: the quick brown fox\n"),
    ("wilde char()", "f.txt#char(1,4)", "line"),
    ("wilde match()", "f.txt#match(line%206:)", "line 6:"),
    ("yee", "f.txt#:words:line-7-(the-quick)", "the quick"),
    ("w3c text fragment", "f.txt#:~:text=line%208:", "line 8:"),
    ("pdi", "pdi://example.org/2026/11/22/f.text.1#char=0,4", "line"),
]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = os.environ.get("TEXTFRAG_DIST")
    if not dist:
        pytest.fail("TEXTFRAG_DIST names no folder: run the suite with `make test`")
    return made_once(tmp_path_factory, "fresh-venv", lambda folder: _venv(folder / "venv", _one(Path(dist), "textfrag-*.whl")))


def _pip(where: Path, *args: str | Path) -> list[str]:
    """pip's command line run for the virtual environment at ``where``: the suite's pip, on that environment's
    interpreter (``--python``); the environment has none of its own, whose install (ensurepip) would cost
    each environment 3 s."""
    return [sys.executable, "-m", "pip", "--python", str(where / "bin" / "python"), *map(str, args)]


def _venv(where: Path, *install: str | Path) -> Path:
    """A new virtual environment at ``where`` with ``install`` (and what it depends on) installed by pip."""
    venv.create(where, with_pip=False)
    r = subprocess.run(
        _pip(where, "install", "--quiet", "--disable-pip-version-check", *install),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    return where


def test_only_the_core_and_its_dependency_are_installed(fresh: Path) -> None:
    r = subprocess.run(_pip(fresh, "list", "--format=freeze", "--disable-pip-version-check"), capture_output=True, text=True)
    names = {line.split("==")[0].lower() for line in r.stdout.split()}
    assert "textfrag" in names and "regex" in names
    assert not names & {"sphinx", "docutils", "mkdocs", "markdown", "pygments"}


@pytest.mark.parametrize(("dialect", "reference", "excerpt"), DIALECTS, ids=[d[0] for d in DIALECTS])
def test_the_installed_command_shows_every_dialect(
    fresh: Path, tmp_path: Path, dialect: str, reference: str, excerpt: str
) -> None:
    (tmp_path / "f.txt").write_text(TEXT, encoding="utf-8")
    args = ["show", "--root", str(tmp_path), reference]
    if dialect == "pdi":
        args[1:1] = ["--pdi", "pdi://example.org/2026/11/22/f.text.1=f.txt"]
    r = subprocess.run([str(fresh / "bin" / "textfrag"), *args], capture_output=True, timeout=60, cwd=tmp_path)
    assert (r.returncode, r.stderr.decode()) == (0, "")
    assert r.stdout.decode() == excerpt


def test_the_installed_module_runs_with_the_fresh_interpreter(fresh: Path, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text(TEXT, encoding="utf-8")
    r = subprocess.run(
        [str(fresh / "bin" / "python"), "-m", "textfrag", "make", "--root", str(tmp_path), "--from", "f.txt#L2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("f.txt#line=1,2;length=") and sys.executable not in r.stdout


@pytest.mark.parametrize(("command", "extra"), [("lsp", "lsp"), ("mcp", "mcp")])
def test_a_server_whose_extra_is_not_installed_says_which_to_install(fresh: Path, command: str, extra: str) -> None:
    r = subprocess.run(
        [str(fresh / "bin" / "textfrag"), command], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert r.returncode == 2 and f"pip install 'textfrag[{extra}]'" in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.fixture(scope="module")
def fresh_markdown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel and Python-Markdown, and no Pygments (`pip install textfrag markdown`)."""
    dist = os.environ.get("TEXTFRAG_DIST")
    if not dist:
        pytest.fail("TEXTFRAG_DIST names no folder: run the suite with `make test`")
    return _venv(tmp_path_factory.mktemp("fresh-md") / "venv", _one(Path(dist), "textfrag-*.whl"), "markdown")


def test_plain_python_markdown_without_pygments_shows_excerpts(fresh_markdown: Path, tmp_path: Path) -> None:
    """No crash without Pygments (the highlighter is optional): a block with its line
    numbers and emphasised line, not coloured; a one-line inline excerpt reads as part of its sentence; a
    .py file's language is python, from its name (what textfrag-myst labels a block with)."""
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    script = (
        "import markdown\n"
        "from textfrag.verdict.presentation import language_for\n"
        "page = '![](txtfrag:app.py#line=0,2){ linenums hl_lines=\"2\" }\\n\\nand ![](txtfrag:app.py#line=0,1) inline'\n"
        "print(markdown.markdown(page, extensions=['attr_list', 'textfrag'], extension_configs={'textfrag': {'root': '.'}}))\n"
        "print('LANGUAGE', language_for('src/app.py'))\n"
    )
    r = subprocess.run(
        [str(fresh_markdown / "bin" / "python"), "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(r.stdout, "html.parser")
    block = soup.select_one("div.txtfrag")
    assert block is not None and block.select_one("td.code code").get_text() == "def f():\n    return 1\n"
    assert [n.get_text() for n in block.select(".linenodiv .normal")] == ["1", "2"]
    assert [h.get_text() for h in block.select(".hll")] == ["    return 1\n"]
    inline = soup.select_one("p span.txtfrag code")
    assert inline is not None and inline.get_text() == "def f():"  # no line break inside the sentence
    assert "LANGUAGE python" in r.stdout
