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

Thin: the textfrag core parses, loads, counts and verifies; textfrag.verdict.presentation makes the decisions shared
with Sphinx.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import secrets
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from markdown import Extension, Markdown
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
from markdown_textfrag import render
from markdown_textfrag.embed import Embedder, PageState, front_matter_lines, is_alone, place, register, settle
from textfrag import Quote, SourceCache, TextFragError
from textfrag.errors import PathError, internal_error_report
from textfrag.project import setting
from textfrag.verdict import failure_summary, generated_note, identity, no_link_target, source_url, translator

if TYPE_CHECKING:
    from markdown_textfrag.guard import GuardHost
    from textfrag.guard import Lock

log = logging.getLogger("mkdocs.plugins.textfrag")

CSS_PATH = "assets/textfrag/textfrag.css"
_PREFIX = textfrag.PREFIX
# raw HTML in a page (which Markdown passes through untouched) naming a txtfrag: URL
_TAG_OR_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)|<[A-Za-z][^<>]*>", re.DOTALL)
_RAW_URL = re.compile(r"""(\b(?:src|href)\s*=\s*)(["']?)txtfrag:[^"'\s>]*\2""", re.IGNORECASE)


def _extension_name(entry: object) -> str:
    """A ``markdown_extensions`` entry's name (MkDocs keeps names, an extension object, or a one-key dict)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and len(entry) == 1:
        return str(next(iter(entry)))
    return type(entry).__module__


def _option(name: str) -> Any:
    """The MkDocs option of the setting ``name``, its type, default and choices the settings table's
    (textfrag.project.setting_table), so that the plugin refuses what ``check`` refuses."""
    s = setting(name)
    if s.choices:
        return c.Choice(s.choices, default=s.default)
    kinds = tuple(t for t in s.types if t is not type(None))
    if s.default is None:
        return c.Optional(c.Type(kinds[0] if len(kinds) == 1 else kinds))
    return c.Type(kinds[0] if len(kinds) == 1 else kinds, default=s.default)


class TextfragConfig(base.Config):
    """Options of ``plugins: - textfrag:``: the settings table's for MkDocs (``settings_of("mkdocs")``, a
    test holds the two equal), each described in the manual (docs/reference/mkdocs.md)."""

    root = _option("root")
    on_stale = _option("on_stale")
    charset = _option("charset")
    source_url = _option("source_url")
    max_size = _option("max_size")
    pdi_map = _option("pdi_map")
    caption = _option("caption")
    context_pages = _option("context_pages")
    require_pin = _option("require_pin")
    guard = _option("guard")
    warn_bidi = _option("warn_bidi")


@dataclass
class _Embed:
    page_url: str
    anchor: str


@dataclass
class _PageState(PageState):
    """A page's state, with its links' placeholders: placeholder -> (where, reference, quote)."""

    links: dict[str, tuple[str, str, Quote | None]] = field(default_factory=dict)


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
        self.embedder: Embedder | None = None
        self.problems: list[Problem] = []
        self.embeds: dict[tuple[str, str], _Embed] = {}
        self.pages: dict[str, _PageState] = {}
        self.current: _PageState | None = None
        self.current_page: Page | None = None
        self.server: LiveReloadServer | None = None
        self.command = "build"
        self.key = secrets.token_hex(8)
        #: the folder of mkdocs.yml, where the plugin's root: starts
        self._base_dir: Path | None = None
        #: quoted path -> the 1-based line ranges quoted (context pages)
        self.ranges: dict[str, set[tuple[int, int]]] = {}
        #: guard mode: its host, and the records of this build (textfrag.lock beside mkdocs.yml)
        self.guard_host: GuardHost | None = None
        self.lock_path = Path("textfrag.lock")
        self.lock: Lock | None = None

    # -- build lifecycle -----------------------------------------------------------------------------

    @_guarded
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember the command (build or serve); defining it keeps this instance across serve rebuilds."""
        self.command = command  # defining on_startup also keeps this instance across serve rebuilds

    @_guarded
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """The build's root and cache, the site's highlighter, the tree processors and the stylesheet."""
        base_dir = Path(config.config_file_path or ".").resolve().parent
        self._base_dir = base_dir
        root = (base_dir / self.config.root).resolve() if self.config.root else base_dir
        try:
            cache = SourceCache(
                root, charset=self.config.charset, max_size=self.config.max_size, pdi_map=dict(self.config.pdi_map)
            )
        except TextFragError as err:
            raise PluginError(f"textfrag: {err.message}") from None
        theme = config.theme
        self.embedder = Embedder(
            cache,
            self._report,
            on_stale=self.config.on_stale,
            warn_bidi=self.config.warn_bidi,
            require_pin=self.config.require_pin,
            source_url=self.config.source_url,
            caption=self.config.caption,
            highlighter=render.Highlighter.of(list(config.markdown_extensions), dict(config.mdx_configs)),
            # what readers see (captions, labels, the stale mark) in the theme's language
            translate=translator(str(theme.get("language") or theme.get("locale") or "") or None),
            context=self._context if self.config.context_pages else None,
        )
        if not self.config.guard:  # (or switched on for the repository: TEXTFRAG_GUARD=1, textfrag.toml, [tool.textfrag])
            from textfrag.project import guard_switched_on

            self.config.guard = guard_switched_on(base_dir)
        if self.config.guard:  # (only a guarded site pays for importing guard mode)
            from markdown_textfrag.guard import GuardHost
            from textfrag.guard import LOCK_NAME

            self.lock_path = base_dir / LOCK_NAME
            self.guard_host = GuardHost(
                self._guard_page,
                self._lock,
                lambda: self.embedder.cache if self.embedder is not None else cache,
                self._report,
                require_pin=self.config.require_pin,
                on_stale=self.config.on_stale,
            )
        config.markdown_extensions.append(_ExcerptExtension(self))  # type: ignore[arg-type]
        return config

    @_guarded
    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        #: page -> (its unpinned references, its file): to say which a macro or an include wrote
        self.unpinned_pages: dict[str, tuple[int, str]] = {}
        # a new cache for every build: `mkdocs serve` must never show an old version of a quoted file
        """A new cache and a new placeholder key for every build (serve never shows an old file)."""
        assert self.embedder is not None
        old = self.embedder.cache
        self.embedder.cache = SourceCache(old.root, charset=old.charset, max_size=old.max_size, pdi_map=old.pdi_map)
        self.embedder.unpinned = 0
        self.problems, self.embeds, self.pages, self.ranges = [], {}, {}, {}
        self.key = secrets.token_hex(8)  # link placeholders no page can contain
        if self.guard_host is not None:  # the records as they are now (pin and update write them)
            from textfrag.guard import Lock

            try:
                self.lock = Lock.read(self.lock_path)
            except TextFragError as bad:
                raise PluginError(f"textfrag: {bad.message}") from None
            self.guard_host.unrecorded = 0

    @_guarded
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Add the plugin's stylesheet to the site."""
        assert self.embedder is not None
        files.append(File.generated(config, CSS_PATH, content=render.stylesheet(self.embedder.highlighter)))
        return files

    # -- pages ---------------------------------------------------------------------------------------

    @_guarded
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Scan a page that names ``txtfrag:`` for the lines of its references; the text is unchanged."""
        self.current, self.current_page = None, page
        self._unpinned_before = self.embedder.unpinned if self.embedder is not None else 0
        # references may also come in with Markdown that pymdownx.snippets includes as the page renders
        state = _PageState.of(page.file.src_path, markdown, _front_matter_lines(page, markdown))
        self.pages[page.file.src_uri] = state
        self.current = state
        md_in_html = any(
            _extension_name(e) in ("md_in_html", "markdown.extensions.md_in_html") for e in config.markdown_extensions
        )
        for where, err in state.myst_forms(md_in_html):  # (Markdown shows them as text or code: said, as check says it)
            self._report(where, err, True)
        return markdown

    @_guarded
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Report raw-HTML references and tell MkDocs the excerpts' anchors."""
        state = self.pages.get(page.file.src_uri)
        self.current = None
        counted = (self.embedder.unpinned if self.embedder is not None else 0) - getattr(self, "_unpinned_before", 0)
        if counted > 0 and page.file.abs_src_path:
            self.unpinned_pages[page.file.src_path] = (counted, page.file.abs_src_path)
        if state is None:
            return html
        if _PREFIX in html:  # (in a tag: not in a comment, nor in code, whose '<' the page shows escaped)
            html = _TAG_OR_COMMENT.sub(
                lambda t: (
                    t.group(0) if t.group(0).startswith("<!--") else _RAW_URL.sub(lambda m: self._raw_url(m, state), t.group(0))
                ),
                html,
            )
        if page.present_anchor_ids is not None:
            page.present_anchor_ids.update(state.anchors)  # so MkDocs validates links to excerpts
        return html

    @_guarded
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Links are resolved last: by now every page's embeds are known. One pass, exact keys. The
        stylesheet is linked from the pages that show an excerpt, and only those (a page of plain includes,
        in guard mode, is the page MkDocs makes without textfrag)."""
        state = self.pages.get(page.file.src_uri)
        if state is not None and (state.placed or 'class="txtfrag' in output):
            link = f'<link rel="stylesheet" href="{escape(get_relative_url(CSS_PATH, page.url))}">'
            head = output.find("</head>")
            output = output[:head] + link + output[head:] if head >= 0 else link + output
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
        """Write the context pages; watch the quoted files (serve); fail the build when any reference is
        stale or broken."""
        self._write_context_pages(config)
        self._watch_quoted_files()
        unpinned = self.embedder.unpinned if self.embedder is not None else 0
        if unpinned and not self.config.require_pin:  # counted, never listed one by one
            said = f"{unpinned} reference is" if unpinned == 1 else f"{unpinned} references are"
            log.info(
                f"textfrag: {said} not protected against drift (no md5): `textfrag pin --write` pins them "
                f"(require_pin: true makes each a problem){generated_note(self.unpinned_pages)}"
            )
        unrecorded = self.guard_host.unrecorded if self.guard_host is not None else 0
        if unrecorded and not self.config.require_pin:  # guard mode: counted, never listed one by one
            said = f"{unrecorded} include has" if unrecorded == 1 else f"{unrecorded} includes have"
            log.info(
                f"textfrag: {said} no record in {self.lock_path.name} (not protected against drift): `textfrag pin --write` "
                "records them (require_pin: true makes each a problem)"
            )
        errors = [p for p in self.problems if p.error]
        if not errors:
            return
        pages = sorted({p.where.rsplit(":", 1)[0] for p in errors})
        summary = f"{failure_summary([p.text for p in errors])}, each reported above (in {', '.join(pages)})"
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

    @property
    def page(self) -> _PageState | None:
        """The page Markdown is rendering (None between pages)."""
        return self.current

    def embed_element(self, md: Markdown, parent: etree.Element, img: etree.Element) -> None:
        """Replace an ``img`` whose src is a txtfrag: reference by the excerpt (block or inline)."""
        state = self.current
        assert state is not None and self.current_page is not None and self.embedder is not None
        ref_text = img.get("src", "")
        where = state.where(ref_text, ("image", "definition"))
        drawn = place(md, state, parent, img, self.embedder.excerpt(ref_text, where, img, is_alone(parent, img)))
        if drawn is not None:
            self.embeds.setdefault(drawn.identity, _Embed(self.current_page.url, state.placed[-1].anchor))

    def verify_link(self, a: etree.Element) -> None:
        """Point a link to a txtfrag: reference at a placeholder, filled in when every page is known."""
        state = self.current
        assert state is not None and self.embedder is not None
        ref_text = a.get("href", "")
        where = state.where(ref_text, ("link", "definition"))
        q = self.embedder.quote(ref_text, where)
        url = f"{self._link_url(len(state.links))}/"
        state.links[url] = (where, ref_text, q if isinstance(q, Quote) else None)
        a.set("href", url)

    def settle_anchors(self, md: Markdown, root: etree.Element) -> None:
        """After the table of contents gave headings their ids: an excerpt whose id a heading (or any
        element) took is given another, so that ids stay unique on the page."""
        state = self.current
        if state is None or self.current_page is None:
            return
        for placed, old in settle(md, state, root):
            embed = self.embeds.get(placed.identity)
            if embed is not None and embed.anchor == old and embed.page_url == self.current_page.url:
                embed.anchor = placed.anchor

    # -- helpers -------------------------------------------------------------------------------------

    def _lock(self) -> Lock:
        assert self.lock is not None
        return self.lock

    def _guard_page(self) -> tuple[Path, str, int] | None:
        """The page being rendered, for guard mode: its file, its name, its front matter's lines."""
        page = self.current_page
        if page is None or not page.file.abs_src_path:
            return None
        front = self.current.front_matter if self.current is not None else 0
        return Path(page.file.abs_src_path).resolve(), page.file.src_path, front

    def _report(self, where: str, err: TextFragError, error: bool) -> None:
        if isinstance(err, PathError) and err.other_root is not None and self._base_dir is not None:
            other = os.path.relpath(os.path.abspath(err.other_root), self._base_dir)  # (the site's own setting)
            err = err.with_root_advice(f"root: {other} under the textfrag plugin in mkdocs.yml")
        text = err.describe(where)
        self.problems.append(Problem(where, text, error))
        (log.error if error else log.warning)(text)  # once: the failure at the end counts, it does not repeat

    def _raw_url(self, m: re.Match[str], state: _PageState) -> str:
        ref = m.group(0)[len(m.group(1)) :].strip("\"'")
        err = TextFragError(
            "a txtfrag: reference in raw HTML is not rendered (write it as a Markdown image or link)", reference=ref
        )
        self._report(state.where(ref, ("html",)), err, True)
        return f'{m.group(1)}"#"'

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
        self._report(where, no_link_target(ref_text, site=True), False)
        return "#"

    def _context(self, q: Quote) -> str:
        """Note a current quote's lines (marked on its file's context page); the address of those lines
        there, relative to the page being rendered."""
        from context_textfrag import context_url

        path = q.source.path
        for piece in q.selections:
            self.ranges.setdefault(path, set()).add((piece.first_line, max(piece.first_line, piece.last_line)))
        first, last = q.selections[0].first_line, max(p.last_line for p in q.selections)
        target = context_url(path, first, max(first, last))
        page, _, fragment = target.partition("#")
        assert self.current_page is not None
        return f"{get_relative_url(page, self.current_page.url)}#{fragment}"

    def _write_context_pages(self, config: MkDocsConfig) -> None:
        """One page per quoted file (``context_pages``), written only when what it shows changed."""
        if not self.ranges or self.embedder is None:
            return
        from context_textfrag import page_path, render_page, write_if_changed

        for path, ranges in sorted(self.ranges.items()):
            try:
                source = self.embedder.cache.get(path)
            except TextFragError:
                continue  # reported where it is quoted
            target = page_path(path)
            html = render_page(source, ranges, home=get_relative_url("index.html", target))
            write_if_changed(Path(config.site_dir) / target, html)

    def _watch_quoted_files(self) -> None:
        if self.server is None:
            return
        for path in sorted(self.embedder.watched if self.embedder else ()):
            if Path(path).exists():
                self.server.watch(path, recursive=False)


class _ExcerptExtension(Extension):
    """Registers the tree processors on each page's Markdown instance."""

    def __init__(self, plugin: TextfragPlugin) -> None:
        super().__init__()
        self.plugin = plugin

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the tree processors on a page's Markdown instance."""
        register(md, self.plugin, _guarded(lambda work: work()))
        if self.plugin.guard_host is not None:
            from markdown_textfrag.guard import register_guard

            register_guard(md, self.plugin.guard_host)


def _front_matter_lines(page: Page, markdown: str) -> int:
    """Lines of YAML front matter that MkDocs removed before ``on_page_markdown``."""
    try:
        return front_matter_lines(page.file.content_string, markdown)
    except (OSError, UnicodeDecodeError):
        return 0
