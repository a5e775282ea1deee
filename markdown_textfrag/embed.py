"""What every Python-Markdown host of textfrag does on a page: the MkDocs plugin and the Markdown extension
(Zensical, ProperDocs, MkDocs, plain Python-Markdown) share it, so a page looks the same in all of them.

- :class:`Embedder` quotes a reference (reporting through its host) and turns a Markdown image into an
  excerpt's HTML: the decisions are the core's (:func:`textfrag.verdict.excerpt.excerpt_of`), the drawing is
  :mod:`markdown_textfrag.render`'s.
- :class:`PageState` is what one page's references need while Markdown renders it: the scanner's lines
  (so a problem is located exactly as ``textfrag check`` locates it), the page's anchors, the excerpts
  placed in Markdown's stash.
- :class:`EmbedProcessor` and :class:`AnchorProcessor` are the tree processors; a :class:`Host` (the
  plugin, or the extension's document) decides what a link points to and where problems go.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor

from textfrag import PREFIX, Quote, SourceCache, TextFragError
from textfrag.documents import Found, markdown_in_raw_html, raw_html_references, scan_markdown
from textfrag.verdict import (
    UNREAD_ATTRIBUTES,
    Excerpt,
    Form,
    Forms,
    Settings,
    Translate,
    Verdict,
    identity,
    judge,
    markdown_in_html,
    unique_anchor,
)

from . import render

#: report(where, error, fails_the_build)
Report = Callable[[str, TextFragError, bool], None]


@dataclass
class Placed:
    """An excerpt in Markdown's stash: re-rendered under another id if the page turns out to use its id."""

    stash_index: int
    anchor: str
    identity: tuple[str, str]
    render: Callable[[str], str]


_State = TypeVar("_State", bound="PageState")


@dataclass
class PageState:
    """What one page's references need while Markdown renders it."""

    #: the page's name in messages (``index.md``), or "" when the host does not know it
    src: str
    markdown: str
    #: lines of front matter the engine removed before Markdown saw the page
    front_matter: int = 0
    found: dict[str, deque[Found]] = field(default_factory=dict)  # reference text -> the scanner's finds
    anchors: set[str] = field(default_factory=set)
    placed: list[Placed] = field(default_factory=list)

    @classmethod
    def of(cls: type[_State], src: str, markdown: str, front_matter: int = 0) -> _State:
        """The state of a page, its references located by the scanner ``textfrag check`` uses."""
        state = cls(src, markdown, front_matter)
        if PREFIX in markdown or "{txtfrag}" in markdown:  # plain pages are not scanned
            for f in scan_markdown(markdown, src):
                state.found.setdefault(f.text, deque()).append(f)
            for f in raw_html_references(markdown, src):  # (where a URL in raw HTML stands)
                state.found.setdefault(f.text, deque()).append(f)
        return state

    def myst_forms(self, md_in_html: bool | None = None) -> list[tuple[str, TextFragError]]:
        """The page's MyST directives and roles (Markdown shows them as text or code), and with ``md_in_html``
        known (the page's Python-Markdown enables that extension, or not) its Markdown images inside raw HTML
        blocks (shown as text), each located with its problem, in the words ``check`` and the editor use in a
        Markdown engine's project."""
        out: list[tuple[int, str, TextFragError]] = []
        for f in sorted((f for queue in self.found.values() for f in queue), key=lambda f: f.start):
            problem = _MARKDOWN_FORMS.problem(f, self.markdown, ".md")
            if problem is not None:
                out.append((f.start, self._at(f.line), problem))
        if md_in_html is not None:
            for f in markdown_in_raw_html(self.markdown, self.src, md_in_html=md_in_html):
                out.append((f.start, self._at(f.line), markdown_in_html(f.text, md_in_html)))
        return [(where, problem) for _, where, problem in sorted(out, key=lambda item: item[0])]

    def _at(self, line: int) -> str:
        line += self.front_matter
        return f"{self.src}:{line}" if self.src else f"line {line}"

    def where(self, ref: str, kinds: tuple[str, ...]) -> str:
        """``PAGE.md:LINE`` of the next use of ``ref``: the scanner's line, or, for a construct it does not
        know, the line of the first occurrence of the text not yet claimed."""
        queue = self.found.get(ref)
        line = 0
        while queue:
            f = queue.popleft()
            if f.kind in kinds:
                line = f.line
                break
        if not line:
            at = self.markdown.find(ref)
            line = self.markdown.count("\n", 0, at) + 1 if at >= 0 else 1
        line += self.front_matter
        return f"{self.src}:{line}" if self.src else f"line {line}"


#: what Python-Markdown renders: images and links, not MyST's directives and roles (they are text to it)
_MARKDOWN_FORMS = Forms(myst_forms=False)


class Drawn(NamedTuple):
    """An excerpt ready to be placed: its anchor is chosen by the page, then ``draw(anchor)`` is the HTML."""

    excerpt: Excerpt
    identity: tuple[str, str]
    draw: Callable[[str], str]


@dataclass
class Embedder:
    """Quotes and draws excerpts for one build, with one source cache (each file read once)."""

    cache: SourceCache
    report: Report
    on_stale: str = "error"
    #: warn of bidirectional control characters in a quote (textfrag.source.hidden_text)
    warn_bidi: bool = True
    #: a reference without md5 is a problem (textfrag.verdict.pins)
    require_pin: bool = False
    #: how many references without md5 were quoted (the end-of-build summary counts them)
    unpinned: int = 0
    source_url: str | None = None
    caption: str = "path"
    highlighter: render.Highlighter = field(default_factory=lambda: render.Highlighter("plain", "highlight"))
    translate: Translate = str
    #: absolute paths of the files quoted so far (a server watches them)
    watched: set[str] = field(default_factory=set)
    #: the address of a current quote's lines on its context page, from the page being rendered (a host
    #: with context pages sets it)
    context: Callable[[Quote], str | None] | None = None

    def settings(self) -> Settings:
        """The build's configuration, as the core's verdict takes it."""
        return Settings(
            on_stale=self.on_stale,
            require_pin=self.require_pin,
            auto_caption=self.caption == "path",
            source_url=self.source_url,
            translate=self.translate,
        )

    def judged(self, ref_text: str, where: str, options: Mapping[str, str | None] | None, *, inline: bool) -> Verdict:
        """The core's verdict on a reference and the options written with it, every problem reported."""
        form: Form = "inline" if inline else "block"
        verdict = judge(self.cache, ref_text, options, syntax="md", form=form, settings=self.settings())
        if verdict.reference is not None and not verdict.pinned:  # counted for the end-of-build summary
            self.unpinned += 1
        if verdict.path is not None:
            self.watched.add(str(self.cache.root / verdict.path))
        for problem in verdict.problems:
            self.report(where, problem, True)
        for warning in verdict.warnings:
            if warning.kind != "bidi" or self.warn_bidi:  # a warning: the build goes on (--strict fails)
                self.report(where, warning, warning.kind == "stale" and self.on_stale == "error")
        return verdict

    def quote(self, ref_text: str, where: str) -> Quote | TextFragError:
        """The verified quote a link points to, or the error (reported either way; a stale quote is
        returned, reported)."""
        verdict = self.judged(ref_text, where, None, inline=True)
        if verdict.quote is None or verdict.excerpt is None:
            return verdict.problem or TextFragError("cannot be quoted", reference=ref_text)
        return verdict.quote

    def excerpt(self, ref_text: str, where: str, img: etree.Element, alone: bool) -> str | Drawn:
        """The broken-reference HTML, or the excerpt of a Markdown image ``img`` (a block when ``alone``
        in its paragraph) with attr_list's attributes as options (read by the core's one table)."""
        options: dict[str, str | None] = {k: v for k, v in img.attrib.items() if k != "src"}
        tail = img.tail or ""
        if tail.lstrip(" \t").startswith("{") and "}" in tail.split("\n", 1)[0]:
            # attr_list takes a list that follows the image directly: this one is after a space, or it is off
            options[UNREAD_ATTRIBUTES] = "spaced" if tail[:1] in (" ", "\t") else "off"
        verdict = self.judged(ref_text, where, options, inline=not alone)
        ex, q = verdict.excerpt, verdict.quote
        if ex is None or q is None:
            failure = verdict.problem or TextFragError("cannot be quoted", reference=ref_text)
            said = failure.with_reference(failure.reference or ref_text).describe(where)
            return render.broken(said, inline=not alone, translate=self.translate)
        ident = identity(q.reference)
        context = self.context(q) if self.context is not None and q.stale is None else None
        if not alone:
            return Drawn(ex, ident, lambda a: render.inline(ex, a, context_url=context))
        highlighter = self.highlighter
        # pymdownx.highlight's linenums: true numbers every fence of the site: every block excerpt too
        site_numbers = highlighter.kind == "pymdownx" and highlighter.settings.get("linenums") is True
        start = ex.pieces[0].number if verdict.options.numbered or site_numbers else None
        classes = list(verdict.options.classes)
        return Drawn(
            ex,
            ident,
            lambda a: render.block(ex, a, highlighter=highlighter, linenostart=start, classes=classes, context_url=context),
        )


class Host(Protocol):
    """What a page's tree processors work for: the MkDocs plugin, or the extension's document."""

    @property
    def page(self) -> PageState | None:
        """The page being rendered (None: not one with references, nothing to do)."""

    def embed_element(self, md: Markdown, parent: etree.Element, img: etree.Element) -> None:
        """Replace a txtfrag: image by its excerpt."""

    def verify_link(self, a: etree.Element) -> None:
        """Verify a txtfrag: link and point it at its target (or at a placeholder for one)."""

    def settle_anchors(self, md: Markdown, root: etree.Element) -> None:
        """After the table of contents: give an excerpt whose id a heading took another."""


def place(md: Markdown, state: PageState, parent: etree.Element, img: etree.Element, rendered: str | Drawn) -> Drawn | None:
    """Put an excerpt (or the broken-reference HTML) where the image stood, through Markdown's stash of
    raw HTML; returns the excerpt, its anchor now unique on the page (``state.anchors``)."""
    alone = is_alone(parent, img)
    if isinstance(rendered, str):
        placeholder = md.htmlStash.store(rendered)
        drawn = None
    else:
        anchor = unique_anchor(rendered.excerpt.anchor, state.anchors)
        state.anchors.add(anchor)
        placeholder = md.htmlStash.store(rendered.draw(anchor))
        state.placed.append(Placed(md.htmlStash.html_counter - 1, anchor, rendered.identity, rendered.draw))
        drawn = rendered
    if alone:  # <p>placeholder</p>: Markdown puts the block in place of the paragraph
        parent.remove(img)
        parent.text = placeholder
    else:
        replace_with_text(parent, img, placeholder)
    return drawn


def is_alone(parent: etree.Element, img: etree.Element) -> bool:
    """Whether an image stands alone in its paragraph (a block excerpt) rather than in a sentence."""
    return parent.tag == "p" and len(parent) == 1 and not (parent.text or "").strip() and not (img.tail or "").strip()


def settle(md: Markdown, state: PageState, root: etree.Element) -> list[tuple[Placed, str]]:
    """Give every excerpt whose id another element of the page took (a heading's, from the table of
    contents) another id; returns each moved excerpt with its old anchor."""
    if not state.placed:
        return []
    taken = {el.get("id", "") for el in root.iter()} - {""}
    moved = []
    for placed in state.placed:
        if placed.anchor not in taken:
            continue
        new = unique_anchor(placed.anchor, taken | state.anchors)
        state.anchors.discard(placed.anchor)
        state.anchors.add(new)
        md.htmlStash.rawHtmlBlocks[placed.stash_index] = placed.render(new)
        moved.append((placed, placed.anchor))
        placed.anchor = new
    return moved


class _HostProcessor(Treeprocessor):
    """A tree processor of one page's Markdown instance that works for a host."""

    def __init__(self, md: Markdown, host: Host, guard: Callable[[Callable[[], None]], None]) -> None:
        super().__init__(md)
        self.host = host
        self.guard = guard


class EmbedProcessor(_HostProcessor):
    """Every ``img``/``a`` element Markdown made with a txtfrag: URL, wherever it stands (admonitions,
    tabs, lists, tables, reference-style links, headings): what Markdown itself parsed is what is embedded."""

    def run(self, root: etree.Element) -> None:
        """Embed every txtfrag: image of the page, then verify every txtfrag: link (the page's embeds known)."""
        if self.host.page is None:
            return
        images, links = [], []
        for parent in root.iter():
            for child in parent:
                if child.tag == "img" and child.get("src", "").startswith(PREFIX):
                    images.append((parent, child))
                elif child.tag == "a" and child.get("href", "").startswith(PREFIX):
                    links.append(child)

        def work() -> None:
            for parent, img in images:
                self.host.embed_element(self.md, parent, img)
            for a in links:
                self.host.verify_link(a)

        self.guard(work)


class AnchorProcessor(_HostProcessor):
    """After the table of contents: excerpt ids that a heading took are changed."""

    def run(self, root: etree.Element) -> None:
        """Give every excerpt whose id an element of the page took another id; then tell MkDocs (or
        ProperDocs) the excerpts' ids, which stand in raw HTML its anchor collector does not read, so that
        its link validation (``validation: anchors``) knows them, with or without the plugin."""
        page = self.host.page
        if page is None:
            return
        self.guard(lambda: self.host.settle_anchors(self.md, root))
        if "mkdocs_extract_anchors" in self.md.treeprocessors:
            present = getattr(self.md.treeprocessors["mkdocs_extract_anchors"], "present_anchor_ids", None)
            if isinstance(present, set):
                present.update(page.anchors)


def register(md: Markdown, host: Host, guard: Callable[[Callable[[], None]], None]) -> None:
    """Register the tree processors on a page's Markdown instance: after attr_list (8), which sets the
    attributes; before the table of contents (5), which must see the excerpt's text, not an image, in a
    heading; ids are settled after it (4)."""
    md.treeprocessors.register(EmbedProcessor(md, host, guard), "textfrag", 7)
    md.treeprocessors.register(AnchorProcessor(md, host, guard), "textfrag-anchors", 4)


def replace_with_text(parent: etree.Element, child: etree.Element, text: str) -> None:
    """Remove ``child`` from ``parent``, leaving ``text`` (then the child's tail) where it stood."""
    index = list(parent).index(child)
    joined = text + (child.tail or "")
    if index == 0:
        parent.text = (parent.text or "") + joined
    else:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + joined
    parent.remove(child)


def front_matter_lines(raw: str, markdown: str) -> int:
    """Lines of front matter an engine removed from a page's file (``raw``) before Markdown saw ``markdown``."""
    raw = raw.replace("\r\n", "\n")
    if raw.endswith(markdown) and len(raw) > len(markdown):
        return raw.count("\n", 0, len(raw) - len(markdown))
    return 0
