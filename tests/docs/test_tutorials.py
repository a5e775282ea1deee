"""The manual's tutorials run as typed: every ``console`` block of a tutorial page is a shell session
(``$ command``, then what it prints), run in order by one shell, in a fresh home folder with a fresh
virtual environment and git, from a copy of this repository as a reader has it; what each command prints
is compared with what the page shows, only paths, hashes and commit ids normalised.

Sybil reads the pages (its reStructuredText code-block lexer, with this evaluator for ``console``
blocks): the pages stay ordinary pages of the manual, rendered as they are tested, and a failure names
the page and the line of the block. prysk (cram) was the other choice; it wants the page in its own
format, with every indented line taken for output, which a reStructuredText page cannot be.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ..conftest import REPO

sybil = pytest.importorskip("sybil")
from sybil.parsers.rest import CodeBlockParser  # noqa: E402

TUTORIALS = sorted((REPO / "docs" / "tutorial").glob("*.rst"))
_DONE = "__textfrag_tutorial_done__"
#: what is not the product's to say: the machine's pip configuration
_NOISE = re.compile(r"^WARNING: Location '[^']*' is ignored: it is neither a file nor a directory\.$")


class Shell:
    """One bash, kept for a whole page (``cd``, ``source .venv/bin/activate`` and variables last), its
    standard error with its standard output, as a terminal shows them."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def run(self, command: str) -> tuple[str, int]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{command}\nprintf '\\n{_DONE} %s\\n' $?\n")
        self.process.stdin.flush()
        lines = []
        for line in self.process.stdout:
            if line.startswith(_DONE):
                output = "".join(lines)
                return output[:-1] if output.endswith("\n") else output, int(line.split()[1])
            lines.append(line)
        raise AssertionError(f"the shell ended while running {command!r}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def commands(block: str) -> list[tuple[str, list[str]]]:
    """A console block's commands (a here-document and ``\\`` continuations joined to theirs) and the
    lines each is shown to print."""
    out: list[tuple[str, list[str]]] = []
    lines = block.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if not line.startswith("$ "):
            if out:
                out[-1][1].append(line)
            continue
        command = [line[2:]]
        while command[-1].endswith("\\") and k < len(lines):
            command.append(lines[k])
            k += 1
        heredoc = re.search(r"<<\s*'?(\w+)'?\s*$", command[-1])
        if heredoc:
            while k < len(lines):
                command.append(lines[k])
                k += 1
                if lines[k - 1] == heredoc.group(1):
                    break
        out.append(("\n".join(command), []))
    return out


def normalised(text: str, home: str) -> str:
    """Output with what differs from machine to machine made the same: the home folder, md5 values,
    commit ids, trailing blanks and the machine's pip noise."""
    text = text.replace(home, "~")
    text = re.sub(r"\b[0-9a-f]{32}\b", "<md5>", text)
    text = re.sub(r"\b[0-9a-f]{10}\b", "<commit>", text)
    kept = [line.rstrip() for line in text.splitlines() if not _NOISE.match(line)]
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept)


def evaluate(example: Any) -> str | None:
    """Run a console block's commands in the page's shell; say what differs."""
    shell: Shell = example.namespace["shell"]
    home: str = example.namespace["home"]
    for command, shown in commands(example.parsed):
        printed, status = shell.run(command)
        if status == 127:
            return f"{command!r}: command not found\n{printed}"
        expected = normalised("\n".join(shown), home)
        got = normalised(printed, home)
        if got != expected:
            return f"line {example.line}: {command!r} printed:\n{got}\n\nthe page shows:\n{expected}"
    return None


def _reader_copy(target: Path) -> None:
    """The repository as a reader has it: its files, as they are in this work tree (what git ignores left out)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


@pytest.mark.parametrize("page", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_the_tutorial_runs_as_typed(page: Path, tmp_path: Path) -> None:
    if not (REPO / ".git").exists():
        pytest.skip("the tutorials start from a clone of the repository")
    home = tmp_path / "home"
    clone = home / "textfrag"
    clone.mkdir(parents=True)
    _reader_copy(clone)
    env = {
        "HOME": str(home),
        "PATH": os.environ["PATH"],
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "GIT_AUTHOR_NAME": "A Writer",
        "GIT_AUTHOR_EMAIL": "writer@example.org",
        "GIT_COMMITTER_NAME": "A Writer",
        "GIT_COMMITTER_EMAIL": "writer@example.org",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE", "UV_INDEX_URL", "XDG_CACHE_HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.setdefault("XDG_CACHE_HOME", str(Path.home() / ".cache"))  # (pip's cache: the machine's, as a reader's is)
    # (the reader's PATH holds no virtual environment of ours)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if not p.startswith(str(REPO)) and "/.venv/" not in p)
    shell = Shell(clone, env)
    try:
        document = sybil.Sybil(parsers=[CodeBlockParser(language="console", evaluator=evaluate)]).parse(page)
        examples = list(document)
        assert examples, f"{page.name} has no console block"
        for example in examples:
            example.namespace.update(shell=shell, home=str(home))
            example.evaluate()
    finally:
        shell.close()
