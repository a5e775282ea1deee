"""Replay a FastAPI-style MkDocs site's history under guard mode (markdown_include_variants with
mdx_include): its pages kept as they were at START while the files they include move on; at each step
what ``textfrag check`` says of each recorded ``{* file ln[...] hl[...] *}`` is compared with the first
tab's code the two extensions themselves make of it.

    .venv/bin/python tools/replay_variants.py REPO DOCS START STEPS

REPO is a scratch clone (it is checked out and cleaned); DOCS the folder of mkdocs.yml (``docs/en``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

repo, docs, start, steps = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3], int(sys.argv[4])
os.environ["TEXTFRAG_GUARD"] = "1"
from textfrag.cli import main  # noqa: E402
from textfrag.guard import find_guarded  # noqa: E402


def git(*a: str) -> str:
    return subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True, text=True).stdout


def tf(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(repo / docs)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


def pages() -> list[Path]:
    return sorted((repo / docs / "docs").rglob("*.md"))


def includes() -> list[tuple[Path, object]]:
    out = []
    for p in pages():
        text = p.read_text(encoding="utf-8", errors="replace")
        if "{*" in text:
            out += [(p, inc) for inc in find_guarded(text, str(p), ".md", include_variants=True) if inc.kind == "variants"]
    return out


def truth(incs: list[tuple[Path, object]]) -> list[str | None]:
    """The first tab's code of each include, as the two extensions make it (run where mkdocs runs)."""
    import markdown

    md = markdown.Markdown(extensions=["markdown_include_variants", "mdx_include"])
    cwd = os.getcwd()
    os.chdir(repo / docs)
    out: list[str | None] = []
    try:
        for p, inc in incs:
            text = p.read_text(encoding="utf-8")
            a = text.rfind("\n", 0, inc.start) + 1  # type: ignore[attr-defined]
            b = text.find("\n", inc.start)  # type: ignore[attr-defined]
            try:
                lines = md.preprocessors["mdx_include"].run(md.preprocessors["include_variants"].run([text[a:b]]))
                first = next(k for k, line in enumerate(lines) if line.startswith("```"))
                out.append("\n".join(lines[first + 1 : lines.index("```", first + 1)]))
            except Exception:
                out.append(None)
    finally:
        os.chdir(cwd)
    return out


def rec(t: str) -> str:
    return f"length={len(t)};md5={hashlib.md5(t.encode()).hexdigest()}"


tip = git("rev-parse", "HEAD").strip()
git("checkout", "-q", "-f", start)
git("clean", "-qfdx")
code, o, e = tf("pin", "--write", "docs")
print("pin at start:", (o.strip() or e.strip()).splitlines()[-1][:300])
lockp = repo / docs / "textfrag.lock"
lock = lockp.read_bytes()
recs = json.loads(lock)["includes"]
saved = {p: p.read_bytes() for p in pages()}
incs = includes()


def recorded(p: Path, inc: object) -> str | None:
    return recs.get(os.path.relpath(p, lockp.parent).replace(os.sep, "/"), {}).get(inc.key)  # type: ignore[attr-defined]


t0 = truth(incs)
agree = sum(1 for (p, inc), t in zip(incs, t0, strict=True) if t is not None and recorded(p, inc) == rec(t))
print(f"start {start[:8]}: {agree}/{len(incs)} recorded texts equal the extensions' ({sum(t is None for t in t0)} show nothing)")
commits = git("rev-list", "--reverse", f"{start}..{tip}").split()
for c in [commits[round((i + 1) * len(commits) / steps) - 1] for i in range(steps)]:
    git("checkout", "-q", "-f", c)
    git("clean", "-qfdx", "-e", lockp.relative_to(repo).as_posix())
    for p in pages():
        if p not in saved:
            p.unlink()
    for p, data in saved.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    lockp.write_bytes(lock)
    code, o, e = tf("check", "--format", "json", "docs")
    status = {(r["document"], r["line"]): r for r in json.loads(o)["results"]}
    tally: Counter[str] = Counter()
    for (p, inc), t in zip(incs, truth(incs), strict=True):
        r = recorded(p, inc)
        if r is None:
            tally["unrecorded"] += 1
            continue
        found = status.get((os.path.relpath(p, repo / docs).replace(os.sep, "/"), inc.line), {})  # type: ignore[attr-defined]
        st = found.get("status", "?")
        same = t is not None and r == rec(t)
        if same and st == "current":
            tally["current"] += 1
        elif not same and st in ("stale", "bad"):
            tally["caught " + (found.get("drift") or st)] += 1
        elif not same and st == "current":
            tally["SILENT PASS"] += 1
        elif same:
            tally["false alarm " + st] += 1
        else:
            tally["other " + st] += 1
    print(c[:8], git("log", "-1", "--format=%ad", "--date=short", c).strip(), dict(tally))
git("checkout", "-q", "-f", tip)
