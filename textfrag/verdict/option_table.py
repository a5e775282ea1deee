"""The one option table: every option a ``txtfrag`` excerpt takes, declared once.

Each option has its name in reStructuredText and MyST (``:emphasize-lines:``, literalinclude's), its
names as a Markdown attribute (attr_list: ``hl_lines="2 3"``, ``title="..."``), what kind of value it
takes and how that value is checked. The Sphinx directive, the MyST plugin, the Markdown extension, the
MkDocs plugin, ``check`` and the language server all read options through :func:`read_options`, so a
misspelt option or a value of the wrong type is the same problem, in the same words, everywhere
(the manual's explanation/verdict page).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from ..errors import TextFragError
from ..reference.linespec import number, parse_line_list

if TYPE_CHECKING:
    from ..intents.intent import Intent

#: the options that state an intent, in the order literalinclude applies them (textfrag.intents.intent's)
_INTENTS = ("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "section", "region", "symbol")

__all__ = ["OPTIONS", "Spec", "Options", "OptionError", "read_options", "Syntax", "Form", "option_names", "INERT"]

Syntax = Literal["rst", "myst", "md"]
Form = Literal["block", "inline"]
Kind = Literal["flag", "text", "required", "int", "positive", "lines", "within", "dedent", "classes", "encoding", "linenums"]


class OptionError(TextFragError):
    """An option the excerpt does not take, or a value it cannot use (the same words in every engine)."""

    kind = "option"


class Spec(NamedTuple):
    """One option: its name (reStructuredText and MyST), its Markdown attribute names, its kind, its meaning."""

    name: str
    kind: Kind
    help: str
    #: its names as a Markdown attribute (attr_list); empty: not a Markdown option
    md: tuple[str, ...] = ()
    #: read in reStructuredText and MyST
    rst: bool = True


def _spec(name: str, kind: Kind, help: str, md: tuple[str, ...] | None = None, rst: bool = True) -> Spec:
    return Spec(name, kind, help, (name,) if md is None else md, rst)


#: every option, in the order the reference documents them
OPTIONS: tuple[Spec, ...] = (
    _spec("caption", "text", "the caption (empty: none); without it, the path and lines", md=("title",)),
    _spec("language", "required", "the highlighting language (default: from the file's name)"),
    _spec("linenos", "flag", "number the lines (with the file's own numbers)", md=()),
    _spec("lineno-start", "int", "number the lines from N (literalinclude's)"),
    _spec("lineno-match", "flag", "number the lines as in the file (the default numbering)", md=()),
    _spec("linenums", "linenums", "number the lines (a number: from that number), as pymdownx's fences", rst=False),
    _spec("emphasize-lines", "lines", "lines to highlight, in the file's own numbers (12,14-16)"),
    _spec("hl_lines", "within", "lines to highlight, 1-based within the excerpt (2 4-6), as pymdownx's fences", rst=False),
    _spec("dedent", "dedent", "remove N spaces of indentation (no value: all common indentation)"),
    _spec("tab-width", "positive", "expand tabs to N columns"),
    _spec("name", "text", "a name to link to (an id too)", md=()),
    _spec("class", "classes", "classes of the block (Markdown: the first is the language)"),
    _spec("force", "flag", "highlight even where the lexer fails", md=()),
    _spec("pyobject", "required", "intent: the Python object (Class.method) the lines are"),
    _spec("start-after", "required", "intent: the lines after the first line holding this text"),
    _spec("start-at", "required", "intent: the lines from the first line holding this text"),
    _spec("end-before", "required", "intent: the lines before the next line holding this text"),
    _spec("end-at", "required", "intent: the lines up to the next line holding this text"),
    _spec("lines", "required", "intent: literalinclude's line list within what the intents above keep (1,3-5,7-)"),
    _spec("section", "required", "intent: pymdownx.snippets' section between --8<-- [start:NAME] and [end:NAME]"),
    _spec("region", "required", "intent: a region between markers ([START x]/[END x], #region x, ...)"),
    _spec("symbol", "required", "intent: a definition in any language textfrag reads (Class.method)"),
    _spec("encoding", "encoding", "the charset the file is read in (default: the configured one)"),
    _spec("diff", "required", "a unified diff from this reference's text (an older file) to the excerpt's", md=()),
    _spec("prepend", "required", "a line of the document's own shown before the excerpt (not verified)"),
    _spec("append", "required", "a line of the document's own shown after the excerpt (not verified)"),
    # Markdown's own: the image's alternative text and title, and attr_list's id
    _spec("alt", "text", "the image's text: the caption when there is no title", rst=False),
    _spec("id", "text", "the block's id (attr_list's #id)", rst=False),
    _spec("label", "text", "a name to link to (mystmd)", md=()),
)

#: options that never fail once their value is read: a reference with only these needs no text to judge
INERT = frozenset(
    {"caption", "language", "linenos", "lineno-match", "linenums", "name", "class", "force", "encoding", "alt", "id", "label"}
)

_BY_RST = {s.name: s for s in OPTIONS if s.rst}
_BY_MD = {name: s for s in OPTIONS for name in s.md}
_CLASS = re.compile(r"-?[_a-zA-Z][_a-zA-Z0-9-]*")


def option_names(syntax: Syntax) -> list[str]:
    """The options as written in ``syntax``, in table order."""
    if syntax == "md":
        return [name for s in OPTIONS for name in s.md]
    return [s.name for s in OPTIONS if s.rst]


class Options:
    """The options of one excerpt, read and checked: what the core's verdict works from. (A plain class:
    ``check`` imports no dataclasses at start-up.)"""

    __slots__ = (
        *("written", "caption", "language", "numbered", "number_from", "emphasize", "emphasize_in_excerpt", "dedent"),
        *("tab_width", "name", "classes", "force", "intent", "encoding", "diff", "prepend", "append", "alt", "id", "extra"),
    )

    def __init__(
        self,
        written: frozenset[str] = frozenset(),
        caption: str | None = None,
        language: str | None = None,
        numbered: bool = False,
        number_from: int | None = None,
        emphasize: str | None = None,
        emphasize_in_excerpt: str | None = None,
        dedent: int | None | Literal[False] = False,
        tab_width: int | None = None,
        name: str | None = None,
        classes: tuple[str, ...] = (),
        force: bool = False,
        intent: Intent | None = None,
        encoding: str | None = None,
        diff: str | None = None,
        prepend: str | None = None,
        append: str | None = None,
        alt: str | None = None,
        id: str | None = None,
        extra: dict[str, str] | None = None,
    ) -> None:
        #: the options written (their names in reStructuredText)
        self.written = written
        #: the caption written (empty: none); None: not written
        self.caption = caption
        self.language = language
        #: lines are numbered (linenos, lineno-start, lineno-match, linenums)
        self.numbered = numbered
        self.number_from = number_from
        #: lines to emphasize in the file's numbers, and 1-based within the excerpt (hl_lines)
        self.emphasize = emphasize
        self.emphasize_in_excerpt = emphasize_in_excerpt
        #: False: not dedented; None: all common indentation; N: N spaces
        self.dedent = dedent
        self.tab_width = tab_width
        self.name = name
        self.classes = classes
        self.force = force
        self.intent = intent
        self.encoding = encoding
        self.diff = diff
        self.prepend = prepend
        self.append = append
        #: Markdown: the image's alt text (the caption without a title), attr_list's id
        self.alt = alt
        self.id = id
        #: Markdown attributes that are HTML's (data-*, style...), kept as written
        self.extra = extra or {}

    def __repr__(self) -> str:
        return f"Options({sorted(self.written)})"

    @property
    def inert(self) -> bool:
        """Nothing here can fail once read: no text is needed to judge the reference."""
        return self.written <= INERT


def _value(spec: Spec, written: str, raw: str | None) -> object:
    """The value of one option, checked; :class:`OptionError` in the same words in every engine."""
    value = "" if raw is None else str(raw)
    if spec.kind == "flag":
        if value.strip() and value.strip().lower() not in ("true", written):
            raise OptionError(f"option {written} takes no value (it is a flag), not {value!r}")
        return True
    if spec.kind == "text":
        return value.strip()
    if not value.strip() and spec.kind not in ("dedent", "linenums"):
        raise OptionError(f"option {written} needs a value")
    value = value.strip()
    if spec.kind == "required":
        return value
    if spec.kind in ("int", "positive"):
        if value.lower().endswith(".0") and value[:-2].isdigit():  # (mystmd passes numbers as JSON numbers)
            value = value[:-2]
        try:
            n = number(value, f"option {written}")
        except TextFragError as bad:
            raise OptionError(f"{bad.message} (a whole number is expected)") from None
        if spec.kind == "positive" and n < 1:
            raise OptionError(f"option {written} is a number of columns from 1 up, not {value}")
        return n
    if spec.kind in ("lines", "within"):
        try:
            parse_line_list(value, written, separators=" ," if spec.kind == "within" else ",")
        except TextFragError as bad:
            raise OptionError(bad.message) from None
        return value
    if spec.kind == "dedent":
        if value.lower() in ("", "true", "dedent"):
            return None
        try:
            return number(value, f"option {written}")
        except TextFragError as bad:
            raise OptionError(f"{bad.message} (a number of spaces, or no value for all common indentation)") from None
    if spec.kind == "classes":
        classes = tuple(value.replace(",", " ").split())
        for c in classes:
            if not _CLASS.fullmatch(c.lstrip(".")):
                raise OptionError(f"option {written}: {c!r} is not a class name")
        return tuple(c.lstrip(".") for c in classes)
    if spec.kind == "encoding":
        try:
            codecs.lookup(value)
        except LookupError:
            raise OptionError(f"option {written}: {value!r} is not a charset Python knows") from None
        return value
    # linenums: a bare word numbers with the file's numbers; a number numbers from it
    if value.lower() in ("", "linenums", "source", "true"):
        return None
    try:
        return number(value, f"option {written}")
    except TextFragError as bad:
        raise OptionError(f"{bad.message} (a line number to count from, or no value)") from None


def _shown(name: str, syntax: Syntax) -> str:
    return f'{name}="..."' if syntax == "md" else f":{name}:"


def _unknown(name: str, syntax: Syntax, form: str) -> OptionError:
    """A name the table does not know: the closest one it knows, and where they are all listed."""
    import difflib  # (only a misspelt option pays for it)

    close = difflib.get_close_matches(name, option_names(syntax), n=1, cutoff=0.6)
    hint = f"; did you mean {_shown(close[0], syntax)}?" if close else ""
    if form == "inline" and syntax != "md":
        return OptionError(f"unknown option {_shown(name, syntax)}: an inline excerpt takes no options")
    return OptionError(f"unknown option {_shown(name, syntax)}{hint} (`textfrag options` lists them)")


def read_options(raw: Mapping[str, str | None], syntax: Syntax = "rst", form: str = "block") -> Options:
    """The options written beside a reference (``raw``: name as written -> value as written, None for
    none), read by the table; :class:`OptionError` for the first problem (in document order). The same
    options written again (the same intent on many references) are read once."""
    if not raw:
        return _NONE
    return _read_once(tuple(raw.items()), syntax, form)


_NONE = Options()


@lru_cache(maxsize=1024)
def _read_once(items: tuple[tuple[str, str | None], ...], syntax: Syntax, form: str) -> Options:
    """:func:`read_options` of options as written (an error is raised again each time)."""
    raw = dict(items)
    table = _BY_MD if syntax == "md" else _BY_RST
    values: dict[str, object] = {}
    written: set[str] = set()
    extra: dict[str, str] = {}
    for given, value in raw.items():
        if given == "\x00unread":  # (textfrag.verdict.written_options.UNREAD_ATTRIBUTES)
            raise OptionError(
                "the attribute list after this image is not read, so its options are ignored and shown as text: "
                + (
                    "attr_list reads it only when it follows the image directly (remove the space before {)"
                    if value == "spaced"
                    else "enable attr_list (markdown_extensions: [attr_list])"
                )
            )
        if given.endswith("\x00twice"):  # (textfrag.verdict.written_options.WRITTEN_TWICE)
            shown = given.removesuffix("\x00twice")
            raise OptionError(f"duplicate option :{shown}: (docutils refuses the directive: the page shows an error, no excerpt)")
        name = given.lower()
        spec = table.get(name)
        if spec is None:
            if syntax == "md" and (name.startswith("data-") or name in ("style", "width", "height", "loading")):
                extra[name] = "" if value is None else str(value)
                continue
            raise _unknown(name, syntax, form)
        if spec.name in written:
            raise OptionError(f"option {name} is written twice")
        written.add(spec.name)
        values[spec.name] = _value(spec, name, value)
    return _options(values, frozenset(written), syntax, extra)


_DIFF_CLASH = (
    *("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "section", "region", "symbol"),
    *("emphasize-lines", "hl_lines", "lineno-match", "lineno-start", "prepend", "append", "dedent"),
)


def _options(values: dict[str, object], written: frozenset[str], syntax: Syntax, extra: dict[str, str]) -> Options:
    get = values.get
    if "diff" in values:
        clash = [name for name in _DIFF_CLASH if name in values]
        if clash:
            raise OptionError(f":diff: shows a diff of two quotes; it cannot be combined with :{clash[0]}:")
    intent = None
    if any(name in values for name in _INTENTS):
        from ..intents.intent import Intent  # (only an intent pays for the parsers it needs)

        intent_values = {name: get(name) for name in _INTENTS}
        intent_values["language"] = get("language")
        try:
            intent = Intent.from_options(intent_values)
        except TextFragError as bad:
            raise OptionError(bad.message) from None
    classes: tuple[str, ...] = tuple(get("class") or ())  # type: ignore[arg-type]
    language = get("language")
    if syntax == "md" and classes and language is None:  # attr_list's { .python }: the first class is the language
        language, classes = classes[0], classes[1:]
    number_from = get("lineno-start")
    numbered = bool({"linenos", "lineno-start", "lineno-match", "linenums"} & written)
    if "linenums" in values and values["linenums"] is not None and number_from is None:
        number_from = values["linenums"]
    dedent = values["dedent"] if "dedent" in values else False
    caption = get("caption")
    return Options(
        written=written,
        caption=None if caption is None else str(caption),
        language=None if language is None else str(language),
        numbered=numbered,
        number_from=None if number_from is None else int(number_from),  # type: ignore[call-overload]
        emphasize=_str(get("emphasize-lines")),
        emphasize_in_excerpt=_str(get("hl_lines")),
        dedent=dedent,  # type: ignore[arg-type]
        tab_width=None if get("tab-width") is None else int(get("tab-width")),  # type: ignore[call-overload]
        name=_str(get("name") or get("label")),
        classes=classes,
        force=bool(get("force")),
        intent=intent,
        encoding=_str(get("encoding")),
        diff=_str(get("diff")),
        prepend=_str(get("prepend")),
        append=_str(get("append")),
        alt=_str(get("alt")),
        id=_str(get("id")),
        extra=extra,
    )


def _str(value: object) -> str | None:
    return None if value is None else str(value)
