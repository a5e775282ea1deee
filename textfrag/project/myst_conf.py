"""A mystmd ``myst.yml``: textfrag-myst's settings come from its environment (``TEXTFRAG_*``), as the
plugin reads them where mystmd runs."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .build import BuildConfig
from .setting_table import from_environment, settings_of
from .switch import guard_switched_on

__all__ = ["myst_environment", "read_myst"]


def myst_environment(folder: Path, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """textfrag's settings in a mystmd build: an executable plugin is given no configuration, so
    ``textfrag-myst`` reads them from the environment (``TEXTFRAG_ON_STALE``...: the settings table's for
    mystmd, read and checked by it), and ``check``, ``pin`` and ``update`` read the same, through this one
    function. ``TEXTFRAG_ROOT`` is from ``folder``, the one of ``myst.yml``, where mystmd runs; guard mode is
    also switched on by a ``textfrag.toml`` or ``pyproject.toml``. A value the table refuses is a
    :class:`~textfrag.errors.TextFragError` naming the variable."""
    env = os.environ if environ is None else environ
    settings = {s.name: from_environment(s.name, env) for s in settings_of("mystmd")}
    settings["root"] = (folder / settings["root"]).resolve()
    settings["guard"] = settings["guard"] or guard_switched_on(folder)
    return settings


def read_myst(path: Path) -> BuildConfig:
    """A ``myst.yml`` naming ``textfrag-myst``: its folder is where mystmd runs; the settings are the
    plugin's environment (:func:`myst_environment`)."""
    settings = myst_environment(path.parent)
    return BuildConfig(
        path,
        settings["root"],
        settings["charset"],
        settings["max_size"],
        on_stale=str(settings["on_stale"]),
        require_pin=settings["require_pin"],
        guard=settings["guard"],
        srcdir=path.parent,
        engine="mystmd",
        markdown_forms=False,  # (mystmd shows a txtfrag: image as a broken image, a link as a dead link)
    )
