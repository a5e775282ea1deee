"""Work that may take too long, done in a forked child process that is stopped at a deadline.

Some work cannot be stopped from inside this process: tree-sitter's error recovery on hostile input is
worse than quadratic and calls no progress callback while it runs. Such work runs in a child forked for
it, its memory limited; the child sends back its result (or the :class:`~textfrag.errors.TextFragError`
it raised), and is killed and waited for when the deadline passes, so the caller gets a clear error and
nothing is left running: no thread, no process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar, cast

from .errors import TextFragError

__all__ = ["can_bound", "in_child"]

T = TypeVar("T")


def can_bound() -> bool:
    """Whether this platform forks (elsewhere the work runs in this process, unbounded)."""
    return hasattr(os, "fork")


def in_child(
    work: Callable[..., T],
    *args: object,
    seconds: float,
    too_long: str,
    memory: int | None = None,
    too_large: str | None = None,
) -> T:
    """``work(*args)`` in a forked child; :class:`TextFragError` saying ``too_long`` when it takes more
    than ``seconds``, and ``too_large`` when it needs more than ``memory`` bytes besides what this
    process holds (the child's address space is limited to that, ``resource.RLIMIT_AS``). The result
    comes back pickled, from the child this process forked."""
    import pickle
    import select
    import signal
    import time

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: work, send the result (or the error), leave at once
        try:
            os.close(read_end)
            if memory is not None:
                _limit_memory(memory)
            try:
                result: object = work(*args)
            except TextFragError as err:
                result = err
            except MemoryError:
                result = _TOO_LARGE
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(result))
        finally:
            os._exit(0)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    status = 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                raise TextFragError(too_long)
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        status = os.waitpid(pid, 0)[1]
    if not chunks:
        # (a native library that cannot allocate aborts: with a memory limit, that is what it ran into)
        if memory is not None and too_large is not None and os.WIFSIGNALED(status):
            raise TextFragError(too_large)
        raise TextFragError("the work's process ended without an answer (it was stopped, or ran out of memory)")
    result = pickle.loads(b"".join(chunks))
    if result == _TOO_LARGE:
        raise TextFragError(too_large or "the work's process ran out of memory")
    if isinstance(result, TextFragError):
        raise result
    return cast("T", result)


#: what a child sends back when it ran out of the memory it was given
_TOO_LARGE = "\0memory"


def _limit_memory(more: int) -> None:
    """Limit this (child) process's address space to what it holds now and ``more`` bytes."""
    try:
        import resource

        with open("/proc/self/statm") as statm:
            held = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        wanted = held + more
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ImportError, OSError, ValueError):  # (no /proc, no resource limits: the deadline alone)
        pass
