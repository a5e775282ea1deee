"""Drift: moved vs changed vs unknown from git history, and `textfrag update`.

Every test builds a real git repository in a temporary folder with the git command line.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from textfrag import SourceCache, quote
from textfrag.cli import main

from ..processes import run_textfrag

SRC = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(1, 11))  # 30 lines


def git(repo: Path, *args: str) -> str:
    r = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return r.stdout


def run(repo: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*argv, cwd=repo, timeout=120)


def ref_for(text: str, first: int, last: int, path: str = "src/mod.py") -> str:
    """line=first-1,last with length and md5 of ``text``."""
    return f"{path}#line={first - 1},{last};length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    (r / "src").mkdir(parents=True)
    (r / "docs").mkdir()
    git(r, "init", "-q")
    git(r, "config", "user.email", "t@example.org")
    git(r, "config", "user.name", "T")
    git(r, "config", "core.autocrlf", "false")
    (r / "src" / "mod.py").write_text(SRC)
    git(r, "add", ".")
    git(r, "commit", "-qm", "first")
    return r


def doc_bytes(ref: str) -> bytes:
    """A doc with a BOM, CR LF line endings and non-ASCII text around the reference."""
    return (
        "\ufeffTitel — Überblick\r\n=================\r\n\r\nDer Code:\r\n\r\n"
        f".. txtfrag:: {ref}\r\n\r\nUnd inline :txtfrag:`src/mod.py#char=0,6`.\r\n"
    ).encode()


def test_moved_is_classified_and_update_rewrites_only_the_reference(repo: Path) -> None:
    old_ref = ref_for(SRC, 4, 6)  # def f2(): ... lines 4-6
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    new_src = "# a new header\n# of two lines\n" + SRC
    (repo / "src" / "mod.py").write_text(new_src)
    q = quote(SourceCache(repo), old_ref)
    assert q.stale is not None and q.drift is not None and q.drift.kind == "moved"
    new_ref = ref_for(new_src, 6, 8)
    assert q.drift.new_reference(q.reference) == new_ref
    assert "run `textfrag update --write`" in q.stale.message and "lines 6-8" in q.stale.message

    r = run(repo, "check", "docs")
    assert r.returncode == 1 and "moved: the quoted text (lines 4-6 in " in r.stderr

    dry = run(repo, "update", "docs")
    assert dry.returncode == 1
    assert (repo / "docs" / "index.rst").read_bytes() == doc_bytes(old_ref)  # the dry run changed nothing
    assert f"-.. txtfrag:: {old_ref}\n" in dry.stdout and f"+.. txtfrag:: {new_ref}\n" in dry.stdout
    assert "1 moved reference would be rewritten in 1 document (run with --write)" in dry.stdout

    wet = run(repo, "update", "--write", "docs")
    assert wet.returncode == 0, wet.stderr
    assert (repo / "docs" / "index.rst").read_bytes() == doc_bytes(new_ref)  # byte-identical but for the reference
    assert run(repo, "check", "docs").returncode == 0


def test_update_keeps_the_prefix_checks_order_charsets_and_unknown_checks(repo: Path) -> None:
    md5 = hashlib.md5(SRC.encode()).hexdigest()
    old = f"txtfrag:src/mod.py#char=0,22;md5={md5.upper()},UTF-8;sha256=abc;length={len(SRC)}"
    (repo / "docs" / "page.md").write_text(f"# P\n\n![cap]({old})\n")
    new_src = "\n" + SRC
    (repo / "src" / "mod.py").write_text(new_src)
    assert run(repo, "update", "--write", "docs").returncode == 0
    new_md5 = hashlib.md5(new_src.encode()).hexdigest()
    assert (
        repo / "docs" / "page.md"
    ).read_text() == f"# P\n\n![cap](txtfrag:src/mod.py#char=1,23;md5={new_md5},UTF-8;sha256=abc;length={len(new_src)})\n"


def test_changed_shows_a_diff_and_leaves_the_file_untouched(repo: Path) -> None:
    old_ref = ref_for(SRC, 4, 6)
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2\n", "return 2 * 21\n"))
    r = run(repo, "update", "--write", "docs")
    assert r.returncode == 1
    assert (repo / "docs" / "index.rst").read_bytes() == doc_bytes(old_ref)
    assert "changed: the quoted text (lines 4-6 in " in r.stderr
    assert "-    return 2\n+    return 2 * 21\n" in r.stderr
    assert "(quoted, " in r.stderr and "lines 4-6 (now)" in r.stderr
    assert "0 moved references would" not in r.stdout and "1 stale left as they are" in r.stdout


def test_text_that_now_occurs_twice_is_not_guessed(repo: Path) -> None:
    old_ref = ref_for(SRC, 4, 6)
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    (repo / "src" / "mod.py").write_text(SRC + "def f2():\n    return 2\n\n")
    r = run(repo, "update", "--write", "docs")
    assert r.returncode == 1
    assert "now occurs 2 times (starting at lines 4, 31); textfrag will not guess" in r.stderr
    assert (repo / "docs" / "index.rst").read_bytes() == doc_bytes(old_ref)


def test_a_renamed_file_is_followed(repo: Path) -> None:
    git(repo, "mv", "src/mod.py", "src/renamed.py")
    git(repo, "commit", "-qm", "rename")
    old_ref = ref_for(SRC, 4, 6, path="src/renamed.py")  # the md5 of the file when it was src/mod.py
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    new_src = "import os\n" + SRC
    (repo / "src" / "renamed.py").write_text(new_src)
    git(repo, "commit", "-qam", "edit")
    q = quote(SourceCache(repo), old_ref)
    assert q.drift is not None and q.drift.kind == "moved"
    assert q.drift.new_reference(q.reference) == ref_for(new_src, 5, 7, path="src/renamed.py")


def test_history_is_searched_back_to_the_described_version(repo: Path) -> None:
    old_ref = ref_for(SRC, 7, 9)
    for n in range(3):  # three later commits, each moving the text further down
        (repo / "src" / "mod.py").write_text("#\n" * (n + 1) + SRC)
        git(repo, "commit", "-qam", f"edit {n}")
    q = quote(SourceCache(repo), old_ref)
    assert q.drift is not None and q.drift.kind == "moved"
    assert "lines 10-12" in q.drift.explanation


def test_a_file_outside_git_is_unknown(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    q = quote(SourceCache(tmp_path), "a.txt#line=0,1;md5=" + "0" * 32)
    assert q.drift is not None and q.drift.kind == "unknown"
    assert "not in a git work tree" in q.stale.message  # type: ignore[union-attr]
    assert "if that is still the text to quote, the reference is a.txt#line=0,1" in q.stale.message  # type: ignore[union-attr]


def test_no_version_with_that_md5_is_unknown(repo: Path) -> None:
    q = quote(SourceCache(repo), "src/mod.py#line=0,1;md5=" + "1" * 32)
    assert q.drift is not None and q.drift.kind == "unknown"
    assert "no version of src/mod.py in its git history (1 version) has the reference's md5" in q.drift.explanation


def test_an_untracked_file_is_unknown(repo: Path) -> None:
    (repo / "src" / "new.py").write_text("x = 1\n")
    q = quote(SourceCache(repo), "src/new.py#line=0,1;length=99")
    assert q.drift is not None and q.drift.kind == "unknown"


def test_an_interrupted_update_leaves_each_file_old_or_new(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    old_ref = ref_for(SRC, 4, 6)
    for name in ("a.rst", "b.rst", "c.rst"):
        (repo / "docs" / name).write_bytes(doc_bytes(old_ref))
    (repo / "docs" / "b.rst").chmod(0o640)
    new_src = "\n" + SRC
    (repo / "src" / "mod.py").write_text(new_src)
    real_replace = os.replace
    calls = []

    def failing_replace(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the user pressed ^C between the second and third file
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    monkeypatch.chdir(repo)
    with pytest.raises(KeyboardInterrupt):
        from textfrag.cli import build_parser
        from textfrag.cli._base import settle
        from textfrag.cli.update import _update

        _update(settle(build_parser().parse_args(["update", "--write", "docs"]), None), sys.stdout, sys.stderr)
    new = doc_bytes(ref_for(new_src, 5, 7))
    contents = [(repo / "docs" / n).read_bytes() for n in ("a.rst", "b.rst", "c.rst")]
    assert contents == [new, doc_bytes(old_ref), doc_bytes(old_ref)]
    assert sorted(p.name for p in (repo / "docs").iterdir()) == ["a.rst", "b.rst", "c.rst"]  # no temporary files left
    monkeypatch.setattr(os, "replace", real_replace)
    assert main(["update", "--write", "docs"]) == 0
    assert all((repo / "docs" / n).read_bytes() == new for n in ("a.rst", "b.rst", "c.rst"))
    assert (repo / "docs" / "b.rst").stat().st_mode & 0o777 == 0o640  # same permissions


def test_update_with_nothing_stale_changes_nothing(repo: Path) -> None:
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(ref_for(SRC, 4, 6)))
    before = (repo / "docs" / "index.rst").stat().st_mtime_ns
    r = run(repo, "update", "--write", "docs")
    assert r.returncode == 0
    assert (repo / "docs" / "index.rst").stat().st_mtime_ns == before
    assert "rewrote 0 moved references;" in r.stdout


def test_a_last_line_changed_in_place_is_diffed_against_the_same_lines_now(repo: Path) -> None:
    """The pinned text against the same lines now: `-` the old line, `+` the new one, nothing else,
    with the 1-based range of both (not the window above it, which would show a blank line added)."""
    old_ref = ref_for(SRC, 4, 5)  # def f2(): / return 2
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2\n", "return 22\n"))
    r = run(repo, "check", "docs")
    assert r.returncode == 1
    assert "lines 4-5 (quoted, " in r.stderr and "lines 4-5 (now)" in r.stderr, r.stderr
    changed = [line for line in r.stderr.splitlines() if line[:1] in "-+" and not line.startswith(("---", "+++"))]
    assert changed == ["-    return 2", "+    return 22"], r.stderr


def test_the_advice_for_a_changed_quote_with_a_highlighted_changed_line_works(repo: Path) -> None:
    """Check recommends `update --accept --write`; run as said, it re-pins the quote, the
    highlighted line keeps its place, and check (and so the build) then passes."""
    old_ref = ref_for(SRC, 4, 6)  # def f2(): / return 2 / blank
    doc = repo / "docs" / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {old_ref}\n   :emphasize-lines: 5\n")
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2\n", "return 22\n"))
    r = run(repo, "check", "docs")
    assert r.returncode == 1 and "textfrag update --accept --write" in r.stderr, r.stderr
    done = run(repo, "update", "--accept", "--write", "docs")
    assert done.returncode == 0, done.stderr
    assert ":emphasize-lines: 5" in doc.read_text() and old_ref not in doc.read_text()  # the changed line, still highlighted
    assert run(repo, "check", "docs").returncode == 0


def test_accept_writes_nothing_that_would_fail_the_build(repo: Path) -> None:
    """A whole-file quote whose highlighted lines fall past its end once the file shrank is not
    re-pinned by --accept (the build would fail on the new reference all the same): it is said, with why."""
    old_ref = f"src/mod.py#line=0,;length={len(SRC)};md5={hashlib.md5(SRC.encode()).hexdigest()}"
    doc = repo / "docs" / "index.md"
    before = f'# T\n\n![](txtfrag:{old_ref}){{ .python hl_lines="25-27" }}\n'
    doc.write_text(before)
    (repo / "src" / "mod.py").write_text(SRC[: SRC.index("def f5")])  # 12 lines now
    c = run(repo, "check", "docs")  # check promises no fix that update would refuse
    assert "accepting it is not enough: with the new text, hl_lines 25-27 is outside the excerpt" in c.stderr, c.stderr
    r = run(repo, "update", "--accept", "--write", "docs")
    assert r.returncode == 1
    assert "it is not rewritten: with the new text, hl_lines 25-27 is outside the excerpt, which has 12 lines" in r.stderr
    assert doc.read_text() == before


def test_a_quote_only_other_parts_of_whose_file_changed_is_said_to_be_where_it_was(repo: Path) -> None:
    """Not "moved ... lines 4-6 now as lines 4-6": the quoted text is unchanged in place."""
    old_ref = ref_for(SRC, 4, 6)
    (repo / "docs" / "index.rst").write_bytes(doc_bytes(old_ref))
    (repo / "src" / "mod.py").write_text(SRC + "# a comment at the end\n")
    r = run(repo, "check", "docs")
    assert r.returncode == 1
    assert "is unchanged and still where it was: only other parts of the file changed; run `textfrag update --write`" in r.stderr
    assert run(repo, "update", "--write", "docs").returncode == 0 and run(repo, "check", "docs").returncode == 0


def test_accept_whole_files_repins_only_whole_file_quotes_and_shows_their_diff(repo: Path) -> None:
    """After a migration a whole-file quote is changed by every edit of its file; the opt-in
    re-pins those (the pre-commit hook textfrag-update-whole-files), showing the diff, and leaves a changed
    range quote for review."""
    whole = f"src/mod.py#line=0,;length={len(SRC)};md5={hashlib.md5(SRC.encode()).hexdigest()}"
    ranged = ref_for(SRC, 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {whole}\n\n.. txtfrag:: {ranged}\n")
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2\n", "return 22\n"))
    r = run(repo, "update", "--write", "--accept-whole-files", "docs")
    assert r.returncode == 1  # the range quote is left: it changed, and needs a review
    assert "+    return 22" in r.stderr and "accepted" in r.stderr
    text = doc.read_text()
    assert whole not in text and "src/mod.py#line=0,;length=" in text and ranged in text


@pytest.mark.parametrize("intent", [False, True], ids=["range", "pyobject"])
def test_accept_pins_what_history_cannot_explain(tmp_path: Path, intent: bool) -> None:
    """A quoted file outside git (or a version never committed): moved or changed is unknown, so
    ``update --write`` leaves it; ``update --accept --write`` pins what the reviewer saw: what the intent
    selects now, else the same lines as the file is now."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mod.py").write_text(SRC)
    option = "\n   :pyobject: f3" if intent else ""
    doc = tmp_path / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {ref_for(SRC, 7, 8)}{option}\n")  # def f3 (lines 7-8)
    edited = SRC.replace("def f1():\n    return 1\n\n", "def f1():\n    return 1\n\n\n")  # f3 is one line down
    (tmp_path / "src" / "mod.py").write_text(edited)
    checked = run(tmp_path, "check", "--root", ".", "index.rst")
    assert checked.returncode == 1 and "moved or changed is unknown" in checked.stderr
    assert run(tmp_path, "update", "--root", ".", "--write", "index.rst").returncode == 1
    assert ref_for(SRC, 7, 8) in doc.read_text()  # (nothing it could tell: left as it is)
    accepted = run(tmp_path, "update", "--root", ".", "--accept", "--write", "index.rst")
    assert accepted.returncode == 0, accepted.stderr
    assert "1 accepted" in accepted.stdout
    lines = (8, 9) if intent else (7, 8)  # the intent follows f3; a range keeps its lines
    assert ref_for(edited, *lines) in doc.read_text()
    assert run(tmp_path, "check", "--root", ".", "index.rst").returncode == 0


def test_update_leaves_a_changed_quote_to_check_and_the_diff_is_shown_once(repo: Path) -> None:
    """The pre-commit hooks run ``update --write --no-diffs`` then ``check``: a changed quote's diff is
    shown by check, not by both (``update`` alone still shows it)."""
    (repo / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref_for(SRC, 4, 5)}\n")
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2", "return 20"))
    updated = run(repo, "update", "--root", ".", "--write", "--no-diffs", "docs")  # (the hook's entry)
    assert updated.returncode == 1
    assert "changed:" in updated.stderr and "(`textfrag check` shows the diff)" in updated.stderr
    assert "+++ src/mod.py" not in updated.stderr and "-    return 2" not in updated.stderr
    checked = run(repo, "check", "--root", ".", "docs")
    assert checked.stderr.count("+++ src/mod.py") == 1 and "+    return 20" in checked.stderr
    hooks = (Path(__file__).parents[2] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "entry: textfrag update --write --no-diffs\n" in hooks


@pytest.mark.parametrize(
    ("body", "rst_now", "md_now"), [("    x = 2\n    y = 3\n", "7", "4"), ("", "5", "2")], ids=["grew", "shrank"]
)
def test_highlighted_lines_follow_their_text_when_an_intent_is_accepted_in_rst_and_markdown_alike(
    repo: Path, body: str, rst_now: str, md_now: str
) -> None:
    """Accepting what ``:pyobject: f2`` selects now keeps the highlighted line on its text in both
    syntaxes: ``:emphasize-lines:`` counts the file's lines, ``hl_lines`` the quote's (pymdownx), and a line
    added or removed above it moves it in both (before, hl_lines kept its number, so a grown function had
    another line highlighted, and a shrunk one was refused as past its end)."""
    first = SRC.replace("def f2():\n", "def f2():\n    x = 2\n")  # f2: lines 4-6, its return on line 6
    (repo / "src" / "mod.py").write_text(first)
    git(repo, "commit", "-qam", "f2 with two statements")
    ref = ref_for(first, 4, 6)
    rst, md = repo / "docs" / "index.rst", repo / "docs" / "page.md"
    rst.write_text(f"T\n=\n\n.. txtfrag:: {ref}\n   :pyobject: f2\n   :emphasize-lines: 6\n")
    md.write_text(f'# T\n\n![](txtfrag:{ref}){{ pyobject="f2" hl_lines="3" }}\n')
    assert run(repo, "check", "docs").returncode == 0
    (repo / "src" / "mod.py").write_text(first.replace("    x = 2\n", body))  # f2 grew by a line, or shrank by one
    git(repo, "commit", "-qam", "edit f2")
    checked = run(repo, "check", "docs")
    assert checked.returncode == 1 and "`textfrag update --accept --write`" in checked.stderr, checked.stderr
    assert "accepting it is not enough" not in checked.stderr
    done = run(repo, "update", "--accept", "--write", "docs")
    assert done.returncode == 0, done.stderr
    assert f":emphasize-lines: {rst_now}\n" in rst.read_text(), rst.read_text()
    assert f'hl_lines="{md_now}"' in md.read_text(), md.read_text()
    assert run(repo, "check", "docs").returncode == 0


def test_the_make_command_a_changed_quote_recommends_prints_a_reference(repo: Path) -> None:
    """Every command a message recommends runs as written: the `textfrag make` of a quote whose
    text is gone names the file and the lines the range quotes now (not a bare `textfrag make`, which asks
    what to quote)."""
    (repo / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref_for(SRC, 4, 5)}\n")
    edited = SRC.replace("def f2():\n    return 2\n", "def g():\n    return 0\n")
    (repo / "src" / "mod.py").write_text(edited)
    git(repo, "commit", "-qam", "f2 is gone")
    checked = run(repo, "check", "docs")
    assert checked.returncode == 1
    made = re.search(r"`(textfrag make [^`]+)`", checked.stderr)
    assert made is not None and made.group(1) == "textfrag make src/mod.py --lines 4-5", checked.stderr
    printed = run(repo, *made.group(1).split()[1:])
    assert printed.returncode == 0 and printed.stdout.strip() == ref_for(edited, 4, 5), printed.stderr


@pytest.mark.parametrize(
    ("options", "md"),
    [
        (":start-at: def f3\n   :end-at: return 4", False),
        (":pyobject: f5", False),
        ('pyobject="f5"', True),
    ],
)
def test_the_make_command_an_intent_that_disagrees_recommends_pins_what_it_selects(repo: Path, options: str, md: bool) -> None:
    """A writer who changed the intent beside a current pin is told the `textfrag make` command
    that prints the reference pinning what the intent selects; run as written, its reference makes check
    pass (quoted markers included)."""
    ref = ref_for(SRC, 4, 5)
    doc = repo / "docs" / ("index.md" if md else "index.rst")
    doc.write_text(f"# T\n\n![](txtfrag:{ref}){{ {options} }}\n" if md else f"T\n=\n\n.. txtfrag:: {ref}\n   {options}\n")
    checked = run(repo, "check", "docs")
    assert checked.returncode == 2, checked.stderr
    made = re.search(r"`(textfrag make [^`]+)` prints the reference that pins them", checked.stderr)
    assert made is not None, checked.stderr
    import shlex

    printed = run(repo, *shlex.split(made.group(1))[1:])
    assert printed.returncode == 0, printed.stderr
    doc.write_text(doc.read_text().replace(ref, printed.stdout.splitlines()[0].strip()))
    assert run(repo, "check", "docs").returncode == 0, run(repo, "check", "docs").stderr
