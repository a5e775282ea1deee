"""Text that reads differently from what it does: bidirectional control characters in a quote.

U+202A-U+202E (embeddings and overrides) and U+2066-U+2069 (isolates) reorder how a line is shown, so a
quoted excerpt can show code that does something else (Trojan Source, CVE-2021-42574); GitHub warns on
such files. Every engine and ``textfrag check`` warn about them (warning kind ``bidi``), and the HTML
marks each one where it stands. Finding them is one regex scan of a file's text (linear), done only for
files that are not pure ASCII.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["BIDI", "KIND", "bidi_note", "mark_html"]

#: the bidirectional formatting characters that can reorder a line (Unicode UAX #9, 2.1-2.4)
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: the warning's kind (Sphinx subtype ``textfrag.bidi``, SARIF rule ``textfrag/bidi``)
KIND = "bidi"


def bidi_note(text: str, first_line: int = 1) -> str | None:
    """What to say of ``text`` (an excerpt whose first line is the file's ``first_line``, 1-based) when it
    holds bidirectional control characters; None when it holds none.

    >>> print(bidi_note("ok\\nx = 1 \\u202e# y\\n", 10)[:82])
    the excerpt holds a bidirectional control character (U+202E RIGHT-TO-LEFT OVERRIDE
    """
    found = list(BIDI.finditer(text))
    if not found:
        return None
    first = found[0]
    line = first_line + text.count("\n", 0, first.start())
    what = f"U+{ord(first.group()):04X} {unicodedata.name(first.group(), '')} at line {line}"
    count = "a bidirectional control character" if len(found) == 1 else f"{len(found)} bidirectional control characters"
    more = "" if len(found) == 1 else ", the first"
    return (
        f"the excerpt holds {count} ({what}{more}): the text may read differently from what it is (Trojan Source, CVE-2021-42574)"
    )


def mark_html(html: str) -> str:
    """Highlighted HTML with each bidirectional control character wrapped in a visible mark that also
    isolates it (so it reorders nothing around it); the character itself stays, so the element's text is
    still the excerpt. The characters are never HTML-special, so they stand only in text."""
    if not BIDI.search(html):
        return html
    return BIDI.sub(
        lambda m: (
            f'<span class="txtfrag-bidi" title="U+{ord(m.group()):04X} {unicodedata.name(m.group(), "")}" '
            f'data-codepoint="U+{ord(m.group()):04X}">{m.group()}</span>'
        ),
        html,
    )
