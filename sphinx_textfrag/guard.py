"""Guard mode in Sphinx (``textfrag_guard = True``): every ``literalinclude``, in reStructuredText and in
MyST, is built by Sphinx exactly as without textfrag, and the text it shows is then judged against its
record in ``textfrag.lock`` by the core (textfrag.guard.judge_include), as ``check`` judges it. The page
is not touched: a problem is reported with the document's name and line and fails the build, as a
stale ``txtfrag`` reference does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.directives.code import LiteralInclude
from sphinx.environment import BuildEnvironment

from textfrag import TextFragError

from .state import cache_of, logger, place_of, record_bug, record_problem, state_of

if TYPE_CHECKING:
    from textfrag.guard import GuardContext, Lock

__all__ = ["GuardedLiteralInclude", "setup_guard"]


class GuardedLiteralInclude(LiteralInclude):
    """Sphinx's ``literalinclude``, its nodes unchanged; what it shows judged against its record."""

    def run(self) -> list[nodes.Node]:
        """The include's nodes as Sphinx makes them; then the verdict on what they show."""
        written = {name: _as_written(value) for name, value in self.options.items()}  # (before run() makes :diff: absolute)
        result = super().run()
        try:
            self._judge(written, result)
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, the page as Sphinx built it
            record_bug(self.env, self.lineno, bug)
        return result

    def _judge(self, written: dict[str, str], result: list[nodes.Node]) -> None:
        from textfrag.guard import LITERAL, LOCK_NAME, Explainer, GuardedInclude, judge_include

        env = self.env
        guard = _guard_of(env)
        doc_path = Path(env.doc2path(env.docname))
        argument = self.arguments[0]
        inc = GuardedInclude(
            str(env.doc2path(env.docname, False)), self.lineno, 1, LITERAL, argument, tuple(written.items()), 0, 0, (0, 0)
        )
        shown = _shown(result, "diff" in written, argument)
        record = guard.lock.record(guard.lock.doc_name(doc_path), inc.key)
        env.note_dependency(str(guard.lock.path))
        config = env.config
        verdict = judge_include(
            inc,
            shown,
            record,
            require_pin=config.textfrag_require_pin,
            on_stale=config.textfrag_on_stale,
            explainer=Explainer(doc_path, cache_of(env), guard.ctx),
            lock=LOCK_NAME,
        )
        if not verdict.pinned:
            unrecorded = state_of(env).unrecorded
            unrecorded[env.docname] = unrecorded.get(env.docname, 0) + 1
        source, line = place_of(env, *self.get_source_info())
        for problem in verdict.problems:
            record_problem(env, env.docname, line, problem, error=True, source=source)
        for warning in verdict.warnings:
            record_problem(env, env.docname, line, warning, error=False, source=source)


def _as_written(value: Any) -> str:
    """An option's value as Sphinx converted it, back as text (a flag is empty; classes joined)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def _shown(result: list[nodes.Node], diff: bool, argument: str) -> str | TextFragError:
    """The text the include's literal block shows, or why there is none (Sphinx's own warning)."""
    for node in result:
        blocks = [node] if isinstance(node, nodes.literal_block) else list(node.findall(nodes.literal_block))
        if blocks:
            text = blocks[0].rawsource or blocks[0].astext()
            if diff:  # the header names the files by their paths on this machine: not part of what is recorded
                lines = text.splitlines(True)
                text = "".join(lines[2:]) if len(lines) >= 2 and lines[0].startswith("--- ") else text
            return text
        if isinstance(node, nodes.system_message):
            return TextFragError(f"literalinclude shows nothing: {node.astext()}")
    return TextFragError(f"literalinclude shows nothing for {argument}")


class _Guard:
    """A build's guard mode: the lock file, read once per build, and where literalinclude finds files.
    A lock file textfrag cannot read is said once, with its name, and fails the build (its includes are
    then judged as unrecorded)."""

    def __init__(self, app: Sphinx) -> None:
        from textfrag.guard import LOCK_NAME, GuardContext, Lock

        self.ctx: GuardContext = GuardContext(srcdir=Path(app.srcdir), literal_encoding=app.config.source_encoding)
        self.failed = False
        self.lock: Lock
        try:
            self.lock = Lock.beside(Path(app.confdir) / "conf.py")
        except TextFragError as bad:
            logger.error(f"textfrag: {bad.message}", type="textfrag", subtype="lock")
            self.lock = Lock(Path(app.confdir) / LOCK_NAME)
            self.failed = True


def _guard_of(env: BuildEnvironment) -> _Guard:
    guard = getattr(env.app, "_textfrag_guard", None)
    if not isinstance(guard, _Guard):
        guard = _Guard(env.app)
        env.app._textfrag_guard = guard  # type: ignore[attr-defined]
    return guard


def _start(app: Sphinx, config: Config) -> None:
    """With ``textfrag_guard`` (or guard mode switched on for the repository: ``TEXTFRAG_GUARD=1``, a
    ``textfrag.toml``, ``[tool.textfrag]``), literalinclude is the guarded one (its output unchanged)."""
    if not config.textfrag_guard:
        from pathlib import Path

        from textfrag.project import guard_switched_on

        if not guard_switched_on(Path(app.confdir)):
            return
        config.textfrag_guard = True
    app.add_directive("literalinclude", GuardedLiteralInclude, override=True)


def _reread(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """A build reads the lock file anew (``pin`` or ``update`` may have written it since the last)."""
    if app.config.textfrag_guard:
        app._textfrag_guard = _Guard(app)  # type: ignore[attr-defined]
    return []


def _finished(app: Sphinx, exception: BaseException | None) -> None:
    """A lock file that could not be read fails the build (it was said when it was read)."""
    guard = getattr(app, "_textfrag_guard", None)
    if exception is None and isinstance(guard, _Guard) and guard.failed:
        app.statuscode = 1


def setup_guard(app: Sphinx) -> None:
    """Connect the events that switch guard mode on (``textfrag_guard``, declared with the others)."""
    app.connect("config-inited", _start)
    app.connect("env-get-outdated", _reread, priority=400)
    app.connect("build-finished", _finished)
