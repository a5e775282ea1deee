"""The margins of tree-sitter's bounds: for ordinary and hostile shapes of several grammars, the steps a
parse takes (tree-sitter's own count of its operations, the same on every machine), the budget a file of
that size has (textfrag.intents.limits.parse_steps), the seconds the parse takes here, and the backstop's
deadline. A file is accepted or refused by its steps alone; the deadline is a backstop, and the margin column
says how many times slower than this machine a runner would have to be for an accepted file to meet it.

    .venv/bin/python bench/bench_parse.py [--kb 256]
"""

from __future__ import annotations

import argparse
import time

from textfrag.intents.limits import ERROR_WEIGHT, backstop_seconds, parse_steps
from textfrag.intents.symbols import _parser

SHAPES = {
    "ordinary C": ("c", 'int f(int x) {\n    if (x > 0) { return g(x - 1, "s"); }\n    return 0;\n}\n'),
    "ordinary JavaScript": ("javascript", "function f(a) { return [1, 2, 3].map((x) => x * a); }\n"),
    "dense C++ templates": ("cpp", "f(g<h,i>(j));\n"),
    "C++ casts": ("cpp", "(a)" * 3000 + "b;\n"),
    "C++ templates 1,999 deep": ("cpp", "a<" * 1999 + "b" + ">" * 1999 + " x;\n"),
    "C++ random tokens (error recovery)": ("cpp", "a < > ( ) , ; :: * & { } [ ] = template class ? : " * 40 + "\n"),
    "TypeScript a<b>(c) 1,000 deep": ("typescript", "a<" * 1000 + "b" + ">" * 1000 + "(c);\n"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=256, help="the size of each file (KB)")
    args = parser.parse_args()
    print(f"{'shape':36s} {'steps':>9s} {'budget':>9s} {'verdict':>8s} {'seconds':>8s} {'backstop':>9s} {'margin':>7s}")
    for name, (language, unit) in SHAPES.items():
        data = (unit * max(1, args.kb * 1024 // len(unit))).encode()
        tree_parser, _ = _parser(language)
        steps = 0

        def count(offset: int, has_error: bool) -> bool:
            nonlocal steps
            steps += ERROR_WEIGHT if has_error else 1  # (as textfrag counts them)
            return False

        tree_parser.reset()
        start = time.perf_counter()
        tree_parser.parse(lambda at, _, data=data: data[at : at + 65536], progress_callback=count)
        took = time.perf_counter() - start
        budget = parse_steps(len(data))
        verdict = "accepted" if steps <= budget else "refused"
        # (an accepted file's worst case: its whole budget, at this shape's cost per step)
        worst = took / max(steps, 1) * budget
        margin = backstop_seconds(len(data)) / worst if verdict == "accepted" else float("nan")
        print(f"{name:36s} {steps:9,d} {budget:9,d} {verdict:>8s} {took:8.2f} {backstop_seconds(len(data)):9.0f} {margin:6.1f}x")


if __name__ == "__main__":
    main()
