"""Doctree nodes for excerpts and their HTML. Other builders get plain Sphinx nodes instead.

``txtfrag_block`` is a literal-block container (caption + highlighted ``literal_block``) whose HTML
element carries the contract's class, id and ``data-txtfrag-*`` attributes (the manual's reference/html
page); being a ``literal_block`` container, Sphinx gives its caption the permalink to its id.
``txtfrag_inline`` is a ``code`` element inside a ``span`` with the same attributes.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from pygments.formatters import HtmlFormatter
from sphinx.application import Sphinx
from sphinx.locale import _ as sphinx_
from sphinx.writers.html5 import HTML5Translator

from textfrag.source import BIDI, mark_html

DATA_KEYS = ("ref", "md5", "length", "charset", "state")
#: Sphinx's own title of a code block's permalink (translated by Sphinx's catalogs)
PERMALINK_TITLE = "Link to this code"


class txtfrag_block(nodes.container):  # noqa: N801 (docutils node names are lower case)
    """A block excerpt: ``caption`` then ``literal_block``; attributes ``txtfrag_<key>``."""


class txtfrag_inline(nodes.literal):  # noqa: N801
    """An inline excerpt; its text is the excerpt."""


def _data_attributes(node: nodes.Element) -> dict[str, Any]:
    return {f"data-txtfrag-{key}": str(node[f"txtfrag_{key}"]) for key in DATA_KEYS}


def visit_block_html(self: HTML5Translator, node: txtfrag_block) -> None:
    """Open the excerpt's ``div`` with the contract's class, id and data attributes; while its block is
    highlighted, Sphinx's highlighter reuses one Pygments formatter per set of options."""
    node["txtfrag_body_start"] = len(self.body)
    self.body.append(self.starttag(node, "div", CLASS="docutils container", **_data_attributes(node)))
    _formatters_kept(self.highlighter, True)


def _formatters_kept(bridge: Any, keep: bool) -> None:
    """Sphinx makes a Pygments ``HtmlFormatter`` for every block it highlights, and making one costs more
    than highlighting a short excerpt (its style's table of token classes); a formatter holds only its
    options and a cache of what it has drawn, so one made with the same options draws the same HTML. For
    an excerpt's block only (set on entering it, taken off on leaving it), the formatter made with the same
    options is reused: the builder's highlighter keeps them."""
    if not keep:
        vars(bridge).pop("get_formatter", None)  # (the class's own again)
        return
    kept: dict[tuple[Any, ...], Any] = vars(bridge).setdefault("_textfrag_formatters", {})
    pygments_own = getattr(bridge.formatter, "__origin__", bridge.formatter) is HtmlFormatter

    def get_formatter(**kwargs: Any) -> Any:
        kwargs.update(bridge.formatter_args)
        options = kwargs
        if pygments_own and not (kwargs.get("linenos") or kwargs.get("lineanchors") or kwargs.get("linespans")):
            # Pygments' HtmlFormatter reads linenostart only to number lines: without numbers, one formatter
            # draws every start alike
            options = {k: v for k, v in kwargs.items() if k != "linenostart"}
        try:
            key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
            formatter = kept.get(key)
        except TypeError:  # (an option that cannot be a key: a new formatter, as Sphinx makes one)
            return bridge.formatter(**kwargs)
        if formatter is None:
            formatter = kept[key] = bridge.formatter(**options)
        return formatter

    bridge.get_formatter = get_formatter


def depart_block_html(self: HTML5Translator, node: txtfrag_block) -> None:
    # Pygments ends every highlighted line with a newline; a piece that does not end with a line ending
    # in the file must not gain one, since the pre's text is the excerpt (the manual's reference/html page)
    """Close the ``div``; drop the trailing newline Pygments adds to a piece that has none."""
    _formatters_kept(self.highlighter, False)
    texts = [lit.astext() for lit in node.findall(nodes.literal_block)]
    unterminated = [not text.endswith("\n") for text in texts]
    chunks = [i for i in range(node["txtfrag_body_start"], len(self.body)) if "</pre>" in self.body[i]]
    if any(BIDI.search(text) for text in texts):  # each bidirectional control character marked where it stands
        for i in chunks:
            self.body[i] = mark_html(self.body[i])
    for i, strip in zip(chunks, unterminated, strict=False):
        if strip:
            head, sep, tail = self.body[i].rpartition("\n</pre>")
            if sep:
                self.body[i] = head + "</pre>" + tail
    if not any(isinstance(child, nodes.caption) for child in node.children):
        # no caption, so Sphinx gives the block no permalink: one at its corner, shown on hover and focus, that
        # takes no room (a caption holding only the permalink would be a bar that literalinclude never draws)
        if node["ids"] and self.config.html_permalinks and self.builder.add_permalinks:
            title = self.attval(sphinx_(PERMALINK_TITLE))
            icon = self.config.html_permalinks_icon
            self.body.append(f'<a class="headerlink txtfrag-corner" href="#{node["ids"][0]}" title="{title}">{icon}</a>')
    self.body.append("</div>\n")


#: the inline excerpt's link to its source: an arrow out of the page
SOURCE_ICON = "\u2197"
#: the inline excerpt's link to its lines in context (the context page)
CONTEXT_ICON = "\u2922"


def visit_inline_html(self: HTML5Translator, node: txtfrag_inline) -> None:
    """The inline excerpt: ``span`` > ``code``, a permalink and the source link."""
    attrs = _data_attributes(node)
    self.body.append(self.starttag(node, "span", "", **attrs))
    code_classes = "docutils literal notranslate txtfrag-code"
    self.body.append(f'<code class="{code_classes}">{mark_html(self.encode(node.astext()))}</code>')
    title, source, stale, context = node.get("txtfrag_labels") or ("Link to this excerpt", "view source", "stale", "in context")
    if node["ids"] and self.config.html_permalinks and self.builder.add_permalinks:
        icon = self.config.html_permalinks_icon
        self.body.append(f'<a class="headerlink" href="#{node["ids"][0]}" title="{title}">{icon}</a>')
    if node.get("txtfrag_source_url"):
        url = self.attval(node["txtfrag_source_url"])
        # an icon that reads as a link to the source, named for screen readers (not a footnote-like word)
        label = self.attval(source)
        self.body.append(
            f'<a class="txtfrag-source reference external" href="{url}" title="{label}" aria-label="{label}">'
            f'<span aria-hidden="true">{SOURCE_ICON}</span></a>'
        )
    if node.get("txtfrag_context_url"):  # its lines on the file's context page
        url, label = self.attval(node["txtfrag_context_url"]), self.attval(context)
        self.body.append(
            f'<a class="txtfrag-context-link reference internal" href="{url}" title="{label}" aria-label="{label}">'
            f'<span aria-hidden="true">{CONTEXT_ICON}</span></a>'
        )
    if node.get("txtfrag_notice"):  # stale, and the build went on: a visible mark with the reason
        notice = self.attval(node["txtfrag_notice"])
        mark = self.encode(stale)
        self.body.append(f'<span class="txtfrag-stale-mark" title="{notice}" role="note" aria-label="{notice}">{mark}</span>')
    self.body.append("</span>")
    raise nodes.SkipNode


def plain_nodes(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """For builders other than HTML (latex, text, man, texinfo...), replace the excerpt nodes by the
    plain nodes Sphinx renders everywhere: a captioned literal block and an inline literal."""
    if app.builder.format == "html":
        return
    for link in list(doctree.findall(nodes.reference)):
        if "txtfrag-source" in link.get("classes", []):  # the URL itself, never a label that leads nowhere
            link.parent.replace(link, nodes.Text(link["refuri"]))
    for block in list(doctree.findall(txtfrag_block)):
        plain = nodes.container("", *block.children, literal_block=True, classes=["literal-block-wrapper"])
        plain["ids"] = block["ids"]
        block.replace_self(plain)
    for inline in list(doctree.findall(txtfrag_inline)):
        literal = nodes.literal(inline.astext(), inline.astext())
        literal["ids"] = inline["ids"]
        inline.replace_self(literal)


def _caption_of(node: nodes.Node) -> str:
    """The caption without its "view source" link: the title of :ref: and :numref: links."""
    return str(node.get("txtfrag_caption", "")) if isinstance(node, nodes.Element) else ""


def setup_nodes(app: Sphinx) -> None:
    # enumerable like a code-block, so that :name: works with :ref: and :numref:
    """Register the nodes (the block as an enumerable code-block) and the non-HTML fallback."""
    app.add_enumerable_node(txtfrag_block, "code-block", _caption_of, html=(visit_block_html, depart_block_html))
    app.add_node(txtfrag_inline, html=(visit_inline_html, None))
    app.connect("doctree-resolved", plain_nodes)
