"""VitePress: the same excerpts through markdown-it-textfrag and through VitePress's own ``<<<`` snippets (a
region of a file), rendered by VitePress's markdown renderer (``createMarkdownRenderer``: markdown-it with
Shiki, as ``vitepress build`` renders each page), one Node.js process per build.

    .venv/bin/python bench/bench_vitepress.py [--files 30] [--refs 3000] [--runs 5]

Each quoted range is a region of its file (``# region rN`` ... ``# endregion rN``, VitePress's markers for Python), so that both show the
same lines: ``<<< @/../src/modN.py#rN`` and ``![](txtfrag:src/modN.py#line=A,B;...)`` of the lines between
the markers. Builds alternate; the median ratio textfrag/snippets is printed, of wall time and of CPU time
(the CPU of the build's one ``textfrag batch --stream`` included). The packages come from the repository's
``npm/markdown-it-textfrag`` and the venv's node folder (``make test`` installs VitePress).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import node_builds  # noqa: E402

MODULES = HERE.parent / ".venv" / "node" / "node_modules"
PAGES = 30

BUILD = """\
import fs from "node:fs";
import path from "node:path";
const [, , modules, kind, plugin, root] = process.argv;
const { createMarkdownRenderer } = await import(path.join(modules, "vitepress/dist/node/index.js"));
const srcDir = path.join(root, "docs");
const textfrag = kind === "textfrag" ? (await import(plugin)).default : null;
const config = textfrag ? { config: (md) => md.use(textfrag) } : {};
const md = await createMarkdownRenderer(srcDir, config);
for (const page of fs.readdirSync(srcDir).filter((f) => f.endsWith(".md"))) {
  const file = path.join(srcDir, page);
  const env = { path: file, relativePath: page, cleanUrls: false };
  fs.writeFileSync(file + ".html", md.render(fs.readFileSync(file, "utf8"), env));
}
"""


def generate(work: Path, files: int, refs: int) -> None:
    rng = random.Random(13)
    if work.exists():
        shutil.rmtree(work)
    per_file = -(-refs // files)
    quotes: list[tuple[str, str, str]] = []  # (path, region, pinned reference)
    for f in range(files):
        path = f"src/mod{f:03d}.py"
        lines: list[str] = []
        spans = []
        for r in range(per_file):
            lines.append(f"# region r{r}\n")
            first = len(lines)
            for k in range(rng.randint(4, 14)):
                lines.append(f"def f{f}_{r}_{k}(x):  # {rng.random():.12f}\n" if k % 3 == 0 else f"    return x + {k} * {r}\n")
            spans.append((r, first, len(lines)))
            lines.append(f"# endregion r{r}\n")
        text = "".join(lines)
        data = text.encode()
        md5 = hashlib.md5(data).hexdigest()
        for r, a, b in spans:
            quotes.append((path, f"r{r}", f"{path}#line={a},{b};length={len(data)};md5={md5}"))
        for kind in ("textfrag", "snippets"):
            (work / kind / "src").mkdir(parents=True, exist_ok=True)
            (work / kind / path).write_bytes(data)
    rng.shuffle(quotes)
    quotes = quotes[:refs]
    for kind in ("textfrag", "snippets"):
        (work / kind / "docs").mkdir()
        (work / kind / "textfrag.toml").write_text("")
    for d in range(PAGES):
        row = quotes[d::PAGES]
        ours = [f"# Page {d}\n\n", *(f"![](txtfrag:{ref})\n\n" for _, _, ref in row)]
        theirs = [f"# Page {d}\n\n", *(f"<<< @/../{path}#{region}\n\n" for path, region, _ in row)]
        (work / "textfrag" / "docs" / f"page{d}.md").write_text("".join(ours))
        (work / "snippets" / "docs" / f"page{d}.md").write_text("".join(theirs))
    (work / "build.mjs").write_text(BUILD)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--refs", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "vitepress")
    args = ap.parse_args()
    if not (MODULES / "vitepress").is_dir():
        raise SystemExit(f"vitepress is not in {MODULES} (make test installs it)")
    generate(args.work, args.files, args.refs)
    plugin = HERE.parent / "npm" / "markdown-it-textfrag" / "index.js"
    print(f"{args.refs} excerpts over {args.files} files, {PAGES} pages, {args.runs} alternating builds each")
    node_builds(args.work, MODULES, plugin, "snippets", args.runs, target=1.1)


if __name__ == "__main__":
    main()
