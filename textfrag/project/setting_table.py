"""The settings of a build, declared once: each with its type, default, choices and meaning, and how each
engine spells it. Every reader of a configuration (``check``'s, textfrag.project) and every adapter (the
Sphinx extension's config values, the MkDocs plugin's options) takes them from here and checks a value
with :func:`checked`, so that a value one engine refuses is refused by ``check`` in the same words.

>>> checked("on_stale", "warn", "textfrag_on_stale")
Traceback (most recent call last):
...
textfrag.errors.TextFragError: textfrag_on_stale must be 'error' or 'warning', not 'warn'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..errors import TextFragError
from ..source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE

__all__ = ["SETTINGS", "ENGINES", "Setting", "checked", "setting", "settings_of", "from_environment"]

#: the builds that read textfrag's settings: Sphinx's conf.py, the MkDocs plugin, the Python-Markdown
#: extension (Zensical, plain Markdown), textfrag-myst's environment, mdBook's [preprocessor.textfrag]
ENGINES = ("sphinx", "mkdocs", "markdown", "mystmd", "mdbook")
_PAGES = ("sphinx", "mkdocs", "markdown", "mystmd")  # (the builds that render excerpts themselves)


class Setting(NamedTuple):
    """One setting of a build: ``name`` as the MkDocs plugin and book.toml spell it (Sphinx adds
    ``textfrag_``, textfrag-myst's environment ``TEXTFRAG_`` and capitals)."""

    name: str
    types: tuple[type, ...]
    default: Any
    help: str
    #: the values it takes, when they are a few words
    choices: tuple[str, ...] = ()
    #: the least number it takes
    minimum: int | None = None
    #: whether it changes a verdict (``check`` then reads it from the configuration)
    verdict: bool = False
    #: the builds that take it (:data:`ENGINES`)
    engines: tuple[str, ...] = ENGINES

    @property
    def sphinx(self) -> str:
        return f"textfrag_{self.name}"

    @property
    def environment(self) -> str:
        return f"TEXTFRAG_{self.name.upper()}"


_NONE = type(None)

SETTINGS: tuple[Setting, ...] = (
    Setting("root", (str,), ".", "folder that reference paths are relative to, from the folder of the configuration"),
    Setting("charset", (str,), DEFAULT_CHARSET, "charset of quoted files without a BOM", verdict=True),
    Setting(
        "on_stale",
        (str,),
        "error",
        "'error' fails the build on a stale reference, 'warning' only warns",
        choices=("error", "warning"),
        verdict=True,
    ),
    Setting("source_url", (str, _NONE), None, "template of a 'view source' link: {path}, {first}, {last}", engines=_PAGES),
    Setting(
        "max_size", (int,), DEFAULT_MAX_SIZE, "larger quoted files are refused (bytes)", minimum=0, verdict=True, engines=_PAGES
    ),
    Setting(
        "pdi_map",
        (dict,),
        {},
        "Persistent Document Identifier (pdi://...) -> file under the root",
        verdict=True,
        engines=("sphinx", "mkdocs", "markdown"),
    ),
    Setting(
        "caption",
        (str,),
        "path",
        "a block without :caption: has 'path' (file and lines) or 'none'",
        choices=("path", "none"),
        engines=("sphinx", "mkdocs", "markdown"),
    ),
    Setting(
        "context_pages",
        (bool,),
        False,
        "each quoted file gets a highlighted page; excerpts link 'in context'",
        engines=("sphinx", "mkdocs"),
    ),
    Setting("require_pin", (bool,), False, "a reference without md5 (unpinned) fails the build, located", verdict=True),
    Setting(
        "guard", (bool,), False, "guard mode: each literalinclude is checked by the text textfrag.lock records", verdict=True
    ),
    Setting(
        "warn_bidi",
        (bool,),
        True,
        "warn of bidirectional control characters in a quote (Trojan Source, CVE-2021-42574); false: silent",
        engines=("mkdocs", "markdown", "mystmd"),
    ),
    Setting(
        "language",
        (str, _NONE),
        None,
        "language of the labels readers see (default: the theme's, under Zensical)",
        engines=("markdown", "mystmd"),
    ),
    Setting(
        "stylesheet",
        (bool,),
        True,
        "put textfrag's small stylesheet in each page with an excerpt (false: the site links it)",
        engines=("markdown",),
    ),
)

_BY_NAME = {s.name: s for s in SETTINGS}


def setting(name: str) -> Setting:
    """The setting called ``name`` (KeyError for one that is not declared)."""
    return _BY_NAME[name]


def settings_of(engine: str) -> tuple[Setting, ...]:
    """The settings the build ``engine`` (one of :data:`ENGINES`) takes, in the table's order."""
    return tuple(s for s in SETTINGS if engine in s.engines)


def from_environment(name: str, environ: Mapping[str, str]) -> Any:
    """The setting ``name`` as an environment gives it (``TEXTFRAG_ON_STALE``...), read and checked as every
    build checks it: the default when it is not set (or empty); a yes/no is anything but ``0``, ``false``,
    ``no`` or empty; a number is digits."""
    s = _BY_NAME[name]
    raw = environ.get(s.environment, "")
    if not raw.strip():
        return s.default
    value: Any = raw
    if bool in s.types:
        value = raw.strip().lower() not in ("0", "false", "no")
    elif int in s.types:
        try:
            value = int(raw.strip())
        except ValueError:
            value = raw  # (refused below, in the same words as a wrong type anywhere)
    return checked(name, value, s.environment, "the environment")


def checked(name: str, value: Any, spelt: str | None = None, where: object = None) -> Any:
    """``value`` of the setting ``name`` when it is one the setting takes; else :class:`TextFragError` naming
    it as the configuration spells it (``spelt``: ``textfrag_on_stale``, ``on_stale``...) and, with
    ``where``, the configuration's file."""
    s = _BY_NAME[name]
    said = f"{where}: {spelt or name}" if where is not None else spelt or name
    if s.choices and value not in s.choices:
        return _refuse(f"{said} must be " + " or ".join(repr(c) for c in s.choices) + f", not {value!r}")
    if not isinstance(value, s.types) or (bool in s.types) != isinstance(value, bool):
        kinds = " or ".join("none" if t is _NONE else t.__name__ for t in s.types)
        return _refuse(f"{said} must be {kinds.replace('str', 'text').replace('int', 'a number')}, not {value!r}")
    if s.minimum is not None and isinstance(value, int) and value < s.minimum:
        return _refuse(f"{said} must not be negative, not {value!r}" if s.minimum == 0 else f"{said} must be {s.minimum} or more")
    return value


def _refuse(message: str) -> Any:
    raise TextFragError(message)
