"""The documents: references and includes found in documentation files, per syntax, as each engine
reads them, without building.

Takes a document's text and its syntax (reStructuredText, Markdown, MyST); gives every
:class:`Found` reference (where, how written), the directives outside code, the parts it pulls in
(``.. include::``, ``{include}``) and the references its substitutions render. Code, comments and raw
HTML are read as the engine reads them. Nothing here judges a reference.

May import: ``textfrag.errors`` and ``textfrag.source`` (reading documentation files).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .fenced import fenced_directives
    from .files import doc_files, read_text
    from .found import with_columns
    from .included import included_parts, parts_read_as, window_of
    from .incremental import MarkdownScan, rescan_markdown, scan_markdown_kept
    from .scan import (
        MD_SUFFIXES,
        RST_SUFFIXES,
        Found,
        HtmlBlocks,
        LineIndex,
        code_directives,
        markdown_in_raw_html,
        raw_html_references,
        scan_markdown,
        scan_markdown_lines,
        scan_text,
    )
    from .substitutions import substituted

__all__ = [
    "markdown_in_raw_html",
    "window_of",
    "Found",
    "HtmlBlocks",
    "LineIndex",
    "MD_SUFFIXES",
    "MarkdownScan",
    "RST_SUFFIXES",
    "code_directives",
    "doc_files",
    "fenced_directives",
    "included_parts",
    "parts_read_as",
    "raw_html_references",
    "read_text",
    "rescan_markdown",
    "scan_markdown",
    "scan_markdown_kept",
    "scan_markdown_lines",
    "scan_text",
    "substituted",
    "with_columns",
]

_WHERE = {
    "window_of": "included",
    "markdown_in_raw_html": "scan",
    "Found": "scan",
    "HtmlBlocks": "scan",
    "LineIndex": "scan",
    "MD_SUFFIXES": "scan",
    "MarkdownScan": "incremental",
    "RST_SUFFIXES": "scan",
    "code_directives": "scan",
    "doc_files": "files",
    "fenced_directives": "fenced",
    "included_parts": "included",
    "parts_read_as": "included",
    "raw_html_references": "scan",
    "read_text": "files",
    "rescan_markdown": "incremental",
    "scan_markdown": "scan",
    "scan_markdown_kept": "incremental",
    "scan_markdown_lines": "scan",
    "scan_text": "scan",
    "substituted": "substitutions",
    "with_columns": "found",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
