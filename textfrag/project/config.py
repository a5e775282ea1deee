"""The build's own configuration for the command line: ``--config conf.py|mkdocs.yml|zensical.toml``, or found.

``check``, ``update`` and ``migrate`` verify what the build would, so they read the same settings: the
root, the charset, the PDI map and the size limit. A Sphinx ``conf.py`` is read, never run: its
``textfrag_*`` assignments must be literals (strings, numbers, dicts), as they almost always are; an
``mkdocs.yml`` is read with PyYAML (installed with MkDocs), unknown tags such as ``!ENV`` ignored, with
the plugin's options or else the Markdown extension's; a ``zensical.toml`` with ``tomllib``. No engine is
imported.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..documents.scan import HtmlBlocks
from ..errors import TextFragError
from ..source.paths import typed_path

if TYPE_CHECKING:
    from ..verdict.forms import Forms

__all__ = [
    "BuildConfig",
    "read_config",
    "snippet_settings",
    "myst_environment",
]


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


def read_config(path: Path) -> BuildConfig:
    """The textfrag settings of a build's configuration; TextFragError if unreadable. Guard mode is on when
    the configuration says so or when it is switched on for the repository (textfrag.project.switch)."""
    config = _read_config(path)
    if not config.guard:
        from .switch import guard_switched_on

        if guard_switched_on(path.parent):
            config = replace(config, guard=True)
            if not _names_textfrag(path):  # (a build with nothing of textfrag's: its includes reach anywhere in the repository)
                config = replace(config, root=_repository_top(path.parent))
    return config


def _names_textfrag(path: Path) -> bool:
    try:
        return "textfrag" in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _repository_top(folder: Path) -> Path:
    """The top of the git work tree that holds ``folder`` (``folder`` itself outside one)."""
    here = folder.resolve()
    while not (here / ".git").exists() and here.parent != here:
        here = here.parent
    return here if (here / ".git").exists() else folder.resolve()


def _read_config(path: Path) -> BuildConfig:
    if not path.is_file():
        raise TextFragError(f"--config {path}: no such file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise TextFragError(f"cannot read the configuration {path}: {exc}") from None
    if path.name in ("myst.yml", "myst.yaml"):
        return _myst(path)
    if path.suffix == ".py":
        return _sphinx(path, text)
    if path.suffix in (".yml", ".yaml"):  # mkdocs.yml, properdocs.yml: the same plugin and extension options
        return _mkdocs(path, text)
    if path.name == "book.toml":
        return _book(path, text)
    if (path.parent.name == ".vitepress" and path.name.startswith("config.")) or path.name.startswith("docusaurus.config."):
        from .docusaurus import read_docusaurus
        from .vitepress import read_vitepress

        vitepress = path.parent.name == ".vitepress"
        site = read_vitepress(path, text) if vitepress else read_docusaurus(path)
        return BuildConfig(
            path,
            Path(str(site["root"])),
            guard=bool(site["guard"]),
            srcdir=Path(str(site["srcdir"])),
            engine="vitepress" if vitepress else "docusaurus",
            markdown_forms=False,
            myst_forms=False,
        )
    if path.suffix == ".toml":
        return _zensical(path, text)
    raise TextFragError(
        f"--config {path}: expected a Sphinx conf.py, an mkdocs.yml, a properdocs.yml, a zensical.toml, a myst.yml, "
        "a book.toml, a .vitepress/config.mts or a docusaurus.config.js"
    )


def _sphinx(path: Path, text: str) -> BuildConfig:
    try:
        tree = ast.parse(text, str(path))
    except SyntaxError as exc:
        raise TextFragError(f"{path}:{exc.lineno}: not valid Python ({exc.msg})") from None
    except (MemoryError, RecursionError):  # (an expression nested deeper than Python's parser goes)
        raise TextFragError(f"{path}: nested too deeply for Python's parser to read (as Sphinx would fail to)") from None
    values: dict[str, Any] = {}
    for node in tree.body:
        listed = _listed(node)
        if listed is not None:  # extensions (or MyST's) set, added to, appended to
            name, added, replaces = listed
            values[name] = added + ([] if replaces else values.get(name, []))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in _OPTIONAL:  # (what decides which documents the build reads: unknown when computed)
                try:
                    values[name] = ast.literal_eval(node.value)
                except (ValueError, TypeError, MemoryError, RecursionError):
                    values.pop(name, None)
            elif name.startswith("textfrag_") or name in ("highlight_language", "source_encoding"):
                try:
                    values[name] = ast.literal_eval(node.value)
                except (ValueError, TypeError, MemoryError, RecursionError):
                    raise TextFragError(
                        f"{path}:{node.lineno}: {name} is computed, so it cannot be read without running conf.py; "
                        "give --root (and --charset) instead"
                    ) from None
    root = path.parent / str(values.get("textfrag_root", "."))  # as Sphinx does: from the folder of conf.py
    # (MyST read with MyST-Parser: its images and links are not excerpts, nor ::: fences without colon_fence)
    myst = any(e in _MYST_EXTENSIONS for e in values.get("extensions", ()))
    given = values.get("source_suffix", {".rst": "restructuredtext"})
    suffixes = [given] if isinstance(given, str) else list(given) if isinstance(given, (list, tuple, dict)) else None
    if suffixes is not None and myst:  # (MyST-Parser adds .md; MyST-NB .ipynb too)
        suffixes += [".md", ".ipynb"] if "myst_nb" in values.get("extensions", ()) else [".md"]
    patterns = values.get("exclude_patterns", [])
    included = values.get("include_patterns", ["**"])
    suppressed = values.get("suppress_warnings", [])
    fences = values.get("myst_fence_as_directive", [])
    config = BuildConfig(
        path,
        root,
        values.get("textfrag_charset"),
        values.get("textfrag_max_size"),
        dict(values.get("textfrag_pdi_map", {})),
        values.get("highlight_language"),
        str(values.get("textfrag_on_stale", "error")),
        bool(values.get("textfrag_require_pin", False)),
        guard=bool(values.get("textfrag_guard", False)),
        srcdir=path.parent,
        source_encoding=str(values.get("source_encoding") or "utf-8-sig"),
        markdown_forms=not myst,
        colon_fence=not myst or "colon_fence" in values.get("myst_enable_extensions", ()),
    )
    return replace(
        config,
        exclude_patterns=tuple(str(p) for p in patterns) if isinstance(patterns, (list, tuple)) else (),
        include_patterns=tuple(str(p) for p in included) if isinstance(included, (list, tuple)) else ("**",),
        source_suffixes=tuple(str(x).lower() for x in suffixes) if suffixes is not None else None,
        other_suffixes=_other_suffixes(given),
        suppressed=tuple(str(w) for w in suppressed) if isinstance(suppressed, (list, tuple)) else (),
        fence_directives=tuple(str(n).lower() for n in fences) if myst and isinstance(fences, (list, tuple, set)) else (),
        substitutions=_substitutions(values) if myst else None,
    )


def _substitutions(values: dict[str, Any]) -> dict[str, str] | None:
    """MyST-Parser's substitutions of conf.py (the string values of ``myst_substitutions``), when its
    ``substitution`` extension is enabled; None when it is not."""
    if "substitution" not in values.get("myst_enable_extensions", ()):
        return None
    given = values.get("myst_substitutions", {})
    return {str(k): v for k, v in given.items() if isinstance(v, str)} if isinstance(given, dict) else {}


#: conf.py settings read when they are literals, and taken as unknown (nothing assumed) when computed
_OPTIONAL = frozenset(
    {
        "exclude_patterns",
        "include_patterns",
        "source_suffix",
        "suppress_warnings",
        "myst_fence_as_directive",
        "myst_substitutions",
    }
)


def _listed(node: ast.stmt) -> tuple[str, list[Any], bool] | None:
    """What a statement of conf.py does to ``extensions`` or ``myst_enable_extensions``: (the name, the
    items, whether they replace the list) for ``x = [...]``, ``x += [...]``, ``x.append(...)``,
    ``x.extend([...])``. An item computed is unknown: no extension, but MyST's colon_fence (assumed on)."""
    target: ast.expr | None = None
    value: ast.expr | None = None
    replaces = False
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value, replaces = node.targets[0], node.value, True
    elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
        target, value = node.target, node.value
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func, args = node.value.func, node.value.args
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend") and len(args) == 1:
            target = func.value
            value = args[0] if func.attr == "extend" else ast.List([args[0]])
    if not isinstance(target, ast.Name) or target.id not in ("extensions", "myst_enable_extensions") or value is None:
        return None
    try:
        items = list(ast.literal_eval(value))
    except (ValueError, TypeError, SyntaxError):
        items = [] if target.id == "extensions" else ["colon_fence"]
    return target.id, items, replaces


#: the Sphinx extensions that read Markdown with MyST-Parser
_MYST_EXTENSIONS = frozenset({"myst_parser", "myst_nb"})


def myst_environment(folder: Path) -> dict[str, Any]:
    """textfrag's settings in a mystmd build: an executable plugin is given no configuration, so
    ``textfrag-myst`` reads them from the environment, and ``check``, ``pin`` and ``update`` read the same
    (``TEXTFRAG_ROOT``, default ``folder``, the one of ``myst.yml``, where mystmd runs; ``TEXTFRAG_GUARD=1``
    guards its literalincludes)."""
    env = os.environ

    def yes(name: str, default: str = "0") -> bool:
        return env.get(name, default).strip().lower() not in ("", "0", "false", "no")

    size = env.get("TEXTFRAG_MAX_SIZE") or ""
    return {
        "root": (folder / (env.get("TEXTFRAG_ROOT") or ".")).resolve(),
        "on_stale": env.get("TEXTFRAG_ON_STALE", "error"),
        "charset": env.get("TEXTFRAG_CHARSET") or None,
        "source_url": env.get("TEXTFRAG_SOURCE_URL") or None,
        "max_size": int(size) if size.strip().isdigit() else None,
        "language": env.get("TEXTFRAG_LANGUAGE") or None,
        "warn_bidi": yes("TEXTFRAG_WARN_BIDI", "1"),
        "require_pin": yes("TEXTFRAG_REQUIRE_PIN"),
        "guard": yes("TEXTFRAG_GUARD"),
    }


def _myst(path: Path) -> BuildConfig:
    """A ``myst.yml`` naming ``textfrag-myst``: its folder is where mystmd runs; the settings are the
    plugin's environment (:func:`myst_environment`)."""
    settings = myst_environment(path.parent)
    return BuildConfig(
        path,
        settings["root"],
        settings["charset"],
        settings["max_size"],
        on_stale=str(settings["on_stale"]),
        require_pin=settings["require_pin"],
        guard=settings["guard"],
        srcdir=path.parent,
        engine="mystmd",
        markdown_forms=False,  # (mystmd shows a txtfrag: image as a broken image, a link as a dead link)
    )


def _mkdocs(path: Path, text: str) -> BuildConfig:
    try:
        import yaml  # PyYAML comes with MkDocs; the core does not need it otherwise
    except ImportError:
        raise TextFragError(f"reading {path} needs PyYAML (it comes with MkDocs: pip install 'textfrag[mkdocs]')") from None

    class Loader(yaml.SafeLoader):
        """SafeLoader that reads unknown tags (``!ENV``, ``!!python/name:``) as plain values."""

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    try:
        data = yaml.load(text, Loader=Loader) or {}
    except yaml.YAMLError as exc:
        raise TextFragError(f"{path}: not valid YAML ({exc})") from None
    data = _inherited(path, data, lambda p: yaml.load(p.read_text(encoding="utf-8-sig"), Loader=Loader), {path.resolve()})
    options: dict[str, Any] = {}
    plugin_used = False
    for plugin in data.get("plugins") or [] if isinstance(data, dict) else []:
        if plugin == "textfrag":
            plugin_used = True
            break
        if isinstance(plugin, dict) and "textfrag" in plugin:
            options, plugin_used = plugin["textfrag"] or {}, True
            break
    if isinstance(data, dict) and isinstance(data.get("plugins"), dict):  # the mapping form of plugins:
        options, plugin_used = data["plugins"].get("textfrag") or {}, "textfrag" in data["plugins"]
    extensions = _extensions(data.get("markdown_extensions") if isinstance(data, dict) else None)
    if not options and isinstance(extensions.get("textfrag"), dict):  # the Markdown extension's (Zensical, ProperDocs)
        options = extensions["textfrag"]
    docs = data.get("docs_dir") if isinstance(data, dict) else None
    config = _from_options(path, options, extensions, str(docs or "docs"))  # (the root from the folder of mkdocs.yml)
    attr_list = any(n in extensions for n in ("attr_list", "markdown.extensions.attr_list"))
    excluded = data.get("exclude_docs") if isinstance(data, dict) else None
    return replace(
        config,
        attr_list=attr_list,
        link_targets="site" if plugin_used else "page",
        exclude_docs=excluded if isinstance(excluded, str) else "",
        strict=isinstance(data, dict) and data.get("strict") is True,
    )


def _inherited(path: Path, data: Any, load: Any, seen: set[Path]) -> Any:
    """An mkdocs.yml as MkDocs reads it: the file its ``INHERIT`` names (from its folder) deep-merged under
    it, its values replaced by the child's, mappings merged (mergedeep's default, which MkDocs uses). A
    parent that cannot be read leaves what the file itself says (the build says what is wrong)."""
    if not isinstance(data, dict) or not isinstance(data.get("INHERIT"), str):
        return data
    parent_path = (path.parent / data["INHERIT"]).resolve()
    if parent_path in seen:
        return data
    try:
        parent = _inherited(parent_path, load(parent_path) or {}, load, seen | {parent_path})
    except Exception:  # (no such file, not YAML: MkDocs itself refuses it)
        return data
    child = {k: v for k, v in data.items() if k != "INHERIT"}
    return _merged(parent, child) if isinstance(parent, dict) else child


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(out.get(key), dict) and isinstance(value, dict) else value
    return out


def _extensions(listed: Any) -> dict[str, Any]:
    """The Markdown extensions an mkdocs.yml enables, by name, with their options, as MkDocs reads them:
    a list of names and one-key mappings, or a mapping; an extension named again keeps its options
    unless the later entry gives options of its own (MkDocs' ``MarkdownExtensions``)."""
    entries = listed.items() if isinstance(listed, dict) else listed if isinstance(listed, list) else []
    out: dict[str, Any] = {}
    for entry in entries:
        if isinstance(entry, tuple):
            name, given = entry
        elif isinstance(entry, str):
            name, given = entry, None
        elif isinstance(entry, dict) and len(entry) == 1:
            name, given = next(iter(entry.items()))
        else:
            continue
        if isinstance(given, dict) and given:
            out[str(name)] = given
        else:
            out.setdefault(str(name), {})
    return out


def _from_options(
    path: Path, options: dict[str, Any], extensions: dict[str, Any] | None = None, docs_dir: str = "docs"
) -> BuildConfig:
    """The settings of the MkDocs plugin's or the Markdown extension's options, the root from the folder
    of their configuration file; ``extensions``: the Markdown extensions the build enables, by name, with
    their options (guard mode reads pymdownx.snippets' and markdown-include's)."""
    extensions = extensions or {}
    snippets = next((extensions[n] for n in ("pymdownx.snippets",) if n in extensions), None)
    included = next((extensions[n] for n in ("markdown_include.include", "markdown_include") if n in extensions), None)
    return BuildConfig(
        path,
        path.parent / str(options.get("root") or "."),
        options.get("charset"),
        options.get("max_size"),
        dict(options.get("pdi_map") or {}),
        on_stale=str(options.get("on_stale") or "error"),
        require_pin=bool(options.get("require_pin")),
        guard=bool(options.get("guard")),
        srcdir=path.parent / docs_dir,
        snippets=dict(snippets) if snippets is not None else None,
        markdown_include=dict(included) if included is not None else None,
        mdx_include=dict(extensions["mdx_include"] or {}) if "mdx_include" in extensions else None,
        include_variants="markdown_include_variants" in extensions,
        myst_forms=False,  # (Python-Markdown shows a MyST directive or role as code or text)
        md_in_html=any(n in extensions for n in ("md_in_html", "markdown.extensions.md_in_html")),
        link_targets="page",
        source_url=str(options["source_url"]) if options.get("source_url") else None,
    )


def _book(path: Path, text: str) -> BuildConfig:
    """An mdBook's ``book.toml`` (textfrag.project.mdbook): no txtfrag: reference is rendered there; guard
    mode protects its includes."""
    from .mdbook import read_book

    book = read_book(path, text)
    return BuildConfig(
        path,
        book["root"],
        book["charset"],
        on_stale=book["on_stale"],
        require_pin=book["require_pin"],
        guard=book["guard"],
        srcdir=book["srcdir"],
        engine="mdbook",
        markdown_forms=bool(book["renders"]),
        myst_forms=False,
    )


def _zensical(path: Path, text: str) -> BuildConfig:
    """A ``zensical.toml``: the options of ``[project.markdown_extensions.textfrag]``, the root from its
    folder, as the extension takes them under Zensical."""
    from .tomlfile import read_toml
    from .tomlfile import toml_table as table

    data = read_toml(path, text)
    project = table(data, "project")
    extensions = table(project, "markdown_extensions")
    docs = project.get("docs_dir")
    return _from_options(path, table(extensions, "textfrag"), extensions, str(docs or "docs"))


def snippet_settings(path: Path) -> dict[str, Any]:
    """The ``pymdownx.snippets`` and ``pymdownx.highlight`` options of an ``mkdocs.yml`` ({} when it has
    none), for ``textfrag migrate``: ``base_path``, ``dedent_subsections``, ``linenums``; markdown-include's
    as ``include_base_path``, ``include_headingOffset``..."""
    try:
        import yaml
    except ImportError:
        return {}

    class Loader(yaml.SafeLoader):
        """SafeLoader that reads unknown tags as plain values."""

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    try:
        data = yaml.load(path.read_text(encoding="utf-8-sig"), Loader=Loader) or {}
        data = _inherited(path, data, lambda p: yaml.load(p.read_text(encoding="utf-8-sig"), Loader=Loader), {path.resolve()})
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    found: dict[str, Any] = {"attr_list": False}
    for name, options in _extensions(data.get("markdown_extensions") if isinstance(data, dict) else None).items():
        if name in ("attr_list", "markdown.extensions.attr_list"):
            found["attr_list"] = True
        if name in ("pymdownx.snippets", "pymdownx.highlight") and isinstance(options, dict):
            found.update({k: v for k, v in options.items() if k in ("base_path", "dedent_subsections", "linenums")})
        if name in ("markdown_include.include", "mdx_include") and isinstance(options, dict):
            found.update({f"include_{k}": v for k, v in options.items()})
    return found


def _other_suffixes(given: object) -> tuple[tuple[str, str], ...]:
    """Sphinx's ``source_suffix`` suffixes other than textfrag's own, each with the suffix of what its parser
    reads (a list or one suffix: reStructuredText, as Sphinx reads them)."""
    from ..documents.scan import MD_SUFFIXES, RST_SUFFIXES

    pairs = (
        given.items()
        if isinstance(given, dict)
        else (
            (x, "restructuredtext")
            for x in ([given] if isinstance(given, str) else given if isinstance(given, (list, tuple)) else ())
        )
    )
    out = []
    for suffix, parser in pairs:
        suffix = str(suffix).lower()
        as_suffix = {"restructuredtext": ".rst", "rst": ".rst", "markdown": ".md", "md": ".md"}.get(str(parser).lower())
        if suffix.startswith(".") and suffix not in RST_SUFFIXES | MD_SUFFIXES and as_suffix is not None:
            out.append((suffix, as_suffix))
    return tuple(out)


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
