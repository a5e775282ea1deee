"""Guard mode on mdx_include, as FastAPI-family sites write it: ``{!../../docs_src/app/main.py[ln:1-7]!}`` inside a
code fence (the extension reads the page's raw lines), ``{!path!}`` of a whole file, nested includes, row and
column slices, ``\\{!...!}`` (text). Each is recorded as the extension shows it, a deleted or changed file
fails ``check`` and the MkDocs build alike, and a moved range is repaired so that the extension shows the
recorded text again. The truth is mdx_include itself, run as MkDocs runs it (from the folder of mkdocs.yml)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ..processes import run_mkdocs, run_textfrag

pytest.importorskip("mdx_include")

APP = "".join(f"line {i} = {i} * 2\n" for i in range(1, 13))
PART = "part before\n{!../../docs_src/app/main.py[ln:3-4]!}\npart after\n"
FORMS = [
    "{!../../docs_src/app/main.py[ln:1-7]!}",
    "{!../../docs_src/app/main.py!}",
    "{!../../docs_src/app/main.py[ln:2.3-4.9]!}",
    "{!../../docs_src/app/main.py[ln:2-3,10-11]!}",
    "{!../../docs_src/part.md!}",
    "{!-../../docs_src/part.md!}",
]


def _page(forms: list[str]) -> str:
    body = "".join(f"<!-- {k} -->\n```Python\n{form}\n```\n<!-- /{k} -->\n\n" for k, form in enumerate(forms))
    return f"# T\n\nEscaped \\{{!../../docs_src/gone.py!}} is text.\n\n{body}"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "docs_src" / "app").mkdir(parents=True)
    (tmp_path / "docs_src" / "app" / "main.py").write_text(APP, encoding="utf-8")
    (tmp_path / "docs_src" / "part.md").write_text(PART, encoding="utf-8")
    (tmp_path / "en" / "docs").mkdir(parents=True)
    (tmp_path / "en" / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - textfrag:\n      root: ..\n      guard: true\n"
        "markdown_extensions:\n  - mdx_include:\n      base_path: docs\n",
        encoding="utf-8",
    )
    (tmp_path / "en" / "docs" / "index.md").write_text(_page(FORMS), encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _commit(tmp_path, "start")
    return tmp_path


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=folder, check=True, capture_output=True)


def _commit(folder: Path, message: str) -> None:
    _git(folder, "add", "-A")
    _git(folder, "commit", "-qm", message)


def _mdx(site: Path, lines: list[str]) -> list[str]:
    """mdx_include's own preprocessor on ``lines``, configured as mkdocs.yml says, run where MkDocs runs."""
    import markdown

    md = markdown.Markdown(extensions=["mdx_include"], extension_configs={"mdx_include": {"base_path": "docs"}})
    before = os.getcwd()
    os.chdir(site / "en")
    try:
        return list(md.preprocessors["mdx_include"].run(lines))
    finally:
        os.chdir(before)


def _shown(site: Path, forms: list[str]) -> list[str]:
    """What the extension puts in the page for each include, alone on its line."""
    return ["\n".join(_mdx(site, [form])) for form in forms]


def _textfrag(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*args, cwd=site / "en", timeout=120)


def _record(text: str) -> str:
    return f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


def test_every_include_in_a_fence_is_recorded_as_mdx_include_shows_it(site: Path) -> None:
    shown = _shown(site, FORMS)
    assert shown[4] == "part before\nline 3 = 3 * 2\nline 4 = 4 * 2\npart after\n"  # (nested, from base_path)
    pinned = _textfrag(site, "pin", "--write", "docs")
    assert pinned.returncode == 0 and f"recorded {len(FORMS)} includes" in pinned.stdout, pinned.stdout + pinned.stderr
    recorded = json.loads((site / "en" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["docs/index.md"]
    assert recorded == {form: _record(text) for form, text in zip(FORMS, shown, strict=True)}
    assert "gone.py" not in json.dumps(recorded)  # (an escaped include is text)
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 0 and f"{len(FORMS)} includes in 1 document: all current" in checked.stdout, checked.stdout


def test_a_deleted_or_changed_file_fails_check_and_the_mkdocs_build_alike(site: Path) -> None:
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0

    def build() -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        return run_mkdocs("build", "-q", "-d", str(site / "out"), cwd=site / "en", timeout=120, env=env)

    assert build().returncode == 0, build().stderr
    (site / "docs_src" / "app" / "main.py").write_text(APP.replace("line 4 =", "line four ="), encoding="utf-8")
    checked, built = _textfrag(site, "check", "docs"), build()
    stale = {line.split(": ")[1] for line in checked.stderr.splitlines() if "it shows other text" in line}
    assert checked.returncode == 1 and stale == {FORMS[0], FORMS[1], FORMS[2], FORMS[4]}, checked.stderr
    assert built.returncode != 0 and f"index.md:7: {FORMS[0]}: it shows other text" in built.stderr, built.stderr
    (site / "docs_src" / "app" / "main.py").unlink()
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 2 and "docs/index.md:7: {!../../docs_src/app/main.py[ln:1-7]!}: no such file" in checked.stderr


def test_a_moved_range_is_repaired_and_mdx_include_shows_the_recorded_text_again(site: Path) -> None:
    before = _shown(site, FORMS)
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    (site / "docs_src" / "app" / "main.py").write_text("import os\n" + APP, encoding="utf-8")
    _commit(site, "a line above")
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "moved: the recorded text is in the file 1 line further down" in checked.stderr
    _textfrag(site, "update", "--write", "docs")
    page = (site / "en" / "docs" / "index.md").read_text(encoding="utf-8")
    for new in ("[ln:2-8]", "[ln:3.3-5.9]", "[ln:3-4,11-12]"):
        assert new in page, page
    forms = [line for line in page.splitlines() if line.startswith("{!")]
    after = _shown(site, forms)
    assert [a == b for a, b in zip(before, after, strict=True)] == [True, False, True, True, False, True], after


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "bb", "", "  c", "{!x!}", "\\{!x!}", "z\r"]), min_size=0, max_size=6),
    st.sampled_from(["1-2", "2.2-3.1", "3-1", "2", ".2-.3", "1-2,4-5", "4.-2", "-2", "2-"]),
)
def test_the_row_slice_is_rcslices(lines: list[str], spec: str) -> None:
    """mdx_include's ``[ln:...]`` is rcslice's row and column slice: textfrag's reading equals it."""
    from rcslice import RowSlice

    from textfrag.guard.mdxinclude import row_slice

    try:
        expected: object = RowSlice(["", ""]).slice(list(lines), spec)
    except ValueError:
        expected = ValueError
    try:
        got: object = row_slice(list(lines), spec)[0]
    except ValueError:
        got = ValueError
    assert got == expected
