"""Replay a FastAPI-style MkDocs site's history under guard mode (markdown_include_variants with
mdx_include): its pages kept as they were at START while the files they include move on; at each step
what ``textfrag check`` says of each recorded ``{* file ln[...] hl[...] *}`` is compared with the first
tab's code the two extensions themselves make of it.

    .venv/bin/python tools/replay_variants.py REPO DOCS START STEPS

REPO is a scratch clone (it is checked out and cleaned); DOCS the folder of mkdocs.yml (``docs/en``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the shared loop, beside this script)
from guard_replay import Include, line_of, replay  # noqa: E402

from textfrag.guard import find_guarded  # noqa: E402

repo, docs, start, steps = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3], int(sys.argv[4])


def pages() -> list[Path]:
    return sorted((repo / docs / "docs").rglob("*.md"))


def includes() -> list[Include]:
    out: list[Include] = []
    for p in pages():
        text = p.read_text(encoding="utf-8", errors="replace")
        if "{*" in text:
            out += [(p, inc) for inc in find_guarded(text, str(p), ".md", include_variants=True) if inc.kind == "variants"]
    return out


def truth(incs: list[Include]) -> list[str | None]:
    """The first tab's code of each include, as the two extensions make it (run where mkdocs runs)."""
    import markdown

    md = markdown.Markdown(extensions=["markdown_include_variants", "mdx_include"])
    before = os.getcwd()
    os.chdir(repo / docs)
    out: list[str | None] = []
    try:
        for p, inc in incs:
            try:
                lines = md.preprocessors["mdx_include"].run(md.preprocessors["include_variants"].run([line_of(p, inc)]))
                first = next(k for k, line in enumerate(lines) if line.startswith("```"))
                out.append("\n".join(lines[first + 1 : lines.index("```", first + 1)]))
            except Exception:
                out.append(None)
    finally:
        os.chdir(before)
    return out


replay(
    repo,
    start=start,
    steps=steps,
    workdir=repo / docs,
    docs="docs",
    pages=pages,
    includes=includes,
    truth=truth,
    engine="markdown_include_variants",
)
