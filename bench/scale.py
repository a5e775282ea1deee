"""`textfrag check` at scale: 100,000 references in 10,000 Markdown documents quoting
1,000 files of 5 KB, against its floor (`grep -rc txtfrag: docs` + `md5sum src/*`), with peak memory; and
the same references with intents (`pyobject=` on every one), which must cost at most 10% more (each file
parsed once, only when an intent asks for it): once with the definitions kept from an earlier run
(textfrag.source.store, as a pre-commit hook or a second CI run finds them) and once with an empty store.

    .venv/bin/python bench/scale.py [--docs 10000 --refs-per-doc 10 --files 1000] [--runs 3]

Generates the tree once per shape into bench/.tree-scale-*/ (deterministic), runs each command --runs
times alternately (page cache warm for all), and prints medians and ratios. Targets: check <= 2 s and
<= 20x the floor, peak memory <= 200 MB (also at 300,000 references: --docs 30000).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def source(i: int) -> str:
    """A Python file of about 5 KB: twenty functions of eight lines."""
    out = [f'"""Module {i}."""\n\n']
    for f in range(20):
        out.append(f"def f{f}(x):\n")
        out += [f"    y{k} = x * {k} + {i}  # a line of about forty characters\n" for k in range(6)]
        out.append("    return y0\n\n")
    return "".join(out)


def generate(tree: Path, docs: int, per_doc: int, files: int) -> None:
    if (tree / ".done").exists():
        return
    (tree / "src").mkdir(parents=True, exist_ok=True)
    (tree / "docs").mkdir(exist_ok=True)
    (tree / "docs-intents").mkdir(exist_ok=True)
    pins = []
    for i in range(files):
        text = source(i)
        (tree / "src" / f"m{i}.py").write_text(text)
        pins.append(f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}")
    for d in range(docs):
        plain, intents = ["# Doc\n\n"], ["# Doc\n\n"]
        for r in range(per_doc):
            i, f = (d * per_doc + r) % files, r % 20
            first = 2 + f * 9  # 0-based line of `def f{f}`
            ref = f"txtfrag:src/m{i}.py#line={first},{first + 8};{pins[i]}"
            plain.append(f"![]({ref})\n\n")
            intents.append(f'![]({ref}){{ pyobject="f{f}" }}\n\n')
        (tree / "docs" / f"d{d}.md").write_text("".join(plain))
        (tree / "docs-intents" / f"d{d}.md").write_text("".join(intents))
    (tree / ".done").write_text("")


def timed(argv: list[str], cwd: Path, shell: bool = False) -> tuple[float, int]:
    """Wall seconds and the peak resident memory (KB) of the command (its process tree's largest)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    r = subprocess.run(argv if not shell else " ".join(argv), cwd=cwd, shell=shell, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if r.returncode not in (0,):
        sys.exit(f"{argv[:3]} failed ({r.returncode}): {r.stderr[-2000:]}")
    return elapsed, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--docs", type=int, default=10000)
    p.add_argument("--refs-per-doc", type=int, default=10)
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    tree = HERE / f".tree-scale-{a.docs}-{a.refs_per_doc}-{a.files}"
    generate(tree, a.docs, a.refs_per_doc, a.files)
    textfrag = str(BIN / "textfrag")
    floor_cmd = ["grep", "-rc", "txtfrag:", "docs", ">/dev/null", "&&", "md5sum", "src/*", ">/dev/null"]
    times: dict[str, list[float]] = {"check": [], "intents": [], "cold": [], "floor": []}
    peak = {"check": 0, "intents": 0, "cold": 0}
    kept = tempfile.mkdtemp(prefix="textfrag-bench-store-")  # (the store of definitions the warm runs share)
    for _ in range(a.runs):
        # (the peak is measured by a fresh interpreter per command: RUSAGE_CHILDREN keeps the largest so far)
        t, _m = timed(floor_cmd, tree, shell=True)
        times["floor"].append(t)
        for name, docs in (("check", "docs"), ("intents", "docs-intents"), ("cold", "docs-intents")):
            store = kept if name != "cold" else tempfile.mkdtemp(prefix="textfrag-bench-store-")
            r = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    "import resource, subprocess, sys, time; s = time.perf_counter(); "
                    "r = subprocess.run(sys.argv[1:], capture_output=True); "
                    "print(time.perf_counter() - s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)",
                    textfrag,
                    "check",
                    "--root",
                    ".",
                    "-q",
                    docs,
                ],
                cwd=tree,
                capture_output=True,
                text=True,
                env={**os.environ, "TEXTFRAG_CACHE_DIR": store},
            )
            seconds, kb, code = r.stdout.split()
            if code != "0":
                sys.exit(f"textfrag check {docs} failed ({code})")
            times[name].append(float(seconds))
            peak[name] = max(peak[name], int(kb))
    med = {k: statistics.median(v) for k, v in times.items()}
    refs = a.docs * a.refs_per_doc
    print(f"{refs:,} references in {a.docs:,} documents quoting {a.files:,} files (medians of {a.runs} runs)")
    print(f"  floor (grep -rc + md5sum):  {med['floor']:.2f} s")
    print(
        f"  check:                      {med['check']:.2f} s  = {med['check'] / med['floor']:.1f}x the floor (target <= 20x, <= 2 s); peak {peak['check'] / 1024:.0f} MB (target <= 200 MB)"
    )
    print(
        f"  check with intents:         {med['intents']:.2f} s  = {med['intents'] / med['check']:.2f}x check without (target <= 1.10x); peak {peak['intents'] / 1024:.0f} MB"
    )
    print(
        f"    the same, store empty:    {med['cold']:.2f} s  = {med['cold'] / med['check']:.2f}x check without; peak {peak['cold'] / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
