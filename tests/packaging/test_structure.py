"""The house's rules on the code as it is installed (the wheel's modules, read as text): no module over 600
lines, and no name its module marks as private (a leading underscore) imported by another module: what a
module shares, it names without one. The engines' own private names (Sphinx's ``_`` for translations) are
theirs to name."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

PACKAGES = (
    "textfrag",
    "sphinx_textfrag",
    "mkdocs_textfrag",
    "markdown_textfrag",
    "myst_textfrag",
    "mdbook_textfrag",
    "context_textfrag",
    "lsp_textfrag",
)
#: private names of other projects that are their public interface
FOREIGN = {("sphinx.locale", "_")}


def _modules() -> list[Path]:
    out: list[Path] = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.submodule_search_locations, name
        out += sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.py"))
    return out


MODULES = _modules()


def test_the_installed_packages_are_read_here() -> None:
    assert len(MODULES) > 100 and all("site-packages" in str(m) for m in MODULES), MODULES[:3]


def test_no_module_is_over_600_lines() -> None:
    long = {f"{m.parent.name}/{m.name}": n for m in MODULES if (n := m.read_text(encoding="utf-8").count("\n")) > 600}
    assert not long, long


def test_no_private_name_is_imported_from_another_module() -> None:
    crossing = []
    for module in MODULES:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                crossing += [
                    f"{module.parent.name}/{module.name}: from {'.' * node.level}{node.module or ''} import {a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__") and (node.module, a.name) not in FOREIGN
                ]
    assert not crossing, "\n".join(crossing)


def test_output_formats_are_named_only_where_they_are_declared() -> None:
    """``--format``'s machine-readable names are written once, in ``textfrag/report/formats.py``; every
    command asks it (``output_format``) instead of comparing names."""
    named = [
        f"{m.parent.name}/{m.name}: {node.value!r}"
        for m in MODULES
        if m.name != "formats.py"
        for node in ast.walk(ast.parse(m.read_text(encoding="utf-8")))
        if isinstance(node, ast.Compare)
        for side in (node.left, *node.comparators)
        if isinstance(side, ast.Constant) and side.value in ("json", "sarif", "github")
        for node in [side]
    ]
    assert not named, named
