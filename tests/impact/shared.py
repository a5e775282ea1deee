"""What the impact tests share: what ``check --format json`` says of a quote in ``impact``'s words (the one
mapping they compare predictions with; tools/replay_impact.py uses the same words), edits of a file, and
git run as a test's author and committer."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

LINES = [f"value_{i} = {i}\n" for i in range(1, 21)]


def effect(result: dict[str, object]) -> str | None:
    """The effect check's result names (None: current)."""
    if result["status"] == "current":
        return None
    message = str(result["message"])
    if result["drift"] in ("moved", "invisible"):
        return "renamed" if "no such file" in message else "moved"
    if result["drift"] in ("changed", "unknown"):
        return str(result["drift"])
    if result["kind"] == "missing":
        return "renamed" if "renamed" in message and "which was deleted" not in message else "deleted"
    return "changed"  # (the quote no longer resolves: an intent that names nothing now, an empty excerpt)


def edited(lines: list[str], edits: list[tuple[str, int, int]]) -> list[str]:
    """``lines`` with each edit made in turn: (insert | delete | replace, at, how many lines)."""
    lines = list(lines)
    for n, (op, at, count) in enumerate(edits):
        at = min(at, len(lines))
        if op == "insert":
            lines[at:at] = [f"new_{n}_{k} = 0\n" for k in range(count)]
        elif op == "delete":
            del lines[at : at + count]
        else:
            lines[at : at + count] = [f"changed_{n}_{k} = 1\n" for k in range(min(count, len(lines) - at))]
    return lines


def git(root: Path, *args: str) -> str:
    """``git ARGS`` in ``root``, as an author and committer of the test's; its output."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    r = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def committed(root: Path, files: dict[str, str]) -> Path:
    """A git repository at ``root`` holding ``files`` (path -> text), committed."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "config", "core.autocrlf", "false")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root
