"""What an engine shows of a quote, decided once: the engine-neutral excerpt model.

An adapter (the Sphinx extension, the MkDocs plugin, the next ones) turns a verified :class:`Quote` and
the options its user wrote into an :class:`Excerpt` with :func:`excerpt_of`, then only translates that
into its engine's nodes or HTML. Everything a reader sees is decided here: the pieces and their text
(line endings as ``\\n``, dedented), the file's line number of each piece, the lines to emphasize, the
caption, the anchor, the contract's ``data-txtfrag-*`` values (the manual's reference/html page), the source
link, the elision between pieces, and the state with its message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import TextFragError
from ..reference.linespec import parse_line_list
from ..reference.resolving import Selection
from ..source.hidden_text import bidi_note
from .i18n import Labels, Translate
from .presentation import (
    ELISION,
    anchor_id,
    dedent,
    default_caption,
    display_text,
    emphasized_in_pieces,
    language_for,
    lines_label,
    source_url,
)
from .quoting import Quote

__all__ = ["ELISION", "INLINE_ELISION", "Excerpt", "Piece", "State", "diff_text", "excerpt_of", "failure_summary", "stale_notice"]

#: what stands between the pieces of a disjoint selection in an inline excerpt (a block has ELISION on a
#: line of its own)
INLINE_ELISION = f" {ELISION} "

State = Literal["current", "stale", "unverifiable"]


@dataclass(frozen=True)
class Piece:
    """One contiguous part of an excerpt (a disjoint selection has several, in file order)."""

    #: the text as shown: line endings as ``\n``, dedented if asked
    text: str
    #: the file's own number of the piece's first line (1-based)
    first_line: int
    #: lines to emphasize, 1-based within the piece (what Pygments' ``hl_lines`` takes)
    emphasized: tuple[int, ...] = ()
    #: the number shown beside the first line when lines are numbered, when not the file's own
    number_from: int | None = None

    @property
    def number(self) -> int:
        """The number shown beside the first line when lines are numbered (the file's own by default)."""
        return self.first_line if self.number_from is None else self.number_from


@dataclass(frozen=True)
class Excerpt:
    """Everything an engine shows of one quote."""

    pieces: tuple[Piece, ...]
    #: the caption: the user's, or the path and the 1-based lines; "" for none
    caption: str
    #: the stable id the excerpt's element gets (an adapter makes it unique on its page)
    anchor: str
    #: the Pygments language
    language: str
    #: ``data-txtfrag-ref``: the reference as written, without the ``txtfrag:`` prefix
    ref: str
    md5: str
    length: int
    charset: str
    #: the "view source" URL, when a template is configured
    source_url: str | None = None
    state: State = "current"
    #: for a stale excerpt, what is wrong (the drift outcome included)
    problem: str | None = None
    #: for a stale excerpt, the short reason a reader is shown beside it (the build log has the rest)
    notice: str | None = None
    #: the fixed words shown beside the excerpt, in the reader's language
    labels: Labels = Labels.of()

    @property
    def data(self) -> dict[str, str]:
        """The contract's ``data-txtfrag-*`` attributes, without their prefix (the manual's reference/html page)."""
        return {"ref": self.ref, "md5": self.md5, "length": str(self.length), "charset": self.charset, "state": self.state}

    @property
    def text(self) -> str:
        """The whole excerpt as a block shows it: the pieces with a line ``⋯`` between them."""
        out = ""
        for i, piece in enumerate(self.pieces):
            if i:
                out += ("" if out.endswith("\n") else "\n") + ELISION + "\n"
            out += piece.text
        return out

    @property
    def hidden(self) -> str | None:
        """What to warn of when the excerpt holds bidirectional control characters (textfrag.source.hidden_text)."""
        for piece in self.pieces:
            if not piece.text.isascii():
                note = bidi_note(piece.text, piece.first_line)
                if note is not None:
                    return note
        return None

    @property
    def inline_text(self) -> str:
        """The excerpt as running text shows it: the pieces joined by ``⋯`` with a space each side, without
        the line ending that ends the last one (a quote of one whole line reads as part of its sentence)."""
        text = INLINE_ELISION.join(p.text for p in self.pieces)
        return text[:-1] if text.endswith("\n") else text


def excerpt_of(
    q: Quote,
    *,
    caption: str | None = None,
    language: str | None = None,
    emphasize: str | None = None,
    emphasize_in_excerpt: str | None = None,
    dedent_by: int | None | Literal[False] = False,
    source_url_template: str | None = None,
    number_from: int | None = None,
    tab_width: int | None = None,
    auto_caption: bool = True,
    prepend: str | None = None,
    append: str | None = None,
    keep: list[int] | None = None,
    translate: Translate | None = None,
) -> Excerpt:
    """The excerpt of ``q`` with the options a user wrote; :class:`TextFragError` for a bad option.

    ``emphasize`` names lines in the file's own numbers (``:emphasize-lines: 12,14-16``);
    ``emphasize_in_excerpt`` names them 1-based within the first piece, as pymdownx counts
    (``hl_lines="2 4-6"``). ``dedent_by``: False leaves the text, None removes the common indentation,
    a number removes that many spaces. ``caption`` None (not written) is the path and lines, or none
    without ``auto_caption``; "" (written empty) is none. Lines are numbered as
    in the file, or from ``number_from`` on (``:lineno-start:``; the pieces of a disjoint selection
    then count on from each other, as literalinclude numbers the lines it joins). ``tab_width``
    expands tabs before anything is dedented, as literalinclude's ``:tab-width:`` does. ``prepend`` and
    ``append`` are lines of the document's own, shown before the first piece and after the last (as
    literalinclude's ``:prepend:``/``:append:``: not dedented, numbered with the block, never verified).
    ``keep``: the file's numbers of the lines shown, when a ``:lines:`` intent with gaps (``1-9,14-16``)
    selects some of the pinned lines: they are joined as literalinclude joins them (no mark between),
    emphasized by their file numbers, and numbered on from ``number_from``. ``translate`` puts what a
    reader sees (the caption, the stale reason, the labels) in the site's language (textfrag.verdict.i18n).
    """
    _ = translate or str
    pieces = q.selections
    texts = [display_text(p.text) for p in pieces]
    if tab_width is not None:
        if not 1 <= tab_width <= 64:
            raise TextFragError(f"tab-width {tab_width} is not a number of columns from 1 to 64")
        texts = [t.expandtabs(tab_width) for t in texts]
    if keep is not None:
        return _kept(
            q, texts[0], keep, caption, auto_caption, language, emphasize, dedent_by, source_url_template, number_from, _
        )
    numbers: list[int | None] = [None] * len(pieces)
    if number_from is not None:
        if number_from < 0:
            raise TextFragError(f"lineno-start {number_from} is not a line number")
        shown = number_from
        for i, p in enumerate(pieces):
            numbers[i] = shown
            shown += max(1, p.last_line - p.first_line + 1)
    if dedent_by is not False:
        texts = [dedent(t, dedent_by) for t in texts]
    marks: list[list[int]] = [[] for _ in pieces]
    if emphasize is not None:
        marks = emphasized_in_pieces(emphasize, list(pieces))
    if emphasize_in_excerpt is not None and emphasize_in_excerpt.strip():
        marks[0] = marks[0] + _within(emphasize_in_excerpt, pieces[0])
    if prepend:
        texts[0] = prepend + "\n" + texts[0]
        marks[0] = [m + 1 for m in marks[0]]
        if number_from is None:  # the file's lines keep their numbers: the added line has the one before
            numbers[0] = pieces[0].first_line - 1
        else:  # counted with the block, as literalinclude counts it
            numbers = [n if i == 0 or n is None else n + 1 for i, n in enumerate(numbers)]
    if append:
        texts[-1] = texts[-1] + append + "\n"
    ref = q.reference
    stale = q.stale
    return Excerpt(
        pieces=tuple(
            Piece(t, p.first_line, tuple(m), number_from=n) for t, p, m, n in zip(texts, pieces, marks, numbers, strict=True)
        ),
        caption=(default_caption(list(pieces), _) if auto_caption else "") if caption is None else caption,
        anchor=anchor_id(ref),
        language=language or language_for(q.source.path),
        ref=ref.text.removeprefix("txtfrag:"),
        md5=q.source.md5,
        length=q.source.length,
        charset=q.source.charset,
        source_url=source_url(source_url_template, q.selection),
        state="current" if stale is None else "stale",
        problem=None if stale is None else stale.message,
        notice=stale_notice(q, _),
        labels=Labels.of(_),
    )


def _kept(
    q: Quote,
    text: str,
    keep: list[int],
    caption: str | None,
    auto_caption: bool,
    language: str | None,
    emphasize: str | None,
    dedent_by: int | None | Literal[False],
    source_url_template: str | None,
    number_from: int | None,
    _: Translate,
) -> Excerpt:
    """The excerpt of the pinned lines ``keep`` (file numbers, in order) of a one-piece quote, joined."""
    piece = q.selection
    if len(q.selections) != 1 or not keep or keep[0] < piece.first_line or keep[-1] > piece.last_line:
        raise TextFragError(f":lines: selects lines outside the pinned {piece.lines_display()}")
    lines = text.splitlines(keepends=True)
    wanted = set(keep)
    shown = "".join(line for n, line in enumerate(lines, piece.first_line) if n in wanted)
    if dedent_by is not False:
        shown = dedent(shown, dedent_by)
    position = {n: i for i, n in enumerate(keep, 1)}
    marks: list[int] = []
    for wanted_range in parse_line_list(emphasize, "emphasize-lines") if emphasize else []:
        for n in range(wanted_range.first, min(wanted_range.last, piece.last_line) + 1):
            if n not in position:
                raise TextFragError(f"emphasize-lines {n} is not one of the lines shown ({piece.source.path} :lines:)")
            marks.append(position[n])
        if wanted_range.last > piece.last_line:
            raise TextFragError(f"emphasize-lines {wanted_range} is outside the excerpt, which is {piece.lines_display()}")
    ref = q.reference
    stale = q.stale
    return Excerpt(
        pieces=(Piece(shown, piece.first_line, tuple(marks), number_from=number_from),),
        caption=(default_caption([piece], _) if auto_caption else "") if caption is None else caption,
        anchor=anchor_id(ref),
        language=language or language_for(q.source.path),
        ref=ref.text.removeprefix("txtfrag:"),
        md5=q.source.md5,
        length=q.source.length,
        charset=q.source.charset,
        source_url=source_url(source_url_template, piece),
        state="current" if stale is None else "stale",
        problem=None if stale is None else stale.message,
        notice=stale_notice(q, _),
        labels=Labels.of(_),
    )


def _within(spec: str, piece: Selection) -> list[int]:
    """``2 4-6``: lines 1-based within the piece, bounds checked before anything is expanded."""
    count = max(1, piece.last_line - piece.first_line + 1)
    out: list[int] = []
    for wanted in parse_line_list(spec, "hl_lines", separators=" ,"):
        if wanted.last > count:
            lines = f"{count} line{'s' if count != 1 else ''}"
            raise TextFragError(f"hl_lines {wanted} is outside the excerpt, which has {lines}")
        out.extend(range(wanted.first, wanted.last + 1))
    return out


def failure_summary(count: int | Sequence[str]) -> str:
    """How every engine counts what fails its build: a number of references, or the problems as said
    (``FILE:LINE: REF: problem``, located or not), those of guarded includes counted apart ("2 references
    and 1 include are stale or broken")."""
    if isinstance(count, int):
        total, includes = count, 0
    else:
        total, includes = len(count), sum(1 for said in count if _INCLUDE_SAID.match(said))
    refs = total - includes
    parts = [f"{refs} reference{'s' if refs != 1 else ''}"] if refs or not includes else []
    parts += [f"{includes} include{'s' if includes != 1 else ''}"] if includes else []
    return f"textfrag: {' and '.join(parts)} {'is' if total == 1 else 'are'} stale or broken"


#: a problem of a guarded include, as said: its key first (textfrag.guard.includes), after its place
_INCLUDE_SAID = re.compile(r"(?:[^\n]*?:\d+: )?(?:literalinclude|snippet|include) \S")


def stale_notice(q: Quote, _: Translate = str) -> str | None:
    """What a reader is told beside a stale excerpt that a build showed anyway (warning mode, serve): the
    file changed since the excerpt was verified, and, when the history said so, where the quoted text
    is now; in the reader's language with ``_``. None for a current one."""
    stale = q.stale
    if stale is None:
        return None
    path = q.source.path
    sel = q.selection
    shown = sel.lines_display() if sel.empty else lines_label(sel.first_line, sel.last_line, _)
    drift = stale.outcome
    kind = getattr(drift, "kind", None)
    if kind == "invisible":
        return _(
            "{path} changed since this excerpt was verified, but only its line endings, byte order mark or charset: "
            "the text is the same."
        ).format(path=path)
    if kind == "moved":
        pairs = getattr(drift, "line_map", ()) or ((0, int(getattr(drift, "new_first", 0) or 0)),)
        where = lines_label(pairs[0][1], pairs[-1][1], _)
        return _("{path} changed since this excerpt was verified: the quoted text is now at {where}; this shows {shown}.").format(
            path=path, where=where, shown=shown
        )
    if kind == "changed":
        return _(
            "{path} changed since this excerpt was verified, and so did the quoted text: this shows what {shown} hold now."
        ).format(path=path, shown=shown)
    return _("{path} changed since this excerpt was verified: this shows what {shown} hold now.").format(path=path, shown=shown)


def diff_text(old: Quote, new: Quote, old_name: str, new_name: str, *, tab_width: int | None = None) -> str:
    """What literalinclude's ``:diff:`` shows: a unified diff from the old quote's text to the new one's,
    line endings read as ``\\n`` (a text file opened in Python) and tabs expanded when asked, with the
    two names in its header."""
    import difflib  # only a diff pays for it

    def lines(q: Quote) -> list[str]:
        text = q.text.replace("\r\n", "\n").replace("\r", "\n")
        return (text.expandtabs(tab_width) if tab_width else text).splitlines(True)

    return "".join(difflib.unified_diff(lines(old), lines(new), old_name, new_name))
