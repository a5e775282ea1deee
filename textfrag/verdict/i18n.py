"""The words a reader sees beside an excerpt, in the site's language.

Captions ("src/app.py, lines 4-6"), the "view source" link, the permalink's title, the stale mark and
its reason, the broken-reference admonition: their English is the message id, and the translations are
gettext catalogs shipped in the package (``locales/<lang>/LC_MESSAGES/textfrag.mo``, compiled from the
``.po`` beside them). Sphinx reads them through its own i18n (``sphinx.locale``, the project's
``language``); MkDocs through :func:`translator`, following the theme's language. Messages for writers
(the build log, the command line) stay in English, as the engines' own do.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["LANGUAGES", "LOCALES", "Labels", "Translate", "translator"]

#: the folder of the catalogs, for engines that register them (Sphinx's add_message_catalog)
LOCALES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "locales")  # (textfrag/locales)
#: the languages with a catalog
LANGUAGES = ("de", "es", "fr", "ja", "pt_BR", "zh_CN")

Translate = Callable[[str], str]


def _same(text: str) -> str:
    return text


def _locale(language: str) -> str:
    """``pt-BR`` -> ``pt_BR``, ``zh``/``zh-Hans`` -> ``zh_CN``: a theme's language as gettext names it."""
    lang = language.strip().replace("-", "_")
    if lang.lower() in ("zh", "zh_hans", "zh_sg"):
        return "zh_CN"
    head, _, tail = lang.partition("_")
    return f"{head.lower()}_{tail.upper()}" if tail and len(tail) == 2 else head.lower()


def translator(language: str | None) -> Translate:
    """The translation function for ``language`` (English, unchanged, when there is no catalog)."""
    if not language or language.lower().startswith("en"):
        return _same
    catalog = gettext.translation("textfrag", LOCALES, languages=[_locale(language)], fallback=True)
    return catalog.gettext


class Labels(NamedTuple):
    """The fixed words of an excerpt, translated once."""

    view_source: str
    source: str
    permalink: str
    stale_title: str
    stale_mark: str
    broken_title: str
    elision: str
    in_context: str

    @classmethod
    def of(cls, _: Translate = _same) -> Labels:
        return cls(
            view_source=_("view source"),
            source=_("source"),
            permalink=_("Link to this excerpt"),
            stale_title=_("Stale excerpt"),
            stale_mark=_("stale"),
            broken_title=_("textfrag: this excerpt cannot be shown"),
            elision=_("lines left out"),
            in_context=_("in context"),
        )
