"""The symbol intent's cost: 3,000 references to definitions in 30 Go files, built with their
`symbol` intent against the same excerpts pinned by range only (target: at most 1.1x), in the builds
that pay it: plain Python-Markdown with the textfrag extension, and (with --sphinx) Sphinx. Each
reference carries one option either way (`symbol="F7"` against `.go`, `:symbol: F7` against
`:language: go`, which the file name says anyway), so that the engine's own reading of an option, not
textfrag's work, is the same on both sides: docutils spends about 0.9 ms on a directive's first option
(a field list parsed by a nested state machine), 2.7 s over 3,000 directives. Then the intent's work
alone, in-process (quote each reference and check its intent, against quoting it), and the parse of a
10,000-line file.

    .venv/bin/python bench/bench_symbols.py [--refs 3000] [--files 30] [--runs 5] [--sphinx]

Each quoted file is parsed once however many references name its definitions.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from textfrag import SourceCache, parse_reference, quote
from textfrag.intents.intent import Intent, disagreement
from textfrag.intents.symbols import definitions
from textfrag.reference.resolving import select_lines
from textfrag.verdict.quoting import make_reference


def go_file(functions: int) -> str:
    return "package p\n\n" + "".join(
        f"// F{n} does {n}.\nfunc F{n}(x int) int {{\n\treturn x + {n}\n}}\n\n" for n in range(functions)
    )


def sphinx_builds(root: Path, work: list[tuple[object, Intent]], pages: int, runs: int) -> tuple[float, float]:
    """Median CPU seconds of `sphinx-build` over the directives, with `:language: go` and with `:symbol:`."""
    import resource
    import subprocess
    import sys

    times: dict[bool, list[float]] = {False: [], True: []}
    for with_symbol in (False, True):
        docs = root / f"docs-{with_symbol}"
        docs.mkdir(exist_ok=True)
        (docs / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
        per_page: list[list[str]] = [[] for _ in range(pages)]
        for k, (ref, intent) in enumerate(work):
            option = f"\n   :symbol: {intent.symbol}" if with_symbol else "\n   :language: go"
            per_page[k % pages].append(f".. txtfrag:: {ref.text}{option}\n")  # type: ignore[attr-defined]
        (docs / "index.rst").write_text("T\n=\n\n.. toctree::\n\n" + "".join(f"   p{i}\n" for i in range(pages)))
        for i, directives in enumerate(per_page):
            (docs / f"p{i}.rst").write_text(f"P{i}\n==\n\n" + "\n".join(directives))
    for run in range(runs):  # (interleaved, so that a machine that slows down slows both alike)
        for with_symbol in (False, True) if run % 2 == 0 else (True, False):
            docs = root / f"docs-{with_symbol}"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run(
                [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(docs), str(docs / "_out")], capture_output=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            assert r.returncode == 0, r.stderr.decode()[-2000:]
            times[with_symbol].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times[False]), statistics.median(times[True])


def markdown_builds(root: Path, work: list[tuple[object, Intent]], pages: int, runs: int) -> tuple[float, float]:
    """Median CPU seconds of converting the pages with Python-Markdown and the textfrag extension (a fresh
    extension per build, as a build starts), with `{ .go }` and with `{ symbol="..." }`."""
    import markdown

    from markdown_textfrag.extension import TextfragExtension
    from textfrag.intents import symbols

    times: dict[bool, list[float]] = {False: [], True: []}
    texts: dict[bool, list[str]] = {}
    for with_symbol in (False, True):
        per_page: list[list[str]] = [[] for _ in range(pages)]
        for k, (ref, intent) in enumerate(work):
            attrs = f'symbol="{intent.symbol}"' if with_symbol else ".go"
            per_page[k % pages].append(f"![](txtfrag:{ref.text}){{ {attrs} }}\n")  # type: ignore[attr-defined]
        texts[with_symbol] = ["# P\n\n" + "\n".join(lines) for lines in per_page]
    for run in range(runs):  # (each run in the other order: the second build of a process runs slower)
        for with_symbol in (False, True) if run % 2 == 0 else (True, False):
            symbols._scanned.cache_clear()  # (each build parses its files anew)
            symbols._index.cache_clear()
            began = time.process_time()
            md = markdown.Markdown(extensions=["attr_list", TextfragExtension(root=str(root))])
            for text in texts[with_symbol]:
                md.reset()
                html = md.convert(text)
                assert "txtfrag" in html
            times[with_symbol].append(time.process_time() - began)
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

        from textfrag.intents import symbols

        ranges, intents = [], []
        for _ in range(a.runs):
            ranges.append(build(False))
            symbols._scanned.cache_clear()  # (each build parses its files anew)
            symbols._index.cache_clear()
            intents.append(build(True))
        r, s = statistics.median(ranges), statistics.median(intents)
        print(f"{a.refs} references to {a.files} Go files ({per_file * 5:,} lines each), medians of {a.runs} runs")
        plain, symbolic = markdown_builds(root, work, a.files, a.runs)
        print(f"  Python-Markdown + textfrag (CPU seconds), {a.files} pages:")
        print(
            f"    pinned by range only: {plain:.3f} s; with symbol=: {symbolic:.3f} s ({symbolic / plain:.2f}x; target <= 1.1x)"
        )
        if a.sphinx:
            plain, symbolic = sphinx_builds(root, work, a.files, a.runs)
            print(f"  Sphinx (sphinx-build -E, a process per build, CPU seconds), {a.files} pages:")
            print(
                f"    pinned by range only: {plain:.2f} s; with :symbol:: {symbolic:.2f} s ({symbolic / plain:.2f}x; target <= 1.1x)"
            )
        print("  the intent's work alone, in-process (no engine):")
        print(
            f"    quoting by range only: {r:.3f} s; quoting and checking :symbol:: {s:.3f} s (+{(s - r) * 1000 / a.refs:.3f} ms a reference)"
        )
        big = go_file(2000)  # 10,000 lines
        began = time.perf_counter()
        found = definitions(big, "go")
        print(
            f"  a {big.count(chr(10)):,}-line Go file: {len(found):,} definitions parsed in {time.perf_counter() - began:.3f} s"
        )


if __name__ == "__main__":
    main()
