"""The engines' builds, textfrag's command line and its language server for the tests, each in a process of
its own, forked from one that has imported them.

``python -m sphinx`` spends about half of a small build starting Python and importing Sphinx, docutils and
the extension (0.8 s for a one-page site, 0.45 s of it before the build starts); ``python -m mkdocs``
about a third; ``python -m textfrag`` about 60 ms of its 80 ms on a small project; ``textfrag lsp`` about
0.4 s importing pygls and lsprotocol. The suite makes about 130 Sphinx builds, 60 MkDocs builds, 550 runs
of the command line and 25 language servers. Each worker of the suite starts, when first asked, one
process that imports the engines and the plugins, one that imports the command line only (so that a run
under a memory limit starts from what ``python -m textfrag`` has), and one that imports the language
server (this file, run as a script), and forks one of them for every run: each run is still a process of
its own, running the ``__main__`` module as ``python -m`` does (``runpy``), with the test's arguments,
working folder, environment and standard input, from a state no other run touched. :func:`run_sphinx`,
:func:`run_mkdocs` and :func:`run_textfrag` answer as ``subprocess.run(..., capture_output=True)`` does;
:func:`attached` is a command for a client that starts its server itself. Where processes do not fork, or
the environment changes what Python reads as it starts (``PYTHONPATH``: a ``sitecustomize`` a test plants;
``PYTHONIOENCODING``), they are ``python -m`` itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()
#: the process forked from, for each kind of run ("engines", "textfrag", "lsp")
_SERVERS: dict[str, subprocess.Popen[str]] = {}
#: the environment the forked-from processes start with (this process's, when first imported)
_STARTED_WITH = dict(os.environ)
#: what each kind of forked-from process imports once: what its runs would otherwise import each time
_IMPORTS = {
    "engines": (
        "docutils.parsers.rst",
        "markdown",
        "mkdocs.commands.build",  # (never an engine's __main__: runpy runs it afresh)
        "sphinx.application",
        "sphinx.builders.html",
        "sphinx.cmd.build",
        "mkdocs_textfrag",
        "sphinx_textfrag",
    ),
    "textfrag": ("textfrag.cli", "textfrag.project.discovery"),
    "lsp": ("textfrag.cli", "lsp_textfrag.server"),
}


def _startup(env: Mapping[str, str]) -> dict[str, str]:
    """What of ``env`` Python reads as it starts (``PYTHONPATH``, ``PYTHONHASHSEED``, ``PYTHONIOENCODING``, ...)."""
    return {k: v for k, v in env.items() if k.startswith("PYTHON")}


def run_sphinx(
    *args: str,
    cwd: str | os.PathLike[str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    memory: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx ARGS`` in ``cwd`` with ``env`` (default: this process's), its output captured, under
    ``memory`` bytes of address space when given."""
    return _run("engines", "sphinx", args, cwd=cwd, env=env, timeout=timeout, memory=memory)


def run_mkdocs(
    *args: str, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m mkdocs ARGS`` in ``cwd`` with ``env`` (default: this process's), its output captured."""
    return _run("engines", "mkdocs", args, cwd=cwd, env=env, timeout=timeout)


def run_textfrag(
    *args: str | os.PathLike[str],
    cwd: str | os.PathLike[str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    input: str | bytes | None = None,
    text: bool = True,
    memory: int | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[Any]:
    """``python -m textfrag ARGS`` in ``cwd`` with ``env`` (default: this process's), ``input`` on its standard
    input, its output captured (text, or bytes with ``text=False``), under ``memory`` bytes of address space
    when given; ``check`` raises :class:`subprocess.CalledProcessError` for a status other than 0."""
    done = _run("textfrag", "textfrag", args, cwd=cwd, env=env, timeout=timeout, input=input, text=text, memory=memory)
    if check:
        done.check_returncode()
    return done


def attached(*args: str) -> list[str]:
    """The command that runs ``python -m textfrag ARGS`` as a process forked from one that imported the
    language server, for a client that starts the server itself with this command (pytest-lsp): the
    command is a small process that hands its standard streams, folder and environment to the forked
    process and ends with its status. Call :func:`serve_attached` in this process before the client starts
    it; without that it starts ``python -m textfrag ARGS`` itself."""
    return [sys.executable, __file__, "attach", _socket(), *args]


def serve_attached() -> None:
    """Start, once, the process the commands of :func:`attached` are forked from."""
    with _LOCK:
        server = _SERVERS.get("lsp")
        if server is not None and server.poll() is None:
            return
        server = _SERVERS["lsp"] = subprocess.Popen(
            [sys.executable, __file__, "listen", _socket()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=_STARTED_WITH,
        )
        assert server.stdout is not None
        if server.stdout.readline() != "listening\n":
            raise RuntimeError(f"the process that forks the tests' language servers ended (status {server.wait()})")


def _socket() -> str:
    """Where this process's forked-from language server listens (a Unix socket of this worker's)."""
    return os.path.join(tempfile.gettempdir(), f"textfrag-tests-{os.getpid()}-lsp.sock")


def _attach(path: str, args: list[str]) -> None:
    """The command of :func:`attached`: hand this process's standard streams, folder and environment to the
    process listening at ``path``, wait for the forked run to end, and end with its status."""
    import socket

    command = [sys.executable, "-m", "textfrag", *args]
    try:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
    except OSError:  # (nobody listens: the run is a process of its own)
        os.execv(sys.executable, command)
    request = {"module": "textfrag", "argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(connection, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
    answer = b""
    while not answer.endswith(b"\n"):
        got = connection.recv(4096)
        if not got:
            sys.exit(1)
        answer += got
    sys.exit(int(json.loads(answer)["rc"]) & 0xFF)


def _listen(path: str) -> None:
    """Import what a language server loads, then, for each command of :func:`attached` that connects to
    ``path``, fork the run on that command's standard streams, and tell the command its status when it
    ends; end when standard input does (the worker that started this process ended)."""
    import select
    import signal
    import socket

    _preload("lsp")
    if os.path.exists(path):
        os.unlink(path)
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(path)
    listening.listen(8)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (the watchers below are not waited for)
    sys.stdout.write("listening\n")
    sys.stdout.flush()
    try:
        while True:
            ready = select.select([listening, sys.stdin], [], [])[0]
            if sys.stdin in ready and not sys.stdin.readline():
                return
            if listening not in ready:
                continue
            connection, _ = listening.accept()
            message, streams, _, _ = socket.recv_fds(connection, 1 << 20, 3)
            while message and not message.endswith(b"\n"):
                more = connection.recv(1 << 20)
                if not more:  # (a command that ended half-way: dropped)
                    break
                message += more
            if len(streams) != 3 or not message.endswith(b"\n"):
                connection.close()
                for fd in streams:
                    os.close(fd)
                continue
            if os.fork() == 0:  # a watcher: forks the run, waits for it, and tells the command its status
                listening.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                pid = os.fork()
                if pid == 0:
                    connection.close()
                    _child(json.loads(message), streams)
                for fd in streams:
                    os.close(fd)
                status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                connection.sendall(json.dumps({"rc": status}).encode() + b"\n")
                os._exit(0)
            connection.close()
            for fd in streams:
                os.close(fd)
    finally:
        listening.close()
        os.unlink(path)


def _run(
    kind: str,
    module: str,
    args: tuple[str | os.PathLike[str], ...],
    *,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
    timeout: float | None,
    input: str | bytes | None = None,
    text: bool = True,
    memory: int | None = None,
) -> subprocess.CompletedProcess[Any]:
    command = [sys.executable, "-m", module, *map(os.fspath, args)]
    data = input.encode("utf-8") if isinstance(input, str) else input
    if not hasattr(os, "fork") or _startup(os.environ if env is None else env) != _startup(_STARTED_WITH):
        # (what Python reads as it starts, PYTHONPATH and its kind, differs from the forked process's: a new one)
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            input=input if text else data,
            capture_output=True,
            text=text,
            timeout=timeout,
            preexec_fn=_limit(memory),
        )
    with _LOCK, tempfile.TemporaryDirectory(prefix=f"{module}-run-") as folder:
        out, err, given = Path(folder, "stdout"), Path(folder, "stderr"), Path(folder, "stdin")
        if data is not None:
            given.write_bytes(data)
        request = {
            "module": module,
            "argv": command[3:],
            "cwd": os.fspath(cwd) if cwd is not None else os.getcwd(),
            "env": dict(os.environ if env is None else env),
            "in": str(given) if data is not None else os.devnull,
            "out": str(out),
            "err": str(err),
            "timeout": timeout,
            "memory": memory,
        }
        answer = _ask(kind, request)
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(command, timeout or 0.0)
        if text:
            return subprocess.CompletedProcess(
                command, int(answer["rc"]), out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")
            )
        return subprocess.CompletedProcess(command, int(answer["rc"]), out.read_bytes(), err.read_bytes())


def _limit(memory: int | None) -> Callable[[], None] | None:
    """What a new process runs before Python starts: ``memory`` bytes of address space at most."""
    if memory is None:
        return None

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return limit


def _ask(kind: str, request: dict[str, object]) -> dict[str, object]:
    server = _SERVERS.get(kind)
    if server is None or server.poll() is not None:
        server = _SERVERS[kind] = subprocess.Popen(
            [sys.executable, __file__, kind],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=_STARTED_WITH,
        )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    line = server.stdout.readline()
    if not line:
        raise RuntimeError(f"the process that forks the tests' {kind} runs ended (status {server.wait()})")
    answer: dict[str, object] = json.loads(line)
    return answer


def _child(request: dict[str, object], streams: list[int] | None = None) -> None:
    """In the forked child: become ``python -m MODULE`` with the request's arguments, folder, environment,
    standard input and memory limit, its output in the request's files (or on the standard streams
    ``streams``, three file descriptors); exit with its status."""
    status = 1
    try:
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(request["env"])  # type: ignore[arg-type]
        if streams is None:
            modes = ((request["in"], os.O_RDONLY), (request["out"], os.O_WRONLY), (request["err"], os.O_WRONLY))
            streams = [
                os.open(str(name), flags | (os.O_CREAT | os.O_TRUNC if fd else 0), 0o600)
                for fd, (name, flags) in enumerate(modes)
            ]
        for fd, opened in enumerate(streams):
            os.dup2(opened, fd)
            os.close(opened)
        if request.get("memory"):
            _limit(int(request["memory"]))()  # type: ignore[call-overload, misc]
        import runpy

        sys.argv = [str(request["module"]), *request["argv"]]  # type: ignore[misc]  # (runpy sets argv[0] to the file)
        runpy.run_module(str(request["module"]), run_name="__main__", alter_sys=True)
        status = 0
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            print(done.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(status & 0xFF)


def _preload(kind: str) -> None:
    """Import what ``kind`` of run loads, once, in the process its runs are forked from."""
    import importlib

    for name in _IMPORTS[kind]:
        importlib.import_module(name)


def _serve(kind: str) -> None:
    """Import what ``kind`` of run loads, then fork a run for each request read from standard input, and
    answer each with its exit status (one JSON line each way)."""
    _preload(kind)
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        answers.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        status = _waited(pid, request["timeout"])
        if status is None:  # (past its time: ended as subprocess.run ends it)
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            answer: dict[str, object] = {"timeout": True}
        else:
            answer = {"rc": os.waitstatus_to_exitcode(status)}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _waited(pid: int, timeout: float | None) -> int | None:
    """The wait status of the child ``pid``, or None when it has not ended within ``timeout`` seconds (None:
    no limit); its end is told by its process file descriptor where Linux gives one, else by looking every
    few milliseconds."""
    import select
    import time

    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = -1
    if fd >= 0:
        try:
            if not select.select([fd], [], [], timeout)[0]:
                return None
        finally:
            os.close(fd)
        return os.waitpid(pid, 0)[1]
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if deadline is not None and time.monotonic() > deadline:
            return None
        time.sleep(0.002)


if __name__ == "__main__":
    if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
        del sys.path[0]  # (run as a file: tests/ is not where the engines are imported from; tests/sphinx would be)
    if sys.argv[1] == "attach":
        _attach(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "listen":
        _listen(sys.argv[2])
    else:
        _serve(sys.argv[1])
