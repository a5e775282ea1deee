"""Which build a command line run belongs to: one way of finding it for every command and the editor.

A project is a configuration that names textfrag: an ``mkdocs.yml``, a ``properdocs.yml``, a
``zensical.toml``, a Sphinx ``conf.py`` or a ``myst.yml``. For each path a command is given (a folder,
or a file's folder), :func:`find_projects` looks

1. at the path and the folders above it, up to the top of its git repository (the folder holding
   ``.git``), or to the file system's root outside one: the nearest configuration wins, so that ``check``
   run in ``docs/`` finds the ``mkdocs.yml`` one folder up;
2. then below the path, in the usual layouts (``docs/source/conf.py`` of ``sphinx-quickstart --sep``,
   ``doc/conf.py``, ``docs/mkdocs.yml``...): ``check`` at the top of a repository finds the project in
   ``docs/``.

Two configurations in one folder are an ambiguous choice, a :class:`~textfrag.errors.TextFragError`
that names both and says how to choose (``--config``), never a silent pick. Two projects in different
folders below a path are both found: each is checked under its own settings and named.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..errors import TextFragError
from ..source.paths import typed_path

if TYPE_CHECKING:
    from .config import BuildConfig

__all__ = ["CONFIG_NAMES", "LAYOUTS", "Project", "find_projects", "nearest_config", "configs_in"]

#: the files a build is configured in
CONFIG_NAMES: tuple[str, ...] = ("mkdocs.yml", "mkdocs.yaml", "properdocs.yml", "properdocs.yaml", "zensical.toml")
CONFIG_NAMES += ("conf.py", "myst.yml", "myst.yaml", "book.toml")
CONFIG_NAMES += tuple(f".vitepress/config.{x}" for x in ("mts", "ts", "mjs", "js", "cts", "cjs"))
CONFIG_NAMES += ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs")
#: the folders below a path where a project's configuration usually stands (Sphinx's quickstart with
#: separate source and build folders, the Sphinx and MkDocs defaults, Read the Docs' templates)
LAYOUTS: tuple[str, ...] = ("docs/source", "doc/source", "docs", "doc", "documentation", "source")


class Project(NamedTuple):
    """A build's configuration and the paths of a command line run that belong to it."""

    config: BuildConfig
    paths: tuple[str, ...]


def _guard_on(folder: Path) -> bool:
    """Whether guard mode is switched on for the builds of ``folder`` that have no place to say so
    (``TEXTFRAG_GUARD=1``, a ``textfrag.toml`` or ``[tool.textfrag]``: textfrag.project.switch)."""
    from .switch import guard_switched_on

    try:
        return guard_switched_on(folder)
    except TextFragError:
        return False  # (said where the configuration is read)


def _names_textfrag(path: Path) -> bool:
    """Whether a configuration names textfrag; any engine's configuration also when guard mode is switched on
    for it (its includes are then guarded, with nothing of textfrag's in its build)."""
    try:
        if not path.is_file():
            return False
        if "textfrag" in path.read_text(encoding="utf-8", errors="replace"):
            return True
        return _guard_on(path.parent)
    except OSError:
        return False


def configs_in(folder: Path) -> list[Path]:
    """The configurations naming textfrag in ``folder`` (a folder that cannot be read holds none). The folder
    is listed once (not each of the names looked at for: a long-lived caller looks for them at every page),
    its names compared without case, as a file system that ignores it would find them."""
    try:
        names = {name.lower() for name in os.listdir(folder)}
    except OSError:
        return []
    if ".vitepress" in names:
        try:
            names.update(f".vitepress/{name.lower()}" for name in os.listdir(folder / ".vitepress"))
        except OSError:  # (not a folder, or not one to be read)
            pass
    return [folder / name for name in CONFIG_NAMES if name.lower() in names and _names_textfrag(folder / name)]


def _one(folder: Path, found: list[Path]) -> Path:
    """The one configuration of a folder; two are an ambiguous choice, said with both names."""
    if len(found) == 1:
        return found[0]
    names = " and ".join(p.name for p in found)
    raise TextFragError(
        f"{typed_path(folder)} holds two configurations that name textfrag ({names}): textfrag does not guess which "
        f"build the documents belong to; give one with --config, e.g. --config {typed_path(found[0])}"
    )


def _upward(start: Path) -> list[Path]:
    """``start`` and the folders above it, up to its repository's top (or the file system's root)."""
    folders = [start]
    folder = start
    while not os.path.exists(folder / ".git") and folder.parent != folder:  # (a folder not to be entered: none)
        folder = folder.parent
        folders.append(folder)
    return folders


def _above(start: Path) -> Path | None:
    """The nearest configuration at or above ``start``."""
    for folder in _upward(start):
        found = configs_in(folder)
        if found:
            return _one(folder, found)
    return None


def _below(start: Path) -> list[Path]:
    """The configurations in the usual layouts below ``start``, one per folder, nearest layouts first;
    a layout inside a folder already found is its project's own (``docs/source`` under ``docs``) and
    not another project."""
    out: list[Path] = []
    for layout in LAYOUTS:
        folder = start / layout
        found = configs_in(folder)
        if not found:
            continue
        chosen = _one(folder, found)
        if not any(p.parent in folder.parents or p.parent == folder for p in out):
            out.append(chosen)
    return out


def find_projects(places: list[Path]) -> list[Project]:
    """The projects the paths of a run belong to, each with its paths, in the order they were found;
    [] when none is. A path with a configuration at or above it belongs to that one; a path with one
    below it (in the usual layouts) to that one, or to each of several, checked in its own source
    folder; a path with none joins the first project found (its documents are judged with its settings,
    as before a project stood beside them)."""
    projects: dict[Path, list[str]] = {}
    orphans: list[str] = []
    for place in places:
        resolved = place.resolve()
        folder = os.path.isdir(resolved)  # (False for a path that cannot be looked at: said where it is read)
        start = resolved if folder else resolved.parent
        above = _above(start)
        if above is not None:
            projects.setdefault(above, []).append(str(place))
            continue
        below = _below(start) if folder else []
        if len(below) == 1:
            projects.setdefault(below[0], []).append(str(place))
        elif below:
            for conf in below:  # (each project's documents, under its own settings)
                from .config import read_config

                projects.setdefault(conf, []).append(str(read_config(conf).srcdir or conf.parent))
        else:
            orphans.append(str(place))
    out: list[Project] = []
    if projects:
        from .config import read_config  # (a run that finds no configuration reads none: its import is not paid)

        out = [Project(read_config(path), tuple(paths)) for path, paths in projects.items()]
    # (AsciiDoc has no configuration: a folder of .adoc files is one, when guard mode is switched on for it)
    if not out and orphans and any(_guard_on(Path(o).resolve()) for o in orphans):
        from .asciidoc import asciidoc_project

        for orphan in list(orphans):
            adoc = asciidoc_project(Path(orphan))
            if adoc is not None:
                out.append(Project(adoc, (orphan,)))
                orphans.remove(orphan)
    if out and orphans:
        out[0] = Project(out[0].config, out[0].paths + tuple(orphans))
    return out


def nearest_config(document: Path, top: Path | None = None) -> BuildConfig | None:
    """The configuration of the build ``document`` belongs to, for a long-lived caller that has no current
    folder to start from (the language server): the nearest above the document, looked for up to
    ``top`` (a workspace folder) or the repository's top, then in the usual layouts below ``top``. An
    unreadable one is passed over."""
    folder = document.resolve().parent
    stop = top.resolve() if top is not None else None
    for each in _upward(folder):
        try:
            found = configs_in(each)
            if found:
                from .config import read_config

                return read_config(_one(each, found))
        except TextFragError:
            return None
        if each == stop:
            break
    if stop is not None:
        try:
            below = [c for c in _below(stop) if folder == c.parent or c.parent in folder.parents]
            if not below:
                return None
            from .config import read_config

            return read_config(below[0])
        except TextFragError:
            return None
    return None
