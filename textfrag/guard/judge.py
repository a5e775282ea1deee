"""The verdict on a guarded include: what it shows now against what was recorded, and why they differ.

:func:`judge_include` is the one judge of an include, as :func:`textfrag.verdict.judging.judge` is of a
reference: the Sphinx and Markdown adapters give it what their engine showed, ``check``, ``update`` and
the language server what :mod:`textfrag.guard.shown` computes, and they only translate its
:class:`~textfrag.verdict.judging.Verdict`. A difference is explained by :class:`Explainer`, from the file as it
is and from git history:

- *moved*: the recorded text is shown by the same include with its lines moved (``:lines: 5-7`` ->
  ``6-8``, ``"file:5:7"`` -> ``"file:6:8"``, ``lines=5-7`` -> ``lines=6-8``; ``:lineno-start:`` kept with
  the file's numbers): ``update --write`` writes that;
- *renamed*: the file was renamed (git history, the index, the work tree): the include names the new
  path (and shows the recorded text there, else it also changed);
- *changed*: the text differs; the diff from the version git history has of the recorded text, and
  ``update --accept --write`` records what it shows now;
- *unknown*: neither can be told (no history; the clone is shallow).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..documents.scan import Found
from ..errors import EmptyError, PathError, StaleError, TextFragError, UnpinnedError
from ..verdict.judging import Verdict
from .context import GuardContext, Shown
from .lock import record_of
from .model import GuardedInclude
from .shown import resolve, shown_text

if TYPE_CHECKING:
    from ..source.cache import Source, SourceCache

__all__ = ["IncludeRepair", "Explainer", "UnrecordedError", "found_of", "judge_include", "record_of"]


def found_of(inc: GuardedInclude) -> Found:
    """An include as the reports place it: at its directive (its file argument's line and column)."""
    return Found(inc.doc, inc.line, inc.text, inc.start, inc.end, "include", (inc.start, inc.end), "", inc.column)


class UnrecordedError(UnpinnedError):
    """A guarded include with no record (``--require-pin``): a change of what it shows would go unnoticed."""

    def __init__(self, *, reference: str | None = None, lock: str = "textfrag.lock") -> None:
        super().__init__(reference=reference)
        self.message = (
            f"unrecorded: {lock} has no record of what the include shows, so a change of it would go unnoticed; "
            "`textfrag pin --write` records it"
        )
        self.args = (self.message,)


@dataclasses.dataclass(frozen=True)
class IncludeRepair:
    """What ``update`` writes for an include: edits of its document and its record under its new key."""

    #: (start, end, new text) in the document
    edits: tuple[tuple[int, int, str], ...]
    #: the include's key once edited, and its record then
    key: str
    record: str
    #: only with ``--accept`` (the text changed: a person reviews it first)
    accept: bool = False
    #: where the recorded text is now, in words
    said: str = ""


def judge_include(
    inc: GuardedInclude,
    shown: Shown | str | TextFragError,
    record: str | None,
    *,
    require_pin: bool = False,
    on_stale: str = "error",
    explainer: Explainer | None = None,
    lock: str = "textfrag.lock",
) -> Verdict:
    """The verdict on ``inc``: what it shows now (its text, as the engine showed it or as
    :func:`~textfrag.guard.shown_text` computes it; or why it shows nothing) against its ``record``."""
    v = Verdict(inc.text)
    v.pinned = record is not None
    problem: TextFragError | None = None
    if isinstance(shown, TextFragError):
        problem = shown.with_reference(inc.text)
        if record is not None and explainer is not None and isinstance(shown, PathError) and shown.no_such_file:
            problem = explainer.missing(inc, record, shown)
    elif not (shown if isinstance(shown, str) else shown.text):
        problem = empty_include(inc)
    elif record is None:
        problem = UnrecordedError(reference=inc.text, lock=lock) if require_pin else None
    elif record_of(text := shown if isinstance(shown, str) else shown.text) != record:
        said = _said(record, text)
        problem = StaleError(f"it shows other text than {lock} records ({said})", reference=inc.text)
        if explainer is not None:
            problem = explainer.stale(inc, record, text, problem)
    if problem is not None:
        if isinstance(problem, StaleError) and on_stale == "warning":
            v.warnings.append(problem)
        else:
            v.problems.append(problem)
    return v


def empty_include(inc: GuardedInclude) -> EmptyError:
    """The problem of an include that shows nothing (a section or marker that is not in the file, lines past
    its end): never recorded, never current (textfrag.errors.EmptyError)."""
    return EmptyError(
        f"the include shows nothing: what it selects ({inc.text}) is no line of the file (a section or marker "
        "that is not there, lines past its end); include lines the file has",
        reference=inc.text,
    )


def _said(record: str, now: str) -> str:
    length = record.split(";", 1)[0].partition("=")[2]
    return f"length {length} recorded, {len(now)} now" if length != str(len(now)) else "the same length, another md5"


class Explainer:
    """Explains a stale include from its file and git history; makes its repair."""

    def __init__(self, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> None:
        self.doc_path, self.cache, self.ctx = doc_path, cache, ctx

    # -- moved, changed ------------------------------------------------------------------------------------

    def stale(self, inc: GuardedInclude, record: str, now: str, stale: StaleError) -> StaleError:
        """``stale`` with its drift said: moved (and the repair), changed (and the diff), or unknown;
        ``now``: what the include shows now."""
        try:
            path = resolve(inc, self.doc_path, self.cache, self.ctx)
            moved = self._moved(inc, record, path)
        except TextFragError:
            return stale
        shown = Shown(now, path, None)
        if isinstance(moved, IncludeRepair):
            out = stale.explained(
                f"; moved: {moved.said} (new include: {moved.key}); `textfrag update --write` writes it",
                drift="moved",
                new_reference=moved.key,
            )
            out.outcome = moved
            return out
        accept = IncludeRepair((), inc.key, record_of(shown.text), accept=True)
        old = self._recorded_text(inc, record, shown.path)
        if isinstance(old, tuple):
            old_text, old_lines, commit = old
            try:
                now_lines = inc.engine.of_text(inc, self._text(inc, shown.path), self.ctx)[1]
            except TextFragError:
                now_lines = None
            recorded = f"{shown.path}{_span(old_lines)} (recorded, {commit})"
            diff = _diff(old_text, shown.text, recorded, f"{shown.path}{_span(now_lines)} (now)")
            why = "changed: what it shows differs from the recorded text (git history has it; the diff below)"
            if moved is not None:
                why += f"; {moved}"
            out = stale.explained(
                f"; {why}; `textfrag update --accept --write` records it once reviewed", drift="changed", diff=diff
            )
            out.outcome = accept
            return out
        why = old if old else "the recorded text is not in the file's git history"
        tail = f"; {moved}" if moved else ""
        out = stale.explained(
            f"; moved or changed is unknown: {why}{tail}; `textfrag update --accept --write` records what it shows now "
            "once reviewed",
            drift="unknown",
        )
        out.outcome = accept
        return out

    def _moved(self, inc: GuardedInclude, record: str, path: str) -> IncludeRepair | str | None:
        """The repair of an include whose recorded text its file (``path``) still holds at other lines;
        a sentence when it holds it more than once; None when it does not (or the include does not count
        lines)."""
        shifts = inc.engine.shift_search(inc, self.ctx)
        if shifts is None:
            return None
        text = self._text(inc, path)
        found = [d for d in shifts(text, record)]
        if not found:
            return None
        if len(found) > 1:
            return f"the recorded text is in the file {len(found)} times now, so where it moved is not known"
        return self._shifted(inc, found[0], record, text)

    def _text(self, inc: GuardedInclude, rel: str) -> str:
        return inc.engine.read(inc, self.cache, rel, self.ctx)

    def _shifted(self, inc: GuardedInclude, d: int, record: str, text: str) -> IncludeRepair:
        """The include with its lines moved by ``d``: the document's edits and its new key."""
        edits, new = inc.engine.shifted(inc, d, text, self.ctx)
        down = f"{abs(d)} line{'s' if abs(d) != 1 else ''} {'further down' if d > 0 else 'further up'}"
        return IncludeRepair(edits, new.key, record, said=f"the recorded text is in the file {down}")

    def prefetch(self, inc: GuardedInclude, record: str) -> None:
        """Ask git history, without searching yet, for the version in which ``inc`` showed ``record``'s
        text: many stale includes are then looked up in one pass (``history.search()``)."""
        from ..drift.history import NoGit
        from ..verdict.quoting import history_of

        if inc.engine.unrecoverable(inc) is not None:
            return
        try:
            rel = resolve(inc, self.doc_path, self.cache, self.ctx)
            history = history_of(self.cache)
            where = history.locate(Path(os.path.realpath(os.path.join(self.cache.real_root, rel))))
            if where is not None:
                history.want_matching(*where, f"include:{inc.key}:{record}", self._showed(inc, record), self.cache.charset)
        except (TextFragError, NoGit):
            return

    def _showed(self, inc: GuardedInclude, record: str) -> Callable[[Source], bool]:
        """Whether a version of the include's file is one in which it showed ``record``'s text."""

        def showed(old: Source) -> bool:
            return record_of(inc.engine.of_text(inc, old.text, self.ctx)[0]) == record

        return showed

    def _recorded_text(self, inc: GuardedInclude, record: str, rel: str) -> tuple[str, tuple[int, ...] | None, str] | str | None:
        """The text the include showed when it was recorded, from git history, with the file's lines it
        showed and the commit; a sentence saying why it cannot be looked up (no git, a shallow clone);
        None when history does not have it."""
        from ..drift.history import NoGit
        from ..verdict.quoting import history_of

        unrecoverable = inc.engine.unrecoverable(inc)
        if unrecoverable is not None:
            return unrecoverable
        history = history_of(self.cache)
        try:
            where = history.locate(Path(os.path.realpath(os.path.join(self.cache.real_root, rel))))
            if where is None:
                return "the file is not in a git work tree, so its history cannot tell"
            top, path = where
            history.want_matching(top, path, f"include:{inc.key}:{record}", self._showed(inc, record), self.cache.charset)
            found = history.matching(top, path, f"include:{inc.key}:{record}")
            if not found:
                if history.shallow(top):
                    return "the clone is shallow (`git fetch --unshallow`, or `fetch-depth: 0` in CI)"
                return None
            text, lines = inc.engine.of_text(inc, found[0].source.text, self.ctx)
            return text, lines, found[0].short
        except NoGit as no:
            return str(no)

    # -- a file that is not there --------------------------------------------------------------------------

    def missing(self, inc: GuardedInclude, record: str, err: PathError) -> TextFragError:
        """``no such file``, with what git says became of the file: renamed (and then the include with its
        new path, moved or changed there too), or deleted."""
        from ..drift.classify import why_missing
        from ..drift.history import NoGit
        from ..verdict.quoting import history_of

        real = self._would_be(inc)
        if real is None:
            return err.with_reference(inc.text)
        history = history_of(self.cache)
        try:
            where = history.locate(Path(real))
            if where is None:
                return err.with_reference(inc.text)
            top, rel = where
            history.want(top, rel, None, self.cache.charset, missing=True)
            fate = history.fate(top, rel)
        except NoGit:
            return err.with_reference(inc.text)
        if fate is None:
            return err.with_reference(inc.text)
        said = f"{err.message}; {why_missing(fate, rel)}"
        if fate.renamed_to is None:
            return PathError(said, reference=inc.text)
        argument = self._new_argument(inc, str(top / fate.renamed_to))
        if argument is None:
            return PathError(said, reference=inc.text)
        new = dataclasses.replace(inc, argument=argument)
        edits = ((*inc.argument_span, argument),)
        try:
            now = shown_text(new, self.doc_path, self.cache, self.ctx)
        except TextFragError as bad:
            return PathError(f"{said}; the include with its new path shows nothing: {bad.message}", reference=inc.text)
        if record_of(now.text) == record:
            out = StaleError(f"{said} (new include: {new.key})", reference=inc.text, drift="moved", new_reference=new.key)
            out.outcome = IncludeRepair(edits, new.key, record)
            return out
        out = StaleError(
            f"{said}, and what the include shows there differs from the record (new include: {new.key}); "
            "`textfrag update --accept --write` writes the new path and records it once reviewed",
            reference=inc.text,
            drift="changed",
            new_reference=new.key,
        )
        out.outcome = IncludeRepair(edits, new.key, record_of(now.text), accept=True)
        return out

    def _would_be(self, inc: GuardedInclude) -> str | None:
        """The real path a missing include's file had."""
        return inc.engine.would_be(inc, self.doc_path, self.cache, self.ctx)

    def _new_argument(self, inc: GuardedInclude, new_real: str) -> str | None:
        """How the include names the file's new path, in the form it names files (``/x``, ``../x``)."""
        return inc.engine.renamed(inc, new_real, self.doc_path, self.cache, self.ctx)


def _diff(old: str, new: str, before: str, after: str) -> str:
    """The diff of what an include showed and shows (a last line without its ending, in both, is given one:
    it is no difference)."""
    from ..drift.diffs import visible_diff

    if not old.endswith("\n") and not new.endswith("\n"):
        old, new = old + "\n", new + "\n"
    return visible_diff(old.splitlines(True), new.splitlines(True), before, after)


def _span(lines: tuple[int, ...] | None) -> str:
    """`` lines 5-7`` (1-based) of a run of a file's lines; nothing when they are not one run."""
    if not lines or list(lines) != list(range(lines[0], lines[0] + len(lines))):
        return ""
    return f" line {lines[0]}" if len(lines) == 1 else f" lines {lines[0]}-{lines[-1]}"
