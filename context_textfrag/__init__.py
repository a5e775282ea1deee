"""Context pages (opt-in: Sphinx ``textfrag_context_pages``, MkDocs ``context_pages``): each quoted file gets
one highlighted page in the built site, with an anchor per line (``#L12``) and every quoted range marked;
each excerpt links "in context" to its lines there.

On that page an RFC 5147 fragment in the address (``#line=10,20``, ``#char=120,480``, with or without
``;length=``/``;md5=``) and a GitHub-style one (``#L11-L20``, ``#L11``) scroll to the range and highlight
it: a small script in the page, no request anywhere, so the standard's URLs work in a browser.

Shared by the Sphinx extension and the MkDocs plugin; the page is self-contained (its own styles), so it
is written once per file and rewritten only when what it shows changed (:func:`write_if_changed`).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

from textfrag import Source
from textfrag.verdict import display_text, language_for

__all__ = ["FOLDER", "context_url", "page_path", "render_page", "write_if_changed"]

#: where the pages go in the built site
FOLDER = "_textfrag"


def page_path(quoted: str) -> str:
    """The site path of a quoted file's page: ``_textfrag/src/app.py.html``."""
    return f"{FOLDER}/{quoted}.html"


def context_url(quoted: str, first: int, last: int) -> str:
    """The page's address of 1-based lines ``first``-``last`` (GitHub's form, which the page reads)."""
    return f"{page_path(quoted)}#L{first}" + (f"-L{last}" if last > first else "")


_SCRIPT = """
(function () {
  var starts = JSON.parse(document.getElementById("txtfrag-starts").textContent);
  var lines = document.querySelectorAll(".txtfrag-context .line");
  function lineOfChar(c) { var lo = 0, hi = starts.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (starts[mid] <= c) lo = mid; else hi = mid - 1; } return lo + 1; }
  function range(hash) {
    var h = decodeURIComponent(hash.replace(/^#/, "")).split(";")[0], m;
    if ((m = /^L(\\d+)(?:-L?(\\d+))?$/.exec(h))) return [+m[1], m[2] ? +m[2] : +m[1]];
    if ((m = /^line=(\\d*)(?:,(\\d*))?$/.exec(h))) {  /* RFC 5147 line positions: line=a,b is lines a+1..b */
      var a = m[1] === "" ? 0 : +m[1], b = m[2] === undefined ? a + 1 : (m[2] === "" ? lines.length : +m[2]);
      return [a + 1, Math.max(a + 1, b)]; }
    if ((m = /^char=(\\d*)(?:,(\\d*))?$/.exec(h))) {  /* RFC 5147 character positions: the lines they fall in */
      var s = m[1] === "" ? 0 : +m[1], e = m[2] === undefined || m[2] === "" ? s : +m[2];
      return [lineOfChar(s), lineOfChar(Math.max(s, e - 1))]; }
    return null;
  }
  function show() {
    var r = range(location.hash);
    for (var i = 0; i < lines.length; i++) lines[i].classList.remove("target");
    if (!r) return;
    var first = Math.max(1, Math.min(r[0], lines.length)), last = Math.max(first, Math.min(r[1], lines.length));
    for (var n = first; n <= last; n++) lines[n - 1].classList.add("target");
    lines[first - 1].scrollIntoView({block: "center"});
  }
  window.addEventListener("hashchange", show);
  show();
})();
"""

_CSS = """
body { margin: 0; font-family: system-ui, sans-serif; color: #1f2328; background: #fff; }
header { padding: 0.8em 1.2em; border-bottom: 1px solid #d0d7de; }
header h1 { font-size: 1.1em; margin: 0.2em 0 0; font-family: ui-monospace, monospace; }
header a { font-size: 0.9em; }
pre.txtfrag-context { margin: 0; padding: 0.6em 0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
.txtfrag-context .line { display: block; padding-right: 1em; }
.txtfrag-context .ln { display: inline-block; width: 4em; padding-right: 1em; text-align: right; color: #8c959f;
  text-decoration: none; user-select: none; }
.txtfrag-context .line.quoted { background: #f6f8fa; box-shadow: inset 3px 0 0 #d0d7de; }
.txtfrag-context .line.target { background: #fff8c5; box-shadow: inset 3px 0 0 #bf8700; }
@media (prefers-color-scheme: dark) {
  body { color: #e6edf3; background: #0d1117; } header { border-color: #30363d; }
  .txtfrag-context .line.quoted { background: #161b22; box-shadow: inset 3px 0 0 #30363d; }
  .txtfrag-context .line.target { background: #3b2e00; box-shadow: inset 3px 0 0 #d29922; }
}
"""


def render_page(source: Source, ranges: set[tuple[int, int]], *, home: str, language: str = "", title: str = "") -> str:
    """The page of one quoted file: every line with its anchor, the quoted ``ranges`` (1-based, inclusive)
    marked. ``home`` is the site's start page, relative to this page."""
    text = display_text(source.text)
    try:
        lexer = get_lexer_by_name(language or language_for(source.path), stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False, ensurenl=False)
    # nowrap: each output line closes its own spans, so the lines can be split and wrapped one by one
    formatter = HtmlFormatter(nowrap=True)
    drawn = highlight(text, lexer, formatter)
    rows = drawn.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    quoted = {n for first, last in ranges for n in range(first, last + 1)}
    body = "".join(
        f'<span class="line{" quoted" if n in quoted else ""}" id="L{n}"><a class="ln" href="#L{n}">{n}</a>{row}\n</span>'
        for n, row in enumerate(rows, 1)
    )
    starts = [source.char_of_index(i) for i in source.line_starts]
    styles = formatter.get_style_defs(".txtfrag-context")
    name = escape(title or source.path)
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{name}</title><style>{_CSS}{styles}</style></head>\n"
        f'<body><header><a href="{escape(home)}">&larr;</a><h1>{name}</h1></header>\n'
        f'<pre class="txtfrag-context">{body}</pre>\n'
        f'<script type="application/json" id="txtfrag-starts">{json.dumps(starts)}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body></html>\n"
    )


def write_if_changed(path: Path, html: str) -> bool:
    """Write a page unless it already holds exactly this (an incremental build rewrites only what changed)."""
    data = html.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True
