"""Replay a VitePress site's history under guard mode: its pages kept as they were at START while the
snippets they include move on; at each step what ``textfrag check`` says of each recorded ``<<<`` include is
compared with what VitePress's own markdown renderer shows for it (the include rendered alone, with its
page's path).

    .venv/bin/python tools/replay_vitepress.py REPO SITE START STEPS .venv/node/node_modules/vitepress

REPO is a scratch clone (it is checked out and cleaned); SITE the VitePress source folder (``site``, ``docs``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the shared loop, beside this script)
from guard_replay import Include, line_of, node_truth, replay  # noqa: E402

from textfrag.guard import find_guarded  # noqa: E402

repo, site, start, steps, vitepress = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

RENDER = """import fs from "node:fs"; import path from "node:path";
const [, , vitepress, srcDir, list] = process.argv;
const { createMarkdownRenderer } = await import(path.join(vitepress, "dist/node/index.js"));
let seen = [];
const md = await createMarkdownRenderer(srcDir, { highlight: (text) => { seen.push(text); return ""; } });
const out = [];
for (const [file, line] of JSON.parse(fs.readFileSync(list, "utf8"))) {
  seen = [];
  const env = { path: file, relativePath: path.relative(srcDir, file), cleanUrls: false };
  try { md.render(line + "\\n", env); out.push(seen.length ? seen[0] : null); }
  catch (e) { out.push(null); }
}
console.log(JSON.stringify(out));
"""


def pages() -> list[Path]:
    return sorted(p for p in (repo / site).rglob("*.md") if "node_modules" not in p.parts and "snippets" not in p.parts)


def includes() -> list[Include]:
    out: list[Include] = []
    for p in pages():
        text = p.read_text(encoding="utf-8", errors="replace")
        if "<<<" in text:
            out += [(p, inc) for inc in find_guarded(text, str(p.relative_to(repo)), ".md", vitepress=True)]
    return out


def truth(incs: list[Include]) -> list[str | None]:
    return node_truth(repo, RENDER, vitepress, repo / site, [(p, line_of(p, inc)) for p, inc in incs])


replay(repo, start=start, steps=steps, workdir=repo, docs=site, pages=pages, includes=includes, truth=truth, engine="VitePress")
