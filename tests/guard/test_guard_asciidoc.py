"""Guard mode on AsciiDoc, which has no configuration: with ``TEXTFRAG_GUARD=1``, a folder of ``.adoc``
documents is a project, and ``pin --write``, ``check`` and ``update --write`` guard its ``include::``
directives (``lines=``, ``tag=``/``tags=``, ``indent=``, a document attribute in the file's name). The truth
is Asciidoctor itself (Asciidoctor.js, from the npm registry beside the venv, as the Makefile installs it):
the source of each listing block after its include."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ..processes import run_textfrag

MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent  # (.bin: a link)
CORE = MODULES / "@asciidoctor" / "core"


def _engine() -> None:
    if shutil.which("node") is None or not CORE.is_dir():
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("Asciidoctor.js is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip("Asciidoctor.js (npm @asciidoctor/core, installed by the Makefile) is not installed")


SHOWN = """\
const core = require(process.argv[2]);
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
const doc = asciidoctor.loadFile(process.argv[3], {safe: "unsafe"});
console.log(JSON.stringify(doc.findBy({context: "listing"}).map((b) => b.getSource())));
"""

APP = "line 1\n// tag::body[]\nline 3  \n\tline 4\r\n// end::body[]\nline 6\n    indented 7\n  // tag::in[] x\nline 9\n// end::in[]\n"

FORMS = [
    "include::src/app.txt[]",
    "include::src/app.txt[lines=2..4]",
    "include::src/app.txt[lines=3]",
    "include::src/app.txt[lines=1;6..-1]",
    'include::src/app.txt[lines="6..,1"]',
    "include::src/app.txt[lines=6..7,indent=2]",
    "include::src/app.txt[tag=body]",
    "include::src/app.txt[tags=body;in]",
    "include::{code}/app.txt[lines=3..4]",
    # negated tags and wildcards, over nested tags (Asciidoctor: the innermost tag named decides)
    "include::src/nested.txt[tags=outer;!inner]",
    "include::src/nested.txt[tag=!inner]",
    "include::src/nested.txt[tags=*]",
    "include::src/nested.txt[tags=**]",
    "include::src/nested.txt[tags=**;!outer]",
    "include::src/nested.txt[tags=*;!inner]",
    "include::src/nested.txt[tags=!*]",
    'include::src/nested.txt[tags="inner,other"]',
]
NESTED = "a\n// tag::outer[]\nb\n// tag::inner[]\nc\n// end::inner[]\nd\n// end::outer[]\ne\n# tag::other[]\nf\n# end::other[]\n"


def _document(forms: list[str]) -> str:
    body = "".join(f"[source]\n----\n{form}\n----\n\n" for form in forms)
    return f"= Title\n:code: src\n\nText.\n\n\\include::src/gone.txt[] is text.\n\n{body}"


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    _engine()
    (tmp_path / "docs" / "src").mkdir(parents=True)
    (tmp_path / "docs" / "src" / "app.txt").write_text(APP, encoding="utf-8", newline="")
    (tmp_path / "docs" / "src" / "nested.txt").write_text(NESTED, encoding="utf-8")
    (tmp_path / "docs" / "guide.adoc").write_text(_document(FORMS), encoding="utf-8")
    (tmp_path / "shown.js").write_text(SHOWN, encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "start")
    return tmp_path


def _shown(project: Path) -> list[str]:
    r = subprocess.run(
        ["node", str(project / "shown.js"), str(CORE), str(project / "docs" / "guide.adoc")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return list(json.loads(r.stdout))


def _textfrag(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    return run_textfrag(*args, cwd=project, env=env, timeout=120)


def test_every_include_form_is_recorded_as_asciidoctor_shows_it(project: Path) -> None:
    texts = _shown(project)
    assert len(texts) == len(FORMS)
    r = _textfrag(project, "pin", "--write", "docs")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the AsciiDoc documents under docs" in r.stderr and f"recorded {len(FORMS)} includes" in r.stdout, r.stdout + r.stderr
    recorded = json.loads((project / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["guide.adoc"]
    for form, text in zip(FORMS, texts, strict=True):
        key = form.replace('"', "") + (" {code=src}" if "{code}" in form else "")  # (the attribute's value: part of the key)
        assert recorded[key] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}", (form, text)
    assert "gone.txt" not in json.dumps(recorded)  # (an escaped include is text)
    checked = _textfrag(project, "check", "docs")
    assert checked.returncode == 0 and f"{len(FORMS)} includes in 1 document: all current" in checked.stdout, checked.stdout


def test_a_moved_range_is_repaired_and_asciidoctor_shows_the_recorded_text_again(project: Path) -> None:
    before = _shown(project)
    assert _textfrag(project, "pin", "--write", "docs").returncode == 0
    app = project / "docs" / "src" / "app.txt"
    app.write_bytes(b"one line more\n" + app.read_bytes())
    _git(project, "commit", "-qam", "a line above")
    checked = _textfrag(project, "check", "docs")
    assert checked.returncode == 1
    assert "guide.adoc:15: include::src/app.txt[lines=2..4]: it shows other text" in checked.stderr, checked.stderr
    assert "moved: the recorded text is in the file 1 line further down" in checked.stderr, checked.stderr
    assert _textfrag(project, "update", "--write", "docs").returncode == 1  # (what changed is left)
    document = (project / "docs" / "guide.adoc").read_text(encoding="utf-8")
    for new in ("[lines=3..5]", "[lines=4]", "[lines=2;7..-1]", '[lines="7..,2"]', "[lines=7..8,indent=2]", "[lines=4..5]"):
        assert new in document, document
    after = _shown(project)
    for k, form in enumerate(FORMS):
        if form != "include::src/app.txt[]":
            assert after[k] == before[k], form
    again = _textfrag(project, "check", "docs")
    stale = {line.split(": ")[1] for line in again.stderr.splitlines() if "it shows other text" in line}
    # (what a line above changes as Asciidoctor shows it: the whole file; every range followed its text)
    assert stale == {"include::src/app.txt[]"}, again.stderr


def test_a_change_inside_is_caught_with_its_diff_an_unknown_attribute_is_a_located_problem(project: Path) -> None:
    assert _textfrag(project, "pin", "--write", "docs").returncode == 0
    app = project / "docs" / "src" / "app.txt"
    app.write_text(APP.replace("line 3", "line three"), encoding="utf-8", newline="")
    _git(project, "commit", "-qam", "inside")
    checked = _textfrag(project, "check", "docs")
    assert "include::src/app.txt[tag=body]: it shows other text" in checked.stderr and "changed" in checked.stderr
    assert "-line 3" in checked.stderr and "+line three" in checked.stderr, checked.stderr
    (project / "docs" / "other.adoc").write_text("= O\n\n----\ninclude::{nowhere}/app.txt[]\n----\n", encoding="utf-8")
    r = _textfrag(project, "check", "docs")
    assert "other.adoc:4: include::{nowhere}/app.txt[]:" in r.stderr and "{nowhere}" in r.stderr, r.stderr


def test_a_line_range_that_is_no_numbers_is_a_located_problem_never_a_traceback(project: Path) -> None:
    (project / "docs" / "guide.adoc").write_text("= G\n\n----\ninclude::src/app.txt[lines=a..b]\n----\n", encoding="utf-8")
    r = _textfrag(project, "check", "docs")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "docs/guide.adoc:4: include::src/app.txt[lines=a..b]:" in r.stderr and "names no lines" in r.stderr, r.stderr


def test_a_tag_the_file_does_not_have_is_a_located_problem(project: Path) -> None:
    doc = project / "docs" / "guide.adoc"
    doc.write_text(
        _document(["include::src/nested.txt[tags=inner;gone]", "include::src/nested.txt[tag=!gone]"]), encoding="utf-8"
    )
    shown = _shown(project)
    assert shown == ["c", "a\nb\nc\nd\ne\nf"]  # (Asciidoctor warns, and shows the rest)
    r = _textfrag(project, "check", "docs")
    assert r.returncode == 2, r.stderr
    for line in (10, 15):
        assert f"guide.adoc:{line}: include::src/nested.txt[" in r.stderr
    assert r.stderr.count("the file has no tag::gone[]") == 2, r.stderr


def test_what_it_includes_is_preprocessed_in_turn_as_asciidoctor_does(project: Path) -> None:
    (project / "docs" / "src" / "ex.adoc").write_text(
        "// tag::escaped[]\n\\include::other.txt[lines=1..2]\n\\ifdef::x[]\ntext\n// end::escaped[]\n"
        "// tag::nested[]\ninclude::app.txt[lines=1]\n// end::nested[]\n",
        encoding="utf-8",
    )
    doc = project / "docs" / "guide.adoc"
    doc.write_text(_document(["include::src/ex.adoc[tag=escaped]"]), encoding="utf-8")
    assert _shown(project) == ["include::other.txt[lines=1..2]\nifdef::x[]\ntext"]  # (the backslashes gone)
    assert _textfrag(project, "pin", "--write", "docs").returncode == 0
    recorded = json.loads((project / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["guide.adoc"]
    text = "include::other.txt[lines=1..2]\nifdef::x[]\ntext"
    assert recorded["include::src/ex.adoc[tag=escaped]"] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    doc.write_text(_document(["include::src/ex.adoc[tag=nested]"]), encoding="utf-8")
    r = _textfrag(project, "check", "docs")
    assert r.returncode == 2 and "line 7 of what it includes is an AsciiDoc include directive" in r.stderr, r.stderr


def test_attributes_and_includes_are_read_where_asciidoctor_reads_them(project: Path) -> None:
    """An attribute entry in a region ``ifdef`` skips, in a literal block or in a comment block is not the
    attribute's value (Asciidoctor ignores it); an include in a skipped region or a comment is not one; an
    include with blanks after it is one; one file name under two values of its attribute is two includes.
    What textfrag records is what Asciidoctor shows, include by include."""
    src = project / "docs" / "src"
    (src / "a.txt").write_text("from a\n", encoding="utf-8")
    (src / "b.txt").write_text("from b\n", encoding="utf-8")
    doc = project / "docs" / "guide.adoc"
    doc.write_text(
        "= G\n:x: a\n\n"
        "ifdef::never[]\n:x: b\n----\ninclude::src/gone.txt[]\n----\nendif::[]\n\n"
        "....\n:x: b\n....\n\n////\n:x: b\ninclude::src/gone.txt[]\n////\n\n"
        "ifndef::never[]\n[source]\n----\ninclude::src/{x}.txt[]   \n----\nendif::[]\n\n"
        ":x: b\n\n[source]\n----\ninclude::src/{x}.txt[]\n----\n",
        encoding="utf-8",
    )
    assert _shown(project) == ["from a", "from b"]
    pinned = _textfrag(project, "pin", "--write", "docs")
    assert pinned.returncode == 0 and "recorded 2 includes" in pinned.stdout, pinned.stdout + pinned.stderr
    recorded = json.loads((project / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["guide.adoc"]
    assert recorded == {
        "include::src/{x}.txt[] {x=a}": f"length=6;md5={hashlib.md5(b'from a').hexdigest()}",
        "include::src/{x}.txt[] {x=b}": f"length=6;md5={hashlib.md5(b'from b').hexdigest()}",
    }
    (src / "a.txt").write_text("from a, changed\n", encoding="utf-8")
    checked = _textfrag(project, "check", "docs")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "guide.adoc:23: include::src/{x}.txt[] {x=a}: it shows other text" in checked.stderr, checked.stderr
    assert "guide.adoc:30:" not in checked.stderr and "gone.txt" not in checked.stderr, checked.stderr


def test_numbers_that_would_size_an_allocation_are_bounded_by_the_file(project: Path) -> None:
    """``lines=1..300000000`` of a three-line file is its three lines, as Asciidoctor shows them for a range
    it can count (23 GB before; Asciidoctor.js itself runs out of memory at that range, and shows the three
    lines for ``1..300000``); ``indent=1000000000`` is a located problem, never a gigabyte a line; both
    under 1 GB of memory."""
    (project / "docs" / "src" / "three.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    doc = project / "docs" / "guide.adoc"
    doc.write_text(_document(["include::src/three.txt[lines=1..300000]"]), encoding="utf-8")
    assert _shown(project) == ["one\ntwo\nthree"]
    doc.write_text(_document(["include::src/three.txt[lines=1..300000000]"]), encoding="utf-8")
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    r = run_textfrag("pin", "--write", "docs", cwd=project, env=env, timeout=120, memory=1 << 30)
    assert r.returncode == 0 and "recorded 1 include" in r.stdout, r.stdout + r.stderr
    recorded = json.loads((project / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"]["guide.adoc"]
    shown = "one\ntwo\nthree"
    assert recorded == {"include::src/three.txt[lines=1..300000000]": f"length=13;md5={hashlib.md5(shown.encode()).hexdigest()}"}
    doc.write_text(_document(["include::src/three.txt[indent=1000000000]"]), encoding="utf-8")
    r = run_textfrag("check", "docs", cwd=project, env=env, timeout=120, memory=1 << 30)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "guide.adoc:10: include::src/three.txt[indent=1000000000]: indent=1000000000 is more than" in r.stderr, r.stderr
