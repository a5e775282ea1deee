"""Guard mode on FastAPI's includes (markdown_include_variants with mdx_include):
``{* ../docs_src/app.py ln[2:3,5] hl[2] *}`` is recorded as the first tab shows it, its lines with the
"omitted" lines between them; a line above is moved and ``update --write`` moves ``ln[...]`` and
``hl[...]`` together; a change inside is caught. The truth is the two extensions themselves, run as
MkDocs runs them (from the folder of mkdocs.yml) on the page's lines."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from ..processes import run_mkdocs, run_textfrag

pytest.importorskip("markdown_include_variants")
pytest.importorskip("mdx_include")

FORMS = [
    "{* ../docs_src/t001.py ln[2:3,5] hl[2] *}",
    "{* ../docs_src/t001.py *}",
    "{* ../docs_src/t001.py ln[1:2] *}",
    "{* ../docs_src/t001.py ln[4:6] *}",
]
APP = "l1\nl2\nl3\nl4\nl5\nl6\n"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "docs_src").mkdir()
    (tmp_path / "docs_src" / "t001.py").write_text(APP, encoding="utf-8")
    (tmp_path / "en" / "docs").mkdir(parents=True)
    (tmp_path / "en" / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - textfrag:\n      root: ..\n      guard: true\n"
        "markdown_extensions:\n  - mdx_include\n  - markdown_include_variants\n",
        encoding="utf-8",
    )
    (tmp_path / "en" / "docs" / "index.md").write_text("# T\n\n" + "".join(f"{form}\n\n" for form in FORMS), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path


def _shown(site: Path) -> list[str]:
    """The first tab's code of each include of the page, as the two extensions make it."""
    import markdown

    md = markdown.Markdown(extensions=["markdown_include_variants", "mdx_include"])
    before = os.getcwd()
    os.chdir(site / "en")
    try:
        out = []
        page = (site / "en" / "docs" / "index.md").read_text(encoding="utf-8")
        for form in [line for line in page.splitlines() if line.startswith("{*")]:
            lines = md.preprocessors["mdx_include"].run(md.preprocessors["include_variants"].run([form]))
            first = next(k for k, line in enumerate(lines) if line.startswith("```python"))
            last = lines.index("```", first + 1)
            out.append("\n".join(lines[first + 1 : last]))
        return out
    finally:
        os.chdir(before)


def _textfrag(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*args, cwd=site / "en", timeout=120)


def test_each_include_is_recorded_as_its_first_tab_shows_it(site: Path) -> None:
    texts = _shown(site)
    r = _textfrag(site, "pin", "--write", "docs")
    assert r.returncode == 0, r.stdout + r.stderr
    recorded = json.loads((site / "en" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["docs/index.md"]
    keys = [f.replace(" hl[2]", "") for f in FORMS]
    for key, text in zip(keys, texts, strict=True):
        assert recorded[key] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}", (key, text)
    assert _textfrag(site, "check", "docs").returncode == 0


def test_a_moved_range_moves_ln_and_hl_together_and_shows_the_same_tab(site: Path) -> None:
    before = _shown(site)
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    (site / "docs_src" / "t001.py").write_text("l0\n" + APP, encoding="utf-8")
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "above"], cwd=site, check=True)
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "moved" in checked.stderr, checked.stderr
    _textfrag(site, "update", "--write", "docs")
    page = (site / "en" / "docs" / "index.md").read_text(encoding="utf-8")
    assert "{* ../docs_src/t001.py ln[3:4,6] hl[3] *}" in page and "ln[5:7]" in page, page
    after = _shown(site)
    assert [a == b for a, b in zip(before, after, strict=True)] == [True, False, False, True], (before, after)


def test_the_mkdocs_build_fails_an_include_whose_tab_changed_as_check_does(site: Path) -> None:
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0

    def build() -> subprocess.CompletedProcess[str]:
        return run_mkdocs(
            "build",
            "--strict",
            "-d",
            str(site / "out"),
            cwd=site / "en",
            timeout=120,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )

    assert build().returncode == 0, build().stderr
    (site / "docs_src" / "t001.py").write_text(APP.replace("l2", "l two"), encoding="utf-8")
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "inside"], cwd=site, check=True)
    built = build()
    assert built.returncode != 0 and "{* ../docs_src/t001.py ln[2:3,5] *}" in built.stderr, built.stderr
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "docs/index.md:3: {* ../docs_src/t001.py ln[2:3,5] *}" in checked.stderr, checked.stderr


def test_an_ln_that_is_no_numbers_is_a_located_problem_never_a_traceback(site: Path) -> None:
    (site / "en" / "docs" / "index.md").write_text("# T\n\n{* ../docs_src/t001.py ln[a:b] *}\n", encoding="utf-8")
    r = _textfrag(site, "check", "docs")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "docs/index.md:3: {* ../docs_src/t001.py ln[a:b] *}:" in r.stderr and "names no lines" in r.stderr, r.stderr


def test_ln_0_writes_no_first_tab_and_the_full_files_preview_is_what_is_recorded(site: Path) -> None:
    """``ln[0]``: the extension writes only the "Full file preview"; that whole file is what textfrag records,
    so a change anywhere in it is caught (never a "# Code below omitted" line the page does not show)."""
    (site / "en" / "docs" / "index.md").write_text("# T\n\n{* ../docs_src/t001.py ln[0] *}\n", encoding="utf-8")
    (shown,) = _shown(site)
    assert shown == APP  # (the preview: the whole file, mdx_include's last empty line)
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    recorded = json.loads((site / "en" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["docs/index.md"]
    assert recorded == {"{* ../docs_src/t001.py ln[0] *}": f"length={len(shown)};md5={hashlib.md5(shown.encode()).hexdigest()}"}
    (site / "docs_src" / "t001.py").write_text(APP.replace("l5", "l five"), encoding="utf-8")
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "docs/index.md:3: {* ../docs_src/t001.py ln[0] *}" in checked.stderr, checked.stderr
