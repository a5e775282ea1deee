"""The includes of a document that guard mode protects, found where their engines find them: each engine's
own finder (textfrag.guard.registry lists the engines; each module says what its engine reads).

- ``literalinclude`` in reStructuredText and in MyST (textfrag.guard.literal);
- pymdownx.snippets' ``--8<--`` (textfrag.guard.snippets), markdown-include's ``{!file!}``
  (textfrag.guard.mdinclude), mdx_include's (textfrag.guard.mdxinclude), FastAPI's ``{* file *}``
  (textfrag.guard.variants), when the build enables those extensions;
- mdBook's ``{{#include}}`` (textfrag.guard.mdbook), Asciidoctor's ``include::`` (textfrag.guard.asciidoc),
  VitePress's ``<<<`` (textfrag.guard.vitepress), remark-code-import's ``file=`` (textfrag.guard.codeimport).

What an include is, and its key, is textfrag.guard.model's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .model import GuardedInclude, IncludeEngine
from .registry import engines_for, engines_of

if TYPE_CHECKING:
    from ..project.config import BuildConfig

__all__ = ["find_guarded", "guarded_by"]


def guarded_by(config: BuildConfig, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
    """The includes of a document that the build of ``config`` renders (its engine's, and those of the
    Markdown extensions it enables): what ``check``, the editor, the batch protocol and the mdBook
    preprocessor judge."""
    return _found(engines_of(config, suffix), text, doc, suffix)


def find_guarded(text: str, doc: str, suffix: str, **engines: bool) -> list[GuardedInclude]:
    """The includes of a document (reStructuredText, Markdown/MyST or AsciiDoc by ``suffix``), in order:
    literalinclude always; in Markdown, those of the extensions named (``snippets=True``,
    ``markdown_include``, ``mdx_include``, ``include_variants``: ``--8<--`` is text otherwise); in an mdBook
    chapter, a VitePress page or a remark site (``mdbook``, ``vitepress``, ``code_import``), only that
    engine's own (textfrag.guard.registry.engines_for)."""
    return _found(engines_for(suffix, **engines), text, doc, suffix)


def _found(engines: Iterable[IncludeEngine], text: str, doc: str, suffix: str) -> list[GuardedInclude]:
    out = [inc for engine in engines for inc in engine.find(text, doc, suffix)]
    out.sort(key=lambda i: i.start)
    return out
