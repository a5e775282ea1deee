"""Hostile input: every case runs as a user meets it (the installed command in a process, or a real
engine build), with a time limit where it could hang and a memory limit where it could explode."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..processes import run_textfrag

#: generous for a correct run on a slow machine, far below what the old stalls took
TIME_LIMIT = 30
MEMORY_LIMIT = 1024 * 1024 * 1024  # 1 GiB of address space for a CLI process


@dataclass
class Run:
    code: int
    out: str
    err: str


def textfrag(
    *args: str,
    cwd: Path | None = None,
    timeout: float = TIME_LIMIT,
    memory: int = MEMORY_LIMIT,
    env: dict[str, str] | None = None,
) -> Run:
    """The installed command line as a process, under a time and a memory limit."""
    r = run_textfrag(*args, cwd=cwd, timeout=timeout, memory=memory, env=env, text=False)
    return Run(r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace"))


def no_traceback(run: Run) -> None:
    assert "Traceback" not in run.err and "internal error" not in run.err, run.err
