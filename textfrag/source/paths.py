"""Path rules that hold before the file system is touched: a reference's PATH can never name anything
outside the root. The rules that need the file system (symbolic links, regular files, sizes) are
textfrag.source.cache's; both it and the parser use these, so they live below both.
"""

from __future__ import annotations

import os
import re

from ..errors import PathError

__all__ = ["SOURCE_NAME", "check_path_syntax", "decode_path", "encode_path", "split_source", "typed_path"]

# what a path cannot hold as it is in a reference: "%" (it starts an escape), "#" (it starts the fragment),
# white space (it ends a Markdown link) and control characters
_UNSAFE = re.compile(r"[%#\s\x00-\x1f\x7f]")


def typed_path(path: str | os.PathLike[str]) -> str:
    """A path as a user would type it in a message: relative to the current folder when that is shorter
    than the absolute path (``docs/conf.py``, ``../site/mkdocs.yml``), else absolute (``/etc/hosts``, not
    ``../../../../etc/hosts``); ``x/..`` never left in.

    >>> typed_path(os.path.join(os.getcwd(), "docs", "..", "docs", "conf.py"))
    'docs/conf.py'
    """
    normal = os.path.normpath(os.fspath(path))
    if not os.path.isabs(normal) and not normal.startswith(".."):
        return normal  # (what relpath would make of it: a relative path down from here is as typed)
    try:
        rel = os.path.relpath(normal)
    except ValueError:  # (another drive)
        return normal
    return rel if not os.path.isabs(normal) or len(rel) < len(normal) else normal


def decode_path(path: str, reference: str) -> str:
    """A reference's PATH percent-decoded as a URI's path is (RFC 3986 section 2.1): ``my%20file.txt`` names
    ``my file.txt``, as a path pasted from a GitHub permalink does. A ``%`` not followed by two hex digits
    stays as it is; escapes that are not UTF-8 are an error.

    >>> decode_path("src/my%20file.txt", ""), decode_path("src/100%.txt", "")
    ('src/my file.txt', 'src/100%.txt')
    """
    if "%" not in path:
        return path
    from urllib.parse import unquote

    try:
        return unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise PathError("the path's percent-encoding is not UTF-8 (RFC 3986 section 2.1)", reference=reference) from None


def encode_path(path: str) -> str:
    """A file's path as a reference writes it: what would not read back the same is percent-encoded.

    >>> encode_path("src/my file #1.txt"), encode_path("src/app.py")
    ('src/my%20file%20%231.txt', 'src/app.py')
    """
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "surrogateescape")), path)


#: how a user sets the root, said wherever a path is refused for leaving it
ROOT_HINT = (
    " (to quote files above the documentation, set the root higher: `--root DIR` for the command line, "
    "textfrag_root in conf.py, root: under the textfrag plugin or extension in mkdocs.yml, TEXTFRAG_ROOT for mystmd)"
)


#: the name of a declared source (``txtfrag://NAME/PATH``): lower-case letters, digits, ``-`` and ``_``
SOURCE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def split_source(path: str) -> tuple[str, str] | None:
    """``//NAME/PATH`` (a file of the declared source NAME, as ``txtfrag://NAME/PATH`` writes it: RFC 3986's
    authority names the source) -> (NAME, PATH); None for a file under the root.

    >>> split_source("//sdk/src/app.py"), split_source("src/app.py")
    (('sdk', 'src/app.py'), None)
    """
    if not path.startswith("//"):
        return None
    name, _, rest = path[2:].partition("/")
    return name, rest


def check_path_syntax(path: str, reference: str) -> None:
    """Refuse a PATH that could never be inside the root (or, for ``//NAME/PATH``, inside the source NAME),
    before touching the file system."""
    named = split_source(path)
    if named is not None:
        name, path = named
        if not SOURCE_NAME.fullmatch(name):
            raise PathError(
                f"'//{name}/' names no source: a source's name (declared under [sources] in textfrag.toml) is "
                "lower-case letters, digits, '-' and '_', as in txtfrag://sdk/src/app.py",
                reference=reference,
            )
        if not path:
            raise PathError(f"the reference names no file of the source {name} (expected //{name}/PATH)", reference=reference)
    if not path:
        raise PathError("the reference names no file (expected PATH#FRAGMENT)", reference=reference)
    if "\x00" in path:
        raise PathError("the path contains a NUL byte", reference=reference)
    if "\\" in path:
        raise PathError("the path contains '\\'; paths use '/' as the separator", reference=reference)
    if path.startswith("/") or (len(path) > 1 and path[1] == ":" and path[0].isalpha()):
        raise PathError(f"the path is absolute; paths are relative to the root{ROOT_HINT}", reference=reference)
    if ".." in path.split("/"):
        raise PathError(f"the path contains '..'; references never leave the root{ROOT_HINT}", reference=reference)
