"""Guard mode on the other engines, against each engine's own build of the same pages: 3,000 includes in
100 documents quoting 100 files, recorded (``textfrag pin --write``) and checked (``textfrag check``).
Target: recording and checking cost at most what the engine's build costs for them.

- ``asciidoc``: ``include::f[lines=A..B]``; the build is Asciidoctor.js converting every document (npm
  ``@asciidoctor/core``, as the Makefile installs it);
- ``vitepress``: ``<<< @/snippets/f.ts{1}`` regions; the build is ``vitepress build``;
- ``code-import``: remark-code-import's ``file=./f.js#LA-LB`` blocks (a Docusaurus site); the build is
  remark with the plugin over every page;
- ``variants``: FastAPI's ``{* f.py ln[A:B] *}``; the build is ``mkdocs build`` with
  markdown_include_variants and mdx_include.

    .venv/bin/python bench/bench_engines.py [ENGINE ...] [--includes 3000] [--runs 3]

Each tree is generated once into bench/.tree-ENGINE-N/ (deterministic); each command runs --runs times
alternately (page cache warm); medians and ratios are printed. mdBook has its own (bench_mdbook.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
MODULES = Path(os.environ.get("TEXTFRAG_MYST", HERE.parent / ".venv/node/node_modules/.bin/myst")).absolute().parent.parent
DOCS, FILES = 100, 100

ASCIIDOC_BUILD = """\
const fs = require("fs"), path = require("path");
const core = require(process.argv[2]);
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
for (const f of fs.readdirSync(process.argv[3]).filter((n) => n.endsWith(".adoc")))
  asciidoctor.convertFile(path.join(process.argv[3], f), {safe: "unsafe", to_file: false});
"""
REMARK_BUILD = """\
import fs from "node:fs";
import path from "node:path";
const [, , modules, rootDir, docs] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { codeImport } = await import(path.join(modules, "remark-code-import/dist/index.js"));
const processor = remark().use(codeImport, { rootDir });
for (const name of fs.readdirSync(docs).filter((n) => n.endsWith(".md"))) {
  const file = path.join(docs, name);
  const value = fs.readFileSync(file, "utf8");
  await processor.run(processor.parse(value), { path: file, value });
}
"""


def _source(i: int, comment: str) -> str:
    return "".join(f"let f{k} = {k} + {i}; {comment} a line of about forty characters\n" for k in range(200))


def _commit(tree: Path) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "bench"]):
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *args], cwd=tree, check=True, capture_output=True)


def _asciidoc(tree: Path, per: int) -> tuple[list[str], str]:
    (tree / "docs" / "src").mkdir(parents=True)
    for i in range(FILES):
        (tree / "docs" / "src" / f"m{i}.rs").write_text(_source(i, "//"))
    for d in range(DOCS):
        body = [f"= Doc {d}\n\n"]
        for k in range(per):
            i, a = (d * per + k) % FILES, 1 + (k * 7) % 190
            body.append(f"[source,rust]\n----\ninclude::src/m{i}.rs[lines={a}..{a + 5}]\n----\n\n")
        (tree / "docs" / f"d{d}.adoc").write_text("".join(body))
    (tree / "build.js").write_text(ASCIIDOC_BUILD)
    return ["node", "build.js", str(MODULES / "@asciidoctor" / "core"), "docs"], "docs"


def _vitepress(tree: Path, per: int) -> tuple[list[str], str]:
    (tree / "docs" / ".vitepress").mkdir(parents=True)
    (tree / "docs" / ".vitepress" / "config.mts").write_text("export default { title: 'Bench' }\n")
    (tree / "docs" / "snippets").mkdir()
    for i in range(FILES):
        body = _source(i, "//").splitlines(keepends=True)
        out = []
        for r in range(30):  # (30 regions of 6 lines each)
            out += [f"// #region r{r}\n", *body[r * 6 : r * 6 + 6], f"// #endregion r{r}\n"]
        (tree / "docs" / "snippets" / f"m{i}.ts").write_text("".join(out))
    for d in range(DOCS):
        body = [f"# Doc {d}\n\n"]
        for k in range(per):
            body.append(f"<<< @/snippets/m{(d * per + k) % FILES}.ts#r{k % 30}{{1}}\n\n")
        (tree / "docs" / f"d{d}.md").write_text("".join(body))
    (tree / "node_modules").symlink_to(MODULES)  # (the site's dependencies: vue, as a site has them)
    return [str(MODULES / ".bin" / "vitepress"), "build", "docs"], "docs"


def _code_import(tree: Path, per: int) -> tuple[list[str], str]:
    (tree / "docs").mkdir()
    (tree / "src").mkdir()
    (tree / "docusaurus.config.js").write_text("module.exports = { title: 'Bench' };\n")
    for i in range(FILES):
        (tree / "src" / f"m{i}.js").write_text(_source(i, "//"))
    for d in range(DOCS):
        body = [f"# Doc {d}\n\n"]
        for k in range(per):
            i, a = (d * per + k) % FILES, 1 + (k * 7) % 190
            body.append(f"```js file=../src/m{i}.js#L{a}-L{a + 5}\n```\n\n")
        (tree / "docs" / f"d{d}.md").write_text("".join(body))
    (tree / "build.mjs").write_text(REMARK_BUILD)
    return ["node", "build.mjs", str(MODULES), str(tree), "docs"], "docs"


def _variants(tree: Path, per: int) -> tuple[list[str], str]:
    (tree / "docs").mkdir()
    (tree / "docs_src").mkdir()
    (tree / "mkdocs.yml").write_text("site_name: Bench\nmarkdown_extensions:\n  - mdx_include\n  - markdown_include_variants\n")
    for i in range(FILES):
        (tree / "docs_src" / f"m{i}.py").write_text(_source(i, "#").replace("let ", ""))
    for d in range(DOCS):
        body = [f"# Doc {d}\n\n"]
        for k in range(per):
            i, a = (d * per + k) % FILES, 1 + (k * 7) % 190
            body.append(f"{{* docs_src/m{i}.py ln[{a}:{a + 5}] *}}\n\n")
        (tree / "docs" / f"d{d}.md").write_text("".join(body))
    return [str(BIN / "mkdocs"), "build", "-q", "-d", "site"], "docs"


ENGINES: dict[str, Callable[[Path, int], tuple[list[str], str]]] = {
    "asciidoc": _asciidoc,
    "vitepress": _vitepress,
    "code-import": _code_import,
    "variants": _variants,
}


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env={**os.environ, "TEXTFRAG_GUARD": "1"})
    if r.returncode != 0:
        sys.exit(f"{argv[:3]} failed ({r.returncode}): {(r.stdout + r.stderr)[-2000:]}")
    return time.perf_counter() - start


def bench(engine: str, includes: int, runs: int) -> None:
    tree = HERE / f".tree-{engine}-{includes}"
    if not (tree / ".done").exists():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir()
        build, docs = ENGINES[engine](tree, includes // DOCS)
        (tree / ".build").write_text("\n".join([docs, *build]))
        _commit(tree)
        (tree / ".done").write_text("")
    docs, *build = (tree / ".build").read_text().splitlines()
    textfrag = str(BIN / "textfrag")
    timed([textfrag, "pin", "--write", docs], tree)  # (a warm-up, and where the lock file is)
    lock = next(p for p in (tree / docs / "textfrag.lock", tree / "textfrag.lock") if p.exists())
    times: dict[str, list[float]] = {"build": [], "pin": [], "check": []}
    for _ in range(runs):
        times["build"].append(timed(build, tree))
        lock.unlink()
        times["pin"].append(timed([textfrag, "pin", "--write", docs], tree))
        times["check"].append(timed([textfrag, "check", "-q", docs], tree))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"{engine}: {includes:,} includes in {DOCS} documents quoting {FILES} files (medians of {runs} runs, {os.cpu_count()} cores)"
    )
    print(f"  the engine's build:         {med['build']:.2f} s")
    print(f"  textfrag pin --write (all): {med['pin']:.2f} s = {med['pin'] / med['build']:.2f}x the build (target <= 1x)")
    print(f"  textfrag check:             {med['check']:.2f} s = {med['check'] / med['build']:.2f}x the build (target <= 1x)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("engines", nargs="*", metavar="ENGINE", help=f"of {', '.join(ENGINES)} (default: all)")
    p.add_argument("--includes", type=int, default=3000)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    for engine in a.engines or list(ENGINES):
        if engine not in ENGINES:
            sys.exit(f"no engine {engine!r}: {', '.join(ENGINES)}")
        bench(engine, a.includes, a.runs)


if __name__ == "__main__":
    main()
