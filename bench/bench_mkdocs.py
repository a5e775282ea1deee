"""MkDocs: the same excerpts built with ``![](txtfrag:...)`` and with ``pymdownx.snippets``.

    .venv/bin/python bench/bench_mkdocs.py [--files 60] [--refs 600] [--runs 5]

Two sites quote the same line ranges of the same files, highlighted the same way (pymdownx.highlight);
builds alternate and the median ratio txtfrag/snippets is printed, of wall time and of CPU time.
Target: <= 1.0, although txtfrag also verifies md5 and length, because it loads each file once
per build.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import alternate, make_sources, plan_pages, report  # noqa: E402

PAGES = 60
CONFIG = """\
site_name: bench
markdown_extensions:
  - attr_list
  - pymdownx.highlight
  - pymdownx.superfences
{extra}
"""


def generate(work: Path, files: int, refs: int, lines: int) -> None:
    rng = random.Random(4)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    extra = {
        "txtfrag": "plugins:\n  - textfrag:\n      root: ..\n",
        "snippets": "  - pymdownx.snippets:\n      base_path: [..]\n      check_paths: true\n",
    }
    for kind, more in extra.items():
        (work / kind / "docs").mkdir(parents=True)
        (work / kind / "mkdocs.yml").write_text(CONFIG.format(extra=more))
        (work / kind / "docs" / "index.md").write_text("# Bench\n")
    for d, row in enumerate(plan_pages(meta, PAGES, refs, lines, rng)):
        pages: dict[str, list[str]] = {"txtfrag": [f"# Page {d}\n\n"], "snippets": [f"# Page {d}\n\n"]}
        for path, length, md5, a, b in row:
            pages["txtfrag"].append(f"![{path}](txtfrag:{path}#line={a},{b};length={length};md5={md5})\n\n")
            pages["snippets"].append(f'```python title="{path}"\n--8<-- "{path}:{a + 1}:{b}"\n```\n\n')
        for kind, parts in pages.items():
            (work / kind / "docs" / f"page{d}.md").write_text("".join(parts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--refs", type=int, default=600)
    ap.add_argument("--lines", type=int, default=2000, help="lines per quoted file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "mkdocs")
    args = ap.parse_args()
    generate(args.work, args.files, args.refs, args.lines)
    build = {kind: ([sys.executable, "-m", "mkdocs", "build", "-q"], args.work / kind) for kind in ("txtfrag", "snippets")}
    print(
        f"{args.refs} references over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating builds each"
    )
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    report(alternate(build, args.runs, env), "txtfrag", "snippets")


if __name__ == "__main__":
    main()
