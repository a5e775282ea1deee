"""What the engine benchmarks share: quoted sources, timed builds, the report."""

from __future__ import annotations

import hashlib
import random
import resource
import statistics
import subprocess
import time
from pathlib import Path


def make_sources(src: Path, files: int, lines: int, rng: random.Random) -> list[tuple[str, int, str]]:
    """`files` Python-like sources of `lines` lines under src/; (path, length, md5) of each."""
    src.mkdir(parents=True)
    meta = []
    for i in range(files):
        text = "".join(
            f"    value_{n} = compute({n}, {rng.randrange(1000)})  # {'x' * rng.randrange(10, 60)}\n" for n in range(lines)
        )
        (src / f"mod{i:03d}.py").write_text(text)
        meta.append((f"src/mod{i:03d}.py", len(text), hashlib.md5(text.encode()).hexdigest()))
    return meta


def plan_pages(
    meta: list[tuple[str, int, str]], pages: int, refs: int, lines: int, rng: random.Random
) -> list[list[tuple[str, int, str, int, int]]]:
    """The same quoted ranges for every engine: per page, (path, length, md5, a, b) meaning lines a+1..b."""
    per_page = refs // pages
    plan = []
    for d in range(pages):
        row = []
        for r in range(per_page):
            path, length, md5 = meta[(d * per_page + r) % len(meta)]
            a = rng.randrange(0, lines - 30)
            row.append((path, length, md5, a, a + rng.randrange(5, 30)))
        plan.append(row)
    return plan


def timed_build(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one build in a fresh process; exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{r.stderr[-3000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def alternate(
    builds: dict[str, list[str] | tuple[list[str], Path]], runs: int, env: dict[str, str] | None = None
) -> dict[str, tuple[list[float], list[float]]]:
    """Run each build once to warm up, then `runs` times alternating; wall and CPU times per build."""

    def run(spec: list[str] | tuple[list[str], Path]) -> tuple[float, float]:
        cmd, cwd = spec if isinstance(spec, tuple) else (spec, None)
        return timed_build(cmd, cwd, env)

    for spec in builds.values():
        run(spec)
    out: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in builds}
    for _ in range(runs):
        for name, spec in builds.items():
            wall, cpu = run(spec)
            out[name][0].append(wall)
            out[name][1].append(cpu)
    return out


def report(times: dict[str, tuple[list[float], list[float]]], ours: str, peer: str, target: float = 1.0) -> None:
    """Medians of both builds and the ratios ours/peer, wall and CPU (the VM's wall clock is noisy)."""
    for name in (peer, ours):
        wall, cpu = times[name]
        print(
            f"{name:>16}: median {statistics.median(wall):.2f} s wall ({' '.join(f'{x:.2f}' for x in wall)}), {statistics.median(cpu):.2f} s CPU"
        )
    w = statistics.median(times[ours][0]) / statistics.median(times[peer][0])
    c = statistics.median(times[ours][1]) / statistics.median(times[peer][1])
    print(f"ratio {ours}/{peer}: {w:.3f} wall, {c:.3f} CPU  (target <= {target})")


def node_builds(work: Path, modules: Path, plugin: Path, peer: str, runs: int, target: float) -> None:
    """The JavaScript benchmarks' comparison: ``work/build.mjs`` run by Node.js for textfrag's site and the peer's
    (each in ``work/KIND``, given the node modules and the plugin), alternating, with this venv's ``textfrag``
    first on PATH; then the report."""
    import os
    import sys

    build: dict[str, list[str] | tuple[list[str], Path]] = {
        kind: (["node", str(work / "build.mjs"), str(modules), kind, str(plugin), str(work / kind)], work / kind)
        for kind in ("textfrag", peer)
    }
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    report(alternate(build, runs, env), "textfrag", peer, target=target)
