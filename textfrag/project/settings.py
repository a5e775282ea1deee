"""The build's settings that change a verdict, decided once for ``check`` and the editor: a stale quote
is a warning where ``on_stale`` says so, unless the build is strict (``mkdocs build --strict``, MkDocs'
``strict: true``, ``sphinx-build -W``, ``check --strict``); a kind Sphinx's ``suppress_warnings`` names
fails nothing. The text names the setting that relaxed a problem."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import StaleError, TextFragError

if TYPE_CHECKING:  # (check's start-up reads no configuration module it does not need)
    from .config import BuildConfig

__all__ = ["lets_pass", "relaxed_by", "highlighter_of"]


def lets_pass(config: BuildConfig | None, problem: TextFragError, *, strict: bool = False) -> bool:
    """Whether the build of ``config`` lets ``problem`` fail nothing (it warns of it, or is silent)."""
    if config is None:
        return False
    silenced = {w for w in config.suppressed if w == "textfrag" or w.startswith("textfrag.")}
    if "textfrag" in silenced or f"textfrag.{problem.kind}" in silenced:
        return True
    return isinstance(problem, StaleError) and config.on_stale == "warning" and not (strict or config.strict)


def relaxed_by(config: BuildConfig) -> str:
    """The build's settings that make a problem fail nothing, as the text names them."""
    said = []
    if config.on_stale == "warning":
        said.append("textfrag_on_stale = 'warning'" if config.path.suffix == ".py" else "on_stale: warning")
    if config.suppressed:
        said.append(f"suppress_warnings = {list(config.suppressed)!r}")
    try:
        shown = os.path.relpath(config.path)
    except ValueError:
        shown = str(config.path)
    return " and ".join(said) + f" in {shown}"


def highlighter_of(config: BuildConfig | None) -> str:
    """What highlights the excerpts of the build of ``config``: "pygments" (Sphinx, MkDocs, Zensical,
    ProperDocs: a language Pygments does not know is a warning), else the engine's own highlighter."""
    engine = config.engine if config is not None else ""
    return engine if engine in ("mystmd", "mdbook", "vitepress", "docusaurus", "asciidoc") else "pygments"
