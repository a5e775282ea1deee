"""Reading a file safely, apart from keeping what was read (textfrag.source.cache): only a regular file
(never a FIFO, a device or a folder), of at most ``max_size`` bytes (a file that grows past it while it is
read too), whose real path stays under the root (a symbolic link out of it is refused), and a missing
file named with where it does exist. The digest of a large file is made as it is read, in blocks.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from ..errors import PathError
from .charsets import Digest, ascii_compatible, ascii_lines, codec_name
from .paths import check_path_syntax, typed_path
from .store import keep_digest, kept_digest

__all__ = ["digest_under_root", "read_regular", "read_under_root"]


def _opened_path(fd: int) -> str | None:
    """The real path of an open file from /proc (Linux): one syscall instead of a realpath walk."""
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    return target if target.startswith("/") and not target.endswith(" (deleted)") else None


def _inside(real_root: str, real: str) -> bool:
    # compare whole path components: /x/docs_evil is not inside /x/docs
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def read_under_root(real_root: str, path: str, reference: str, max_size: int) -> bytes:
    """Read ``path`` under the real root ``real_root``, refusing anything that is not a regular file
    inside the root or is over ``max_size`` bytes. A FIFO or device is never opened: its type is known
    from ``stat`` first, and the opened file is checked to be the one that was stat'ed.
    """
    check_path_syntax(path, reference)
    return read_regular(os.path.join(real_root, path), path, reference, max_size, real_root=real_root)


def _no_such_file(full: str, path: str, real_root: str | None) -> tuple[str, str | None]:
    """``no such file: PATH``, naming the root, the closest existing paths, and a root it works from (and
    that root, as shown)."""
    if real_root is None:
        return f"no such file: {path}", None
    message = f"no such file: {path} (under the root {typed_path(real_root)})"
    # the deepest folder of the path that exists, and the names in it most like the one asked for
    parts = path.split("/")
    folder, depth = real_root, 0
    while depth < len(parts) - 1 and os.path.isdir(os.path.join(folder, parts[depth])):
        folder, depth = os.path.join(folder, parts[depth]), depth + 1
    try:
        with os.scandir(folder) as entries:
            names = [e.name for _, e in zip(range(5000), entries, strict=False)]
    except OSError:
        names = []
    prefix = "/".join(parts[:depth])
    import difflib  # only a missing file pays for it

    close = difflib.get_close_matches(parts[depth], names, n=3, cutoff=0.6)
    if close:
        message += "; did you mean " + " or ".join(f"{prefix + '/' if prefix else ''}{c}" for c in close) + "?"
    # a root it would work from: a folder above the root, or the current folder
    for other in [*list(Path(real_root).parents)[:3], Path.cwd()]:
        if str(other) != real_root and os.path.isfile(os.path.join(other, path)):
            message += f"; it exists under {typed_path(str(other))}: is that the root (--root {typed_path(str(other))})?"
            return message, typed_path(str(other))
    return message, None


def read_regular(full: str, path: str, reference: str | None, max_size: int, *, real_root: str | None = None) -> bytes:
    """Read the regular file ``full`` (shown as ``path``) of at most ``max_size`` bytes, or
    :class:`PathError`: a FIFO, a device or a directory is refused without being opened for reading
    (``/dev/zero`` would never end, a FIFO would block), and so is a file that grows past the limit
    while it is read. With ``real_root``, the file must also resolve inside it (symbolic links too).
    Documentation files get these rules as quoted files do.
    """
    fd, size = _open_regular(full, path, reference, max_size, real_root)
    try:
        return _read_all(fd, size, path, reference, max_size)
    finally:
        os.close(fd)


def _read_all(fd: int, size: int, path: str, reference: str | None, max_size: int) -> bytes:
    """The rest of the open file ``fd`` that fstat said has ``size`` bytes, at most ``max_size``."""
    # read what fstat announced plus one byte, not max_size bytes (which would allocate the whole
    # limit for every file); a short read or a file that grew reads on to EOF, up to the limit
    try:
        data = os.read(fd, size + 1)
        if len(data) != size:
            parts, got = [data], len(data)
            while got <= max_size:
                chunk = os.read(fd, max_size + 1 - got)
                if not chunk:
                    break
                parts.append(chunk)
                got += len(chunk)
            data = b"".join(parts)
    except OSError as exc:
        raise PathError(f"cannot read {path}: {exc.strerror}", reference=reference) from None
    if len(data) > max_size:
        raise PathError(f"{path} is over the limit of {max_size} bytes", reference=reference)
    return data


def _open_regular(full: str, path: str, reference: str | None, max_size: int, real_root: str | None) -> tuple[int, int]:
    """Open the regular file ``full`` for reading, with every check of :func:`read_regular`; the file
    descriptor (the caller closes it) and the size fstat gives."""

    def outside() -> bool:
        """Whether the path resolves outside the root."""
        return real_root is not None and not _inside(real_root, os.path.realpath(full))

    try:
        st = os.stat(full)
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(full) and outside():
            raise PathError(f"{path!r} resolves outside the root (through a symbolic link)", reference=reference) from None
        said, missing_root = _no_such_file(full, path, real_root)
        missing = PathError(said, reference=reference)
        missing.no_such_file, missing.other_root = True, missing_root
        raise missing from None
    except OSError as exc:
        raise PathError(f"cannot read {path}: {exc.strerror}", reference=reference) from None
    if not stat.S_ISREG(st.st_mode):
        if outside():
            raise PathError(f"{path!r} resolves outside the root (through a symbolic link)", reference=reference)
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
        raise PathError(f"{path} is {kind}; only regular files can be read", reference=reference)
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise PathError(f"cannot read {path}: {exc.strerror}", reference=reference) from None
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
            raise PathError(f"{path} changed while it was being opened", reference=reference)
        if real_root is not None and not _inside(real_root, _opened_path(fd) or os.path.realpath(full)):
            raise PathError(f"{path!r} resolves outside the root (through a symbolic link)", reference=reference)
        if fst.st_size > max_size:
            raise PathError(
                f"{path} is {fst.st_size} bytes, over the limit of {max_size} bytes (raise the size limit to read it)",
                reference=reference,
            )
    except BaseException:
        os.close(fd)
        raise
    return fd, fst.st_size


def digest_under_root(real_root: str, path: str, reference: str, max_size: int, charset: str) -> Digest:
    """The :class:`Digest` of ``path`` under the real root, with the checks of :func:`read_under_root`.

    A file in an ASCII-compatible charset is hashed as it is read, a block at a time, as md5sum does:
    nothing the size of the file is allocated. Once a byte is not ASCII, the file is read whole and
    decoded, because its length in characters depends on the charset.
    """
    check_path_syntax(path, reference)
    full = os.path.join(real_root, path)
    fd, size = _open_regular(full, path, reference, max_size, real_root)
    try:
        kept = kept_digest(fd, full, path, charset)
        if kept is not None and isinstance(kept[0], Digest):
            return kept[0]
        if size >= _BLOCK and ascii_compatible(codec_name(charset)):
            digest = _ascii_digest(fd, path, reference, max_size, charset)
        else:
            digest = None
        if digest is None:
            if size >= _BLOCK:
                os.lseek(fd, 0, os.SEEK_SET)
                size = os.fstat(fd).st_size
            digest = Digest.of(path, _read_all(fd, size, path, reference, max_size), charset)
        if kept is not None:
            keep_digest(fd, kept, digest)
        return digest
    finally:
        os.close(fd)


_BLOCK = 1 << 20


def _ascii_digest(fd: int, path: str, reference: str, max_size: int, charset: str) -> Digest | None:
    """The digest of the rest of ``fd`` read a block at a time, or None at the first byte that is not
    ASCII. In ASCII, CR LF is the only two-character line ending: length is size minus the pairs."""
    md5 = hashlib.md5()
    buffer = bytearray(_BLOCK)
    view = memoryview(buffer)
    size = pairs = ends = 0
    carriage = False  # the block before ended with CR
    last = b""
    try:
        while True:
            n = os.readv(fd, [buffer])
            if not n:
                break
            block = buffer if n == _BLOCK else buffer[:n]
            if not block.isascii():
                return None
            size += n
            if size > max_size:
                raise PathError(f"{path} is over the limit of {max_size} bytes", reference=reference)
            md5.update(view[:n])
            pairs += carriage and block[0] == 0x0A  # a CR LF pair split between two blocks
            ends += block.count(b"\n")
            if b"\r" in block:  # `in` is a memchr; count is not
                pairs += block.count(b"\r\n")
                ends += block.count(b"\r")
                carriage = block[-1] == 0x0D
            else:
                carriage = False
            last = bytes(block[-1:])
    except OSError as exc:
        raise PathError(f"cannot read {path}: {exc.strerror}", reference=reference) from None
    finally:
        view.release()
    return Digest(path, charset, md5.hexdigest(), size - pairs, size, False, ascii_lines(ends - pairs, last))
