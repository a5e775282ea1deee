"""What textfrag needs to know of a build, read from its configuration by the readers of
textfrag.project (one per engine: ``sphinx_conf``, ``mkdocs_conf``, ``myst_conf``, ``mdbook``,
``vitepress``, ``docusaurus``) and chosen by textfrag.project.config.read_config."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..documents.scan import HtmlBlocks
from ..source.paths import typed_path

if TYPE_CHECKING:
    from ..verdict.forms import Forms

__all__ = ["BuildConfig", "forms_of", "html_blocks_of", "snippet_bases"]


@dataclass(frozen=True)
class BuildConfig:
    """What a build's configuration says about textfrag (None: not said, the default applies)."""

    path: Path
    root: Path
    charset: str | None = None
    max_size: int | None = None
    pdi_map: dict[str, str] = field(default_factory=dict)
    #: Sphinx's highlight_language (what literalinclude highlights in without :language:), when set
    highlight_language: str | None = None
    #: what a stale reference is to the build: "error" (it fails) or "warning"
    on_stale: str = "error"
    #: whether a reference without md5 fails the build (textfrag.verdict.pins)
    require_pin: bool = False
    #: guard mode (textfrag.guard): the build's literalinclude, snippets and markdown-include includes are
    #: recorded and checked by the text they show
    guard: bool = False
    #: where the engines find included files: Sphinx's source folder, MkDocs' docs folder
    srcdir: Path | None = None
    #: Sphinx's source_encoding (literalinclude's, without :encoding:)
    source_encoding: str = "utf-8-sig"
    #: the options of pymdownx.snippets and of markdown-include when the build enables them (None: it does not)
    snippets: dict[str, Any] | None = None
    markdown_include: dict[str, Any] | None = None
    #: mdx_include's options, when the build enables it ({!file!}, {!file[ln:1-7]!}: guard mode guards them)
    mdx_include: dict[str, Any] | None = None
    #: whether the build enables FastAPI's markdown_include_variants ({* file ln[...] hl[...] *})
    include_variants: bool = False
    #: "mystmd" for a myst.yml (its literalinclude is mystmd's), "mdbook" for a book.toml; "" for the others
    engine: str = ""
    #: whether a Markdown image or link with a txtfrag: URL is textfrag's: False for a Sphinx conf.py whose
    #: extensions read Markdown with MyST-Parser, and for a myst.yml (they show a broken image or link)
    markdown_forms: bool = True
    #: whether a MyST directive or role (```{txtfrag}```, {txtfrag}`...`) in a Markdown document is
    #: textfrag's: False for the Markdown engines' configurations (mkdocs.yml, properdocs.yml, zensical.toml)
    myst_forms: bool = True
    #: whether a ``:::{txtfrag}`` colon fence is a directive: False for a Sphinx conf.py whose MyST-Parser
    #: does not enable colon_fence (``myst_enable_extensions``), where it is a paragraph of text
    colon_fence: bool = True
    #: whether the Markdown engine reads a raw HTML block with a ``markdown`` attribute as Markdown (md_in_html)
    md_in_html: bool = False
    #: where a ``[text](txtfrag:REF)`` link looks for the excerpt it points to: "site" (the MkDocs plugin:
    #: any page), "page" (the Markdown extension alone: its own page), None (no such links: not Markdown)
    link_targets: str | None = None
    #: the build's source_url (a link with no excerpt to point to opens the quoted lines there)
    source_url: str | None = None
    #: whether an attribute list after a Markdown image is read: False for an mkdocs.yml or properdocs.yml
    #: that does not enable attr_list (its ``{ ... }`` is then shown as text, its options lost)
    attr_list: bool = True
    #: Sphinx's exclude_patterns (documents under the source folder the build does not read)
    exclude_patterns: tuple[str, ...] = ()
    #: Sphinx's include_patterns (a document is read only when one matches it; Sphinx's default: all)
    include_patterns: tuple[str, ...] = ("**",)
    #: Sphinx's source suffixes (with those MyST adds); None: not known (every document is read)
    source_suffixes: tuple[str, ...] | None = None
    #: Sphinx's other source suffixes, each with the suffix its parser reads it as (``.txt`` -> ``.rst``)
    other_suffixes: tuple[tuple[str, str], ...] = ()
    #: MkDocs' exclude_docs (gitignore patterns, under the docs folder), besides its defaults
    exclude_docs: str | None = None
    #: VitePress's srcExclude (glob patterns, under its source folder), besides its defaults
    src_exclude: tuple[str, ...] = ()
    #: Sphinx's suppress_warnings (``textfrag.stale`` makes a stale quote pass, as in the build)
    suppressed: tuple[str, ...] = ()
    #: MkDocs' ``strict: true``: a warning fails the build (a stale quote where on_stale is "warning")
    strict: bool = False
    #: MyST-Parser's ``myst_fence_as_directive``: code fences of these names are directives (```txtfrag REF)
    fence_directives: tuple[str, ...] = ()
    #: MyST-Parser's substitutions, when its ``substitution`` extension is enabled: conf.py's
    #: ``myst_substitutions`` (a page's front matter adds its own); None: a page's ``{{ name }}`` is text
    substitutions: dict[str, str] | None = None

    @property
    def home(self) -> Path:
        """The folder the build runs in, where guard mode keeps its lock file: the configuration's (a VitePress
        site's, for its ``.vitepress/config.mts``)."""
        return self.path.parent.parent if self.engine == "vitepress" else self.path.parent

    def read_as(self, path: Path) -> str:
        """The suffix a document's build reads it as: its own, or the parser's that ``source_suffix`` names
        for another (a ``.txt`` page of a Sphinx build is reStructuredText)."""
        own = path.suffix.lower()
        return next((as_suffix for suffix, as_suffix in self.other_suffixes if suffix == own), path.suffix)

    def describe(self) -> str:
        """``docs/conf.py (root: .)``: for the line that says which configuration was used."""
        if self.engine == "asciidoc":  # (no configuration: the folder of its documents)
            return f"the AsciiDoc documents under {typed_path(self.path.parent)} (guard mode; root: {typed_path(self.root)})"
        return f"{typed_path(self.path)} (root: {typed_path(self.root)})"


def html_blocks_of(config: BuildConfig | None) -> HtmlBlocks:
    """How the build reads a page's raw HTML blocks (textfrag.documents.scan.HtmlBlocks): as Python-Markdown does for
    the Markdown engines' configurations, as CommonMark does for MyST's (a Sphinx conf.py, a myst.yml); not
    at all when no configuration says which engine builds."""
    if config is None:
        return None
    if config.myst_forms:
        return "commonmark"
    return "md_in_html" if config.md_in_html else "raw"


def snippet_bases(config: BuildConfig | None) -> tuple[tuple[Path, ...], tuple[str, ...]] | None:
    """Where the build's pymdownx.snippets finds the files a page includes (its base paths, absolute, from
    the folder of the configuration, where the build runs) and the files it appends to every page; None
    when the build does not include snippets."""
    if config is None or config.snippets is None:
        return None
    here = config.path.parent
    bases = config.snippets.get("base_path", ["."])
    bases = [bases] if isinstance(bases, str) else list(bases or [])
    auto = [*(config.snippets.get("auto_append") or []), *(config.snippets.get("auto_prepend") or [])]
    return tuple((here / str(b)).resolve() for b in bases), tuple(str(a) for a in auto)


def forms_of(config: BuildConfig | None) -> Forms:
    """The ways of writing a reference the configuration's engine renders (textfrag.verdict.forms.Forms)."""
    from ..verdict.forms import Forms

    if config is None:
        return Forms()
    unrendered_in = None if config.markdown_forms else (config.engine or "sphinx")
    blocks = html_blocks_of(config)
    # (Python-Markdown's engines: MkDocs, ProperDocs, Zensical, the Markdown extension; not mdBook, VitePress...)
    python_markdown = blocks if blocks in ("raw", "md_in_html") and config.markdown_forms and not config.engine else None
    return Forms(
        unrendered_in,
        config.myst_forms,
        config.colon_fence,
        raw_html=config.link_targets == "site",
        python_markdown=python_markdown,
    )
