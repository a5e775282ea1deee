"""The loop every engine's history replay shares (tools/replay_asciidoc.py, replay_vitepress.py,
replay_code_import.py, replay_variants.py): the includes recorded (``textfrag pin --write``) at START with
guard mode on; then, at each of STEPS commits up to the repository's tip, the pages put back as they were at
START while the files they include move on, and what ``textfrag check`` says of each recorded include set
against what the engine itself shows for it. An include is one of: current (the engine shows the recorded
text, check says current), caught (the engine shows other text, check says stale or bad, with its drift), a
silent pass (other text, check says current: there must be none), a false alarm, or unrecorded.

A script gives its pages, the includes of them (in order) and the engine's text for each (None: it shows
nothing); this module does the rest. REPO is a scratch clone: it is checked out and cleaned.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

os.environ["TEXTFRAG_GUARD"] = "1"  # (before textfrag reads a configuration)

Include = tuple[Path, Any]  # a page and one of its includes (textfrag.guard.GuardedInclude)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def textfrag(folder: Path, *args: str) -> tuple[int, str, str]:
    """``textfrag ARGS`` through main(argv), run in ``folder``."""
    from textfrag.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(folder)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def record(text: str) -> str:
    """What the lock file records of a text an include shows."""
    return f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


def line_of(page: Path, inc: Any) -> str:
    """The line of ``page`` an include starts on."""
    text = page.read_text(encoding="utf-8")
    a = text.rfind("\n", 0, inc.start) + 1
    b = text.find("\n", inc.start)
    return text[a : b if b >= 0 else len(text)]


def replay(
    repo: Path,
    *,
    start: str,
    steps: int,
    workdir: Path,
    docs: str,
    pages: Callable[[], list[Path]],
    includes: Callable[[], list[Include]],
    truth: Callable[[list[Include]], Sequence[str | None]],
    engine: str,
) -> None:
    """Replay from ``start`` in ``steps`` steps, ``textfrag`` run in ``workdir`` on ``docs``; print each step."""
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-f", start)
    git(repo, "clean", "-qfdx")
    code, out, err = textfrag(workdir, "pin", "--write", docs)
    print("pin at start:", (out.strip() or err.strip()).splitlines()[-1][:300])
    lock_path = next(p for p in (workdir / docs / "textfrag.lock", workdir / "textfrag.lock") if p.exists())
    lock = lock_path.read_bytes()
    records = json.loads(lock)["includes"]
    saved = {p: p.read_bytes() for p in pages()}
    incs = includes()

    def recorded(page: Path, inc: Any) -> str | None:
        return records.get(os.path.relpath(page, lock_path.parent).replace(os.sep, "/"), {}).get(inc.key)

    first = truth(incs)
    agree = sum(1 for (p, inc), t in zip(incs, first, strict=True) if t is not None and recorded(p, inc) == record(t))
    nothing = sum(t is None for t in first)
    print(f"start {start[:8]}: {agree}/{len(incs)} recorded texts equal {engine}'s ({nothing} show nothing)")
    if os.environ.get("SHOWDIFF"):
        for (p, inc), t in zip(incs, first, strict=True):
            if t is None or recorded(p, inc) != record(t):
                print("DIFF", p, inc.key, recorded(p, inc), repr((t or "")[:200]))
    commits = git(repo, "rev-list", "--reverse", f"{start}..{tip}").split()
    for c in [commits[round((i + 1) * len(commits) / steps) - 1] for i in range(steps)]:
        git(repo, "checkout", "-q", "-f", c)
        git(repo, "clean", "-qfdx", "-e", lock_path.relative_to(repo).as_posix())
        for p in pages():
            if p not in saved:
                p.unlink()
        for p, data in saved.items():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        lock_path.write_bytes(lock)
        code, out, err = textfrag(workdir, "check", "--format", "json", docs)
        status = {(r["document"], r["line"]): r for r in json.loads(out)["results"]}
        tally: Counter[str] = Counter()
        for (p, inc), t in zip(incs, truth(incs), strict=True):
            r = recorded(p, inc)
            if r is None:
                tally["unrecorded"] += 1
                continue
            found = status.get((os.path.relpath(p, workdir).replace(os.sep, "/"), inc.line), {})
            said = found.get("status", "?")
            same = t is not None and r == record(t)
            if same and said == "current":
                tally["current"] += 1
            elif not same and said in ("stale", "bad"):
                tally["caught " + (found.get("drift") or said)] += 1
            elif not same and said == "current":
                tally["SILENT PASS"] += 1
            elif same:
                tally["false alarm " + said] += 1
            else:
                tally["other " + said] += 1
        print(c[:8], git(repo, "log", "-1", "--format=%ad", "--date=short", c).strip(), dict(tally))
    git(repo, "checkout", "-q", "-f", tip)


def node_truth(repo: Path, script: str, first: str, site: Path, blocks: list[tuple[Path, str]]) -> list[str | None]:
    """An engine's text for each ``(page, block)``, from a Node.js ``script`` run as ``node SCRIPT FIRST SITE
    LIST`` (LIST: a JSON file of ``[page, block]`` pairs), which prints a JSON list (null: shows nothing)."""
    listed, program = repo / "_truth_list.json", repo / "_truth.mjs"
    listed.write_text(json.dumps([[str(p), block] for p, block in blocks]))
    program.write_text(script)
    try:
        r = subprocess.run(["node", str(program), first, str(site), str(listed)], capture_output=True, text=True, timeout=1800)
    finally:
        listed.unlink()
        program.unlink()
    if r.returncode:
        raise SystemExit(r.stderr[-2000:])
    return list(json.loads(r.stdout))
