"""MkDocs plugin: ``plugins: [textfrag]``.

- ``![caption](txtfrag:REF)`` alone in a paragraph embeds a block excerpt, inside a sentence an inline
  one; attr_list attributes after it (``{ .python linenums hl_lines="2 3" }``) set the language, line
  numbers (the source file's own unless a number is given) and highlighted lines (1-based within the
  excerpt, as pymdownx counts them).
- ``[text](txtfrag:REF)`` is a verified link: to the excerpt's anchor where a page embeds the same
  reference, else to ``source_url``.
- A reference inside a code span or block is left as text; no ``txtfrag:`` URI is left in the HTML.
- Every problem is logged on ``mkdocs.plugins.textfrag`` with the page's source file and line; after the
  last page, any error fails ``mkdocs build`` listing them all (``mkdocs serve`` shows them and goes on).

Thin: the textfrag core parses, loads, counts and verifies; textfrag.scan finds the references (the
same scanner as ``textfrag check``); textfrag.present makes the decisions shared with Sphinx.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

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
from textfrag.linespec import number, parse_line_list
from textfrag.present import anchor_id, default_caption, display_text, identity, language_for, source_url, unique_anchor
from textfrag.resolve import Selection
from textfrag.scan import Found, scan_markdown

from . import render

log = logging.getLogger("mkdocs.plugins.textfrag")

CSS_PATH = "assets/textfrag/textfrag.css"
_ATTR_LIST = re.compile(r"\{:?([^}\n]*)\}")
_ATTR = re.compile(r"""([.#][\w-]+)|([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|(\S+)))?""")
# tokens that survive Markdown untouched: letters and digits only
_TOKEN = "TXTFRAGTOKEN{}X{}Z"
_LINK_URL = "https://txtfrag.invalid/link/{}/{}"


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


@dataclass
class _Embed:
    page_url: str
    anchor: str


@dataclass
class _PageState:
    tokens: dict[str, str] = field(default_factory=dict)  # token -> HTML (blocks and inline)
    block_tokens: set[str] = field(default_factory=set)
    links: dict[str, tuple[Found, Quote | None]] = field(default_factory=dict)  # link URL -> (found, quote)
    anchors: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Problem:
    where: str
    text: str
    error: bool


Event = TypeVar("Event", bound=Callable[..., Any])


def _guarded(event: Event) -> Event:
    """An event whose unexpected exceptions (bugs in textfrag) end the build as textfrag's, with its
    name, version and traceback, not as an anonymous traceback that reads like MkDocs' own."""

    @functools.wraps(event)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return event(*args, **kwargs)
        except PluginError:
            raise
        except Exception as bug:
            raise PluginError(internal_error_report(bug)) from bug

    return run  # type: ignore[return-value]


class TextfragPlugin(BasePlugin[TextfragConfig]):
    """Embeds and verifies ``txtfrag:`` references; one source cache per build."""

    def __init__(self) -> None:
        self.cache: SourceCache | None = None
        self.problems: list[Problem] = []
        self.embeds: dict[tuple[str, str], _Embed] = {}
        self.pages: dict[str, _PageState] = {}
        self.watched: set[str] = set()
        self.server: LiveReloadServer | None = None
        self.command = "build"
        self.highlighter = render.Highlighter("plain", "highlight")
        self.build_number = 0

    # -- build lifecycle -----------------------------------------------------------------------------

    @_guarded
    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.command = command  # defining on_startup also keeps this instance across serve rebuilds

    @_guarded
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        base_dir = Path(config.config_file_path or ".").resolve().parent
        root = (base_dir / self.config.root).resolve() if self.config.root else base_dir
        try:
            self.cache = SourceCache(
                root, charset=self.config.charset, max_size=self.config.max_size, pdi_map=dict(self.config.pdi_map)
            )
        except TextFragError as err:
            raise PluginError(f"textfrag: {err.message}") from None
        self.highlighter = render.Highlighter.of(list(config.markdown_extensions), dict(config.mdx_configs))
        if CSS_PATH not in config.extra_css:
            config.extra_css.append(CSS_PATH)
        return config

    @_guarded
    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        # a new cache for every build: `mkdocs serve` must never show an old version of a quoted file
        assert self.cache is not None
        old = self.cache
        self.cache = SourceCache(old.root, charset=old.charset, max_size=old.max_size, pdi_map=old.pdi_map)
        self.problems, self.embeds, self.pages = [], {}, {}
        self.build_number += 1

    @_guarded
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        files.append(File.generated(config, CSS_PATH, content=render.stylesheet(self.highlighter)))
        return files

    # -- pages ---------------------------------------------------------------------------------------

    @_guarded
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if "txtfrag:" not in markdown:
            return markdown  # the common page: nothing parsed, nothing changed
        state = _PageState()
        self.pages[page.file.src_uri] = state
        offset = _front_matter_lines(page, markdown)
        src = page.file.src_path
        found = [f for f in scan_markdown(markdown, src) if f.kind in ("image", "link", "definition")]
        out: list[str] = []
        pos = 0
        for n, f in enumerate(found):
            where = f"{src}:{f.line + offset}"
            if f.kind == "image":
                assert f.span is not None
                start, end = f.span
                attrs_match = _ATTR_LIST.match(markdown, end)
                attrs = _parse_attrs(attrs_match.group(1)) if attrs_match else {}
                if attrs_match:
                    end = attrs_match.end()
                alone = _alone_in_paragraph(markdown, start, end)
                token = _TOKEN.format(self.build_number, n)
                state.tokens[token] = self._embed(f, where, page, state, attrs, alone)
                if alone:
                    state.block_tokens.add(token)
                out.append(markdown[pos:start])
                out.append(token)
                pos = end
            else:
                url = _LINK_URL.format(self.build_number, n)
                state.links[url] = (f, self._quote(f.text, where, link=True))
                out.append(markdown[pos : f.start])
                out.append(url)
                pos = f.end
        out.append(markdown[pos:])
        return "".join(out)

    @_guarded
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        state = self.pages.get(page.file.src_uri)
        if state is None:
            return html
        for token, excerpt_html in state.tokens.items():
            if token in state.block_tokens:
                html = html.replace(f"<p>{token}</p>", excerpt_html)
            html = html.replace(token, excerpt_html)
        if page.present_anchor_ids is not None:
            page.present_anchor_ids.update(state.anchors)  # so MkDocs validates links to excerpts
        return html

    @_guarded
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Links are resolved last: by now every page's embeds are known."""
        state = self.pages.get(page.file.src_uri)
        if state is None:
            return output
        for url, (f, q) in state.links.items():
            output = output.replace(url, self._link_target(f, q, page))
        return output

    @_guarded
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self._watch_quoted_files()
        errors = [p for p in self.problems if p.error]
        if not errors:
            return
        listing = "\n".join(f"  {p.text}" for p in errors)
        summary = f"textfrag: {len(errors)} reference{'s' if len(errors) != 1 else ''} stale or broken:\n{listing}"
        if self.command == "serve":
            log.error(summary)  # serve goes on and shows the problems in the pages
            return
        raise PluginError(summary + "\n(on_stale: warning makes stale references warnings)")

    @_guarded
    def on_serve(self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        self.server = server
        self._watch_quoted_files()
        return server

    # -- helpers -------------------------------------------------------------------------------------

    def _report(self, where: str, err: TextFragError, *, error: bool) -> None:
        text = err.describe(where)
        self.problems.append(Problem(where, text, error))
        (log.error if error else log.warning)(text)

    def _quote(self, ref_text: str, where: str, *, link: bool = False) -> Quote | None:
        assert self.cache is not None
        try:
            ref = parse_reference(ref_text)
            path = self.cache.pdi_path(ref.path, ref.text) if ref.dialect == "pdi" else ref.path
            self.watched.add(str(self.cache.root / path))
            q = quote(self.cache, ref)
        except TextFragError as err:
            self._report(where, err, error=True)
            return None
        if q.stale is not None:
            self._report(where, q.stale, error=self.config.on_stale == "error")
        return q

    def _embed(self, f: Found, where: str, page: Page, state: _PageState, attrs: dict[str, str | None], alone: bool) -> str:
        q = self._quote(f.text, where)
        if q is None:
            return render.broken(f"cannot quote {f.text} (see the build log: {where})", inline=not alone)
        ref = q.reference
        anchor = unique_anchor(anchor_id(ref), state.anchors)
        state.anchors.add(anchor)
        self.embeds.setdefault(identity(ref), _Embed(page.url, anchor))
        selection = q.selection
        pieces = q.selections
        excerpt = render.Excerpt(
            anchor=anchor,
            ref=ref.text.removeprefix(textfrag.PREFIX),
            md5=q.source.md5,
            length=q.source.length,
            charset=q.source.charset,
            text=display_text(pieces[0].text),
        )
        try:
            url = source_url(self.config.source_url, selection)
            if not alone:
                joined = " \u22ef ".join(display_text(p.text) for p in pieces)
                return render.inline(replace(excerpt, text=joined), source_url=url)
            classes = [k[1:] for k in attrs if k.startswith(".")]
            language = classes[0] if classes else language_for(ref.path)
            start = _linenums(attrs, pieces[0].first_line)
            hl = _hl_lines(attrs.get("hl_lines"), pieces[0], f.text)
        except (TextFragError, ValueError) as err:
            failure = (
                err.with_reference(err.reference or f.text)
                if isinstance(err, TextFragError)
                else TextFragError(f"bad attribute: {err}", reference=f.text)
            )
            self._report(where, failure, error=True)
            return render.broken(failure.message, inline=not alone)
        return render.block(
            excerpt,
            caption=f.label or default_caption(pieces),
            language=language,
            highlighter=self.highlighter,
            linenostart=start,
            hl_lines=hl,
            source_url=url,
            classes=classes[1:],
            more=[(display_text(p.text), p.first_line if start is not None else None) for p in pieces[1:]],
        )

    def _link_target(self, f: Found, q: Quote | None, page: Page) -> str:
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
        where = f"{page.file.src_path}:{f.line}"
        err = TextFragError(
            "this link has no target: no page embeds the same reference and no source_url is set", reference=f.text
        )
        self._report(where, err, error=False)
        return "#"

    def _watch_quoted_files(self) -> None:
        if self.server is None:
            return
        for path in sorted(self.watched):
            if Path(path).exists():
                self.server.watch(path, recursive=False)


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


def _alone_in_paragraph(text: str, start: int, end: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip() or text[end:line_end].strip():
        return False
    before = text[: line_start - 1].rsplit("\n", 1)[-1] if line_start > 0 else ""
    after = text[line_end + 1 :].split("\n", 1)[0] if line_end < len(text) else ""
    return not before.strip() and not after.strip()


def _parse_attrs(body: str) -> dict[str, str | None]:
    attrs: dict[str, str | None] = {}
    for m in _ATTR.finditer(body):
        if m.group(1):
            attrs[m.group(1)] = None
        elif m.group(2):
            value = next((g for g in m.group(3, 4, 5) if g is not None), None)
            attrs[m.group(2)] = value
    return attrs


def _linenums(attrs: dict[str, str | None], first_line: int) -> int | None:
    if "linenums" not in attrs:
        return None
    value = attrs["linenums"]
    if value is None or value in ("", "source", "true"):
        return first_line  # the source file's own numbers
    return number(value, "linenums")


def _hl_lines(spec: str | None, piece: Selection, reference: str) -> list[int]:
    """pymdownx's ``hl_lines="2 4-6"``: lines 1-based within the excerpt, bounds checked before expanding."""
    if not spec or not spec.strip():
        return []
    count = max(1, piece.last_line - piece.first_line + 1)
    out: list[int] = []
    try:
        for wanted in parse_line_list(spec, "hl_lines", separators=" ,"):
            if wanted.last > count:
                raise TextFragError(
                    f"hl_lines {wanted} is outside the excerpt, which has {count} line{'s' if count != 1 else ''}"
                )
            out.extend(range(wanted.first, wanted.last + 1))
    except TextFragError as err:
        raise TextFragError(err.message, reference=reference) from None
    return out
