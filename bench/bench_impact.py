"""`textfrag impact` on a pull request's change against the peer it adds to a review, `git diff`: a change
of 50 of 1,000 quoted files (in half of them a line put in above the quoted functions, in the other half
a quoted line edited), against 100,000 references in 10,000 Markdown documents (bench/scale.py's tree,
committed in a git repository), and a typical pull request (3 files) on the same tree.

    .venv/bin/python bench/bench_impact.py [--docs 10000 --refs-per-doc 10 --files 1000 --changed 50] [--runs 3]

Prints the medians of wall seconds and peak memory, and the ratio to `git diff A B` of the same range
(the patch git prints, as a reviewer asks for it). Target: a typical pull request under a second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from scale import HERE, generate

BIN = Path(sys.executable).parent


def git(tree: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
    }
    return subprocess.run(["git", *args], cwd=tree, check=True, capture_output=True, text=True, env=env).stdout


def repository(a: argparse.Namespace) -> tuple[Path, str, str, str]:
    """The scale tree as a git repository with the base commit, the change of ``a.changed`` files on top
    and a typical pull request of 3 files beside it: (the work tree, base, change, typical)."""
    tree = HERE / f".tree-scale-{a.docs}-{a.refs_per_doc}-{a.files}"
    generate(tree, a.docs, a.refs_per_doc, a.files)
    repo = HERE / f".tree-impact-{a.docs}-{a.refs_per_doc}-{a.files}-{a.changed}"
    if not (repo / ".done").exists():
        shutil.rmtree(repo, ignore_errors=True)
        repo.mkdir()
        shutil.copytree(tree / "src", repo / "src")
        shutil.copytree(tree / "docs", repo / "docs")
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "base")

        def change(files: list[int]) -> None:
            for n, i in enumerate(files):
                path = repo / "src" / f"m{i}.py"
                lines = path.read_text().splitlines(True)
                if n % 2:
                    lines[5] = lines[5].replace("x * 2", "x * 20")  # (inside the first quoted function)
                else:
                    lines.insert(1, "import os\n")  # (above every quoted function)
                path.write_text("".join(lines))
            git(repo, "commit", "-qam", f"change {len(files)} files")

        step = a.files // a.changed
        git(repo, "checkout", "-q", "-b", "typical")
        change([7, 8, 9])
        git(repo, "checkout", "-q", "main")
        change([i * step for i in range(a.changed)])
        (repo / ".done").write_text("")
    return (
        repo,
        git(repo, "rev-parse", "main~1").strip(),
        git(repo, "rev-parse", "main").strip(),
        git(repo, "rev-parse", "typical").strip(),
    )


def timed(argv: list[str], cwd: Path) -> tuple[float, int, str]:
    """Wall seconds, peak memory (KB) and standard output of a command, in a fresh interpreter's child."""
    probe = (
        "import resource, subprocess, sys, time; s = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(time.perf_counter() - s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
        "print(r.stdout[-400:])"
    )
    r = subprocess.run([sys.executable, "-c", probe, *argv], cwd=cwd, capture_output=True, text=True)
    first, _, rest = r.stdout.partition("\n")
    seconds, kb, code = first.split()
    if code != "0":
        sys.exit(f"{argv[:3]} failed ({code}): {rest}")
    return float(seconds), int(kb), rest


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=int, default=10000)
    p.add_argument("--refs-per-doc", type=int, default=10)
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--changed", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    repo, base, head, typical = repository(a)
    textfrag = str(BIN / "textfrag")
    cases = {
        f"{a.changed} files": (f"{base}..{head}", [base, head]),
        "typical (3 files)": (f"{base}..{typical}", [base, typical]),
    }
    refs = a.docs * a.refs_per_doc
    print(f"textfrag impact: {refs:,} references in {a.docs:,} documents quoting {a.files:,} files (medians of {a.runs} runs)")
    for name, (spec, pair) in cases.items():
        ours, peers, peak, said = [], [], 0, ""
        for _ in range(a.runs):
            t, _kb, _ = timed(["git", "diff", *pair], repo)
            peers.append(t)
            t, kb, said = timed([textfrag, "impact", spec, "--root", ".", "--docs", "docs", "--no-diffs"], repo)
            ours.append(t)
            peak = max(peak, kb)
        summary = [line for line in said.splitlines() if line.startswith("textfrag impact")] or ["(no summary)"]
        lines = sum(1 for line in said.splitlines() if ": changes quoted text: " in line or ": shifts quoted lines: " in line)
        mo, mp = statistics.median(ours), statistics.median(peers)
        print(f"  {name}: impact {mo:.2f} s, git diff {mp:.3f} s = {mo / mp:.0f}x; peak {peak / 1024:.0f} MB")
        print(f"    {summary[-1] if lines == 0 else summary[-1]}")


if __name__ == "__main__":
    main()
