"""What repairs a stale reference: the one model ``textfrag update`` and the language server's quick
fixes share (the manual's reference/cli page).

A stale reference whose quoted text only moved (or was renamed, or changed only invisibly) gets its new
text, and the options that count source lines (``:emphasize-lines:``, ``:lineno-start:``, ``linenums``)
the edits that make them follow; a *changed* one gets what its range (or intent) selects now only when
accepting. Anything else is said, never guessed.
"""

from __future__ import annotations

from typing import NamedTuple

from ..drift.classify import Drift
from ..errors import StaleError
from ..reference.fragment import Reference
from ..source.cache import SourceCache
from ..verdict.judging import judge
from ..verdict.option_table import Syntax
from ..verdict.quoting import quote
from ..verdict.written_options import Option, intent_of, raw_of, shifted

__all__ = ["Repair", "repair"]


class Repair(NamedTuple):
    """The outcome for one stale reference."""

    #: what is wrong (the stale error, its drift explained)
    stale: StaleError
    #: the drift outcome (None when it could not be explained)
    drift: Drift | None
    #: the reference's new text; None: not repaired (``stale`` says why)
    new: str | None = None
    #: edits of the options that follow the new range: (start, end, text) in the document
    follow: list[tuple[int, int, str]] = []
    #: the new text pins a reviewed *changed* quote (``accept``), not a move
    accepted: bool = False


def repair(
    cache: SourceCache, ref: Reference, options: list[Option], *, accept: bool = False, syntax: Syntax = "rst"
) -> Repair | None:
    """The repair of ``ref`` (written with ``options`` in a document of ``syntax``): None when it is
    current; raises :class:`~textfrag.errors.TextFragError` for a bad reference. A repair is offered only
    when the core's verdict on the reference it writes, with its options as they will be, is clean: what
    ``update`` writes, ``check`` and the build then pass."""
    q = None
    try:
        q = quote(cache, ref, intent=intent_of(options))
    except StaleError as renamed:  # a missing file that git shows renamed (or copied, then deleted)
        if not isinstance(renamed.outcome, Drift):
            return Repair(renamed, None)
        drift: Drift | None = renamed.outcome
        stale: StaleError = renamed
    else:
        if q.stale is None:
            return None
        drift, stale = q.drift, q.stale
    if drift is None:
        return Repair(stale, None)
    if accept and drift.kind == "unknown" and q is not None:  # (history cannot tell: the person reviewed it)
        from ..drift.classify import reviewed_unknown

        drift = reviewed_unknown(ref, q.source, q.selection, intent_of(options)) or drift
    accepting = accept and drift.kind == "changed"
    new = drift.new_reference(ref, accept=accepting)
    if new is None:
        return Repair(stale, drift)
    follow = shifted(options, dict(drift.line_map), drift.old_first, drift.new_first, new_last=drift.new_last if accepting else 0)
    if isinstance(follow, str):
        return Repair(StaleError(f"{stale.message}; it is not rewritten: {follow}", reference=ref.text), drift)
    after = judge(cache, new, raw_of(options, follow), syntax=syntax, form="block" if options else "inline", show=False)
    problems = [p for p in after.problems if p.kind != "unpinned"]
    if problems:  # the new reference would fail the build all the same: said, not written
        why = problems[0].message
        return Repair(
            StaleError(
                f"{stale.message}; it is not rewritten: with the new text, {why} (correct the option by hand)", reference=ref.text
            ),
            drift,
        )
    return Repair(stale, drift, new, follow, accepting)
