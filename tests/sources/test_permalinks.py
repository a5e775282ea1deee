"""A pasted permalink (GitHub's ``blob/<commit>/path#L4-L5``) becomes, with ``pin --write``, a pinned quote
of the declared source: the same lines at the commit the docs follow, found where they moved."""

from __future__ import annotations

from pathlib import Path

from ..processes import run_textfrag
from .conftest import CodeRepo, Docs
from .test_sources import APP, pinned


def test_pin_makes_a_permalink_a_quote_of_the_declared_source(code: CodeRepo, docs: Docs, tmp_path: Path) -> None:
    then = code.release("v1.0.0", {"src/app.py": APP})
    code.release("v1.1.0", {"src/app.py": '"""The app."""\n\n' + APP})
    home = tmp_path / "home"  # (where the user's git says github.com/org/sdk is: a mirror, here the bare repository)
    home.mkdir()
    (home / ".gitconfig").write_text(f'[url "{code.url}"]\n\tinsteadOf = https://github.com/org/sdk\n', encoding="utf-8")
    env = {**docs.env, "HOME": str(home)}
    docs.declare(sdk=("https://github.com/org/sdk", "v1.1.0"))
    page = (
        "# Quotes\n\n"
        f"![then](txtfrag:https://github.com/org/sdk/blob/{then}/src/app.py#L4-L5)\n\n"
        "![now](txtfrag:https://github.com/org/sdk/blob/v1.1.0/src/app.py#L6-L7)\n\n"
        "![other](txtfrag:https://github.com/org/other/blob/main/a.py#L1)\n"
    )
    docs.page("index.md", page)
    assert run_textfrag("sources", "fetch", cwd=docs.root, env=env).returncode == 0
    checked = run_textfrag("check", ".", cwd=docs.root, env=env)
    assert checked.returncode == 2
    assert "index.md:3: txtfrag:https://github.com/org/sdk/blob/" in checked.stderr
    assert "a URL is not a file under the root" in checked.stderr and "`textfrag pin --write` makes a GitHub" in checked.stderr
    pinned_run = run_textfrag("pin", "--write", ".", cwd=docs.root, env=env)
    assert pinned_run.returncode == 2, pinned_run.stderr  # (the undeclared repository's stays, said)
    assert (
        "index.md:7:" in pinned_run.stderr and "https://github.com/org/other, which is not a declared source" in pinned_run.stderr
    )
    text = (docs.root / "index.md").read_text()
    moved = '"""The app."""\n\n' + APP
    assert f"![then]({pinned(moved, 6, 7)})" in text  # (lines 4-5 then are lines 6-7 at v1.1.0)
    assert f"![now]({pinned(moved, 6, 7)})" in text
    assert run_textfrag("check", "index.md", cwd=docs.root, env=env).stderr.count("index.md:") == 1


def test_migrate_makes_a_url_snippet_a_quote_of_the_declared_source(code: CodeRepo, docs: Docs, tmp_path: Path) -> None:
    """pymdownx.snippets' URL snippets (``url_download``) fetch raw files at build time, with no hash: migrate
    makes each one of a declared repository, at the revision the docs follow, a pinned quote of it."""
    code.release("v1.0.0", {"src/app.py": APP})
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f'[url "{code.url}"]\n\tinsteadOf = https://github.com/org/sdk\n', encoding="utf-8")
    env = {**docs.env, "HOME": str(home)}
    docs.declare(sdk=("https://github.com/org/sdk", "v1.0.0"))
    docs.page(
        "mkdocs.yml",
        "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.superfences\n"
        "  - pymdownx.snippets:\n      url_download: true\nplugins:\n  - textfrag\n",
    )
    raw = "https://raw.githubusercontent.com/org/sdk"
    docs.page(
        "docs/index.md",
        f'# Quotes\n\n```python\n--8<-- "{raw}/v1.0.0/src/app.py:4:5"\n```\n\n```python\n--8<-- "{raw}/main/src/app.py:4:5"\n```\n',
    )
    assert run_textfrag("sources", "fetch", cwd=docs.root, env=env).returncode == 0
    migrated = run_textfrag("migrate", "--write", "docs", cwd=docs.root, env=env)
    assert "converted 1 in 1 document; 1 left as they are" in migrated.stderr, migrated.stderr
    assert "the URL names main, but the docs follow v1.0.0 of the source sdk" in migrated.stderr
    page = (docs.root / "docs" / "index.md").read_text()
    assert f"![]({pinned(APP, 4, 5)})" in page, page
    assert run_textfrag("check", "docs/index.md", cwd=docs.root, env=env).returncode == 0
