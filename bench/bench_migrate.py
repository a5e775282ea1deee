"""`textfrag migrate` of 500 literalincludes in one process, against the time of building the site.

    .venv/bin/python bench/bench_migrate.py [--includes 500 --pages 50] [--runs 5]

Generates a Sphinx project (in bench/.work/migrate) whose pages hold --includes literalincludes with the
options real projects use (whole files, :lines:, :pyobject:, markers, :emphasize-lines:, :linenos:,
:caption:), then times, median of --runs: `textfrag migrate` (without --write: the whole conversion,
the diff printed) and `sphinx-build` of the same site. Target: converting hundreds of
includes takes seconds, a fraction of one build.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

OPTIONS = [
    "",
    "   :lines: 3-12",
    "   :pyobject: Store.add",
    "   :pyobject: helper_{n}",
    "   :start-after: # start\n   :end-before: # end",
    "   :lines: 5-9\n   :emphasize-lines: 2,4\n   :linenos:",
    "   :caption: Example {n}\n   :lineno-match:\n   :lines: 2-8",
]


def module(n: int) -> str:
    body = "".join(f"    value_{i} = compute({i})\n" for i in range(20))
    method = "".join(f"        value_{i} = compute({i})\n" for i in range(20))
    return (
        f'"""Module {n}."""\n\nimport os\n\n\ndef helper_{n}(x):\n{body}    return x\n\n\n'
        f"class Store:\n    def add(self, item):\n        # start\n{method}        # end\n        return item\n"
    )


def generate(root: Path, includes: int, pages: int) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text(
        'extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\nexclude_patterns = ["_build"]\n'
    )
    files = 100
    for n in range(files):
        (root / "src" / f"mod{n:03d}.py").write_text(module(n))
    rng = random.Random(12)
    per_page = includes // pages
    toc = []
    for p in range(pages):
        parts = [f"Page {p}\n{'=' * 12}\n\n"]
        for i in range(per_page):
            n = rng.randrange(files)
            options = rng.choice(OPTIONS).format(n=n)
            parts.append(f"Include {i}\n\n.. literalinclude:: ../src/mod{n:03d}.py\n{options}\n\n".replace("\n\n\n", "\n\n"))
        (root / "docs" / f"page{p:03d}.rst").write_text("".join(parts))
        toc.append(f"   page{p:03d}")
    (root / "docs" / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "\n".join(toc) + "\n")


def timed(cmd: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--includes", type=int, default=500)
    ap.add_argument("--pages", type=int, default=50)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    root = HERE / ".work" / "migrate"
    generate(root, args.includes, args.pages)
    migrate = [sys.executable, "-m", "textfrag", "migrate", "docs"]
    build = [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html", "docs", "docs/_build/html"]
    t_migrate = statistics.median(timed(migrate, root) for _ in range(args.runs))
    t_build = statistics.median(timed(build, root) for _ in range(args.runs))
    out = subprocess.run(migrate, cwd=root, capture_output=True, text=True)
    print(out.stderr.strip().splitlines()[-1])
    print(f"textfrag migrate: median {t_migrate:.2f} s over {args.runs} runs ({args.includes} literalincludes)")
    print(f"sphinx-build -E:  median {t_build:.2f} s over {args.runs} runs (the same site, literalincludes as they are)")
    print(f"ratio migrate/build: {t_migrate / t_build:.2f}  (target: seconds for hundreds, a fraction of one build)")


if __name__ == "__main__":
    main()
