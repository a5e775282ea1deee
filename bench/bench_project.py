"""`textfrag check` reading a project as its build does: 100,000 references in reStructuredText, once
written in 10,000 documents, and once the same references in 10,000 ``.inc`` parts that 1,000 pages pull
in with ``.. include::``, beside 1,000 drafts ``exclude_patterns`` leaves out. Following the includes and
the exclusions must cost ``check`` at most 10% (the parts are read once each; the drafts not at all).

    .venv/bin/python bench/bench_project.py [--parts 10000 --refs-per-part 10 --files 1000] [--runs 3]

Generates both trees once per shape into bench/.tree-project-*/ (deterministic), runs each --runs times
alternately (page cache warm for both), and prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
CONF = 'extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n'


def generate(tree: Path, parts: int, per_part: int, files: int) -> None:
    if (tree / ".done").exists():
        return
    pins = []
    for shape in ("flat", "included"):
        (tree / shape / "src").mkdir(parents=True, exist_ok=True)
        (tree / shape / "docs").mkdir(exist_ok=True)
    for i in range(files):
        text = "".join(f"line {k} of module {i}, about forty characters long\n" for k in range(100))
        for shape in ("flat", "included"):
            (tree / shape / "src" / f"m{i}.txt").write_text(text)
        pins.append(f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}")
    (tree / "flat" / "docs" / "conf.py").write_text(CONF)
    included = tree / "included" / "docs"
    (included / "conf.py").write_text(CONF + 'exclude_patterns = ["drafts/**"]\n')
    (included / "parts").mkdir()
    (included / "drafts").mkdir()
    pages = parts // 10
    for d in range(parts):
        body = "".join(
            f".. txtfrag:: src/m{(d * per_part + r) % files}.txt#line={r},{r + 5};{pins[(d * per_part + r) % files]}\n\n"
            for r in range(per_part)
        )
        (tree / "flat" / "docs" / f"d{d}.rst").write_text(f"D{d}\n====\n\n{body}")
        (included / "parts" / f"d{d}.inc").write_text(body)
    for p in range(pages):
        pulled = "".join(f".. include:: parts/d{d}.inc\n\n" for d in range(p * 10, p * 10 + 10))
        (included / f"p{p}.rst").write_text(f"P{p}\n====\n\n{pulled}")
        (included / "drafts" / f"x{p}.rst").write_text(f"X\n=\n\n.. txtfrag:: src/m0.txt#line=0,1;length=1;md5={'0' * 32}\n")
    (tree / ".done").write_text("")


def timed(cwd: Path, store: str) -> float:
    start = time.perf_counter()
    r = subprocess.run(
        [str(BIN / "textfrag"), "check", "-q"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "TEXTFRAG_CACHE_DIR": store},
    )
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"textfrag check in {cwd} failed ({r.returncode}): {r.stderr[-2000:]}")
    return elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--parts", type=int, default=10000)
    p.add_argument("--refs-per-part", type=int, default=10)
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    tree = HERE / f".tree-project-{a.parts}-{a.refs_per_part}-{a.files}"
    generate(tree, a.parts, a.refs_per_part, a.files)
    times: dict[str, list[float]] = {"flat": [], "included": []}
    stores = {shape: tempfile.mkdtemp(prefix="textfrag-bench-store-") for shape in times}
    for shape in times:  # (a warm-up: the page cache, and each shape's store of good verdicts)
        timed(tree / shape, stores[shape])
    for _ in range(a.runs):
        for shape in times:
            times[shape].append(timed(tree / shape, stores[shape]))
    med = {k: statistics.median(v) for k, v in times.items()}
    refs = a.parts * a.refs_per_part
    print(f"{refs:,} references quoting {a.files:,} files (medians of {a.runs} runs)")
    print(f"  in {a.parts:,} documents:                          {med['flat']:.2f} s")
    print(
        f"  in {a.parts:,} parts of {a.parts // 10:,} pages, {a.parts // 10:,} drafts excluded: {med['included']:.2f} s"
        f"  = {med['included'] / med['flat']:.2f}x (target <= 1.10x)"
    )


if __name__ == "__main__":
    main()
