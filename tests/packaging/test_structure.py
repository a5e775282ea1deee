"""The house's rules on the code as it is installed (the wheel's modules, read as text): no module over 600
lines, and no name its module marks as private (a leading underscore) imported by another module: what a
module shares, it names without one. The engines' own private names (Sphinx's ``_`` for translations) are
theirs to name."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from .test_wheel import PACKAGES  # (every package the wheel ships)

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


def test_the_command_line_reads_its_run_from_one_frozen_context() -> None:
    """The parsed arguments are never written to nor asked whether they hold an option: a run's settings are
    the fields of ``textfrag.cli.context.RunContext`` (a named tuple), settled once."""
    grafted = []
    for module in MODULES:
        if module.parent.name != "cli":
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
                target = node.args[0] if node.args else None
                if isinstance(target, ast.Name) and target.id in ("args", "run") or isinstance(target, ast.Attribute):
                    grafted.append(f"{module.name}:{node.lineno}: {node.func.id}")
            targets = node.targets if isinstance(node, ast.Assign) else []
            grafted += [
                f"{module.name}:{node.lineno}: args.{t.attr} ="
                for t in targets
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "args"
            ]
    assert not grafted, grafted


def test_settling_a_run_leaves_the_parsed_arguments_as_parsed(tmp_path: Path) -> None:
    from textfrag.cli import build_parser
    from textfrag.cli._base import settle

    args = build_parser().parse_args(["check", "--root", str(tmp_path), str(tmp_path)])
    before = dict(vars(args))
    run = settle(args, None)
    assert vars(args) == before
    assert run.root == str(tmp_path) and run.paths == (str(tmp_path),) and run.root_given
    try:
        run.root = "elsewhere"  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("a run's context can be changed")


def _surfaces() -> list[Path]:
    return [m for m in MODULES if m.name == "__init__.py" and "_WHERE" in m.read_text(encoding="utf-8")]


@pytest.mark.parametrize("init", _surfaces(), ids=lambda m: m.parent.name)
def test_a_packages_surface_is_one_list_in_three_places_that_agree(init: Path) -> None:
    """A subpackage's surface is written where a reader, a type checker and the lazy import each need it:
    ``__all__``, the ``TYPE_CHECKING`` imports and ``_WHERE`` (the module each name comes from). The three
    hold the same names, and each name is the object its module defines."""
    package = f"textfrag.{init.parent.name}"
    module = importlib.import_module(package)
    where: dict[str, str] = module._WHERE
    typed: dict[str, str] = {}
    for node in ast.walk(ast.parse(init.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.level == 1:
                    typed.update({a.asname or a.name: stmt.module or "" for a in stmt.names})
    assert sorted(module.__all__) == sorted(where) == sorted(typed)
    # (a name that is also a module of the package would become that module once it is imported)
    assert not set(where) & {m.stem for m in init.parent.glob("*.py")}
    assert typed == where  # (each from the same module)
    for name, source in where.items():
        assert getattr(module, name) is getattr(importlib.import_module(f"{package}.{source}"), name), name


def _layers() -> list[set[str]]:
    """The core's stages, top first, as the import-linter contract of pyproject.toml lists them."""
    import tomllib

    from ..conftest import REPO

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    [stages] = [c["layers"] for c in contracts if c.get("containers") == ["textfrag"]]
    return [{name.strip() for name in stage.split("|")} for stage in stages]


def _may_import(doc: str, layers: list[set[str]]) -> set[str]:
    """What a package's "May import:" line lets it import: the packages it names, or with "and under",
    those and every stage below them."""
    line = doc.split("May import:", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"``textfrag\.(\w+)``", line))
    if "and under" in line:
        top = min(k for k, stage in enumerate(layers) if named & stage)
        named |= {name for stage in layers[top:] for name in stage}
    return named


@pytest.mark.parametrize("package", sorted({m.parent.name for m in MODULES if m.parent.parent.name == "textfrag"}))
def test_each_may_import_line_is_what_the_package_imports(package: str) -> None:
    """A package's docstring says what it may import; its modules import nothing else of the core (besides
    ``textfrag.errors`` and the package-level helpers), imports inside functions included."""
    modules = [m for m in MODULES if m.parent.name == package and m.parent.parent.name == "textfrag"]
    init = next(m for m in modules if m.name == "__init__.py")
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert "May import:" in doc, f"{package}'s docstring does not say what it may import"
    allowed = _may_import(doc, _layers()) | {package, "errors", "_surface", "_version"}
    used = set()
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                used.add(node.module.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("textfrag."):
                used.add((node.module or "").split(".")[1])
    assert used <= allowed, f"{package} imports {sorted(used - allowed)}, which its docstring does not let it"


def _package_of(module: Path) -> str:
    """The top-level package an installed module belongs to."""
    parts = module.parts
    return parts[parts.index("site-packages") + 1]


def test_adapters_import_the_core_through_its_package_surfaces_only() -> None:
    """An adapter (the engines' plugins, the language server) imports ``textfrag`` or one of its packages
    (``textfrag.verdict``), never a module inside one: what a package offers is its surface, held above."""
    deep = [
        f"{m.parent.name}/{m.name}:{node.lineno}: from {node.module}"
        for m in MODULES
        if _package_of(m) != "textfrag"
        for node in ast.walk(ast.parse(m.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and node.level == 0
        and (node.module or "").startswith("textfrag.")
        and (node.module or "").count(".") > 1
    ]
    assert not deep, "\n".join(deep)
