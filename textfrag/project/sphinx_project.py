"""What a Sphinx project says of the literalincludes ``textfrag migrate`` converts: its
``highlight_language`` and ``textfrag_caption``, read from the ``conf.py`` nearest a document, once per
folder."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from ..source.paths import typed_path

__all__ = ["SphinxProject", "sphinx_project_of"]


@dataclass(frozen=True)
class SphinxProject:
    """What ``migrate`` needs of the Sphinx project a document belongs to: what its pages look like
    without options (literalinclude's language, textfrag's caption) and where ``/path`` starts."""

    conf: Path
    #: ``highlight_language`` ("default", Sphinx's own, when not set)
    highlight_language: str = "default"
    #: ``textfrag_caption`` ("path", textfrag's default, when not set)
    caption: str = "path"
    #: what could not be read (a computed value), said once
    note: str | None = None


def sphinx_project_of(document: Path, found: dict[Path, SphinxProject | None]) -> SphinxProject | None:
    """The Sphinx project of a document: the ``conf.py`` nearest above it (textfrag named in it or not, as
    before a migration), looked for up to the repository's top folder (one holding ``.git``); ``found``
    keeps what each folder answered, so that each conf.py is read once per run."""
    folder = document.resolve().parent
    walked: list[Path] = []
    answer: SphinxProject | None = None
    while True:
        if folder in found:
            answer = found[folder]
            break
        walked.append(folder)
        conf = folder / "conf.py"
        if conf.is_file():
            answer = _sphinx_project(conf)
            break
        if (folder / ".git").exists() or folder.parent == folder:
            break
        folder = folder.parent
    for each in walked:
        found[each] = answer
    return answer


def _sphinx_project(conf: Path) -> SphinxProject:
    try:
        tree = ast.parse(conf.read_bytes(), str(conf))
    except (OSError, SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        unread = f"cannot read {typed_path(conf)} ({exc}): literalinclude's language taken as Sphinx's default"
        return SphinxProject(conf, note=unread)
    values: dict[str, str] = {}
    note: str | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("highlight_language", "textfrag_caption"):
                try:
                    value = ast.literal_eval(node.value)
                except (ValueError, TypeError, MemoryError, RecursionError):
                    note = f"{typed_path(conf)}:{node.lineno}: {name} is computed; its default is assumed"
                    continue
                if isinstance(value, str):
                    values[name] = value
    return SphinxProject(conf, values.get("highlight_language", "default"), values.get("textfrag_caption", "path"), note)
