"""Digesting the quoted files on every core, as check finds them (each file once)."""

from __future__ import annotations

import argparse
import os
import queue
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from concurrent.futures import Executor


from ..errors import TextFragError
from ..report.terminal import Progress
from ..source.cache import Digest, SourceCache, digest_batch
from ..source.store import WORTH_KEEPING
from ..source.store import current as current_store


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's count), at most 8."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


def _process_pool(workers: int) -> Executor | None:
    """Forked worker processes, or None where fork is not how processes start (then the files are
    digested on first use). Started before this process has any thread of its own: forking a process
    with threads is unsafe."""
    import multiprocessing  # only `check` of a large tree pays for importing it

    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))


_Digests = list[tuple[str, "Digest | TextFragError"]]


class _Threads:
    """Threads that run jobs and put what each returns (or raises) on ``done``. Plain threads and a
    queue: concurrent.futures would import logging and more on every ``check``, which costs more than a
    small tree takes to hash."""

    def __init__(self, workers: int, done: queue.SimpleQueue[object]) -> None:
        self.inbox: queue.SimpleQueue[Callable[[], _Digests] | None] = queue.SimpleQueue()
        self.done = done
        self.threads = [threading.Thread(target=self._work, name=f"textfrag-digest-{i}", daemon=True) for i in range(workers)]
        for thread in self.threads:
            thread.start()

    def submit(self, job: Callable[[], _Digests]) -> None:
        self.inbox.put(job)

    def _work(self) -> None:
        while (job := self.inbox.get()) is not None:
            try:
                self.done.put(job())
            except BaseException as failure:  # a bug: raised again in the main thread
                self.done.put(failure)

    def shutdown(self) -> None:
        for _ in self.threads:
            self.inbox.put(None)
        for thread in self.threads:
            thread.join()


class _Digester:
    """Digests the quoted files on every core, as their paths are found, each file once.

    Hashing is the floor of ``check`` (it is what md5sum does, on one core). A large file is a job of
    its own for a forked worker process, hashed a block at a time: hashlib releases the GIL, but the
    block's ASCII test and its line counts do not, so threads would take turns for a third of the work
    (bench/bench_core.py: 160 MB in 40 files, 0.43 s with threads, 0.38 s with processes). Small files
    go to the processes in jobs of :attr:`JOB_FILES`, once there are :attr:`START_FILES` of them (fewer
    are digested on first use, in this process, where starting processes would cost more than it
    saves). Processes are forked before any thread is started, never after; where processes do not fork
    (or once threads run), files go to threads. Only digests come back, never texts, so memory stays flat.
    """

    LARGE = 1 << 20  # bytes: a file this large has a thread
    JOB_FILES, START_FILES = 128, 256

    def __init__(self, cache: SourceCache, args: argparse.Namespace, progress: Progress | None = None) -> None:
        self.cache, self.args, self.progress = cache, args, progress
        self.seen: set[str] = set()
        self.small: list[str] = []  # not yet sent to a worker
        self.workers = _cores()
        self.processes: Executor | None = None
        self.threads: _Threads | None = None
        self.done: queue.SimpleQueue[object] = queue.SimpleQueue()  # what each job gave, as it ends
        self.jobs = 0  # sent
        self.files = 0  # in the jobs sent
        self.keeps = False  # some file is large enough for the store to keep its digest (textfrag.source.store)

    def add(self, path: str) -> None:
        """Queue a quoted file for digesting (each path once)."""
        if path in self.seen or self.workers < 2:
            return
        self.seen.add(path)
        try:  # only to share the work out: the file is checked when it is read
            size = os.stat(os.path.join(self.cache.real_root, path)).st_size
        except (OSError, ValueError):
            size = 0
        self.keeps = self.keeps or size >= WORTH_KEEPING
        if size >= self.LARGE:  # (a process of its own where processes fork: the counts hold the GIL)
            self._send([path], threads=self.threads is not None)
            return
        self.small.append(path)
        if len(self.small) >= (self.JOB_FILES if self.jobs else self.START_FILES):
            for i in range(0, len(self.small), self.JOB_FILES):
                self._send(self.small[i : i + self.JOB_FILES], threads=False)
            self.small = []

    def _send(self, paths: list[str], *, threads: bool) -> None:
        a = self.args
        job = partial(digest_batch, str(a.root), a.charset, a.max_size, paths)
        if not threads and self.threads is None and self.processes is None:
            self.processes = _process_pool(self.workers)
        if threads or self.processes is None:
            if self.threads is None:
                self.threads = _Threads(self.workers, self.done)
            self.threads.submit(job)
        else:
            self.processes.submit(job).add_done_callback(self.done.put)
        self.jobs += 1
        self.files += len(paths)

    def finish(self) -> None:
        """Wait for the workers and record every digest in the cache (the rest are digested on first use)."""
        if self.jobs and self.small:
            self._send(self.small, threads=self.threads is not None)
            self.small = []
        hashed = 0
        kept = current_store()
        if self.keeps and kept is not None:
            kept.ready()  # (while the workers hash: the digests they find are kept at the end)
        try:
            for _ in range(self.jobs):
                result = self.done.get()
                if isinstance(result, BaseException):
                    raise result
                digests = cast("_Digests", result if isinstance(result, list) else result.result())  # type: ignore[attr-defined]
                for path, entry in digests:
                    self.cache.add_digest(path, entry)
                hashed += len(digests)
                if self.progress is not None:
                    self.progress.show(f"hashed {hashed}/{self.files} files")
        finally:
            for pool in (self.threads, self.processes):
                if pool is not None:
                    pool.shutdown()
