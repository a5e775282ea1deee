"""Sphinx and MkDocs builds for the tests, each in a process of its own, forked from one that has imported
the engines.

``python -m sphinx`` spends about half of a small build starting Python and importing Sphinx, docutils and
the extension (0.8 s for a one-page site, 0.45 s of it before the build starts); ``python -m mkdocs``
about a third. The suite makes about 130 Sphinx builds and 60 MkDocs builds. Each worker of the suite
starts one process that imports the engines and the plugins once (this file, run as a script) and forks
it for every build: each build is still a process of its own, running the engine's ``__main__`` module as
``python -m`` does (``runpy``), with the test's arguments, working folder and environment, from a state
no other build touched. :func:`run_sphinx` and :func:`run_mkdocs` answer as ``subprocess.run(...,
capture_output=True, text=True)`` does. Where processes do not fork, or the environment changes what
Python reads as it starts (``PYTHONPATH``: a ``sitecustomize`` a test plants), they are ``python -m`` itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

_LOCK = threading.Lock()
_SERVER: subprocess.Popen[str] | None = None
#: the environment the forked-from process starts with (this process's, when first imported)
_STARTED_WITH = dict(os.environ)


def _startup(env: Mapping[str, str]) -> dict[str, str]:
    """What of ``env`` Python reads as it starts (``PYTHONPATH``, ``PYTHONHASHSEED``, ...)."""
    return {k: v for k, v in env.items() if k.startswith("PYTHON")}


def run_sphinx(
    *args: str, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx ARGS`` in ``cwd`` with ``env`` (default: this process's), its output captured."""
    return _run("sphinx", args, cwd, env, timeout)


def run_mkdocs(
    *args: str, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m mkdocs ARGS`` in ``cwd`` with ``env`` (default: this process's), its output captured."""
    return _run("mkdocs", args, cwd, env, timeout)


def _run(
    module: str, args: tuple[str, ...], cwd: str | os.PathLike[str] | None, env: dict[str, str] | None, timeout: float | None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", module, *map(str, args)]
    if not hasattr(os, "fork") or _startup(os.environ if env is None else env) != _startup(_STARTED_WITH):
        # (what Python reads as it starts, PYTHONPATH and its kind, differs from the forked process's: a new one)
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    with _LOCK, tempfile.TemporaryDirectory(prefix=f"{module}-build-") as folder:
        out, err = Path(folder, "stdout"), Path(folder, "stderr")
        request = {
            "module": module,
            "argv": command[3:],
            "cwd": os.fspath(cwd) if cwd is not None else os.getcwd(),
            "env": dict(os.environ if env is None else env),
            "out": str(out),
            "err": str(err),
            "timeout": timeout,
        }
        answer = _ask(request)
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(command, timeout or 0.0)
        return subprocess.CompletedProcess(
            command, int(answer["rc"]), out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")
        )


def _ask(request: dict[str, object]) -> dict[str, object]:
    global _SERVER
    if _SERVER is None or _SERVER.poll() is not None:
        _SERVER = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=_STARTED_WITH,
        )
    assert _SERVER.stdin is not None and _SERVER.stdout is not None
    _SERVER.stdin.write(json.dumps(request) + "\n")
    _SERVER.stdin.flush()
    line = _SERVER.stdout.readline()
    if not line:
        raise RuntimeError(f"the process that forks the engines' builds ended (status {_SERVER.wait()})")
    answer: dict[str, object] = json.loads(line)
    return answer


def _build(request: dict[str, object]) -> None:
    """In the forked child: become ``python -m MODULE`` with the request's arguments, folder and
    environment, its output in the request's files; exit with its status."""
    status = 1
    try:
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(request["env"])  # type: ignore[arg-type]
        for fd, name, flags in ((0, os.devnull, os.O_RDONLY), (1, request["out"], os.O_WRONLY), (2, request["err"], os.O_WRONLY)):
            opened = os.open(str(name), flags | (os.O_CREAT | os.O_TRUNC if fd else 0), 0o600)
            os.dup2(opened, fd)
            os.close(opened)
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


def _serve() -> None:
    """Import the engines and what their builds load, then fork a build for each request read from
    standard input, and answer each with its exit status (one JSON line each way)."""
    import docutils.parsers.rst  # noqa: F401
    import markdown  # noqa: F401
    import mkdocs.commands.build  # noqa: F401  (never an engine's __main__: runpy runs it afresh)
    import sphinx.application  # noqa: F401
    import sphinx.builders.html  # noqa: F401
    import sphinx.cmd.build  # noqa: F401

    import mkdocs_textfrag  # noqa: F401
    import sphinx_textfrag  # noqa: F401

    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        answers.flush()
        pid = os.fork()
        if pid == 0:
            _build(request)
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
    _serve()
