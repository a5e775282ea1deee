"""A Sphinx ``conf.py``, read, never run: its ``textfrag_*`` assignments must be literals (strings, numbers,
dicts), as they almost always are; what decides which documents the build reads (``source_suffix``,
``exclude_patterns``...) too, and MyST-Parser's settings when it is an extension."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import TextFragError
from .build import BuildConfig
from .setting_table import checked, setting

__all__ = ["read_sphinx"]


def read_sphinx(path: Path, text: str) -> BuildConfig:
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
        _checked(values, "max_size", path),
        dict(values.get("textfrag_pdi_map", {})),
        values.get("highlight_language"),
        _checked(values, "on_stale", path, "error"),
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


def _checked(values: dict[str, Any], name: str, path: Path, unset: Any = None) -> Any:
    """conf.py's value of the setting ``name`` (``unset`` when it sets none), refused as the extension
    refuses it (textfrag.project.setting_table)."""
    spelt = setting(name).sphinx
    return checked(name, values[spelt], spelt, path) if spelt in values else unset


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
