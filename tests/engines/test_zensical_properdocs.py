"""The extension where MkDocs plugins do not run or are not wanted: Zensical (which skips MkDocs plugins it
does not implement), ProperDocs and MkDocs with ``markdown_extensions: [textfrag]`` alone. Real builds, by
each engine's own command line."""

from __future__ import annotations

import os
from pathlib import Path

from bs4 import BeautifulSoup

from .conftest import BIN, MD5, STALE, engine, project, run

CONFIG = """site_name: t
watch:
  - src
markdown_extensions:
  - toc:
      permalink: true
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
  - textfrag
"""
GOOD = f"""---
title: Home
---
# Home

![](txtfrag:src/app.py#line=0,2;md5={MD5}){{ linenums }}

See [the function](txtfrag:src/app.py#line=0,2;md5={MD5}).
"""
BAD = f"""# Bad

![](txtfrag:src/app.py#line=0,2;md5={STALE})

![](txtfrag:src/nope.py#line=0,1)

![](txtfrag:src/app.py#line=nine)
"""


def _contract(html: Path) -> None:
    soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
    [block] = soup.select("div.txtfrag")
    assert block["data-txtfrag-ref"] == f"src/app.py#line=0,2;md5={MD5}" and block["data-txtfrag-state"] == "current"
    assert "def f():" in block.select_one("code").get_text()
    assert soup.select_one(f'a[href="#{block["id"]}"]:not(.headerlink)') is not None


def test_zensical_builds_a_site_with_the_extension(tmp_path: Path) -> None:
    zensical = engine("zensical")
    root = project(tmp_path / "site", {"index.md": GOOD}, {"mkdocs.yml": CONFIG})
    r = run([zensical, "build"], root)
    assert r.returncode == 0, r.stderr
    assert "textfrag" not in r.stderr  # nothing to report
    _contract(root / "site" / "index.html")


def test_zensical_fails_with_every_problem_located_and_no_traceback(tmp_path: Path) -> None:
    zensical = engine("zensical")
    root = project(tmp_path / "site", {"index.md": GOOD, "bad.md": BAD}, {"mkdocs.yml": CONFIG})
    r = run([zensical, "build"], root)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr + r.stdout
    said = [line for line in r.stderr.splitlines() if line.startswith("Error: textfrag: ")]
    assert [line.split(": ")[2] for line in said] == ["bad.md:3", "bad.md:5", "bad.md:7"]
    assert f"bad.md:3: txtfrag:src/app.py#line=0,2;md5={STALE}: stale" in said[0]
    assert "textfrag: 3 references are stale or broken, each reported above; the build fails" in r.stderr
    # the page shows each problem (serve goes on and shows them): the stale quote marked, the others as errors
    page = BeautifulSoup((root / "site" / "bad" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert len(page.select(".txtfrag-error")) == 2 and page.select_one('[data-txtfrag-state="stale"] .txtfrag-stale')


def test_zensical_warns_when_set_to_and_strict_makes_it_fail(tmp_path: Path) -> None:
    zensical = engine("zensical")
    config = CONFIG.replace("  - textfrag\n", "  - textfrag:\n      on_stale: warning\n")
    stale = f"# S\n\n![](txtfrag:src/app.py#line=0,2;md5={STALE})\n"
    root = project(tmp_path / "site", {"index.md": stale}, {"mkdocs.yml": config})
    r = run([zensical, "build"], root)
    assert r.returncode == 0 and "Warning: textfrag: index.md:3: " in r.stderr
    page = BeautifulSoup((root / "site" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one('[data-txtfrag-state="stale"]') is not None and page.select_one(".txtfrag-stale")
    strict = run([zensical, "build", "--strict", "--clean"], root)  # --clean: Zensical kept the rendered page
    assert strict.returncode == 1 and "Error: textfrag: index.md:3: " in strict.stderr


def test_zensical_sees_a_changed_quoted_file_when_it_is_watched_and_says_when_not(tmp_path: Path) -> None:
    zensical = engine("zensical")
    root = project(tmp_path / "site", {"index.md": GOOD}, {"mkdocs.yml": CONFIG})
    assert run([zensical, "build"], root).returncode == 0
    changed = root / "src" / "app.py"
    changed.write_text("def f():\n    return 2\n", encoding="utf-8")
    later = changed.stat().st_mtime + 2  # Zensical compares whole seconds: a change in the same second is unseen
    os.utime(changed, (later, later))
    again = run([zensical, "build"], root)  # Zensical keeps rendered pages; `watch: [src]` renders them again
    assert again.returncode == 1 and "Error: textfrag: index.md:6: " in again.stderr
    unwatched = project(tmp_path / "other", {"index.md": GOOD}, {"mkdocs.yml": CONFIG.replace("watch:\n  - src\n", "")})
    r = run([zensical, "build"], unwatched)
    assert r.returncode == 0
    said = [line for line in r.stderr.splitlines() if "not under `watch`" in line]
    assert said == [
        "Warning: textfrag: quoted files under src (first: src/app.py) are not under `watch`: Zensical will not render "
        "the pages that quote them again when they change; add `src` to `watch`"
    ]


def _extension_alone(tmp_path: Path, command: str, config_name: str) -> None:
    exe = engine(command)
    config = "site_name: t\ntheme: mkdocs\nmarkdown_extensions:\n  - attr_list\n  - textfrag\n"
    root = project(tmp_path / "good", {"index.md": GOOD}, {config_name: config})
    r = run([exe, "build"], root)
    assert r.returncode == 0, r.stderr
    _contract(root / "site" / "index.html")
    bad = project(tmp_path / "bad", {"index.md": GOOD, "bad.md": "---\ntitle: Bad\n---\n" + BAD}, {config_name: config})
    r = run([exe, "build"], bad)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert "Error reading page 'bad.md'" in r.stderr  # the engine names the page
    assert "textfrag: 3 references are stale or broken:" in r.stderr
    # the lines of the file, front matter counted
    assert f"bad.md:6: txtfrag:src/app.py#line=0,2;md5={STALE}: stale" in r.stderr
    assert "bad.md:8: txtfrag:src/nope.py#line=0,1: no such file" in r.stderr
    assert "Aborted with a BuildError!" in r.stdout + r.stderr


def test_properdocs_with_the_extension(tmp_path: Path) -> None:
    _extension_alone(tmp_path, "properdocs", "properdocs.yml")


def test_mkdocs_with_the_extension_alone(tmp_path: Path) -> None:
    _extension_alone(tmp_path, "mkdocs", "mkdocs.yml")


def test_properdocs_runs_the_mkdocs_plugin_too(tmp_path: Path) -> None:
    properdocs = engine("properdocs")
    config = "site_name: t\ntheme: mkdocs\nmarkdown_extensions:\n  - attr_list\nplugins:\n  - textfrag\n"
    root = project(tmp_path / "p", {"index.md": GOOD}, {"properdocs.yml": config})
    r = run([properdocs, "build"], root)
    assert r.returncode == 0, r.stderr
    _contract(root / "site" / "index.html")


def test_zensical_reads_the_extension_from_zensical_toml(tmp_path: Path) -> None:
    zensical = engine("zensical")
    toml = (
        '[project]\nsite_name = "t"\nwatch = ["src"]\n\n'
        "[project.markdown_extensions.attr_list]\n[project.markdown_extensions.textfrag]\n"
        'on_stale = "error"\n'
    )
    root = project(tmp_path / "site", {"index.md": GOOD, "bad.md": BAD}, {"zensical.toml": toml})
    r = run([zensical, "build"], root)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"Error: textfrag: bad.md:3: txtfrag:src/app.py#line=0,2;md5={STALE}: stale" in r.stderr
    (root / "docs" / "bad.md").unlink()
    r = run([zensical, "build", "--clean"], root)
    assert r.returncode == 0, r.stderr
    _contract(root / "site" / "index.html")


def test_zensical_guards_snippets_and_counts_what_is_not_protected(tmp_path: Path) -> None:
    """Guard mode on the extension in Zensical: the end of ``zensical build`` counts the
    includes without a record (and the references without md5); once recorded, drift fails the build."""
    from textfrag.cli import main

    zensical = engine("zensical")
    config = CONFIG.replace(
        "  - textfrag\n", "  - pymdownx.snippets:\n      base_path: ['.']\n  - textfrag:\n      guard: true\n"
    )
    page = f'# G\n\n```python\n--8<-- "src/app.py:1:2"\n```\n\n![](txtfrag:src/app.py#line=0,2;md5={MD5})\n\n![](txtfrag:src/app.py#line=3,5)\n'
    root = project(tmp_path / "site", {"index.md": page}, {"mkdocs.yml": config})
    r = run([zensical, "build"], root)
    assert r.returncode == 0, r.stderr
    assert "textfrag: 1 include has no record in textfrag.lock (not protected against drift)" in r.stderr
    assert "textfrag: 1 reference is not protected against drift (no md5)" in r.stderr
    before = os.getcwd()
    os.chdir(root)
    try:
        assert main(["pin", "--write"]) == 0
    finally:
        os.chdir(before)
    r = run([zensical, "build", "--clean"], root)
    assert r.returncode == 0, r.stderr
    assert "no record" not in r.stderr and "not protected" not in r.stderr  # (pin pinned the reference too)
    (root / "src" / "app.py").write_text("def f():\n    return 10\n", encoding="utf-8")
    r = run([zensical, "build", "--clean"], root)
    assert r.returncode == 1
    assert "index.md:4: snippet src/app.py:1:2: it shows other text than textfrag.lock records" in r.stderr
    assert "textfrag: 2 references and 1 include are stale or broken, each reported above; the build fails" in r.stderr


def test_zensical_and_check_agree_on_myst_forms_and_links_with_no_target(tmp_path: Path) -> None:
    """Under Zensical (the extension alone, no plugin) a MyST directive is text (a ``form`` problem) and a
    link looks for its excerpt on its own page only: a link to a reference another page embeds has no
    target (a warning, fatal with --strict). check, reading the same mkdocs.yml, says both, with the same
    words at the same lines."""
    zensical = engine("zensical")
    pinned = f"src/app.py#line=0,2;md5={MD5}"
    pages = {
        "index.md": GOOD,
        "myst.md": f"# M\n\n```{{txtfrag}} {pinned}\n```\n",
        "link.md": f"# L\n\nSee [the function](txtfrag:{pinned}).\n",
    }
    root = project(tmp_path / "site", pages, {"mkdocs.yml": CONFIG})
    r = run([zensical, "build", "--strict"], root)
    assert r.returncode == 1, r.stderr
    form = f"myst.md:3: {pinned}: a MyST directive is not rendered by Markdown"
    link = f"link.md:3: txtfrag:{pinned}: this link has no target: the page embeds no such reference"
    assert form in r.stderr and link in r.stderr, r.stderr
    checked = run([BIN / "textfrag", "check", "docs"], root)
    assert checked.returncode == 2 and form in checked.stderr and link in checked.stderr, checked.stderr
    assert "index.md" not in checked.stderr


def test_a_zensical_build_that_repeats_a_failed_one_fails_as_it_did(tmp_path: Path) -> None:
    """Zensical keeps each rendered page and renders it again only when it or a watched file changes: a
    failed page was kept as rendered, so the same build again said "No issues found" and exited 0. The
    extension takes a failed page's rendering out of Zensical's cache: every repeat fails as the first did,
    and once the page is repaired the build passes."""
    zensical = engine("zensical")
    page = f"# Home\n\n![](txtfrag:src/app.py#line=0,2;md5={STALE})\n"
    root = project(tmp_path / "site", {"index.md": page, "other.md": GOOD}, {"mkdocs.yml": CONFIG})
    for _ in range(2):
        r = run([zensical, "build"], root)
        assert r.returncode == 1 and f"Error: textfrag: index.md:3: txtfrag:src/app.py#line=0,2;md5={STALE}" in r.stderr, r.stderr
        assert "other.md" not in r.stderr
    (root / "docs" / "index.md").write_text(page.replace(STALE, MD5), encoding="utf-8")
    r = run([zensical, "build"], root)
    assert r.returncode == 0, r.stderr


def test_zensical_says_when_a_guarded_include_reads_a_file_it_does_not_watch(tmp_path: Path) -> None:
    """A snippet's file is the page's dependency as a quoted file is: outside ``watch``, Zensical would keep
    the page as rendered after the file drifted. The warning names it; with ``watch: [src]`` a drift fails
    the next build, and the build after that."""
    from textfrag.cli import main

    zensical = engine("zensical")
    config = (
        "site_name: t\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: ['.']\n  - textfrag:\n      guard: true\n"
    )
    page = '# G\n\n```python\n--8<-- "src/app.py:1:2"\n```\n'
    root = project(tmp_path / "site", {"index.md": page}, {"mkdocs.yml": config})
    r = run([zensical, "build"], root)
    assert r.returncode == 0, r.stderr
    assert "quoted files under src (first: src/app.py) are not under `watch`" in r.stderr, r.stderr
    (root / "mkdocs.yml").write_text(config.replace("markdown_extensions:", "watch:\n  - src\nmarkdown_extensions:"))
    before = os.getcwd()
    os.chdir(root)
    try:
        assert main(["pin", "--write"]) == 0
    finally:
        os.chdir(before)
    r = run([zensical, "build"], root)
    assert r.returncode == 0 and "not under `watch`" not in r.stderr, r.stderr
    changed = root / "src" / "app.py"
    changed.write_text("def f():\n    return 10\n", encoding="utf-8")
    later = changed.stat().st_mtime + 2  # (Zensical compares whole seconds)
    os.utime(changed, (later, later))
    for _ in range(2):
        r = run([zensical, "build"], root)
        assert r.returncode == 1 and "index.md:4: snippet src/app.py:1:2: it shows other text" in r.stderr, r.stderr
