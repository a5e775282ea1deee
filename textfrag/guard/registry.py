"""The include engines textfrag reads, each one module with one :class:`~textfrag.guard.model.IncludeEngine`,
and which of them a build runs on a page.

Adding an engine is its module (its finder, what it shows, its numbers, its key), its line here, its tests
and its manual page: the judge, the explanation and the repair only call the interface.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..documents.scan import MD_SUFFIXES
from .asciidoc import ASCIIDOC
from .codeimport import CODE_IMPORT
from .literal import LITERAL
from .mdbook import MDBOOK
from .mdinclude import MARKDOWN_INCLUDE
from .mdxinclude import MDX_INCLUDE
from .model import ADOC_SUFFIXES, IncludeEngine
from .snippets import SNIPPETS
from .variants import VARIANTS
from .vitepress import VITEPRESS

if TYPE_CHECKING:
    from ..project.config import BuildConfig

__all__ = ["ENGINES", "engine_named", "engines_for", "engines_of"]

#: every include engine, by its includes' kind
ENGINES: dict[str, IncludeEngine] = {
    e.kind: e for e in (LITERAL, SNIPPETS, MARKDOWN_INCLUDE, MDX_INCLUDE, VARIANTS, MDBOOK, ASCIIDOC, VITEPRESS, CODE_IMPORT)
}


def engine_named(kind: str) -> IncludeEngine:
    """The engine whose includes are of ``kind`` (KeyError: none)."""
    return ENGINES[kind]


def engines_for(
    suffix: str,
    *,
    snippets: bool = False,
    markdown_include: bool = False,
    mdx_include: bool = False,
    mdbook: bool = False,
    vitepress: bool = False,
    code_import: bool = False,
    include_variants: bool = False,
) -> list[IncludeEngine]:
    """The engines that read a page of ``suffix`` in a build that runs the ones named: the build's own
    (mdBook, VitePress, remark-code-import, Asciidoctor read only their own includes), else literalinclude
    and the Markdown extensions the build enables (mdx_include reads ``{!file!}`` before markdown-include
    would)."""
    suffix = suffix.lower()
    markdown = suffix in MD_SUFFIXES
    if code_import:
        return [CODE_IMPORT] if markdown or suffix == ".mdx" else []
    if vitepress:
        return [VITEPRESS] if markdown else []
    if mdbook:
        return [MDBOOK] if markdown else []
    if suffix in ADOC_SUFFIXES:
        return [ASCIIDOC]
    out: list[IncludeEngine] = [LITERAL]
    if markdown:
        out += [VARIANTS] if include_variants else []
        out += [SNIPPETS] if snippets else []
        out += [MDX_INCLUDE] if mdx_include else [MARKDOWN_INCLUDE] if markdown_include else []
    return out


def engines_of(config: BuildConfig, suffix: str) -> Iterable[IncludeEngine]:
    """The engines the build of ``config`` runs on a page of ``suffix``."""
    return engines_for(
        suffix,
        snippets=config.snippets is not None,
        markdown_include=config.markdown_include is not None,
        mdx_include=config.mdx_include is not None,
        mdbook=config.engine == "mdbook",
        vitepress=config.engine == "vitepress",
        code_import=config.engine == "docusaurus",
        include_variants=config.include_variants,
    )
