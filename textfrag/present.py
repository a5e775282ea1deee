"""What both engine adapters show of a quote, decided once: anchors, captions, languages, line numbers.

No HTML here (the adapters render); these are the engine-neutral decisions that the Sphinx extension and
the MkDocs plugin must make the same way.
"""

from __future__ import annotations

import fnmatch
import re
import textwrap
from collections.abc import Container
from functools import lru_cache

from .errors import TextFragError
from .fragment import Reference
from .resolve import Selection

__all__ = [
    "anchor_id",
    "identity",
    "unique_anchor",
    "default_caption",
    "display_text",
    "language_for",
    "source_url",
    "emphasized_lines",
    "dedent",
]

_NOT_ID = re.compile(r"[^a-z0-9]+")
_LINE_ENDING = re.compile("\r\n|\r\x85|[\r\n\x85]")


def anchor_id(reference: Reference) -> str:
    """A stable HTML id from PATH and the selecting part of the fragment (not its integrity checks, so
    that refreshing an md5 keeps links to the excerpt working).

    >>> from textfrag import parse_reference
    >>> anchor_id(parse_reference("src/app.py#line=10,20;md5=" + "0" * 32))
    'txtfrag-src-app-py-line-10-20'
    """
    what = f"{reference.path}-{identity(reference)[1]}" if reference.selector or reference.fragment else reference.path
    slug = _NOT_ID.sub("-", what.lower()).strip("-")
    return f"txtfrag-{slug or 'file'}"


def identity(reference: Reference) -> tuple[str, str]:
    """What makes two references "the same excerpt" for links and anchors: the path and what is
    selected, not the integrity checks (so refreshing an md5 changes neither)."""
    if reference.selector is not None:
        return reference.path, str(reference.selector)
    return reference.path, "" if reference.fragment is None else str(reference.fragment.scheme)


def unique_anchor(base: str, taken: Container[str]) -> str:
    """``base``, or ``base-2``, ``base-3``... whichever is not yet taken on the page."""
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def default_caption(selection: Selection | list[Selection]) -> str:
    """``src/app.py, lines 11-20`` (1-based, as editors number); disjoint pieces are listed in order:
    ``src/app.py, line 1 and lines 30-31``."""
    pieces = selection if isinstance(selection, list) else [selection]
    where = [p.lines_display() for p in pieces]
    listed = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
    return f"{pieces[0].source.path}, {listed}"


def display_text(text: str) -> str:
    """The excerpt with every line ending (CR LF, CR, NEL, CR NEL) as ``\\n``, as HTML shows it."""
    if "\r" not in text and "\x85" not in text:
        return text
    return _LINE_ENDING.sub("\n", text)


def language_for(path: str, default: str = "text") -> str:
    """The Pygments alias for a file name (``app.py`` -> ``python``); ``default`` when unknown.

    >>> language_for("src/app.py"), language_for("Makefile"), language_for("notes.unknown-ext")
    ('python', 'make', 'text')
    """
    name = path.rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and not _special_name(name):
        # Pygments matches a name against every lexer's patterns (~8 ms); for a name that no
        # pattern other than "*.ext" fits, the answer depends on the extension alone
        return _language_for_name(f"x.{ext}") or default
    return _language_for_name(name) or default


@lru_cache(maxsize=512)
def _language_for_name(name: str) -> str | None:
    try:
        from pygments.lexers import find_lexer_class_for_filename
        from pygments.util import ClassNotFound
    except ImportError:  # Pygments is a dependency of the engines, not of the core
        return None
    try:
        lexer = find_lexer_class_for_filename(name)
    except ClassNotFound:
        return None
    return lexer.aliases[0] if lexer is not None and lexer.aliases else None


@lru_cache(maxsize=1)
def _special_patterns() -> re.Pattern[str] | None:
    """Pygments' file name patterns other than ``*.ext`` (Makefile, *.[1-9], Dockerfile...), as one regex."""
    try:
        from pygments.lexers._mapping import LEXERS
    except ImportError:
        return None
    simple = re.compile(r"\*\.[^*?\[\].]+")  # one extension: "*.css.j2" is special
    special = {p for entry in LEXERS.values() for p in entry[3] if not simple.fullmatch(p)}
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in sorted(special)))


def _special_name(name: str) -> bool:
    rx = _special_patterns()
    return rx is None or rx.match(name) is not None


def source_url(template: str | None, selection: Selection) -> str | None:
    """Fill a "view source" template such as ``https://host/repo/blob/main/{path}#L{first}-L{last}``."""
    if not template:
        return None
    last = max(selection.last_line, selection.first_line)
    try:
        return template.format(path=selection.source.path, first=selection.first_line, last=last)
    except (KeyError, IndexError, ValueError) as exc:
        raise TextFragError(
            f"the source URL template {template!r} is not valid: use {{path}}, {{first}} and {{last}} ({exc})"
        ) from None


def emphasized_lines(spec: str, selection: Selection | list[Selection]) -> list[int] | list[list[int]]:
    """Lines to emphasise, written in the source file's own line numbers (``12,14-16``), as positions
    1..n within the excerpt (what Pygments' ``hl_lines`` takes). Lines outside the excerpt are an error.
    For disjoint pieces (a list), one such list per piece.
    """
    if isinstance(selection, list):
        wanted: set[int] = set()
        for part in spec.replace(" ", "").split(","):
            a, sep, b = part.partition("-")
            if not a.isdigit() or (sep and not b.isdigit()):
                raise TextFragError(f"emphasize-lines takes source line numbers such as 12,14-16, not {spec!r}")
            wanted.update(range(int(a), (int(b) if sep else int(a)) + 1))
        per_piece = [[n - p.first_line + 1 for n in sorted(wanted) if p.first_line <= n <= p.last_line] for p in selection]
        if sum(map(len, per_piece)) != len(wanted):
            raise TextFragError(f"emphasize-lines {spec} names lines outside the excerpt's pieces")
        return per_piece
    first, last = selection.first_line, selection.last_line
    out: list[int] = []
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        a, sep, b = part.partition("-")
        if not a.isdigit() or (sep and not b.isdigit()):
            raise TextFragError(f"emphasize-lines takes source line numbers such as 12,14-16, not {spec!r}")
        lo, hi = int(a), int(b) if sep else int(a)
        if lo > hi or lo < first or hi > last:
            raise TextFragError(f"emphasize-lines {part} is outside the excerpt, which is {selection.lines_display()}")
        out.extend(n - first + 1 for n in range(lo, hi + 1))
    return out


def dedent(text: str, amount: int | None) -> str:
    """Remove ``amount`` leading spaces from every line (all common indentation when None)."""
    if amount is None:
        return textwrap.dedent(text)
    lines = text.split("\n")
    for line in lines:
        if line.strip() and not line.startswith(" " * amount):
            raise TextFragError(f"dedent {amount} would remove text: {line!r} has less indentation")
    return "\n".join(line[amount:] for line in lines)
