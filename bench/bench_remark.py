"""remark (Docusaurus 3, Astro Starlight): the same excerpts through remark-textfrag and through
remark-code-import, the remark plugin those sites use to include lines of a file, in the same unified
pipeline (remark-parse, the plugin, remark-rehype, rehype-stringify), one Node.js process per build.

    .venv/bin/python bench/bench_remark.py [--files 30] [--refs 3000] [--runs 5]

Builds alternate; the median ratio remark-textfrag/remark-code-import is printed, of wall time and of CPU
time (the CPU of the build's one ``textfrag batch --stream`` included). The packages come from the
repository's ``npm/remark-textfrag`` and the venv's node folder (``make test`` installs remark and the rest).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import make_sources, node_builds, plan_pages  # noqa: E402

MODULES = HERE.parent / ".venv" / "node" / "node_modules"
PAGES = 30

BUILD = """\
import fs from "node:fs";
import path from "node:path";
const [, , modules, kind, plugin, root] = process.argv;
const load = async (name, file) => (await import(path.join(modules, name, file)));
const { unified } = await load("unified", "index.js");
const remarkParse = (await load("remark-parse", "index.js")).default;
const remarkRehype = (await load("remark-rehype", "index.js")).default;
const rehypeStringify = (await load("rehype-stringify", "index.js")).default;
const use = kind === "textfrag" ? [(await import(plugin)).default, {}] : [(await load("remark-code-import", "dist/index.js")).codeImport, { rootDir: root }];
const processor = unified().use(remarkParse).use(...use).use(remarkRehype).use(rehypeStringify);
const pages = fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md"));
await Promise.all(pages.map(async (page) => {
  const file = path.join(root, "docs", page);
  const out = await processor.process({ path: file, value: fs.readFileSync(file, "utf8") });
  fs.writeFileSync(file + ".html", String(out));
}));
"""


def generate(work: Path, files: int, refs: int, lines: int) -> None:
    rng = random.Random(11)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    (work / "docs").mkdir()
    (work / "textfrag.toml").write_text("")
    for kind in ("textfrag", "code-import"):
        (work / kind).mkdir()
    for d, row in enumerate(plan_pages(meta, PAGES, refs, lines, rng)):
        ours, theirs = [f"# Page {d}\n\n"], [f"# Page {d}\n\n"]
        for path, length, md5, a, b in row:
            ours.append(f"![](txtfrag:{path}#line={a},{b};length={length};md5={md5})\n\n")
            theirs.append(f"```python file=../{path}#L{a + 1}-L{b}\n```\n\n")
        for kind, parts in (("textfrag", ours), ("code-import", theirs)):
            site = work / kind
            (site / "docs").mkdir(exist_ok=True)
            (site / "docs" / f"page{d}.md").write_text("".join(parts))
    for kind in ("textfrag", "code-import"):
        shutil.copytree(work / "src", work / kind / "src")
        (work / kind / "textfrag.toml").write_text("")
    (work / "build.mjs").write_text(BUILD)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--refs", type=int, default=3000)
    ap.add_argument("--lines", type=int, default=400, help="lines per quoted file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "remark")
    args = ap.parse_args()
    for needed in ("unified", "remark-parse", "remark-rehype", "rehype-stringify", "remark-code-import"):
        if not (MODULES / needed).is_dir():
            raise SystemExit(f"{needed} is not in {MODULES} (make test installs it)")
    generate(args.work, args.files, args.refs, args.lines)
    plugin = HERE.parent / "npm" / "remark-textfrag" / "index.js"
    print(
        f"{args.refs} excerpts over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating builds each"
    )
    node_builds(args.work, MODULES, plugin, "code-import", args.runs, target=1.1)


if __name__ == "__main__":
    main()
