"""An AsciiDoc project, which has no configuration: with guard mode on (``TEXTFRAG_GUARD=1``), a folder
holding ``.adoc`` documents is one, its includes guarded as Asciidoctor reads them. Its root is the top of
the git repository that holds it (or ``TEXTFRAG_ROOT``, from the folder), so that an include of
``../src/app.rb`` is under it. Its lock file is the one the project already has, whichever folder a command
is given: the nearest ``textfrag.lock`` at or above that folder (up to the root), else the one lock file
below it; a project that has none keeps it in the folder given."""

from __future__ import annotations

import os
from pathlib import Path

from .config import BuildConfig

__all__ = ["asciidoc_project", "ADOC_NAMES"]

#: the suffixes of AsciiDoc documents
ADOC_NAMES = (".adoc", ".asciidoc", ".asc")


def _holds_adoc(folder: Path, most: int = 20_000) -> bool:
    """Whether ``folder`` (or a folder below it, hidden ones aside) holds an AsciiDoc document."""
    seen = 0
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "_build", "build")]
        if any(f.lower().endswith(ADOC_NAMES) for f in files):
            return True
        seen += len(files)
        if seen > most:
            return False
    return False


def _lock_folder(folder: Path, top: Path, most: int = 20_000) -> Path:
    """Where the project's lock file is: the nearest folder at or above ``folder`` (up to ``top``) that holds
    a ``textfrag.lock``, else the one folder below it that does (several: none is chosen), else ``folder``."""
    here = folder
    while True:
        if (here / "textfrag.lock").is_file():
            return here
        if here == top or here.parent == here or top not in here.parents:
            break
        here = here.parent
    found: list[Path] = []
    seen = 0
    for at, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "_build", "build"))
        if "textfrag.lock" in files:
            found.append(Path(at))
        seen += len(files)
        if seen > most or len(found) > 1:
            break
    return found[0] if len(found) == 1 else folder


def asciidoc_project(place: Path) -> BuildConfig | None:
    """The AsciiDoc project of a path (a folder, or a document's folder), None when it holds no ``.adoc``."""
    place = place.resolve()
    if place.is_file():
        if not place.name.lower().endswith(ADOC_NAMES):
            return None
        folder = place.parent
    elif place.is_dir() and _holds_adoc(place):
        folder = place
    else:
        return None
    top = folder
    while not (top / ".git").exists() and top.parent != top:
        top = top.parent
    if not (top / ".git").exists():
        top = folder
    given = os.environ.get("TEXTFRAG_ROOT")
    root = (folder / given).resolve() if given else top
    kept = _lock_folder(folder, top)
    return BuildConfig(
        kept / ".asciidoc", root, guard=True, srcdir=folder, engine="asciidoc", markdown_forms=False, myst_forms=False
    )
