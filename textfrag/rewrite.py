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
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DocText", "read_doc", "apply_edits", "unified_diff", "write_atomic"]


@dataclass
class DocText:
    """A documentation file as text, and how to write it back byte for byte."""

    path: Path
    bom: bytes
    text: str
    edits: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, replacement)

    def encoded(self, text: str) -> bytes:
        return self.bom + text.encode("utf-8", "surrogateescape")


def read_doc(path: Path) -> DocText:
    """Read a documentation file (UTF-8, optionally with a BOM); raises UnicodeDecodeError/OSError."""
    raw = path.read_bytes()
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    return DocText(path, bom, raw[len(bom) :].decode("utf-8"))


def apply_edits(doc: DocText) -> str:
    """The text with every edit applied (edits must not overlap)."""
    parts, pos = [], 0
    for start, end, replacement in sorted(doc.edits):
        if start < pos:
            raise ValueError(f"overlapping edits in {doc.path} at offset {start}")
        parts.append(doc.text[pos:start])
        parts.append(replacement)
        pos = end
    parts.append(doc.text[pos:])
    return "".join(parts)


def unified_diff(doc: DocText, new_text: str, shown: str) -> str:
    """What ``--write`` would change, as a unified diff."""
    old_lines = doc.text.splitlines(keepends=True)
    new_lines = new_text.splitlines(keepends=True)
    return "".join(difflib.unified_diff(old_lines, new_lines, fromfile=f"a/{shown}", tofile=f"b/{shown}"))


def write_atomic(path: Path, data: bytes) -> None:
    """Replace the file at ``path`` (a symlink's target) with ``data``: temporary file, fsync, rename."""
    real = Path(os.path.realpath(path))
    mode = stat.S_IMODE(real.stat().st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".textfrag-tmp", dir=real.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
