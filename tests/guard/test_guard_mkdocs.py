"""Guard mode in MkDocs: ``guard: true`` on the plugin, or on the Markdown extension (the
ProperDocs and Zensical way), leaves pymdownx.snippets and markdown-include to put in the page what they
put without textfrag; ``pin --write`` records it, and the build and ``check`` catch drift alike."""

from __future__ import annotations

import json

import pytest

from .conftest import APP, Repo, body

EXTENSIONS = """\
markdown_extensions:
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: ["."]
  - markdown_include.include:
      base_path: "."
"""
PLUGIN = "site_name: g\nplugins:\n  - search\n  - textfrag:\n      guard: true\n" + EXTENSIONS
EXTENSION = "site_name: g\nplugins:\n  - search\n" + EXTENSIONS + "  - textfrag:\n      guard: true\n"
PLAIN = "site_name: g\nplugins:\n  - search\n" + EXTENSIONS

MODULE = """\
def greet(name):
    # --8<-- [start:greet]
    return f"hello {name}"
    # --8<-- [end:greet]
"""

PAGE = """\
# Guarded

```text
--8<-- "src/app.txt:5:7"
```

```python
--8<-- "src/mod.py:greet"
```

```text
--8<--
src/app.txt:10:11
src/app.txt:28
--8<--
```

Inline: {!src/app.txt!lines=2-3}
"""


def _project(repo: Repo, config: str = PLUGIN) -> None:
    repo.config = "mkdocs.yml"
    repo.write("src/app.txt", APP)
    repo.write("src/mod.py", MODULE)
    repo.write("mkdocs.yml", config)
    repo.write("plain.yml", PLAIN)
    repo.write("docs/index.md", PAGE)


@pytest.mark.parametrize("config", [PLUGIN, EXTENSION], ids=["plugin", "extension"])
def test_a_guarded_site_is_the_site_without_textfrag(repo: Repo, config: str) -> None:
    _project(repo, config)
    pinned = repo.textfrag("pin", "--write")
    assert pinned.code == 0, pinned.err
    assert "recorded 5 includes in textfrag.lock" in pinned.out
    guarded, out = repo.mkdocs()
    assert guarded.returncode == 0, guarded.stderr
    plain, plain_out = repo.mkdocs(config="plain.yml", out="plain")
    assert plain.returncode == 0, plain.stderr
    assert body(out / "index.html") == body(plain_out / "index.html")
    assert "txtfrag" not in (out / "index.html").read_text()


def test_a_moved_snippet_fails_the_build_and_check_alike_and_update_repairs_it(repo: Repo) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    records = json.loads(repo.read("textfrag.lock"))["includes"]["docs/index.md"]
    assert sorted(records) == [
        "include src/app.txt lines=2-3",
        "snippet src/app.txt:10:11",
        "snippet src/app.txt:28",
        "snippet src/app.txt:5:7",
        "snippet src/mod.py:greet",
    ]
    repo.commit("pinned")
    repo.write("src/app.txt", "a new first line\n" + APP)
    repo.commit("moved")
    built, _ = repo.mkdocs()
    checked = repo.textfrag("check")
    assert built.returncode == 1 and checked.code == 1
    said = "snippet src/app.txt:5:7: it shows other text than textfrag.lock records"
    assert f"index.md:4: {said}" in built.stderr
    assert f"docs/index.md:4: {said}" in checked.err
    assert "(new include: snippet src/app.txt:6:8)" in checked.err
    assert "(new include: include src/app.txt lines=3-4)" in checked.err
    updated = repo.textfrag("update", "--write")
    assert updated.code == 0, updated.err
    page = repo.read("docs/index.md")
    assert '--8<-- "src/app.txt:6:8"' in page and "src/app.txt:11:12\nsrc/app.txt:29\n" in page
    assert "{!src/app.txt!lines=3-4}" in page
    assert page.replace("6:8", "5:7").replace("11:12", "10:11").replace(":29", ":28").replace("3-4", "2-3") == PAGE
    assert repo.textfrag("check").code == 0
    built, out = repo.mkdocs()
    assert built.returncode == 0, built.stderr
    plain, plain_out = repo.mkdocs(config="plain.yml", out="plain")
    assert body(out / "index.html") == body(plain_out / "index.html")


def test_a_changed_section_shows_its_diff_and_accept_records_it(repo: Repo) -> None:
    _project(repo, EXTENSION)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.write("src/mod.py", MODULE.replace("hello", "hi"))
    built, _ = repo.mkdocs()
    checked = repo.textfrag("check")
    assert built.returncode == 1 and checked.code == 1
    assert "index.md:8: snippet src/mod.py:greet: it shows other text" in built.stderr
    assert '-    return f"hello {name}"\n+    return f"hi {name}"' in checked.err
    assert repo.textfrag("update", "--accept", "--write").code == 0
    assert repo.read("docs/index.md") == PAGE
    assert repo.textfrag("check").code == 0
    assert repo.mkdocs()[0].returncode == 0


def test_an_unrecorded_snippet_is_counted_and_require_pin_fails_it(repo: Repo) -> None:
    _project(repo)
    checked = repo.textfrag("check")
    assert checked.code == 0 and "5 includes unrecorded" in checked.out
    built, _ = repo.mkdocs(quiet=False)
    assert built.returncode == 0
    assert "5 includes have no record in textfrag.lock" in built.stderr
    repo.write("mkdocs.yml", PLUGIN.replace("guard: true", "guard: true\n      require_pin: true"))
    built, _ = repo.mkdocs()
    assert built.returncode == 1 and "index.md:4: snippet src/app.txt:5:7: unrecorded" in built.stderr
    assert repo.textfrag("check").code == 1


def test_a_snippet_outside_the_root_is_refused(repo: Repo) -> None:
    _project(repo, PLUGIN.replace("guard: true", "guard: true\n      root: docs"))
    checked = repo.textfrag("check")
    assert checked.code == 2
    assert "docs/index.md:4: snippet src/app.txt:5:7: src/app.txt is outside the textfrag root" in checked.err
    # (a file that is not there, through a base path outside the root, is told the same)
    repo.write("docs/index.md", repo.read("docs/index.md").replace("src/app.txt:5:7", "src/nope.txt:5:7"))
    checked = repo.textfrag("check")
    assert "docs/index.md:4: snippet src/nope.txt:5:7: src/nope.txt is outside the textfrag root" in checked.err, checked.err


@pytest.mark.parametrize("config", [PLUGIN, EXTENSION], ids=["plugin", "extension"])
def test_a_lock_file_textfrag_did_not_write_fails_the_build_with_its_name(repo: Repo, config: str) -> None:
    _project(repo, config)
    repo.write("textfrag.lock", "{not json")
    built, _ = repo.mkdocs()
    assert built.returncode == 1
    assert "textfrag.lock:1: the lock file is not valid JSON" in built.stderr and "Traceback" not in built.stderr
    checked = repo.textfrag("check")
    assert checked.code == 2 and "the lock file is not valid JSON" in checked.err
