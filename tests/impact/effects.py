"""What ``check --format json`` says of a quote, in ``impact``'s words: the one mapping the impact tests
compare predictions with (tools/replay_impact.py uses the same words)."""

from __future__ import annotations

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
