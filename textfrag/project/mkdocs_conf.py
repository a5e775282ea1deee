"""An ``mkdocs.yml`` (or ``properdocs.yml``) read with PyYAML (installed with MkDocs), unknown tags such as
``!ENV`` ignored and ``INHERIT`` followed, with the plugin's options or else the Markdown extension's; a
``zensical.toml`` with ``tomllib``; and the pymdownx.snippets settings of either."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import TextFragError
from .build import BuildConfig
from .setting_table import checked

__all__ = ["read_mkdocs", "read_zensical", "snippet_settings"]


def read_mkdocs(path: Path, text: str) -> BuildConfig:
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
        checked("max_size", options["max_size"], "max_size", path) if options.get("max_size") is not None else None,
        dict(options.get("pdi_map") or {}),
        on_stale=checked("on_stale", options["on_stale"], "on_stale", path) if options.get("on_stale") else "error",
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


def read_zensical(path: Path, text: str) -> BuildConfig:
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
