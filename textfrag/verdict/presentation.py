"""What both engine adapters show of a quote, decided once: anchors, captions, languages, line numbers.

No HTML here (the adapters render); these are the engine-neutral decisions that the Sphinx extension and
the MkDocs plugin must make the same way.
"""

from __future__ import annotations

import fnmatch
import re
import textwrap
from collections.abc import Callable, Container
from functools import lru_cache
from string import Formatter
from urllib.parse import quote

from ..errors import TextFragError
from ..reference.fragment import Reference
from ..reference.linespec import parse_line_list
from ..reference.resolving import Selection
from ..reference.selection import ELISION

__all__ = [
    "ELISION",
    "anchor_id",
    "identity",
    "unique_anchor",
    "default_caption",
    "lines_label",
    "display_text",
    "language_for",
    "source_url",
    "emphasized_lines",
    "emphasized_in_pieces",
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


def lines_label(first: int, last: int, _: Callable[[str], str] = str) -> str:
    """``lines 11-20`` or ``line 5`` (1-based), in the reader's language."""
    return _("line {n}").format(n=first) if first == last else _("lines {first}-{last}").format(first=first, last=last)


def default_caption(selection: Selection | list[Selection], _: Callable[[str], str] = str) -> str:
    """``src/app.py, lines 11-20`` (1-based, as editors number); disjoint pieces are listed in order:
    ``src/app.py, line 1 and lines 30-31``; in the reader's language with ``_`` (textfrag.verdict.i18n)."""
    pieces = selection if isinstance(selection, list) else [selection]
    where = [p.lines_display() if p.empty else lines_label(p.first_line, p.last_line, _) for p in pieces]
    listed = where[0] if len(where) == 1 else _("{some} and {last}").format(some=", ".join(where[:-1]), last=where[-1])
    return _("{path}, {lines}").format(path=pieces[0].source.path, lines=listed)


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
        return _SAME_AS_PYGMENTS.get(ext) or _language_for_name(f"x.{ext}") or default
    return _language_for_name(name) or default


#: the language of the most common file names where Pygments is not installed (mystmd's and plain
#: Python-Markdown's users may have none): the names Pygments itself gives them
_WITHOUT_PYGMENTS = {
    **dict.fromkeys(("py", "pyi", "pyw"), "python"),
    **dict.fromkeys(("js", "mjs", "cjs"), "javascript"),
    "jsx": "jsx",
    "ts": "typescript",
    "tsx": "tsx",
    "go": "go",
    "rs": "rust",
    "java": "java",
    **dict.fromkeys(("kt", "kts"), "kotlin"),
    **dict.fromkeys(("c", "h"), "c"),
    **dict.fromkeys(("cc", "cpp", "cxx", "hpp", "hh", "hxx"), "cpp"),
    "cs": "csharp",
    "rb": "ruby",
    "php": "php",
    "swift": "swift",
    **dict.fromkeys(("sh", "bash"), "bash"),
    **dict.fromkeys(("yml", "yaml"), "yaml"),
    "json": "json",
    "toml": "toml",
    "ini": "ini",
    **dict.fromkeys(("md", "markdown"), "markdown"),
    **dict.fromkeys(("rst", "rest"), "restructuredtext"),
    **dict.fromkeys(("html", "htm"), "html"),
    "css": "css",
    "sql": "sql",
    "xml": "xml",
    "r": "r",
    "jl": "julia",
    "lua": "lua",
    "Makefile": "make",
    "Dockerfile": "docker",
}


#: the names above that Pygments gives the same answer for (a test holds them to it): looked up without
#: asking Pygments, whose search of every lexer's patterns costs a build about 0.1 s
_SAME_AS_PYGMENTS = {ext: language for ext, language in _WITHOUT_PYGMENTS.items() if ext not in ("sql", "r")}


@lru_cache(maxsize=512)
def _language_for_name(name: str) -> str | None:
    try:
        from pygments.lexers import find_lexer_class_for_filename
        from pygments.util import ClassNotFound
    except ImportError:  # Pygments is a dependency of the engines, not of the core: the common names
        stem, dot, ext = name.rpartition(".")
        return _WITHOUT_PYGMENTS.get(ext.lower() if dot else name)
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


#: the names Sphinx and Pygments' users give that are no lexer's and are not wrong
_NOT_LEXERS = frozenset({"", "none", "default", "guess", "text", "plain", "plaintext"})


@lru_cache(maxsize=256)
def language_known(name: str) -> bool | None:
    """Whether Pygments has a lexer named ``name`` (an alias, as ``:language:`` names one); None without
    Pygments (the core does not depend on it)."""
    if name.strip().lower() in _NOT_LEXERS:
        return True
    try:
        from pygments.lexers import find_lexer_class_by_name
        from pygments.util import ClassNotFound
    except ImportError:
        return None
    try:
        find_lexer_class_by_name(name.strip())
    except ClassNotFound:
        return False
    return True


def _special_name(name: str) -> bool:
    rx = _special_patterns()
    return rx is None or rx.match(name) is not None


def source_url(template: str | None, selection: Selection) -> str | None:
    """Fill a "view source" template such as ``https://host/repo/blob/main/{path}#L{first}-L{last}``.

    The template is the site's configuration; the path is data, percent-encoded so that ``#``, ``?``,
    ``%``, spaces and quotes in a file name cannot change the URL's meaning (the adapters then escape
    the whole URL for the HTML attribute it goes into). Only the three fields exist: no attribute or
    index lookups, no conversions.

    >>> from textfrag.source.cache import Source
    >>> from textfrag.reference.resolving import select
    >>> sel = select(Source('a b#?%"q.txt', b"x\\ny\\n"), 0, 2)
    >>> source_url("https://h/{path}#L{first}-L{last}", sel)
    'https://h/a%20b%23%3F%25%22q.txt#L1-L1'
    """
    if not template:
        return None
    last = max(selection.last_line, selection.first_line)
    values = {"path": quote(selection.source.path, safe="/"), "first": str(selection.first_line), "last": str(last)}
    out: list[str] = []
    try:
        for literal, name, spec, conversion in Formatter().parse(template):
            out.append(literal)
            if name is None:
                continue
            if name not in values or spec or conversion:
                raise ValueError(f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}} is not a field")
            out.append(values[name])
    except ValueError as exc:
        raise TextFragError(
            f"the source URL template {template!r} is not valid: use {{path}}, {{first}} and {{last}} ({exc})"
        ) from None
    return "".join(out)


def emphasized_lines(spec: str, selection: Selection) -> list[int]:
    """Lines to emphasise, written in the source file's own line numbers (``12,14-16``), as positions
    1..n within the excerpt (what Pygments' ``hl_lines`` takes). Lines outside the excerpt are an error,
    found before anything is expanded."""
    return emphasized_in_pieces(spec, [selection])[0]


def emphasized_in_pieces(spec: str, pieces: list[Selection]) -> list[list[int]]:
    """:func:`emphasized_lines` for the pieces of a disjoint selection: one list per piece; a line
    between two pieces (left out of the excerpt) is outside it."""
    per_piece: list[list[int]] = [[] for _ in pieces]
    for wanted in parse_line_list(spec, "emphasize-lines"):
        for i, p in enumerate(pieces):
            if p.first_line <= wanted.first and wanted.last <= p.last_line:
                per_piece[i].extend(range(wanted.first - p.first_line + 1, wanted.last - p.first_line + 2))
                break
        else:
            where = " and ".join(p.lines_display() for p in pieces)
            raise TextFragError(f"emphasize-lines {wanted} is outside the excerpt, which is {where}")
    return per_piece


def dedent(text: str, amount: int | None) -> str:
    """Remove ``amount`` leading spaces from every line (all common indentation when None)."""
    if amount is None:
        return textwrap.dedent(text)
    lines = text.split("\n")
    for line in lines:
        if line.strip() and len(line) - len(line.lstrip(" ")) < amount:  # (no string of `amount` spaces is made)
            raise TextFragError(f"dedent {amount} would remove text: {line!r} has less indentation")
    return "\n".join(line[amount:] for line in lines)
