"""Replay a real project's history through ``textfrag impact``: at each step from commit A to a later
commit B, the documents are made current at A (guard mode: every include recorded; with ``--migrate``:
its includes migrated to pinned references first), then, B checked out with the documents of A put back
(as a pull request's head is checked out with its docs), ``textfrag impact A..B`` predicts what ``check``
then says, and ``check`` says it. Each quote current at A is one of: agreed (impact named it with the
effect check gives it, or did not name it and check says current), MISSED (check says stale, impact did
not name it: there must be none), FALSE ALARM (impact named it, check says current) or OTHER (both
name it, with different effects).

    .venv/bin/python tools/replay_impact.py REPO --workdir DIR --docs DOCS --start COMMIT --steps N [--migrate]

REPO is a scratch clone (it is checked out and cleaned); DIR the folder textfrag runs in (that of the
configuration), relative to REPO; DOCS the documents, relative to DIR.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

PAGES = (".md", ".rst", ".adoc", ".mdx", ".markdown", ".txt", ".inc")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the shared helpers, beside this script)
from guard_replay import git, textfrag  # noqa: E402  (it switches guard mode on, before textfrag reads a configuration)


def outcome(result: dict[str, object]) -> str | None:
    """What check says of a quote, in impact's words (None: current)."""
    if result["status"] == "current":
        return None
    message = str(result["message"])
    if result["drift"] in ("moved", "invisible"):
        return "renamed" if "no such file" in message else "moved"
    if result["drift"] in ("changed", "unknown"):
        return str(result["drift"])
    if result["kind"] == "missing":
        return "renamed" if "renamed" in message and "which was deleted" not in message else "deleted"
    return "changed"


CONFIG: list[str] = []


def checked(workdir: Path, docs: str) -> dict[tuple[str, int], str | None]:
    code, out, err = textfrag(workdir, "check", *CONFIG, "--format", "json", docs)
    if not out.strip():
        raise SystemExit(f"check printed nothing: {err[-2000:]}")
    return {(r["document"], r["line"]): outcome(r) for r in json.loads(out)["results"]}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("repo", type=Path)
    p.add_argument("--workdir", default=".")
    p.add_argument("--docs", default=".")
    p.add_argument("--start", required=True)
    p.add_argument("--end", default="HEAD", help="the last commit (default: HEAD)")
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--migrate", action="store_true")
    p.add_argument("--config", default=None, help="the configuration (relative to DIR), when check cannot find it")
    a = p.parse_args()
    repo = a.repo.resolve()
    CONFIG[:] = ["--config", a.config] if a.config else []
    workdir = repo / a.workdir
    tip = git(repo, "rev-parse", a.end).strip()
    commits = git(repo, "rev-list", "--reverse", "--first-parent", f"{a.start}..{tip}").split()
    chain = [a.start] + [commits[round((i + 1) * len(commits) / a.steps) - 1] for i in range(a.steps)]
    total: Counter[str] = Counter()
    seconds: list[float] = []
    for base, head in zip(chain, chain[1:], strict=False):
        git(repo, "checkout", "-q", "-f", base)
        git(repo, "clean", "-qfdx")
        if a.migrate:
            textfrag(workdir, "migrate", *CONFIG, "--write", a.docs)
        for lock in (workdir / "textfrag.lock", workdir / a.docs / "textfrag.lock"):
            lock.unlink(missing_ok=True)
        textfrag(workdir, "pin", *CONFIG, "--write", a.docs)
        before = checked(workdir, a.docs)
        # the documents put back at B as they were at A (the pages, and what says which pages a build reads:
        # mdBook's SUMMARY.md); a quoted file among them (an AsciiDoc partial) is then not compared
        listed = [p for p in (workdir / a.docs).rglob("*") if p.suffix in PAGES and ".git" not in p.parts]
        kept = {p: p.read_bytes() for p in listed if p.is_file()}
        for lock in (workdir / "textfrag.lock", workdir / a.docs / "textfrag.lock"):
            if lock.exists():
                kept[lock] = lock.read_bytes()
        git(repo, "checkout", "-q", "-f", head)
        git(repo, "clean", "-qfdx")
        put_back = {str(p.relative_to(workdir)) for p, data in kept.items() if not p.is_file() or p.read_bytes() != data}
        for p, data in kept.items():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        t = time.perf_counter()
        code, out, err = textfrag(workdir, "impact", *CONFIG, f"{base}..{head}", "--format", "json", "--docs", a.docs)
        seconds.append(time.perf_counter() - t)
        if code != 0 or not out.strip():
            raise SystemExit(f"impact failed ({code}): {err[-2000:]}")
        report = json.loads(out)
        predicted = {(q["document"], q["line"]): q["effect"] for q in report["quotes"]}
        quoted_back = {(q["document"], q["line"]) for q in report["quotes"] if q["path"] in put_back}
        after = checked(workdir, a.docs)
        tally: Counter[str] = Counter()
        for place, was in before.items():
            if was is not None:
                tally["stale at A"] += 1
                continue
            said, named = after.get(place, "gone"), predicted.get(place)
            if said == named:
                tally["agreed " + (said or "current")] += 1
            elif named is None:
                tally["MISSED " + str(said)] += 1
                print("  MISSED", place, said)
            elif said is None and place in quoted_back:
                tally["not compared (its quoted file put back as at A)"] += 1
            elif said is None:
                tally["FALSE ALARM " + named] += 1
                print("  FALSE ALARM", place, named)
            else:
                tally[f"OTHER {named}/{said}"] += 1
                print("  OTHER", place, named, said)
        total.update(tally)
        files = len(report["files"])
        print(f"{base[:8]}..{head[:8]} ({files} files, impact {seconds[-1]:.2f} s): {dict(sorted(tally.items()))}", flush=True)
    print("total:", dict(sorted(total.items())), f"impact {min(seconds):.2f}-{max(seconds):.2f} s")
    git(repo, "checkout", "-q", "-f", tip)


if __name__ == "__main__":
    main()
