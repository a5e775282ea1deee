"""Sphinx: the same excerpts built with ``.. txtfrag::`` and with ``.. literalinclude::``.

    .venv/bin/python bench/bench_sphinx.py [--files 60] [--refs 600] [--runs 5]

Two projects quote the same line ranges of the same files; full builds (-E) alternate between them and
the median ratio txtfrag/literalinclude is printed. Target (issue 3): <= 1.0, although txtfrag also
verifies the md5 and length of every file, because it loads each file once per build while
literalinclude reads the file again for every directive.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_core import compile_bytecode  # noqa: E402


def generate(work: Path, files: int, refs: int, lines_per_file: int) -> None:
    rng = random.Random(3)
    if work.exists():
        shutil.rmtree(work)
    src = work / "src"
    src.mkdir(parents=True)
    meta = []
    for i in range(files):
        text = "".join(
            f"    value_{n} = compute({n}, {rng.randrange(1000)})  # {'x' * rng.randrange(10, 60)}\n"
            for n in range(lines_per_file)
        )
        (src / f"mod{i:03d}.py").write_text(text)
        meta.append((f"src/mod{i:03d}.py", len(text), hashlib.md5(text.encode()).hexdigest()))
    docs_per_project = 60
    per_doc = refs // docs_per_project
    for kind in ("txtfrag", "literalinclude"):
        docs = work / kind
        docs.mkdir()
        ext = '["sphinx_textfrag"]' if kind == "txtfrag" else "[]"
        (docs / "conf.py").write_text(f"extensions = {ext}\ntextfrag_root = '..'\nexclude_patterns = ['_build']\n")
        (docs / "index.rst").write_text(
            "Bench\n=====\n\n.. toctree::\n\n" + "".join(f"   page{d}\n" for d in range(docs_per_project))
        )
    for d in range(docs_per_project):
        pages = {"txtfrag": [f"Page {d}\n=======\n\n"], "literalinclude": [f"Page {d}\n=======\n\n"]}
        for r in range(per_doc):
            path, length, md5 = meta[(d * per_doc + r) % files]
            a = rng.randrange(0, lines_per_file - 30)
            b = a + rng.randrange(5, 30)
            pages["txtfrag"].append(f".. txtfrag:: {path}#line={a},{b};length={length};md5={md5}\n\n")
            pages["literalinclude"].append(f".. literalinclude:: ../{path}\n   :lines: {a + 1}-{b}\n   :caption: {path}\n\n")
        for kind, parts in pages.items():
            (work / kind / f"page{d}.rst").write_text("".join(parts))


def build(docs: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a full build in a fresh process."""
    out = docs / "_build"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(docs), str(out)], capture_output=True, text=True
    )
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"build of {docs.name} failed:\n{r.stderr[-3000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--refs", type=int, default=600)
    ap.add_argument("--lines", type=int, default=2000, help="lines per quoted file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "sphinx")
    args = ap.parse_args()
    compile_bytecode()
    generate(args.work, args.files, args.refs, args.lines)
    times: dict[str, list[float]] = {"txtfrag": [], "literalinclude": []}
    cpu: dict[str, list[float]] = {"txtfrag": [], "literalinclude": []}
    build(args.work / "txtfrag")  # warm caches and imports
    build(args.work / "literalinclude")
    for _ in range(args.runs):
        for kind in ("txtfrag", "literalinclude"):
            wall, cpu_s = build(args.work / kind)
            times[kind].append(wall)
            cpu[kind].append(cpu_s)
    t, li = statistics.median(times["txtfrag"]), statistics.median(times["literalinclude"])
    size = sum(p.stat().st_size for p in (args.work / "src").glob("*.py"))
    print(
        f"{args.refs} references over {args.files} files ({size / 1e6:.1f} MB), 60 pages, {args.runs} alternating full builds each"
    )
    print(f"literalinclude: median {li:.2f} s   {' '.join(f'{x:.2f}' for x in times['literalinclude'])}")
    print(f"txtfrag:        median {t:.2f} s   {' '.join(f'{x:.2f}' for x in times['txtfrag'])}")
    ct, cli = statistics.median(cpu["txtfrag"]), statistics.median(cpu["literalinclude"])
    print(f"CPU time: literalinclude median {cli:.2f} s, txtfrag median {ct:.2f} s")
    print(f"ratio txtfrag/literalinclude: {t / li:.3f} wall, {ct / cli:.3f} CPU  (target <= 1.0)")


if __name__ == "__main__":
    main()
