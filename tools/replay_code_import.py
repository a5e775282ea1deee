"""Replay a Docusaurus site's history under guard mode (remark-code-import's ``file=`` code blocks): its
pages kept as they were at START while the files they include move on; at each step what ``textfrag check``
says of each recorded include is compared with what remark with remark-code-import fills the block with
(the block rendered alone, with its page's path; ``rootDir`` the site's folder; importing from outside it
allowed, as the plugin's 0.x versions did).

    .venv/bin/python tools/replay_code_import.py REPO SITE START STEPS .venv/node/node_modules

REPO is a scratch clone (it is checked out and cleaned); SITE the folder of docusaurus.config.js (``website``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the shared loop, beside this script)
from guard_replay import Include, node_truth, replay  # noqa: E402

from textfrag.guard import find_guarded  # noqa: E402

repo, site, start, steps, modules = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

RENDER = """import fs from "node:fs"; import path from "node:path";
const [, , modules, rootDir, list] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { codeImport } = await import(path.join(modules, "remark-code-import/dist/index.js"));
const processor = remark().use(codeImport, { rootDir, allowImportingFromOutside: true });
const out = [];
for (const [file, block] of JSON.parse(fs.readFileSync(list, "utf8"))) {
  try {
    const tree = await processor.run(processor.parse(block), { path: file, value: block });
    const code = tree.children.find((n) => n.type === "code");
    out.push(code ? code.value : null);
  } catch (e) { out.push(null); }
}
console.log(JSON.stringify(out));
"""


def pages() -> list[Path]:
    return sorted(p for p in (repo / site).rglob("*.md*") if "node_modules" not in p.parts and p.suffix in (".md", ".mdx"))


def includes() -> list[Include]:
    out: list[Include] = []
    for p in pages():
        text = p.read_text(encoding="utf-8", errors="replace")
        if "file=" in text:
            out += [(p, inc) for inc in find_guarded(text, str(p.relative_to(repo)), p.suffix, code_import=True)]
    return out


def block_of(page: Path, inc: object) -> str:
    """The include's whole code block: its opening fence's line to its closing fence."""
    text = page.read_text(encoding="utf-8")
    a = text.rfind("\n", 0, inc.start) + 1  # type: ignore[attr-defined]
    opening = text[a : text.find("\n", a)].strip()
    fence = opening[: len(opening) - len(opening.lstrip("`~"))]
    b = text.find("\n" + fence, text.find("\n", a))
    end = text.find("\n", b + 1)
    return text[a : end if end >= 0 else len(text)] + "\n"


def truth(incs: list[Include]) -> list[str | None]:
    return node_truth(repo, RENDER, modules, repo / site, [(p, block_of(p, inc)) for p, inc in incs])


replay(
    repo,
    start=start,
    steps=steps,
    workdir=repo,
    docs=site,
    pages=pages,
    includes=includes,
    truth=truth,
    engine="remark-code-import",
)
