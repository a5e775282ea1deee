"""What the extension keeps between builds, and how a build with problems fails.

Per document, in one :class:`BuildState` on the environment (pickled between builds, merged after
parallel reads):

- ``problems``: every problem its references had when it was last read, so that an incremental
  build that does not re-read it still reports them and still fails;
- ``deps``: the md5 of every file it quotes, so that a quoted file whose content changed is
  noticed even when its mtime did not (``env-get-outdated``).

The source cache belongs to one build (kept on the environment, replaced at the start of every build,
pickled as an empty cache): each quoted file is read, hashed and decoded once per build.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from textfrag import SourceCache, TextFragError
from textfrag.errors import PathError, internal_error_report
from textfrag.verdict import failure_summary, generated_note

logger = logging.getLogger("sphinx_textfrag")

WARNING_TYPE = "textfrag"


@dataclass(frozen=True)
class Problem:
    """One problem of a document: its line, the message, the warning subtype, whether it fails the build."""

    line: int
    message: str
    subtype: str
    error: bool
    #: the file the line is in, when not the document's own (a part ``.. include::`` pulled in)
    source: str | None = None


@dataclass
class BuildState:
    """Everything textfrag keeps on the Sphinx environment, in one typed object (pickled with it)."""

    #: docname -> the problems its references had when it was last read
    problems: dict[str, list[Problem]] = field(default_factory=dict)
    #: docname -> quoted path -> its md5 when the document was last read (None: it could not be read)
    deps: dict[str, dict[str, str | None]] = field(default_factory=dict)
    #: this build's source cache (it pickles as an empty one: a cache never outlives its build)
    cache: SourceCache | None = None
    #: the documents read in this build
    read: set[str] = field(default_factory=set)
    #: whether a bug in textfrag was reported in this build
    bugs: bool = False
    #: docname -> how many of its references are unpinned (no md5: not protected against drift)
    unpinned: dict[str, int] = field(default_factory=dict)
    #: docname -> quoted path -> the 1-based line ranges it quotes (for the context pages)
    ranges: dict[str, dict[str, set[tuple[int, int]]]] = field(default_factory=dict)
    #: docname -> how many of its guarded includes have no record in textfrag.lock (guard mode)
    unrecorded: dict[str, int] = field(default_factory=dict)


_STATE = "textfrag_state"


def state_of(env: BuildEnvironment) -> BuildState:
    """The extension's state on ``env``, made on first use."""
    state = getattr(env, _STATE, None)
    if not isinstance(state, BuildState):
        state = BuildState()
        setattr(env, _STATE, state)
    return state


def cache_of(env: BuildEnvironment) -> SourceCache:
    """The build's source cache, kept on the environment (it pickles as an empty cache)."""
    state = state_of(env)
    return state.cache if state.cache is not None else new_cache(env, Path(env.srcdir))


def new_cache(env: BuildEnvironment, confdir: Path) -> SourceCache:
    """A new source cache for this build, from the configuration (root, charset, size limit, PDI map)."""
    config = env.config
    root = (confdir / config.textfrag_root).resolve()
    cache = SourceCache(root, charset=config.textfrag_charset, max_size=config.textfrag_max_size, pdi_map=config.textfrag_pdi_map)
    state_of(env).cache = cache
    return cache


def _emit(docname: str, problem: Problem) -> None:
    location: str | tuple[str | None, int | None] = (
        (docname, problem.line) if problem.source is None else f"{problem.source}:{problem.line}"
    )
    (logger.error if problem.subtype == "internal" else logger.warning)(
        problem.message, location=location, type=WARNING_TYPE, subtype=problem.subtype
    )


def place_of(env: BuildEnvironment, source: str | None, line: int | None) -> tuple[str | None, int]:
    """Where a directive or role stands, as docutils' state machine knows it (``get_source_info()``): its
    line in the document, or in the part an ``.. include::`` pulled in (then that file, as the build's own
    warnings name it); None for the document's own file."""
    own = str(env.doc2path(env.docname))
    return (None if not source or source == own else source), line or 0


def role_line(env: BuildEnvironment, source: str | None, line: int, rawtext: str, parent: Any) -> int:
    """The line a role stands on. docutils and MyST-Parser tell a role the first line of its paragraph
    (docutils, in a table cell, the line below it), where ``check`` and the editor name the role's own
    line: the role's text is looked for in the file from there to the paragraph's end, the paragraph's
    n-th role of the same text taken n-th. The line given stands when the text is not found (a role a
    substitution wrote)."""
    path = source or str(env.doc2path(env.docname))
    if path.endswith(".ipynb") or "`" not in rawtext:  # (a notebook's cells are not its file's lines)
        return line
    files = cast("dict[str, list[str]]", env.temp_data.setdefault("textfrag_lines", {}))
    lines = files.get(path)
    if lines is None:
        try:
            lines = Path(path).read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except OSError:
            lines = []
        files[path] = lines
    seen = cast("dict[tuple[int, int, str], int]", env.temp_data.setdefault("textfrag_roles", {}))
    nth = seen[(id(parent), line, rawtext)] = seen.get((id(parent), line, rawtext), -1) + 1
    text = rawtext[rawtext.index("`") :].split("\n", 1)[0]  # (`REF`: MyST hands docutils' spelling, :txtfrag:)
    first = line - 2 if isinstance(parent, nodes.entry) else line - 1  # (0-based)
    hits: list[int] = []
    for i in range(max(first, 0), len(lines)):
        if not lines[i].strip() and i >= line - 1:
            break
        hits += [i + 1] * lines[i].count(text)
        if len(hits) > nth:
            return hits[nth]
    return line


def record_problem(
    env: BuildEnvironment, docname: str, line: int, err: TextFragError, *, error: bool, source: str | None = None
) -> None:
    """Report a problem now (a warning with docname:line, or the included part's file:line, type and
    subtype) and keep it on the env."""
    if isinstance(err, PathError) and err.other_root is not None:  # (the build's own setting, not --root)
        import os

        other = os.path.relpath(os.path.abspath(err.other_root), env.app.confdir)
        err = err.with_root_advice(f"textfrag_root = {other!r} in conf.py")
    message = err.describe("").removeprefix(": ") if err.reference else err.message
    problem = Problem(line, message, err.kind, error, source)
    state_of(env).problems.setdefault(docname, []).append(problem)
    _emit(docname, problem)


def record_bug(env: BuildEnvironment, line: int, bug: BaseException) -> None:
    """Report a bug in textfrag met while reading a document as textfrag's own (name, version,
    traceback), never as Sphinx's: raising would end in Sphinx's "please report this to sphinx-doc".
    Kept like a problem, so the build goes on, then fails (also after a parallel read)."""
    problem = Problem(line, internal_error_report(bug), "internal", True)
    state_of(env).problems.setdefault(env.docname, []).append(problem)
    _emit(env.docname, problem)


Handler = TypeVar("Handler", bound=Callable[..., Any])


def guarded(handler: Handler, fallback: Any = None) -> Handler:
    """An event handler whose unexpected exceptions are reported as textfrag's, failing the build; it
    then returns ``fallback`` (what the event expects of a handler that has nothing to say)."""

    @functools.wraps(handler)
    def run(app: Sphinx, *args: Any) -> Any:
        """The handler, its unexpected exceptions reported as textfrag's."""
        try:
            return handler(app, *args)
        except Exception as bug:  # as record_bug, for a handler that has no document
            logger.error(internal_error_report(bug), type=WARNING_TYPE, subtype="internal")
            if getattr(app, "env", None) is not None:
                state_of(app.env).bugs = True
            app.statuscode = 1
            return fallback

    return cast(Handler, run)


def record_dependency(env: BuildEnvironment, docname: str, path: str, md5: str | None) -> None:
    """Note that ``docname`` quotes ``path``, with the md5 it had (None: unreadable)."""
    state_of(env).deps.setdefault(docname, {})[path] = md5


# -- events --------------------------------------------------------------------------------------------


def on_env_get_outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """Start the build's cache; re-read documents whose quoted files changed content (mtime or not)."""
    cache = new_cache(env, Path(app.confdir))
    state = state_of(env)
    state.read, state.bugs = set(), False
    outdated = []
    for docname, files in state.deps.items():
        if docname in changed or docname in removed or docname in added:
            continue
        for path, md5 in files.items():
            try:
                now: str | None = cache.get(path).md5
            except TextFragError:
                now = None
            if now != md5:
                outdated.append(docname)
                break
    return outdated


def on_env_before_read_docs(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Remember which documents this build reads (the others' problems are re-reported)."""
    state_of(env).read = set(docnames)


def on_env_purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Forget what a document had before it is read again."""
    state = state_of(env)
    state.problems.pop(docname, None)
    state.deps.pop(docname, None)
    state.ranges.pop(docname, None)
    state.unpinned.pop(docname, None)
    state.unrecorded.pop(docname, None)


def on_env_merge_info(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    """Take the problems and dependencies of documents read by a parallel worker."""
    mine, theirs = state_of(env).problems, state_of(other).problems
    mine_deps, their_deps = state_of(env).deps, state_of(other).deps
    mine_ranges, their_ranges = state_of(env).ranges, state_of(other).ranges
    mine_unpinned, their_unpinned = state_of(env).unpinned, state_of(other).unpinned
    mine_unrecorded, their_unrecorded = state_of(env).unrecorded, state_of(other).unrecorded
    for docname in docnames:
        if docname in their_unpinned:
            mine_unpinned[docname] = their_unpinned[docname]
        if docname in their_unrecorded:
            mine_unrecorded[docname] = their_unrecorded[docname]
        if docname in theirs:
            mine[docname] = theirs[docname]
        if docname in their_deps:
            mine_deps[docname] = their_deps[docname]
        if docname in their_ranges:
            mine_ranges[docname] = their_ranges[docname]


def record_range(env: BuildEnvironment, docname: str, path: str, first: int, last: int) -> None:
    """Note that ``docname`` quotes lines ``first``-``last`` of ``path`` (marked on its context page)."""
    state_of(env).ranges.setdefault(docname, {}).setdefault(path, set()).add((first, last))


def write_context_pages(app: Sphinx) -> None:
    """One page per quoted file (``textfrag_context_pages``), in HTML builds; a page is written only
    when what it shows changed."""
    from context_textfrag import page_path, render_page, write_if_changed  # only builds with pages pay

    if not app.config.textfrag_context_pages or app.builder.format != "html" or app.builder.name.startswith("epub"):
        return
    state = state_of(app.env)
    quoted: dict[str, set[tuple[int, int]]] = {}
    for files in state.ranges.values():
        for path, ranges in files.items():
            quoted.setdefault(path, set()).update(ranges)
    cache = cache_of(app.env)
    home = app.builder.get_target_uri(app.config.root_doc)
    for path, ranges in sorted(quoted.items()):
        try:
            source = cache.get(path)
        except TextFragError:
            continue  # reported where it is quoted
        target = page_path(path)
        html = render_page(source, ranges, home=relative_uri(target, home))
        write_if_changed(Path(app.outdir) / target, html)


def on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    """Report the problems of documents not re-read in this build, then fail the build if any problem
    is an error. Raising here would print a traceback and delete the environment, so the build's
    status code is set instead, as Sphinx's linkcheck and doctest builders do."""
    if exception is not None:
        return
    env = app.env
    write_context_pages(app)
    state = state_of(env)
    if state.bugs:
        app.statuscode = 1
    read = state.read
    suppressed = set(app.config.suppress_warnings)
    errors: list[str] = []
    for docname in sorted(state.problems):
        for problem in state.problems[docname]:
            if docname not in read:
                _emit(docname, problem)
            if problem.error and not {WARNING_TYPE, f"{WARNING_TYPE}.{problem.subtype}"} & suppressed:
                errors.append(problem.message)
    unpinned = sum(state.unpinned.values())
    if unpinned and not app.config.textfrag_require_pin:  # counted, never listed one by one
        logger.info(
            "textfrag: %s not protected against drift (no md5): `textfrag pin --write` pins them"
            " (textfrag_require_pin = True makes each a problem)%s",
            f"{unpinned} reference is" if unpinned == 1 else f"{unpinned} references are",
            generated_note(
                {str(app.env.doc2path(d, False)): (n, str(app.env.doc2path(d))) for d, n in state.unpinned.items() if n}
            ),
        )
    unrecorded = sum(state.unrecorded.values())
    if unrecorded and not app.config.textfrag_require_pin:  # guard mode: counted, never listed one by one
        logger.info(
            "textfrag: %s no record in textfrag.lock (not protected against drift): `textfrag pin --write` records "
            "them (textfrag_require_pin = True makes each a problem)",
            f"{unrecorded} include has" if unrecorded == 1 else f"{unrecorded} includes have",
        )
    if errors:
        logger.error(
            "%s; the build fails (textfrag_on_stale = 'warning' makes stale references warnings)",
            failure_summary(errors),
            type=WARNING_TYPE,
            subtype="summary",
        )
        app.statuscode = 1


def setup_state(app: Sphinx) -> dict[str, Any]:
    """Connect the build events; the environment version of the stored state."""
    app.connect("env-get-outdated", guarded(on_env_get_outdated, []))
    app.connect("env-before-read-docs", guarded(on_env_before_read_docs))
    app.connect("env-purge-doc", guarded(on_env_purge_doc))
    app.connect("env-merge-info", guarded(on_env_merge_info))
    app.connect("build-finished", guarded(on_build_finished))
    return {"env_version": 5}  # 2: one BuildState object; 3: with the quoted ranges; 4: the unpinned counts; 5: unrecorded
