"""Guard mode in ``check``, ``pin`` and ``update``: the includes of a build that guards them (its
configuration says ``textfrag_guard = True`` or ``guard: true``), judged, recorded and repaired through
the core's one judge of an include (textfrag.guard)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..documents.files import doc_files, read_text
from ..documents.scan import Found
from ..errors import StaleError, TextFragError, spell, spell_lines
from ..guard import (
    LOCK_NAME,
    GuardedInclude,
    IncludeRepair,
    Lock,
    Shown,
    context_of,
    empty_include,
    guarded_by,
    judge_include,
    record_of,
    shown_text,
)
from ..guard.judge import Explainer, found_of
from ..project.buildset import read_by_build
from ..report.formats import FORMATS, Finding, machine_readable, output_format
from ..source.cache import SourceCache
from ..source.paths import typed_path
from ..verdict.judging import Verdict
from ._base import plural
from .context import RunContext

if TYPE_CHECKING:
    from ..project.config import BuildConfig
    from ..repair.rewrite import DocText

__all__ = ["GuardRun", "guard_run", "IncludeTally", "unrecorded_note"]


def unrecorded_note(count: int, lock: str) -> str:
    """The summary's word on includes with no record (counted always, listed with --require-pin)."""
    if not count:
        return ""
    said = f"; {plural(count, 'include')} unrecorded"
    return f"{said} (not protected against drift: `textfrag pin --write` records them in {lock})"


def guard_run(run: RunContext, cache: SourceCache) -> GuardRun | None:
    """The run's guard mode, when the build's configuration switches it on (None otherwise)."""
    config: BuildConfig | None = run.config
    if config is None or not config.guard:
        return None
    return GuardRun(config, cache)


@dataclass
class IncludeTally:
    """What judging the includes of the documents found."""

    findings: list[Finding] = field(default_factory=list)
    problems: list[tuple[Found, TextFragError]] = field(default_factory=list)
    count: int = 0
    unrecorded: int = 0


class GuardRun:
    """One command's guard mode: the lock file, where files are found, the includes of each document."""

    def __init__(self, config: BuildConfig, cache: SourceCache) -> None:
        self.config = config
        self.cache = cache
        self.lock = Lock.read(config.home / LOCK_NAME)
        self.ctx = context_of(config)

    @property
    def lock_shown(self) -> str:
        return typed_path(self.lock.path)

    def includes(
        self, paths: Sequence[str], max_size: int, mentions: Callable[[str], bool] | None = None
    ) -> Iterator[tuple[Path, str, str, list[GuardedInclude] | TextFragError]]:
        """Each document under ``paths``: its path, its name in the reports, its text and its includes (or
        why it cannot be read); with ``mentions``, only the documents whose text it holds true for."""
        reads = read_by_build(self.config)
        named = {os.path.realpath(p) for p in paths}
        engine = self.config.engine
        extra = [suffix for suffix, _ in self.config.other_suffixes]
        for doc in doc_files((Path(p) for p in paths), asciidoc=engine == "asciidoc", mdx=engine == "docusaurus", extra=extra):
            if reads is not None and os.path.realpath(doc) not in named and not reads(doc):
                continue  # (a document the build does not read: its includes are not rendered)
            shown = typed_path(doc)
            try:
                text = read_text(doc, shown, max_size)
            except TextFragError as unreadable:
                yield doc, shown, "", unreadable
                continue
            if mentions is not None and not mentions(text):
                continue
            found = guarded_by(self.config, text, shown, self.config.read_as(doc))
            yield doc, shown, text, found

    def shown(self, inc: GuardedInclude, doc: Path) -> Shown | TextFragError:
        try:
            return shown_text(inc, doc, self.cache, self.ctx)
        except TextFragError as bad:
            return bad

    def judged(
        self, paths: Sequence[str], max_size: int, *, require_pin: bool = False
    ) -> list[tuple[Path, str, str, GuardedInclude, Verdict]]:
        """Every include of the documents under ``paths`` and its verdict: what each shows is read first,
        then git history is searched once for every stale one, then each is judged (drift explained)."""
        seen: list[tuple[Path, str, str, GuardedInclude, Shown | TextFragError]] = []
        for doc, shown_name, text, includes in self.includes(paths, max_size):
            if isinstance(includes, TextFragError):
                continue
            seen += [(doc, shown_name, text, inc, self.shown(inc, doc)) for inc in includes]
        stale = False
        for doc, _, _, inc, shown in seen:
            record = self.lock.record(self.lock.doc_name(doc), inc.key)
            if record is not None and isinstance(shown, Shown) and record_of(shown.text) != record:
                Explainer(doc, self.cache, self.ctx).prefetch(inc, record)
                stale = True
        if stale:
            from ..drift.history import NoGit
            from ..verdict.quoting import history_of

            try:
                history_of(self.cache).search()
            except NoGit:
                pass
        return [
            (doc, name, text, inc, self.judge(inc, doc, shown, require_pin=require_pin)[0])
            for doc, name, text, inc, shown in seen
        ]

    def judge(
        self, inc: GuardedInclude, doc: Path, shown: Shown | TextFragError | None = None, *, require_pin: bool = False
    ) -> tuple[Verdict, Shown | TextFragError]:
        """The one verdict on an include of ``doc`` (its drift explained), and what it shows."""
        shown = self.shown(inc, doc) if shown is None else shown
        record = self.lock.record(self.lock.doc_name(doc), inc.key)
        verdict = judge_include(
            inc,
            shown,
            record,
            require_pin=require_pin,
            explainer=Explainer(doc, self.cache, self.ctx),
            lock=self.lock.path.name,  # (the same words in check, the build and the editor)
        )
        return verdict, shown

    # -- check -------------------------------------------------------------------------------------------

    def check(self, run: RunContext, targets: set[tuple[str, int]] | None) -> IncludeTally:
        """Every include of the documents under the paths, judged; ``targets`` (FILE:LINE) limit them."""
        tally = IncludeTally()
        every = output_format(run.format, os.environ, FORMATS).every
        for _, _, _, inc, verdict in self.judged(run.paths, run.max_size, require_pin=run.require_pin):
            if targets is not None and (inc.doc, inc.line) not in targets:
                continue
            tally.count += 1
            tally.unrecorded += not verdict.pinned
            f = found_of(inc)
            for problem in verdict.problems:
                tally.problems.append((f, problem))
                tally.findings.append(Finding(f.file, f.line, f.column, f.text, problem, (), verdict.pinned))
            if not verdict.problems and every:
                tally.findings.append(Finding(f.file, f.line, f.column, f.text, None, (), verdict.pinned))
        return tally

    # -- pin ---------------------------------------------------------------------------------------------

    def pin(self, run: RunContext, targets: set[tuple[str, int]] | None) -> tuple[IncludeTally, int]:
        """Record what every unrecorded include shows (and forget the records of includes no longer
        there, in the documents under the paths); the lock file written with ``--write``. The number of
        includes recorded."""
        tally = IncludeTally()
        recorded = 0
        for doc, _, _, includes in self.includes(run.paths, run.max_size):
            if isinstance(includes, TextFragError):
                continue
            name = self.lock.doc_name(doc)
            if targets is None:
                self.lock.keep_only(name, {inc.key for inc in includes})
            for inc in includes:
                tally.count += 1
                f = found_of(inc)
                if self.lock.record(name, inc.key) is not None or (targets is not None and (inc.doc, inc.line) not in targets):
                    tally.findings.append(Finding(f.file, f.line, f.column, f.text, None, (), True))
                    continue
                shown = self.shown(inc, doc)
                if isinstance(shown, TextFragError) or not shown.text:
                    problem = shown.with_reference(inc.text) if isinstance(shown, TextFragError) else empty_include(inc)
                    tally.problems.append((f, problem))
                    tally.findings.append(Finding(f.file, f.line, f.column, f.text, problem, (), False))
                    continue
                self.lock.put(name, inc.key, record_of(shown.text))
                recorded += 1
                tally.findings.append(Finding(f.file, f.line, f.column, f.text, None, (), bool(run.write)))
        if run.write and self.lock.changed:
            self.lock.write()
        return tally, recorded

    def lock_diff(self) -> str:
        """The lock file's change, as a patch (``pin`` without ``--write``)."""
        return self._patch(self.lock)

    def _patch(self, after: Lock) -> str:
        """The change from the lock file on disk to ``after``, as a patch (empty when there is none)."""
        import difflib

        if not after.changed:
            return ""
        before = self.lock.path.read_text(encoding="utf-8") if self.lock.path.exists() else ""
        shown = self.lock_shown
        return "".join(difflib.unified_diff(before.splitlines(True), after.text().splitlines(True), f"a/{shown}", f"b/{shown}"))

    # -- update ------------------------------------------------------------------------------------------

    def update(
        self,
        run: RunContext,
        targets: set[tuple[str, int]] | None,
        docs: dict[str, DocText],
        places: list[str],
        err: TextIO,
    ) -> tuple[IncludeTally, list[tuple[str, GuardedInclude, IncludeRepair]]]:
        """The repairs of the stale includes: moved and renamed ones, and with ``--accept`` the changed
        ones (what they show now recorded); their edits added to ``docs``. The problems left, and the
        repairs made (written to the lock file by :meth:`commit` once the documents are written)."""
        from ..repair.rewrite import read_doc

        tally = IncludeTally()
        repairs: list[tuple[str, GuardedInclude, IncludeRepair]] = []
        for doc, shown_name, read, inc, verdict in self.judged(run.paths, run.max_size, require_pin=run.require_pin):
            name = self.lock.doc_name(doc)
            tally.count += 1
            tally.unrecorded += not verdict.pinned
            f = found_of(inc)
            targeted = targets is None or (inc.doc, inc.line) in targets
            problem = verdict.problem
            repair = problem.outcome if isinstance(problem, StaleError) else None
            if not isinstance(repair, IncludeRepair) or not targeted or (repair.accept and not run.args.accept):
                for p in verdict.problems:
                    tally.problems.append((f, p))
                    tally.findings.append(Finding(f.file, f.line, f.column, f.text, p, (), verdict.pinned))
                if not verdict.problems:
                    tally.findings.append(Finding(f.file, f.line, f.column, f.text, None, (), verdict.pinned))
                continue
            if repair.edits:
                if shown_name not in docs:
                    try:
                        docs[shown_name] = read_doc(doc, shown_name, run.max_size, within=places)
                    except TextFragError as unreadable:
                        tally.problems.append((f, unreadable))
                        continue
                if docs[shown_name].text[inc.start : inc.end] != read[inc.start : inc.end]:
                    tally.problems.append(
                        (f, TextFragError(f"{inc.doc} changed while textfrag was reading it; it is left as it is"))
                    )
                    continue
                docs[shown_name].edits.extend(repair.edits)
            repairs.append((name, inc, repair))
            tally.findings.append(Finding(f.file, f.line, f.column, f.text, None if run.write else problem, (), True))
            if not machine_readable(run.format):
                how = "accepted" if repair.accept else problem.drift if isinstance(problem, StaleError) else "repaired"
                print(f"{spell(f'{inc.doc}:{inc.line}')}: {spell(inc.text)}: {how} -> {spell(repair.key)}", file=err)
                if repair.accept and isinstance(problem, StaleError) and problem.notes:
                    print(spell_lines(problem.notes), file=err)  # (what is recorded, once reviewed)
        return tally, repairs

    def planned(self, repairs: list[tuple[str, GuardedInclude, IncludeRepair]]) -> str:
        """The lock file's change the repairs would make, as a patch (``update`` without ``--write``)."""
        after = self.lock.copy()
        for name, inc, repair in repairs:
            after.rename(name, inc.key, repair.key, repair.record)
        return self._patch(after)

    def commit(self, repairs: list[tuple[str, GuardedInclude, IncludeRepair]], written: set[str]) -> int:
        """Record the repairs whose documents were written (or that edit no document) in the lock file."""
        done = 0
        for name, inc, repair in repairs:
            if repair.edits and inc.doc not in written:
                continue
            self.lock.rename(name, inc.key, repair.key, repair.record)
            done += 1
        if self.lock.changed:
            self.lock.write()
        return done
