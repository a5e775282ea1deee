"""The documentation files under the paths check, update, pin and migrate are given, read as text once each."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import DecodeError
from ..source.cache import DEFAULT_MAX_SIZE
from ..source.reading import read_regular
from .scan import MD_SUFFIXES, RST_SUFFIXES, SKIP_DIRS


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


def doc_files(
    paths: Iterable[Path],
    on_error: Callable[[Path, OSError], None] | None = None,
    *,
    asciidoc: bool = False,
    mdx: bool = False,
    extra: Iterable[str] = (),
) -> Iterator[Path]:
    """Documentation files under ``paths`` (files are taken as given), sorted, hidden folders skipped,
    each file once however often it is named (``docs docs/index.rst``); with ``asciidoc``, AsciiDoc
    documents too, with ``mdx`` MDX pages (guard mode reads their includes), with ``extra`` files of those
    suffixes. A folder that cannot be listed is passed to
    ``on_error`` (never silently skipped)."""
    suffixes = _SUFFIXES | (_ADOC if asciidoc else frozenset()) | (frozenset({".mdx"}) if mdx else frozenset())
    suffixes |= frozenset(extra)  # (a build's own: Sphinx's source_suffix ".txt")
    seen: set[str] = set()
    real_folders: dict[str, str] = {}

    def once(key: str) -> bool:
        """Whether the file whose real path is ``key`` is seen for the first time."""
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

    for path in paths:
        if not is_dir(path):
            if once(os.path.realpath(path)):
                yield path
            continue
        errors: list[OSError] = []
        found = sorted(_walk(str(path), errors, suffixes), key=lambda item: item[0])
        for error in errors:
            if on_error is not None:
                on_error(Path(error.filename or path), error)
        for _, folder, name, link in found:
            # the real path of a file that is not a link is its folder's (resolved once per folder) and its name
            if link:
                key = os.path.realpath(os.path.join(folder, name))
            else:
                real = real_folders.get(folder)
                if real is None:
                    real = real_folders[folder] = os.path.realpath(folder)
                key = os.path.join(real, name)
            if once(key):  # (a FIFO or a device is reported when it is read)
                yield Path(folder, name)


_SUFFIXES = RST_SUFFIXES | MD_SUFFIXES
_ADOC = frozenset({".adoc", ".asciidoc", ".asc"})


def _walk(
    top: str, errors: list[OSError], suffixes: frozenset[str] = _SUFFIXES
) -> Iterator[tuple[tuple[str, ...], str, str, bool]]:
    """(the path's parts, its folder, its name, whether it is a symbolic link) of each documentation file
    under ``top``: what ``os.walk`` would list, hidden and skipped folders left out, linked folders not
    entered; the parts sort as the paths do."""
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as error:
            errors.append(error)
            continue
        parts = Path(folder).parts
        for entry in entries:
            try:
                folder_entry = entry.is_dir()
            except OSError:
                folder_entry = False
            if folder_entry:
                if not entry.name.startswith(".") and entry.name not in SKIP_DIRS and not entry.is_symlink():
                    stack.append(entry.path)
            elif os.path.splitext(entry.name)[1].lower() in suffixes:
                yield (*parts, entry.name), folder, entry.name, entry.is_symlink()
