"""Guard mode in Python-Markdown (``guard: true`` on the MkDocs plugin or on the ``textfrag`` extension, in
MkDocs, ProperDocs and Zensical): the page's ``pymdownx.snippets`` and markdown-include includes are left
to their extensions, which put in the page exactly what they put without textfrag; before they run, what
each include puts in the page is read by the core with the extensions' own settings (read off their
preprocessors: base paths, encoding, dedent) and judged against its record in ``textfrag.lock``
(textfrag.guard.judge_include), as ``check`` reads and judges it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.preprocessors import Preprocessor

from textfrag import SourceCache, TextFragError
from textfrag.guard import Explainer, GuardContext, GuardedInclude, Lock, find_guarded, judge_include, mdx_settings, shown_text

__all__ = ["GuardHost", "GuardPreprocessor", "register_guard", "PRIORITY"]

#: before markdown_include_variants (110), markdown-include and mdx_include (101) and pymdownx.snippets (32), which change
#: the lines
PRIORITY = 111


@dataclass
class GuardHost:
    """What the guard of one page needs of its host (the MkDocs plugin, or the extension's document)."""

    #: the page's file (None: the host does not know it, and nothing is guarded)
    page: Callable[[], tuple[Path, str, int] | None]
    lock: Callable[[], Lock]
    cache: Callable[[], SourceCache]
    report: Callable[[str, TextFragError, bool], None]
    require_pin: bool = False
    on_stale: str = "error"
    #: includes without a record, counted for the end of the build
    unrecorded: int = 0
    #: the files the page's includes read (real paths): the page depends on them
    read: set[str] = field(default_factory=set)


def register_guard(md: Markdown, host: GuardHost) -> None:
    """Register the guard on a page's Markdown (once, whichever of the plugin and the extension asks)."""
    if "textfrag-guard" not in md.preprocessors:
        md.preprocessors.register(GuardPreprocessor(md, host), "textfrag-guard", PRIORITY)


def _markdown_include(md: Markdown) -> Any | None:
    pp = md.preprocessors["include"] if "include" in md.preprocessors else None
    return pp if pp is not None and type(pp).__module__.startswith("markdown_include") else None


class GuardPreprocessor(Preprocessor):
    """Judges the page's includes against their records; the lines are unchanged."""

    def __init__(self, md: Markdown, host: GuardHost) -> None:
        super().__init__(md)
        self.host = host

    def run(self, lines: list[str]) -> list[str]:
        """Judge the page's includes; return its lines as they are."""
        page = self.host.page()
        snippets = self.md.preprocessors["snippet"] if "snippet" in self.md.preprocessors else None
        included = _markdown_include(self.md)
        variants = "include_variants" in self.md.preprocessors  # (FastAPI's {* file ln[...] *})
        mdx = self.md.preprocessors["mdx_include"] if "mdx_include" in self.md.preprocessors else None
        if page is None or (snippets is None and included is None and mdx is None and not variants):
            return lines
        doc_path, name, front = page
        text = "\n".join(lines)
        found = find_guarded(
            text,
            name,
            ".md",
            snippets=snippets is not None,
            markdown_include=included is not None,
            mdx_include=mdx is not None,
            include_variants=variants,
        )
        if not found:
            return lines
        try:
            lock = self.host.lock()
        except TextFragError as bad:  # (a lock file textfrag did not write: said where it fails the page)
            self.host.report(name, bad, True)
            return lines
        cache = self.host.cache()
        ctx = _context(self.md, snippets, included, doc_path, mdx)
        doc = lock.doc_name(doc_path)
        for inc in found:
            shown = self._shown(inc, text, snippets, included, doc_path, cache, ctx)
            verdict = judge_include(
                inc,
                shown,
                lock.record(doc, inc.key),
                require_pin=self.host.require_pin,
                on_stale=self.host.on_stale,
                explainer=Explainer(doc_path, cache, ctx),
                lock=lock.path.name,
            )
            self.host.unrecorded += not verdict.pinned
            where = f"{name}:{inc.line + front}"
            for problem in verdict.problems:
                self.host.report(where, problem, True)
            for warning in verdict.warnings:
                self.host.report(where, warning, False)
        return lines

    def _shown(
        self,
        inc: GuardedInclude,
        text: str,
        snippets: Any,
        included: Any,
        doc_path: Path,
        cache: SourceCache,
        ctx: GuardContext,
    ) -> str | TextFragError:
        """What the include puts in the page, as the core reads it with the extension's own settings (the
        build's cache reads each file once; the suite holds this reading to the extension's own output)."""
        try:
            shown = shown_text(inc, doc_path, cache, ctx)
        except TextFragError as why:
            return why
        self.host.read.update(os.path.join(cache.real_root, f) for f in shown.files)
        return shown.text


def _context(md: Markdown, snippets: Any, included: Any, doc_path: Path, mdx: Any = None) -> GuardContext:
    """Where the page's extensions find files, as they are configured (read off their preprocessors)."""
    # (markdown_include_variants reads its paths from the folder the build runs in)
    values: dict[str, Any] = {"srcdir": doc_path.parent, "tab_length": md.tab_length, "site": Path.cwd().resolve()}
    if snippets is not None:
        values["snippet_bases"] = tuple(Path(b) for b in getattr(snippets, "base_path", []))
        values["snippet_restrict"] = bool(getattr(snippets, "restrict_base_path", True))
        values["snippet_encoding"] = str(getattr(snippets, "encoding", "utf-8") or "utf-8")
        values["snippet_dedent"] = bool(getattr(snippets, "dedent_subsections", False))
    if included is not None:
        values["include_base"] = Path(str(getattr(included, "base_path", "."))).resolve()
        values["include_encoding"] = str(getattr(included, "encoding", "utf-8") or "utf-8")
        values["heading_offset"] = int(getattr(included, "headingOffset", 0) or 0)
    if mdx is not None:  # (mdx_include's settings, as its preprocessor holds them)
        options = {
            "base_path": getattr(mdx, "base_path", "."),
            "recurs_local": getattr(mdx, "recursive_local", True),
            "recursive_relative_path": getattr(mdx, "recursive_relative_path", False),
            "line_slice_separator": getattr(mdx, "line_slice_separator", ["", ""]),
        }
        values.update(mdx_settings(options, Path.cwd()))
    return GuardContext(**values)
