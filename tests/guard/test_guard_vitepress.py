"""Guard mode on a VitePress site: with ``TEXTFRAG_GUARD=1``, ``textfrag`` finds the site by its
``.vitepress/config.mts`` and guards its ``<<<`` snippets (the whole file, or a region, ``@`` for the
source folder, highlights and titles aside). The truth is VitePress itself (from the npm registry beside
the venv, as the Makefile installs it): its own Markdown renderer, whose highlighter is handed each
snippet's text."""

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
VITEPRESS = MODULES / "vitepress"

SHOWN = """\
import fs from "node:fs";
import path from "node:path";
const [, , vitepress, srcDir, file] = process.argv;
const { createMarkdownRenderer } = await import(path.join(vitepress, "dist/node/index.js"));
const seen = [];
const md = await createMarkdownRenderer(srcDir, { highlight: (text) => { seen.push(text); return ""; } });
md.render(fs.readFileSync(file, "utf8"), { path: file, relativePath: path.relative(srcDir, file), cleanUrls: false });
console.log(JSON.stringify(seen));
"""

APP = (
    "const a = 1\n// #region setup\n  const b = 2\n  // #region inner\n  const c = 3\n  // #endregion inner\n"
    "// #endregion setup\r\nconst d = 4\n/* #region css */\n.x {}\n/* #endregion css */\n"
)

FORMS = ["<<< @/../src/app.js", "<<< ../src/app.js#setup{2 js} [App]", "<<< ../src/app.js#inner", "<<< @/../src/app.js#css"]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    if shutil.which("node") is None or not VITEPRESS.is_dir():
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("VitePress is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip("VitePress (npm, installed by the Makefile) is not installed")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.js").write_text(APP, encoding="utf-8", newline="")
    (tmp_path / "docs" / ".vitepress").mkdir(parents=True)
    (tmp_path / "docs" / ".vitepress" / "config.mts").write_text("export default { title: 'T' }\n", encoding="utf-8")
    page = "# T\n\n" + "".join(f"{form}\n\n" for form in FORMS) + "```md\n<<< ../src/gone.js\n```\n"
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "shown.mjs").write_text(SHOWN, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path


def _shown(site: Path) -> list[str]:
    r = subprocess.run(
        ["node", str(site / "shown.mjs"), str(VITEPRESS), str(site / "docs"), str(site / "docs" / "index.md")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return list(json.loads(r.stdout))[: len(FORMS)]  # (the last is the fence's own code)


def _textfrag(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    return run_textfrag(*args, cwd=site, env=env, timeout=120)


def test_every_snippet_is_recorded_as_vitepress_shows_it_and_a_change_is_caught(site: Path) -> None:
    texts = _shown(site)
    r = _textfrag(site, "pin", "--write", "docs")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "docs/.vitepress/config.mts" in r.stderr and f"recorded {len(FORMS)} includes" in r.stdout, r.stdout + r.stderr
    recorded = json.loads((site / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["index.md"]
    keys = ["<<< @/../src/app.js", "<<< ../src/app.js#setup", "<<< ../src/app.js#inner", "<<< @/../src/app.js#css"]
    for key, text in zip(keys, texts, strict=True):
        assert recorded[key] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}", (key, text)
    assert "gone.js" not in json.dumps(recorded)  # (a snippet in a code fence is code)
    assert _textfrag(site, "check", "docs").returncode == 0
    app = site / "src" / "app.js"
    app.write_bytes(b"// one line more\n" + app.read_bytes().replace(b"const c = 3", b"const c = 30"))
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "c"], cwd=site, check=True)
    checked = _textfrag(site, "check", "docs")
    stale = {line.split(": ")[1] for line in checked.stderr.splitlines() if "it shows other text" in line}
    # (a line above changes the whole file, not a region: as VitePress shows them)
    assert stale == {"<<< @/../src/app.js", "<<< ../src/app.js#setup", "<<< ../src/app.js#inner"}, checked.stderr
    assert "-const c = 3" in checked.stderr and "+const c = 30" in checked.stderr, checked.stderr


def test_a_region_that_is_not_in_the_file_is_a_located_problem(site: Path) -> None:
    (site / "docs" / "index.md").write_text("# T\n\n<<< ../src/app.js#nowhere\n", encoding="utf-8")
    r = _textfrag(site, "pin", "--write", "docs")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "docs/index.md:3: <<< ../src/app.js#nowhere:" in r.stderr and "no region 'nowhere'" in r.stderr, r.stderr
