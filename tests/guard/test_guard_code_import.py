"""Guard mode on a Docusaurus site's remark-code-import blocks: with ``TEXTFRAG_GUARD=1``, ``textfrag`` finds
the site by its ``docusaurus.config.js`` and guards every fenced code block whose info string holds
``file=`` (``#L2-L4``, ``#L3``, ``#L4-``, the whole file, ``<rootDir>``). The truth is remark-code-import
itself (from the npm registry beside the venv, as the Makefile installs it), run by remark on the page."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ..processes import run_textfrag

MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent  # (.bin: a link)

SHOWN = """\
import fs from "node:fs";
import path from "node:path";
const [, , modules, rootDir, file] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { codeImport } = await import(path.join(modules, "remark-code-import/dist/index.js"));
const { visit } = await import(path.join(modules, "unist-util-visit/index.js"));
const text = fs.readFileSync(file, "utf8");
const processor = remark().use(codeImport, { rootDir });
const tree = await processor.run(processor.parse(text), { path: file, value: text });
const out = [];
visit(tree, "code", (node) => { out.push(node.value); });
console.log(JSON.stringify(out));
"""

APP = "line 1\nline 2\r\nline 3\nline 4\nline 5\n"
FORMS = [
    "file=../src/app.js#L2-L4",
    "file=../src/app.js#L3",
    "file=../src/app.js#L4-",
    "file=../src/app.js",
    "file=<rootDir>/src/app.js#L1-L2",
]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    if shutil.which("node") is None or not (MODULES / "remark-code-import").is_dir():
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("remark-code-import is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip("remark-code-import (npm, installed by the Makefile) is not installed")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.js").write_bytes(APP.encode())
    (tmp_path / "docs").mkdir()
    (tmp_path / "docusaurus.config.js").write_text("module.exports = { title: 'T' };\n", encoding="utf-8")
    page = (
        "# T\n\n"
        + "".join(f'```js title="x" {form}\n```\n\n' for form in FORMS)
        + "````md\n```js file=../src/gone.js\n```\n````\n"
    )
    (tmp_path / "docs" / "intro.mdx").write_text(page, encoding="utf-8")
    (tmp_path / "shown.mjs").write_text(SHOWN, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path


def _shown(site: Path) -> list[str]:
    r = subprocess.run(
        ["node", str(site / "shown.mjs"), str(MODULES), str(site), str(site / "docs" / "intro.mdx")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return list(json.loads(r.stdout))[: len(FORMS)]  # (the last is the outer fence's own code)


def _textfrag(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    return run_textfrag(*args, cwd=site, env=env, timeout=120)


def test_every_block_is_recorded_as_remark_code_import_fills_it(site: Path) -> None:
    texts = _shown(site)
    r = _textfrag(site, "pin", "--write", "docs")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "docusaurus.config.js" in r.stderr and f"recorded {len(FORMS)} includes" in r.stdout, r.stdout + r.stderr
    recorded = json.loads((site / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["docs/intro.mdx"]
    for form, text in zip(FORMS, texts, strict=True):
        assert recorded[f"```{form}"] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}", (form, text)
    assert "gone.js" not in json.dumps(recorded)  # (a code block inside another is its code)


def test_a_moved_range_is_repaired_in_its_own_syntax_and_a_change_is_caught(site: Path) -> None:
    before = _shown(site)
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    app = site / "src" / "app.js"
    app.write_bytes(b"line 0\n" + APP.encode())
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "above"], cwd=site, check=True)
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1
    assert "docs/intro.mdx:3: ```file=../src/app.js#L2-L4: it shows other text" in checked.stderr, checked.stderr
    assert _textfrag(site, "update", "--write", "docs").returncode == 1  # (the whole file changed: left)
    page = (site / "docs" / "intro.mdx").read_text(encoding="utf-8")
    for new in ("#L3-L5", "#L4\n", "#L5-", "<rootDir>/src/app.js#L2-L3"):
        assert new in page, page
    after = _shown(site)
    assert [a == b for a, b in zip(before, after, strict=True)] == [True, True, True, False, True]
    app.write_bytes(b"line 0\n" + APP.replace("line 3", "line three").encode())
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "inside"], cwd=site, check=True)
    changed = _textfrag(site, "check", "docs")
    assert "```file=../src/app.js#L3-L5: it shows other text" in changed.stderr and "+line three" in changed.stderr, (
        changed.stderr
    )
