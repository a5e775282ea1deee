"""Replay an Antora component's history under guard mode: its pages kept as they were at START, while the
examples and partials they include move on through later commits; at each step what ``textfrag check``
says of each recorded include is compared with what Asciidoctor.js shows for it (the include alone, its
resource id written as the path Antora resolves it to: the selection of lines and tags is Asciidoctor's).

    TEXTFRAG_GUARD=1 .venv/bin/python tools/replay_asciidoc.py REPO START STEPS .venv/node/node_modules/@asciidoctor/core

REPO is a clone (it is checked out and cleaned: use a scratch one) whose ``docs`` folder is the component.
"""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

repo = Path(sys.argv[1])
start = sys.argv[2]
steps = int(sys.argv[3])
core = sys.argv[4]
os.environ["TEXTFRAG_GUARD"] = "1"
# (textfrag imported once guard mode is on)
from textfrag.cli import main  # noqa: E402
from textfrag.guard import find_guarded  # noqa: E402
from textfrag.guard.asciidoc import resolved  # noqa: E402

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


def git(*a):
    return subprocess.run(["git", *a], cwd=repo, check=True, capture_output=True, text=True).stdout


def tf(*args):
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


def pages():
    return sorted(p for p in (repo / "docs").rglob("*.adoc") if "pages" in p.parts)


def truth():
    """What Asciidoctor shows for each include of each page: the include alone, its resource id written as
    the path Antora resolves it to (Asciidoctor does the selection: lines, tags, indent)."""
    tmp = repo / "_truth"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    files, keys = [], []
    for k, page in enumerate(pages()):
        text = page.read_text(encoding="utf-8")
        incs = find_guarded(text, str(page), ".adoc")
        body = "= T\n\n"
        for inc in incs:
            try:
                path, _ = resolved(inc, page, str(repo))
            except Exception:
                path = "/nonexistent"
            attrs = inc.text[inc.text.index("[") :]
            body += f"[source]\n----------\ninclude::{os.path.abspath(path)}{attrs}\n----------\n\n"
            keys.append((page, inc))
        f = tmp / f"p{k}.adoc"
        f.write_text(body, encoding="utf-8")
        files.append(str(f))
    (tmp / "list.json").write_text(json.dumps(files))
    (tmp / "shown.js").write_text(SHOWN)
    r = subprocess.run(["node", str(tmp / "shown.js"), core, str(tmp / "list.json")], capture_output=True, text=True, check=True)
    shown = json.loads(r.stdout)
    out = {}
    for k, page in enumerate(pages()):
        texts = shown[files[k]]
        incs = [x for x in keys if x[0] == page]
        for (p, inc), t in zip(incs, texts, strict=False):
            out[(str(p), inc.key)] = t
    shutil.rmtree(tmp)
    return out


tip = git("rev-parse", "HEAD").strip()
git("checkout", "-q", "-f", start)
git("clean", "-qfdx")
code, o, e = tf("pin", "--write", "docs")
print("pin at start:", o.strip().splitlines()[-1] if o.strip() else e.strip().splitlines()[-1])
lock = (repo / "docs" / "textfrag.lock").read_bytes()
saved = {p: p.read_bytes() for p in pages()}
# agreement at start

t0 = truth()
rec = json.loads(lock)["includes"]
agree = sum(
    1
    for (p, key), t in t0.items()
    if rec.get(os.path.relpath(p, repo / "docs"), {}).get(key) == f"length={len(t)};md5={hashlib.md5(t.encode()).hexdigest()}"
)
print(f"start: {agree}/{len(t0)} recorded texts equal Asciidoctor's")
for (p, key), t in t0.items():
    r = rec.get(os.path.relpath(p, repo / "docs"), {}).get(key)
    if r != f"length={len(t)};md5={hashlib.md5(t.encode()).hexdigest()}" and os.environ.get("SHOWDIFF"):
        print("DIFF", p, key, r, repr(t[:200]))
commits = git("rev-list", "--reverse", f"{start}..{tip}").split()
picks = [commits[round((i + 1) * len(commits) / steps) - 1] for i in range(steps)]
for c in picks:
    git("checkout", "-q", "-f", c)
    git("clean", "-qfdx", "-e", "docs/textfrag.lock")
    for p in list(pages()):
        if p not in saved:
            p.unlink()
    for p, data in saved.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    (repo / "docs" / "textfrag.lock").write_bytes(lock)
    code, o, e = tf("check", "--format", "json", "docs")
    results = json.loads(o)["results"]
    status = {(r["document"], r["line"]): r for r in results}
    t = truth()
    tally = Counter()
    for (p, key), text in t.items():
        recorded = rec.get(os.path.relpath(p, repo / "docs"), {}).get(key)
        if recorded is None:
            tally["unrecorded"] += 1
            continue
        same = recorded == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
        inc_line = None
        page_text = Path(p).read_text(encoding="utf-8")
        for inc in find_guarded(page_text, p, ".adoc"):
            if inc.key == key:
                inc_line = inc.line
        r = status.get((os.path.relpath(p, repo), inc_line))
        st = r["status"] if r else "?"
        if same and st == "current":
            tally["current"] += 1
        elif not same and st in ("stale", "bad"):
            tally["caught " + (r.get("drift") or st)] += 1
        elif not same and st == "current":
            tally["SILENT PASS"] += 1
        elif same and st != "current":
            tally["false alarm " + st] += 1
        else:
            tally["other " + st] += 1
    # repair what moved, and check again
    git_date = git("log", "-1", "--format=%ad", "--date=short", c).strip()
    print(c[:8], git_date, dict(tally))
git("checkout", "-q", "-f", tip)
