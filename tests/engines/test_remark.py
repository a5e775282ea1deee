"""remark-textfrag (``npm/remark-textfrag``), packed with ``npm pack`` and installed from its tarball as a user
installs it, run in a real unified pipeline (remark-parse, remark-rehype, rehype-stringify: what Docusaurus 3
and Astro Starlight run a page through), the HTML parsed: each quote is the contract's ``div.txtfrag`` around
the code block the site highlights, a stale or broken one fails the page with ``check``'s words, and one
``textfrag batch --stream`` serves every page of the build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from textfrag import __version__
from textfrag.cli import main

from ..conftest import REPO, made_once
from .conftest import counted, npm_installed

BIN = Path(sys.executable).parent
MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent
APP = "import os\n\n\ndef greet(name):\n    return f'hello {name}'\n\n\ndef part():\n    return 2\n"

BUILD = """\
import fs from "node:fs";
import path from "node:path";
const [, modules, plugin, ...pages] = process.argv;
const load = async (name, file) => (await import(path.join(modules, name, file))).default;
const { unified } = await import(path.join(modules, "unified/index.js"));
const remarkParse = await load("remark-parse", "index.js");
const remarkRehype = await load("remark-rehype", "index.js");
const rehypeStringify = await load("rehype-stringify", "index.js");
const remarkTextfrag = (await import(plugin)).default;
const processor = unified().use(remarkParse).use(remarkTextfrag, { onStale: process.env.ON_STALE }).use(remarkRehype).use(rehypeStringify);
let failed = 0;
await Promise.all(pages.map(async (page) => {
  try {
    const file = await processor.process({ path: page, value: fs.readFileSync(page, "utf8") });
    fs.writeFileSync(page + ".html", String(file));
    for (const message of file.messages) console.error("warning: " + message.reason);
  } catch (error) {
    failed = 1;
    console.error(error.reason ?? error.message);
  }
}));
process.exit(failed);
"""


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (shutil.which("node") and (MODULES / "remark-rehype").is_dir()):
        pytest.fail("Node.js and remark-rehype (npm) are needed: run the suite with `make test`")
    return made_once(tmp_path_factory, "remark-textfrag", lambda folder: npm_installed(folder, "remark-textfrag"))


def _project(root: Path, pages: dict[str, str]) -> list[Path]:
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "textfrag.toml").write_text("", encoding="utf-8")
    for name, text in pages.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    return [root / "docs" / name for name in pages]


def _build(root: Path, plugin: Path, pages: list[Path], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", "--input-type=module", "-e", BUILD, str(MODULES), str(plugin), *map(str, pages)],
        cwd=root, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env},
    )  # fmt: skip


def _reference(root: Path, *args: str) -> str:
    import io

    out = io.StringIO()
    assert main(["make", "--root", str(root), *args], stdout=out, stderr=io.StringIO()) == 0
    return out.getvalue().strip().splitlines()[-1]


def test_the_package_is_textfrags_version() -> None:
    assert json.loads((REPO / "npm" / "remark-textfrag" / "package.json").read_text(encoding="utf-8"))["version"] == __version__


def test_each_quote_is_the_contracts_excerpt_around_the_sites_code_block(tmp_path: Path, plugin: Path) -> None:
    _project(tmp_path, {})
    ref = _reference(tmp_path, "src/app.py", "--lines", "4-5")
    one = "".join(
        [
            "# Guide\n\n",
            f"![Greeting](txtfrag:{ref})\n\n",
            f"Inline: ![](txtfrag:src/app.py#line=8,9) and a [link to it](txtfrag:{ref}).\n",
        ]
    )
    (tmp_path / "docs" / "one.md").write_text(one, encoding="utf-8")
    r = _build(tmp_path, plugin, [tmp_path / "docs" / "one.md"])
    assert r.returncode == 0, r.stderr
    soup = BeautifulSoup((tmp_path / "docs" / "one.md.html").read_text(encoding="utf-8"), "html.parser")
    block = soup.select_one("div.txtfrag")
    assert block is not None, soup
    assert block["data-txtfrag-ref"] == ref and block["data-txtfrag-state"] == "current"
    assert block["id"].startswith("txtfrag-src-app-py") and block.select_one(".txtfrag-caption").get_text() == "Greeting ¶"
    assert block.select_one(".txtfrag-caption a.headerlink")["href"] == f"#{block['id']}"  # (the contract's visible permalink)
    code = block.select_one("pre > code")
    assert code.get_text() == "def greet(name):\n    return f'hello {name}'\n" and "language-python" in code["class"]
    inline = soup.select_one("p code.txtfrag")
    assert inline is not None and inline.get_text() == "    return 2"
    link = soup.find("a", string="link to it")
    assert link["href"] == f"#{block['id']}"
    assert "txtfrag:" not in str(soup)


def test_a_stale_or_broken_quote_fails_the_page_with_checks_words(tmp_path: Path, plugin: Path) -> None:
    pages = _project(
        tmp_path,
        {
            "good.md": "# Good\n\n![](txtfrag:src/app.py#line=0,1)\n",
            "bad.md": "# Bad\n\n![](txtfrag:src/app.py#line=0,1;md5=00000000000000000000000000000000)\n\n"
            "![](txtfrag:src/nope.py#line=0,1)\n",
        },
    )
    r = _build(tmp_path, plugin, pages)
    assert r.returncode == 1, r.stderr
    checked = subprocess.run(
        [str(BIN / "textfrag"), "check", "docs/bad.md"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    for line in checked.stderr.splitlines():
        if line.startswith("docs/bad.md:"):
            said = line.split(": ", 1)[1]  # (the reference and what is wrong, as check says them)
            assert said in r.stderr, (said, r.stderr)
    assert "docs/bad.md:3: " in r.stderr and "docs/bad.md:5: " in r.stderr and "no such file: src/nope.py" in r.stderr
    assert (tmp_path / "docs" / "good.md.html").exists()
    (tmp_path / "docs" / "bad.md").write_text("# Bad\n\n![](txtfrag:src/app.py#line=0,1;md5=00000000000000000000000000000000)\n")
    warned = _build(tmp_path, plugin, pages[1:], ON_STALE="warning")
    assert warned.returncode == 0 and "warning: docs/bad.md:3: " in warned.stderr and "stale" in warned.stderr, warned.stderr
    soup = BeautifulSoup((tmp_path / "docs" / "bad.md.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("div.txtfrag")["data-txtfrag-state"] == "stale" and soup.select_one(".txtfrag-notice")


def test_one_textfrag_serves_every_page_of_a_build(tmp_path: Path, plugin: Path) -> None:
    lines = (0, 3, 4, 7, 8)  # (lines with text: an empty one is an empty code block in remark-rehype)
    pages = _project(tmp_path, {f"p{k}.md": f"# P{k}\n\n![](txtfrag:src/app.py#line={k},{k + 1})\n" for k in lines})
    wrapper, starts = counted(tmp_path, BIN / "textfrag")
    r = _build(tmp_path, plugin, pages, TEXTFRAG_COMMAND=str(wrapper))
    assert r.returncode == 0, r.stderr
    assert starts.read_text(encoding="utf-8").splitlines() == ["start batch --stream"]
    for k, page in zip(lines, pages, strict=True):
        soup = BeautifulSoup(Path(f"{page}.html").read_text(encoding="utf-8"), "html.parser")
        assert soup.select_one("div.txtfrag pre code").get_text() == APP.splitlines(keepends=True)[k], k


def test_guard_mode_judges_the_sites_own_includes_in_the_same_build(tmp_path: Path, plugin: Path) -> None:
    """In a Docusaurus site whose configuration names remark-textfrag, guard mode (``TEXTFRAG_GUARD=1``) in
    the build judges remark-code-import's blocks against textfrag.lock as ``check`` does: a page that quotes
    nothing but includes a file fails the build once the included lines change, with check's line."""
    [page] = _project(tmp_path, {"one.md": "# One\n\n```py file=../src/app.py#L4-L5\n```\n"})
    (tmp_path / "docusaurus.config.mjs").write_text("import remarkTextfrag from 'remark-textfrag';\nexport default {};\n")
    guard = {"TEXTFRAG_GUARD": "1"}
    pinned = subprocess.run(
        [str(BIN / "textfrag"), "pin", "--write", "docs"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, **guard},
    )
    assert pinned.returncode == 0 and "recorded 1 include" in pinned.stdout, pinned.stdout + pinned.stderr
    assert _build(tmp_path, plugin, [page], **guard).returncode == 0
    (tmp_path / "src" / "app.py").write_text(APP.replace("hello", "hi"), encoding="utf-8")
    r = _build(tmp_path, plugin, [page], **guard)
    checked = subprocess.run(
        [str(BIN / "textfrag"), "check", "docs"], cwd=tmp_path, capture_output=True, text=True, env={**os.environ, **guard}
    )
    said = [line for line in checked.stderr.splitlines() if line.startswith("docs/one.md:3: ")]
    assert r.returncode == 1 and len(said) == 1 and said[0] in r.stderr, (checked.stderr, r.stderr)
    assert _build(tmp_path, plugin, [page]).returncode == 0  # (guard mode off: the include is not textfrag's business)
