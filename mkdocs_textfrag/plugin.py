"""MkDocs plugin: ``plugins: [textfrag]``.

- ``![caption](txtfrag:REF)`` alone in a paragraph embeds a block excerpt, inside a sentence an inline
  one; attr_list attributes after it (``{ .python linenums hl_lines="2 3" }``) set the language, line
  numbers (the source file's own unless a number is given) and highlighted lines (1-based within the
  excerpt, as pymdownx counts them).
- ``[text](txtfrag:REF)`` is a verified link: to the excerpt's anchor where a page embeds the same
  reference, else to ``source_url``.
- A reference inside a code span or block is left as text; no ``txtfrag:`` URI is left in the HTML.
- Every problem is reported with the page's source file and line; after the last page, any error fails
  ``mkdocs build`` listing them all, once (``mkdocs serve`` logs them as they come and goes on).

How: what Python-Markdown itself parsed as an image or a link is what gets embedded or verified. A
tree processor (after attr_list, before the table of contents) replaces every ``img``/``a`` element whose
URL starts with ``txtfrag:``, wherever Markdown put it (admonitions, content tabs, lists, tables,
reference-style links, links around images, headings), so the page and ``textfrag check`` (the same
scanner gives the lines) agree, and nothing is left behind. Excerpts go into the page through
Python-Markdown's own stash of raw HTML, so no placeholder text can reach the table of contents, the
heading ids or the search index; link targets, which need every page's embeds, are filled in last
through placeholders that carry a random per-build key and are replaced in one pass.

Thin: the textfrag core parses, loads, counts and verifies; textfrag.present makes the decisions shared
with Sphinx.
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
import xml.etree.ElementTree as etree
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, TypeVar, cast

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import textfrag
from textfrag import Quote, SourceCache, TextFragError, parse_reference, quote
from textfrag.errors import internal_error_report
from textfrag.excerpt import excerpt_of, failure_summary
from textfrag.i18n import Translate, translator
from textfrag.intent import INTENT_OPTIONS, Intent, disagreement
from textfrag.linespec import number
from textfrag.present import identity, source_url, unique_anchor
from textfrag.quote import quoted_path
from textfrag.scan import Found, scan_markdown

from . import render

log = logging.getLogger("mkdocs.plugins.textfrag")

CSS_PATH = "assets/textfrag/textfrag.css"
_PREFIX = textfrag.PREFIX
# raw HTML in a page (which Markdown passes through untouched) naming a txtfrag: URL
_RAW_URL = re.compile(r"""(\b(?:src|href)\s*=\s*)(["']?)txtfrag:[^"'\s>]*\2""", re.IGNORECASE)


class TextfragConfig(base.Config):
    """Options of ``plugins: - textfrag:``."""

    root = c.Optional(c.Type(str))
    """Folder that reference paths are relative to; default: the folder of mkdocs.yml."""
    on_stale = c.Choice(("error", "warning"), default="error")
    """``error`` fails the build on a stale reference; ``warning`` only warns (``--strict`` still fails)."""
    charset = c.Type(str, default=textfrag.DEFAULT_CHARSET)
    """Charset of quoted files without a BOM."""
    source_url = c.Optional(c.Type(str))
    """Template of a "view source" link: ``{path}``, ``{first}``, ``{last}``."""
    max_size = c.Type(int, default=textfrag.DEFAULT_MAX_SIZE)
    """Larger quoted files are refused (bytes)."""
    pdi_map = c.Type(dict, default={})
    """Persistent Document Identifier (``pdi://...``) -> file under the root."""
    caption = c.Choice(("path", "none"), default="path")
    """A block whose alt text is empty has ``path`` (file and lines) for caption, or ``none``."""


@dataclass
class _Embed:
    page_url: str
    anchor: str


@dataclass
class _Placed:
    """An excerpt in Markdown's stash: re-rendered under another id if the page turns out to use its id."""

    stash_index: int
    anchor: str
    identity: tuple[str, str]
    render: Callable[[str], str]


@dataclass
class _PageState:
    """What one page's references need while Markdown renders it."""

    src: str
    markdown: str
    front_matter: int
    found: dict[str, deque[Found]] = field(default_factory=dict)  # reference text -> the scanner's finds
    links: dict[str, tuple[str, str, Quote | None]] = field(default_factory=dict)  # placeholder -> (where, ref, quote)
    anchors: set[str] = field(default_factory=set)
    placed: list[_Placed] = field(default_factory=list)

    def where(self, ref: str, kinds: tuple[str, ...]) -> str:
        """``PAGE.md:LINE`` of the next use of ``ref``: the scanner's line, or, for a construct it does not
        know, the line of the first occurrence of the text not yet claimed."""
        queue = self.found.get(ref)
        while queue:
            f = queue.popleft()
            if f.kind in kinds:
                return f"{self.src}:{f.line + self.front_matter}"
        at = self.markdown.find(ref)
        line = self.markdown.count("\n", 0, at) + 1 if at >= 0 else 1
        return f"{self.src}:{line + self.front_matter}"


@dataclass(frozen=True)
class Problem:
    """One reported problem: where, the whole message, whether it fails the build."""

    where: str
    text: str
    error: bool


Event = TypeVar("Event", bound=Callable[..., Any])


def _guarded(event: Event) -> Event:
    """An event whose unexpected exceptions (bugs in textfrag) end the build as textfrag's, with its
    name, version and traceback, not as an anonymous traceback that reads like MkDocs' own."""

    @functools.wraps(event)
    def run(*args: Any, **kwargs: Any) -> Any:
        """The wrapped call."""
        try:
            return event(*args, **kwargs)
        except PluginError:
            raise
        except Exception as bug:
            raise PluginError(internal_error_report(bug)) from bug

    return cast(Event, run)


class TextfragPlugin(BasePlugin[TextfragConfig]):
    """Embeds and verifies ``txtfrag:`` references; one source cache per build."""

    def __init__(self) -> None:
        self.cache: SourceCache | None = None
        self.problems: list[Problem] = []
        self.embeds: dict[tuple[str, str], _Embed] = {}
        self.pages: dict[str, _PageState] = {}
        self.current: _PageState | None = None
        self.current_page: Page | None = None
        self.watched: set[str] = set()
        self.server: LiveReloadServer | None = None
        self.command = "build"
        self.highlighter = render.Highlighter("plain", "highlight")
        self.translate: Translate = translator(None)
        self.key = secrets.token_hex(8)

    # -- build lifecycle -----------------------------------------------------------------------------

    @_guarded
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember the command (build or serve); defining it keeps this instance across serve rebuilds."""
        self.command = command  # defining on_startup also keeps this instance across serve rebuilds

    @_guarded
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """The build's root and cache, the site's highlighter, the tree processors and the stylesheet."""
        base_dir = Path(config.config_file_path or ".").resolve().parent
        root = (base_dir / self.config.root).resolve() if self.config.root else base_dir
        try:
            self.cache = SourceCache(
                root, charset=self.config.charset, max_size=self.config.max_size, pdi_map=dict(self.config.pdi_map)
            )
        except TextFragError as err:
            raise PluginError(f"textfrag: {err.message}") from None
        self.highlighter = render.Highlighter.of(list(config.markdown_extensions), dict(config.mdx_configs))
        # what readers see (captions, labels, the stale mark) in the theme's language
        theme = config.theme
        self.translate = translator(str(theme.get("language") or theme.get("locale") or "") or None)
        config.markdown_extensions.append(_ExcerptExtension(self))  # type: ignore[arg-type]
        if CSS_PATH not in config.extra_css:
            config.extra_css.append(CSS_PATH)
        return config

    @_guarded
    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        # a new cache for every build: `mkdocs serve` must never show an old version of a quoted file
        """A new cache and a new placeholder key for every build (serve never shows an old file)."""
        assert self.cache is not None
        old = self.cache
        self.cache = SourceCache(old.root, charset=old.charset, max_size=old.max_size, pdi_map=old.pdi_map)
        self.problems, self.embeds, self.pages = [], {}, {}
        self.key = secrets.token_hex(8)  # link placeholders no page can contain

    @_guarded
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Add the plugin's stylesheet to the site."""
        files.append(File.generated(config, CSS_PATH, content=render.stylesheet(self.highlighter)))
        return files

    # -- pages ---------------------------------------------------------------------------------------

    @_guarded
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Scan a page that names ``txtfrag:`` for the lines of its references; the text is unchanged."""
        self.current, self.current_page = None, page
        state = _PageState(page.file.src_path, markdown, _front_matter_lines(page, markdown))
        # references may also come in with Markdown that pymdownx.snippets includes as the page renders
        if _PREFIX in markdown:
            for f in scan_markdown(markdown, page.file.src_path):
                state.found.setdefault(f.text, deque()).append(f)
        self.pages[page.file.src_uri] = state
        self.current = state
        return markdown

    @_guarded
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Report raw-HTML references and tell MkDocs the excerpts' anchors."""
        state = self.pages.get(page.file.src_uri)
        self.current = None
        if state is None:
            return html
        if _PREFIX in html:
            html = _RAW_URL.sub(lambda m: self._raw_url(m, state), html)
        if page.present_anchor_ids is not None:
            page.present_anchor_ids.update(state.anchors)  # so MkDocs validates links to excerpts
        return html

    @_guarded
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Links are resolved last: by now every page's embeds are known. One pass, exact keys."""
        state = self.pages.get(page.file.src_uri)
        if state is None or not state.links:
            return output
        pattern = re.compile(re.escape(self._link_url("")) + r"[0-9]+/")

        def target(m: re.Match[str]) -> str:
            """The escaped link target for one placeholder."""
            entry = state.links.get(m.group(0))
            if entry is None:
                return m.group(0)
            where, ref, q = entry
            return escape(self._link_target(where, ref, q, page))  # the URL goes into an attribute

        return pattern.sub(target, output)

    @_guarded
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Watch the quoted files (serve); fail the build when any reference is stale or broken."""
        self._watch_quoted_files()
        errors = [p for p in self.problems if p.error]
        if not errors:
            return
        pages = sorted({p.where.rsplit(":", 1)[0] for p in errors})
        summary = f"{failure_summary(len(errors))}, each reported above (in {', '.join(pages)})"
        if self.command == "serve":
            log.error(summary)  # serve goes on and shows the problems in the pages
            return
        raise PluginError(f"{summary}; the build fails (on_stale: warning makes stale references warnings)")

    @_guarded
    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        """Keep the server, to watch every quoted file."""
        self.server = server
        self._watch_quoted_files()
        return server

    # -- what the tree processor calls ---------------------------------------------------------------

    def _link_url(self, n: object) -> str:
        return f"https://txtfrag.invalid/{self.key}/{n}"

    def embed_element(self, md: Markdown, parent: etree.Element, img: etree.Element) -> None:
        """Replace an ``img`` whose src is a txtfrag: reference by the excerpt (block or inline)."""
        state = self.current
        assert state is not None and self.current_page is not None
        ref_text = img.get("src", "")
        where = state.where(ref_text, ("image", "definition"))
        alone = parent.tag == "p" and len(parent) == 1 and not (parent.text or "").strip() and not (img.tail or "").strip()
        rendered = self._excerpt(ref_text, where, img, alone)
        if isinstance(rendered, str):
            placeholder = md.htmlStash.store(rendered)
        else:
            anchor, ident, draw = rendered
            placeholder = md.htmlStash.store(draw(anchor))
            state.placed.append(_Placed(md.htmlStash.html_counter - 1, anchor, ident, draw))
        if alone:  # <p>placeholder</p>: Markdown puts the block in place of the paragraph
            parent.remove(img)
            parent.text = placeholder
            return
        _replace_with_text(parent, img, placeholder)

    def verify_link(self, a: etree.Element) -> None:
        """Point a link to a txtfrag: reference at a placeholder, filled in when every page is known."""
        state = self.current
        assert state is not None
        ref_text = a.get("href", "")
        where = state.where(ref_text, ("link", "definition"))
        q = self._quote(ref_text, where)
        url = f"{self._link_url(len(state.links))}/"
        state.links[url] = (where, ref_text, q if isinstance(q, Quote) else None)
        a.set("href", url)

    def settle_anchors(self, md: Markdown, root: etree.Element) -> None:
        """After the table of contents gave headings their ids: an excerpt whose id a heading (or any
        element) took is given another, so that ids stay unique on the page."""
        state = self.current
        if state is None or not state.placed:
            return
        taken = {el.get("id", "") for el in root.iter()} - {""}
        for placed in state.placed:
            if placed.anchor not in taken:
                continue
            new = unique_anchor(placed.anchor, taken | state.anchors)
            state.anchors.discard(placed.anchor)
            state.anchors.add(new)
            md.htmlStash.rawHtmlBlocks[placed.stash_index] = placed.render(new)
            embed = self.embeds.get(placed.identity)
            if embed is not None and embed.anchor == placed.anchor and self.current_page is not None:
                if embed.page_url == self.current_page.url:
                    embed.anchor = new
            placed.anchor = new

    # -- helpers -------------------------------------------------------------------------------------

    def _report(self, where: str, err: TextFragError, *, error: bool) -> None:
        text = err.describe(where)
        self.problems.append(Problem(where, text, error))
        (log.error if error else log.warning)(text)  # once: the failure at the end counts, it does not repeat

    def _raw_url(self, m: re.Match[str], state: _PageState) -> str:
        ref = m.group(0)[len(m.group(1)) :].strip("\"'")
        err = TextFragError(
            "a txtfrag: reference in raw HTML is not rendered (write it as a Markdown image or link)", reference=ref
        )
        self._report(state.where(ref, ()), err, error=True)
        return f'{m.group(1)}"#"'

    def _quote(self, ref_text: str, where: str, intent: Intent | None = None) -> Quote | TextFragError:
        assert self.cache is not None
        try:
            ref = parse_reference(ref_text)
            path = quoted_path(self.cache, ref)
            self.watched.add(str(self.cache.root / path))
            q = quote(self.cache, ref, intent=intent)
        except TextFragError as err:
            self._report(where, err, error=True)
            return err
        if q.stale is not None:
            self._report(where, q.stale, error=self.config.on_stale == "error")
        return q

    def _excerpt(
        self, ref_text: str, where: str, img: etree.Element, alone: bool
    ) -> str | tuple[str, tuple[str, str], Callable[[str], str]]:
        """The broken-reference HTML, or (anchor, identity, render(anchor) -> HTML) of the excerpt."""
        state = self.current
        assert state is not None and self.current_page is not None
        try:
            stated = Intent.from_options({k: img.get(k) for k in INTENT_OPTIONS}) if alone else None
        except TextFragError:
            stated = None  # reported below, once the reference is known good
        q = self._quote(ref_text, where, stated)
        if not isinstance(q, Quote):
            return render.broken(f"{where}: {q.describe(where).split(': ', 1)[1]}", inline=not alone, translate=self.translate)
        try:
            intent = Intent.from_options({k: img.get(k) for k in INTENT_OPTIONS}) if alone else None
            if intent is not None and q.stale is None:  # a stale quote is reported already
                why = disagreement(q.source.text, q.selection.first_line, q.selection.last_line, intent)
                if why is not None:
                    raise TextFragError(why)
            classes = (img.get("class") or "").split()
            numbered, number_from = _linenums(img.attrib) if alone else (False, None)
            ex = excerpt_of(
                q,
                # attr_list's title="..." as pymdownx's fences have it (empty: none), else the alt text
                caption=img.get("title") if alone and img.get("title") is not None else (img.get("alt") or None),
                auto_caption=self.config.caption == "path",
                language=classes[0] if classes else None,
                emphasize_in_excerpt=img.get("hl_lines") if alone else None,
                source_url_template=self.config.source_url,
                number_from=number_from,
                translate=self.translate,
            )
            start = ex.pieces[0].number if numbered else None
        except TextFragError as err:
            failure = err.with_reference(err.reference or ref_text)
            self._report(where, failure, error=True)
            return render.broken(failure.describe(where), inline=not alone, translate=self.translate)
        anchor = unique_anchor(ex.anchor, state.anchors)
        state.anchors.add(anchor)
        ident = identity(q.reference)
        self.embeds.setdefault(ident, _Embed(self.current_page.url, anchor))
        if not alone:
            return anchor, ident, lambda a: render.inline(ex, a)
        return anchor, ident, lambda a: render.block(ex, a, highlighter=self.highlighter, linenostart=start, classes=classes[1:])

    def _link_target(self, where: str, ref_text: str, q: Quote | None, page: Page) -> str:
        if q is None:
            return "#"
        ref = q.reference
        embed = self.embeds.get(identity(ref))
        if embed is not None:
            if embed.page_url == page.url:
                return f"#{embed.anchor}"
            return f"{get_relative_url(embed.page_url, page.url)}#{embed.anchor}"
        url = source_url(self.config.source_url, q.selection)
        if url:
            return url
        err = TextFragError(
            "this link has no target: no page embeds the same reference and no source_url is set", reference=ref_text
        )
        self._report(where, err, error=False)
        return "#"

    def _watch_quoted_files(self) -> None:
        if self.server is None:
            return
        for path in sorted(self.watched):
            if Path(path).exists():
                self.server.watch(path, recursive=False)


class _PluginProcessor(Treeprocessor):
    """A tree processor of one page's Markdown instance that works for the plugin."""

    def __init__(self, md: Markdown, plugin: TextfragPlugin) -> None:
        super().__init__(md)
        self.plugin = plugin


class _EmbedProcessor(_PluginProcessor):
    """Every ``img``/``a`` element Markdown made with a txtfrag: URL, wherever it stands."""

    @_guarded
    def run(self, root: etree.Element) -> None:
        """Embed every txtfrag: image of the page and point every txtfrag: link at its placeholder."""
        if self.plugin.current is None:
            return
        images, links = [], []
        for parent in root.iter():
            for child in parent:
                if child.tag == "img" and child.get("src", "").startswith(_PREFIX):
                    images.append((parent, child))
                elif child.tag == "a" and child.get("href", "").startswith(_PREFIX):
                    links.append(child)
        for a in links:
            self.plugin.verify_link(a)
        for parent, img in images:
            self.plugin.embed_element(self.md, parent, img)


class _AnchorProcessor(_PluginProcessor):
    """After the table of contents: excerpt ids that a heading took are changed."""

    @_guarded
    def run(self, root: etree.Element) -> None:
        """Give every excerpt whose id an element of the page took another id."""
        self.plugin.settle_anchors(self.md, root)


class _ExcerptExtension(Extension):
    """Registers the tree processors on each page's Markdown instance."""

    def __init__(self, plugin: TextfragPlugin) -> None:
        super().__init__()
        self.plugin = plugin

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        # after attr_list (8), which sets the attributes; before the table of contents (5), which must see
        # the excerpt's text, not an image, in a heading; ids are settled after it
        """Register the tree processors on a page's Markdown instance."""
        md.treeprocessors.register(_EmbedProcessor(md, self.plugin), "textfrag", 7)
        md.treeprocessors.register(_AnchorProcessor(md, self.plugin), "textfrag-anchors", 4)


def _replace_with_text(parent: etree.Element, child: etree.Element, text: str) -> None:
    """Remove ``child`` from ``parent``, leaving ``text`` (then the child's tail) where it stood."""
    index = list(parent).index(child)
    joined = text + (child.tail or "")
    if index == 0:
        parent.text = (parent.text or "") + joined
    else:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + joined
    parent.remove(child)


def _front_matter_lines(page: Page, markdown: str) -> int:
    """Lines of YAML front matter that MkDocs removed before ``on_page_markdown``."""
    try:
        raw = page.file.content_string
    except (OSError, UnicodeDecodeError):
        return 0
    raw = raw.replace("\r\n", "\n")
    if raw.endswith(markdown) and len(raw) > len(markdown):
        return raw.count("\n", 0, len(raw) - len(markdown))
    return 0


def _linenums(attrs: dict[str, Any]) -> tuple[bool, int | None]:
    """attr_list's ``linenums`` (a bare word has no value, or itself): whether lines are numbered, and
    from which number (None: the file's own numbers)."""
    if "linenums" not in attrs:
        return False, None
    value = attrs["linenums"]
    if value is None or value in ("", "linenums", "source", "true"):
        return True, None
    return True, number(value, "linenums")
