"""Guard mode in mystmd: with ``TEXTFRAG_GUARD=1`` in the environment of ``myst build`` (and of
``textfrag``, which reads ``myst.yml`` and the same environment), mystmd's own literalinclude puts in the
page what it puts without textfrag; ``pin --write`` records what it shows, computed as mystmd computes it,
and the build (judging the text mystmd put in the page) and ``check`` catch drift alike."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..engines.conftest import engine
from .conftest import APP, Repo

BIN = Path(sys.executable).parent

#: every form of mystmd's literalinclude selection, and the ways it reads what textfrag must read alike
PAGE = """\
# Guarded

```{literalinclude} src/app.txt
:lines: 5-7
:caption: five to seven
```

```{literalinclude} src/app.txt
:lines: 2, 9-, 0, x, 4
```

```{literalinclude} src/app.txt
:start-line: 10
:end-line: 12
:lineno-start: 11
```

```{literalinclude} src/app.txt
:start-line: -3
```

```{literalinclude} src/app.txt
:start-at: value_3 =
:end-before: line 6:
```

```{literalinclude} src/app.txt
:start-after: "line 2:"
:end-at: line 4:
```

:::{literalinclude} /src/app.txt
:end-before: line 9:{TWO_SPACES}
:::

```{literalinclude} src/app.txt
---
lines: 20-21
---
```

```{literalinclude} src/crlf.txt
:lines: 2-3
```

```{literalinclude} src/bom.txt
```

```{literalinclude} src/latin1.txt
```

```{literalinclude} src/tail.txt
:start-at: b
```
""".replace("{TWO_SPACES}", "  ")  # (mystmd looks for "line 9:  ", spaces and all)
FILES = {
    "src/crlf.txt": b"one\r\ntwo\r\nthree\r\nfour\r\n",
    "src/bom.txt": b"\xef\xbb\xbfwith a BOM\nsecond\n",
    "src/latin1.txt": b"caf\xe9 au lait\n",
    "src/tail.txt": b"a\nb\nc",
}
SUB_PAGE = """\
# Another page

```{literalinclude} ../src/app.txt
:lines: 5-7
```
"""


def _myst_yml() -> str:
    plugin = shutil.which("textfrag-myst", path=str(BIN))
    assert plugin, "the wheel installs the textfrag-myst script"
    return f"version: 1\nproject:\n  plugins:\n    - type: executable\n      path: {plugin}\nsite:\n  template: ./tpl\n"


@pytest.fixture
def project(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    monkeypatch.setenv("TEXTFRAG_GUARD", "1")
    repo.config = "myst.yml"
    repo.write("myst.yml", _myst_yml())
    repo.write("tpl/template.yml", "jtex: v1\ntitle: local\n")
    repo.write("src/app.txt", APP)
    for name, data in FILES.items():
        (repo.root / name).write_bytes(data)
    repo.write("index.md", PAGE)
    repo.write("sub/page.md", SUB_PAGE)
    repo.commit("start")
    return repo


def _build(repo: Repo, **env: str) -> subprocess.CompletedProcess[str]:
    command = engine("myst")
    environment = {**__import__("os").environ, **env}
    return subprocess.run(
        [str(command), "build", "--site"], cwd=repo.root, capture_output=True, text=True, timeout=600, env=environment
    )


def _page(repo: Repo, page: str) -> object:
    """A built page's tree, without the keys mystmd draws at random for its nodes in each build."""

    def keyless(node: object) -> object:
        if isinstance(node, dict):
            return {k: keyless(v) for k, v in node.items() if k != "key"}
        if isinstance(node, list):
            return [keyless(v) for v in node]
        return node

    data = json.loads((repo.root / "_build" / "site" / "content" / f"{page}.json").read_text(encoding="utf-8"))
    return keyless({"mdast": data["mdast"], "frontmatter": data.get("frontmatter")})


def _shown(repo: Repo, page: str) -> list[str]:
    """The text each literalinclude of a built page shows, in order (mystmd's own tree of the page)."""
    tree = json.loads((repo.root / "_build" / "site" / "content" / f"{page}.json").read_text(encoding="utf-8"))
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "include" and node.get("literal"):
                code = _first_code(node)
                out.append(code["value"] if code is not None else "")
                return
            for child in node.get("children") or ():
                walk(child)

    walk(tree.get("mdast"))
    return out


def _first_code(node: dict[str, object]) -> dict[str, str] | None:
    if node.get("type") == "code":
        return node  # type: ignore[return-value]
    for child in node.get("children") or ():  # type: ignore[union-attr]
        found = _first_code(child)
        if found is not None:
            return found
    return None


def _record(text: str) -> str:
    return f"length={len(text)};md5={hashlib.md5(text.encode('utf-8', 'surrogatepass')).hexdigest()}"


def test_what_pin_records_is_what_mystmd_shows_and_the_page_is_unchanged(project: Repo) -> None:
    plain = _build(project, TEXTFRAG_GUARD="0")
    assert plain.returncode == 0, plain.stderr
    plain_page = _page(project, "index")
    pinned = project.textfrag("pin", "--write")
    assert pinned.code == 0, pinned.err
    assert "recorded 13 includes in textfrag.lock" in pinned.out
    guarded = _build(project)
    assert guarded.returncode == 0, guarded.stdout + guarded.stderr
    # the page mystmd built is the page it builds without guard mode
    assert _page(project, "index") == plain_page
    # every record is the md5 of what mystmd put in the page: its literalinclude read as textfrag reads it
    records = json.loads(project.lock.read_text(encoding="utf-8"))["includes"]
    shown = _shown(project, "index")
    assert len(shown) == 12
    assert sorted(records["index.md"].values()) == sorted(_record(text) for text in shown)
    assert list(records["sub/page.md"].values()) == [_record(t) for t in _shown(project, "page")]
    assert "\ufeffwith a BOM\nsecond\n" in shown  # (mystmd keeps the BOM)
    assert "caf\ufffd au lait\n" in shown  # (and reads a byte that is not UTF-8 as U+FFFD)
    assert "two\r\nthree\r" in shown  # (and keeps the CR of a CR LF)
    checked = project.textfrag("check")
    assert checked.code == 0, checked.err
    assert "13 includes in 2 documents: all current" in checked.out


def test_a_moved_include_fails_the_build_and_check_alike_and_update_repairs_it(project: Repo) -> None:
    project.textfrag("pin", "--write")
    project.commit("recorded")
    locked = project.lock.read_text(encoding="utf-8")
    project.write("src/app.txt", "a new first line\n" + APP)
    failed = _build(project)
    assert failed.returncode != 0
    assert "index.md:3: literalinclude src/app.txt :lines: 5-7: it shows other text than textfrag.lock records" in failed.stderr
    assert "moved: the recorded text is in the file 1 line further down" in failed.stderr
    assert "sub/page.md:3: literalinclude ../src/app.txt :lines: 5-7:" in failed.stderr  # (the other page, by itself)
    checked = project.textfrag("check")
    assert checked.code == 1
    assert "index.md:3: literalinclude src/app.txt :lines: 5-7:" in checked.err
    repaired = project.textfrag("update", "--write")
    assert repaired.code in (0, 1), repaired.err
    page = project.read("index.md")
    assert ":lines: 6-8\n:caption: five to seven" in page
    assert ":start-line: 11\n:end-line: 13\n:lineno-start: 12" in page  # (numbered as the file is: kept so)
    assert "lines: 21-22\n---" in page  # (in a YAML block too)
    assert project.read("sub/page.md") == SUB_PAGE.replace("5-7", "6-8")
    assert project.lock.read_text(encoding="utf-8") != locked
    again = project.textfrag("check")
    # what follows its text by itself is current; what only counts lines from the end, or shows the
    # whole file, changed and waits for a person
    assert "changed" in again.err and "moved" not in again.err


def test_a_changed_include_shows_its_diff_and_accept_records_it(project: Repo) -> None:
    project.textfrag("pin", "--write")
    project.commit("recorded")
    project.write("src/app.txt", APP.replace("line 6: value_6", "line 6: renamed_6"))
    failed = _build(project)
    assert failed.returncode != 0
    assert "index.md:3: literalinclude src/app.txt :lines: 5-7:" in failed.stderr
    assert "changed: what it shows differs from the recorded text" in failed.stderr
    assert "textfrag: 3 includes are stale or broken; the build fails" in failed.stderr
    accepted = project.textfrag("update", "--accept", "--write")
    assert accepted.code == 0, accepted.err
    assert project.read("index.md") == PAGE  # (only the records change)
    passed = _build(project)
    assert passed.returncode == 0, passed.stderr


def test_an_edit_outside_every_quoted_text_changes_no_record(project: Repo) -> None:
    project.textfrag("pin", "--write")
    before = project.lock.read_text(encoding="utf-8")
    project.write("src/app.txt", APP + "line 31: appended\n")  # (below every line-number include)
    project.write("index.md", "Some new words.\n\n" + project.read("index.md"))
    again = project.textfrag("pin", "--write")
    assert again.code == 0, again.err  # (pin records what has no record, and leaves the others to check)
    assert project.lock.read_text(encoding="utf-8") == before
    checked = project.textfrag("check")
    stale = sorted(
        line.split(": ", 1)[1].split(": it shows")[0] for line in checked.err.splitlines() if line.startswith("index.md:")
    )
    # only the includes that show the file's end show the appended line
    assert stale == [
        "literalinclude /src/app.txt :end-before: line 9:",
        "literalinclude src/app.txt :lines: 2, 9-, 0, x, 4",
        "literalinclude src/app.txt :start-line: -3",
    ]


def test_an_unrecorded_include_is_counted_and_require_pin_fails_it(project: Repo) -> None:
    checked = project.textfrag("check")
    assert checked.code == 0, checked.err
    assert "13 includes unrecorded" in checked.out
    built = _build(project)
    assert built.returncode == 0, built.stderr
    strict = _build(project, TEXTFRAG_REQUIRE_PIN="1")
    assert strict.returncode != 0
    assert "index.md:3: literalinclude src/app.txt :lines: 5-7: unrecorded: textfrag.lock has no record" in strict.stderr
    required = project.textfrag("check", "--require-pin")
    assert required.code == 1
    assert "unrecorded" in required.err
