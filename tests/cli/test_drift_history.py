"""Drift at real scale: renames, deletions, line endings, open ends, intents, --accept,
options that count source lines, and one pass over history.

Every test makes a real git repository with the git command line, edits it as a project would, and runs
`textfrag` as a process (or through ``main``). What a rewritten reference shows is compared with what the
original quoting tool shows: the excerpt the documentation showed before (a move keeps the text), or
Sphinx's own ``LiteralIncludeReader`` for a ``:pyobject:`` intent.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import subprocess
from pathlib import Path

from textfrag import SourceCache, quote
from textfrag.cli import main
from textfrag.drift.diffs import visible_diff

from ..processes import run_textfrag

# the same repository as the first drift tests: src/mod.py (30 lines) committed, an empty docs/
from . import test_update

SRC, git = test_update.SRC, test_update.git
repo = test_update.repo  # the fixture


def run(repo: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*argv, cwd=repo, timeout=120, env=env)


def commit(repo: Path, message: str = "edit") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def ref_for(data: bytes, first: int, last: int | None, path: str = "src/mod.py") -> str:
    """``line=first-1,last`` (open when ``last`` is None) with the length and md5 of ``data`` (UTF-8)."""
    text = data.decode()
    length = len(text) - text.count("\r\n")
    end = "" if last is None else str(last)
    return f"{path}#line={first - 1},{end};length={length};md5={hashlib.md5(data).hexdigest()}"


def show(repo: Path, ref: str) -> bytes:
    r = run_textfrag("show", ref, cwd=repo, timeout=60, text=False)
    assert r.returncode == 0, r.stderr
    return r.stdout


def reference_in(doc: Path) -> str:
    m = re.search(r"txtfrag:: (\S+)", doc.read_text())
    assert m is not None
    return m.group(1)


def directive(ref: str, *options: str) -> str:
    return "T\n=\n\n.. txtfrag:: " + ref + "\n" + "".join(f"   {o}\n" for o in options) + "\nEnd.\n"


# -- renames -------------------------------------------------------------------------------------------


def test_a_file_renamed_as_it_was_is_moved_and_update_rewrites_path_and_range(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    shown_before = show(repo, ref)
    git(repo, "mv", "src/mod.py", "src/module.py")  # R100
    commit(repo, "rename")

    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1, r.stderr
    assert "no such file: src/mod.py; git history shows it renamed to src/module.py in " in r.stderr
    assert "moved: the quoted text (lines 4-6 in " in r.stderr and "(new reference: src/module.py#line=3,6;" in r.stderr

    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    assert "renamed and moved -> src/module.py#line=3,6;" in w.stderr
    new = reference_in(doc)
    assert new.startswith("src/module.py#line=3,6;length=") and show(repo, new) == shown_before
    assert run(repo, "check", "--root", ".", "docs").returncode == 0


def test_an_edited_rename_is_followed_and_the_excerpt_found_at_its_new_lines(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 7, 9)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    shown_before = show(repo, ref)
    (repo / "src" / "mod.py").unlink()
    (repo / "src" / "pkg").mkdir()
    (repo / "src" / "pkg" / "mod.py").write_text("import os\n\n" + SRC)
    commit(repo, "move into a package, with an import")

    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    new = reference_in(doc)
    assert new.startswith("src/pkg/mod.py#line=8,11;") and show(repo, new) == shown_before


def test_a_rename_whose_excerpt_changed_names_the_rename_and_shows_the_diff(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    git(repo, "mv", "src/mod.py", "src/module.py")
    (repo / "src" / "module.py").write_text(SRC.replace("return 2", "return 22"))
    commit(repo, "rename and edit")
    r = run(repo, "update", "--write", "--root", ".", "docs")
    assert r.returncode == 1
    assert "git history shows it renamed and edited" not in r.stderr or "similar" in r.stderr
    assert "renamed" in r.stderr and "to src/module.py" in r.stderr and "is no longer in the file" in r.stderr
    assert "-    return 2\n+    return 22" in r.stderr
    assert reference_in(doc) == ref  # changed: left as it is


def test_a_deleted_file_says_so_and_when(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo)
    git(repo, "rm", "-q", "src/mod.py")
    commit(repo, "delete")
    short = git(repo, "rev-parse", "--short=10", "HEAD").strip()
    day = git(repo, "log", "-1", "--format=%cs").strip()
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 2
    assert f"no such file: src/mod.py; git history shows src/mod.py deleted in {short} ({day})" in r.stderr
    assert "Traceback" not in r.stderr


# -- line endings --------------------------------------------------------------------------------------


def test_a_conversion_from_crlf_to_lf_is_its_own_outcome_and_is_re_pinned(repo: Path) -> None:
    crlf = SRC.replace("\n", "\r\n").encode()
    (repo / "src" / "mod.py").write_bytes(crlf)
    ref = ref_for(crlf, 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo, "crlf")
    shown_before = show(repo, ref)
    (repo / "src" / "mod.py").write_bytes(SRC.encode())
    commit(repo, "to LF")

    q = quote(SourceCache(repo), ref)
    assert q.drift is not None and q.drift.kind == "invisible"
    r = run(repo, "check", "--root", ".", "docs", "--format", "json")
    assert '"drift": "invisible"' in r.stdout
    r = run(repo, "check", "--root", ".", "docs")
    assert "only line endings changed in the quoted lines (CR LF then, LF now)" in r.stderr
    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    new = reference_in(doc)
    assert new.startswith("src/mod.py#line=3,6;")
    assert show(repo, new).replace(b"\n", b"\r\n") == shown_before  # the same text, LF now


def test_a_diff_never_shows_two_lines_that_look_the_same_without_saying_what_differs() -> None:
    diff = visible_diff(["a\r\n", "b\r\n"], ["a\n", "c\n"], "old", "new")
    assert "-a\\r\\n" in diff and "+a\\n" in diff and "invisible characters spelled out" in diff
    plain = visible_diff(["a\n", "b\n"], ["a\n", "c\n"], "old", "new")
    assert "\\n" not in plain and "-b\n" in plain and plain.endswith("+c")
    # an added line like one left as it was (a closing bracket, a blank line) is no reason to spell anything out
    added = visible_diff([")\n", "x\n", "y\n"], [")\n", "x\n", "z = f(\n", ")\n", "y\n"], "old", "new")
    assert "\\n" not in added and "spelled out" not in added and "+z = f(\n+)\n" in added
    moved = visible_diff(["a = 1\n", "b = 2\n", "c = 3\n"], ["b = 2\n", "c = 3\n", "a = 1\n"], "old", "new")
    assert "spelled out" not in moved and "-a = 1\n" in moved and "+a = 1" in moved  # (the same line, moved)


def test_a_changed_line_in_a_file_that_also_changed_line_endings_is_changed_with_a_readable_diff(repo: Path) -> None:
    crlf = SRC.replace("\n", "\r\n").encode()
    (repo / "src" / "mod.py").write_bytes(crlf)
    ref = ref_for(crlf, 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo, "crlf")
    (repo / "src" / "mod.py").write_bytes(SRC.replace("return 2", "return 22").encode())
    commit(repo, "to LF and edit")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1 and "is no longer in the file" in r.stderr
    assert "-def f2():\\r\\n" in r.stderr and "+def f2():\\n" in r.stderr and "-    return 2\\r\\n" in r.stderr


def test_a_file_that_only_gained_a_byte_order_mark_is_invisible(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo)
    (repo / "src" / "mod.py").write_bytes(b"\xef\xbb\xbf" + SRC.encode())
    commit(repo, "bom")
    q = quote(SourceCache(repo), ref)
    assert q.drift is not None and q.drift.kind == "invisible"
    assert "its byte order mark was added" in q.drift.explanation


# -- open ends, intents, --accept ------------------------------------------------------------------------


def test_a_grown_whole_file_is_changed_and_accept_pins_the_whole_file_again(repo: Path) -> None:
    ref = "src/mod.py#line=0,;length=" + str(len(SRC)) + ";md5=" + hashlib.md5(SRC.encode()).hexdigest()
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    grown = SRC + "def f11():\n    return 11\n"
    (repo / "src" / "mod.py").write_text(grown)
    commit(repo, "append an example")

    plain = run(repo, "update", "--write", "--root", ".", "docs")
    assert plain.returncode == 1 and reference_in(doc) == ref  # never by default
    assert "the quote runs to the end of the file (lines 1-30 in " in plain.stderr and ", the whole file)" in plain.stderr

    dry = run(repo, "update", "--accept", "--root", ".", "docs")
    assert dry.returncode == 1 and reference_in(doc) == ref and "+def f11():" in dry.stderr
    wet = run(repo, "update", "--accept", "--write", "--root", ".", "docs")
    assert wet.returncode == 0, wet.stderr
    assert "accepted -> src/mod.py#line=0,;" in wet.stderr and "1 accepted" in wet.stdout
    new = reference_in(doc)
    assert new == f"src/mod.py#line=0,;length={len(grown)};md5={hashlib.md5(grown.encode()).hexdigest()}"
    assert show(repo, new) == grown.encode()


def sphinx_pyobject(path: Path, name: str) -> str:
    from sphinx.config import Config
    from sphinx.directives.code import LiteralIncludeReader
    from sphinx.pycode import ModuleAnalyzer

    ModuleAnalyzer.cache.clear()  # it caches by file name, and the file changed
    content, _ = LiteralIncludeReader(str(path), {"pyobject": name}, Config({}, {})).read()
    return content


def test_a_pyobject_intent_re_resolves_a_moved_and_a_grown_function(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 7, 8)  # def f3 (lines 7-8)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref, ":pyobject: f3"))
    commit(repo)
    # a copy of f3's text elsewhere would make a plain search ambiguous; the intent says which one
    moved = "import os\n\n" + SRC + "def f3_again():\n    pass\n"
    (repo / "src" / "mod.py").write_text(moved)
    commit(repo, "move")
    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    assert show(repo, reference_in(doc)).decode() == sphinx_pyobject(repo / "src" / "mod.py", "f3")
    assert ":pyobject: f3" in doc.read_text()
    commit(repo, "doc")

    grown = moved.replace("    return 3\n", "    x = 3\n    return x\n")
    (repo / "src" / "mod.py").write_text(grown)
    commit(repo, "grow f3")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1 and ":pyobject: f3 selects different text now (lines 9-11;" in r.stderr
    assert run(repo, "update", "--write", "--root", ".", "docs").returncode == 1  # changed: review first
    a = run(repo, "update", "--accept", "--write", "--root", ".", "docs")
    assert a.returncode == 0, a.stderr
    assert show(repo, reference_in(doc)).decode() == sphinx_pyobject(repo / "src" / "mod.py", "f3")


def test_a_vanished_pyobject_is_changed_and_never_accepted(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 7, 8)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref, ":pyobject: f3"))
    commit(repo)
    (repo / "src" / "mod.py").write_text(SRC.replace("def f3():", "def g3():"))
    commit(repo, "rename f3")
    r = run(repo, "update", "--accept", "--write", "--root", ".", "docs")
    assert r.returncode == 1 and ":pyobject: f3 no longer selects anything" in r.stderr
    assert reference_in(doc) == ref


def test_accept_is_limited_to_the_places_named(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref) + "\n.. txtfrag:: " + ref + "\n")
    commit(repo)
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2", "return 22"))
    commit(repo, "edit")
    out, err = io.StringIO(), io.StringIO()
    code = main(["update", "--accept", "--write", "--root", str(repo), f"{doc}:4"], stdout=out, stderr=err)
    assert code == 1, err.getvalue()
    text = doc.read_text()
    assert text.count(ref) == 1  # the reference at line 9 is left as it is
    assert "rewrote 1 accepted reference in 1 document" in out.getvalue()


# -- options that count source lines ---------------------------------------------------------------------


def test_emphasis_and_lineno_start_follow_a_move(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref, ":emphasize-lines: 5", ":lineno-start: 4", ":caption: f2"))
    commit(repo)
    (repo / "src" / "mod.py").write_text("# one\n# two\n" + SRC)
    commit(repo, "header")
    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    text = doc.read_text()
    assert ":emphasize-lines: 7\n" in text and ":lineno-start: 6\n" in text and ":caption: f2\n" in text
    assert reference_in(doc).startswith("src/mod.py#line=5,8;")


def test_a_highlighted_line_that_changed_keeps_its_place_when_the_change_is_accepted(repo: Path) -> None:
    """Advice that works: check recommends ``update --accept --write`` for a changed quote; with a
    highlighted line that itself changed it used to refuse. The reviewed change is accepted, the line stays
    highlighted where it is in the quote, and check then passes."""
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    before = directive(ref, ":emphasize-lines: 5")
    doc.write_text(before)
    commit(repo)
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2", "return 22"))
    commit(repo, "edit the highlighted line")
    plain = run(repo, "update", "--write", "--root", ".", "docs")
    assert plain.returncode == 1 and doc.read_text() == before  # a change is never rewritten unreviewed
    r = run(repo, "update", "--accept", "--write", "--root", ".", "docs")
    assert r.returncode == 0, r.stderr
    assert doc.read_text() == directive(ref_for(SRC.replace("return 2", "return 22").encode(), 4, 6), ":emphasize-lines: 5")
    assert run(repo, "check", "--root", ".", "docs").returncode == 0


def test_a_mkdocs_attribute_list_intent_is_used(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 7, 8)
    doc = repo / "docs" / "index.md"
    doc.write_text(f'# T\n\n![](txtfrag:{ref}){{ .python pyobject="f3" hl_lines="2" }}\n')
    commit(repo)
    (repo / "src" / "mod.py").write_text("import os\n" + SRC + "def f3_again():\n    pass\n")
    commit(repo, "move")
    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    assert 'pyobject="f3" hl_lines="2" }' in doc.read_text()  # hl_lines counts in the excerpt: unchanged
    assert "src/mod.py#line=7,9;" in doc.read_text()


# -- one pass over history --------------------------------------------------------------------------------


def test_history_is_read_in_one_pass_for_every_stale_file(repo: Path, tmp_path: Path) -> None:
    files = [f"src/m{i}.py" for i in range(6)]
    refs = []
    for f in files:
        (repo / f).write_text(SRC)
        refs.append(ref_for(SRC.encode(), 4, 6, f))
    (repo / "docs" / "index.rst").write_text("".join(directive(r) for r in refs))
    commit(repo)
    for n in range(5):  # history the files are not in
        (repo / "src" / "other.txt").write_text(str(n))
        commit(repo, f"other {n}")
    for f in files:
        (repo / f).write_text("# top\n" + SRC)
    commit(repo, "headers")
    trace = tmp_path / "trace.txt"
    env = dict(os.environ, GIT_TRACE=str(trace))
    r = run(repo, "check", "--root", ".", "docs", env=env)
    assert r.returncode == 1 and r.stderr.count("moved: the quoted text") == 6
    calls = [line for line in trace.read_text().splitlines() if "trace: built-in: git" in line]
    logs = [c for c in calls if "git log" in c]
    assert len(logs) == 1, logs  # not one `git log --follow` per reference
    assert sum("cat-file" in c for c in calls) <= 2


def test_a_rename_out_of_the_root_is_named_and_never_written(repo: Path) -> None:
    root = repo / "site"
    (root / "docs").mkdir(parents=True)
    (root / "src").mkdir()
    git(repo, "mv", "src/mod.py", "site/src/mod.py")
    commit(repo, "into the site")
    ref = ref_for(SRC.encode(), 4, 6)
    doc = root / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    git(repo, "mv", "site/src/mod.py", "outside.py")  # leaves the root the references are relative to
    commit(repo, "out")
    r = run(root, "update", "--write", "--root", ".", "docs")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "git history shows it renamed to outside.py in " in r.stderr and "outside the root" in r.stderr
    assert reference_in(doc) == ref


def test_an_old_version_over_the_size_limit_is_never_read(repo: Path) -> None:
    big = SRC * 200
    (repo / "src" / "mod.py").write_text(big)
    ref = ref_for(big.encode(), 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo, "big")
    (repo / "src" / "mod.py").write_text(SRC)  # small now, so the limit lets the file itself be read
    commit(repo, "small")
    r = run(repo, "check", "--root", ".", "--max-size", str(len(SRC) + 10), "docs")
    assert r.returncode == 1 and "moved or changed is unknown" in r.stderr and "Traceback" not in r.stderr


def test_a_short_quote_found_once_elsewhere_is_not_taken_for_a_move(repo: Path) -> None:
    """A line or two may occur once by chance: it is moved only where a line beside it moved with it."""
    src = "def a():\n    x = compute()\n    return x\n\n\ndef b():\n    pass\n"
    (repo / "src" / "mod.py").write_text(src)
    ref = ref_for(src.encode(), 2, 2)  # "    x = compute()"
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    # a() no longer computes x; b() now does: the same line, elsewhere, among other lines
    (repo / "src" / "mod.py").write_text("def a():\n    return 0\n\n\ndef b():\n    y = 1\n    x = compute()\n")
    commit(repo, "rewrite")
    r = run(repo, "update", "--write", "--root", ".", "docs")
    assert r.returncode == 1 and "the lines around it are not the ones it had" in r.stderr
    assert reference_in(doc) == ref
    # the same line moved with its function: a move
    (repo / "src" / "mod.py").write_text("import os\n\n\n" + src)
    commit(repo, "header")
    w = run(repo, "update", "--write", "--root", ".", "docs")
    assert w.returncode == 0, w.stderr
    assert reference_in(doc).startswith("src/mod.py#line=4,5;")


def test_a_shallow_clone_says_why_moved_or_changed_is_unknown_and_how_to_fetch_the_history(repo: Path, tmp_path: Path) -> None:
    """In a shallow clone (CI's default) the version a reference was made for is not there;
    the message says the clone is shallow and how to fetch the history."""
    ref = ref_for(SRC.encode(), 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo)
    (repo / "src" / "mod.py").write_text("import os\n" + SRC)
    commit(repo, "move")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True)
    r = run(clone, "check", "--root", ".", "docs")
    assert r.returncode == 1
    assert "this clone is shallow" in r.stderr and "git fetch --unshallow" in r.stderr and "fetch-depth: 0" in r.stderr
    full = run(repo, "check", "--root", ".", "docs")
    assert "moved:" in full.stderr and "shallow" not in full.stderr


def test_a_rename_staged_but_not_committed_is_followed(repo: Path) -> None:
    """`git mv` then the pre-commit update hook: the staged rename is followed, and so is a
    file moved in the work tree only (the same content under a new, untracked name)."""
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    git(repo, "mv", "src/mod.py", "src/renamed.py")
    r = run(repo, "update", "--write", "--root", ".", "docs")
    assert r.returncode == 0, r.stderr
    assert "src/renamed.py#line=3,6;" in doc.read_text()
    assert run(repo, "check", "--root", ".", "docs").returncode == 0
    git(repo, "mv", "src/renamed.py", "src/mod.py")  # back, then a plain move of the work tree
    doc.write_text(directive(ref))
    (repo / "src" / "mod.py").rename(repo / "src" / "moved.py")
    c = run(repo, "check", "--root", ".", "docs")
    assert c.returncode == 1 and "it was moved to src/moved.py in the work tree (not committed yet" in c.stderr, c.stderr
    assert run(repo, "update", "--write", "--root", ".", "docs").returncode == 0
    assert "src/moved.py#line=3,6;" in doc.read_text()


def test_a_version_a_merge_made_is_found(repo: Path) -> None:
    """A merge that resolves a conflict makes a version no commit's diff shows (git log shows no diff of a
    merge): the version before the next change is looked at too, so the drift is told, not unknown."""
    base = git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2", "return 'side'"))
    commit(repo, "side")
    git(repo, "checkout", "-q", base)
    (repo / "src" / "mod.py").write_text(SRC.replace("return 2", "return 'main'"))
    commit(repo, "main")
    subprocess.run(["git", "merge", "-q", "side"], cwd=repo, capture_output=True)  # (a conflict)
    merged = SRC.replace("return 2", "return 'both'").encode()
    (repo / "src" / "mod.py").write_bytes(merged)
    commit(repo, "merge, resolved")
    doc = repo / "docs" / "index.rst"
    doc.write_text(f"T\n=\n\n.. txtfrag:: {ref_for(merged, 4, 6)}\n")
    (repo / "src" / "mod.py").write_bytes(b"# a first line\n" + merged)
    commit(repo, "a line above")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1, r.stderr
    assert "moved" in r.stderr and "unknown" not in r.stderr, r.stderr
    assert "^" in r.stderr.split("moved", 1)[1] or "new reference" in r.stderr
    r = run(repo, "update", "--write", "--root", ".", "docs")
    assert r.returncode == 0, r.stderr
    assert show(repo, reference_in(doc)) == b"def f2():\n    return 'both'\n\n"
