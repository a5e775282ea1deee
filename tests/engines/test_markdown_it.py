"""markdown-it-textfrag (``npm/markdown-it-textfrag``), packed with ``npm pack`` and installed from its tarball,
run in VitePress's own markdown renderer (``createMarkdownRenderer``: markdown-it with Shiki, as a VitePress
build renders each page), the HTML parsed: each quote is the contract's ``div.txtfrag`` around the code block
Shiki highlights (its emphasised lines too), a stale or broken one fails the page with ``check``'s words,
and one ``textfrag batch --stream`` serves every page, though markdown-it renders synchronously."""

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

from ..conftest import REPO, made_once
from .conftest import counted, npm_installed

BIN = Path(sys.executable).parent
MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent
APP = "import os\n\n\ndef greet(name):\n    return f'hello {name}'\n\n\ndef part():\n    return 2\n"

RENDER = """\
import fs from "node:fs";
import path from "node:path";
const [, vitepress, plugin, srcDir, ...pages] = process.argv;
const { createMarkdownRenderer } = await import(path.join(vitepress, "dist/node/index.js"));
const textfrag = (await import(plugin)).default;
const md = await createMarkdownRenderer(srcDir, { config: (md) => md.use(textfrag, { onStale: process.env.ON_STALE }) });
let failed = 0;
for (const page of pages) {
  try {
    const env = { path: page, relativePath: path.relative(srcDir, page), cleanUrls: false };
    fs.writeFileSync(page + ".html", md.render(fs.readFileSync(page, "utf8"), env));
  } catch (error) {
    failed = 1;
    console.error(error.message);
  }
}
process.exit(failed);
"""


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (shutil.which("node") and (MODULES / "vitepress").is_dir()):
        pytest.fail("Node.js and VitePress (npm) are needed: run the suite with `make test`")
    return made_once(tmp_path_factory, "markdown-it-textfrag", lambda folder: npm_installed(folder, "markdown-it-textfrag"))


def _project(root: Path, pages: dict[str, str]) -> list[Path]:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "textfrag.toml").write_text("", encoding="utf-8")
    for name, text in pages.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    return [root / "docs" / name for name in pages]


def _render(root: Path, plugin: Path, pages: list[Path], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", "--input-type=module", "-e", RENDER, str(MODULES / "vitepress"), str(plugin), str(root / "docs"), *map(str, pages)],
        cwd=root, capture_output=True, text=True, timeout=180,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env},
    )  # fmt: skip


def test_the_package_is_textfrags_version() -> None:
    assert (
        json.loads((REPO / "npm" / "markdown-it-textfrag" / "package.json").read_text(encoding="utf-8"))["version"] == __version__
    )


def test_each_quote_is_the_contracts_excerpt_around_the_code_block_shiki_highlights(tmp_path: Path, plugin: Path) -> None:
    _project(tmp_path, {})
    ref = subprocess.run(
        [str(BIN / "textfrag"), "make", "src/app.py", "--lines", "4-5"], cwd=tmp_path, capture_output=True, text=True
    ).stdout.strip()
    page = (
        f"# Guide\n\n![Greeting](txtfrag:{ref})\n\nInline ![](txtfrag:src/app.py#line=8,9) and a [link to it](txtfrag:{ref}).\n"
    )
    [one] = _project(tmp_path, {"one.md": page})
    r = _render(tmp_path, plugin, [one])
    assert r.returncode == 0, r.stderr
    soup = BeautifulSoup(Path(f"{one}.html").read_text(encoding="utf-8"), "html.parser")
    block = soup.select_one("div.txtfrag")
    assert block is not None, soup
    assert (
        block["data-txtfrag-ref"] == ref
        and block["data-txtfrag-state"] == "current"
        and block["id"].startswith("txtfrag-src-app-py")
    )
    assert block.select_one(".txtfrag-caption").get_text() == "Greeting ¶"
    assert block.select_one(".txtfrag-caption a.headerlink")["href"] == f"#{block['id']}"  # (the contract's visible permalink)
    assert block.select_one("div.language-python pre.shiki") is not None  # (Shiki highlighted it, as VitePress does)
    # (Shiki writes no line ending after the last line, as in every VitePress code block)
    assert block.select_one("pre code").get_text() == "def greet(name):\n    return f'hello {name}'"
    inline = soup.select_one("p code.txtfrag")
    assert inline is not None and inline.get_text() == "    return 2"
    assert soup.find("a", string="link to it")["href"] == f"#{block['id']}"
    assert "txtfrag:" not in str(soup)


def test_a_stale_or_broken_quote_fails_the_page_with_checks_words(tmp_path: Path, plugin: Path) -> None:
    [bad] = _project(
        tmp_path,
        {
            "bad.md": "# Bad\n\n![](txtfrag:src/app.py#line=0,1;md5=00000000000000000000000000000000)\n\n![](txtfrag:src/nope.py#line=0,1)\n"
        },
    )
    r = _render(tmp_path, plugin, [bad])
    assert r.returncode == 1, r.stderr
    checked = subprocess.run(
        [str(BIN / "textfrag"), "check", "docs/bad.md"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    said = [line for line in checked.stderr.splitlines() if line.startswith("docs/bad.md:")]
    assert len(said) == 2 and all(line in r.stderr for line in said), (said, r.stderr)
    bad.write_text("# Bad\n\n![](txtfrag:src/app.py#line=0,1;md5=00000000000000000000000000000000)\n", encoding="utf-8")
    warned = _render(tmp_path, plugin, [bad], ON_STALE="warning")
    assert warned.returncode == 0 and "docs/bad.md:3: " in warned.stderr and "stale" in warned.stderr, warned.stderr
    soup = BeautifulSoup(Path(f"{bad}.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("div.txtfrag")["data-txtfrag-state"] == "stale" and soup.select_one(".txtfrag-notice")


def test_one_textfrag_serves_every_page_though_markdown_it_renders_synchronously(tmp_path: Path, plugin: Path) -> None:
    lines = (0, 3, 4, 7, 8)
    pages = _project(tmp_path, {f"p{k}.md": f"# P{k}\n\n![](txtfrag:src/app.py#line={k},{k + 1})\n" for k in lines})
    wrapper, starts = counted(tmp_path, BIN / "textfrag")
    r = _render(tmp_path, plugin, pages, TEXTFRAG_COMMAND=str(wrapper))
    assert r.returncode == 0, r.stderr
    assert starts.read_text(encoding="utf-8").splitlines() == ["start batch --stream"]
    for k, page in zip(lines, pages, strict=True):
        soup = BeautifulSoup(Path(f"{page}.html").read_text(encoding="utf-8"), "html.parser")
        assert soup.select_one("div.txtfrag pre code").get_text() == APP.splitlines()[k], k
