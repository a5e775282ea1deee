"""Guard mode's cost: the same site built without textfrag and with ``textfrag_guard`` /
``guard: true`` (every include recorded and judged), in Sphinx (literalinclude) and in MkDocs
(pymdownx.snippets).

    .venv/bin/python bench/bench_guard.py [--files 60] [--includes 600] [--runs 5]

Builds alternate; the median ratio guarded/plain is printed, of wall time and of CPU time. Target: at most
1.05 (a guarded build costs at most 5% over the same build without textfrag).
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
MKDOCS = """\
site_name: bench
markdown_extensions:
  - pymdownx.highlight
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: [..]
      check_paths: true
{plugins}"""


def generate(work: Path, files: int, includes: int, lines: int) -> None:
    rng = random.Random(5)
    if work.exists():
        shutil.rmtree(work)
    meta = make_sources(work / "src", files, lines, rng)
    plan = plan_pages(meta, PAGES, includes, lines, rng)
    for kind in ("plain", "guarded"):
        docs = work / f"sphinx-{kind}"
        docs.mkdir()
        conf = "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n" if kind == "guarded" else ""
        (docs / "conf.py").write_text(conf + "exclude_patterns = ['_build']\n")
        (docs / "index.rst").write_text("Bench\n=====\n\n.. toctree::\n\n" + "".join(f"   page{d}\n" for d in range(PAGES)))
        site = work / f"mkdocs-{kind}"
        (site / "docs").mkdir(parents=True)
        # (both with MkDocs' default plugin: a site that names its plugins has no other)
        plugins = "plugins:\n  - search\n" + ("  - textfrag:\n      root: ..\n      guard: true\n" if kind == "guarded" else "")
        (site / "mkdocs.yml").write_text(MKDOCS.format(plugins=plugins))
        (site / "docs" / "index.md").write_text("# Bench\n")
        for d, row in enumerate(plan):
            rst = [f"Page {d}\n=======\n\n"]
            md = [f"# Page {d}\n\n"]
            for path, _length, _md5, a, b in row:
                rst.append(f".. literalinclude:: ../{path}\n   :lines: {a + 1}-{b}\n   :caption: {path}\n\n")
                md.append(f'```python title="{path}"\n--8<-- "{path}:{a + 1}:{b}"\n```\n\n')
            (docs / f"page{d}.rst").write_text("".join(rst))
            (site / "docs" / f"page{d}.md").write_text("".join(md))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=60)
    ap.add_argument("--includes", type=int, default=600)
    ap.add_argument("--lines", type=int, default=2000, help="lines per included file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", type=Path, default=HERE / ".work" / "guard")
    args = ap.parse_args()
    generate(args.work, args.files, args.includes, args.lines)
    textfrag = [str(Path(sys.executable).parent / "textfrag")]
    import subprocess

    for kind, cwd in (("sphinx", args.work / "sphinx-guarded"), ("mkdocs", args.work / "mkdocs-guarded")):
        pinned = subprocess.run([*textfrag, "pin", "--write"], cwd=cwd, capture_output=True, text=True)
        if pinned.returncode != 0 or f"recorded {args.includes} includes" not in pinned.stdout:
            raise SystemExit(f"{kind}: pin failed: {pinned.stdout}{pinned.stderr[-2000:]}")
    print(
        f"{args.includes} includes over {args.files} files of {args.lines} lines, {PAGES} pages, {args.runs} alternating full builds each"
    )
    sphinx = {
        kind: [
            sys.executable,
            "-m",
            "sphinx",
            "-E",
            "-q",
            "-b",
            "html",
            str(args.work / f"sphinx-{kind}"),
            str(args.work / f"sphinx-{kind}" / "_build"),
        ]
        for kind in ("plain", "guarded")
    }
    print("Sphinx, literalinclude (target <= 1.05):")
    report(alternate(sphinx, args.runs), "guarded", "plain", target=1.05)
    mkdocs = {
        kind: (
            [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(args.work / f"mkdocs-{kind}" / "site")],
            args.work / f"mkdocs-{kind}",
        )
        for kind in ("plain", "guarded")
    }
    print("MkDocs, pymdownx.snippets (target <= 1.05):")
    report(alternate(mkdocs, args.runs), "guarded", "plain", target=1.05)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
