"""A mystmd ``myst.yml``: textfrag-myst's settings come from its environment (``TEXTFRAG_*``), as the
plugin reads them where mystmd runs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .build import BuildConfig

__all__ = ["myst_environment", "read_myst"]


def myst_environment(folder: Path) -> dict[str, Any]:
    """textfrag's settings in a mystmd build: an executable plugin is given no configuration, so
    ``textfrag-myst`` reads them from the environment, and ``check``, ``pin`` and ``update`` read the same
    (``TEXTFRAG_ROOT``, default ``folder``, the one of ``myst.yml``, where mystmd runs; ``TEXTFRAG_GUARD=1``
    guards its literalincludes)."""
    env = os.environ

    def yes(name: str, default: str = "0") -> bool:
        return env.get(name, default).strip().lower() not in ("", "0", "false", "no")

    size = env.get("TEXTFRAG_MAX_SIZE") or ""
    return {
        "root": (folder / (env.get("TEXTFRAG_ROOT") or ".")).resolve(),
        "on_stale": env.get("TEXTFRAG_ON_STALE", "error"),
        "charset": env.get("TEXTFRAG_CHARSET") or None,
        "source_url": env.get("TEXTFRAG_SOURCE_URL") or None,
        "max_size": int(size) if size.strip().isdigit() else None,
        "language": env.get("TEXTFRAG_LANGUAGE") or None,
        "warn_bidi": yes("TEXTFRAG_WARN_BIDI", "1"),
        "require_pin": yes("TEXTFRAG_REQUIRE_PIN"),
        "guard": yes("TEXTFRAG_GUARD"),
    }


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
