"""Drift as the field trials met it: a file copied and then deleted (FastAPI's examples) is
followed into its copy, and a line quote moves only to whole lines (Pyramid's re-indented ``config.scan()``
is changed, never a mid-line ``char=`` range). Real git repositories, ``textfrag`` as a process."""

from __future__ import annotations

from pathlib import Path

from .test_drift_history import SRC, commit, directive, git, ref_for, reference_in, repo, run, show

__all__ = ["repo"]  # the fixture


def test_a_file_copied_then_deleted_is_followed_into_its_copy(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    shown_before = show(repo, ref)
    (repo / "src" / "mod_new.py").write_text("# the newer example\n" + SRC)  # copied (and edited a little)
    commit(repo, "copy")
    (repo / "src" / "other.py").write_text("print('unrelated')\n")
    commit(repo, "other work")
    git(repo, "rm", "-q", "src/mod.py")
    commit(repo, "drop the old copy")

    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1, r.stderr
    assert "no such file: src/mod.py; git history shows src/mod.py deleted in " in r.stderr
    assert "its text is in src/mod_new.py (a copy git pairs with it): moved:" in r.stderr
    w = run(repo, "update", "--root", ".", "--write", "docs")
    assert w.returncode == 0, w.stderr
    new = reference_in(doc)
    assert new.startswith("src/mod_new.py#line=4,7;")
    assert show(repo, new) == shown_before
    assert run(repo, "check", "--root", ".", "docs").returncode == 0


def test_a_deleted_file_whose_text_is_in_two_copies_is_not_guessed(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    (repo / "src" / "a.py").write_text("# a\n" + SRC)
    (repo / "src" / "b.py").write_text("# b\n\n" + SRC)
    commit(repo, "two copies")
    git(repo, "rm", "-q", "src/mod.py")
    commit(repo, "drop the original")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 2, r.stderr
    assert "its quoted text is now in 2 files (src/a.py, src/b.py); textfrag will not guess which" in r.stderr
    before = doc.read_bytes()
    run(repo, "update", "--root", ".", "--write", "docs")
    assert doc.read_bytes() == before


def test_a_deleted_file_whose_text_is_gone_says_deleted(repo: Path) -> None:
    ref = ref_for(SRC.encode(), 4, 6)
    (repo / "docs" / "index.rst").write_text(directive(ref))
    commit(repo)
    (repo / "src" / "new.py").write_text("nothing alike\n")
    git(repo, "rm", "-q", "src/mod.py")
    commit(repo, "replace")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 2 and "git history shows src/mod.py deleted in " in r.stderr and "its text" not in r.stderr


def test_a_re_indented_line_quote_is_changed_not_moved_to_a_character_range(repo: Path) -> None:
    text = "def main():\n    config = make()\n    config.scan()\n    return config\n"
    (repo / "src" / "app.py").write_text(text)
    ref = ref_for(text.encode(), 3, 3, "src/app.py")
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    (repo / "src" / "app.py").write_text(
        "def main():\n    config = make()\n    with config:\n        config.scan()\n    return config\n"
    )
    commit(repo, "re-indent")
    r = run(repo, "check", "--root", ".", "docs")
    assert r.returncode == 1
    assert "moved" not in r.stderr.split("\n")[0] and "changed" in r.stderr, r.stderr
    before = doc.read_bytes()
    run(repo, "update", "--root", ".", "--write", "docs")
    assert doc.read_bytes() == before  # nothing rewritten: no #char= range
    accepted = run(repo, "update", "--root", ".", "--accept", "--write", "docs")
    assert accepted.returncode == 0, accepted.stderr
    assert "#line=" in reference_in(doc) and "#char=" not in reference_in(doc)


def test_a_line_quote_that_moved_as_whole_lines_is_still_moved(repo: Path) -> None:
    text = "a = 1\nb = 2\nc = 3\n"
    (repo / "src" / "app.py").write_text(text)
    ref = ref_for(text.encode(), 2, 3, "src/app.py")
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    (repo / "src" / "app.py").write_text("# head\nx = 0\n" + text)
    commit(repo, "head")
    assert run(repo, "update", "--root", ".", "--write", "docs").returncode == 0
    assert reference_in(doc).startswith("src/app.py#line=3,5;")


def test_the_copy_is_found_among_many_other_changed_files(repo: Path) -> None:
    # FastAPI's case: the copies were made in a commit that changed hundreds of documents too
    ref = ref_for(SRC.encode(), 4, 6)
    doc = repo / "docs" / "index.rst"
    doc.write_text(directive(ref))
    commit(repo)
    for i in range(450):  # listed before src/ by git
        (repo / "aaa" / f"page{i:03}.md").parent.mkdir(exist_ok=True)
        (repo / "aaa" / f"page{i:03}.md").write_text(f"page {i}\n")
    (repo / "src" / "mod_py310.py").write_text(SRC)
    commit(repo, "copy, among many")
    git(repo, "rm", "-q", "src/mod.py")
    commit(repo, "drop")
    assert run(repo, "update", "--root", ".", "--write", "docs").returncode == 0
    assert reference_in(doc).startswith("src/mod_py310.py#line=3,6;")
