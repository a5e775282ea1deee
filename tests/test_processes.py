"""The tests' Sphinx and MkDocs builds and textfrag runs (tests/processes.py), forked from a process that
imported the engines or the command line, answer as ``python -m sphinx``, ``python -m mkdocs`` and ``python
-m textfrag`` do: the same exit status and the same words, in the test's folder and environment, with its
standard input and its memory limit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .processes import _run, attached, run_mkdocs, run_sphinx, run_textfrag, serve_attached


def test_a_forked_build_answers_as_python_m_sphinx_does(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "docs" / "conf.py").write_text(
        "import os\nextensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nproject = os.environ['PROJECT_NAME']\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "index.rst").write_text(
        "T\n=\n\n.. txtfrag:: src/a.txt#line=0,1\n\n.. txtfrag:: src/gone.txt#line=0,1\n", encoding="utf-8"
    )
    env = dict(os.environ, PROJECT_NAME="Forked")
    args = ["-E", "-q", "--no-color", "-b", "html", "docs"]
    forked = run_sphinx(*args, "out-forked", cwd=tmp_path, env=env)
    spawned = subprocess.run(
        [sys.executable, "-m", "sphinx", *args, "out-spawned"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert forked.returncode == spawned.returncode == 1
    assert "no such file: src/gone.txt" in forked.stderr
    assert forked.stderr.replace("out-forked", "out-spawned") == spawned.stderr
    assert (forked.stdout, forked.args[1:]) == (spawned.stdout, ["-m", "sphinx", *args, "out-forked"])
    assert "Forked" in (tmp_path / "out-forked" / "index.html").read_text(encoding="utf-8")
    assert (
        run_sphinx("--version").stdout
        == subprocess.run([sys.executable, "-m", "sphinx", "--version"], capture_output=True, text=True).stdout
    )


def test_a_forked_mkdocs_build_answers_as_python_m_mkdocs_does(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: !ENV SITE_NAME\nplugins:\n  - textfrag\n", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/a.txt#line=0,1)\n\n![](txtfrag:src/gone.txt#line=0,1)\n", encoding="utf-8"
    )
    env = dict(os.environ, SITE_NAME="Forked", NO_MKDOCS_2_WARNING="1")
    forked = run_mkdocs("build", "-d", "out-forked", cwd=tmp_path, env=env)
    spawned = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", "out-spawned"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert forked.returncode == spawned.returncode == 1
    assert "no such file: src/gone.txt" in forked.stderr

    def timeless(text: str) -> str:  # (MkDocs says how long the build took)
        return re.sub(r"in [0-9.]+ seconds", "in N seconds", text).replace("out-forked", "out-spawned")

    assert timeless(forked.stderr) == timeless(spawned.stderr) and forked.stdout == spawned.stdout
    assert "Forked" in (tmp_path / "out-forked" / "index.html").read_text(encoding="utf-8")


def test_a_forked_build_past_its_time_is_ended_as_subprocess_ends_it(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    with pytest.raises(subprocess.TimeoutExpired):
        run_sphinx("-b", "html", str(tmp_path), str(tmp_path / "out"), timeout=0.5)
    assert run_sphinx("--version").returncode == 0  # (the next build is served)


def test_an_environment_python_reads_as_it_starts_gets_a_new_process(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.stderr.write('started afresh\\n')\n", encoding="utf-8")
    started = run_sphinx("--version", env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert started.returncode == 0 and started.stderr == "started afresh\n"
    assert run_sphinx("--version").stderr == ""


def _textfrag_project(root: Path) -> None:
    (root / "docs").mkdir()
    (root / "src").mkdir()
    (root / "src" / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    (root / "docs" / "index.md").write_text(
        "# T\n\n![](txtfrag:src/a.txt#line=0,1)\n\n![](txtfrag:src/gone.txt#line=0,1)\n", encoding="utf-8"
    )


@pytest.mark.parametrize("text", [True, False], ids=["text", "bytes"])
def test_a_forked_textfrag_run_answers_as_python_m_textfrag_does(tmp_path: Path, text: bool) -> None:
    _textfrag_project(tmp_path)
    env = dict(os.environ, COLUMNS="61", GITHUB_ACTIONS="true")  # (the environment, read as it runs)
    args = ["check", "--root", ".", "docs"]
    forked = run_textfrag(*args, cwd=tmp_path, env=env, text=text)
    spawned = subprocess.run([sys.executable, "-m", "textfrag", *args], cwd=tmp_path, env=env, capture_output=True, text=text)
    assert forked.returncode == spawned.returncode == 2  # (a file that is not there)
    assert (forked.stdout, forked.stderr) == (spawned.stdout, spawned.stderr)
    assert forked.args == [sys.executable, "-m", "textfrag", *args]
    assert ("::error" in forked.stdout + forked.stderr) if text else (b"::error" in forked.stdout + forked.stderr)
    with pytest.raises(subprocess.CalledProcessError):
        run_textfrag(*args, cwd=tmp_path, check=True)


def test_a_forked_run_reads_its_standard_input_and_keeps_its_memory_limit(tmp_path: Path) -> None:
    # (two modules of the standard library that python -m runs: one reads its standard input, one allocates)
    given = '{"quoted": [1, 2]}'
    forked = _run("textfrag", "json.tool", (), cwd=tmp_path, env=None, timeout=60, input=given)
    spawned = subprocess.run([sys.executable, "-m", "json.tool"], input=given, capture_output=True, text=True)
    assert (
        (forked.returncode, forked.stdout)
        == (spawned.returncode, spawned.stdout)
        == (0, '{\n    "quoted": [\n        1,\n        2\n    ]\n}\n')
    )
    two_gib = ("-n", "1", "-r", "1", "bytes(2 ** 31)")  # (calloc: pages never touched)
    assert _run("textfrag", "timeit", two_gib, cwd=tmp_path, env=None, timeout=60).returncode == 0
    starved = _run("textfrag", "timeit", two_gib, cwd=tmp_path, env=None, timeout=60, memory=1024**3)
    assert starved.returncode == 1 and "MemoryError" in starved.stderr


def test_an_encoding_python_reads_as_it_starts_gets_a_new_textfrag_process(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("caf\u00e9\n", encoding="utf-8")
    r = run_textfrag("show", "--root", str(tmp_path), "a.txt#line=0,1", env=dict(os.environ, PYTHONIOENCODING="ascii"))
    spawned = subprocess.run(
        [sys.executable, "-m", "textfrag", "show", "--root", str(tmp_path), "a.txt#line=0,1"],
        env=dict(os.environ, PYTHONIOENCODING="ascii"),
        capture_output=True,
        text=True,
    )
    assert (r.returncode, r.stdout, r.stderr) == (spawned.returncode, spawned.stdout, spawned.stderr)


def test_a_command_for_a_client_hands_its_streams_to_a_forked_run_and_ends_with_its_status(tmp_path: Path) -> None:
    serve_attached()
    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    for args, status in ((["show", "a.txt#line=1,2"], 0), (["show", "gone.txt#line=1,2"], 2), (["--version"], 0)):
        spawned = subprocess.run([sys.executable, "-m", "textfrag", *args], cwd=tmp_path, capture_output=True, text=True)
        forked = subprocess.run(attached(*args), cwd=tmp_path, capture_output=True, text=True, input="")
        assert (forked.returncode, forked.stdout, forked.stderr) == (spawned.returncode, spawned.stdout, spawned.stderr)
        assert forked.returncode == status
    # where nothing listens, the command is python -m textfrag itself
    alone = [*attached("--version")]
    alone[3] = str(tmp_path / "nobody.sock")
    assert subprocess.run(alone, capture_output=True, text=True).stdout == spawned.stdout


def test_a_command_that_ends_before_it_asks_leaves_the_forked_from_process_serving() -> None:
    import socket

    serve_attached()
    path = attached("--version")[3]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as half:
        half.connect(path)
        half.sendall(b'{"module": "textf')  # (no descriptors, no end of line: then gone)
    version = subprocess.run([sys.executable, "-m", "textfrag", "--version"], capture_output=True, text=True).stdout
    assert subprocess.run(attached("--version"), capture_output=True, text=True, timeout=60).stdout == version
