"""`textfrag check`: every reference in a docs tree, one line per problem, a summary, exit 0/1/2."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..processes import run_textfrag

TEXT = "".join(f"line {i}\n" for i in range(1, 31))
MD5 = hashlib.md5(TEXT.encode()).hexdigest()

UNPINNED = "; {} unpinned (not protected against drift: `textfrag pin --write` pins them)"


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*argv, cwd=cwd, timeout=60)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.txt").write_text(TEXT)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text(
        f"Intro\n=====\n\n.. txtfrag:: src/app.txt#line=10,20;md5={MD5}\n\nSee :txtfrag:`src/app.txt#char=0,4;length={len(TEXT)}`.\n"
    )
    (docs / "page.md").write_text(
        f"# Page\n\n![cap](txtfrag:src/app.txt#line=0,1;md5={MD5.upper()})\n\n`![no](txtfrag:nothing)`\n"
    )
    (docs / "_build").mkdir()
    (docs / "_build" / "junk.md").write_text("![x](txtfrag:missing)\n")
    return tmp_path


def test_all_current_exits_0_with_a_summary(tree: Path) -> None:
    r = run("check", "docs", cwd=tree)
    assert (r.returncode, r.stderr) == (0, "")
    # (one of them is unpinned: counted, never listed)
    assert r.stdout == f"textfrag check: 3 references in 2 documents: all current{UNPINNED.format(1)}\n"


def test_problems_are_one_line_each_with_file_line_and_reference(tree: Path) -> None:
    (tree / "docs" / "more.md").write_text(
        "# More\n\n"
        "![a](txtfrag:src/app.txt#line=1,2;md5=00000000000000000000000000000000)\n\n"
        "![b](txtfrag:src/app.txt#line=2,1)\n\n"
        "![c](txtfrag:src/gone.txt#line=1)\n\n"
        "![d](txtfrag:src/app.txt#line=3,4;length=5)\n"
    )
    r = run("check", "docs", cwd=tree)
    assert r.returncode == 2  # a bad reference outranks stale ones
    lines = [line for line in r.stderr.splitlines() if line.startswith("docs/")]
    assert lines[0].startswith("docs/more.md:3: txtfrag:src/app.txt#line=1,2;md5=0000")
    assert "stale" in lines[0] and "lines 2-2" not in lines[0] and "line 2" in lines[0]
    assert lines[1].startswith("docs/more.md:5: txtfrag:src/app.txt#line=2,1: the range 2,1 starts after it ends")
    assert lines[2].startswith("docs/more.md:7: txtfrag:src/gone.txt#line=1: no such file: src/gone.txt (under the root ")
    assert lines[3].startswith("docs/more.md:9: txtfrag:src/app.txt#line=3,4;length=5: stale")
    assert r.stdout == f"textfrag check: 7 references in 3 documents: 2 stale, 2 bad{UNPINNED.format(3)}\n"
    assert "Traceback" not in r.stderr


def test_only_stale_exits_1(tree: Path) -> None:
    (tree / "src" / "app.txt").write_text(TEXT + "more\n")
    r = run("check", "docs", cwd=tree)
    assert r.returncode == 1
    assert r.stdout == f"textfrag check: 3 references in 2 documents: 3 stale, 0 bad{UNPINNED.format(1)}\n"
    assert [line.split(":")[0:2] for line in r.stderr.splitlines()] == [
        ["docs/index.rst", "4"],
        ["docs/index.rst", "6"],
        ["docs/page.md", "3"],
    ]


def test_root_option_and_single_files(tree: Path) -> None:
    r = run("check", "--root", str(tree), str(tree / "docs" / "page.md"), cwd=tree / "docs")
    assert r.returncode == 0, r.stderr


def test_each_file_is_read_once(tree: Path, monkeypatch: pytest.MonkeyPatch, read_log: Path) -> None:
    from textfrag.cli import main

    monkeypatch.chdir(tree)
    assert main(["check", "docs"]) == 0
    assert read_log.read_text().splitlines() == ["src/app.txt"]


def test_a_large_tree_is_hashed_in_workers_each_file_once_with_errors_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_log: Path
) -> None:
    from textfrag.cli import main

    src = tmp_path / "src"
    src.mkdir()
    lines = []
    for i in range(300):  # more than Digester.START_FILES small files, so worker processes do the reading
        data = f"file {i}\r\nsecond line\n".encode()
        (src / f"f{i}.txt").write_bytes(data)
        md5 = hashlib.md5(data).hexdigest()
        lines.append(
            f"![a](txtfrag:src/f{i}.txt#line=0,1;length={len(data) - 1};md5={md5})\n\n![b](txtfrag:src/f{i}.txt#char=0,4)\n\n"
        )
    (src / "bad.txt").write_bytes(b"\xff\xfe\xfa")
    lines.append("![c](txtfrag:src/bad.txt#line=1)\n\n![d](txtfrag:src/none.txt)\n")
    (tmp_path / "index.md").write_text("".join(lines))
    monkeypatch.chdir(tmp_path)
    code = main(["check", "index.md"])
    reads = read_log.read_text().splitlines()
    assert sorted(reads) == sorted({f"src/f{i}.txt" for i in range(300)} | {"src/bad.txt", "src/none.txt"})
    assert code == 2


def test_large_files_are_hashed_on_every_core_each_once_with_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_log: Path
) -> None:
    """Files of a megabyte or more are hashed by threads a block at a time: CR LF across a block
    boundary, a file that is not ASCII (read whole), a stale one and one outside the root all come out
    as they do when each is read whole."""
    from textfrag.cli import main
    from textfrag.source.cache import Digest

    src = tmp_path / "root" / "src"
    src.mkdir(parents=True)
    block = "x" * ((1 << 20) - 1) + "\r\n" + "y\r\n" * 1000  # a CR LF pair across the first block boundary
    texts = {"a.txt": block, "b.txt": "é" + block, "c.txt": block + "z"}
    docs = []
    for name, text in texts.items():
        data = text.encode()
        (src / name).write_bytes(data)
        digest = Digest.of(name, data)
        docs.append(f"![{name}](txtfrag:src/{name}#line=1,2;length={digest.length};md5={digest.md5})\n\n")
    (src / "c.txt").write_text(texts["c.txt"] + "!", encoding="utf-8")  # stale
    (tmp_path / "outside.txt").write_bytes(b"o" * (2 << 20))
    (src / "link.txt").symlink_to(tmp_path / "outside.txt")
    docs.append("![l](txtfrag:src/link.txt#line=0,1)\n")
    (tmp_path / "root" / "index.md").write_text("".join(docs), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "root")
    err = io.StringIO()
    code = main(["check", "index.md"], stdout=io.StringIO(), stderr=err)
    # each is hashed once; the stale one is read again, whole, to say how it drifted
    assert sorted(read_log.read_text().splitlines()) == ["src/a.txt", "src/b.txt", "src/c.txt", "src/c.txt", "src/link.txt"]
    report = err.getvalue()
    assert code == 2
    assert "index.md:5: txtfrag:src/c.txt#" in report and "stale" in report
    assert "index.md:7: txtfrag:src/link.txt#line=0,1: 'src/link.txt' resolves outside the root" in report
    assert "index.md:1:" not in report and "index.md:3:" not in report  # a.txt and b.txt are current


def _broken_digest(*args: object) -> object:
    raise RuntimeError("a bug in hashing")


@pytest.mark.parametrize("where", ["process", "thread"])
def test_a_bug_in_a_hashing_worker_is_an_internal_error_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """What a digest worker (a forked process, or a thread where processes do not fork) raises that is
    not a user's problem reaches the main thread: exit 3, the bug named, and the run ends (no worker
    left waiting)."""
    import threading

    import textfrag.source.digesting
    from textfrag.source.cache import Digest

    data = b"x" * (2 << 20) + b"\n"
    (tmp_path / "big.txt").write_bytes(data)
    digest = Digest.of("big.txt", data)
    (tmp_path / "index.md").write_text(f"![b](txtfrag:big.txt#line=0,1;length={digest.length};md5={digest.md5})\n")
    monkeypatch.setattr(textfrag.source.digesting, "digest_batch", _broken_digest)
    if where == "thread":
        monkeypatch.setattr(textfrag.source.digesting, "_process_pool", lambda workers, work: None)
    monkeypatch.chdir(tmp_path)
    before = threading.active_count()
    err = io.StringIO()
    code = textfrag.cli.main(["check", "--root", ".", "index.md"], stdout=io.StringIO(), stderr=err)
    assert code == 3
    assert "internal error" in err.getvalue() and "RuntimeError: a bug in hashing" in err.getvalue()
    assert threading.active_count() == before


def test_a_digest_worker_that_dies_leaves_its_files_to_be_read_here_with_the_same_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_log: Path
) -> None:
    """A forked hashing worker that ends without answering (killed, out of memory) costs the run nothing
    but time: the files of its job are read by the main process, each verdict is what it would be, and
    no worker is left behind."""
    import textfrag.source.digesting
    from textfrag.source.cache import Digest

    main_pid = os.getpid()
    real = textfrag.source.digesting.digest_batch

    def dies_in_a_worker(*args: object) -> object:
        if os.getpid() == main_pid:
            return real(*args)  # type: ignore[arg-type]
        (tmp_path / f"died-{os.getpid()}").touch()
        os._exit(9)  # (as a worker the machine kills ends: no answer, no exit handler)

    docs = []
    for name in ("a.txt", "b.txt"):
        data = (name * 300_000 + "\n").encode()
        (tmp_path / name).write_bytes(data)
        digest = Digest.of(name, data)
        docs.append(f"![{name}](txtfrag:{name}#line=0,1;length={digest.length};md5={digest.md5})\n\n")
    (tmp_path / "b.txt").write_bytes(b"changed\n")
    (tmp_path / "index.md").write_text("".join(docs))
    monkeypatch.setattr(textfrag.source.digesting, "digest_batch", dies_in_a_worker)
    monkeypatch.chdir(tmp_path)
    err = io.StringIO()
    code = textfrag.cli.main(["check", "--root", ".", "index.md"], stdout=io.StringIO(), stderr=err)
    assert code == 1, err.getvalue()
    assert "index.md:3: txtfrag:b.txt#" in err.getvalue() and "stale" in err.getvalue()
    assert "index.md:1:" not in err.getvalue()
    assert sorted(set(read_log.read_text().split())) == ["a.txt", "b.txt"]
    died = [int(p.name.split("-")[1]) for p in tmp_path.glob("died-*")]
    if len(os.sched_getaffinity(0)) > 1:  # (one core: no worker, the files are read here anyway)
        assert died, "no worker took a job"
    for pid in died:  # (each was waited for: none is left a zombie)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_a_machine_that_cannot_fork_now_gets_the_same_verdicts_from_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_log: Path
) -> None:
    """Where no process can be forked (the user's process limit reached: EAGAIN), the digests come from
    threads, each file read once, with the verdicts a forked worker gives."""
    import errno

    import textfrag.cli

    def cannot_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    docs = []
    for name in ("a.txt", "b.txt"):
        data = (name * 300_000 + "\n").encode()
        (tmp_path / name).write_bytes(data)
        docs.append(f"![{name}](txtfrag:{name}#line=0,1;length={len(data)};md5={hashlib.md5(data).hexdigest()})\n\n")
    (tmp_path / "index.md").write_text("".join(docs))
    monkeypatch.setattr(os, "fork", cannot_fork)
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = textfrag.cli.main(["check", "--root", ".", "index.md"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "2 references in 1 document: all current" in out.getvalue() + err.getvalue()
    assert sorted(read_log.read_text().split()) == ["a.txt", "b.txt"]


def test_check_starts_without_the_heavy_standard_modules(tree: Path) -> None:
    """Start-up is part of check's time (bench/bench_core.py): it imports no engine, and neither
    dataclasses nor what that pulls in (inspect, ast, dis, tokenize)."""
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "textfrag", "check", "--root", ".", "docs"],
        capture_output=True,
        text=True,
        cwd=tree,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    imported = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "textfrag.cli" in imported
    assert not imported & {"dataclasses", "inspect", "ast", "dis", "tokenize", "sphinx", "docutils", "mkdocs", "markdown"}


def test_check_takes_a_place_as_it_prints_one(tmp_path: Path) -> None:
    """`check FILE:LINE`, as update and pin take it: only the reference there is checked."""
    from textfrag.cli import main

    (tmp_path / "a.txt").write_text("one\ntwo\n")
    doc = tmp_path / "index.md"
    doc.write_text(f"![](txtfrag:a.txt#line=0,1;md5={'0' * 32})\n\n![](txtfrag:a.txt#line=1,2)\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--root", str(tmp_path), f"{doc}:3"], stdout=out, stderr=err) == 0, err.getvalue()
    assert "1 reference in 1 document: all current" in out.getvalue()
    assert main(["check", "--root", str(tmp_path), f"{doc}:1"], stdout=io.StringIO(), stderr=io.StringIO()) == 1


def test_a_large_tree_is_checked_in_parts_on_every_core_with_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From 1,000 documents check scans and judges in forked parts; what it says (every format)
    is what one process says, in the same order."""
    import hashlib

    import textfrag.cli.check
    from textfrag.cli import main

    text = "".join(f"line {i}\n" for i in range(1, 21))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text(text)
    pin = f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    docs = tmp_path / "docs"
    docs.mkdir()
    for d in range(1200):
        refs = [f"![](txtfrag:src/a.txt#line={d % 10},{d % 10 + 2};{pin})"]
        if d % 97 == 0:
            refs.append(f"![](txtfrag:src/a.txt#line=0,1;md5={'0' * 32})")  # stale
        if d % 211 == 0:
            refs.append("![](txtfrag:src/gone.txt#line=0,1)")  # missing
        (docs / f"d{d:04}.md").write_text("# D\n\n" + "\n\n".join(refs) + "\n")
    for fmt in ("text", "json", "sarif"):
        parts = run_textfrag("check", "--root", str(tmp_path), "--format", fmt, str(docs), timeout=300, cwd=tmp_path)
        monkeypatch.setattr(textfrag.cli.check, "PARALLEL_DOCS", 10**9)
        monkeypatch.chdir(tmp_path)
        out, err = io.StringIO(), io.StringIO()
        code = main(["check", "--root", str(tmp_path), "--format", fmt, str(docs)], stdout=out, stderr=err)
        monkeypatch.undo()
        assert parts.returncode == code == 2
        assert parts.stdout == out.getvalue()
        assert parts.stderr == err.getvalue()
    text_run = run_textfrag("check", "--root", str(tmp_path), str(docs), cwd=tmp_path)
    assert "1219 references in 1200 documents: 13 stale, 6 bad" in text_run.stdout, text_run.stdout
