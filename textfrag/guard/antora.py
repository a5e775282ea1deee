"""Antora's resource ids in an AsciiDoc include: ``include::example$app.rb[]`` names a file of the
component the page belongs to, by its family (``page``, ``partial``, ``example``, ``attachment``,
``image``), its module (``module:example$app.rb``; ``ROOT`` by default) and its component
(``component:module:example$app.rb``, ``version@...``), as Antora's content catalog resolves it. A
component is a folder with an ``antora.yml`` (its ``name`` and ``version``) and a ``modules`` folder; one
in another repository cannot be read, and is a located problem, never a silent pass."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import PathError

__all__ = ["component_of", "resource_file"]

_ID = re.compile(r"^(?:(?P<version>[^@:$/]+)@)?(?P<coords>(?:[^@:$/]*:){0,2})(?P<family>[a-z]+)\$(?P<path>.+)$")
_FAMILIES = {"page": "pages", "partial": "partials", "example": "examples", "attachment": "attachments", "image": "images"}
_NAME = re.compile(r"""^name:[ \t]*['"]?([^'"\s#]+)""", re.M)
_VERSION = re.compile(r"""^version:[ \t]*['"]?([^'"\s#]*)""", re.M)
_MOST = 20_000  # (files looked at for another component's antora.yml)


def _descriptor(folder: Path) -> tuple[str, str] | None:
    """The name and version an ``antora.yml`` in ``folder`` gives its component (None: none there)."""
    try:
        text = (folder / "antora.yml").read_text(encoding="utf-8", errors="replace")[:65536]
    except OSError:
        return None
    name, version = _NAME.search(text), _VERSION.search(text)
    return (name.group(1) if name else "", version.group(1) if version else "")


def component_of(doc: Path) -> tuple[Path, str, str] | None:
    """The component a document belongs to (``COMPONENT/modules/MODULE/FAMILY/...``): its folder and module."""
    parts = doc.parent.parts
    for k in range(len(parts) - 1, 0, -1):
        if parts[k] == "modules" and k + 1 < len(parts) and _descriptor(Path(*parts[:k])) is not None:
            return Path(*parts[:k]), parts[k + 1], ""
    return None


def _named(root: str, name: str, version: str | None) -> Path | None:
    """The component folder under ``root`` whose ``antora.yml`` names it (and its version, when given)."""
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "build", "_build"))
        seen += len(files)
        if "antora.yml" in files:
            said = _descriptor(Path(folder))
            if said is not None and said[0] == name and (version is None or said[1] == version):
                return Path(folder)
        if seen > _MOST:
            break
    return None


def resource_file(target: str, doc_path: Path, root: str) -> str | None:
    """The path a resource id names (None: ``target`` is not one, or the page is in no Antora component,
    and it is a path as Asciidoctor reads it); :class:`PathError` for an id textfrag cannot resolve here."""
    m = _ID.match(target)
    if m is None or m.group("family") not in _FAMILIES:
        return None
    here = component_of(doc_path)
    if here is None:
        return None  # (not an Antora page: Asciidoctor reads the name as a path)
    folder, module, _ = here
    coords = [c for c in m.group("coords").split(":")][:-1]
    if len(coords) == 2:
        component, module = coords[0], coords[1] or "ROOT"
    elif len(coords) == 1:
        component, module = None, coords[0] or module
    else:
        component = None
    version = m.group("version")
    if component is not None or version is not None:
        name = component or (_descriptor(folder) or ("", ""))[0]
        found = _named(root, name, version)
        if found is None:
            at = f"{version}@{name}" if version else name
            raise PathError(
                f"the Antora component {at} is not in this repository: textfrag cannot read what {target} names "
                "(guard the include in the component's own repository)"
            )
        folder = found
    return str(folder / "modules" / module / _FAMILIES[m.group("family")] / m.group("path").lstrip("/"))
