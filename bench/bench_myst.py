"""mystmd (Jupyter Book 2's engine): the same excerpts built with the ``txtfrag`` directive of
``textfrag-myst`` and with mystmd's own ``literalinclude``, and what one use of the plugin costs.

    .venv/bin/python bench/bench_myst.py [--files 30] [--refs 300] [--runs 3]

Three books quote the same line ranges of the same files (the executable plugin ``textfrag-myst``, the same
as a JavaScript plugin, ``textfrag-myst --javascript``, and mystmd's ``literalinclude``); builds (``myst build --site`` with a local
template: no network) alternate and the median ratio txtfrag/literalinclude is printed, of wall time and of
CPU time. mystmd starts an executable plugin once for every use of its directive (``literalinclude`` runs
inside mystmd), so the ratio is mostly that start: a use only becomes a placeholder, which Python's start
bounds, and the page's transform judges them all. mystmd comes from ``TEXTFRAG_MYST`` or the venv's
node folder (``make test`` installs it).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import alternate, make_sources, plan_pages, report  # noqa: E402

BIN = Path(sys.executable).parent
PAGES = 10
#: the books: the executable plugin, the same as a JavaScript plugin (`textfrag-myst --javascript`), mystmd's own
KINDS = ("txtfrag", "javascript", "literalinclude")


def generate(work: Path, files: int, refs: int, lines: int) -> None:
    rng = random.Random(7)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    plugin = shutil.which("textfrag-myst", path=str(BIN))
    if plugin is None:
        raise SystemExit("textfrag-myst is not installed beside this Python (make bench installs the wheel)")
    plugins = {
        "txtfrag": f"  plugins:\n    - type: executable\n      path: {plugin}\n",
        "javascript": "  plugins:\n    - textfrag.mjs\n",
        "literalinclude": "",
    }
    for kind in KINDS:
        book = work / kind
        (book / "tpl").mkdir(parents=True)
        (book / "tpl" / "template.yml").write_text("jtex: v1\ntitle: local\n")
        (book / "myst.yml").write_text(f"version: 1\nproject:\n{plugins[kind]}site:\n  template: ./tpl\n")
        shutil.copytree(work / "src", book / "src")
    javascript = subprocess.run([plugin, "--javascript"], capture_output=True, text=True, check=True).stdout
    (work / "javascript" / "textfrag.mjs").write_text(javascript)
    for d, row in enumerate(plan_pages(meta, PAGES, refs, lines, rng)):
        pages: dict[str, list[str]] = {kind: [f"# Page {d}\n\n"] for kind in KINDS}
        for path, length, md5, a, b in row:
            pages["txtfrag"].append(f"```{{txtfrag}} {path}#line={a},{b};length={length};md5={md5}\n```\n\n")
            pages["literalinclude"].append(f"```{{literalinclude}} {path}\n:lines: {a + 1}-{b}\n```\n\n")
        pages["javascript"] = pages["txtfrag"]
        for kind, parts in pages.items():
            (work / kind / f"page{d}.md").write_text("".join(parts))


def per_use(runs: int = 21) -> float:
    """The median time of one ``textfrag-myst --directive txtfrag`` (what mystmd starts for every use)."""
    plugin = shutil.which("textfrag-myst", path=str(BIN))
    assert plugin is not None
    sent = '{"name": "txtfrag", "arg": "src/mod000.py#line=0,5", "options": {}, "node": {"position": {"start": {"line": 3}}}}'
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([plugin, "--directive", "txtfrag"], input=sent, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--refs", type=int, default=300)
    ap.add_argument("--lines", type=int, default=400, help="lines per quoted file")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "myst")
    args = ap.parse_args()
    myst = Path(os.environ.get("TEXTFRAG_MYST") or HERE.parent / ".venv" / "node" / "node_modules" / ".bin" / "myst")
    if not myst.exists():
        raise SystemExit(f"mystmd is not at {myst}: set TEXTFRAG_MYST (make test installs it)")
    generate(args.work, args.files, args.refs, args.lines)
    print(
        f"{args.refs} references over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating builds each"
    )
    print(f"one use of the plugin (textfrag-myst --directive): median {per_use() * 1000:.1f} ms")
    build = {kind: ([str(myst), "build", "--site"], args.work / kind) for kind in KINDS}
    # (the JavaScript plugin finds textfrag-myst beside this Python, as the executable plugin is named)
    env = dict(os.environ, TEXTFRAG_MYST_PLUGIN=str(BIN / "textfrag-myst"))
    times = alternate(build, args.runs, env)
    report(times, "txtfrag", "literalinclude", target=float("inf"))
    report(times, "javascript", "literalinclude", target=float("inf"))


if __name__ == "__main__":
    main()
