"""The Python-Markdown extension ``textfrag``: ``markdown_extensions: [textfrag]`` in Zensical, ProperDocs and
MkDocs, or ``markdown.markdown(text, extensions=["textfrag"])``.

A page's references are embedded, verified and drawn exactly as the MkDocs plugin does (the same
:mod:`markdown_textfrag.embed`); what only a whole-site plugin can do (links to excerpts on other pages,
one summary at the end of the build, the server watching quoted files) is the plugin's. Links point to
the excerpt when the same page embeds the reference, else to ``source_url``.

Problems are reported as ``FILE:LINE: REF: problem`` and fail the run in each host's own way:

- plain Python-Markdown: ``convert`` raises :class:`MarkdownProblems` (a :class:`TextFragError`) listing
  every problem of the document;
- MkDocs and ProperDocs: the engine's own ``BuildError`` with every problem of the page, which the engine
  prints under the page's name, without a traceback;
- Zensical (which has no error interface for extensions): each problem is printed on standard error as it
  is found, the build goes on to the end, and ``zensical build`` then exits 1 with a summary;
  ``zensical serve`` goes on and shows each problem in the page. The end of ``zensical build`` also counts
  the references without md5 and the includes without a record (guard mode), as the plugin does.

A stale reference with ``on_stale: warning`` is a warning (the host's ``--strict`` makes it fail).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import sys
import threading
import xml.etree.ElementTree as etree
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from textfrag import Quote, SourceCache, TextFragError
from textfrag.errors import internal_error_report
from textfrag.guard import LOCK_NAME, Lock
from textfrag.project import checked, settings_of
from textfrag.verdict import failure_summary, identity, no_link_target, source_url, translator

from . import render
from .embed import Embedder, PageState, front_matter_lines, is_alone, place, register, settle

if TYPE_CHECKING:
    from textfrag.guard import Lock

    from .guard import GuardHost

__all__ = ["MarkdownProblems", "TextfragExtension", "makeExtension"]


class MarkdownProblems(TextFragError):
    """Every problem of one document, raised by ``Markdown.convert`` when textfrag runs in plain
    Python-Markdown: ``problems`` holds each ``FILE:LINE: REF: problem`` report."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{failure_summary(problems)}:\n" + "\n".join(problems))
        self.problems = problems


# -- the host engine ------------------------------------------------------------------------------------


def _zensical(md: Markdown) -> Any | None:
    """Zensical's rendering context of this page (its ``page`` and ``config``), when Zensical renders it."""
    if "rendering_context" in md.preprocessors:
        context = md.preprocessors["rendering_context"]
        if hasattr(context, "page") and hasattr(context, "config"):
            return context
    return None


def _engine(md: Markdown) -> tuple[str | None, Any | None]:
    """``("mkdocs", page file)`` or ``("properdocs", page file)`` when that engine renders this page (it
    registers its ``relpath`` tree processor, which knows the page's file, on every page's Markdown),
    else ``(None, None)``."""
    if "relpath" in md.treeprocessors:
        processor = md.treeprocessors["relpath"]
        engine = type(processor).__module__.partition(".")[0]
        if engine in ("mkdocs", "properdocs") and getattr(sys.modules.get(f"{engine}.exceptions"), "BuildError", None):
            return engine, getattr(processor, "file", None)
    return None, None


def _engine_error(engine: str | None, message: str) -> Exception:
    """The error that fails the host's build without a traceback: the engine's own ``BuildError`` under
    MkDocs or ProperDocs (looked up, never imported: the extension does not depend on them)."""
    if engine is not None:
        build_error = sys.modules[f"{engine}.exceptions"].BuildError
        return type("TextfragBuildError", (build_error,), {})(message)  # type: ignore[no-any-return]
    return RuntimeError(message)


_ZENSICAL_FAILURES: list[str] = []
#: the pages that failed (as Zensical names them), and the folder its cache is in
_ZENSICAL_FAILED: dict[str, str] = {}
_ZENSICAL_UNWATCHED: set[str] = set()
_ZENSICAL_LOCK = threading.Lock()
#: what ``zensical build`` says at its end: references without md5, includes without a record (guard mode),
#: and whether the summary is registered to run at exit
_ZENSICAL_UNPROTECTED = {"references": 0, "includes": 0, "registered": 0}


def _zensical_at_exit() -> None:
    """Have the end-of-build summary said when ``zensical build`` ends (once; under the lock)."""
    if not _ZENSICAL_UNPROTECTED["registered"]:
        _ZENSICAL_UNPROTECTED["registered"] = 1
        atexit.register(_zensical_exit)


def _zensical_exit() -> None:
    """At the end of ``zensical build`` (which has no error interface for extensions): the references and
    includes not protected against drift, counted; then exit 1 when any failed, after a summary. Output is
    flushed first, since the interpreter stops here."""
    with _ZENSICAL_LOCK:
        failures = list(_ZENSICAL_FAILURES)
        failed = dict(_ZENSICAL_FAILED)
        references, includes = _ZENSICAL_UNPROTECTED["references"], _ZENSICAL_UNPROTECTED["includes"]
    sys.stdout.flush()
    unprotected = (
        (references, "reference is", "references are", "not protected against drift (no md5): `textfrag pin --write` pins them"),
        (includes, "include has", "includes have", f"no record in {LOCK_NAME} (not protected against drift): "
         "`textfrag pin --write` records them"),
    )  # fmt: skip
    for count, one, many, what in unprotected:
        if count:
            said = f"{count} {one if count == 1 else many} {what}"
            print(f"textfrag: {said} (require_pin: true makes each a problem)", file=sys.stderr)
    if not failures:
        sys.stderr.flush()
        return
    print(f"{failure_summary(failures)}, each reported above; the build fails", file=sys.stderr)
    _forget_rendered(failed)
    sys.stderr.flush()
    os._exit(1)


#: the start of Zensical's cached rendering of a page: its source's name follows, as a JSON string
_RENDERED = re.compile(rb'^\{"data":\{"origin":\{"Source":("(?:[^"\\]|\\.)*")')


def _forget_rendered(failed: dict[str, str]) -> None:
    """Take the failed pages' renderings out of Zensical's cache (``.cache`` beside its configuration), so
    that the next build renders them again and fails as this one did: Zensical renders a page again only
    when it or a watched file changed, and a build that repeats a failed one would say "No issues found"."""
    by_folder: dict[str, set[str]] = {}
    for page, folder in failed.items():
        by_folder.setdefault(folder, set()).add(page)
    for folder, pages in by_folder.items():
        cache = Path(folder) / ".cache"
        try:
            entries = [e for e in os.scandir(cache) if e.name.isdigit() and e.is_file(follow_symlinks=False)]
        except OSError:
            continue
        for entry in entries:
            try:
                with open(entry.path, "rb") as f:
                    m = _RENDERED.match(f.read(4096))
                if m is not None and json.loads(m.group(1)) in pages:
                    os.unlink(entry.path)
            except (OSError, ValueError):
                continue


def _zensical_command() -> str:
    """``build`` or ``serve``: the command Zensical was started with."""
    for arg in sys.argv[1:]:
        if not arg.startswith("-"):
            return arg
    return "build"


# -- source caches shared by a build's pages -----------------------------------------------------------

_CACHES: dict[tuple[Any, ...], tuple[SourceCache, dict[str, tuple[int, int]]]] = {}
_CACHES_LOCK = threading.Lock()
#: guard mode's lock files, by path: (their size and mtime when read, their records)
_LOCKS: dict[str, tuple[tuple[int, int], Lock]] = {}


def _shared_cache(
    root: Path, charset: str, max_size: int, pdi_map: dict[str, str]
) -> tuple[SourceCache, dict[str, tuple[int, int]]]:
    """One source cache per build for every page (hosts make a new Markdown, and a new extension, per
    page): each quoted file is read once. The files read are re-checked (one ``stat`` each) before every
    page, and a cache whose file changed is replaced, so a server never shows an old version."""
    key = (str(root), charset, max_size, tuple(sorted(pdi_map.items())))
    with _CACHES_LOCK:
        entry = _CACHES.get(key)
        if entry is not None and all(_stamp(path) == stamp for path, stamp in entry[1].items()):
            return entry
        entry = (SourceCache(root, charset=charset, max_size=max_size, pdi_map=pdi_map), {})
        _CACHES[key] = entry
        return entry


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


# -- the extension --------------------------------------------------------------------------------------


class TextfragExtension(Extension):
    """``txtfrag:`` references in Markdown: ``![caption](txtfrag:REF)`` embeds, ``[text](txtfrag:REF)`` links."""

    def __init__(self, **kwargs: Any) -> None:
        # (the settings table's for Python-Markdown: textfrag.project.setting_table; a root or a language
        # not given is the site's, so their default here is empty)
        self.config = {
            s.name: ["" if s.name == "root" or s.default is None else s.default, s.help[:1].upper() + s.help[1:]]
            for s in settings_of("markdown")
        }
        super().__init__(**kwargs)
        for s in settings_of("markdown"):  # (refused as check refuses it, in the same words)
            value = self.getConfig(s.name)
            if s.choices or s.minimum is not None:
                try:
                    checked(s.name, value, f"textfrag: {s.name}")
                except TextFragError as err:
                    raise TextFragError(err.message) from None

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the document's processors on this Markdown instance."""
        document = _Document(md, self)
        md.registerExtension(self)
        md.preprocessors.register(_Start(md, document), "textfrag-start", 40)  # before whitespace is normalized
        register(md, document, document.guard)
        if self.getConfig("guard"):  # (before markdown-include and pymdownx.snippets change the lines)
            from .guard import register_guard

            document.host = document.guard_host()
            register_guard(md, document.host)
        md.treeprocessors.register(_Rendered(md, document), "textfrag-rendered", -1000)  # after every other
        md.postprocessors.register(_Finish(md, document), "textfrag-finish", 0)

    def reset(self) -> None:
        """Nothing to reset: each document starts in its preprocessor."""


class _Document:
    """The host of one Markdown instance's documents: where problems go, what links point to."""

    def __init__(self, md: Markdown, extension: TextfragExtension) -> None:
        self.md = md
        self.extension = extension
        self.state: PageState | None = None
        self.embedder: Embedder | None = None
        self.stamps: dict[str, tuple[int, int]] = {}
        self.rendered = False
        self.errors: list[str] = []
        self.links: list[tuple[etree.Element, tuple[str, str]]] = []
        self.zensical: Any | None = None
        self.engine: str | None = None
        self.strict = False
        self.log = logging.getLogger("textfrag")
        #: what guard mode reported before the document started (it runs first)
        self.pending: list[tuple[str, TextFragError, bool]] = []
        #: guard mode's host (None: guard mode is off)
        self.host: GuardHost | None = None

    @property
    def page(self) -> PageState | None:
        """The document being converted."""
        return self.state

    # -- a document begins: its source, its host, its cache ---------------------------------------------

    def _page(self, text: str) -> tuple[str, int, Path, Path | None]:
        """The page being converted: its name, the lines of front matter its host removed, the folder
        reference paths start from, and its file (None when the host does not say)."""
        self.zensical = _zensical(self.md)
        self.engine, file = (None, None) if self.zensical is not None else _engine(self.md)
        name, front, root, path = "", 0, Path.cwd(), None
        if file is not None:  # MkDocs, ProperDocs: the page's name, and the front matter they removed
            name = str(getattr(file, "src_path", "") or "")
            try:
                path = Path(file.abs_src_path)
                front = front_matter_lines(path.read_text(encoding="utf-8-sig"), text)
            except (OSError, UnicodeDecodeError, TypeError, AttributeError):
                front = 0
        if self.zensical is not None:
            page, config = self.zensical.page, self.zensical.config
            root = Path(config.get("root_dir") or ".")
            name = str(page.path)
            docs = Path(config.get("docs_dir") or root)
            path = docs / name
            try:
                front = front_matter_lines(path.read_text(encoding="utf-8-sig"), text)
            except (OSError, UnicodeDecodeError):
                front = 0
        if self.extension.getConfig("root"):
            root = root / self.extension.getConfig("root")
        return name, front, root, path

    def _cache(self, root: Path) -> tuple[SourceCache, dict[str, tuple[int, int]]]:
        try:
            return _shared_cache(
                root.resolve(),
                self.extension.getConfig("charset"),
                int(self.extension.getConfig("max_size")),
                dict(self.extension.getConfig("pdi_map") or {}),
            )
        except TextFragError as err:
            raise _fatal(self, f"textfrag: {err.message}") from None

    def guard_host(self) -> GuardHost:
        """What guard mode asks of this host: the page (known before the document starts: the guard runs
        before the includes are expanded), the lock file beside the site's configuration, the cache."""
        from textfrag.guard import Lock

        from .guard import GuardHost

        seen: dict[str, Any] = {}

        def page() -> tuple[Path, str, int] | None:
            name, front, root, path = self._page("\n".join(getattr(self.md, "lines", []) or []))
            seen["root"] = root
            return (path.resolve(), name, front) if path is not None else None

        def lock() -> Lock:  # (read once, and again when it changed: the extension has no build to keep it for)
            base = Path(self.zensical.config.get("root_dir") or ".") if self.zensical is not None else Path.cwd()
            path = (base / LOCK_NAME).resolve()
            stamp = _stamp(str(path))
            with _CACHES_LOCK:
                kept = _LOCKS.get(str(path))
                if kept is None or kept[0] != stamp:
                    kept = (stamp, Lock.read(path))
                    _LOCKS[str(path)] = kept
            return kept[1]

        def report(where: str, err: TextFragError, error: bool) -> None:
            if self.state is None:  # (the guard runs before the document starts: its problems wait for it)
                self.pending.append((where, err, error))
            else:
                self.report(where, err, error)

        return GuardHost(
            page,
            lock,
            lambda: self._cache(seen.get("root", Path.cwd()))[0],
            report,
            require_pin=bool(self.extension.getConfig("require_pin")),
            on_stale=self.extension.getConfig("on_stale"),
        )

    def start(self, text: str) -> None:
        """A new document: locate its references, find the host and the build's cache."""
        self.errors, self.links, self.rendered = [], [], False
        name, front, root, _ = self._page(text)
        self.log = logging.getLogger(f"{self.engine}.extensions.textfrag" if self.engine else "textfrag")
        language = self.extension.getConfig("language") or None
        if self.zensical is not None:
            config = self.zensical.config
            theme = config.get("theme") or {}
            language = language or (theme.get("language") if isinstance(theme, dict) else None)
            self.strict = bool(config.get("strict")) or bool({"-s", "--strict"} & set(sys.argv))
        self.state = PageState.of(name, text, front)
        cache, stamps = self._cache(root)
        self.stamps = stamps
        self.embedder = Embedder(
            cache,
            self.report,
            on_stale=self.extension.getConfig("on_stale"),
            warn_bidi=bool(self.extension.getConfig("warn_bidi")),
            require_pin=bool(self.extension.getConfig("require_pin")),
            source_url=self.extension.getConfig("source_url") or None,
            caption=self.extension.getConfig("caption"),
            highlighter=render.Highlighter.of_markdown(self.md),
            translate=translator(str(language) if language else None),
        )
        pending, self.pending = self.pending, []
        for where, err, error in pending:
            self.report(where, err, error)
        md_in_html = "markdown_block" in self.md.parser.blockprocessors  # (md_in_html's block processor)
        for where, err in self.state.myst_forms(md_in_html):  # (shown as text or code: said, as check says it)
            self.report(where, err, True)

    # -- what the tree processors call -------------------------------------------------------------------

    def guard(self, work: Callable[[], None]) -> None:
        """Run the tree processors' work; an unexpected exception is a bug in textfrag, said so."""
        try:
            work()
        except TextFragError:
            raise
        except Exception as bug:
            raise _fatal(self, internal_error_report(bug)) from bug

    def embed_element(self, md: Markdown, parent: etree.Element, img: etree.Element) -> None:
        """Replace a txtfrag: image by its excerpt."""
        assert self.state is not None and self.embedder is not None
        ref_text = img.get("src", "")
        where = self.state.where(ref_text, ("image", "definition"))
        place(md, self.state, parent, img, self.embedder.excerpt(ref_text, where, img, is_alone(parent, img)))

    def verify_link(self, a: etree.Element) -> None:
        """A link to an excerpt on this page, else to ``source_url``; a link with neither is reported."""
        assert self.state is not None and self.embedder is not None
        ref_text = a.get("href", "")
        where = self.state.where(ref_text, ("link", "definition"))
        q = self.embedder.quote(ref_text, where)
        if not isinstance(q, Quote):
            a.set("href", "#")
            return
        ident = identity(q.reference)
        placed = next((p for p in self.state.placed if p.identity == ident), None)
        if placed is not None:
            a.set("href", f"#{placed.anchor}")
            self.links.append((a, ident))  # the anchor may still change (settle_anchors)
            return
        url = source_url(self.extension.getConfig("source_url") or None, q.selection)
        if url:
            a.set("href", url)
            return
        a.set("href", "#")
        self.report(where, no_link_target(ref_text, site=False), False)

    def settle_anchors(self, md: Markdown, root: etree.Element) -> None:
        """After the table of contents: an excerpt whose id a heading took gets another; links follow."""
        assert self.state is not None
        if settle(md, self.state, root):
            for a, ident in self.links:
                placed = next(p for p in self.state.placed if p.identity == ident)
                a.set("href", f"#{placed.anchor}")

    # -- problems ----------------------------------------------------------------------------------------

    def report(self, where: str, err: TextFragError, error: bool) -> None:
        """One problem, in the host's way (see the module's documentation)."""
        text = err.describe(where)
        if self.embedder is not None:
            for path in self.embedder.watched - self.stamps.keys():
                self.stamps[path] = _stamp(path)
        if self.zensical is not None:
            failing = error or self.strict
            print(f"{'Error' if failing else 'Warning'}: textfrag: {text}", file=sys.stderr, flush=True)
            if failing and _zensical_command() == "build":
                with _ZENSICAL_LOCK:
                    _zensical_at_exit()
                    _ZENSICAL_FAILURES.append(text)
                    page, config = self.zensical.page, self.zensical.config
                    _ZENSICAL_FAILED[str(page.path)] = str(config.get("root_dir") or ".")
            return
        if error:
            self.errors.append(text)
        else:
            self.log.warning(text)

    def finish(self) -> None:
        """The document is converted: fail with every error it had (plain Markdown, MkDocs, ProperDocs)."""
        if self.embedder is not None:
            for path in self.embedder.watched - self.stamps.keys():
                self.stamps[path] = _stamp(path)
        if self.zensical is not None:  # (what the page quotes and what its guarded includes read)
            read = self.host.read if self.host is not None else set()
            self._unwatched((self.embedder.watched if self.embedder is not None else set()) | read)
            if read:
                self.host.read = set()  # type: ignore[union-attr]
            self._count_unprotected(self.embedder.unpinned if self.embedder is not None else 0)
        errors, self.errors, self.state = self.errors, [], None
        if not errors:
            return
        if self.engine is None:
            raise MarkdownProblems(errors)
        raise _engine_error(self.engine, f"{failure_summary(errors)}:\n" + "\n".join(errors))

    def _count_unprotected(self, unpinned: int) -> None:
        """Zensical: this document's references without md5 and includes without a record, counted for
        the end of ``zensical build`` (with require_pin they are problems, said one by one instead)."""
        host = self.host
        unrecorded = host.unrecorded if host is not None else 0
        if host is not None:
            host.unrecorded = 0
        if self.extension.getConfig("require_pin") or not (unpinned or unrecorded) or _zensical_command() != "build":
            return
        with _ZENSICAL_LOCK:
            _zensical_at_exit()
            _ZENSICAL_UNPROTECTED["references"] += unpinned
            _ZENSICAL_UNPROTECTED["includes"] += unrecorded

    def _unwatched(self, quoted: set[str]) -> None:
        """Zensical renders a page again only when the page or a file under ``watch`` changed (a quoted file
        under ``docs_dir`` included): a quoted file outside ``watch`` would let a repeated build, or the
        server, keep a stale quote. Said once per folder to add (the first folder under the config's one,
        or under ``docs_dir``), with the first such file."""
        config = self.zensical.config if self.zensical is not None else {}
        base = Path(config.get("root_dir") or ".").resolve()
        docs = Path(config.get("docs_dir") or base).resolve()
        watched = [(base / w).resolve() for w in config.get("watch") or []]
        for path in sorted(quoted - _ZENSICAL_UNWATCHED):
            _ZENSICAL_UNWATCHED.add(path)
            file = Path(path).resolve()
            if any(file == w or w in file.parents for w in watched):
                continue
            under = docs if docs in file.parents else base if base in file.parents else None
            folder = under / file.relative_to(under).parts[0] if under is not None and file.parent != under else file
            if str(folder) in _ZENSICAL_UNWATCHED:
                continue
            _ZENSICAL_UNWATCHED.add(str(folder))
            shown = folder.relative_to(base) if base in folder.parents else folder
            first = file.relative_to(base) if base in file.parents else file
            print(
                f"Warning: textfrag: quoted files under {shown} (first: {first}) are not under `watch`: Zensical "
                f"will not render the pages that quote them again when they change; add `{shown}` to `watch`",
                file=sys.stderr,
                flush=True,
            )


def _fatal(document: _Document, message: str) -> Exception:
    """An error that ends the run at once (a bug, a root that does not exist)."""
    if document.zensical is None and document.engine is None:
        return RuntimeError(message) if message.startswith("textfrag: internal error") else TextFragError(message)
    return _engine_error(document.engine, message)


class _Start(Preprocessor):
    """Sees the document as written (before Markdown normalizes it), to locate its references."""

    def __init__(self, md: Markdown, document: _Document) -> None:
        super().__init__(md)
        self.document = document

    def run(self, lines: list[str]) -> list[str]:
        """Start the document; its lines are unchanged."""
        self.document.start("\n".join(lines))
        return lines


class _Rendered(Treeprocessor):
    """The tree is done: the postprocessors that run from now on run on the whole document (the table of
    contents runs them on each heading's text before)."""

    def __init__(self, md: Markdown, document: _Document) -> None:
        super().__init__(md)
        self.document = document

    def run(self, root: etree.Element) -> None:
        """Mark the document's tree as rendered."""
        self.document.rendered = True


class _Finish(Postprocessor):
    """The last step of a conversion: the document's problems, if any, fail it."""

    def __init__(self, md: Markdown, document: _Document) -> None:
        super().__init__(md)
        self.document = document

    def run(self, text: str) -> str:
        """Fail the conversion with every error of the document; the text is unchanged."""
        if not self.document.rendered:
            return text
        state, embedder = self.document.state, self.document.embedder
        if state is not None and embedder is not None and state.placed and self.document.extension.getConfig("stylesheet"):
            # an extension cannot add a file to a site: the page carries the rules its excerpts need
            text = f'<style class="txtfrag-style">{render.stylesheet(embedder.highlighter)}</style>\n{text}'
        self.document.finish()
        return text


def makeExtension(**kwargs: Any) -> TextfragExtension:  # noqa: N802 (Python-Markdown's entry point name)
    """What ``extensions=["textfrag"]`` and the ``markdown.extensions`` entry point load."""
    return TextfragExtension(**kwargs)
