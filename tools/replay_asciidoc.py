"""Replay an Antora component's history under guard mode: its pages kept as they were at START, while the
examples and partials they include move on through later commits; at each step what ``textfrag check``
says of each recorded include is compared with what Asciidoctor.js shows for it (the include alone, its
resource id written as the path Antora resolves it to: the selection of lines and tags is Asciidoctor's).

    .venv/bin/python tools/replay_asciidoc.py REPO START STEPS .venv/node/node_modules/@asciidoctor/core

REPO is a clone (it is checked out and cleaned: use a scratch one) whose ``docs`` folder is the component.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the shared loop, beside this script)
from guard_replay import Include, replay  # noqa: E402

from textfrag.guard import find_guarded  # noqa: E402
from textfrag.guard.asciidoc import resolved  # noqa: E402

repo, start, steps, core = Path(sys.argv[1]).resolve(), sys.argv[2], int(sys.argv[3]), sys.argv[4]

SHOWN = """const core = require(process.argv[2]);
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
const fs = require("fs");
const out = {};
for (const f of JSON.parse(fs.readFileSync(process.argv[3], "utf8"))) {
  const doc = asciidoctor.loadFile(f, {safe: "unsafe", attributes: {"allow-uri-read": false}});
  out[f] = doc.findBy({context: "listing"}).map((b) => b.getSource());
}
console.log(JSON.stringify(out));
"""


def pages() -> list[Path]:
    return sorted(p for p in (repo / "docs").rglob("*.adoc") if "pages" in p.parts)


def includes() -> list[Include]:
    return [(p, inc) for p in pages() for inc in find_guarded(p.read_text(encoding="utf-8"), str(p), ".adoc")]


def truth(incs: list[Include]) -> list[str | None]:
    """What Asciidoctor shows for each include: alone in a page of its own, its resource id written as the
    path Antora resolves it to (Asciidoctor does the selection: lines, tags, indent)."""
    tmp = repo / "_truth"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    files = []
    for k, (page, inc) in enumerate(incs):
        try:
            path, _ = resolved(inc, page, str(repo))
        except Exception:
            path = "/nonexistent"
        attrs = inc.text[inc.text.index("[") :]
        (tmp / f"p{k}.adoc").write_text(
            f"= T\n\n[source]\n----------\ninclude::{os.path.abspath(path)}{attrs}\n----------\n", encoding="utf-8"
        )
        files.append(str(tmp / f"p{k}.adoc"))
    (tmp / "list.json").write_text(json.dumps(files))
    (tmp / "shown.js").write_text(SHOWN)
    r = subprocess.run(["node", str(tmp / "shown.js"), core, str(tmp / "list.json")], capture_output=True, text=True, check=True)
    shown = json.loads(r.stdout)
    shutil.rmtree(tmp)
    return [(shown[f] or [None])[0] for f in files]


replay(
    repo, start=start, steps=steps, workdir=repo, docs="docs", pages=pages, includes=includes, truth=truth, engine="Asciidoctor"
)
