"""The symbol intent's cost (issue 27), as a build pays it: each reference is quoted and its intent checked
against the pin (what the engines do for every directive with `:symbol:`), against the same excerpts
pinned by range only (target: at most 1.1x); and the parse of a 10,000-line file.

    .venv/bin/python bench/bench_symbols.py [--refs 3000] [--files 30] [--runs 5]

Each quoted file is parsed once however many references name its definitions.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from textfrag import SourceCache, parse_reference, quote
from textfrag.intent import Intent, disagreement
from textfrag.quote import make_reference
from textfrag.resolve import select_lines
from textfrag.symbols import definitions


def go_file(functions: int) -> str:
    return "package p\n\n" + "".join(
        f"// F{n} does {n}.\nfunc F{n}(x int) int {{\n\treturn x + {n}\n}}\n\n" for n in range(functions)
    )


def sphinx_builds(root: Path, work: list[tuple[object, Intent]], pages: int, runs: int) -> tuple[float, float]:
    """Median seconds of `sphinx-build` over the directives, without and with their :symbol: option."""
    import subprocess
    import sys

    times: dict[bool, list[float]] = {False: [], True: []}
    for with_symbol in (False, True):
        docs = root / f"docs-{with_symbol}"
        docs.mkdir(exist_ok=True)
        (docs / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
        per_page: list[list[str]] = [[] for _ in range(pages)]
        for k, (ref, intent) in enumerate(work):
            option = f"\n   :symbol: {intent.symbol}" if with_symbol else ""
            per_page[k % pages].append(f".. txtfrag:: {ref.text}{option}\n")  # type: ignore[attr-defined]
        (docs / "index.rst").write_text("T\n=\n\n.. toctree::\n\n" + "".join(f"   p{i}\n" for i in range(pages)))
        for i, directives in enumerate(per_page):
            (docs / f"p{i}.rst").write_text(f"P{i}\n==\n\n" + "\n".join(directives))
        for _ in range(runs):
            began = time.perf_counter()
            r = subprocess.run(
                [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(docs), str(docs / "_out")], capture_output=True
            )
            assert r.returncode == 0, r.stderr.decode()[-2000:]
            times[with_symbol].append(time.perf_counter() - began)
    return statistics.median(times[False]), statistics.median(times[True])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--refs", type=int, default=3000)
    p.add_argument("--files", type=int, default=30)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument(
        "--sphinx", action="store_true", help="also time real Sphinx builds of the directives, with and without :symbol:"
    )
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        per_file = a.refs // a.files
        for i in range(a.files):
            (root / f"m{i}.go").write_text(go_file(per_file))
        cache = SourceCache(root)
        work = []
        for k in range(a.refs):
            i, n = k % a.files, k // a.files
            source = cache.get(f"m{i}.go")
            first = 3 + 5 * n  # the comment line, then func ... to its closing brace
            ref = parse_reference(make_reference(select_lines(source, first + 1, first + 3), lines=True))
            work.append((ref, Intent(symbol=f"F{n}")))

        def build(with_intent: bool) -> float:
            fresh = SourceCache(root)
            began = time.perf_counter()
            for ref, intent in work:
                q = quote(fresh, ref)
                if with_intent:
                    assert (
                        disagreement(q.source.text, q.selection.first_line, q.selection.last_line, intent, path=ref.path) is None
                    )
            return time.perf_counter() - began

        from textfrag import symbols

        ranges, intents = [], []
        for _ in range(a.runs):
            ranges.append(build(False))
            symbols._scanned.cache_clear()  # (each build parses its files anew)
            symbols._index.cache_clear()
            intents.append(build(True))
        r, s = statistics.median(ranges), statistics.median(intents)
        print(f"{a.refs} references to {a.files} Go files, medians of {a.runs} runs")
        print(f"  pinned by range only:    {r:.3f} s")
        print(f"  with :symbol: checked:   {s:.3f} s   ({s / r:.2f}x; target <= 1.1x)")
        if a.sphinx:
            print(f"  a Sphinx build of the same {a.refs} directives in {a.files} pages, medians of {a.runs} runs:")
            plain, symbolic = sphinx_builds(root, work, a.files, a.runs)
            print(
                f"    pinned by range only: {plain:.2f} s; with :symbol:: {symbolic:.2f} s ({symbolic / plain:.2f}x; target <= 1.1x)"
            )
        big = go_file(2000)  # 10,000 lines
        began = time.perf_counter()
        found = definitions(big, "go")
        print(f"  a {big.count(chr(10)):,}-line file: {len(found):,} definitions parsed in {time.perf_counter() - began:.3f} s")


if __name__ == "__main__":
    main()
