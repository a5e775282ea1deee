"""A Markdown document's edit scanned again only in the paragraphs it touched (the language server's
way), with the same finds as a scan of the whole text."""

from __future__ import annotations

import re
from typing import NamedTuple

from .found import with_columns
from .scan import Found, HtmlBlocks, LineIndex, scan_markdown_masked

# what, in the paragraphs an edit touched, could change how anything else is read: code spans and fences,
# comments and raw HTML, MyST roles and directives, escapes, tabs and indented code, definitions and uses
_CONTEXTUAL = re.compile(
    # (and list items and admonitions: what follows them indented is theirs, not code)
    r"[`~<>{}\t\\]|:::|\]:|\]\[|^ {4}|^[ ]*(?:[-*+]|[0-9]+[.)])(?:[ ]|$)|!!!|\?\?\?|===",
    re.MULTILINE,
)
_BLANK_LINE_AT = re.compile(r"\n[ \t]*\n")
#: characters looked back from an edit for the blank line that starts its paragraph
_PARAGRAPH_WINDOW = 8192


class MarkdownScan(NamedTuple):
    """A Markdown document's scan, kept by a long-lived caller (the language server) to scan an edit of it
    again in part (:func:`rescan_markdown`)."""

    text: str
    #: the text with code, code spans and comments blanked (same length, same line breaks)
    masked: str
    #: the references, with their columns (as :func:`scan_text` gives them)
    found: list[Found]


def scan_markdown_kept(text: str, file: str, html_blocks: HtmlBlocks = None) -> MarkdownScan:
    """:func:`scan_text` of a Markdown text, kept for :func:`rescan_markdown`."""
    found, masked = scan_markdown_masked(text, file, html_blocks)
    return MarkdownScan(text, masked, with_columns(text, found))


def _common_prefix(a: str, b: str) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # (each step one C-level compare of slices)
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def rescan_markdown(previous: MarkdownScan, text: str, file: str, html_blocks: HtmlBlocks = None) -> MarkdownScan:
    """The scan of ``text``, an edit of ``previous.text``. When the edit stays within paragraphs that hold
    nothing that could change how the rest is read (no code, comment, fence, role, definition, CR...), only
    those paragraphs are scanned again and the other references are moved by the edit; otherwise the
    whole text is scanned. Either way the result is what :func:`scan_markdown_kept` gives (a property test
    compares them on random edits)."""
    old = previous.text
    if text == old:
        return previous
    if "\r" in old or "\r" in text or "]:" in old or "]:" in text:
        return scan_markdown_kept(text, file, html_blocks)
    p = _common_prefix(old, text)
    q = _common_suffix(old, text, min(len(old), len(text)) - p)
    before = [m.end() for m in _BLANK_LINE_AT.finditer(old, max(0, p - _PARAGRAPH_WINDOW), p)]
    if not before and p > _PARAGRAPH_WINDOW:
        return scan_markdown_kept(text, file, html_blocks)
    a = before[-1] if before else 0
    after = _BLANK_LINE_AT.search(old, len(old) - q)
    b_old = after.start() if after else len(old)
    b_new = b_old + len(text) - len(old)
    if b_new < p or a > p or b_old - a > 4 * _PARAGRAPH_WINDOW:
        return scan_markdown_kept(text, file, html_blocks)
    region_old, region_new = old[a:b_old], text[a:b_new]
    if (
        not region_old.strip()  # (only text that was read, and not masked, shows it was outside code)
        or previous.masked[a:b_old] != region_old  # the edit was in code or a comment
        or _CONTEXTUAL.search(region_old)
        or _CONTEXTUAL.search(region_new)
        or _BLANK_LINE_AT.search(region_new)  # (a new paragraph break: the neighbours' scans may change)
    ):
        return scan_markdown_kept(text, file, html_blocks)
    found, masked = scan_markdown_masked(region_new, file, html_blocks)
    if masked != region_new:
        return scan_markdown_kept(text, file, html_blocks)
    first_line = text.count("\n", 0, a)
    shift = len(text) - len(old)
    line_shift = region_new.count("\n") - region_old.count("\n")
    region_lines = LineIndex(region_new)
    out: list[Found] = [f for f in previous.found if f.end <= a]
    for f in found:
        span = (f.span[0] + a, f.span[1] + a) if f.span is not None else None
        column = f.start - region_lines.line_start(f.start) + 1  # (the region starts a line)
        out.append(Found(file, f.line + first_line, f.text, f.start + a, f.end + a, f.kind, span, f.label, column))
    for f in previous.found:
        if f.start >= b_old:
            span = (f.span[0] + shift, f.span[1] + shift) if f.span is not None else None
            out.append(Found(file, f.line + line_shift, f.text, f.start + shift, f.end + shift, f.kind, span, f.label, f.column))
    return MarkdownScan(text, previous.masked[:a] + masked + previous.masked[b_old:], out)
