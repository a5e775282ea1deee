"""Why a reference is stale: did the quoted text only move, or did it change?

RFC 5147's md5 covers the whole file, so any edit anywhere makes every reference to the file stale. For
a stale reference in a git work tree, the version of the file that the reference's md5 (or, lacking one,
its length) describes is looked up in the file's history (renames followed); the excerpt the reference
selected there is then looked for, as exact text, in the file as it is now:

- *moved*: found exactly once; here is the new reference (``textfrag update`` writes it);
- *changed*: not found, or found more than once (never guessed); a short diff shows what changed;
- *unknown*: no git, the file is not tracked, or no version in its history has that md5 or length.
"""

from __future__ import annotations

import difflib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .errors import TextFragError
from .fragment import Fragment, IntegrityCheck, Reference, Scheme, line_scheme_of
from .resolve import Selection, occurrences, resolve, select
from .source import Source
from .verify import integrity_of

__all__ = ["Drift", "DriftKind", "classify", "refresh_fragment"]

DriftKind = Literal["moved", "changed", "unknown"]

#: Versions of a file looked at, newest first; history older than this is not searched.
MAX_VERSIONS = 200
#: Lines of the current file compared against the old excerpt to find "the closest current text".
MAX_DIFF_SEARCH_LINES = 20000


@dataclass(frozen=True)
class Drift:
    """The outcome for one stale reference."""

    kind: DriftKind
    explanation: str
    new_fragment: Fragment | None = None  # when moved
    diff: str = ""  # when changed

    def new_reference(self, reference: Reference) -> str | None:
        """The reference as written, with only its fragment replaced (prefix and path kept)."""
        if self.new_fragment is None:
            return None
        head = reference.text.split("#", 1)[0]
        return f"{head}#{self.new_fragment}"


class _NoGit(Exception):
    """git is not installed (not on PATH), or cannot be run."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _git(cwd: Path, *args: str, input: bytes | None = None) -> bytes | None:
    """git's output, None when git says no (not a work tree, no such object), _NoGit when there is no git."""
    try:
        r = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, timeout=60)
    except FileNotFoundError:
        raise _NoGit("git is not installed (no `git` on PATH)") from None
    except PermissionError:
        raise _NoGit("git cannot be run (permission denied)") from None
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout if r.returncode == 0 else None


def _history(top: Path, rel: str) -> list[tuple[str, str]]:
    """(commit, path at that commit) for the file, newest first, following renames."""
    out = _git(top, "log", "--follow", f"--max-count={MAX_VERSIONS}", "--name-only", "--format=%x00%H", "--", rel)
    if not out:
        return []
    versions = []
    for chunk in out.decode("utf-8", "surrogateescape").split("\x00")[1:]:
        lines = [line for line in chunk.splitlines() if line.strip()]
        if len(lines) >= 2:
            versions.append((lines[0], lines[-1]))
    return versions


def _blobs(top: Path, versions: list[tuple[str, str]]) -> list[tuple[str, bytes]]:
    """The file's bytes at each version, fetched in one ``git cat-file --batch``."""
    request = "".join(f"{commit}:{path}\n" for commit, path in versions).encode("utf-8", "surrogateescape")
    out = _git(top, "cat-file", "--batch", input=request)
    if out is None:
        return []
    blobs, pos = [], 0
    for commit, _ in versions:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue  # "missing"
        size = int(header[2])
        blobs.append((commit, out[pos : pos + size]))
        pos += size + 1
    return blobs


def _described(old: Source, fragment: Fragment) -> bool:
    """Whether ``old`` is the version the reference's checks describe (its md5 first, else its length)."""
    checks = fragment.known_checks
    md5s = [c for c in checks if c.name == "md5"]
    wanted = md5s or [c for c in checks if c.name == "length"]
    try:
        return bool(wanted) and all(integrity_of(old, c) == c.value.lower() for c in wanted)
    except TextFragError:
        return False


def refresh_fragment(selection: Selection, old: Fragment) -> Fragment:
    """``old`` rewritten for ``selection``: the same kind of scheme where possible, the same checks (names,
    order and charsets) with the values of the file as it is now; unknown checks are kept as written."""
    open_end = old.scheme.is_range and old.scheme.end is None  # what ran to the end of the file still does
    scheme: Scheme | None = line_scheme_of(selection, open_end=open_end) if old.scheme.name == "line" else None
    if scheme is None:
        to_end = open_end and selection.end == len(selection.source.text)
        scheme = Scheme("char", selection.char_start, None if to_end else selection.char_end, True)
    checks = tuple(IntegrityCheck(c.name, integrity_of(selection.source, c), c.charset) if c.known else c for c in old.checks)
    return Fragment(scheme, checks)


def _closest_diff(old_sel: Selection, current: Source, label: str, commit: str, *, window: Selection | None = None) -> str:
    """A unified diff between the old excerpt and the window of the current file most like it (or the
    given ``window``: what the same open range quotes now)."""
    old_lines = old_sel.text.splitlines(keepends=True)
    cur_lines = current.text.splitlines(keepends=True)
    n = max(1, len(old_lines))
    best_start, best_ratio = 0, -1.0
    if window is not None:  # the lines the same open range quotes now, not the most similar ones
        n = len(window.text.splitlines())
        best_start = window.first_line - 1
    elif len(cur_lines) <= MAX_DIFF_SEARCH_LINES:
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(old_lines)
        for start in range(max(1, len(cur_lines) - n + 1)):
            matcher.set_seq1(cur_lines[start : start + n])
            if matcher.real_quick_ratio() <= best_ratio or matcher.quick_ratio() <= best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio > best_ratio:
                best_start, best_ratio = start, ratio
    else:
        best_start = min(old_sel.first_line - 1, max(0, len(cur_lines) - n))
    now = cur_lines[best_start : best_start + n]
    first_old = old_sel.first_line
    diff = difflib.unified_diff(
        old_lines,
        now,
        fromfile=f"{label} lines {first_old}-{first_old + len(old_lines) - 1} (quoted, {commit[:10]})",
        tofile=f"{label} lines {best_start + 1}-{best_start + len(now)} (now)",
        n=1,
    )
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)
    lines = text.splitlines()
    if len(lines) > 40:
        lines = lines[:40] + [f"... ({len(lines) - 40} more lines of diff)"]
    return "\n".join(lines)


def classify(reference: Reference, current: Source, real_path: Path) -> Drift:
    """Classify a stale RFC 5147 reference to ``current`` (the file at ``real_path``)."""
    try:
        return _classify(reference, current, real_path)
    except _NoGit as no_git:
        return Drift("unknown", f"{no_git}, so the version the reference was made for cannot be found")


def _classify(reference: Reference, current: Source, real_path: Path) -> Drift:
    fragment = reference.fragment
    if fragment is None or not any(c.name in ("md5", "length") for c in fragment.checks):
        return Drift("unknown", "the reference has no md5 or length to find the version it was made for")
    top_out = _git(real_path.parent, "rev-parse", "--show-toplevel")
    if top_out is None:
        return Drift("unknown", "the file is not in a git work tree, so the version the reference was made for cannot be found")
    top = Path(os.fsdecode(top_out.strip()))
    try:
        rel = real_path.relative_to(top.resolve()).as_posix()
    except ValueError:
        return Drift("unknown", "the file is outside its git work tree")
    versions = _history(top, rel)
    if not versions:
        return Drift("unknown", f"git has no history of {rel}")
    found: tuple[str, Source] | None = None
    by_md5 = any(c.name == "md5" for c in fragment.known_checks)
    seen: set[bytes] = set()
    for commit, data in _blobs(top, versions):
        if data in seen:
            continue
        seen.add(data)
        try:
            old = Source(current.path, data, current.charset)
        except TextFragError:
            continue
        if _described(old, fragment):
            if found is None:
                found = (commit, old)
                if by_md5:
                    break  # an md5 names one version
            elif resolve(old, fragment).text != resolve(found[1], fragment).text:
                # a length alone fits two versions that quote different texts: never guessed
                return Drift(
                    "unknown",
                    f"the reference has a length but no md5, and two versions of {rel} with that length "
                    f"({found[0][:10]} and {commit[:10]}) quote different texts, so which one it was made for is unknown",
                )
    if found is None:
        return Drift(
            "unknown",
            f"no version of {rel} in its git history ({_plural(len(versions), 'commit')}) has the reference's "
            f"{'md5' if by_md5 else 'length'}",
        )
    commit, old = found
    old_sel = resolve(old, fragment)
    short = commit[:10]
    if old_sel.empty:
        return Drift(
            "changed",
            f"the reference selects no text (a position), so where it moved to cannot be told (made for {short})",
        )
    hits = occurrences(current, old_sel.text, 5)
    scheme = fragment.scheme
    if scheme.is_range and (scheme.end is None or scheme.start is None) and len(hits) == 1:
        # an open range quotes up to the end (or from the start) of the file, as it is: text added
        # there belongs to the quote, so finding the old text elsewhere is not a move
        at_end = hits[0] + len(old_sel.text) == len(current.text)
        if (scheme.end is None and not at_end) or (scheme.start is None and hits[0] != 0):
            side = "the end" if scheme.end is None else "the start"
            return Drift(
                "changed",
                f"changed: the quote runs to {side} of the file ({old_sel.lines_display()} in {short}), and the file "
                f"now has more text there; review the diff and make a new reference (`textfrag make`)",
                diff=_closest_diff(old_sel, current, current.path, commit, window=resolve(current, fragment)),
            )
    if len(hits) == 1:
        new_sel = select(current, hits[0], hits[0] + len(old_sel.text))
        new_fragment = refresh_fragment(new_sel, fragment)
        return Drift(
            "moved",
            f"moved: the quoted text ({old_sel.lines_display()} in {short}) is unchanged and now {new_sel.lines_display()}; "
            "run `textfrag update --write` to rewrite the reference",
            new_fragment=new_fragment,
        )
    if hits:
        where = ", ".join(str(current.line_of_index(h)) for h in hits)
        return Drift(
            "changed",
            f"the quoted text ({old_sel.lines_display()} in {short}) now occurs {len(hits)}{'+' if len(hits) == 5 else ''} times "
            f"(starting at lines {where}); textfrag will not guess which one: edit the reference by hand "
            "(`textfrag make` prints one)",
        )
    return Drift(
        "changed",
        f"changed: the quoted text ({old_sel.lines_display()} in {short}) is no longer in the file; "
        "review the diff and make a new reference (`textfrag make`)",
        diff=_closest_diff(old_sel, current, current.path, commit),
    )
