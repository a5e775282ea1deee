"""What a reader is shown of a change: diffs that spell out what the eye cannot see (line endings, tabs,
trailing blanks), the window of the file most like a quote, and which quoted lines are unchanged."""

from __future__ import annotations

import difflib

from ..reference.resolving import Selection
from ..source.cache import Source
from .history import short_commit

#: Lines of the current file compared against the old excerpt to find "the closest current text".
MAX_DIFF_SEARCH_LINES = 20000


_INVISIBLE = {
    "\r": "\\r",
    "\t": "\\t",
    "\ufeff": "\\ufeff",
    "\u00a0": "\\u00a0",
    "\u200b": "\\u200b",
    "\x0c": "\\f",
    "\x0b": "\\v",
}


def looks_of(line: str) -> str:
    """What a line looks like: no line ending, tabs as spaces, no trailing blanks, no zero-width marks."""
    body = line.rstrip("\r\n")
    for ch in ("\ufeff", "\u200b"):
        body = body.replace(ch, "")
    return body.replace("\t", " ").replace("\u00a0", " ").rstrip()


def _escaped(line: str) -> str:
    """A line with every invisible character spelled out, its line ending included (``\\r\\n``)."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    trailing = len(body) - len(body.rstrip(" "))
    shown = "".join(_INVISIBLE.get(ch, ch) for ch in body[: len(body) - trailing]) + "\\x20" * trailing
    return shown + ending.replace("\r", "\\r").replace("\n", "\\n") + "\n"


def visible_diff(old_lines: list[str], new_lines: list[str], fromfile: str, tofile: str) -> str:
    """A unified diff in which a removed and an added line that look the same are shown with their
    invisible characters spelled out (``\\r\\n`` against ``\\n``, a tab, trailing blanks), and a note says so."""
    diff = list(difflib.unified_diff(old_lines, new_lines, fromfile=fromfile, tofile=tofile, n=1))
    changed = {i for i, line in enumerate(diff) if line[:1] in "-+" and not line.startswith(("---", "+++"))}
    # a removed and an added line that look the same and are not (an addition alone, or a line that only
    # moved, reads plainly)
    removed: dict[str, set[str]] = {}
    added: dict[str, set[str]] = {}
    for i in changed:
        (removed if diff[i][0] == "-" else added).setdefault(looks_of(diff[i][1:]), set()).add(diff[i][1:])
    alike = {look for look in removed.keys() & added.keys() if removed[look] != added[look]}
    # one line that looks like its counterpart: every changed line is spelled out, so that all read alike
    escaped = any(looks_of(diff[i][1:]) in alike for i in changed)
    out: list[str] = []
    for i, line in enumerate(diff):
        if escaped and i in changed:
            out.append(line[0] + _escaped(line[1:]))
        else:
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    if escaped:
        out.append(
            "(lines that look alike are shown with their invisible characters spelled out: "
            "\\r is CR, \\n is LF, \\t a tab, \\x20 a trailing space)\n"
        )
    lines = "".join(out).splitlines()
    if len(lines) > 40:
        lines = lines[:40] + [f"... ({len(lines) - 40} more lines of diff)"]
    return "\n".join(lines)


def closest_diff(old_sel: Selection, current: Source, label: str, commit: str, *, window: Selection | None = None) -> str:
    """A diff between the old excerpt and the window of the current file most like it (or the given
    ``window``: what the same range or intent quotes now)."""
    old_lines = old_sel.text.splitlines(keepends=True)
    cur_lines = current.text.splitlines(keepends=True)
    n = max(1, len(old_lines))
    best_start, best_ratio = 0, -1.0
    if window is not None:  # the lines the same range quotes now, not the most similar ones
        n = len(window.text.splitlines())
        best_start = window.first_line - 1
    elif len(cur_lines) <= MAX_DIFF_SEARCH_LINES:
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2([looks_of(x) for x in old_lines])  # the closest text as it reads: line endings aside
        looks = [looks_of(x) for x in cur_lines]
        # the same lines as before first: a quote changed in place is shown against its own lines, and
        # another window must be strictly closer to be shown instead
        same = min(old_sel.first_line - 1, max(0, len(cur_lines) - n))
        matcher.set_seq1(looks[same : same + n])
        best_start, best_ratio = same, matcher.ratio()
        for start in range(max(1, len(cur_lines) - n + 1)):
            matcher.set_seq1(looks[start : start + n])
            if matcher.real_quick_ratio() <= best_ratio or matcher.quick_ratio() <= best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio > best_ratio:
                best_start, best_ratio = start, ratio
    else:
        best_start = min(old_sel.first_line - 1, max(0, len(cur_lines) - n))
    now = cur_lines[best_start : best_start + n]
    first_old = old_sel.first_line
    return visible_diff(
        old_lines,
        now,
        f"{label} lines {first_old}-{first_old + len(old_lines) - 1} (quoted, {short_commit(commit)})",
        f"{label} lines {best_start + 1}-{best_start + len(now)} (now)",
    )


def mapped_lines(old_sel: Selection, new_sel: Selection) -> tuple[tuple[int, int], ...]:
    """Old line number -> new line number for every quoted line that is unchanged (line endings aside)."""
    old_lines = [looks_of(x) for x in old_sel.text.splitlines()]
    new_lines = [looks_of(x) for x in new_sel.text.splitlines()]
    if old_lines == new_lines:
        return tuple((old_sel.first_line + i, new_sel.first_line + i) for i in range(len(old_lines)))
    pairs = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        pairs += [(old_sel.first_line + a + i, new_sel.first_line + b + i) for i in range(size)]
    return tuple(pairs)


def lf_normalized(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def from_normalized(current: Source, norm: str, k: int) -> int:
    """The index in ``current.text`` of index ``k`` of its text with line endings normalized to LF."""
    line = norm.count("\n", 0, k)
    col = k - (norm.rfind("\n", 0, k) + 1)
    return current.index_of_line(line) + col


def endings_of(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [name for n, name in ((crlf, "CR LF"), (lf, "LF"), (cr, "CR")) if n]
    return " and ".join(kinds) or "none"
