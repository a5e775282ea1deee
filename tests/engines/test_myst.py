"""``textfrag-myst``, the executable plugin for mystmd / Jupyter Book 2, run by a real ``myst build``."""

from __future__ import annotations

from pathlib import Path

from .conftest import MD5, STALE, engine, myst_content, myst_project, nodes, run

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
    assert inline["value"] == "def g():\n" and inline["data"]["txtfrag-state"] == "current"


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
