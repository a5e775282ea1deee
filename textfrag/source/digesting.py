"""Digesting the quoted files on every core, as check finds them (each file once)."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from functools import partial
from typing import cast

from ..errors import TextFragError
from .cache import Digest, SourceCache, digest_batch
from .store import WORTH_KEEPING
from .store import current as current_store


def usable_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the machine's count), at most 8."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


_Digests = list[tuple[str, "Digest | TextFragError"]]


def _process_pool(workers: int, work: Callable[[list[str]], _Digests]) -> _Forked | None:
    """Forked worker processes that run ``work`` on each job, or None where processes do not fork (then
    the files go to threads). Started before this process has any thread of its own: forking a process
    with threads is unsafe."""
    if workers < 2 or not hasattr(os, "fork"):
        return None
    pool = _Forked(workers, work)
    return pool if pool.pids else None  # (none could be started: threads do the work)


class _Forked:
    """Worker processes forked from this one, each given a job at a time through a pipe of its own and
    answering through another: what :class:`concurrent.futures.ProcessPoolExecutor` does for ``check``,
    without importing multiprocessing and concurrent.futures (a fifth of check's start-up) or starting
    its threads. A job is a list of paths; its answer is the pickled list of their digests (or the
    exception of a bug, raised again here). A worker that dies leaves its files to be digested on first
    use."""

    def __init__(self, workers: int, work: Callable[[list[str]], _Digests]) -> None:
        self.pids: list[int] = []
        self.jobs: list[int] = []  # the write end of each worker's job pipe
        self.answers: list[int] = []  # the read end of each worker's answer pipe
        self.idle: list[int] = []  # workers (indexes) without a job
        self.waiting: list[list[str]] = []  # jobs not yet given to a worker
        self.given: dict[int, list[str]] = {}  # worker -> the job it holds
        ours: list[int] = []
        import pickle  # noqa: F401  (here, once: each worker has it from the fork)

        kept = current_store()
        if kept is not None:
            kept.settle()  # (a database this run makes holds nothing a worker could look up)

        for _ in range(workers):
            made: list[int] = []
            try:
                made += os.pipe()
                made += os.pipe()
                pid = os.fork()
            except OSError:  # (no more processes or pipes: the ones made so far do the work)
                for fd in made:
                    os.close(fd)
                break
            job_r, job_w, answer_r, answer_w = made
            if pid == 0:  # (the worker: it keeps its two ends and nothing of the others')
                for fd in (*ours, job_w, answer_r):
                    os.close(fd)
                _serve(job_r, answer_w, work)  # (never returns)
            os.close(job_r)
            os.close(answer_w)
            ours += [job_w, answer_r]
            self.idle.append(len(self.pids))
            self.pids.append(pid)
            self.jobs.append(job_w)
            self.answers.append(answer_r)

    def submit(self, paths: list[str]) -> None:
        self.waiting.append(paths)
        self._give()

    def _give(self) -> None:
        while self.waiting and self.idle:
            worker = self.idle.pop()
            job = self.waiting.pop(0)
            try:
                _send(self.jobs[worker], "\0".join(job).encode("utf-8", "surrogateescape"))
            except OSError:  # (a worker that died: its files are digested on first use)
                continue
            self.given[worker] = job

    def answered(self, *, wait: bool) -> list[_Digests]:
        """The answers of the jobs done (waiting for one when ``wait``), each job given on as a worker is free."""
        import select

        out: list[_Digests] = []
        while self.given:
            ready, _, _ = select.select([self.answers[w] for w in self.given], [], [], None if wait else 0)
            if not ready:
                break
            for worker in [w for w in self.given if self.answers[w] in ready]:
                del self.given[worker]
                answer = _received(self.answers[worker])
                if answer is None:  # (the worker died: its job's files are digested on first use)
                    continue
                self.idle.append(worker)
                if isinstance(answer, BaseException):
                    raise answer
                digests, rows = cast("tuple[_Digests, list[tuple[str, str]]]", answer)
                kept = current_store()
                if rows and kept is not None:
                    kept.give(rows)
                out.append(digests)
            self._give()
            wait = False  # (what else is ready is taken; the caller waits again for the rest)
        return out

    @property
    def busy(self) -> bool:
        return bool(self.given or self.waiting and self.idle)

    def shutdown(self) -> None:
        """End the workers (each at the end of its job pipe) and wait for them."""
        for fd in (*self.jobs, *self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        for pid in self.pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.pids, self.jobs, self.answers = [], [], []


def _serve(jobs: int, answers: int, work: Callable[[list[str]], _Digests]) -> None:
    """A worker process: digest each job's files and answer, until the job pipe ends; then leave at once
    (as a forked process must: no exit handler of its parent's runs twice)."""
    import pickle

    code = 0
    try:
        while (job := _received_bytes(jobs)) is not None:
            paths = job.decode("utf-8", "surrogateescape").split("\0")
            try:  # (with what the store is to keep of them: the main process writes it)
                kept = current_store()
                answer: object = (work(paths), kept.take() if kept is not None else [])
            except BaseException as bug:  # (a bug: raised again in the main process)
                answer = bug
            try:
                data = pickle.dumps(answer)
            except Exception as unpicklable:
                data = pickle.dumps(RuntimeError(f"a digest worker's answer cannot be sent: {unpicklable!r}"))
            _send(answers, data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _send(fd: int, data: bytes) -> None:
    """Write one message: its length in 8 bytes, then the bytes (all of them: a pipe takes them in parts)."""
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view) :]


def _received_bytes(fd: int) -> bytes | None:
    """One message from ``fd``, or None at the pipe's end."""
    head = _exactly(fd, 8)
    if head is None:
        return None
    body = _exactly(fd, int.from_bytes(head, "little"))
    return body


def _exactly(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n:
        part = os.read(fd, min(n, 1 << 20))
        if not part:
            return None
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def _received(fd: int) -> object:
    """One answer from a worker, unpickled; None when it died before answering."""
    import pickle

    data = _received_bytes(fd)
    return None if data is None else pickle.loads(data)


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


class Digester:
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

    def __init__(self, cache: SourceCache, say: Callable[[str], None] | None = None) -> None:
        self.cache, self.say = cache, say
        self.seen: set[str] = set()
        self.small: list[str] = []  # not yet sent to a worker
        self.workers = usable_cores()
        self.processes: _Forked | None = None
        self.threads: _Threads | None = None
        self.done: queue.SimpleQueue[object] = queue.SimpleQueue()  # what each thread's job gave, as it ends
        self.thread_jobs = 0  # sent to threads
        self.files = 0  # in the jobs sent
        self.hashed = 0  # digests recorded
        self.keeps = False  # some file is large enough for the store to keep its digest (textfrag.source.store)

    def add(self, path: str) -> None:
        """Queue a quoted file for digesting (each path once)."""
        if path in self.seen or self.workers < 2 or path.startswith("//"):
            return  # (a declared source's file is read from git's objects, here, when first asked for)
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
        if len(self.small) >= (self.JOB_FILES if self.files else self.START_FILES):
            for i in range(0, len(self.small), self.JOB_FILES):
                self._send(self.small[i : i + self.JOB_FILES], threads=False)
            self.small = []

    def _send(self, paths: list[str], *, threads: bool) -> None:
        c = self.cache
        work = partial(digest_batch, str(c.root), c.charset, c.max_size)
        if not threads and self.threads is None and self.processes is None:
            self.processes = _process_pool(self.workers, work)
        if threads or self.processes is None:
            if self.threads is None:
                self.threads = _Threads(self.workers, self.done)
            self.threads.submit(partial(work, paths))
            self.thread_jobs += 1
        else:
            self.processes.submit(paths)
            self._record(self.processes.answered(wait=False))
        self.files += len(paths)

    def _record(self, answers: list[_Digests]) -> None:
        for digests in answers:
            for path, entry in digests:
                self.cache.add_digest(path, entry)
            self.hashed += len(digests)
            if self.say is not None:
                self.say(f"hashed {self.hashed}/{self.files} files")

    def finish(self) -> None:
        """Wait for the workers and record every digest in the cache (the rest are digested on first use)."""
        if (self.processes is not None or self.threads is not None) and self.small:
            self._send(self.small, threads=self.threads is not None)
            self.small = []
        kept = current_store()
        if self.keeps and kept is not None:
            kept.ready()  # (while the workers hash: the digests they find are kept at the end)
        try:
            while self.processes is not None and self.processes.busy:
                self._record(self.processes.answered(wait=True))
            for _ in range(self.thread_jobs):
                result = self.done.get()
                if isinstance(result, BaseException):
                    raise result
                self._record([cast("_Digests", result)])
        finally:
            for pool in (self.threads, self.processes):
                if pool is not None:
                    pool.shutdown()
