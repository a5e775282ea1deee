"""What a change does to each quote of a file it touches, decided by the one verdict.

Each quote (a pinned reference, a guarded include) of a changed file is judged twice with the verdict
``check`` gives: against the change's old side, then against its new side, the drift of a stale quote
told from the old side (textfrag.drift.change_history). Only a quote that is current before the change
and not after it is the change's doing; its effect is what ``check`` will say after the change:

- *changed*: the quote will show other text (``check``: changed); the change's hunks on the quoted lines;
- *moved*: the quoted text is the same at other lines (``check``: moved; ``update --write`` repairs it);
- *renamed*: the file was renamed; the text is the same there (``update --write`` repairs it), or the
  quote no longer resolves there (``check``: no such file, and what the new path shows);
- *deleted*: the file is gone (``check``: no such file);
- *unknown*: stale, and whether moved or changed cannot be told (``check`` says why).

A quote already stale before the change is counted, not blamed on it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..drift.change_history import ChangeHistory
from ..drift.history import Fate, History, NoGit
from ..errors import PathError, StaleError
from ..source.overlay import OverlayCache
from ..verdict.judging import Verdict
from .changes import Change, Changes, Hunk

__all__ = ["Effect", "Impact", "Sides", "impact_of", "EFFECTS"]

#: RFC 3986's unreserved characters, which a reference writes as they are
_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]+")

Effect = Literal["changed", "moved", "renamed", "deleted", "unknown"]
#: each effect as the reports say it
EFFECTS: dict[str, str] = {
    "changed": "changes quoted text",
    "moved": "shifts quoted lines",
    "renamed": "renames the quoted file",
    "deleted": "deletes the quoted file",
    "unknown": "makes the quote stale (moved or changed is unknown)",
}


@dataclass
class Impact:
    """One quote the change touches."""

    effect: Effect
    #: where the quote is written: the document as shown, its 1-based line and column, the heading above
    doc: str
    line: int
    column: int
    heading: str | None
    #: the reference or the include as written; "reference" or "include"
    text: str
    kind: str
    #: the quoted file (relative to the work tree's top) before the change, and after it (None: deleted)
    path: str
    new_path: str | None
    #: the quoted lines before the change (1-based; 0 when not known) and, when moved, after it
    first: int
    last: int
    new_first: int = 0
    new_last: int = 0
    #: what check says after the change
    message: str = ""
    #: the reference or include once ``update`` repairs it (moved, renamed)
    repair: str | None = None
    #: the change's hunks that touch the quoted lines (changed) or shift them (moved)
    hunks: list[Hunk] = field(default_factory=list)
    #: a quote of another repository's docs site (``impact --quoted-by``): the site's name, the page's URL
    site: str | None = None
    url: str | None = None

    @property
    def said(self) -> str:
        return EFFECTS[self.effect]

    @property
    def needs_review(self) -> bool:
        """Whether a person must look (what only moved or was renamed, ``update --write`` repairs)."""
        return self.effect in ("changed", "deleted", "unknown") or (self.effect == "renamed" and self.repair is None)

    @property
    def command(self) -> str:
        """What to run once the change is in: ``update --write`` for what only moved, else after review."""
        place = f"{self.doc}:{self.line}"
        if self.site is not None:  # (in the docs' repository, once the change is in a revision they follow)
            if self.effect in ("moved", "renamed") and not self.needs_review:
                return f"in {self.site}: textfrag sources update --write (repairs {place})"
            return f"in {self.site}: textfrag sources update, then review {place}"
        if self.effect in ("moved", "renamed") and not self.needs_review:
            return f"textfrag update --write {place}"
        if self.effect == "deleted":
            return f"edit {place}: the file it quotes is gone"
        if self.effect == "renamed":
            return f"edit {place}: the quote does not resolve in the renamed file"
        return f"textfrag update --accept --write {place}  (once the new text is reviewed)"

    def annotated(self) -> tuple[str, int, int] | None:
        """Where on the changed file a note goes (its path after the change, first and last line): the
        hunks that touch or shift the quote; None when the file is gone (the note goes on the document)."""
        if self.new_path is None:
            return None
        if not self.hunks:
            return self.new_path, 1, 1
        return self.new_path, self.hunks[0].annotated_line, self.hunks[-1].annotated_end

    def diff(self) -> str:
        """The change's diff restricted to the quoted lines (the lines it removes there, what it adds)."""
        if self.effect != "changed" or not self.hunks:
            return ""
        # (an include whose lines are not numbers of the file, a region or FastAPI's tab: its hunks whole)
        known = self.first > 0
        where = f"lines {self.first}-{self.last}, as quoted" if known else "as quoted"
        out = [f"--- a/{self.path} ({where})", f"+++ b/{self.new_path or self.path}"]
        for h in self.hunks:
            out.append(h.header())
            for n, text in enumerate(h.removed, h.old_start):
                if not known or self.first <= n <= self.last:
                    out.append(f"-{text}")
            out += [f"+{text}" for text in h.added]
        return "\n".join(out)


class Sides:
    """The two sides of a change, as a build under ``root`` reads them: a source cache of each (the changed
    files' contents from git; the others from the work tree), the new side's history being the change."""

    def __init__(
        self, changes: Changes, root: str, *, charset: str, max_size: int, pdi_map: dict[str, str] | None = None
    ) -> None:
        self.changes = changes
        self.real_root = os.path.realpath(root)
        top = changes.top
        changes.load(max_size)
        #: a path under the root -> the changed file's path under the work tree's top (old paths, new paths)
        self.by_root: dict[str, str] = {}
        before: dict[str, bytes | None] = {}
        after: dict[str, bytes | None] = {}
        old_side: dict[str, bytes | None] = {}
        successors: dict[str, str | None] = {p: None for p in changes.added}
        for path, change in changes.files.items():
            data = changes.before(path, max_size)
            old_side[path] = data
            now = changes.after(path, max_size)
            under = self._under_root(top / path)
            if change.new_path is not None and change.new_path != path:
                successors[change.new_path] = path if change.status == "R" else None
                new_under = self._under_root(top / change.new_path)
                if new_under is not None:
                    before[new_under], after[new_under] = None, now
            elif change.new_path is not None:
                successors[path] = None
            if under is not None:
                self.by_root[under] = path
                before[under] = data
                after[under] = None if change.new_path != path else now
        for path in changes.added:
            under = self._under_root(top / path)
            if under is not None:
                before[under] = None
                after[under] = changes.added_content(path, max_size)
        self.before = OverlayCache(root, before, charset=charset, max_size=max_size, pdi_map=pdi_map)
        self.after = OverlayCache(root, after, charset=charset, max_size=max_size, pdi_map=pdi_map)
        self._history: History | None = None
        self._max_size = max_size
        self.after.history = ChangeHistory(
            max_size, top, changes.base, old_side, self._fate, successors, committed=changes.head is not None
        )
        self.before.history = ChangeHistory(max_size, top, changes.base, {}, lambda rel: None, {})  # (never explained)

    def _fate(self, path: str) -> Fate | None:
        """What became of a file the change deletes or renames (None: it does neither), as ``check`` tells
        it afterwards: within a range of commits, from the commit that deleted it (git's rename detection
        of that commit, renames followed to the path at the head), else as the diff says (the index's, the
        work tree's). Asked only of the files a quote names."""
        changes = self.changes
        change = changes.files.get(path)
        if change is None or change.new_path == path:
            return None
        deleted = changes.deletion(path)
        if deleted is None:
            return Fate(changes.base, "", change.new_path, change.similarity, pending=changes.pending)
        if self._history is None:
            self._history = History(self._max_size)
        try:
            fate = self._history.fate_of(changes.top, deleted, path, lambda p: changes.at_head(p, self._max_size) is not None)
        except NoGit:
            return Fate(*deleted, change.new_path, change.similarity)
        if fate.renamed_to is not None and fate.renamed_to != change.new_path:
            under = self._under_root(changes.top / fate.renamed_to)
            if under is not None and under not in self.after.contents:
                self.after.contents[under] = changes.at_head(fate.renamed_to, self._max_size)
        return fate

    def new_path(self, change: Change) -> str | None:
        """Where the changed file is after the change, as ``check`` will follow it (None: gone)."""
        if change.new_path == change.path:
            return change.path
        fate = self._fate(change.path or "")
        return fate.renamed_to if fate is not None else change.new_path

    def _under_root(self, real: Path) -> str | None:
        rel = os.path.relpath(real, self.real_root)
        return None if rel == ".." or rel.startswith(".." + os.sep) else Path(rel).as_posix()

    def names(self) -> set[str]:
        """What a document that quotes a changed file must hold: of each changed file's name, its longest run
        of the characters a reference never needs to percent-encode (RFC 3986's unreserved: the name as
        written, however the rest of it is encoded; "" when it has none, which every document holds); and the
        Persistent Document Identifiers mapped to one. A document holding none of them quotes none of these
        files."""
        names: set[str] = set()
        paths = [p for path, change in self.changes.files.items() for p in (path, change.new_path) if p]
        for p in [*paths, *self.changes.added]:
            name = p.rsplit("/", 1)[-1]
            runs = _UNRESERVED.findall(name)
            names.add(max(runs, key=len) if runs else "")  # ("" is in every document: each is read)
        changed = set(self.by_root)
        names |= {pdi for pdi, path in (self.before.pdi_map or {}).items() if os.path.normpath(path) in changed}
        return names

    def changed(self, path_under_root: str) -> Change | None:
        """The change to the file a quote names (its path under the root), None when the change leaves it."""
        rel = self.by_root.get(os.path.normpath(path_under_root).replace(os.sep, "/"))
        return self.changes.files.get(rel) if rel is not None else None


def impact_of(
    change: Change,
    before: Verdict,
    after: Verdict,
    lines: tuple[int, int],
    *,
    doc: str,
    line: int,
    column: int,
    heading: str | None,
    text: str,
    kind: str,
    new_path: str | None,
) -> Impact | Literal["stale before", "follows"] | None:
    """What the change does to one quote of ``change``'s file, from its verdicts before and after the change
    and the lines it quoted before it (``new_path``: where the file is after the change, None when gone):
    the :class:`Impact`; "follows" when the quote is current after the
    change and not before it (re-pinned with the change); "stale before" when it is current on neither
    side (not the change's doing); None when the change leaves it current."""
    if before.problems:
        return "stale before" if after.problems else "follows"
    if not after.problems:
        return None
    problem = after.problems[0]
    first, last = lines
    assert change.path is not None
    impact = Impact(
        "changed",
        doc,
        line,
        column,
        heading,
        text,
        kind,
        change.path,
        new_path,
        first,
        last,
        message=problem.message,
    )
    drift = problem.drift if isinstance(problem, StaleError) else None
    repair = problem.new_reference if isinstance(problem, StaleError) else None
    renamed = new_path is not None and new_path != change.path
    if isinstance(problem, PathError) and new_path is None:
        impact.effect = "deleted"
    elif isinstance(problem, PathError) and renamed:  # (renamed, and the quote does not resolve there)
        impact.effect = "renamed"
    elif drift in ("moved", "invisible"):
        impact.effect = "renamed" if renamed else "moved"
        impact.repair = repair
    elif drift == "unknown":
        impact.effect = "unknown"
    if impact.effect == "moved":
        outcome = problem.outcome if isinstance(problem, StaleError) else None
        new_first = getattr(outcome, "new_first", 0)
        if new_first and first:
            impact.new_first, impact.new_last = new_first, new_first + (last - first)
        above = [h for h in change.hunks if h.before(first)]
        impact.hunks = [h for h in above if h.shift] or above or list(change.hunks[:1])
    elif first:
        impact.hunks = [h for h in change.hunks if h.touches(first, last)]
    if not impact.hunks and impact.effect != "deleted":
        impact.hunks = list(change.hunks[:1])
    return impact
