"""The verdict: whether a reference is good, and what a page shows of it, decided once.

Takes a reference with the options written beside it; gives THE :class:`Verdict` (its problems,
warnings, the quote and the engine-neutral :class:`Excerpt`) that ``check``, ``update``, the editor and
every engine adapter translate, never re-decide. Holds the option table, the options as written in a
document, pins, captions and anchors, and the words a reader sees in each language.

May import: ``textfrag.reference``, ``textfrag.source``, ``textfrag.intents``, ``textfrag.documents``,
``textfrag.drift``, ``textfrag.errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .excerpt import ELISION, Excerpt, excerpt_of, failure_summary
    from .forms import Forms, markdown_in_html, unrendered
    from .i18n import LOCALES, Labels, Translate, translator
    from .judging import Settings, Verdict, judge, misspelt_warnings, no_link_target, reads_text
    from .option_table import OPTIONS, Form, Syntax, option_names
    from .pins import generated_note, is_pinned, pinned_form
    from .presentation import display_text, identity, language_for, lines_label, source_url, unique_anchor
    from .quoting import Quote, history_of, make_fragment, make_reference, prefetch_history, quote, quoted_path
    from .written_options import (
        UNREAD_ATTRIBUTES,
        Option,
        how_written,
        image_key,
        image_options,
        intent_of,
        myst_scalar,
        options_of,
        raw_of,
        shifted,
        with_option_references,
    )

__all__ = [
    "how_written",
    "markdown_in_html",
    "misspelt_warnings",
    "ELISION",
    "Excerpt",
    "Form",
    "Forms",
    "LOCALES",
    "Labels",
    "OPTIONS",
    "Option",
    "Quote",
    "Settings",
    "Syntax",
    "Translate",
    "UNREAD_ATTRIBUTES",
    "Verdict",
    "display_text",
    "excerpt_of",
    "failure_summary",
    "generated_note",
    "history_of",
    "identity",
    "image_key",
    "image_options",
    "intent_of",
    "is_pinned",
    "judge",
    "language_for",
    "lines_label",
    "make_fragment",
    "make_reference",
    "myst_scalar",
    "no_link_target",
    "option_names",
    "options_of",
    "pinned_form",
    "prefetch_history",
    "quote",
    "quoted_path",
    "raw_of",
    "reads_text",
    "shifted",
    "source_url",
    "translator",
    "unique_anchor",
    "unrendered",
    "with_option_references",
]

_WHERE = {
    "markdown_in_html": "forms",
    "misspelt_warnings": "judging",
    "how_written": "written_options",
    "ELISION": "excerpt",
    "Excerpt": "excerpt",
    "Form": "option_table",
    "Forms": "forms",
    "LOCALES": "i18n",
    "Labels": "i18n",
    "OPTIONS": "option_table",
    "Option": "written_options",
    "Quote": "quoting",
    "Settings": "judging",
    "Syntax": "option_table",
    "Translate": "i18n",
    "UNREAD_ATTRIBUTES": "written_options",
    "Verdict": "judging",
    "display_text": "presentation",
    "excerpt_of": "excerpt",
    "failure_summary": "excerpt",
    "generated_note": "pins",
    "history_of": "quoting",
    "identity": "presentation",
    "image_key": "written_options",
    "image_options": "written_options",
    "intent_of": "written_options",
    "is_pinned": "pins",
    "judge": "judging",
    "language_for": "presentation",
    "lines_label": "presentation",
    "make_fragment": "quoting",
    "make_reference": "quoting",
    "myst_scalar": "written_options",
    "no_link_target": "judging",
    "option_names": "option_table",
    "options_of": "written_options",
    "pinned_form": "pins",
    "prefetch_history": "quoting",
    "quote": "quoting",
    "quoted_path": "quoting",
    "raw_of": "written_options",
    "reads_text": "judging",
    "shifted": "written_options",
    "source_url": "presentation",
    "translator": "i18n",
    "unique_anchor": "presentation",
    "unrendered": "forms",
    "with_option_references": "written_options",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
