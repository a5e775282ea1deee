"""``textfrag impact``: which quotes a change touches (its commits, the index or the work tree), and what
it does to each, decided by the one verdict before and after the change (textfrag.impact)."""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import PathError, TextFragError
from ..report.formats import GITHUB, IMPACT_FORMATS, names_of, output_format
from ..source.paths import typed_path
from ._base import OK, STALE, add_common, nothing_checked
from .context import Command, RunContext

if TYPE_CHECKING:
    from ..guard import GuardedInclude
    from ..impact.changes import Change, Changes
    from ..impact.predict import Impact, Sides
    from ..project.config import BuildConfig
    from ..verdict.judging import Verdict
    from ._guard import GuardRun


def add_parser(sub: Any) -> None:
    """The ``impact`` subcommand's parser."""
    p = sub.add_parser(
        "impact",
        help="which quotes a change touches, and what it does to each (for review: before the docs fail)",
        description=(
            "Read a change from git (a range of commits, the index, or the work tree) and the documents, and say for "
            "every pinned reference and guarded include of a file it changes what the change does: changes quoted "
            "text (the diff on the quoted lines), shifts quoted lines (`textfrag update --write` repairs the "
            "reference), renames or deletes the quoted file; with the document, line and heading where readers see "
            "the quote. What it predicts is what `textfrag check` says once the change is in."
        ),
        epilog="Exit 0 when nothing quoted is touched (and by default when something is: see --fail-on); 2 for a bad "
        "range or usage.",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "range",
        nargs="?",
        default=None,
        metavar="REV..REV",
        help="the commits of a change: A..B, A...B (from their merge base, as a pull request), or one commit "
        "against the work tree (default: the work tree against HEAD, as --worktree)",
    )
    which.add_argument("--staged", action="store_true", help="the index against HEAD (what `git commit` would commit)")
    which.add_argument("--worktree", action="store_true", help="the work tree against HEAD, staged or not (the default)")
    add_common(p)
    p.add_argument(
        "--docs",
        dest="paths",
        action="append",
        default=None,
        metavar="PATH",
        help="the documents (files or folders) whose quotes are looked at; repeatable (default: the project's, else .)",
    )
    p.add_argument(
        "--format",
        choices=names_of(IMPACT_FORMATS),
        default=None,
        help="text (default), github (notes on the changed lines of each quoted file, naming the document that "
        "quotes them; the default when GITHUB_ACTIONS=true, with the text too), json, sarif (the changed line, the "
        "document as related location) or markdown (a pull request's comment, a job's summary)",
    )
    p.add_argument(
        "--fail-on",
        choices=("never", "changed", "any"),
        default="never",
        help="exit 1 when the change touches quotes: changed (quoted text changed, a quoted file deleted, or stale "
        "for a reason not told) or any (also quotes that only moved); default: never",
    )
    p.add_argument(
        "--quoted-by",
        action="append",
        default=None,
        metavar="INDEX",
        help="the quote index of a docs site that quotes this repository (`textfrag index` writes it; a path or an "
        "https:// URL; repeatable, one per site): say which of its pages the change alters, moves or deletes",
    )
    p.add_argument("--no-diffs", action="store_true", help="text: do not show the change on the quoted lines")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the touched quotes, no summary line")


def _impact(run: RunContext, out: TextIO, err: TextIO) -> int:
    if run.args.quoted_by:
        return _impact_on_sites(run, out, err)
    return _impact_of([run], out, err)


def impact_projects(args: argparse.Namespace, projects: list[tuple[BuildConfig, list[str]]], out: TextIO, err: TextIO) -> int:
    """impact over several projects under the paths (a site per language, a book beside a manual): the
    change read once, each project's quotes judged with its settings, one report."""
    from ._base import settle

    if args.quoted_by:  # (the quotes are the indexes', whatever documents are here)
        return _impact(settle(argparse.Namespace(**{**vars(args), "paths": projects[0][1]}), err, projects[0][0]), out, err)
    runs = [settle(argparse.Namespace(**{**vars(args), "paths": paths}), err, config) for config, paths in projects]
    return _impact_of(runs, out, err)


def _impact_of(runs: list[RunContext], out: TextIO, err: TextIO) -> int:
    from ..impact.changes import read_changes
    from ..impact.predict import Sides
    from ._base import cache_of

    first = runs[0]
    changes = read_changes(Path(first.root), first.args.range, staged=first.args.staged)
    found = Found(first.max_size)
    for run in runs:
        run = run.but(paths=run.paths or (".",))  # noqa: PLW2901 (each project's run, on its paths)
        cache = cache_of(run)  # (a bad --charset fails here)
        sides = Sides(changes, run.root, charset=cache.charset, max_size=run.max_size, pdi_map=cache.pdi_map)
        quoting = 0  # (documents that hold a reference, scanned or not)
        if sides.by_root:
            names = sorted(sides.names())
            # (only the documents that may name them are read closely)
            run = run.but(mentions=lambda text, names=names: any(name in text for name in names))  # noqa: PLW2901
            quoting = _references(run, sides, found)
            _includes(run, sides, found)
        config = run.config
        if config is None and not quoting:  # (never "no quote names them" for a tree with nothing to quote)
            quoting, docs = _quoting_documents(run)
            if not quoting:
                raise nothing_checked(run, docs)
    return said_and_code(first, changes, found, out, err)


def said_and_code(run: RunContext, changes: Changes, found: Found, out: TextIO, err: TextIO) -> int:
    """The report of what was found, and the exit code ``--fail-on`` asks for."""
    found.impacts.sort(key=lambda i: (i.site or "", i.doc, i.line, i.column))
    _say(run, changes, found, out, err)
    if run.args.fail_on == "any" and found.impacts:
        return STALE
    if run.args.fail_on == "changed" and any(i.needs_review for i in found.impacts):
        return STALE
    return OK


def _say(run: RunContext, changes: Changes, found: Found, out: TextIO, err: TextIO) -> None:
    from ..impact import report

    impacts = found.impacts
    said = report.summary(changes, impacts, found.quotes, found.stale_before, found.follows)
    form = output_format(run.format, os.environ, IMPACT_FORMATS)
    document = report.impact_document(form, changes, impacts, said, found.stale_before, found.follows)
    if document is not None:
        print(document, file=out, end="")
    else:
        if form is GITHUB:
            for command in report.impact_github(changes, impacts):
                print(command, file=out)
        for line in report.impact_text(changes, impacts, diffs=not run.args.no_diffs):
            print(line, file=out)
        if not run.quiet:
            print(said, file=out)


class Found:
    """What impact found: the touched quotes, and what the summary counts (the quotes of the changed files,
    those stale on both sides, those re-pinned with the change)."""

    def __init__(self, max_size: int) -> None:
        self.impacts: list[Impact] = []
        self.quotes = self.stale_before = self.follows = 0
        self.max_size = max_size
        self._titles: dict[str, list[tuple[int, str]]] = {}

    def add(
        self,
        sides: Sides,
        change: Change,
        judged: tuple[Verdict, Verdict, tuple[int, int]],
        doc_path: Path,
        where: tuple[str, int, int],
        text: str,
        kind: str,
        site: tuple[str, str | None, str | None] | None = None,
    ) -> None:
        """One quote of a changed file (``judged``: its verdicts before and after the change, and the lines it
        quoted before it), written at ``where`` (the document as shown, line, column) in ``doc_path``; ``site``:
        a quote of another repository's docs site, its name, the page's URL and the heading above the quote."""
        import dataclasses

        from ..documents.headings import heading_above
        from ..impact.predict import Impact, impact_of

        doc, line, column = where
        before, after, lines = judged
        heading = site[2] if site is not None else heading_above(self._headings(doc_path), line)
        found = impact_of(
            change,
            before,
            after,
            lines,
            doc=doc,
            line=line,
            column=column,
            heading=heading,
            text=text,
            kind=kind,
            new_path=sides.new_path(change),
        )
        if site is not None and isinstance(found, Impact):
            found = dataclasses.replace(found, site=site[0], url=site[1])
        if found == "stale before":
            self.stale_before += 1
        elif found == "follows":
            self.follows += 1
        elif found is not None and not isinstance(found, str):
            self.impacts.append(found)

    def _headings(self, doc: Path) -> list[tuple[int, str]]:
        from ..documents.files import read_text
        from ..documents.headings import headings

        key = str(doc)
        if key not in self._titles:
            try:
                self._titles[key] = headings(read_text(doc, typed_path(doc), self.max_size), doc.suffix)
            except TextFragError:
                self._titles[key] = []
        return self._titles[key]


def _quoting_documents(run: RunContext) -> tuple[int, int]:
    """How many documents under the paths write a reference (stopping at the first), and how many there are."""
    from ..documents.files import doc_files, read_text

    docs = 0
    for doc in doc_files(Path(p) for p in run.paths):
        docs += 1
        try:
            if "txtfrag" in read_text(doc, typed_path(doc), run.max_size):
                return 1, docs
        except TextFragError:
            continue
    return 0, docs


def _references(run: RunContext, sides: Sides, found: Found) -> int:
    """The pinned references of the changed files: each judged before and after the change. How many
    documents write a reference (those scanned, and those skipped that name ``txtfrag``)."""
    from ..verdict.judging import judge
    from ..verdict.quoting import quote, quoted_path
    from ._scan import scan_documents

    scan = scan_documents(run)
    quoting = scan.mentioning + len({f.file for f, _ in scan.entries}) + len(scan.problems)
    judged: dict[tuple[str, object, str | None], tuple[Verdict, Verdict, tuple[int, int]]] = {}
    for f, ref in scan.entries:
        try:
            path = quoted_path(sides.before, ref)
        except TextFragError:
            continue
        change = sides.changed(path)
        if change is None:
            continue
        found.quotes += 1
        (raw, syntax, form), said = scan.written_at(f)
        key = (ref.text, said, scan.charsets.get((f.file, f.start)))
        if key not in judged:  # (a reference written the same way again is judged once, as check judges it)
            before_cache, after_cache = scan.cache_for(sides.before, f), scan.cache_for(sides.after, f)
            before = judge(before_cache, ref, raw, syntax=syntax, form=form, show=False, explain=False, bidi=False)
            after = judge(after_cache, ref, raw, syntax=syntax, form=form, show=False, explain=True, bidi=False)
            lines = (0, 0)
            if not before.problems:
                try:
                    selection = quote(before_cache, ref, explain=False).selection
                    lines = (selection.first_line, max(selection.first_line, selection.last_line))
                except TextFragError:
                    pass
            judged[key] = (before, after, lines)
        doc = scan.docs.get(f.file, Path(f.file))
        found.add(sides, change, judged[key], doc, (f.file, f.line, f.column), ref.text, "reference")
    return quoting


def _includes(run: RunContext, sides: Sides, found: Found) -> None:
    """Guard mode: the includes of the changed files, each judged before and after the change."""
    config = run.config
    if config is None or not config.guard:
        return
    from ..guard import Shown
    from ..guard.judge import Explainer
    from ..guard.shown import resolve
    from ._guard import GuardRun

    before_run, after_run = GuardRun(config, sides.before), GuardRun(config, sides.after)
    for doc, _, _, includes in before_run.includes(run.paths, run.max_size, run.mentions):
        if isinstance(includes, TextFragError):
            continue
        for inc in includes:
            try:
                path = resolve(inc, doc, sides.before, before_run.ctx)
            except PathError:
                real = Explainer(doc, sides.before, before_run.ctx)._would_be(inc)
                path = os.path.relpath(real, sides.real_root) if real is not None else ""
            except TextFragError:
                continue
            change = sides.changed(path) if path else None
            if change is None:
                continue
            found.quotes += 1
            before, shown = before_run.judge(inc, doc)
            after, _ = after_run.judge(inc, doc)
            if after.problems and isinstance(after.problems[0], PathError):
                record = before_run.lock.record(before_run.lock.doc_name(doc), inc.key)
                after = _followed(inc, doc, after, record, sides, change, after_run) or after
            lines = (0, 0)
            if isinstance(shown, Shown) and shown.lines:
                lines = (min(shown.lines), max(shown.lines))
            found.add(sides, change, (before, after, lines), doc, (inc.doc, inc.line, inc.column), inc.text, "include")


def _followed(
    inc: GuardedInclude, doc: Path, after: Verdict, record: str | None, sides: Sides, change: Change, run: GuardRun
) -> Verdict | None:
    """An include whose file the change renames, judged as ``update`` repairs it: with the new path written in
    its own form (a resource id stays one), after the change, against its ``record``. When it shows the
    recorded text there, its verdict says *moved* with the new include, as ``check`` will once the change is
    in; None when it cannot be followed there (or shows other text: a person looks)."""
    import dataclasses

    from ..errors import StaleError
    from ..guard import record_of
    from ..verdict.judging import Verdict as Judged

    new_path = sides.new_path(change)
    if new_path is None or new_path == change.path:
        return None
    argument = inc.engine.renamed(inc, os.path.join(sides.real_root, new_path), doc, sides.after, run.ctx)
    if argument is None:
        return None
    moved = dataclasses.replace(inc, argument=argument)
    shown = run.shown(moved, doc)
    if record is None or isinstance(shown, TextFragError) or record_of(shown.text) != record:
        return None  # (what the renamed file shows differs: a person looks)
    said = f"renamed to {new_path} (new include: {moved.key})"
    problem = StaleError(said, reference=inc.text, drift="moved", new_reference=moved.key)
    out = Judged(after.text)
    out.problems.append(problem)
    return out


def _remotes(top: Path) -> list[str]:
    """The URLs this repository is fetched from and pushed to, and its own folder."""
    done = subprocess.run(["git", "remote", "-v"], cwd=top, capture_output=True, text=True, check=False)
    urls = {line.split()[1] for line in done.stdout.splitlines() if len(line.split()) >= 2}
    return sorted(urls | {str(top)})


def _impact_on_sites(run: RunContext, out: TextIO, err: TextIO) -> int:
    """``--quoted-by INDEX``: in a repository other docs sites quote, which of their pages a change alters,
    moves or deletes: each quote of this repository in the sites' quote indexes (textfrag.impact.quote_index),
    judged by the one verdict before and after the change, as the quotes of its own docs are."""
    from ..impact.changes import read_changes
    from ..impact.predict import Sides
    from ..impact.quote_index import load_index, read_index, same_repository
    from ..reference.grammar import parse_reference
    from ..verdict.judging import judge

    changes = read_changes(Path(run.root), run.args.range, staged=run.args.staged)
    top = changes.top
    remotes = _remotes(top)
    sides = Sides(changes, str(top), charset=run.charset, max_size=run.max_size)
    found = Found(run.max_size)
    for where in run.args.quoted_by:
        site, quotes = read_index(load_index(where), where)
        ours = [q for q in quotes if q.git is not None and any(same_repository(q.git, r) for r in remotes)]
        if not ours:
            named = sorted({q.git for q in quotes if q.git is not None})
            raise TextFragError(
                f"--quoted-by {where}: no quote of the site {site} is of this repository ({', '.join(remotes)}); "
                f"it quotes {', '.join(named) if named else 'only its own files'}"
            )
        for q in ours:
            change = sides.changed(q.path)
            if change is None:
                continue
            found.quotes += 1
            try:
                ref = parse_reference(q.local_reference)
            except TextFragError:
                continue
            before = judge(sides.before, ref, show=False, explain=False, bidi=False)
            after = judge(sides.after, ref, show=False, explain=True, bidi=False)
            lines = q.lines or (0, 0)
            found.add(
                sides, change, (before, after, lines), Path(q.document), (q.document, q.line, q.column), q.reference,
                "reference", site=(site, q.url, q.heading),
            )  # fmt: skip
    return said_and_code(run, changes, found, out, err)


#: the command, as the command line lists it
COMMAND = Command("impact", add_parser, _impact)
