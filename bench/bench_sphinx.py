"""Sphinx: the same excerpts built with ``.. txtfrag::`` and with ``.. literalinclude::``.

    .venv/bin/python bench/bench_sphinx.py [--files 60] [--refs 600] [--runs 5]

Two projects quote the same line ranges of the same files; full builds (-E) alternate between them and
the median ratio txtfrag/literalinclude is printed, of wall time and of CPU time. Target (issue 3):
<= 1.0, although txtfrag also verifies the md5 and length of every file, because it loads each file once
per build while literalinclude reads the file again for every directive.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_core import compile_bytecode  # noqa: E402
from common import alternate, make_sources, plan_pages, report  # noqa: E402

PAGES = 60


def generate(work: Path, files: int, refs: int, lines: int) -> None:
    rng = random.Random(3)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    for kind in ("txtfrag", "literalinclude"):
        docs = work / kind
        docs.mkdir()
        ext = '["sphinx_textfrag"]' if kind == "txtfrag" else "[]"
        (docs / "conf.py").write_text(f"extensions = {ext}\ntextfrag_root = '..'\nexclude_patterns = ['_build']\n")
        (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n" + "".join(f"   page{d}\n" for d in range(PAGES)))
    for d, row in enumerate(plan_pages(meta, PAGES, refs, lines, rng)):
        pages = {"txtfrag": [f"Page {d}\n=======\n\n"], "literalinclude": [f"Page {d}\n=======\n\n"]}
        for path, length, md5, a, b in row:
            pages["txtfrag"].append(f".. txtfrag:: {path}#line={a},{b};length={length};md5={md5}\n\n")
            pages["literalinclude"].append(f".. literalinclude:: ../{path}\n   :lines: {a + 1}-{b}\n   :caption: {path}\n\n")
        for kind, parts in pages.items():
            (work / kind / f"page{d}.rst").write_text("".join(parts))


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
    build = {
        kind: [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(args.work / kind), str(args.work / kind / "_build")]
        for kind in ("txtfrag", "literalinclude")
    }
    print(
        f"{args.refs} references over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating full builds each"
    )
    report(alternate(build, args.runs), "txtfrag", "literalinclude")


if __name__ == "__main__":
    main()
