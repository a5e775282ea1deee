"""The build's own configuration for the command line: ``--config conf.py|mkdocs.yml|zensical.toml``, or found.

``check``, ``update`` and ``migrate`` verify what the build would, so they read the same settings: the
root, the charset, the PDI map and the size limit. :func:`read_config` chooses the reader of the engine
that builds (one module each: ``sphinx_conf``, ``mkdocs_conf`` for MkDocs and Zensical, ``myst_conf``,
``mdbook``, ``vitepress``, ``docusaurus``), each reading its file without running it; no engine is
imported. What they give is a :class:`~textfrag.project.build.BuildConfig`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import TextFragError
from .build import BuildConfig, forms_of, html_blocks_of, snippet_bases
from .mkdocs_conf import read_mkdocs, read_zensical, snippet_settings
from .myst_conf import read_myst
from .sphinx_conf import read_sphinx

if TYPE_CHECKING:
    pass

__all__ = [
    "BuildConfig",
    "forms_of",
    "html_blocks_of",
    "read_config",
    "snippet_bases",
    "snippet_settings",
]


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
        return read_myst(path)
    if path.suffix == ".py":
        return read_sphinx(path, text)
    if path.suffix in (".yml", ".yaml"):  # mkdocs.yml, properdocs.yml: the same plugin and extension options
        return read_mkdocs(path, text)
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
            src_exclude=tuple(str(p) for p in excluded) if isinstance(excluded := site.get("exclude"), tuple) else (),
            # (a txtfrag: image or link is rendered where the configuration uses textfrag's plugin)
            markdown_forms=("markdown-it-textfrag" if vitepress else "remark-textfrag") in text,
            myst_forms=False,
        )
    if path.suffix == ".toml":
        return read_zensical(path, text)
    raise TextFragError(
        f"--config {path}: expected a Sphinx conf.py, an mkdocs.yml, a properdocs.yml, a zensical.toml, a myst.yml, "
        "a book.toml, a .vitepress/config.mts or a docusaurus.config.js"
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
