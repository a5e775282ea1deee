"""Quotes of other repositories: 1,000 pinned quotes from 10 declared sources (``txtfrag://NAME/PATH``), against
the same 1,000 quotes of the same files copied under the docs' root. Measures the fetches of a cold run
(``textfrag sources fetch`` with an empty cache: one per repository and commit, whatever the number of
quotes), then, warm and offline (the repositories removed), ``textfrag check`` (as users run it: what an
earlier run found is kept; a declared source's file at a commit never changes, so its digest is kept
whatever its size), ``check --no-cache`` (every file read: a git process per source) and a Sphinx build of
each docs tree. Target: the sources' check and build at most 1.1x the local files'.

    .venv/bin/python bench/bench_sources.py [--quotes 1000] [--sources 10] [--runs 5]

Generates the repositories and both docs trees once into bench/.tree-sources-*/ (deterministic), runs each
command --runs times alternately, and prints medians and the ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
FILES = 20  # per source


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT})


def generate(tree: Path, quotes: int, sources: int) -> None:
    if (tree / ".done").exists():
        return
    shutil.rmtree(tree, ignore_errors=True)
    remote, local = tree / "docs-remote", tree / "docs-local"
    for docs in (remote, local):
        docs.mkdir(parents=True)
        (docs / "conf.py").write_text("extensions = ['sphinx_textfrag']\nexclude_patterns = ['_build', 'src']\n")
        _git(docs, "init", "-q")
    declared = ["[sources]"]
    texts: dict[tuple[int, int], str] = {}
    for s in range(sources):
        work = tree / f"s{s}"
        (work / "src").mkdir(parents=True)
        for f in range(FILES):
            text = "".join(f"def f{k}(x):  # source {s}, file {f}, a line of about sixty characters\n" for k in range(300))
            texts[(s, f)] = text
            (work / "src" / f"m{f}.py").write_text(text)
            (local / "src" / f"s{s}").mkdir(parents=True, exist_ok=True)
            (local / "src" / f"s{s}" / f"m{f}.py").write_text(text)
        _git(work, "init", "-q")
        _git(work, "add", "-A")
        _git(work, "commit", "-qm", "v1")
        _git(work, "tag", "v1")
        _git(tree, "clone", "-q", "--bare", str(work), f"s{s}.git")
        declared.append(f's{s} = {{ git = "{(tree / f"s{s}.git").as_uri()}", rev = "v1" }}')
    (remote / "textfrag.toml").write_text("\n".join(declared) + "\n")
    pages, per = 50, quotes // 50
    for p in range(pages):
        remote_lines, local_lines = ["Page\n====\n\n"], ["Page\n====\n\n"]
        for k in range(per):
            n = p * per + k
            s, f, a = n % sources, (n // sources) % FILES, (n * 7) % 290
            text = texts[(s, f)]
            pin = f"line={a},{a + 5};length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
            remote_lines.append(f".. txtfrag:: txtfrag://s{s}/src/m{f}.py#{pin}\n\n")
            local_lines.append(f".. txtfrag:: src/s{s}/m{f}.py#{pin}\n\n")
        (remote / f"p{p}.rst").write_text("".join(remote_lines))
        (local / f"p{p}.rst").write_text("".join(local_lines))
    toc = "Bench\n=====\n\n.. toctree::\n\n" + "".join(f"   p{p}\n" for p in range(pages))
    for docs in (remote, local):
        (docs / "index.rst").write_text(toc)
    (tree / ".done").write_text("")


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{argv[:4]} failed ({r.returncode}): {r.stderr[-2000:]}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quotes", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tree = HERE / f".tree-sources-{args.quotes}-{args.sources}"
    generate(tree, args.quotes, args.sources)
    remote, local = tree / "docs-remote", tree / "docs-local"
    cache = tree / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    trace = tree / "git-trace.log"
    trace.unlink(missing_ok=True)
    # (the store of what runs found, as a user's runs keep it: its own folder here, emptied first)
    shutil.rmtree(tree / "store", ignore_errors=True)
    env = {**os.environ, "TEXTFRAG_SOURCES_CACHE": str(cache), "TEXTFRAG_CACHE_DIR": str(tree / "store")}
    env.pop("TEXTFRAG_NO_CACHE", None)
    textfrag = str(BIN / "textfrag")
    cold = timed([textfrag, "sources", "fetch"], remote, env)
    fetches = sum(1 for d in cache.iterdir() if d.suffix == ".git")
    again = timed([textfrag, "sources", "fetch"], remote, env)
    print(
        f"cold: {args.quotes} quotes of {args.sources} sources fetched in {cold:.2f} s ({fetches} repositories, one commit each);"
    )
    print(f"      a second `sources fetch` (all in the cache) {again:.2f} s")
    hidden = [tree / f"s{s}.git" for s in range(args.sources)]
    for bare in hidden:  # (offline: the repositories are gone)
        bare.rename(bare.with_suffix(".away"))
    try:
        kinds = ("check-remote", "check-local", "read-remote", "read-local", "build-remote", "build-local")
        results: dict[str, list[float]] = {k: [] for k in kinds}
        sphinx = [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html", ".", "_build"]
        check = [textfrag, "check", "--require-pin", "."]
        for _ in range(args.runs):
            results["check-remote"].append(timed(check, remote, env))
            results["check-local"].append(timed(check, local, env))
            results["read-remote"].append(timed([*check, "--no-cache"], remote, env))
            results["read-local"].append(timed([*check, "--no-cache"], local, env))
            results["build-remote"].append(timed(sphinx, remote, env))
            results["build-local"].append(timed(sphinx, local, env))
    finally:
        for bare in hidden:
            bare.with_suffix(".away").rename(bare)
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"warm, offline, medians of {args.runs}:")
    said = {"check": "check", "read": "check --no-cache (every file read)", "build": "sphinx-build -E"}
    for what, name in said.items():
        r, lo = med[f"{what}-remote"], med[f"{what}-local"]
        print(f"  {name:34}  sources {r:.3f} s   local files {lo:.3f} s   ratio {r / lo:.2f}x (target <= 1.1x)")


if __name__ == "__main__":
    main()
