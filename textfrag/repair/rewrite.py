"""Rewrite references in documentation files, changing nothing else, atomically.

A documentation file is read as bytes; its text is decoded (UTF-8, a BOM kept aside) without any
newline translation, so the scanner's offsets index it exactly. Only the characters of each reference
are replaced, and the text is encoded back the same way: every other byte is unchanged (line endings,
BOM and encoding included). The new content replaces the file through a temporary file in the same
folder, flushed, given the same permissions and renamed over it, so that an interrupted run leaves each
file either as it was or as it should be, never half-written.
"""

from __future__ import annotations

import codecs
import difflib
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TextFragError, spell
from ..source.cache import DEFAULT_MAX_SIZE
from ..source.reading import read_regular

__all__ = ["DocText", "read_doc", "apply_edits", "unified_diff", "write_atomic"]


@dataclass
class DocText:
    """A documentation file as text, the bytes it was read from, and how to write it back byte for byte."""

    path: Path
    bom: bytes
    text: str
    raw: bytes = b""
    edits: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, replacement)

    def encoded(self, text: str) -> bytes:
        """``text`` as the file's bytes: its BOM kept, UTF-8, undecodable bytes as they were."""
        return self.bom + text.encode("utf-8", "surrogateescape")


def write_places(root: str | Path, paths: Iterable[str | Path]) -> list[str]:
    """The real folders a command that writes may write in: the root and the folders given (a file given
    stands for the folder that holds it, so that a link given by name is judged by where it leads)."""
    places = [os.path.realpath(root)]
    for p in paths:
        places.append(os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))))
    return places


def _inside(real: str, places: Sequence[str]) -> bool:
    return any(real == place or real.startswith(place.rstrip(os.sep) + os.sep) for place in places)


def read_doc(
    path: Path, shown: str | None = None, max_size: int = DEFAULT_MAX_SIZE, *, within: Sequence[str] | None = None
) -> DocText:
    """Read a documentation file (UTF-8, optionally with a BOM; a regular file within the size limit);
    raises :class:`~textfrag.errors.TextFragError`. With ``within`` (:func:`write_places`), a document whose
    real path lies outside those folders (a link that leads out of the project) is refused: a command that
    writes never writes there."""
    shown = shown or str(path)
    if within is not None:
        real = os.path.realpath(path)
        if not _inside(real, within):
            raise TextFragError(f"{shown} is a link to {real}, outside the root and the folders given; it is left as it is")
    raw = read_regular(str(path), shown, None, max_size)
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        text = raw[len(bom) :].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextFragError(f"cannot read {shown} as UTF-8 text: {exc.reason} at byte {exc.start + len(bom)}") from None
    return DocText(path, bom, text, raw)


def apply_edits(doc: DocText) -> str:
    """The text with every edit applied; :class:`TextFragError` if two edits overlap."""
    parts, pos = [], 0
    for start, end, replacement in sorted(doc.edits):
        if start < pos:
            raise TextFragError(f"two edits of {doc.path} overlap at offset {start}; the file is left as it is")
        parts.append(doc.text[pos:start])
        parts.append(replacement)
        pos = end
    parts.append(doc.text[pos:])
    return "".join(parts)


def unified_diff(doc: DocText, new_text: str, shown: str) -> str:
    """What ``--write`` would change, as a unified diff that ``git apply`` accepts: a last line without
    a line ending is marked ``\\ No newline at end of file``, as diff and git write it."""
    out = []
    old_name, new_name = _git_quoted(f"a/{shown}"), _git_quoted(f"b/{shown}")
    for line in difflib.unified_diff(_lines(doc.text), _lines(new_text), fromfile=old_name, tofile=new_name):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


_GIT_NAMED = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _git_quoted(name: str) -> str:
    r"""A file name in a diff header as git writes it: as it is, or in double quotes with its control
    characters (octal, of their UTF-8 bytes), quotes and backslashes escaped, so that nothing in a name can
    start a line or move a terminal's cursor, and ``git apply`` still reads it.

    >>> _git_quoted("a/docs/x.md"), _git_quoted("a/x\n::y.md")
    ('a/docs/x.md', '"a/x\\n::y.md"')
    """
    if spell(name) == name and '"' not in name and "\\" not in name:
        return name
    out = []
    for c in name:
        if c in _GIT_NAMED:
            out.append(_GIT_NAMED[c])
        elif spell(c) != c:
            out.extend(f"\\{b:03o}" for b in c.encode("utf-8", "surrogateescape"))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _lines(text: str) -> list[str]:
    """Lines as diff and git see them: split after each LF only (a CR, a form feed... stay in the line)."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def write_atomic(path: Path, data: bytes, *, expected: bytes | None = None, shown: str | None = None) -> None:
    """Replace the file at ``path`` (a symlink's target) with ``data``: temporary file, fsync, rename.

    With ``expected``, the file must still hold exactly those bytes right before it is replaced (an
    editor's save since it was read is never lost: the file is refused instead). A read-only file or
    folder, or any other failure, is a :class:`TextFragError`, and the file is left as it was: never
    half-written, no temporary file left behind (also on SIGINT/SIGTERM, which raise through here).
    """
    shown = shown or str(path)
    real = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(real.stat().st_mode)
    except OSError as exc:
        raise TextFragError(f"cannot write {shown}: {exc.strerror}") from None
    # read-only means read-only, also for root (whom os.access never refuses): the mode bits say it
    if not os.access(real, os.W_OK) or not mode & 0o222:
        raise TextFragError(f"cannot write {shown}: the file is read-only; it is left as it is")
    folder = real.parent.stat()
    if not os.access(real.parent, os.W_OK | os.X_OK) or not folder.st_mode & 0o222:
        raise TextFragError(
            f"cannot write {shown}: its folder is read-only (a file is replaced through a new one); it is left as it is"
        )
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".textfrag-tmp", dir=real.parent)
    except OSError as exc:
        raise TextFragError(
            f"cannot write {shown}: its folder does not allow a new file ({exc.strerror}); it is left as it is"
        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if expected is not None and real.read_bytes() != expected:
            raise TextFragError(f"{shown} changed since textfrag read it; it is left as it is (run the command again)")
        os.replace(tmp, real)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise TextFragError(f"cannot write {shown}: {exc.strerror}; it is left as it is") from None
        raise
