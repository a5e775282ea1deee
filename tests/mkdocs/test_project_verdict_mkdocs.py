"""check reads the pages an MkDocs build reads: not those ``exclude_docs`` names, nor hidden files, nor a
README.md beside an index.md (MkDocs builds the index and leaves the README out); the pages it reads,
and the Markdown they include with pymdownx.snippets, are judged. Each case against a real build."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..processes import run_mkdocs, run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))
STALE = f"![](txtfrag:src/app.txt#line=2,4;length={len(APP)};md5={'0' * 32})"
GOOD = "![](txtfrag:src/app.txt#line=2,4)"
CONFIG = "site_name: s\nplugins: [textfrag]\nmarkdown_extensions: [attr_list]\n"
CASES = {
    "exclude_docs": ({"index.md": GOOD, "drafts/old.md": STALE}, CONFIG + "exclude_docs: |\n  drafts/\n", 0),
    "a hidden page": ({"index.md": GOOD, ".hidden.md": STALE}, CONFIG, 0),
    "a README beside an index": ({"index.md": GOOD, "README.md": STALE}, CONFIG, 0),
    "a README alone is the index": ({"README.md": STALE}, CONFIG, 1),
    "a page that is read": ({"index.md": GOOD, "guide/page.md": STALE}, CONFIG, 1),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_judges_the_pages_mkdocs_builds(tmp_path: Path, case: str) -> None:
    pages, config, code = CASES[case]
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.txt").write_text(APP)
    (tmp_path / "mkdocs.yml").write_text(config)
    for name, body in pages.items():
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text(f"# Page\n\n{body}\n")
    built = run_mkdocs("build", cwd=tmp_path, timeout=120)
    checked = run_textfrag("check", cwd=tmp_path, timeout=60)
    assert (0 if built.returncode == 0 else 1) == code, built.stderr
    assert checked.returncode == code, checked.stdout + checked.stderr
