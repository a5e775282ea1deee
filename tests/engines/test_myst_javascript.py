"""textfrag as a JavaScript plugin of mystmd (``textfrag-myst --javascript``), run by a real ``myst build``: the
same pages and the same verdicts as the executable plugin, without a process for each use."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from .conftest import BIN, MD5, STALE, counted, engine, myst_content, myst_project, nodes, run

PAGE = f"""# Doc

```{{txtfrag}} src/app.py#line=0,2;md5={MD5}
:caption: The f function
:linenos:
:emphasize-lines: 2
:name: the-f
```

See [the f function](#the-f), and {{txtfrag}}`src/app.py#line=4,5;md5={MD5}` inline.

:::{{txtfrag}} src/app.py#line=4,6;md5={STALE}
:::

```{{txtfrag}} src/app.py#char=0,3;length=46;md5={MD5}
```
"""


def javascript_project(root: Path, pages: dict[str, str]) -> Path:
    """:func:`myst_project` with the JavaScript plugin instead of the executable one, as the manual says:
    ``textfrag-myst --javascript > textfrag.mjs``, and ``plugins: [textfrag.mjs]``."""
    myst_project(root, pages)
    mjs = subprocess.run([str(BIN / "textfrag-myst"), "--javascript"], capture_output=True, text=True, check=True).stdout
    (root / "textfrag.mjs").write_text(mjs, encoding="utf-8")
    (root / "myst.yml").write_text(
        "version: 1\nproject:\n  plugins:\n    - textfrag.mjs\nsite:\n  template: ./tpl\n", encoding="utf-8"
    )
    return root


def _unkeyed(tree: Any) -> Any:
    """``tree`` without the keys mystmd draws at random for each build."""
    if isinstance(tree, dict):
        return {k: _unkeyed(v) for k, v in tree.items() if k != "key"}
    if isinstance(tree, list):
        return [_unkeyed(v) for v in tree]
    return tree


def _plugin_path() -> dict[str, str]:
    """Where the JavaScript plugin finds ``textfrag-myst`` (the venv's; a user's is on the PATH)."""
    return {"TEXTFRAG_MYST_PLUGIN": str(BIN / "textfrag-myst")}


def test_the_javascript_plugin_builds_the_tree_the_executable_plugin_builds(tmp_path: Path) -> None:
    myst = engine("myst")
    executable = myst_project(tmp_path / "executable", {"doc.md": PAGE})
    javascript = javascript_project(tmp_path / "javascript", {"doc.md": PAGE})
    for root in (executable, javascript):
        r = run([myst, "build", "--site"], root, TEXTFRAG_ON_STALE="warning", **_plugin_path())
        assert r.returncode == 0, r.stdout + r.stderr
    theirs, ours = (myst_content(root, "doc")["mdast"] for root in (executable, javascript))
    assert _unkeyed(ours) == _unkeyed(theirs)
    states = [n["data"]["txtfrag-state"] for n in nodes(ours) if "txtfrag-state" in (n.get("data") or {})]  # type: ignore[index, operator]
    assert states == ["current", "current", "stale", "stale", "current"], states
    assert not [n for n in nodes(ours) if "txtfrag-pending" in (n.get("data") or {})]  # type: ignore[operator]


def test_the_javascript_plugin_fails_the_build_on_a_stale_or_broken_reference_each_located(tmp_path: Path) -> None:
    myst = engine("myst")
    bad = f"# Bad\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n\nand {{txtfrag}}`src/nope.py#line=1,2` x\n"
    root = javascript_project(tmp_path / "book", {"doc.md": PAGE.replace(STALE, MD5), "bad.md": bad})
    r = run([myst, "build", "--site"], root, **_plugin_path())
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert f"bad.md:3: src/app.py#line=0,2;md5={STALE}: stale" in out
    assert "bad.md:6: src/nope.py#line=1,2: no such file: src/nope.py" in out
    assert "textfrag: 2 references are stale or broken; the build fails" in out


def test_without_textfrag_myst_the_javascript_plugin_says_so_and_nothing_is_quoted(tmp_path: Path) -> None:
    myst = engine("myst")
    root = javascript_project(tmp_path / "book", {"doc.md": PAGE})
    missing = tmp_path / "nowhere" / "textfrag-myst"
    r = run([myst, "build", "--site"], root, TEXTFRAG_MYST_PLUGIN=str(missing))
    out = r.stdout + r.stderr
    assert str(missing) in out and "textfrag.mjs" in out, out
    assert "unknown directive: txtfrag" in out  # (mystmd goes on without it, as without an executable plugin)


def test_a_plugin_command_that_loads_the_plugin_again_is_refused_not_started_without_end(tmp_path: Path) -> None:
    """``TEXTFRAG_MYST_PLUGIN`` naming mystmd itself by mistake: mystmd asked for a specification starts a build
    of its own, which loads the plugin again. Each start is refused at once, instead of starting another."""
    import os

    myst = engine("myst")
    root = javascript_project(tmp_path / "book", {"doc.md": PAGE})
    env = dict(os.environ, TEXTFRAG_MYST_PLUGIN=str(myst))
    r = subprocess.run([str(myst), "build", "--site"], cwd=root, capture_output=True, text=True, timeout=120, env=env)  # (ends)
    out = r.stdout + r.stderr
    assert "its answer is not textfrag's specification: it must be textfrag-myst" in out, out[-3000:]


def test_jupyter_book_2_runs_the_javascript_plugin_and_fails_on_a_stale_reference(tmp_path: Path) -> None:
    jupyter_book = engine("jupyter-book")
    root = javascript_project(tmp_path / "book", {"doc.md": PAGE.replace(STALE, MD5)})
    r = run([jupyter_book, "build", "--site"], root, **_plugin_path())
    assert r.returncode == 0, r.stdout + r.stderr
    states = [
        n["data"]["txtfrag-state"] for n in nodes(myst_content(root, "doc")["mdast"]) if "txtfrag-state" in (n.get("data") or {})
    ]  # type: ignore[index, operator]
    assert states == ["current"] * 4, states
    (root / "bad.md").write_text(f"# Bad\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n", encoding="utf-8")
    r = run([jupyter_book, "build", "--site"], root, **_plugin_path())
    assert r.returncode != 0
    assert f"bad.md:3: src/app.py#line=0,2;md5={STALE}: stale" in r.stdout + r.stderr


def test_one_textfrag_myst_serves_every_page_of_a_build(tmp_path: Path) -> None:
    """The JavaScript plugin starts ``textfrag-myst`` once a build, whatever the number of pages: one
    ``--serve`` answers its specification and every page's transform, where the executable plugin is a
    process per use and per page."""
    myst = engine("myst")
    pages = {f"p{k}.md": PAGE.replace(STALE, MD5).replace("the-f", f"the-f{k}") for k in range(4)}
    root = javascript_project(tmp_path / "book", pages)
    wrapper, starts = counted(tmp_path, BIN / "textfrag-myst")
    r = run([myst, "build", "--site"], root, TEXTFRAG_MYST_PLUGIN=str(wrapper))
    assert r.returncode == 0, r.stdout + r.stderr
    assert starts.read_text(encoding="utf-8").splitlines() == ["start --serve"]
    for k in range(4):
        states = [
            n["data"]["txtfrag-state"]
            for n in nodes(myst_content(root, f"p{k}")["mdast"])
            if "txtfrag-state" in (n.get("data") or {})
        ]  # type: ignore[index, operator]
        assert states == ["current"] * 4, (k, states)


def test_the_server_answers_each_line_in_order_and_outlives_a_wrong_one(tmp_path: Path) -> None:
    """``textfrag-myst --serve``: a line a request, a line an answer, in order; a line that is not a request
    is answered as what mystmd sent wrong (status 2) and the next is served."""
    import json

    page = {"type": "root", "children": [{"type": "paragraph", "children": [{"type": "text", "value": "x"}]}]}
    lines = [
        json.dumps({"transform": "txtfrag-problems", "tree": page}),
        "not json",
        '{"transform": "other"}',
        json.dumps({"transform": "txtfrag-problems", "tree": page}),
    ]
    r = subprocess.run(
        [str(BIN / "textfrag-myst"), "--serve"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    assert answers[0] == {"tree": page} and answers[3] == {"tree": page}
    assert answers[1]["status"] == 2 and "not JSON" in answers[1]["said"]
    assert answers[2]["status"] == 2 and "a request is" in answers[2]["said"]
