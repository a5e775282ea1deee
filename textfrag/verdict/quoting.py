"""The pipeline in one call: reference text -> parse -> load (cached) -> resolve -> verify.

This is what the CLI and both engine adapters call; none of them parses or counts on its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import EmptyError, PathError, StaleError, TextFragError
from ..reference.fragment import Fragment, IntegrityCheck, Reference, Scheme, line_scheme_of
from ..reference.grammar import parse_reference
from ..reference.integrity import emptiness, empty_excerpt, mismatches, needs_text, verify
from ..reference.resolving import Selection, select, whole
from ..reference.selection import ELISION as ELISION_MARK
from ..source.cache import DEFAULT_CHARSET, Source, SourceCache, same_charset
from ..source.charsets import text_lines
from ..source.hidden_text import bidi_note
from ..source.paths import encode_path

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from ..drift.classify import Drift
    from ..drift.history import History
    from ..intents.intent import Intent

__all__ = ["Quote", "quote", "problem_of", "prefetch_history", "quoted_path", "make_fragment", "make_reference", "ELISION"]

#: what stands between the pieces of a disjoint selection when they are shown as one text
ELISION = f"\n{ELISION_MARK}\n"


class Quote:
    """A verified reference: its source, the stale error if an integrity check failed, and its selection.

    The selection is resolved on first use: verifying needs only the file's md5 and length, and an
    RFC 5147 fragment that parsed always resolves, so ``textfrag check`` never builds a line index for
    a current reference. A stale quote still has its selection, so an engine set to warn can embed it.
    """

    __slots__ = ("reference", "source", "stale", "drift", "_selection", "_selections")

    def __init__(self, reference: Reference, source: Source, stale: StaleError | None = None) -> None:
        self.reference = reference
        self.source = source
        self.stale = stale
        #: for a stale quote, whether the quoted text moved or changed (see textfrag.drift.classify)
        self.drift: Drift | None = None
        self._selection: Selection | None = None
        self._selections: list[Selection] | None = None

    def __repr__(self) -> str:
        return f"Quote({self.reference.text!r}, stale={self.stale is not None})"

    @property
    def selections(self) -> list[Selection]:
        """The pieces selected, in file order: one, or several for a disjoint selection of a dialect."""
        if self._selections is None:
            selecting = self.reference.selecting  # RFC 5147 or a dialect: one protocol
            self._selections = [whole(self.source)] if selecting is None else selecting.select(self.source)
        return self._selections

    @property
    def selection(self) -> Selection:
        """The selection, or for disjoint pieces the span from the first piece to the last."""
        if self._selection is None:
            pieces = self.selections
            self._selection = pieces[0] if len(pieces) == 1 else select(self.source, pieces[0].start, pieces[-1].end)
        return self._selection

    @property
    def text(self) -> str:
        """The excerpt as it stands in the file; disjoint pieces are separated by a line ``⋯``."""
        parts: list[str] = []
        for i, piece in enumerate(self.selections):
            if i:  # the marker stands on a line of its own
                parts.append(ELISION if not parts[-1].endswith(("\n", "\r", "\x85")) else ELISION.lstrip("\n"))
            parts.append(piece.text)
        return "".join(parts)


def quote(cache: SourceCache, reference: str | Reference, *, explain: bool = True, intent: Intent | None = None) -> Quote:
    """Resolve a reference (``[txtfrag:]PATH[#FRAGMENT]``, or one already parsed) against the cache.

    Raises :class:`~textfrag.errors.TextFragError` for a bad reference; a failed integrity check is
    returned in :attr:`Quote.stale`; with ``explain``, its message says whether the quoted text moved
    (and the new reference) or changed (with a diff), from the file's git history (textfrag.drift.classify), by
    the selection ``intent`` when there is one. A missing file that git shows renamed raises a
    :class:`StaleError` explained the same way; one that git shows deleted says when.
    """
    ref = parse_reference(reference) if isinstance(reference, str) else reference
    try:
        source = cache.get(quoted_path(cache, ref), ref.text)
    except PathError as err:
        if explain and err.no_such_file and ref.dialect != "pdi":
            raise _missing(cache, ref, err, intent) from None
        raise
    result = Quote(ref, source)
    if ref.selector is not None:
        try:
            result.selections  # noqa: B018 (a dialect's selection can fail: not found, a timeout)
        except TextFragError as err:
            raise err.with_reference(ref.text) from None
        return result  # only RFC 5147 carries integrity checks
    try:
        verify(source, ref.fragment, reference=ref.text)
    except StaleError as err:
        result.stale = _explain(cache, result, err, intent) if explain and not err.md5_matches else err
    return result


def problem_of(cache: SourceCache, ref: Reference, intent: Intent | None = None) -> TextFragError | None:
    """What is wrong with ``ref`` (the stale error, with its drift explained), or None when it is current.

    Verified against the file's digest alone when that is enough (``textfrag check`` of a large tree
    keeps no text); the text is loaded only to explain a problem, or for a dialect, whose text must be
    found (it has no integrity checks). Raises :class:`TextFragError` for a bad reference.
    """
    if ref.selector is not None:
        quote(cache, ref)
        return None
    try:
        digest = cache.digest(quoted_path(cache, ref), ref.text)
    except PathError as err:
        if err.no_such_file:
            return _missing(cache, ref, err, intent)
        raise
    if not needs_text(ref.fragment, digest.charset) and not mismatches(digest, ref.fragment):
        return emptiness(digest, ref.fragment, reference=ref.text)
    q = quote(cache, ref, intent=intent)
    return q.stale if q.stale is not None else empty_problem(q, ref)


def empty_problem(q: Quote, ref: Reference) -> TextFragError | None:
    """The problem of a current quote that shows nothing (textfrag.errors.EmptyError): a range past the end
    or of no width, an intent or a dialect that selects no line; None when it shows something, and for
    an RFC 5147 position or a whole file (a position selects nothing by design; an empty file is what it is)."""
    if not q.selection.empty:
        return None
    fragment = ref.fragment
    if ref.selector is None and (fragment is None or not fragment.scheme.is_range):
        return None
    if ref.selector is None and fragment is not None:
        scheme = fragment.scheme
        total = q.source.length if scheme.name == "char" else text_lines(q.source.text)
        return empty_excerpt(scheme.name, scheme.start or 0, scheme.end, total, reference=ref.text)
    return EmptyError("the excerpt is empty: the reference selects no text in the file", reference=ref.text)


def hidden_note(cache: SourceCache, ref: Reference) -> str | None:
    """What to warn of when the text ``ref`` quotes holds bidirectional control characters
    (textfrag.source.hidden_text); the text is read only when the file's digest says it holds some."""
    try:
        if not cache.digest(quoted_path(cache, ref), ref.text).bidi:
            return None
    except TextFragError:  # (a missing file, reported as such already)
        return None
    q = quote(cache, ref)
    return bidi_note(q.text, q.selection.first_line)


def history_of(cache: SourceCache) -> History:
    from ..drift.source_history import SourcesHistory  # only drift pays for git

    if cache.history is None:
        cache.history = SourcesHistory(cache.max_size, lambda: cache.sources)
    history: History = cache.history
    return history


def real_of(cache: SourceCache, path: str) -> Path:
    """The real path of the file ``path`` names (a declared source's ``//NAME/PATH`` stays as it is: its
    history is the source's, textfrag.drift.source_history)."""
    return Path(path) if path.startswith("//") else Path(os.path.realpath(os.path.join(cache.real_root, path)))


def prefetch_history(cache: SourceCache, refs: Iterable[Reference], *, load_text: bool | Container[str] = False) -> set[int]:
    """Look up, in one pass over git history per work tree, the versions that every stale reference
    among ``refs`` was made for, and what became of every missing file (textfrag.drift.history); explaining
    each reference afterwards is then a lookup. Whatever cannot be looked up is left to the per-reference
    explanation, which says why. ``load_text``: read the files (as ``update`` will) rather than only
    hash them (as ``check`` does); or the paths of the files to read (those whose text the verdict will
    need: each file is read once). Returns the positions in ``refs`` of the stale and missing ones."""
    wanted: list[tuple[Reference, bool]] = []
    positions: set[int] = set()
    refs = list(refs)
    # (a declared source's files: read at once, per source; for check, only those whose digest is not kept)
    cache.prefetch_sources((ref.path for ref in refs), text=load_text is True)
    for i, ref in enumerate(refs):
        fragment = ref.fragment
        if ref.selector is not None or fragment is None or not any(c.name in ("md5", "length") for c in fragment.checks):
            continue
        try:
            if load_text is True or (load_text and ref.path in load_text):
                stale = bool(mismatches(cache.get(ref.path).digest, fragment))
            else:
                digest = cache.digest(ref.path)
                stale = needs_text(fragment, digest.charset) or bool(mismatches(digest, fragment))
        except PathError as err:
            if err.no_such_file:
                wanted.append((ref, True))
                positions.add(i)
            continue
        except TextFragError:
            continue
        if stale:
            wanted.append((ref, False))
            positions.add(i)
    if not wanted:
        return positions
    from ..drift.classify import old_charset
    from ..drift.history import NoGit  # only a run with stale references pays for git

    history = history_of(cache)
    try:
        for ref, missing in wanted:
            where = history.locate(real_of(cache, ref.path))
            if where is not None:
                history.want(*where, ref.fragment, old_charset(ref.fragment, cache.charset), missing=missing)
        history.search()
    except NoGit:
        pass
    return positions


def _missing(cache: SourceCache, ref: Reference, err: PathError, intent: Intent | None) -> TextFragError:
    """``no such file``, with what git history says became of the file: deleted (when), or renamed, and
    then a :class:`StaleError` with the drift of the quote into the file it was renamed to."""
    from ..drift.classify import classify_missing, why_missing

    real = real_of(cache, ref.path)
    fate, drift = classify_missing(
        ref, real, history_of(cache), charset=cache.charset, root=Path(cache.real_root), load=cache.get, intent=intent
    )
    if fate is None:
        return err
    said = f"no such file: {ref.path}; {why_missing(fate, ref.path)}"
    if drift is None or drift.kind == "unknown":
        missing = PathError(f"{said}{'; ' + drift.explanation if drift else ''}", reference=ref.text)
        missing.no_such_file = True
        return missing
    new = drift.new_reference(ref)
    tail = f" (new reference: {new})" if new else ""
    stale = StaleError(
        f"{said}; {drift.explanation}{tail}", reference=ref.text, drift=drift.kind, new_reference=new, diff=drift.diff
    )
    stale.outcome = drift
    return stale


def quoted_path(cache: SourceCache, reference: Reference) -> str:
    """The file under the root that ``reference`` quotes: its PATH, or for a Persistent Document
    Identifier the file the cache's table maps it to (:class:`~textfrag.errors.PathError` if none)."""
    if reference.dialect == "pdi":
        from ..reference.dialects.pdi import mapped_path

        return mapped_path(cache.pdi_map, reference.path, reference.text)
    return reference.path


def _explain(cache: SourceCache, q: Quote, err: StaleError, intent: Intent | None = None) -> StaleError:
    """``err`` with the drift outcome: moved (and the new reference), changed (and a diff), or unknown."""
    fragment = q.reference.fragment
    assert fragment is not None
    selection = q.selection
    from ..drift.classify import classify  # not a cycle: only a stale reference pays for git and difflib

    real = real_of(cache, q.source.path)
    drift = classify(q.reference, q.source, real, history_of(cache), charset=cache.charset, intent=intent)
    q.drift = drift
    explained = _explained(err, drift, q.reference)
    if explained is not None:
        return explained
    where = f"{fragment.scheme} is {selection.lines_display()} of the file as it is now"
    fresh = make_reference(selection)
    return err.explained(
        f" ({where}; if that is still the text to quote, the reference is {fresh}); moved or changed is unknown: "
        f"{drift.explanation}; once reviewed, `textfrag update --accept --write` pins what it "
        f"{'selects' if intent is not None else 'quotes'} now",
        drift="unknown",
    )


def _explained(err: StaleError, drift: Drift, ref: Reference) -> StaleError | None:
    """``err`` saying the drift outcome (None for unknown, which says more about the file as it is)."""
    if drift.kind in ("moved", "invisible"):
        new = drift.new_reference(ref)
        out = err.explained(f"; {drift.explanation} (new reference: {new})", drift=drift.kind, new_reference=new)
    elif drift.kind == "changed":
        out = err.explained(f"; {drift.explanation}", drift="changed", diff=drift.diff)
    else:
        return None
    out.outcome = drift
    return out


def make_fragment(
    selection: Selection, *, length: bool = True, md5: bool = True, lines: bool | None = None, open_end: bool = False
) -> Fragment:
    """The RFC 5147 fragment for ``selection`` with integrity checks of its file.

    Whole lines are written as ``line=`` (``lines=None`` decides by the selection), anything else as
    ``char=``. With ``open_end``, a selection that runs to the end of the file is written without its
    end (``line=4,``, RFC 5147 section 3), so that it keeps running to the end as the file grows. A
    file not in UTF-8 gets the charset on each check, so a reader in another charset knows what was
    hashed (RFC 5147 section 3.1).
    """
    source = selection.source
    scheme: Scheme | None = None
    if lines is not False:
        scheme = line_scheme_of(selection, open_end=open_end)
    if scheme is None:
        if selection.empty and not (open_end and selection.end == len(source.text)):
            scheme = Scheme("char", selection.char_start)
        else:
            to_end = open_end and selection.end == len(source.text)
            scheme = Scheme("char", selection.char_start, None if to_end else selection.char_end, True)
    charset = None if same_charset(source.charset, DEFAULT_CHARSET) else source.charset
    checks = []
    if length:
        checks.append(IntegrityCheck("length", str(source.length), charset))
    if md5:
        checks.append(IntegrityCheck("md5", source.md5, charset))
    return Fragment(scheme, tuple(checks))


def make_reference(
    selection: Selection, *, length: bool = True, md5: bool = True, lines: bool | None = None, open_end: bool = False
) -> str:
    """``PATH#FRAGMENT`` for ``selection`` (see :func:`make_fragment`); a declared source's file as
    ``//NAME/PATH#FRAGMENT``, which ``txtfrag:`` before it makes ``txtfrag://NAME/PATH#FRAGMENT``."""
    fragment = make_fragment(selection, length=length, md5=md5, lines=lines, open_end=open_end)
    return f"{encode_path(selection.source.path)}#{fragment}"
