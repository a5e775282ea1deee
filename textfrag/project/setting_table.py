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

from typing import Any, NamedTuple

from ..errors import TextFragError
from ..source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE

__all__ = ["SETTINGS", "Setting", "checked", "setting"]


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
    Setting("source_url", (str, _NONE), None, "template of a 'view source' link: {path}, {first}, {last}"),
    Setting("max_size", (int,), DEFAULT_MAX_SIZE, "larger quoted files are refused (bytes)", minimum=0, verdict=True),
    Setting("pdi_map", (dict,), {}, "Persistent Document Identifier (pdi://...) -> file under the root", verdict=True),
    Setting(
        "caption", (str,), "path", "a block without :caption: has 'path' (file and lines) or 'none'", choices=("path", "none")
    ),
    Setting("context_pages", (bool,), False, "each quoted file gets a highlighted page; excerpts link 'in context'"),
    Setting("require_pin", (bool,), False, "a reference without md5 (unpinned) fails the build, located", verdict=True),
    Setting(
        "guard", (bool,), False, "guard mode: each literalinclude is checked by the text textfrag.lock records", verdict=True
    ),
)

_BY_NAME = {s.name: s for s in SETTINGS}


def setting(name: str) -> Setting:
    """The setting called ``name`` (KeyError for one that is not declared)."""
    return _BY_NAME[name]


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
