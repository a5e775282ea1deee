"""Sphinx extension: ``extensions = ["sphinx_textfrag"]``.

- ``.. txtfrag:: PATH#FRAGMENT`` embeds a verified block excerpt, ``:txtfrag:`PATH#FRAGMENT``` an inline
  one; both work from reStructuredText and MyST.
- A stale, missing or malformed reference is a warning with ``docname:line``, type ``textfrag`` and a
  subtype (``stale``, ``syntax``, ``missing``, ``decode``...), and fails the build after all of them are
  reported.

The extension is thin: the textfrag core parses, loads, counts and verifies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

import textfrag
from textfrag import TextFragError
from textfrag.project import checked, settings_of
from textfrag.source import codec_name
from textfrag.verdict import LOCALES

from .directive import TxtfragDirective, TxtfragRole
from .forms import setup_forms
from .guard import setup_guard
from .nodes import setup_nodes
from .state import setup_state

__all__ = ["setup", "CONFIG_VALUES"]

#: (name, default, rebuild, types, description): the settings table's (textfrag.project.setting_table), as
#: Sphinx spells them; registered in a loop, listed in the manual (docs/reference/sphinx.md).
CONFIG_VALUES: tuple[tuple[str, Any, Literal["env"], tuple[type, ...], str], ...] = tuple(
    (s.sphinx, s.default, "env", s.types, s.help) for s in settings_of("sphinx")
)

STATIC = Path(__file__).resolve().parent / "static"


def _check_config(app: Sphinx, config: Config) -> None:
    """Refuse a configuration that could only fail later: the build stops at once, naming the value."""
    try:  # (what the table refuses, refused in its words: check refuses it so too)
        for s in settings_of("sphinx"):
            if s.choices or s.minimum is not None:
                checked(s.name, getattr(config, s.sphinx), s.sphinx)
    except TextFragError as err:
        raise ConfigError(err.message) from None
    try:
        codec_name(config.textfrag_charset)
    except TextFragError as err:
        raise ConfigError(f"textfrag_charset: {err.message}") from None
    static = str(STATIC)
    if static not in config.html_static_path:
        config.html_static_path.append(static)


def _stylesheet(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """textfrag's stylesheet on the pages that show an excerpt (or a problem in its place), and only
    there: a page of plain literalincludes (guard mode) is the page Sphinx makes without textfrag."""
    if doctree is not None and next(doctree.findall(_styled), None) is not None:
        app.add_css_file("textfrag.css")


def _styled(node: Any) -> bool:
    return any(str(c).startswith("txtfrag") for c in getattr(node, "get", lambda *_: ())("classes", ()) or ())


def _default_role_per_document(app: Sphinx, docname: str, source: list[str]) -> None:
    """``.. default-role::`` holds for the rest of its document (docutils; ``check`` reads it so). Sphinx 9
    leaves the role it sets registered for the documents read after it when conf.py sets no
    ``default_role``: interpreted text there would take it (and with ``txtfrag`` as that role, Sphinx
    stops with "cannot determine default role!"). Each document starts without it, as it should."""
    if not app.config.default_role:
        from sphinx.util.docutils import unregister_role

        unregister_role("")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the configuration values, the directive, the role, the nodes and the events."""
    for name, default, rebuild, types, _doc in CONFIG_VALUES:
        app.add_config_value(name, default, rebuild, types=types)
    app.connect("config-inited", _check_config)
    app.add_directive("txtfrag", TxtfragDirective)
    app.add_role("txtfrag", TxtfragRole())
    app.connect("html-page-context", _stylesheet)
    app.connect("source-read", _default_role_per_document)
    # what readers see (captions, labels, the stale mark) in the project's language, through Sphinx's i18n
    app.add_message_catalog("textfrag", LOCALES)
    setup_nodes(app)
    setup_guard(app)
    setup_forms(app)
    metadata = setup_state(app)
    return {"version": textfrag.__version__, "parallel_read_safe": True, "parallel_write_safe": True, **metadata}
