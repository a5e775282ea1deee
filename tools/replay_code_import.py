"""Replay a Docusaurus site's history under guard mode (remark-code-import's ``file=`` code blocks): its
pages kept as they were at START while the files they include move on; at each step what ``textfrag check``
says of each recorded include is compared with what remark with remark-code-import fills the block with
(the block rendered alone, with its page's path; ``rootDir`` the site's folder; importing from outside it
allowed, as the plugin's 0.x versions did).

    .venv/bin/python tools/replay_code_import.py REPO SITE START STEPS .venv/node/node_modules

REPO is a scratch clone (it is checked out and cleaned); SITE the folder of docusaurus.config.js (``website``).
"""

import hashlib
import io
import json
import os
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

repo = Path(sys.argv[1])
site = sys.argv[2]
start = sys.argv[3]
steps = int(sys.argv[4])
modules = sys.argv[5]
os.environ["TEXTFRAG_GUARD"] = "1"
from textfrag.cli import main  # noqa: E402
from textfrag.guard import find_guarded  # noqa: E402

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
    return sorted(p for p in (repo / site).rglob("*.md*") if "node_modules" not in p.parts and p.suffix in (".md", ".mdx"))


def includes():
    out = []
    for p in pages():
        text = p.read_text(encoding="utf-8", errors="replace")
        if "file=" in text:
            out += [(p, inc) for inc in find_guarded(text, str(p.relative_to(repo)), p.suffix, code_import=True)]
    return out


def truth(incs):
    lst = repo / "_ci_list.json"
    js = repo / "_ci_render.mjs"
    lst.write_text(json.dumps([[str(p), line_of(p, inc)] for p, inc in incs]))
    js.write_text(RENDER)
    r = subprocess.run(["node", str(js), modules, str(repo / site), str(lst)], capture_output=True, text=True, timeout=1800)
    lst.unlink()
    js.unlink()
    if r.returncode:
        sys.exit(r.stderr[-2000:])
    return json.loads(r.stdout)


def line_of(p, inc):
    """The include's whole code block: its opening fence's line to its closing fence."""
    text = p.read_text(encoding="utf-8")
    a = text.rfind("\n", 0, inc.start) + 1
    opening = text[a : text.find("\n", a)]
    fence = opening.strip()[: len(opening.strip()) - len(opening.strip().lstrip("`~"))]
    b = text.find("\n" + fence, text.find("\n", a))
    end = text.find("\n", b + 1)
    return text[a : end if end >= 0 else len(text)] + "\n"


def rec(t):
    return f"length={len(t)};md5={hashlib.md5(t.encode()).hexdigest()}"


tip = git("rev-parse", "HEAD").strip()
git("checkout", "-q", "-f", start)
git("clean", "-qfdx")
code, o, e = tf("pin", "--write", site)
print("pin at start:", (o.strip() or e.strip()).splitlines()[-1][:300])
lockp = next(p for p in (repo / site / "textfrag.lock", repo / "textfrag.lock") if p.exists())
lock = lockp.read_bytes()
recs = json.loads(lock)["includes"]
saved = {p: p.read_bytes() for p in pages()}
incs = includes()
t0 = truth(incs)


def recorded(p, inc):
    name = os.path.relpath(p, lockp.parent).replace(os.sep, "/")
    return recs.get(name, {}).get(inc.key)


agree = sum(1 for (p, inc), t in zip(incs, t0, strict=False) if t is not None and recorded(p, inc) == rec(t))
print(f"start {start[:8]}: {agree}/{len(incs)} recorded texts equal the plugin's ({sum(t is None for t in t0)} show nothing)")
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
    code, o, e = tf("check", "--format", "json", site)
    status = {(r["document"], r["line"]): r for r in json.loads(o)["results"]}
    truths = truth(incs)
    tally = Counter()
    for (p, inc), t in zip(incs, truths, strict=False):
        r = recorded(p, inc)
        if r is None:
            tally["unrecorded"] += 1
            continue
        st = status.get((str(p.relative_to(repo)), inc.line), {}).get("status", "?")
        same = t is not None and r == rec(t)
        if same and st == "current":
            tally["current"] += 1
        elif not same and st in ("stale", "bad"):
            tally["caught " + (status[(str(p.relative_to(repo)), inc.line)].get("drift") or st)] += 1
        elif not same and st == "current":
            tally["SILENT PASS"] += 1
        elif same:
            tally["false alarm " + st] += 1
        else:
            tally["other " + st] += 1
    print(c[:8], git("log", "-1", "--format=%ad", "--date=short", c).strip(), dict(tally))
git("checkout", "-q", "-f", tip)
