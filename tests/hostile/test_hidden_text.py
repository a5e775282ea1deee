"""Hidden text in quotes: an excerpt holding bidirectional control characters (Trojan Source,
CVE-2021-42574) shows code that reads differently from what it does. ``check`` and every build warn (a kind
of its own, ``bidi``, that can be silenced and fails nothing by itself), and the HTML marks each character
where it stands, the excerpt's text unchanged."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bs4 import BeautifulSoup

from ..conftest import new_project
from ..processes import run_mkdocs, run_sphinx
from .conftest import textfrag

# the classic: a comment that seems to end a line early (RLO ... PDI)
TROJAN = 'access_level = "user"\nif access_level != "user\u202e \u2066// Check if admin\u2069 \u2066":\n    grant()\n'
ENV = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""}


def _project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "auth.py", TROJAN)
    (root / "src" / "plain.py").write_text("x = 1\n")
    (root / "docs" / "a.md").write_text("![](txtfrag:src/auth.py#line=1,2)\n\n![](txtfrag:src/plain.py)\n")
    return root


def test_check_warns_of_bidi_controls_and_passes(tmp_path: Path) -> None:
    root = _project(tmp_path)
    r = textfrag("check", "--root", str(root), "docs", cwd=root, env=ENV)
    assert r.code == 0, r.err  # a warning fails nothing by itself
    assert "docs/a.md:1: txtfrag:src/auth.py#line=1,2: warning: the excerpt holds 4 bidirectional control characters" in r.err
    assert "U+202E RIGHT-TO-LEFT OVERRIDE at line 2, the first" in r.err and "CVE-2021-42574" in r.err
    assert "\u202e" not in r.err  # and the message itself carries none
    assert "1 warning" in r.out
    assert "plain.py" not in r.err

    silent = textfrag("check", "--root", str(root), "--allow-bidi", "docs", cwd=root, env=ENV)
    assert silent.code == 0 and "warning" not in silent.err and "warning" not in silent.out

    # each machine format says it as a warning
    data = json.loads(textfrag("check", "--root", str(root), "--format", "json", "docs", cwd=root, env=ENV).out)
    [warned] = [x for x in data["results"] if x.get("warnings")]
    assert warned["status"] == "current" and "bidirectional" in warned["warnings"][0]
    schema = json.loads((Path(__import__("textfrag").__file__).parent / "schemas" / "results.schema.json").read_text())
    import jsonschema

    jsonschema.validate(data, schema)
    sarif = json.loads(textfrag("check", "--root", str(root), "--format", "sarif", "docs", cwd=root, env=ENV).out)
    [result] = sarif["runs"][0]["results"]
    assert result["ruleId"] == "textfrag/bidi" and result["level"] == "warning"
    github = textfrag("check", "--root", str(root), "--format", "github", "docs", cwd=root, env=ENV)
    assert any(line.startswith("::warning file=docs/a.md,line=1,") for line in github.out.splitlines())


def test_sphinx_warns_marks_each_character_and_can_be_silenced(tmp_path: Path) -> None:
    root = _project(tmp_path)
    docs = root / "docs"
    (docs / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (docs / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/auth.py#line=1,2\n\nInline :txtfrag:`src/auth.py#line=1,2`.\n")
    out = tmp_path / "html"
    r = run_sphinx("-E", "-b", "html", str(docs), str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("[textfrag.bidi]") == 2 and "index.rst:4" in r.stderr
    soup = BeautifulSoup((out / "index.html").read_text(encoding="utf-8"), "html.parser")
    block = soup.select_one("div.txtfrag")
    assert block is not None
    marks = block.select("pre .txtfrag-bidi")
    assert [m["data-codepoint"] for m in marks] == ["U+202E", "U+2066", "U+2069", "U+2066"]
    assert block.select_one("pre").get_text() == TROJAN.splitlines(keepends=True)[1]  # the text is the excerpt
    assert len(soup.select("span.txtfrag code .txtfrag-bidi")) == 4

    (docs / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nsuppress_warnings = ['textfrag.bidi']\n"
    )
    r = run_sphinx("-E", "-W", "-b", "html", str(docs), str(out))
    assert r.returncode == 0 and "bidi" not in r.stderr, r.stderr


def test_mkdocs_warns_and_marks_each_character(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "docs" / "index.md").write_text("# T\n\n![](txtfrag:src/auth.py#line=1,2)\n")
    (root / "docs" / "a.md").unlink()
    (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag\n")
    r = run_mkdocs("build", cwd=root)
    assert r.returncode == 0, r.stderr
    assert "index.md:3: txtfrag:src/auth.py#line=1,2: the excerpt holds 4 bidirectional control characters" in r.stderr
    soup = BeautifulSoup((root / "site" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert len(soup.select("div.txtfrag pre .txtfrag-bidi")) == 4
    strict = run_mkdocs("build", "--strict", cwd=root)
    assert strict.returncode != 0  # a warning, as any: --strict fails on it
    (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag:\n      warn_bidi: false\n")
    quiet = run_mkdocs("build", "--strict", cwd=root)
    assert quiet.returncode == 0 and "bidirectional" not in quiet.stderr, quiet.stderr
