"""Work that may take too long, done in a forked child process that is stopped at a deadline: one forked
for the work (:func:`in_child`), or the process's worker, forked once and fed one piece after another
(:func:`in_worker`: a parse costs a round trip on a pipe, not a fork).

Some work cannot be stopped from inside this process: tree-sitter's error recovery on hostile input is
worse than quadratic and calls no progress callback while it runs. Such work runs in a child forked for
it, its memory limited; the child sends back its result (or the :class:`~textfrag.errors.TextFragError`
it raised), and is killed and waited for when the deadline passes, so the caller gets a clear error and
nothing is left running: no thread, no process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..errors import TextFragError

__all__ = ["can_bound", "in_child", "in_worker"]

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


class _Worker:
    """A forked child that runs one piece of work after another, its memory limited once: a parse costs a
    round trip on a pipe, not a fork (4.7 ms each). It ends when this process does (its pipe closes), and is
    killed and replaced when a piece of work overruns its deadline or its memory."""

    def __init__(self, memory: int) -> None:
        import threading

        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.jobs = 0
        to_child, self._requests = os.pipe()
        self._answers, from_child = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: serve requests until the pipe closes
            try:
                os.close(self._requests)
                os.close(self._answers)
                _limit_memory(memory)
                _serve(to_child, from_child)
            finally:
                os._exit(0)
        os.close(to_child)
        os.close(from_child)

    def call(self, work: Callable[..., T], args: tuple[object, ...], seconds: float) -> object:
        """What ``work(*args)`` returned in the child (or raised, as a TextFragError); :data:`_GONE` when the
        child ended without an answer; :data:`_LATE` when the deadline passed (the child is then killed)."""
        import pickle
        import select
        import time

        self.jobs += 1
        _write(self._requests, pickle.dumps((work, args)))
        deadline = time.monotonic() + seconds
        wanted, chunks = 8, b""
        length: int | None = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                self.close(kill=True)
                return _LATE
            chunk = os.read(self._answers, min(1 << 20, wanted - len(chunks)))
            if not chunk:
                self.close()
                return _GONE
            chunks += chunk
            if len(chunks) < wanted:
                continue
            if length is None:
                length, wanted, chunks = int.from_bytes(chunks, "big"), int.from_bytes(chunks, "big"), b""
                if length == 0:
                    break
                continue
            break
        return pickle.loads(chunks)

    def close(self, *, kill: bool = False) -> None:
        import signal

        for fd in (self._requests, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        _WORKERS.pop(self.owner, None)


_GONE, _LATE = object(), object()
#: this process's worker (a forked process makes its own: the one it inherits is its parent's)
_WORKERS: dict[int, _Worker] = {}
_MADE: dict[int, Any] = {}


def _write(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "big") + data)
    while view:
        view = view[os.write(fd, view) :]


def _serve(requests: int, answers: int) -> None:
    """The worker's loop: read a request, run it, write the answer (the error it raised, or that it ran out
    of memory, which ends the worker: what a failed allocation leaves is not reused)."""
    import pickle

    with os.fdopen(requests, "rb") as inbox:
        while True:
            head = inbox.read(8)
            if len(head) < 8:
                return
            work, args = pickle.loads(inbox.read(int.from_bytes(head, "big")))
            try:
                result: object = work(*args)
            except TextFragError as err:
                result = err
            except MemoryError:
                _write(answers, pickle.dumps(_TOO_LARGE))
                return
            _write(answers, pickle.dumps(result))


def in_worker(work: Callable[..., T], *args: object, seconds: float, too_long: str, memory: int, too_large: str) -> T:
    """``work(*args)`` in this process's bounded worker, as :func:`in_child` runs it in a child of its own:
    :class:`TextFragError` saying ``too_long`` past ``seconds``, ``too_large`` past ``memory`` bytes. A
    worker that served earlier work and then runs out of memory or ends is replaced and the work tried once
    more in a fresh one, so that what earlier work left in it never decides."""
    import threading

    for attempt in (0, 1):
        with _MADE.setdefault(os.getpid(), threading.Lock()):  # (one worker a process, whatever its threads)
            worker = _WORKERS.get(os.getpid())
            if worker is None:
                worker = _WORKERS[os.getpid()] = _Worker(memory)
        with worker.lock:
            fresh = worker.jobs == 0
            result = worker.call(work, args, seconds)
        if result is _LATE:
            raise TextFragError(too_long)
        if result is _GONE or result == _TOO_LARGE:
            if result == _TOO_LARGE:
                worker.close()
            if fresh or attempt:
                raise TextFragError(too_large)
            continue
        if isinstance(result, TextFragError):
            raise result
        return cast("T", result)
    raise TextFragError(too_large)
