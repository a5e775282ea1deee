"""Guard mode for the commands that judge includes (``check``, ``update``, ``pin``), imported only when the
build's configuration switches it on: a run without it pays nothing for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..source.cache import SourceCache
    from ._guard import GuardRun
    from .context import RunContext

__all__ = ["guarded_run"]


def guarded_run(run: RunContext, cache: SourceCache) -> GuardRun | None:
    """The run's guard mode, when the build's configuration switches it on (only then is its machinery
    imported): what ``check``, ``update`` and ``pin`` judge the includes with."""
    config = run.config
    if config is None or not config.guard:
        return None
    from ._guard import guard_run

    return guard_run(run, cache)
