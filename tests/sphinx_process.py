"""Sphinx builds for the tests, each in a process of its own, forked from one that has imported Sphinx.

``python -m sphinx`` spends about half of a small build starting Python and importing Sphinx, docutils and
the extension (0.8 s for a one-page site, 0.45 s of it before the build starts); the suite makes about 130
such builds. Each worker of the suite starts one process that imports them once (run as this file) and
forks it for every build: each build is still a process of its own, running Sphinx's own command line
(``sphinx.cmd.build.main``, what ``python -m sphinx`` runs) with the test's arguments, working folder and
environment, from a state no other build touched. :func:`run_sphinx` answers as ``subprocess.run(...,
capture_output=True, text=True)`` does. Where processes do not fork, it is ``python -m sphinx``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

_LOCK = threading.Lock()
_SERVER: subprocess.Popen[str] | None = None


def run_sphinx(
    *args: str, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx ARGS`` in ``cwd`` with ``env`` (default: this process's), its output captured."""
    command = [sys.executable, "-m", "sphinx", *map(str, args)]
    if not hasattr(os, "fork"):
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    with _LOCK, tempfile.TemporaryDirectory(prefix="sphinx-build-") as folder:
        out, err = Path(folder, "stdout"), Path(folder, "stderr")
        request = {
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
            [sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"
        )
    assert _SERVER.stdin is not None and _SERVER.stdout is not None
    _SERVER.stdin.write(json.dumps(request) + "\n")
    _SERVER.stdin.flush()
    line = _SERVER.stdout.readline()
    if not line:
        raise RuntimeError(f"the process that forks Sphinx builds ended (status {_SERVER.wait()})")
    answer: dict[str, object] = json.loads(line)
    return answer


def _build(request: dict[str, object]) -> None:
    """In the forked child: become ``python -m sphinx`` with the request's arguments, folder and
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
        from importlib.util import find_spec

        from sphinx.cmd.build import main

        sys.argv = [str(find_spec("sphinx.__main__").origin), *request["argv"]]  # type: ignore[misc, union-attr]

        status = main(list(request["argv"]))  # type: ignore[call-overload]
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
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
    """Import Sphinx and what every build loads, then fork a build for each request read from standard
    input, and answer each with its exit status (one JSON line each way)."""
    import docutils.parsers.rst  # noqa: F401
    import sphinx.application  # noqa: F401
    import sphinx.builders.html  # noqa: F401
    import sphinx.cmd.build  # noqa: F401

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
        del sys.path[0]  # (run as a file: tests/ is not where Sphinx is imported from; tests/sphinx would be)
    _serve()
