"""A plugin of an engine outside Python through the batch protocol: the manual's example remark plugin
(docs/examples/remark-textfrag.mjs), run by the real remark (npm, installed by the Makefile) on a page,
renders each ``txtfrag:`` image as the core's excerpt and fails the file on a stale quote, with
``check``'s words."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..conftest import REPO, commit_all, new_project
from ..processes import run_textfrag

MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent  # (.bin: a link)
PLUGIN = REPO / "docs" / "examples" / "remark-textfrag.mjs"
RUN = """\
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [, , modules, plugin, file] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { default: remarkTextfrag } = await import(pathToFileURL(plugin).href);
try {
  const out = await remark().use(remarkTextfrag, { command: process.env.TEXTFRAG_COMMAND }).process({ path: file, value: fs.readFileSync(file, "utf8") });
  process.stdout.write(String(out));
} catch (failed) {
  process.stderr.write(String(failed.reason ?? failed) + "\\n" + (failed.file?.messages ?? []).map(String).join("\\n"));
  process.exit(1);
}
"""
APP = "".join(f"const line{i} = {i};\n" for i in range(1, 9))
MD5 = hashlib.md5(APP.encode()).hexdigest()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    if shutil.which("node") is None or not (MODULES / "remark").is_dir():
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("remark is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip("remark (npm, installed by the Makefile) is not installed")
    root = new_project(tmp_path / "site", "app.js", APP)
    (root / "docs" / "page.md").write_text(
        f"# Page\n\n![The second line](txtfrag:src/app.js#line=1,2;length={len(APP)};md5={MD5})\n", encoding="utf-8"
    )
    (root / "run.mjs").write_text(RUN, encoding="utf-8")
    commit_all(root)
    return root


def _remark(site: Path) -> subprocess.CompletedProcess[str]:
    # the textfrag command of the installed package: the one beside this interpreter
    command = str(Path(sys.executable).with_name("textfrag"))
    return subprocess.run(
        ["node", "run.mjs", str(MODULES), str(PLUGIN), "docs/page.md"],
        cwd=site,
        capture_output=True,
        text=True,
        env={**os.environ, "TEXTFRAG_COMMAND": command},
        timeout=120,
    )


def test_remark_renders_the_cores_excerpt(site: Path) -> None:
    r = _remark(site)
    assert r.returncode == 0, r.stderr
    figure = BeautifulSoup(r.stdout, "html.parser").select_one("figure.txtfrag")
    assert figure is not None
    assert figure.select_one("code").get_text() == "const line2 = 2;\n"
    assert figure.select_one("figcaption").get_text() == "The second line"
    assert figure["data-txtfrag-md5"] == MD5 and figure["data-txtfrag-state"] == "current"
    assert figure["id"] == "txtfrag-src-app-js-line-1-2"


def test_remark_fails_on_a_stale_quote_with_checks_words(site: Path) -> None:
    (site / "src" / "app.js").write_text("// new\n" + APP, encoding="utf-8")
    r = _remark(site)
    check = run_textfrag("check", "docs", cwd=site, timeout=60)
    assert r.returncode == 1 and check.returncode == 1
    said = next(line for line in check.stderr.splitlines() if line.startswith("docs/page.md:3: "))
    assert said in r.stderr and "moved" in r.stderr
