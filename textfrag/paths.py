"""Path rules that hold before the file system is touched: a reference's PATH can never name anything
outside the root. The rules that need the file system (symbolic links, regular files, sizes) are
textfrag.source's; both it and the parser use these, so they live below both.
"""

from __future__ import annotations

from .errors import PathError

__all__ = ["check_path_syntax"]


def check_path_syntax(path: str, reference: str) -> None:
    """Refuse a PATH that could never be inside the root, before touching the file system."""
    if not path:
        raise PathError("the reference names no file (expected PATH#FRAGMENT)", reference=reference)
    if "\x00" in path:
        raise PathError("the path contains a NUL byte", reference=reference)
    if "\\" in path:
        raise PathError("the path contains '\\'; paths use '/' as the separator", reference=reference)
    if path.startswith("/") or (len(path) > 1 and path[1] == ":" and path[0].isalpha()):
        raise PathError("the path is absolute; paths are relative to the root", reference=reference)
    if ".." in path.split("/"):
        raise PathError("the path contains '..'; references never leave the root", reference=reference)
