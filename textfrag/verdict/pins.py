"""Pinning: which references are protected against drift, and the pinned form of those that are not.

A reference is *pinned* when it carries an ``md5`` check: then any change of the quoted file makes it
stale, and the build fails. One without (the natural way to write a quote, ``src/app.py#line=10,20``, or
a GitHub anchor pasted from a permalink, ``#L11-L20``) shows whatever the file holds today: it can never
be stale. A ``length`` alone does not pin either: an edit that keeps the length goes unnoticed.

:func:`pinned_form` gives the text a reference is rewritten to by ``textfrag pin``:

- RFC 5147: the range exactly as written (open ends stay open, ``char=`` stays ``char=``, a missing
  fragment is the whole file, ``line=0,``), with ``length`` and ``md5`` added; a ``length`` it has is
  verified first (a wrong one is stale: reported, never pinned over); unknown checks are kept.
- A positional dialect (GitHub ``#L11-L20``, w3m ``#11``, draft-wilde ``line()``/``char()``, PDI): the RFC
  5147 reference for the same text, pinned.
- A text search (``match()``, Yee ``:words:``, W3C ``:~:text=``) finds its text wherever it moves, by
  design: it is left as it is, with that reason, unless ``convert`` turns it into the pinned RFC 5147
  reference for the text it finds now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..errors import TextFragError
from ..reference.fragment import IntegrityCheck, Reference
from ..reference.grammar import PREFIX
from ..reference.integrity import misspelt_checks
from ..source.cache import DEFAULT_CHARSET, SourceCache, same_charset
from .quoting import empty_problem, make_reference, quote

if TYPE_CHECKING:
    from ..intents.intent import Intent

__all__ = ["Pinned", "is_pinned", "pinned_form", "TEXT_SEARCH"]

#: dialects that find their text by searching for it: robust to moves by design
TEXT_SEARCH = frozenset({"yee", "textfragments"})


def is_pinned(ref: Reference) -> bool:
    """Whether ``ref`` is protected against drift: an RFC 5147 fragment with an ``md5`` check."""
    fragment = ref.fragment
    return fragment is not None and any(c.name == "md5" for c in fragment.known_checks)


def _searches(ref: Reference) -> bool:
    """Whether ``ref`` finds its text by searching (a text search, or a draft-wilde ``match()`` part)."""
    selector = ref.selector
    if selector is None:
        return False
    return selector.dialect in TEXT_SEARCH or (selector.dialect == "wilde" and "match(" in ref.text.partition("#")[2])


class Pinned(NamedTuple):
    """What ``textfrag pin`` does with one reference: its new text, or why it is left as it is."""

    #: the reference's pinned text (the ``txtfrag:`` prefix kept as written); None: left as it is
    text: str | None
    #: why it is left as it is (a text search, a disjoint selection, pinned already)
    reason: str | None = None


def pinned_form(cache: SourceCache, ref: Reference, *, convert: bool = False, intent: Intent | None = None) -> Pinned:
    """The pinned text of ``ref`` (see the module's documentation); raises :class:`TextFragError` for a
    bad reference and :class:`~textfrag.errors.StaleError` when a ``length`` it has is wrong. A reference
    to a whole file written with a selection ``intent`` (``:pyobject:``...) is pinned to the lines the
    intent selects, as ``textfrag make --pyobject`` writes it: the whole file pinned would be a range
    the intent contradicts."""
    if ref.path.startswith("https://"):  # (a pasted forge permalink: the same lines of the declared source)
        from .permalinks import from_permalink, is_permalink

        if is_permalink(ref.path):
            ref = from_permalink(cache, ref)
    misspelt = misspelt_checks(ref.fragment)
    if is_pinned(ref) and not misspelt:
        return Pinned(None, "pinned already")
    prefix = PREFIX if ref.text.startswith(PREFIX) else ""
    if ref.selector is not None:
        if _searches(ref) and not convert:
            return Pinned(None, "a text search finds its text wherever it moves, by design (`textfrag pin --convert` pins it)")
        q = quote(cache, ref, explain=False)
        empty = empty_problem(q, ref)
        if empty is not None:
            raise empty
        if len(q.selections) != 1:
            return Pinned(None, f"it selects {len(q.selections)} separate pieces; an RFC 5147 reference names one range")
        return Pinned(prefix + make_reference(q.selections[0]))
    q = quote(cache, ref, explain=False)
    if q.stale is not None:  # a wrong length: stale, never pinned over
        raise q.stale
    empty = empty_problem(q, ref)  # (a range past the end: the excerpt would show nothing)
    if empty is not None:
        raise empty
    source = q.source
    charset = None if same_charset(source.charset, DEFAULT_CHARSET) else source.charset
    added = []
    fragment = ref.fragment
    if fragment is None or not any(c.name == "length" for c in fragment.known_checks):
        added.append(IntegrityCheck("length", str(source.length), charset))
    if not is_pinned(ref):  # (pinned already: only a misspelt check's name is corrected)
        added.append(IntegrityCheck("md5", source.md5, charset))
    checks = ";".join(str(c) for c in added)
    head, hash_, fragment_text = ref.text.partition("#")
    for wrong, _ in misspelt:  # (lenght=, md6=: corrected, not kept beside the real ones)
        fragment_text = fragment_text.replace(f";{wrong.name}={wrong.value}", "", 1)
    if not hash_ and intent is not None:  # (the lines the intent selects)
        from ..intents.intent import intent_lines
        from ..reference.resolving import select_lines

        try:
            kept = intent_lines(source.text, intent, path=source.path)
        except TextFragError as why:
            raise TextFragError(f"{intent}: {why.message}", reference=ref.text) from None
        return Pinned(prefix + make_reference(select_lines(source, kept[0], kept[-1]), lines=True))
    if not hash_:  # the whole file: the open range from the start, as `make --whole` writes it
        return Pinned(f"{head}#line=0,;{checks}")
    return Pinned(f"{head}#{fragment_text};{checks}")


def generated_note(pages: dict[str, tuple[int, str]]) -> str:
    """The unpinned references that are not in their pages' files as written (a macro, an include or
    another plugin wrote them), which ``textfrag pin`` cannot pin where it looks: said, with the pages."""
    from pathlib import Path

    from ..documents.scan import scan_text
    from ..errors import TextFragError
    from ..reference.grammar import parse_reference

    generated: dict[str, int] = {}
    for name, (counted, path) in sorted(pages.items()):
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
        written = 0
        for f in scan_text(text, name, Path(path).suffix):
            try:
                written += not is_pinned(parse_reference(f.text))
            except TextFragError:
                continue
        if counted > written:
            generated[name] = counted - written
    if not generated:
        return ""
    n = sum(generated.values())
    where = ", ".join(generated)
    return (
        f"; {n} of them {'is' if n == 1 else 'are'} not in the files of {where} as written (a macro, an include or "
        "another plugin writes them), so `textfrag pin` cannot find them there: pin them where they are written"
    )
