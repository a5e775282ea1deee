"""Sphinx: the same excerpts built with ``.. txtfrag::`` and with ``.. literalinclude::``.

    .venv/bin/python bench/bench_sphinx.py [--files 60] [--refs 600] [--runs 5]

Three projects show the same line ranges of the same files (by txtfrag, by literalinclude, and pasted
inline as code-block); full builds (-E) alternate between them and the median ratios txtfrag/peer are
printed, of wall time and of CPU time. Target: <= 0.9 against both, although txtfrag also
verifies the md5 and length of every file, because it loads each file once per build while literalinclude
reads the file again for every directive. The suite of benchmarks measures 3,000 excerpts: ``--refs 3000``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import alternate, make_sources, plan_pages, report  # noqa: E402

PAGES = 60


def generate(work: Path, files: int, refs: int, lines: int) -> None:
    rng = random.Random(3)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    texts = {path: (work / path).read_text(encoding="utf-8").splitlines(True) for path, _, _ in meta}
    for kind in ("txtfrag", "literalinclude", "code-block"):
        docs = work / kind
        docs.mkdir()
        ext = '["sphinx_textfrag"]' if kind == "txtfrag" else "[]"
        (docs / "conf.py").write_text(f"extensions = {ext}\ntextfrag_root = '..'\nexclude_patterns = ['_build']\n")
        (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n" + "".join(f"   page{d}\n" for d in range(PAGES)))
    for d, row in enumerate(plan_pages(meta, PAGES, refs, lines, rng)):
        pages = {kind: [f"Page {d}\n=======\n\n"] for kind in ("txtfrag", "literalinclude", "code-block")}
        for path, length, md5, a, b in row:
            pages["txtfrag"].append(f".. txtfrag:: {path}#line={a},{b};length={length};md5={md5}\n\n")
            pages["literalinclude"].append(f".. literalinclude:: ../{path}\n   :lines: {a + 1}-{b}\n   :caption: {path}\n\n")
            pasted = "".join(f"   {line}" if line.strip() else "\n" for line in texts[path][a:b])
            pages["code-block"].append(f".. code-block:: python\n   :caption: {path}\n\n{pasted}\n")
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
    generate(args.work, args.files, args.refs, args.lines)
    build = {
        kind: [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(args.work / kind), str(args.work / kind / "_build")]
        for kind in ("txtfrag", "literalinclude", "code-block")
    }
    print(
        f"{args.refs} references over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating full builds each"
    )
    times = alternate(build, args.runs)
    report(times, "txtfrag", "literalinclude", target=0.9)
    report(times, "txtfrag", "code-block", target=0.9)


if __name__ == "__main__":
    main()
