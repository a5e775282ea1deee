"""HTML of excerpts for MkDocs, in the classes of the site's own code highlighter.

With ``pymdownx.highlight`` (Material) or ``codehilite`` configured, excerpts are highlighted by Pygments
into ``div.<css_class>`` like the site's other code blocks; with neither, by Pygments into
``div.highlight`` with the plugin's stylesheet, every excerpt alike: numbered or not, emphasized or not,
excerpts look the same on a page (highlight.js, which such themes use for fences, can neither number nor
emphasize lines).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from html import escape
from typing import Any, Literal

from textfrag.errors import literal_parts
from textfrag.source import mark_html
from textfrag.verdict import ELISION, Excerpt, Labels, Translate


@dataclass(frozen=True)
class Highlighter:
    """How the site highlights code: ``pymdownx``, ``codehilite`` or ``plain``, and its CSS class."""

    kind: Literal["pymdownx", "codehilite", "plain"]
    css_class: str
    #: pymdownx.highlight's options as the site sets them (line_spans, anchor_linenums, linenums_style...)
    settings: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, extensions: list[str], configs: dict[str, dict[str, object]]) -> Highlighter:
        """The site's highlighter, from its Markdown extensions and their options."""
        names = {e.removeprefix("markdown.extensions.") for e in extensions}
        if names & {"pymdownx.highlight", "pymdownx.superfences"}:
            settings = dict(configs.get("pymdownx.highlight") or {})
            return cls("pymdownx", str(settings.get("css_class", "highlight")), settings)
        if "codehilite" in names:
            return cls(
                "codehilite",
                str(configs.get("codehilite", configs.get("markdown.extensions.codehilite", {})).get("css_class", "codehilite")),
            )
        return cls("plain", "highlight")

    @classmethod
    def of_markdown(cls, md: Any) -> Highlighter:
        """The highlighter of a Markdown instance, from the extensions registered on it (every extension
        has registered by the time a document is converted)."""
        names, configs = [], {}
        for ext in getattr(md, "registeredExtensions", []):
            module = type(ext).__module__
            names.append(module)
            if module in ("pymdownx.highlight", "markdown.extensions.codehilite"):
                configs[module.removeprefix("markdown.extensions.")] = dict(ext.getConfigs())
        return cls.of(names, configs)


def _data(e: Excerpt) -> str:
    return " ".join(f'data-txtfrag-{k}="{escape(v)}"' for k, v in e.data.items())


def _permalink(anchor: str, title: str = "Link to this excerpt") -> str:
    return f'<a class="headerlink" href="#{anchor}" title="{escape(title)}">&para;</a>'


def _source_link(url: str | None, text: str) -> str:
    return f' <a class="txtfrag-source" href="{escape(url)}">{text}</a>' if url else ""


#: the inline excerpt's link to its source: an arrow out of the page
SOURCE_ICON = "\u2197"


def _source_icon(url: str | None, label: str) -> str:
    """An inline excerpt's source link: an icon that reads as a link, named for screen readers."""
    if not url:
        return ""
    said = escape(label)
    icon = f'<span aria-hidden="true">{SOURCE_ICON}</span>'
    return f'<a class="txtfrag-source" href="{escape(url)}" title="{said}" aria-label="{said}">{icon}</a>'


#: the inline excerpt's link to its lines in context (the context page)
CONTEXT_ICON = "\u2922"


def _context_icon(url: str | None, label: str) -> str:
    """An inline excerpt's link to its context page: an icon, named for screen readers."""
    if not url:
        return ""
    said = escape(label)
    icon = f'<span aria-hidden="true">{CONTEXT_ICON}</span>'
    return f'<a class="txtfrag-context-link" href="{escape(url)}" title="{said}" aria-label="{said}">{icon}</a>'


def _pygments(text: str, language: str, css_class: str, linenostart: int | None, hl_lines: list[int]) -> str:
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import get_lexer_by_name
        from pygments.lexers.special import TextLexer
        from pygments.util import ClassNotFound
    except ImportError:  # Pygments is optional (plain Python-Markdown): the same markup, not coloured
        return _plain(text, css_class, linenostart, hl_lines)
    try:
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False, ensurenl=False)
    formatter = HtmlFormatter(
        cssclass=css_class,
        wrapcode=True,
        linenos="table" if linenostart is not None else False,
        linenostart=linenostart or 1,
        hl_lines=hl_lines,
    )
    html: str = highlight(text, lexer, formatter)
    if not text.endswith("\n"):
        # the formatter ends every line with a newline; the excerpt's text must stay as quoted
        head, sep, tail = html.rpartition("\n</code></pre>")
        html = head + "</code></pre>" + tail if sep else html
    return html


def _plain(text: str, css_class: str, linenostart: int | None, hl_lines: list[int]) -> str:
    """The markup Pygments' HtmlFormatter draws (``linenos="table"``, ``wrapcode``, ``hl_lines``), without
    Pygments: the text escaped, not coloured."""
    lines = text.split("\n")
    ending = lines[-1] == ""
    if ending:
        lines.pop()
    marked = set(hl_lines)
    body = "".join(
        (f'<span class="hll">{escape(line)}\n</span>' if n in marked else f"{escape(line)}\n") for n, line in enumerate(lines, 1)
    )
    if not ending and body.endswith("\n</span>"):
        body = body[: -len("\n</span>")] + "</span>"
    elif not ending:
        body = body[:-1]
    code = f"<pre><span></span><code>{body}</code></pre>"
    if linenostart is None:
        return f'<div class="{css_class}">{code}</div>\n'
    numbers = "\n".join(f'<span class="normal">{linenostart + i}</span>' for i in range(len(lines)))
    return (
        f'<div class="{css_class}"><table class="{css_class}table"><tr><td class="linenos"><div class="linenodiv">'
        f'<pre>{numbers}</pre></div></td><td class="code"><div>{code}</div></td></tr></table></div>\n'
    )


@functools.cache
def _highlight_parameters() -> frozenset[str]:
    """The site options pymdownx's ``Highlight`` takes (looked up once, not for every block)."""
    import inspect

    from pymdownx.highlight import Highlight

    return frozenset(inspect.signature(Highlight.__init__).parameters) - {"self", "md", "linenums", "stripnl", "title_mode"}


def _pymdownx(
    text: str,
    language: str,
    highlighter: Highlighter,
    linenostart: int | None,
    hl_lines: list[int],
    title: str | None,
    block_id: str,
) -> str:
    """A block as pymdownx.highlight draws a fence, with the site's own options (line spans, line anchors,
    the language class, the line number style...): its own ``Highlight`` class does the drawing, so the
    markup is the site's. ``title`` (already HTML) takes the place of the fence's title."""
    from pymdownx.highlight import Highlight

    accepted = _highlight_parameters()
    options = {k: v for k, v in highlighter.settings.items() if k in accepted}
    # numbered only when asked, from the number given; the quoted text is shown as it is (no newline stripped)
    drawer = Highlight(None, linenums=None, stripnl=False, title_mode="text", **options)
    marker = f"txtfrag-title-{block_id}"
    html: str = drawer.highlight(
        text,
        language,
        highlighter.css_class,
        hl_lines=hl_lines,
        linestart=linenostart if linenostart is not None else 0,
        title=marker if title is not None else None,
        code_block_count=block_id,  # the line anchors' ids: unique on the page
    )
    if title is not None:
        html = html.replace(f'<span class="filename">{marker}</span>', title, 1)
    if not text.endswith("\n"):
        head, sep, tail = html.rpartition("\n</code></pre>")
        html = head + "</code></pre>" + tail if sep else html
    return html


def _elision(label: str) -> str:
    return f'<div class="txtfrag-elision" aria-label="{escape(label)}">{ELISION}</div>'


def _context_link(url: str | None, label: str) -> str:
    return f' <a class="txtfrag-context-link" href="{escape(url)}">{escape(label)}</a>' if url else ""


def block(
    e: Excerpt,
    anchor: str,
    *,
    highlighter: Highlighter,
    linenostart: int | None,
    classes: list[str],
    context_url: str | None = None,
) -> str:
    """A block excerpt: ``div.txtfrag`` with the caption (permalink, view-source link) and the code.

    ``linenostart``: None for no line numbers, else the first piece's first number; further pieces of a
    disjoint selection are numbered as in the file, with an elision marker between pieces.
    """
    links = (
        f"{_permalink(anchor, e.labels.permalink)}{_source_link(e.source_url, e.labels.view_source)}"
        f"{_context_link(context_url, e.labels.in_context)}"
    )
    title = f'<span class="filename">{escape(e.caption)}{links}</span>'
    codes = []
    for i, piece in enumerate(e.pieces):
        start = None if linenostart is None else (linenostart if i == 0 else piece.number)
        hl = list(piece.emphasized)
        if highlighter.kind == "pymdownx" and highlighter.settings.get("use_pygments", True) is not False:
            # no caption: no title, as a fence without one (the permalink stands beside the block)
            drawn_title = title if i == 0 and e.caption else None
            codes.append(_pymdownx(piece.text, e.language, highlighter, start, hl, drawn_title, f"{anchor}-{i}"))
        else:
            codes.append(_pygments(piece.text, e.language, highlighter.css_class, start, hl))
    if e.hidden is not None:  # each bidirectional control character marked where it stands (textfrag.source.hidden_text)
        codes = [c[: c.find("<pre")] + mark_html(c[c.find("<pre") :]) if "<pre" in c else c for c in codes]
    body = _elision(e.labels.elision).join(codes)
    opening = f'<div class="{highlighter.css_class}">'
    if highlighter.kind == "pymdownx" and not e.caption and title not in body:
        code = f'<div class="txtfrag-links">{links}</div>{body}'
    elif title in body:  # drawn where pymdownx draws a fence's title
        code = body
    elif body.startswith(opening):
        code = body.replace(opening, opening + title, 1)
    else:
        code = f'<p class="txtfrag-caption">{title}</p>{body}'
    if e.state == "stale":  # the build goes on (warning mode, serve): the reader is told
        code = _stale(e) + code
    cls = " ".join(["txtfrag", *classes])
    return f'<div class="{escape(cls)}" id="{escape(anchor)}" {_data(e)}>{code}</div>'


def _stale(e: Excerpt) -> str:
    """The mark of a stale excerpt: an admonition in the theme's warning style, with the short reason."""
    return (
        f'<div class="admonition warning txtfrag-stale"><p class="admonition-title">{escape(e.labels.stale_title)}</p>'
        f"<p>{escape(e.notice or '')}</p></div>"
    )


def inline(e: Excerpt, anchor: str, *, context_url: str | None = None) -> str:
    """An inline excerpt: ``span.txtfrag`` holding the ``code``."""
    mark = ""
    if e.notice:  # stale, and the build went on: a visible mark with the reason
        said = escape(e.notice)
        word = escape(e.labels.stale_mark)
        mark = f'<span class="txtfrag-stale-mark" title="{said}" role="note" aria-label="{said}">{word}</span>'
    return (
        f'<span class="txtfrag" id="{escape(anchor)}" {_data(e)}><code>{mark_html(escape(e.inline_text))}</code>'
        f"{_permalink(anchor, e.labels.permalink)}{_source_icon(e.source_url, e.labels.view_source)}"
        f"{_context_icon(context_url, e.labels.in_context)}{mark}</span>"
    )


def broken(message: str, *, inline: bool, translate: Translate | None = None) -> str:
    """What stands in the page for a reference that cannot be quoted (the build fails, or serve shows it):
    a block is the theme's failure admonition with the problem as the build reported it."""
    if inline:
        return f'<span class="txtfrag-error">[textfrag: {escape(message)}]</span>'
    return (
        '<div class="admonition failure error txtfrag-error">'
        f'<p class="admonition-title">{escape(Labels.of(translate or str).broken_title)}</p>'
        f"<p>{_with_literals(message)}</p></div>"
    )


def _with_literals(message: str) -> str:
    """A message as HTML: what it writes between backticks as code (a command, an option), never raw backticks."""
    return "".join(f"<code>{escape(part)}</code>" if literal else escape(part) for part, literal in literal_parts(message))


CSS = """\
/* textfrag: excerpts quoted from source files */
.txtfrag .filename .headerlink { display: inline; opacity: 0; margin-left: 0.3em; text-decoration: none; }
span.txtfrag { position: relative; }
/* the permalink of an inline excerpt takes no room in the sentence: it shows above the excerpt's end */
span.txtfrag > .headerlink { display: inline; opacity: 0; position: absolute; right: 0; bottom: 100%; margin: 0;
  line-height: 1; text-decoration: none; }
div.txtfrag:hover .filename .headerlink, span.txtfrag:hover > .headerlink, .txtfrag .headerlink:focus { opacity: 1; }
div.txtfrag { position: relative; }
/* Material runs its code blocks edge to edge on phones: excerpts too */
@media screen and (max-width: 44.984375em) {
  .md-content__inner > div.txtfrag { margin-left: -0.8rem; margin-right: -0.8rem; }
  .md-content__inner > div.txtfrag .highlight code, .md-content__inner > div.txtfrag .filename,
  .md-content__inner > div.txtfrag .linenos { border-radius: 0; }
}
.txtfrag > .txtfrag-links { position: absolute; top: 0.1em; right: 2.8em; z-index: 1; font-size: 85%; }
.txtfrag > .txtfrag-links .headerlink { display: inline; opacity: 0; text-decoration: none; }
div.txtfrag:hover > .txtfrag-links .headerlink, .txtfrag > .txtfrag-links .headerlink:focus { opacity: 1; }
/* (not the th that holds pymdownx's title over a numbered block: a block th breaks its table's columns) */
.txtfrag .filename:not(th) { display: block; font-size: 85%; padding: 0.3em 0.6em; }
.txtfrag .txtfrag-source, .txtfrag .txtfrag-context-link { font-size: 85%; margin-left: 0.5em; }
span.txtfrag > code { white-space: pre-wrap; }
span.txtfrag > .txtfrag-source, span.txtfrag > .txtfrag-context-link { font-size: 80%; margin-left: 0.1em;
  text-decoration: none; }
.txtfrag-elision { text-align: center; opacity: 0.6; line-height: 1; margin: 0.2em 0; }
div.txtfrag-error > p:not(.admonition-title) { white-space: pre-wrap; }
span.txtfrag-error { color: #b00020; font-weight: bold; }
.txtfrag .txtfrag-bidi { unicode-bidi: isolate; background: #f0b37e; color: #000; border-radius: 0.2em; }
.txtfrag .txtfrag-bidi::before { content: attr(data-codepoint); font-size: 75%; padding: 0 0.2em; }
span.txtfrag > .txtfrag-stale-mark { font-size: 70%; vertical-align: super; margin-left: 0.2em; padding: 0 0.3em;
  border-radius: 0.3em; background: #f0b37e; color: #000; }
"""


def stylesheet(highlighter: Highlighter) -> str:
    """The plugin's CSS; with no highlighter of the site's own, a Pygments style for its blocks too."""
    if highlighter.kind != "plain":
        return CSS
    try:
        from pygments.formatters import HtmlFormatter
    except ImportError:  # (no Pygments: blocks are not coloured, and need no colours)
        return CSS + "\n.txtfrag .highlight .hll { background-color: #ffffcc; }\n"
    style: str = HtmlFormatter().get_style_defs(".txtfrag .highlight")
    return CSS + style + "\n.txtfrag .highlight .hll { background-color: #ffffcc; }\n"
