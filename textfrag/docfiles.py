"""The documentation files under the paths check, update, pin and migrate are given, read as text once each."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .errors import DecodeError
from .scan import MD_SUFFIXES, RST_SUFFIXES, SKIP_DIRS, Found, scan_text
from .source import DEFAULT_MAX_SIZE, read_regular


def read_text(path: Path, shown: str | None = None, max_size: int = DEFAULT_MAX_SIZE) -> str:
    """A documentation file's text (UTF-8, a BOM allowed), with the rules quoted files have: a regular
    file of at most ``max_size`` bytes (a FIFO or ``/dev/zero`` is refused, never read). Raises
    :class:`~textfrag.errors.TextFragError` (a :class:`~textfrag.errors.PathError` or a decoding error)."""
    shown = shown or str(path)
    data = read_regular(str(path), shown, None, max_size)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DecodeError(
            f"byte {exc.start} (line {line}) does not decode as UTF-8 ({exc.reason}); documentation sources are read as UTF-8",
            offset=exc.start,
            charset="UTF-8",
        ) from None


def scan_file(path: Path, shown: str | None = None, max_size: int = DEFAULT_MAX_SIZE) -> list[Found]:
    """References in one documentation file (see :func:`read_text` for what is refused)."""
    return scan_text(read_text(path, shown, max_size), shown or str(path), path.suffix)


def doc_files(paths: Iterable[Path], on_error: Callable[[Path, OSError], None] | None = None) -> Iterator[Path]:
    """Documentation files under ``paths`` (files are taken as given), sorted, hidden folders skipped,
    each file once however often it is named (``docs docs/index.rst``). A folder that cannot be listed
    is passed to ``on_error`` (never silently skipped)."""
    seen: set[str] = set()

    def once(path: Path) -> bool:
        """Whether ``path`` is seen for the first time (by its real path)."""
        key = os.path.realpath(path)
        if key in seen:
            return False
        seen.add(key)
        return True

    def is_dir(path: Path) -> bool:
        """Whether ``path`` is a folder; False when it cannot be looked at (a folder above it that may be
        listed but not entered): it is then yielded as a file, and reading it says what is wrong."""
        try:
            return path.is_dir()
        except OSError:
            return False

    suffixes = RST_SUFFIXES | MD_SUFFIXES
    for path in paths:
        if not is_dir(path):
            if once(path):
                yield path
            continue
        found: list[Path] = []
        errors: list[OSError] = []
        for folder, dirs, files in os.walk(path, onerror=errors.append):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
            found.extend(Path(folder, f) for f in files if Path(f).suffix.lower() in suffixes)
        for error in errors:
            if on_error is not None:
                on_error(Path(error.filename or path), error)
        for child in sorted(found):
            if not is_dir(child) and once(child):  # a FIFO or a device is reported when it is read
                yield child
