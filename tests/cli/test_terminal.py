"""What a person at a terminal sees, and a pipe never does: colour (honouring NO_COLOR and FORCE_COLOR)
and a progress line on long runs, erased before the report. Colour is tested in a real process whose
standard error is a pseudo-terminal."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import new_project
from ..processes import run_textfrag

ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
APP = "".join(f"line {i}\n" for i in range(1, 11))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/app.txt#line=0,1;md5=" + "0" * 32 + ")\n\n![](txtfrag:src/nope.txt)\n", encoding="utf-8"
    )
    return root


def on_a_terminal(project: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``textfrag check`` with standard error on a pseudo-terminal; (exit code, stdout, stderr)."""
    leader, follower = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    environ.update({"TERM": "xterm", **env})
    proc = subprocess.Popen(
        [sys.executable, "-m", "textfrag", "check", "--root", ".", "docs"],
        cwd=project,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=follower,
        stdin=subprocess.DEVNULL,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    out, _ = proc.communicate(timeout=60)
    os.close(leader)
    return proc.returncode, out.decode(), b"".join(chunks).decode().replace("\r\n", "\n")


def test_problems_are_coloured_on_a_terminal_with_the_same_words(project: Path) -> None:
    code, _, err = on_a_terminal(project, {})
    assert code == 2
    assert "\x1b[1mdocs/index.md:3\x1b[0m" in err  # the place in bold
    assert "\x1b[33m" in err and "\x1b[31m" in err  # stale in yellow, broken in red
    piped = run_textfrag("check", "--root", ".", "docs", cwd=project)
    assert "\x1b[" not in piped.stderr + piped.stdout  # a pipe gets no colour
    shown = ESCAPE.sub("", err)
    # a person reads the verdict first, the place and the reference beside it, the details wrapped below
    assert "docs/index.md:3: stale: txtfrag:src/app.txt#line=0,1;md5=" in shown
    assert "docs/index.md:5: gone: txtfrag:src/nope.txt\n    no such file: src/nope.txt" in shown
    assert all(len(line) <= 80 for line in shown.splitlines() if line.startswith("    ") and " " in line.strip())
    # with the same words as the pipe's one line (the machine formats' too)
    words = " ".join(shown.split())
    for line in piped.stderr.splitlines():
        if line.startswith("docs/index.md:"):
            where, ref, message = line.split(": ", 2)
            assert all(" ".join(clause.split()) in words for clause in message.split("; ")), line


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_color_and_a_dumb_terminal_get_none(project: Path, env: dict[str, str]) -> None:
    code, _, err = on_a_terminal(project, env)
    assert code == 2 and "stale" in err
    assert "\x1b[" not in err


def test_force_color_colours_a_pipe_and_an_empty_no_color_is_unset(project: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    r = run_textfrag("check", "--root", ".", "docs", cwd=project, env={**environ, "FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[1mdocs/index.md:3\x1b[0m" in r.stderr
    assert r.stdout.startswith("\x1b[31mtextfrag check: 2 references in 1 document")


class Terminal(io.StringIO):
    """Standard error as a terminal, for ``main(argv)``."""

    def isatty(self) -> bool:
        return True


def test_a_long_run_shows_progress_on_a_terminal_and_erases_it(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textfrag.cli import main
    from textfrag.report.terminal import Progress

    monkeypatch.setattr(Progress, "DELAY", 0.0)  # every run is long enough
    monkeypatch.setattr(Progress, "INTERVAL", 0.0)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.chdir(project)
    err, out = Terminal(), io.StringIO()
    assert main(["check", "--root", ".", "docs"], stdout=out, stderr=err) == 2
    shown = err.getvalue()
    assert "\rchecked 1/2 references, 1 history searched\x1b[K" in shown  # the first one is stale
    assert "\rchecked 2/2 references, 1 history searched\x1b[K" in shown
    # the line is erased before the report, which starts at the left margin
    report = shown.rsplit("\r\x1b[K", 1)[1]
    assert report.startswith("\x1b[1mdocs/index.md:3") and "\r" not in report
    assert "\r" not in out.getvalue() and "checked" not in out.getvalue()


@pytest.mark.parametrize("how", ["quiet", "short", "pipe"])
def test_no_progress_when_quiet_on_a_short_run_or_into_a_pipe(project: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    from textfrag.cli import main
    from textfrag.report.terminal import Progress

    if how != "short":
        monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.chdir(project)
    err = io.StringIO() if how == "pipe" else Terminal()
    main(["check", "--root", ".", "docs", *(["--quiet"] if how == "quiet" else [])], stdout=io.StringIO(), stderr=err)
    assert "checked" not in err.getvalue() and "\r" not in err.getvalue()
