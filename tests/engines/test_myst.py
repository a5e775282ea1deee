"""``textfrag-myst``, the executable plugin for mystmd / Jupyter Book 2, run by a real ``myst build``."""

from __future__ import annotations

from pathlib import Path

from .conftest import APP, BIN, MD5, STALE, engine, myst_content, myst_project, nodes, run

GOOD = f"""# Doc

```{{txtfrag}} src/app.py#line=0,2;md5={MD5}
:caption: The f function
:linenos:
:emphasize-lines: 2
```

Inline {{txtfrag}}`src/app.py#line=4,5;md5={MD5}` here.
"""


def test_the_directive_and_role_become_mystmd_code_nodes(tmp_path: Path) -> None:
    myst = engine("myst")
    root = myst_project(tmp_path / "book", {"doc.md": GOOD})
    r = run([myst, "build", "--site"], root)
    assert r.returncode == 0, r.stdout + r.stderr
    tree = myst_content(root, "doc")["mdast"]
    [container] = [n for n in nodes(tree) if n.get("type") == "container"]
    assert container["identifier"] == "txtfrag-src-app-py-line-0-2" and container["kind"] == "code"
    assert container["data"] == {
        "txtfrag-ref": f"src/app.py#line=0,2;md5={MD5}",
        "txtfrag-md5": MD5,
        "txtfrag-length": "46",
        "txtfrag-charset": "UTF-8",
        "txtfrag-state": "current",
    }
    [code] = [n for n in nodes(container) if n.get("type") == "code"]
    assert code["value"] == "def f():\n    return 1" and code["lang"] == "python"
    assert (code["showLineNumbers"], code["startingLineNumber"], code["emphasizeLines"]) == (True, 1, [2])
    caption = "".join(str(n.get("value", "")) for n in nodes(container) if n.get("type") == "text")
    assert "The f function" in caption
    [inline] = [n for n in nodes(tree) if n.get("type") == "inlineCode"]
    assert inline["value"] == "def g():" and inline["data"]["txtfrag-state"] == "current"
    assert not [n for n in nodes(tree) if "txtfrag-pending" in (n.get("data") or {})]  # (every use resolved)


def test_a_use_costs_python_s_start_alone_and_waits_for_its_page_s_transform(tmp_path: Path) -> None:
    """mystmd starts the plugin for every use of the directive and the role: that process imports nothing of
    textfrag's, nor a JSON reader, and answers with a placeholder holding what it was sent; the page's
    transform (one process per page) replaces it with the verdict, as the build above shows. What is not a
    JSON object, or nests too deeply, is refused at once (exit 2)."""
    import json
    import subprocess
    import sys

    script = BIN / "textfrag-myst"
    node = {"position": {"start": {"line": 3}}}
    sent = {"name": "txtfrag", "arg": "src/app.py#line=0,2", "options": {"linenos": True}, "node": node}
    for kind, said in (("--directive", sent), ("--role", {"name": "txtfrag", "body": "src/app.py#line=0,1", "node": node})):
        r = subprocess.run(
            [sys.executable, "-X", "importtime", str(script), kind, "txtfrag"],
            input=json.dumps(said),
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert r.returncode == 0, r.stderr[-2000:]
        imported = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
        assert "myst_textfrag.launch" in imported
        assert not [
            m
            for m in imported
            if m in ("textfrag", "json.decoder", "typing") or m.startswith(("textfrag.", "myst_textfrag.plugin"))
        ]
        [placeholder] = json.loads(r.stdout)
        assert placeholder["type"] == ("div" if kind == "--directive" else "inlineCode")
        assert placeholder["data"]["txtfrag-use"] == kind[2:] and json.loads(placeholder["data"]["txtfrag-pending"]) == said
    for wrong in ("[1, 2]", "not json", ""):
        r = subprocess.run([str(script), "--directive", "txtfrag"], input=wrong, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "textfrag-myst: what mystmd sent is not a JSON object" in r.stderr, r.stderr


def test_a_placeholder_whose_data_cannot_be_read_is_a_problem_of_its_page(tmp_path: Path, monkeypatch: object) -> None:
    """What a use's process kept is read by the page's transform: data that is not a JSON object there (never
    what mystmd sends) is a problem of the page, said in place, and the build fails."""
    import pytest

    from myst_textfrag import plugin

    mp: pytest.MonkeyPatch = monkeypatch  # type: ignore[assignment]
    mp.chdir(tmp_path)
    mp.setenv("TEXTFRAG_ROOT", str(tmp_path))
    mp.setattr(plugin, "_ledger", lambda: tmp_path / "ledger.jsonl")
    bad = {"type": "div", "children": [], "data": {"txtfrag-use": "directive", "txtfrag-pending": "{not json"}}
    tree = {"type": "root", "children": [bad]}
    with pytest.raises(plugin._Failed) as failed:
        plugin.transform(tree)
    assert "what mystmd sent for this use cannot be read as a JSON object" in str(failed.value)
    [shown] = tree["children"]
    assert shown["type"] == "admonition" and "txtfrag-problem" in shown["data"]


def test_stale_and_broken_references_fail_myst_build_each_located(tmp_path: Path) -> None:
    myst = engine("myst")
    bad = f"# Bad\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n\nand {{txtfrag}}`src/nope.py#line=1,2` x\n"
    other = "# Other\n\n:::{txtfrag} src/gone.py#line=0,9\n:::\n"
    root = myst_project(tmp_path / "book", {"doc.md": GOOD, "bad.md": bad, "other.md": other})
    r = run([myst, "build", "--site"], root)  # fails without --strict too
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert f"bad.md:3: src/app.py#line=0,2;md5={STALE}: stale" in out
    assert "bad.md:6: src/nope.py#line=1,2: no such file: src/nope.py" in out
    assert "other.md:3: src/gone.py#line=0,9: no such file" in out
    assert "textfrag: 3 references are stale or broken; the build fails" in out


def test_a_stale_reference_set_to_warn_is_shown_with_its_notice(tmp_path: Path) -> None:
    myst = engine("myst")
    stale = f"# S\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n"
    root = myst_project(tmp_path / "book", {"doc.md": stale})
    r = run([myst, "build", "--site"], root, TEXTFRAG_ON_STALE="warning")
    assert r.returncode == 0, r.stdout + r.stderr
    tree = myst_content(root, "doc")["mdast"]
    kinds = [(n["type"], n.get("kind")) for n in nodes(tree) if n.get("type") in ("admonition", "code")]
    assert kinds[:2] == [("admonition", "warning"), ("code", None)]
    [block] = [n for n in nodes(tree) if "txtfrag-ref" in (n.get("data") or {})]
    assert block["data"]["txtfrag-state"] == "stale"


def test_migrate_turns_mystmd_literalincludes_into_txtfrag_with_the_same_code(tmp_path: Path) -> None:
    """mystmd's own docs write ``:::{literalinclude} x`` with a blank line inside, and ``:label:``: both
    migrate, and mystmd then shows the same code through textfrag-myst."""
    myst = engine("myst")
    page = "# P\n\n:::{literalinclude} src/app.py\n:label: the-app\n:lines: 1-2\n:::\n\n```{literalinclude} src/app.py\n\n```\n"
    root = myst_project(tmp_path / "book", {"doc.md": page})
    assert run([myst, "build", "--site"], root).returncode == 0
    before = [n["value"] for n in nodes(myst_content(root, "doc")["mdast"]) if n.get("type") == "code"]
    from textfrag.cli import main

    assert main(["migrate", "--root", str(root), "--write", str(root / "doc.md")]) == 0
    migrated = (root / "doc.md").read_text(encoding="utf-8")
    assert migrated.count("{txtfrag}") == 2 and "literalinclude" not in migrated and ":name: the-app" in migrated
    r = run([myst, "build", "--site"], root)
    assert r.returncode == 0, r.stdout + r.stderr
    tree = myst_content(root, "doc")["mdast"]
    after = [n["value"] for n in nodes(tree) if n.get("type") == "code"]
    assert after == before == ["def f():\n    return 1", APP]  # as mystmd's literalinclude: the file as it is
    assert [n["lang"] for n in nodes(tree) if n.get("type") == "code"] == ["python", "python"]  # not Sphinx's "default"
    assert any(n.get("identifier") == "the-app" for n in nodes(tree))


def test_jupyter_book_2_runs_the_plugin_and_fails_on_a_stale_reference(tmp_path: Path) -> None:
    jupyter_book = engine("jupyter-book")
    root = myst_project(tmp_path / "book", {"doc.md": GOOD})
    r = run([jupyter_book, "build", "--site"], root)
    assert r.returncode == 0, r.stdout + r.stderr
    [container] = [n for n in nodes(myst_content(root, "doc")["mdast"]) if n.get("type") == "container"]
    assert container["data"]["txtfrag-state"] == "current"
    (root / "bad.md").write_text(f"# Bad\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n", encoding="utf-8")
    r = run([jupyter_book, "build", "--site"], root)
    assert r.returncode != 0
    assert f"bad.md:3: src/app.py#line=0,2;md5={STALE}: stale" in r.stdout + r.stderr


def test_the_symbol_and_region_intents_in_mystmd(tmp_path: Path) -> None:
    myst = engine("myst")
    pinned = f"src/app.py#line=4,6;length={len(APP)};md5={MD5}"
    good = f"# Doc\n\n```{{txtfrag}} {pinned}\n:symbol: g\n```\n"
    root = myst_project(tmp_path / "book", {"doc.md": good})
    r = run([myst, "build", "--site"], root)
    assert r.returncode == 0, r.stdout + r.stderr
    [code] = [n for n in nodes(myst_content(root, "doc")["mdast"]) if n.get("type") == "code"]
    assert code["value"] == "def g():\n    return 2\n"  # (to the file's end: its last line ending kept)
    (root / "doc.md").write_text(good.replace(":symbol: g", ":symbol: h"), encoding="utf-8")
    bad = run([myst, "build", "--site"], root)
    assert bad.returncode != 0 and "no definition named 'h' in the file" in bad.stdout + bad.stderr


def test_a_failing_page_lists_the_problems_of_pages_mystmd_has_not_read_yet(tmp_path: Path, monkeypatch: object) -> None:
    """mystmd may transform a page before it runs the directives of another (under load it does): the
    failure still lists every problem of the project, each located, whatever the order."""
    import pytest

    from myst_textfrag import plugin

    mp: pytest.MonkeyPatch = monkeypatch  # type: ignore[assignment]
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    (tmp_path / "read.md").write_text("# R\n\n:::{txtfrag} src/gone.py#line=0,9\n:::\n")
    (tmp_path / "unread.md").write_text(f"# U\n\n```{{txtfrag}} src/app.py#line=0,2;md5={STALE}\n```\n")
    mp.chdir(tmp_path)
    mp.setenv("TEXTFRAG_ROOT", str(tmp_path))
    mp.setattr(plugin, "_ledger", lambda: tmp_path / "ledger.jsonl")
    # the directive of read.md ran (as mystmd runs it); unread.md's has not yet
    [node] = plugin.directive({"arg": "src/gone.py#line=0,9", "node": {"position": {"start": {"line": 3}}}})
    said = node["data"]["txtfrag-problem"]
    assert said.startswith("read.md:3: src/gone.py#line=0,9: no such file: src/gone.py")
    with pytest.raises(plugin._Failed) as failed:
        plugin.transform({"type": "root", "children": [node]})
    assert said in str(failed.value)
    assert f"unread.md:3: src/app.py#line=0,2;md5={STALE}: stale" in str(failed.value)
    assert "2 references are stale or broken" in str(failed.value)


def test_a_markdown_image_or_link_fails_the_myst_build_and_check_alike(tmp_path: Path) -> None:
    """mystmd showed ``![](txtfrag:...)`` as a broken image and ``[x](txtfrag:...)`` as a dead link, and
    built (exit 0), while check judged both as excerpts: now each fails the build, check (reading myst.yml)
    and the editor with the same words; a directive beside them passes."""
    myst = engine("myst")
    pinned = f"src/app.py#line=0,2;length={len(APP)};md5={MD5}"
    pages = {
        "img.md": f"# I\n\n![](txtfrag:{pinned})\n",
        "link.md": f"# L\n\nSee [x](txtfrag:{pinned}).\n",
        "doc.md": f"# D\n\n```{{txtfrag}} {pinned}\n```\n",
    }
    root = myst_project(tmp_path / "book", pages)
    r = run([myst, "build", "--site"], root)
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    image = f"img.md:3: txtfrag:{pinned}: mystmd does not embed a Markdown image (it shows a broken image)"
    link = f"link.md:3: txtfrag:{pinned}: mystmd does not verify or resolve a txtfrag: link (it shows a dead link)"
    assert image in out and link in out and "doc.md:" not in out
    assert "textfrag: 2 references are stale or broken; the build fails" in out  # (each said once)
    checked = run([BIN / "textfrag", "check"], root)
    assert checked.returncode == 2 and image in checked.stderr and link in checked.stderr, checked.stderr
    assert "doc.md:" not in checked.stderr
