"""Guard mode switched on in one place for every engine: ``TEXTFRAG_GUARD=1`` where textfrag and the
build run, or ``guard = true`` in a ``textfrag.toml`` or in the ``[tool.textfrag]`` table of a
``pyproject.toml``, in the configuration's folder or one above it up to the repository's top. An engine's
own setting (``textfrag_guard``, the plugin's ``guard: true``, ``[preprocessor.textfrag]``) also does."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import TextFragError

__all__ = ["env_guard", "guard_switched_on", "SWITCH_NAMES"]

#: the files that can switch guard mode on for a whole repository
SWITCH_NAMES = ("textfrag.toml", "pyproject.toml")


def env_guard() -> bool:
    """Whether ``TEXTFRAG_GUARD`` switches guard mode on (1, true, yes)."""
    return os.environ.get("TEXTFRAG_GUARD", "0").strip().lower() not in ("", "0", "false", "no", "off")


def _said(path: Path) -> bool | None:
    """What ``path`` says of guard mode (None: nothing); :class:`TextFragError` for one that is not TOML."""
    from ..source.remote import textfrag_table

    data = textfrag_table(path, "guard")
    if data is None:
        return None
    value = data.get("guard")
    if value is None:
        return None
    if not isinstance(value, bool):
        raise TextFragError(f"{path}: guard must be true or false, not {value!r}")
    return value


def guard_switched_on(folder: Path) -> bool:
    """Whether guard mode is on for a build whose configuration is in ``folder``: the environment, else the
    nearest ``textfrag.toml`` or ``pyproject.toml`` that says so, at or above it up to the repository's top."""
    if env_guard():
        return True
    here = folder.resolve()
    while True:
        for name in SWITCH_NAMES:
            said = _said(here / name)
            if said is not None:
                return said
        if os.path.exists(here / ".git") or here.parent == here:
            return False
        here = here.parent
