"""`textfrag check` on a long git history, against the floor of reading that history once.

    .venv/bin/python bench/bench_history.py [--commits 20000 --files 200 --stale 40] [--runs 5]

Generates (with `git fast-import`, in bench/.work/history) a repository of --commits commits, --files
quoted files among 4x as many others, and two documentation trees quoting each quoted file once: in
`docs_pinned` the references were made at three quarters of the history, and --stale of the quoted files
changed afterwards (a header line added: the quotes moved); in `docs_current` every reference is current.

Times, median of --runs, alternating: `textfrag check docs_pinned` (which explains each stale reference
from history), and the floor: `git log --name-only --format=%H -- <quoted files>` (reading the quoted
files' history once) plus `textfrag check docs_current`. Target: at most 1.5x the floor.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def body(i: int, version: int, rng: random.Random) -> str:
    return "".join(f"def f{i}_{n}(x):\n    return x * {n} + {version}  # {'y' * rng.randrange(5, 40)}\n\n" for n in range(30))


def generate(work: Path, commits: int, files: int, stale: int, seed: int = 7) -> tuple[Path, list[str]]:
    rng = random.Random(seed)
    repo = work / "repo"
    if work.exists():
        shutil.rmtree(work)
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    quoted = [f"src/q{i:03d}.py" for i in range(files)]
    others = [f"lib/o{i:04d}.txt" for i in range(files * 4)]
    content: dict[str, str] = {}
    pin_at = commits * 3 // 4
    pinned: dict[str, str] = {}
    changed_late = rng.sample(quoted, stale)
    out = []

    def blob(text: str) -> bytes:
        data = text.encode()
        return b"data %d\n%s\n" % (len(data), data)

    for n in range(1, commits + 1):
        if n <= files:  # the quoted files first, so that they all exist
            path = quoted[n - 1]
            text = body(n - 1, 0, rng)
        elif n > pin_at and n - pin_at <= stale:  # after the pin: the stale ones gain a header line
            path = changed_late[n - pin_at - 1]
            text = "# a header line\n" + content[path]
        elif n % 40 == 0 and n < pin_at:  # the quoted files change now and then before the pin
            path = rng.choice(quoted)
            text = body(quoted.index(path), n, rng)
        else:
            path = rng.choice(others)
            text = f"note {n}\n" * rng.randrange(1, 20)
        content[path] = text
        message = f"commit {n}".encode()
        out.append(b"commit refs/heads/main\n")
        out.append(b"committer Bench <bench@example.org> %d +0000\n" % (1_600_000_000 + n * 60))
        out.append(b"data %d\n%s\n" % (len(message), message))
        out.append(b"M 100644 inline %s\n" % path.encode())
        out.append(blob(text))
        if n == pin_at:
            pinned = {p: content[p] for p in quoted}
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(out), check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=repo, check=True)

    def refs(state: dict[str, str]) -> str:
        lines = ["Quotes\n======\n\n"]
        for p in quoted:
            text = state[p]
            first = 4 + (hash(p) % 20) * 3
            lines.append(
                f".. txtfrag:: {p}#line={first - 1},{first + 1};length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}\n\n"
            )
        return "".join(lines)

    for name, state in (("docs_pinned", pinned), ("docs_current", content)):
        (repo / name).mkdir()
        (repo / name / "index.rst").write_text(refs(state))
    return repo, quoted


def timed(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if r.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stderr[-3000:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commits", type=int, default=20000)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--stale", type=int, default=40)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    t = time.perf_counter()
    repo, quoted = generate(HERE / ".work" / "history", args.commits, args.files, args.stale)
    print(f"generated {args.commits} commits, {args.files} quoted files in {time.perf_counter() - t:.1f} s")
    textfrag = [sys.executable, "-m", "textfrag", "check", "--root", "."]
    r = subprocess.run([*textfrag, "docs_pinned"], cwd=repo, capture_output=True, text=True)
    moved = r.stderr.count(": moved: ") + r.stderr.count("; moved: ")
    print(f"check docs_pinned: exit {r.returncode}, {moved} of {args.stale} stale references explained as moved")
    if r.returncode != 1 or moved != args.stale:
        raise SystemExit(r.stderr[-3000:])
    log = ["git", "log", "--name-only", "--format=%H", "--", *quoted]
    checks, floors = [], []
    for _ in range(args.runs):
        checks.append(timed([*textfrag, "docs_pinned"], repo, ok=(1,)))
        floors.append(timed(log, repo) + timed([*textfrag, "docs_current"], repo))
    check, floor = statistics.median(checks), statistics.median(floors)
    print(f"textfrag check (40 stale, explained): {check:.3f} s")
    print(f"floor (git log of the quoted files + check of a current tree): {floor:.3f} s")
    print(f"ratio: {check / floor:.2f}x (target: <= 1.5x)")


if __name__ == "__main__":
    main()
