"""Hostile input to the command line (families 2, 3, 6, 7 and 8 of the red-team report), run as the
installed command in a process under time and memory limits."""

from __future__ import annotations

import hashlib
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from textfrag.cli import main

from ..conftest import commit_all, new_project
from .conftest import Run, no_traceback, textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))


def md5(data: str | bytes) -> str:
    return hashlib.md5(data.encode() if isinstance(data, str) else data).hexdigest()


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "app.txt", APP)
    return root


# -- 3. stalls and memory -------------------------------------------------------------------------------


def peak_run(*args: str, cwd: Path) -> tuple[Run, int]:
    """The command in a process that reports its own peak memory (KiB) on its last line of stderr."""
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the forked test process
    code = (
        "import re, sys\nfrom textfrag.cli import main\nc = main(sys.argv[1:])\n"
        "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
        "sys.stderr.write(f'\\nPEAK {hwm}\\n')\nsys.exit(c)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, cwd=cwd, timeout=60)
    err = r.stderr.decode("utf-8", "replace")
    peak = int(err.rsplit("PEAK ", 1)[1])
    return Run(r.returncode, r.stdout.decode(), err), peak


@pytest.mark.parametrize(
    "directive",
    [
        "text=a-,a,-b",  # a prefix that matches everywhere, a suffix that never follows
        "text=a-,a,b,-c",  # and a textEnd searched after every one of them
        "text=a,c",  # textEnd absent
        "text=a%20a-,a,-a%20b",
    ],
)
def test_text_directives_on_a_5_mb_file_end_in_time(tmp_path: Path, directive: str) -> None:
    (tmp_path / "big.txt").write_text("a " * 2_500_000 + "a b\n", encoding="utf-8")
    r = textfrag("show", "--root", str(tmp_path), f"big.txt#:~:{directive}", timeout=30)
    no_traceback(r)
    assert r.code in (0, 2)
    if r.code == 2:
        assert "matches nothing" in r.err or "was stopped" in r.err


def test_yee_words_on_a_5_mb_file_keep_memory_flat(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("the quick brown fox " * 250_000 + "jumps over\n", encoding="utf-8")
    r, peak_kib = peak_run("show", "--root", str(tmp_path), "big.txt#:words:fox-(jumps)", cwd=tmp_path)
    assert r.code == 0 and r.out == "jumps"
    assert peak_kib < 80 * 1024, f"{peak_kib} KiB for a 5 MB file"


@pytest.mark.parametrize(
    "pattern",
    [r"\(\(a\{255\}\)\{255\}\)\{255\}", r"\(a\{255\}\)\{255\}", r"\(\(\(a\{12\}\)\{12\}\)\{12\}\)\{12\}x*"],
)
def test_nested_intervals_are_refused_before_the_regex_compiler_allocates(tmp_path: Path, pattern: str) -> None:
    (tmp_path / "f.txt").write_text("aaaa\n", encoding="utf-8")
    r = textfrag("show", "--root", str(tmp_path), f"f.txt#match({pattern})", memory=512 * 1024 * 1024)
    no_traceback(r)
    assert r.code == 2 and "nested intervals multiply" in r.err


def test_check_refuses_a_fifo_and_a_device_as_documentation(project: Path) -> None:
    os.mkfifo(project / "docs" / "pipe.md")
    r = textfrag("check", "--root", str(project), str(project / "docs"), timeout=20)
    no_traceback(r)
    assert r.code == 2 and "pipe.md" in r.err and "FIFO" in r.err
    r = textfrag("check", "--root", str(project), "/dev/zero", timeout=20)
    no_traceback(r)
    assert r.code == 2 and "not a regular file" in r.err


def test_check_refuses_documentation_over_the_size_limit(project: Path) -> None:
    (project / "docs" / "huge.md").write_text("x" * 5000, encoding="utf-8")
    r = textfrag("check", "--root", str(project), "--max-size", "1000", str(project / "docs"))
    no_traceback(r)
    assert r.code == 2 and "over the limit of 1000 bytes" in r.err


# -- 2. lost edits ----------------------------------------------------------------------------------------


def moved_project(project: Path, docs: int = 1) -> str:
    """A git project whose quoted file gained a first line: every reference to it has moved."""
    ref = f"src/app.txt#line=2,4;length={len(APP)};md5={md5(APP)}"
    for i in range(docs):
        (project / "docs" / f"d{i}.md").write_text(
            f"# D\n\n![](txtfrag:{ref})\n\nMore ![](txtfrag:{ref}) text.\n", encoding="utf-8"
        )
    commit_all(project)
    (project / "src" / "app.txt").write_text("new first line\n" + APP, encoding="utf-8")
    commit_all(project, "moved")
    return ref


def test_update_never_loses_an_edit_made_while_it_runs(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import textfrag.repair.references

    moved_project(project)
    doc = project / "docs" / "d0.md"
    real_quote = textfrag.repair.references.quote  # (what update's repair of each reference quotes through)
    calls = []

    def quote_then_someone_saves(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:  # after update read the document, an editor saves it
            doc.write_text(doc.read_text(encoding="utf-8") + "\nA paragraph typed meanwhile.\n", encoding="utf-8")
        return real_quote(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(textfrag.repair.references, "quote", quote_then_someone_saves)
    code, out, err = call("update", "--write", "--root", str(project), str(project / "docs"))
    assert code == 2
    assert "changed since textfrag read it; it is left as it is" in err
    assert doc.read_text(encoding="utf-8").endswith("A paragraph typed meanwhile.\n")
    assert not list(project.rglob("*.textfrag-tmp"))


@pytest.mark.parametrize("what", ["file", "folder"])
def test_update_reports_a_read_only_file_or_folder_and_writes_the_others(project: Path, what: str) -> None:
    moved_project(project, docs=2)
    doc = project / "docs" / "d0.md"
    before = doc.read_bytes()
    locked = doc if what == "file" else project / "docs"
    mode = locked.stat().st_mode
    locked.chmod(stat.S_IMODE(mode) & ~0o222)
    try:
        r = textfrag("update", "--write", "--root", str(project), str(project / "docs"))
    finally:
        locked.chmod(stat.S_IMODE(mode))
    no_traceback(r)
    assert r.code == 2 and "read-only" in r.err
    assert doc.read_bytes() == before
    if what == "file":  # the other document was rewritten
        assert "line=3,5" in (project / "docs" / "d1.md").read_text(encoding="utf-8")


def test_sigterm_during_a_write_leaves_no_temporary_file_and_no_half_file(project: Path, tmp_path: Path) -> None:
    moved_project(project)
    doc = project / "docs" / "d0.md"
    before = doc.read_bytes()
    plant = tmp_path / "plant"
    plant.mkdir()
    (plant / "sitecustomize.py").write_text(
        "import os, signal\n_fsync = os.fsync\n"
        "def fsync(fd):\n    _fsync(fd)\n    os.kill(os.getpid(), signal.SIGTERM)\n"
        "os.fsync = fsync\n",
        encoding="utf-8",
    )
    r = textfrag("update", "--write", "--root", str(project), str(project / "docs"), env=dict(os.environ, PYTHONPATH=str(plant)))
    no_traceback(r)
    assert r.code == 143
    assert doc.read_bytes() == before
    assert not [p for p in project.rglob("*") if p.name.endswith(".textfrag-tmp")]


# -- 6. wrong rewrites ------------------------------------------------------------------------------------


def test_a_length_only_reference_is_never_guessed_when_two_versions_share_the_length(project: Path) -> None:
    v1 = "alpha\nbravo\n"
    v2 = "gamma\ndelta\n"  # the same length, another text
    (project / "src" / "app.txt").write_text(v1, encoding="utf-8")
    (project / "docs" / "d.md").write_text(f"![](txtfrag:src/app.txt#line=0,1;length={len(v1)})\n", encoding="utf-8")
    commit_all(project)
    (project / "src" / "app.txt").write_text(v2, encoding="utf-8")
    commit_all(project, "v2")
    (project / "src" / "app.txt").write_text("new\n" + v1 + v2, encoding="utf-8")
    commit_all(project, "v3")
    r = textfrag("update", "--write", "--root", str(project), str(project / "docs"))
    no_traceback(r)
    assert r.code == 1
    assert "unknown" in r.err and "two versions" in r.err
    assert "length=12)" in (project / "docs" / "d.md").read_text(encoding="utf-8")


def test_update_does_not_exit_0_when_its_own_rewrite_makes_a_reference_stale(project: Path) -> None:
    moved_project(project)
    quoted_doc = project / "docs" / "d0.md"
    data = quoted_doc.read_bytes()
    # a page that quotes the page update is about to rewrite
    (project / "docs" / "about.rst").write_text(
        f".. txtfrag:: docs/d0.md#line=0,1;length={len(data.decode())};md5={md5(data)}\n", encoding="utf-8"
    )
    commit_all(project, "about")
    r = textfrag("update", "--write", "--root", str(project), str(project / "docs"))
    no_traceback(r)
    assert r.code == 1
    assert "docs/d0.md#line=0,1" in r.err and "run `textfrag update` again" in r.err


def test_the_dry_run_diff_of_a_file_without_final_newline_is_a_valid_patch(project: Path) -> None:
    ref = f"src/app.txt#line=2,4;length={len(APP)};md5={md5(APP)}"
    (project / "docs" / "d.md").write_text(f"# D\n\n![](txtfrag:{ref})", encoding="utf-8")  # no final newline
    commit_all(project)
    (project / "src" / "app.txt").write_text("new first line\n" + APP, encoding="utf-8")
    commit_all(project, "moved")
    r = textfrag("update", "--root", ".", "docs", cwd=project)
    assert r.code == 1 and "\\ No newline at end of file" in r.out
    patch = project.parent / "fix.patch"
    patch.write_text(r.out.replace("a/docs/", "a/docs/").replace("b/docs/", "b/docs/"), encoding="utf-8")
    check = subprocess.run(["git", "apply", "--check", str(patch)], cwd=project, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    subprocess.run(["git", "apply", str(patch)], cwd=project, check=True)
    assert textfrag("check", "--root", ".", "docs", cwd=project).code == 0


# -- 7. tracebacks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["base64", "rot13", "hex", "zlib", "undefined", "idna", "uu", "bz2", "quopri", "punycode"])
def test_a_non_text_codec_is_no_charset(project: Path, codec: str) -> None:
    r = textfrag("show", "--root", str(project), "--charset", codec, "src/app.txt#line=0,1")
    no_traceback(r)
    assert r.code == 2 and "not a charset" in r.err
    ref = f"src/app.txt#line=0,1;md5={md5(APP)},{codec}"
    r = textfrag("show", "--root", str(project), ref)
    no_traceback(r)
    assert r.code == 2 and "cannot be verified" in r.err


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--lines", "1-" + "9" * 5000),
        ("--lines", "9" * 5000),
        ("--lines", "²"),
        ("--lines", "1-²"),
        ("--lines", "١-٣"),  # Arabic-Indic digits
        ("--chars", "0," + "9" * 5000),
        ("--chars", "²,3"),
    ],
)
def test_make_refuses_hostile_numbers_with_a_message(project: Path, option: str, value: str) -> None:
    r = textfrag("make", "--root", str(project), "src/app.txt", option, value)
    no_traceback(r)
    assert r.code == 2 and "command line: src/app.txt:" in r.err


def test_a_file_named_twice_is_checked_and_updated_once(project: Path) -> None:
    moved_project(project)
    docs = project / "docs"
    r = textfrag("check", "--root", str(project), str(docs), str(docs / "d0.md"), str(docs / ".." / "docs" / "d0.md"))
    no_traceback(r)
    assert "2 references in 1 document" in r.out
    r = textfrag("update", "--write", "--root", str(project), str(docs), str(docs / "d0.md"))
    no_traceback(r)
    assert r.code == 0 and "rewrote 2 moved references in 1 document" in r.out


def test_permission_errors_are_reported_not_skipped_or_crashed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file and a folder the user may not read (the errors are the operating system's own, raised where
    it raises them: root, who runs CI, is never refused, so they are planted at the system calls)."""
    (project / "docs" / "ok.md").write_text("![](txtfrag:src/app.txt#line=0,1)\n", encoding="utf-8")
    (project / "docs" / "locked.md").write_text("![](txtfrag:src/app.txt#line=0,1)\n", encoding="utf-8")
    (project / "docs" / "secret").mkdir()
    (project / "docs" / "secret" / "inner.md").write_text("![](txtfrag:src/app.txt#line=0,1)\n", encoding="utf-8")
    real_open, real_scandir = os.open, os.scandir

    def refusing_open(path: object, *args: object, **kwargs: object) -> int:
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def refusing_scandir(path: object = ".") -> object:
        if str(path).endswith("secret"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refusing_open)
    monkeypatch.setattr(os, "scandir", refusing_scandir)
    code, out, err = call("check", "--root", str(project), str(project / "docs"))
    assert "Traceback" not in err
    assert code == 2
    assert "locked.md" in err and "Permission denied" in err
    assert "cannot list the folder" in err and "secret" in err
    assert "1 reference in 1 document" in out  # ok.md was still checked


def test_a_console_that_cannot_encode_gets_escapes_not_a_traceback(project: Path) -> None:
    (project / "src" / "café.txt").write_text(APP, encoding="utf-8")
    (project / "docs" / "d.md").write_text("![](txtfrag:src/café.txt#line=0,1;md5=" + "0" * 32 + ")\n", encoding="utf-8")
    r = textfrag("check", "--root", str(project), str(project / "docs"), env=dict(os.environ, PYTHONIOENCODING="ascii"))
    no_traceback(r)
    assert r.code == 1 and "caf\\xe9.txt" in r.err
    r = textfrag("make", "--root", str(project), "src/café.txt", "--lines", "1", env=dict(os.environ, PYTHONIOENCODING="ascii"))
    no_traceback(r)
    assert r.code == 0 and r.out.startswith("src/caf\\xe9.txt#line=0,1")


# -- 8. messages that mislead -----------------------------------------------------------------------------


def test_no_git_on_path_says_so(project: Path, tmp_path: Path) -> None:
    moved_project(project)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()  # a PATH with no git on it
    env = dict(os.environ, PATH=str(bin_dir))
    r = textfrag("check", "--root", str(project), str(project / "docs"), env=env)
    no_traceback(r)
    assert r.code == 1 and "git is not installed" in r.err and "not in a git work tree" not in r.err


def test_a_wrong_length_with_a_matching_md5_does_not_say_the_file_changed(project: Path) -> None:
    ref = f"src/app.txt#line=0,1;length={len(APP) + 1};md5={md5(APP)}"
    r = textfrag("show", "--root", str(project), ref)
    assert r.code == 1
    assert "the md5 matches, so the file has not changed" in r.err and "the file changed since" not in r.err


def test_match_lists_each_line_once(project: Path) -> None:
    (project / "src" / "rep.txt").write_text("ab ab ab\nab\n", encoding="utf-8")
    r = textfrag("make", "--root", str(project), "src/rep.txt", "--match", "ab")
    assert r.code == 2 and "(lines 1, 2)" in r.err


def test_one_commit_is_not_commits(project: Path) -> None:
    (project / "docs" / "d.md").write_text("![](txtfrag:src/app.txt#line=0,1;md5=" + "1" * 32 + ")\n", encoding="utf-8")
    commit_all(project)
    r = textfrag("check", "--root", str(project), str(project / "docs"))
    assert r.code == 1 and "(1 version)" in r.err and "1 versions" not in r.err


def test_many_hostile_searches_of_one_file_share_one_time_budget(project: Path) -> None:
    """Twenty references that each would search for seconds cost one budget for their file, not twenty."""
    (project / "src" / "big.txt").write_text("a " * 2_500_000 + "a b\n", encoding="utf-8")
    refs = [f"![](txtfrag:src/big.txt#:~:text=a-,a,-b{'&text=a' * i})" for i in range(10)]
    refs += [f"![](txtfrag:src/big.txt#match(\\(a*\\)*{'b' * (i + 1)}c))" for i in range(10)]
    (project / "docs" / "hostile.md").write_text("\n\n".join(refs) + "\n", encoding="utf-8")
    r = textfrag("check", "--root", str(project), str(project / "docs"), timeout=30)
    no_traceback(r)
    assert r.code == 2 and r.out.startswith("textfrag check: 20 references in 1 document: 0 stale, 20 bad")
    assert r.err.count("was stopped") + r.err.count("matches nothing") == 20


def test_a_4000_character_option_value_is_named_not_printed_whole_in_each_line(project: Path) -> None:
    """A page of 200 includes whose ``:lines:`` value is 4,000 digits: each is a located problem whose line
    shows the value's start and end and its length, so the log stays readable (it was 8 KB a line)."""
    value = "1" * 4000
    page = "".join(f".. literalinclude:: ../src/app.txt\n   :lines: {value}\n\n" for _ in range(200))
    (project / "docs" / "index.rst").write_text(page, encoding="utf-8")
    (project / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\n", encoding="utf-8")
    r = textfrag("check", "docs", cwd=project, env={"TEXTFRAG_GUARD": "1"})
    no_traceback(r)
    problems = [line for line in r.err.splitlines() if line.startswith("docs/index.rst:")]
    assert r.code == 2 and len(problems) == 200, r.err[-2000:]
    assert all(len(line) < 600 and "(4,000 characters)" in line for line in problems), problems[0]
    assert problems[0].startswith("docs/index.rst:1: literalinclude ../src/app.txt :lines: 111"), problems[0]


def test_a_tab_width_that_would_make_each_tab_a_gigabyte_is_a_located_problem(project: Path) -> None:
    """``:tab-width: 1000000000`` (Sphinx expands each tab to a gigabyte): refused where it is written, before
    a line is expanded; a width a page can use is expanded as Sphinx does."""
    (project / "src" / "tabs.txt").write_text("a\tb\n", encoding="utf-8")
    (project / "docs" / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n", encoding="utf-8"
    )
    page = "T\n=\n\n.. literalinclude:: ../src/tabs.txt\n   :tab-width: {}\n"
    (project / "docs" / "index.rst").write_text(page.format(1_000_000_000), encoding="utf-8")
    run, peak = peak_run("pin", "--write", "docs", cwd=project)
    assert run.code == 2 and "Traceback" not in run.err, run.err
    assert "docs/index.rst:4: literalinclude ../src/tabs.txt :tab-width: 1000000000: tab-width 1000000000 is more" in run.err
    assert peak < 200_000, f"{peak} KiB"
    (project / "docs" / "index.rst").write_text(page.format(6), encoding="utf-8")
    run, _ = peak_run("pin", "--write", "docs", cwd=project)
    lock = (project / "docs" / "textfrag.lock").read_text(encoding="utf-8")
    assert run.code == 0 and md5("a     b\n") in lock, run.err + lock
