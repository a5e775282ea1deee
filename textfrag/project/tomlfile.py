"""Reading a TOML configuration (``book.toml``, ``zensical.toml``, ``textfrag.toml``, ``pyproject.toml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import TextFragError

__all__ = ["read_toml", "toml_table"]


def read_toml(path: Path, text: str) -> dict[str, Any]:
    """A TOML configuration's data (``book.toml``, ``zensical.toml``); :class:`TextFragError` when it is not TOML."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            raise TextFragError(f"reading {path} needs Python 3.11 or tomli (pip install tomli)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TextFragError(f"{path}: not valid TOML ({exc})") from None
    return data


def toml_table(parent: dict[str, Any], key: str) -> dict[str, Any]:
    """The table ``key`` of a TOML table ({} when there is none)."""
    value = parent.get(key)
    return value if isinstance(value, dict) else {}
