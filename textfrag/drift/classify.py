"""Why a reference is stale: did the quoted text only move, or did it change?

RFC 5147's md5 covers the whole file, so any edit anywhere makes every reference to the file stale. For
a stale reference in a git work tree, the version of the file that the reference's md5 (or, lacking one,
its length) describes is looked up in history (textfrag.drift.history: one pass for all files); the excerpt
the reference selected there is then looked for in the file as it is now:

- *moved*: found exactly once (in the file it was renamed to, if it was); here is the new reference;
- *invisible*: found once, but only when line endings are ignored, or the whole text is the same and
  only the file's byte order mark or charset changed: the text shown is the same; re-pinned as a move;
- *changed*: not found, or found more than once (never guessed); a diff shows what changed, and the
  text the range (or the selection intent) selects now is what ``update --accept`` pins after review;
- *unknown*: no git, the file is not tracked, or no version in its history has that md5 or length.

An open range stays open: a quote that runs to the end of the file (or the whole file) whose text grew
or shrank is *changed*, never moved to a closed range. A reference with a selection intent (pyobject,
markers, section) is re-resolved by the intent: the same text is a move, other text a change.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import TextFragError
from ..intents.intent import Intent, intent_lines
from ..reference.fragment import Fragment, IntegrityCheck, Reference, Scheme, line_scheme_of
from ..reference.grammar import PREFIX
from ..reference.integrity import integrity_of
from ..reference.resolving import Selection, occurrences, resolve, select, select_lines
from ..source.cache import Source
from ..source.paths import encode_path
from .diffs import closest_diff, endings_of, from_normalized, lf_normalized, looks_of, mapped_lines
from .history import Fate, History, NoGit, Version

__all__ = ["Drift", "DriftKind", "classify", "classify_missing", "refresh_fragment", "reviewed_unknown"]

DriftKind = Literal["moved", "invisible", "changed", "unknown"]


@dataclass(frozen=True)
class Drift:
    """The outcome for one stale reference."""

    kind: DriftKind
    explanation: str
    #: when moved or invisible: the fragment that quotes the same text now
    new_fragment: Fragment | None = None
    #: when changed: the fragment pinned to what the range or intent selects now (``update --accept``)
    proposal: Fragment | None = None
    #: the path to write when the file was renamed (as the reference names files: under the root)
    new_path: str | None = None
    diff: str = ""  # when changed
    #: the quoted lines then (1-based, in the version the reference was made for) -> the same lines now;
    #: a line that is not a key changed (for options that count source lines: ``:emphasize-lines:``)
    line_map: tuple[tuple[int, int], ...] = ()
    old_first: int = 0
    new_first: int = 0
    #: when changed: the last line (1-based) of what the range or intent selects now (0: unknown)
    new_last: int = 0

    def new_reference(self, reference: Reference, *, accept: bool = False) -> str | None:
        """The reference as written, with its fragment (and its path, when renamed) replaced; the
        reviewed proposal of a changed one only with ``accept``."""
        fragment = self.new_fragment if self.new_fragment is not None else self.proposal if accept else None
        if fragment is None:
            return None
        head = reference.text.split("#", 1)[0]
        if self.new_path is not None:  # the prefix as written, the new path encoded where it must be
            head = (PREFIX if head.startswith(PREFIX) else "") + encode_path(self.new_path)
        return f"{head}#{fragment}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


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


# -- what the eye cannot see ---------------------------------------------------------------------------


# -- classification ------------------------------------------------------------------------------------


def classify(
    reference: Reference,
    current: Source,
    real_path: Path,
    history: History,
    *,
    charset: str,
    intent: Intent | None = None,
) -> Drift:
    """Classify a stale RFC 5147 reference to ``current`` (the file at ``real_path``)."""
    try:
        where = history.locate(real_path)
        if where is None:
            return Drift(
                "unknown", "the file is not in a git work tree, so the version the reference was made for cannot be found"
            )
        found = _version(reference.fragment, history, where, old_charset(reference.fragment, charset))
        if isinstance(found, Drift):
            return found
        return _compare(reference, found, current, intent)
    except NoGit as no_git:
        return Drift("unknown", f"{no_git}, so the version the reference was made for cannot be found")


def reviewed_unknown(reference: Reference, current: Source, selection: Selection, intent: Intent | None) -> Drift | None:
    """What ``update --accept`` pins of a stale reference whose history cannot tell moved from changed (no
    git, a version that was never committed): what its intent selects now, else its own range as the file
    is now; a person reviewed it. None when the intent selects nothing now."""
    fragment = reference.fragment
    assert fragment is not None
    new_sel = selection
    if intent is not None and fragment.scheme.name == "line":
        try:
            kept = intent_lines(current.text, intent, path=current.path)
        except TextFragError:
            return None
        new_sel = select_lines(current, kept[0], kept[-1])
    if new_sel.empty:
        return None
    return Drift(
        "changed",
        "accepted as it is now (history could not tell moved from changed)",
        proposal=refresh_fragment(new_sel, fragment),
        new_first=new_sel.first_line,
        new_last=max(new_sel.first_line, new_sel.last_line),
        old_first=selection.first_line,
    )


def classify_missing(
    reference: Reference,
    real_path: Path,
    history: History,
    *,
    charset: str,
    root: Path,
    load: object,
    intent: Intent | None = None,
) -> tuple[Fate | None, Drift | None]:
    """For a reference whose file does not exist: what became of it (deleted or renamed, from git) and,
    when it was renamed to a file under ``root``, the drift of the quote into that file. ``load`` is
    called with the new path (relative to the root) and returns its :class:`Source` (or raises)."""
    try:
        where = history.locate(real_path)
        if where is None:
            return None, None
        top, rel = where
        fragment = reference.fragment
        checked = fragment is not None and any(c.name in ("md5", "length") for c in fragment.checks)
        history.want(top, rel, fragment if checked else None, old_charset(fragment, charset), missing=True)
        fate = history.fate(top, rel)
        if fate is None:
            return fate, None
        if fate.renamed_to is None:  # deleted: its text may live on in a copy made before (or with) the deletion
            return fate, _copied(reference, history, where, fate, root, load, charset, intent) if checked else None
        new_real = top / fate.renamed_to
        try:  # (a declared source's file, //NAME/PATH, is renamed within its source)
            new_path = f"{top}/{fate.renamed_to}" if str(top).startswith("//") else new_real.relative_to(root).as_posix()
        except ValueError:
            return fate, Drift("unknown", f"it was renamed to {fate.renamed_to}, which is outside the root")
        if any(ch.isspace() or ch in "#()<>\"'`[]\\" for ch in new_path):
            return fate, Drift(
                "unknown", f"it was renamed to {new_path}, which a reference cannot name as written; edit it by hand"
            )
        try:
            current = load(new_path)  # type: ignore[operator]
        except TextFragError as err:
            return fate, Drift("unknown", f"it was renamed to {new_path}, which cannot be read: {err.message}")
        if not checked:
            return fate, Drift(
                "unknown",
                f"the reference has no md5 or length, so whether {new_path} still quotes the same text is unknown",
                new_path=new_path,
            )
        found = _version(fragment, history, where, old_charset(fragment, charset))
        if isinstance(found, Drift):
            return fate, found
        drift = _compare(reference, found, current, intent)
        return fate, dataclasses.replace(drift, new_path=new_path)
    except NoGit:
        return None, None


def _copied(
    reference: Reference,
    history: History,
    where: tuple[Path, str],
    fate: Fate,
    root: Path,
    load: object,
    charset: str,
    intent: Intent | None,
) -> Drift | None:
    """For a deleted file: the quote followed into the file that holds its text now, among the files added
    or changed between the version the reference was made for and the deletion (copied, then deleted).
    The file git pairs with the deleted one (its copy detection) is taken when the text moved there;
    otherwise the text must be found, moved, in exactly one file. None when it is nowhere (or in several)."""
    fragment = reference.fragment
    found = _version(fragment, history, where, old_charset(fragment, charset))
    if isinstance(found, Drift) or fragment is None:
        return None
    old_sel = resolve(found.source, fragment)
    if old_sel.empty:
        return None
    top, rel = where
    wanted = lf_normalized(old_sel.text)
    moved: list[tuple[bool, str, Drift]] = []
    for path, paired in history.successors(top, found.commit, fate.commit, rel):
        try:
            new_path = (top / path).relative_to(root).as_posix()
        except ValueError:
            continue  # outside the root: a reference cannot name it
        if not (top / path).is_file():
            continue  # changed since, or gone again
        try:
            current = load(new_path)  # type: ignore[operator]
        except TextFragError:
            continue
        if wanted not in lf_normalized(current.text):  # (a cheap test before the comparison)
            continue
        drift = _compare(reference, found, current, intent)
        if drift.kind in ("moved", "invisible"):
            moved.append((paired, new_path, drift))
    chosen = [m for m in moved if m[0]] or moved
    if len(chosen) > 1:
        names = ", ".join(m[1] for m in chosen[:3]) + (", ..." if len(chosen) > 3 else "")
        return Drift("unknown", f"its quoted text is now in {len(chosen)} files ({names}); textfrag will not guess which")
    if not chosen:
        return None
    _, new_path, drift = chosen[0]
    how = "a copy git pairs with it" if chosen[0][0] else "the one file that holds the quoted text now"
    return dataclasses.replace(drift, new_path=new_path, explanation=f"its text is in {new_path} ({how}): {drift.explanation}")


def old_charset(fragment: Fragment | None, charset: str) -> str:
    """The charset the reference was made in: the one its checks name, else the configured one."""
    for c in fragment.checks if fragment is not None else ():
        if c.charset:
            return c.charset
    return charset


def _version(fragment: Fragment | None, history: History, where: tuple[Path, str], charset: str) -> Version | Drift:
    """The version of the file the reference was made for, or the unknown outcome saying why not."""
    if fragment is None or not any(c.name in ("md5", "length") for c in fragment.checks):
        return Drift("unknown", "the reference has no md5 or length to find the version it was made for")
    top, rel = where
    history.want(top, rel, fragment, charset)
    versions = history.versions(top, rel, fragment)
    by_md5 = any(c.name == "md5" for c in fragment.known_checks)
    if not versions:
        n = history.looked_at(top, rel)
        shallow = (
            "; this clone is shallow (CI's default checkout), so git has only part of the history: fetch it with "
            "`git fetch --unshallow` (GitHub Actions: actions/checkout with fetch-depth: 0)"
            if history.shallow(top)
            else ""
        )
        if not n:
            return Drift("unknown", f"git has no history of {rel}{shallow}")
        return Drift(
            "unknown",
            f"no version of {rel} in its git history ({_plural(n, 'version')}) "
            f"has the reference's {'md5' if by_md5 else 'length'}{shallow}",
        )
    first = versions[0]
    for other in versions[1:]:
        if resolve(other.source, fragment).text != resolve(first.source, fragment).text:
            # a length alone fits two versions that quote different texts: never guessed
            return Drift(
                "unknown",
                f"the reference has a length but no md5, and two versions of {rel} with that length "
                f"({first.short} and {other.short}) quote different texts, so which one it was made for is unknown",
            )
    return first


def _moved(kind: DriftKind, explanation: str, old_sel: Selection, new_sel: Selection, fragment: Fragment) -> Drift:
    return Drift(
        kind,
        explanation,
        refresh_fragment(new_sel, fragment),
        line_map=mapped_lines(old_sel, new_sel),
        old_first=old_sel.first_line,
        new_first=new_sel.first_line,
    )


def _changed(explanation: str, old_sel: Selection, diff: str, proposal: Selection | None, fragment: Fragment) -> Drift:
    return Drift(
        "changed",
        explanation,
        proposal=refresh_fragment(proposal, fragment) if proposal is not None and not proposal.empty else None,
        diff=diff,
        line_map=mapped_lines(old_sel, proposal) if proposal is not None else (),
        old_first=old_sel.first_line,
        new_first=proposal.first_line if proposal is not None else 0,
        new_last=max(proposal.first_line, proposal.last_line) if proposal is not None else 0,
    )


def _invisible(old: Source, current: Source, old_sel: Selection) -> tuple[Selection, str] | None:
    """Where the old excerpt is now when only invisible characters changed, and what changed."""
    if old.text == current.text and old.md5 != current.md5:
        what = []
        if old.bom != current.bom:
            what.append("its byte order mark was " + ("removed" if old.bom else "added"))
        if old.charset != current.charset:
            what.append(f"its charset changed from {old.charset} to {current.charset}")
        return select(current, old_sel.start, old_sel.end), " and ".join(what) or "only its bytes changed, not its text"
    if "\x85" in old.text or "\x85" in current.text or "\r" not in old_sel.text + current.text:
        return None
    norm_old, norm_cur = lf_normalized(old_sel.text), lf_normalized(current.text)
    at = norm_cur.find(norm_old)
    if at < 0 or norm_cur.find(norm_old, at + 1) >= 0 or not norm_old:
        return None
    start, end = from_normalized(current, norm_cur, at), from_normalized(current, norm_cur, at + len(norm_old))
    new_sel = select(current, start, end)
    return (
        new_sel,
        f"only line endings changed in the quoted lines ({endings_of(old_sel.text)} then, {endings_of(new_sel.text)} now)",
    )


def _make_hint(path: str, lines: Selection) -> str:
    """How to print a new reference to the file: ``textfrag make src/app.py --lines 4-6`` (lines that are
    a start, which the writer changes to the ones to quote)."""
    import shlex

    path = f"txtfrag:{path}" if path.startswith("//") else path  # (a declared source's file, as references name it)
    return f"`textfrag make {shlex.quote(path)} --lines {lines.first_line}-{lines.last_line}` prints one; give the lines to quote"


def _compare(reference: Reference, found: Version, current: Source, intent: Intent | None) -> Drift:
    fragment = reference.fragment
    assert fragment is not None
    commit, old = found.commit, found.source
    old_sel = resolve(old, fragment)
    short = found.short
    label = current.path
    then = f"{old_sel.lines_display()} in {short}"
    if old_sel.empty:
        return Drift(
            "changed", f"the reference selects no text (a position), so where it moved to cannot be told (made for {short})"
        )
    scheme = fragment.scheme
    open_range = scheme.is_range and (scheme.end is None or scheme.start is None)
    if intent is not None and scheme.name == "line":
        return _by_intent(fragment, intent, old, old_sel, current, then, label, short)
    hits = occurrences(current, old_sel.text, 5)
    if scheme.name == "line":  # a line quote moves only to whole lines (re-indented text is changed)
        hits = [h for h in hits if whole_lines(current.text, h, h + len(old_sel.text))]
    now = resolve(current, fragment)
    if len(hits) == 1 and (old.text != current.text or old.md5 == current.md5):
        new_sel = select(current, hits[0], hits[0] + len(old_sel.text))
        if not _same_place(old, old_sel, current, new_sel):
            return _changed(
                f"the quoted text ({then}) occurs once now, as {new_sel.lines_display()}, but it is short and the lines "
                "around it are not the ones it had, so textfrag will not take it for the same place: review it, then "
                f"make a new reference ({_make_hint(label, now)}), or pin what the range quotes now ({now.lines_display()}) "
                "with `textfrag update --accept --write`",
                old_sel,
                closest_diff(old_sel, current, label, commit, window=now),
                now,
                fragment,
            )
        if not open_range or _still_open(scheme, current, new_sel):
            where = (
                "still where it was: only other parts of the file changed"
                if (new_sel.first_line, new_sel.last_line) == (old_sel.first_line, old_sel.last_line)
                else f"now {new_sel.lines_display()}"
            )
            return _moved(
                "moved",
                f"moved: the quoted text ({then}) is unchanged and {where}; "
                "run `textfrag update --write` to re-pin the reference",
                old_sel,
                new_sel,
                fragment,
            )
    invisible = _invisible(old, current, old_sel) if len(hits) <= 1 else None
    if invisible is not None and scheme.name == "line" and not whole_lines(current.text, invisible[0].start, invisible[0].end):
        invisible = None
    if invisible is not None and (not open_range or _still_open(scheme, current, invisible[0])):
        new_sel, what = invisible
        moved = f", and it is now {new_sel.lines_display()}" if new_sel.first_line != old_sel.first_line else ""
        return _moved(
            "invisible",
            f"the text shown is unchanged ({then}): {what}{moved}; run `textfrag update --write` to re-pin the reference",
            old_sel,
            new_sel,
            fragment,
        )
    if open_range:
        # an open range quotes up to the end (or from the start) of the file, as it is: text added or
        # removed there belongs to the quote, so finding the old text elsewhere is not a move
        side = "the end" if scheme.end is None else "the start"
        whole = ", the whole file" if scheme.start in (None, 0) and scheme.end is None else ""
        return _changed(
            f"changed: the quote runs to {side} of the file ({then}{whole}), and the text there is different now; "
            "review the diff, then `textfrag update --accept --write` pins what it quotes now",
            old_sel,
            closest_diff(old_sel, current, label, commit, window=now),
            now,
            fragment,
        )
    if hits:
        where = ", ".join(str(current.line_of_index(h)) for h in hits)
        return _changed(
            f"the quoted text ({then}) now occurs {len(hits)}{'+' if len(hits) == 5 else ''} times "
            f"(starting at lines {where}); textfrag will not guess which one: edit the reference by hand "
            f"({_make_hint(label, select(current, hits[0], hits[0] + len(old_sel.text)))})",
            old_sel,
            "",
            None,
            fragment,
        )
    return _changed(
        f"changed: the quoted text ({then}) is no longer in the file; review the diff, then make a new reference "
        f"({_make_hint(label, now)}), or pin what the range quotes now ({now.lines_display()}) with "
        "`textfrag update --accept --write`",
        old_sel,
        closest_diff(old_sel, current, label, commit),
        now,
        fragment,
    )


def whole_lines(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` begins at a line's start and ends at a line's end (after its line ending,
    or at the end of the text): what a ``line=`` range can select."""

    def boundary(at: int) -> bool:
        if at in (0, len(text)):
            return True
        before = text[at - 1]
        return before in "\n\x85" or (before == "\r" and text[at] != "\n")

    return boundary(start) and boundary(end)


#: a quote of at most this many lines is only taken to have moved where a line beside it moved with it
SHORT_LINES = 2


#: blank lines looked past for the nearest line of text beside a short quote
MAX_BLANK_NEIGHBOURS = 50


def _neighbour(source: Source, number: int, step: int) -> str | None:
    """The nearest line with text from line ``number`` on (1-based, going by ``step``), as it reads;
    None at the file's start or end."""
    for _ in range(MAX_BLANK_NEIGHBOURS):
        if number < 1 or number > source.line_count:
            return None
        line = looks_of(source.text[source.index_of_line(number - 1) : source.index_of_line(number)])
        if line.strip():
            return line
        number += step
    return ""


def _same_place(old: Source, old_sel: Selection, current: Source, new_sel: Selection) -> bool:
    """Whether text found once elsewhere can be taken for the quote that moved: a long quote can; a short
    one (a line or two, which may well occur once by chance) only when the nearest line of text before
    it or after it is the one it had (or the file's start or end is, as it was)."""
    if old_sel.last_line - old_sel.first_line + 1 > SHORT_LINES:
        return True
    before = _neighbour(old, old_sel.first_line - 1, -1), _neighbour(current, new_sel.first_line - 1, -1)
    after = _neighbour(old, old_sel.last_line + 1, 1), _neighbour(current, new_sel.last_line + 1, 1)
    return before[0] == before[1] or after[0] == after[1]


def _still_open(scheme: Scheme, current: Source, new_sel: Selection) -> bool:
    """Whether the text found now still reaches the open side of the range (the end, or the start)."""
    if scheme.end is None and new_sel.end != len(current.text):
        return False
    return not ((scheme.start is None or scheme.start == 0) and new_sel.start != 0)


def _by_intent(
    fragment: Fragment, intent: Intent, old: Source, old_sel: Selection, current: Source, then: str, label: str, short: str
) -> Drift:
    """Re-resolve by the selection intent: what it selects now is the new range."""
    try:
        kept = intent_lines(current.text, intent, path=current.path)
    except TextFragError as why:
        return _changed(
            f"changed: {intent} no longer selects anything ({why.message}); it quoted {then}; edit the reference by hand",
            old_sel,
            closest_diff(old_sel, current, label, short),
            None,
            fragment,
        )
    new_sel = select_lines(current, kept[0], kept[-1])
    if new_sel.text == old_sel.text:
        same_place = (new_sel.first_line, new_sel.last_line) == (old_sel.first_line, old_sel.last_line)
        return _moved(
            "moved",
            f"moved: {intent} selects the same text ({then}) "
            + ("still where it was: only other parts of the file changed" if same_place else f"now as {new_sel.lines_display()}")
            + "; run `textfrag update --write` to re-pin the reference",
            old_sel,
            new_sel,
            fragment,
        )
    if lf_normalized(new_sel.text) == lf_normalized(old_sel.text):
        return _moved(
            "invisible",
            f"the text shown is unchanged: {intent} selects {new_sel.lines_display()} now ({then}), and only line "
            f"endings changed ({endings_of(old_sel.text)} then, {endings_of(new_sel.text)} now); "
            "run `textfrag update --write` to re-pin the reference",
            old_sel,
            new_sel,
            fragment,
        )
    return _changed(
        f"changed: {intent} selects different text now ({new_sel.lines_display()}; it quoted {then}); review the diff, "
        "then `textfrag update --accept --write` pins what it selects now",
        old_sel,
        closest_diff(old_sel, current, label, short, window=new_sel),
        new_sel,
        fragment,
    )


def why_missing(fate: Fate, rel: str) -> str:
    """The sentence added to ``no such file``: deleted (when, in which commit) or renamed."""
    if fate.between is not None:  # (a declared source's file: between the commit quoted and the one followed now)
        if fate.renamed_to is not None:
            how = "" if fate.similarity == 100 else f" and edited ({fate.similarity}% similar, as git counts)"
            return f"{fate.between}, it was renamed{how} to {fate.renamed_to}"
        return f"{fate.between}, it was deleted"
    if fate.renamed_to is not None:
        how = "" if fate.similarity == 100 else f" and edited ({fate.similarity}% similar, as git counts)"
        if fate.pending == "staged":
            return f"git shows it renamed{how} to {fate.renamed_to} in the index (staged, not committed yet)"
        if fate.pending == "moved":
            same = ": the same content" if fate.similarity == 100 else f", {fate.similarity}% similar, as git counts"
            return f"it was moved to {fate.renamed_to} in the work tree (not committed yet{same})"
        return f"git history shows it renamed{how} to {fate.renamed_to} in {fate.short} ({fate.date})"
    if fate.pending is not None:
        where = "the index (staged, not committed yet)" if fate.pending == "staged" else "the work tree (not committed yet)"
        return f"it is deleted in {where}"
    if fate.last_name is not None:
        return f"git history shows it renamed to {fate.last_name}, which was deleted in {fate.short} ({fate.date})"
    return f"git history shows {rel} deleted in {fate.short} ({fate.date})"
