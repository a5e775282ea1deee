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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--refs", type=int, default=3000)
    p.add_argument("--files", type=int, default=30)
    p.add_argument("--runs", type=int, default=5)
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
            symbols._parsed.cache_clear()  # (each build parses its files anew)
            symbols._index.cache_clear()
            intents.append(build(True))
        r, s = statistics.median(ranges), statistics.median(intents)
        print(f"{a.refs} references to {a.files} Go files, medians of {a.runs} runs")
        print(f"  pinned by range only:    {r:.3f} s")
        print(f"  with :symbol: checked:   {s:.3f} s   ({s / r:.2f}x; target <= 1.1x)")
        big = go_file(2000)  # 10,000 lines
        began = time.perf_counter()
        found = definitions(big, "go")
        print(f"  a {big.count(chr(10)):,}-line file: {len(found):,} definitions parsed in {time.perf_counter() - began:.3f} s")


if __name__ == "__main__":
    main()
