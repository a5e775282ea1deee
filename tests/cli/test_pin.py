"""Pinning: unpinned references are counted, required on demand, and pinned in place by
``textfrag pin``. Run as the installed command (a process) and through ``main(argv)``; the pre-commit hook
through ``pre-commit try-repo``."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from textfrag.cli import main

from ..conftest import commit_all
from ..processes import run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 21))
MD5 = hashlib.md5(APP.encode()).hexdigest()
PIN = f"length={len(APP)};md5={MD5}"
ENV = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""}


def run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return run_textfrag(*argv, cwd=root, timeout=120, env=ENV)


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "p"
    (r / "src").mkdir(parents=True)
    (r / "docs").mkdir()
    (r / "src" / "app.py").write_text(APP)
    (r / "src" / "latin.txt").write_bytes("caf\xe9\nna\xefve\n".encode("latin-1"))
    return r


# what each form of reference becomes: (as written, as pinned); None: left as it is
FORMS = [
    ("src/app.py#line=10,20", f"src/app.py#line=10,20;{PIN}"),
    ("src/app.py#line=10,", f"src/app.py#line=10,;{PIN}"),  # an open end stays open
    ("src/app.py#char=0,4", f"src/app.py#char=0,4;{PIN}"),  # char= stays char=
    ("src/app.py", f"src/app.py#line=0,;{PIN}"),  # the whole file: open to the end
    (f"src/app.py#line=1,2;length={len(APP)}", f"src/app.py#line=1,2;length={len(APP)};md5={MD5}"),  # its length kept
    ("src/app.py#line=1,2;sha256=abc", f"src/app.py#line=1,2;sha256=abc;{PIN}"),  # an unknown check kept
    ("src/app.py#L11-L20", f"src/app.py#line=10,20;{PIN}"),  # GitHub
    ("src/app.py#11", f"src/app.py#line=10,11;{PIN}"),  # w3m
    ("src/app.py#line(11,20)", f"src/app.py#line=10,20;{PIN}"),  # draft-wilde
    ("src/app.py#:words:(line-12)", None),  # a text search: left
    ("src/app.py#:~:text=line%2012", None),
    ("src/app.py#match(line 13)", None),
    (f"src/app.py#line=1,2;{PIN}", None),  # pinned already
]


@pytest.mark.parametrize(("written", "pinned"), FORMS, ids=[w for w, _ in FORMS])
def test_pin_gives_each_form_its_pinned_reference(root: Path, written: str, pinned: str | None) -> None:
    doc = root / "docs" / "a.md"
    doc.write_text(f"# T\n\n![](txtfrag:{written})\n")
    code, out, err = call("pin", "--root", str(root), "--write", str(root / "docs"))
    assert code == 0, err
    text = doc.read_text()
    if pinned is None:
        assert text == f"# T\n\n![](txtfrag:{written})\n"
    else:
        assert text == f"# T\n\n![](txtfrag:{pinned})\n"
        # and it shows the same text as before
        assert call("check", "--root", str(root), "--require-pin", str(doc))[0] == 0


def test_convert_pins_text_searches_to_what_they_find_now(root: Path) -> None:
    doc = root / "docs" / "a.md"
    doc.write_text("![](txtfrag:src/app.py#:words:(line-12))\n")
    assert call("pin", "--root", str(root), "--write", str(doc))[0] == 0
    assert "left as it is: a text search" in call("pin", "--root", str(root), str(doc))[2]
    assert call("pin", "--root", str(root), "--convert", "--write", str(doc))[0] == 0
    assert doc.read_text() == f"![](txtfrag:src/app.py#char=79,86;{PIN})\n"


def test_every_kind_of_place_in_rst_markdown_and_myst(root: Path) -> None:
    (root / "docs" / "a.rst").write_text(
        "T\n=\n\n.. txtfrag:: src/app.py#line=0,1\n   :diff: src/app.py#line=1,2\n\nInline :txtfrag:`src/app.py#char=0,4`.\n"
    )
    (root / "docs" / "b.md").write_text(
        "![cap](txtfrag:src/app.py#L1)\n\nA [link](txtfrag:src/app.py#L2) and [ref][d].\n\n[d]: txtfrag:src/app.py#L3\n"
    )
    (root / "docs" / "c.md").write_text("```{txtfrag} src/app.py#L4\n```\n\nA {txtfrag}`src/app.py#L5` role.\n")
    r = run(root, "pin", "--root", ".", "--write", "docs")
    assert r.returncode == 0, r.stderr
    assert "pinned 8 references in 3 documents; 0 left as they are, 0 stale, 0 bad" in r.stdout
    for name in ("a.rst", "b.md", "c.md"):
        assert "md5=" + MD5 in (root / "docs" / name).read_text()
    r = run(root, "check", "--root", ".", "--require-pin", "docs")
    assert r.returncode == 0 and "unpinned" not in r.stdout, r.stdout + r.stderr


def test_without_write_it_prints_a_patch_git_applies_and_changes_nothing(root: Path) -> None:
    doc = root / "docs" / "a.md"
    doc.write_text("# T\n\n![](txtfrag:src/app.py#L2-L3)\n")
    commit_all(root)
    r = run(root, "pin", "--root", ".", "docs")
    assert r.returncode == 0 and "1 reference would be pinned in 1 document (run with --write)" in r.stdout
    assert doc.read_text() == "# T\n\n![](txtfrag:src/app.py#L2-L3)\n"
    patch = root.parent / "pin.patch"
    patch.write_text(r.stdout.split("textfrag pin:")[0])
    applied = subprocess.run(["git", "apply", str(patch)], cwd=root, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    assert doc.read_text() == f"# T\n\n![](txtfrag:src/app.py#line=1,3;{PIN})\n"


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("crlf.md", b"# T\r\n\r\n![](txtfrag:src/app.py#line=0,1)\r\nend\r\n"),
        ("bom.rst", b"\xef\xbb\xbfT\n=\n\n.. txtfrag:: src/app.py#line=0,1\n   :caption: caf\xc3\xa9\n"),
        ("cr.md", b"# T\r\r![](txtfrag:src/app.py#line=0,1)\r"),
        ("no-eol.md", b"![](txtfrag:src/app.py#line=0,1)"),
    ],
)
def test_pin_changes_no_other_byte_and_is_idempotent(root: Path, name: str, raw: bytes) -> None:
    doc = root / "docs" / name
    doc.write_bytes(raw)
    assert call("pin", "--root", str(root), "--write", str(doc))[0] == 0
    assert doc.read_bytes() == raw.replace(b"#line=0,1", f"#line=0,1;{PIN}".encode())
    once = doc.read_bytes()
    code, _, err = call("pin", "--root", str(root), "--write", str(doc))
    assert code == 0 and doc.read_bytes() == once


def test_a_quoted_file_in_another_charset_is_pinned_in_it(root: Path) -> None:
    doc = root / "docs" / "a.rst"
    doc.write_text("T\n=\n\n.. txtfrag:: src/latin.txt#line=0,1\n   :encoding: latin-1\n")
    assert call("pin", "--root", str(root), "--write", str(doc))[0] == 0
    data = (root / "src" / "latin.txt").read_bytes()
    assert f"#line=0,1;length=11,latin-1;md5={hashlib.md5(data).hexdigest()},latin-1" in doc.read_text()
    assert call("check", "--root", str(root), "--require-pin", str(doc))[0] == 0


def test_a_wrong_length_is_stale_and_never_pinned_over(root: Path) -> None:
    doc = root / "docs" / "a.md"
    doc.write_text("![](txtfrag:src/app.py#line=0,1;length=3)\n\n![](txtfrag:src/app.py#line=1,2)\n")
    code, _, err = call("pin", "--root", str(root), "--write", str(doc))
    assert code == 1, err
    assert "a.md:1: txtfrag:src/app.py#line=0,1;length=3: stale" in err
    assert doc.read_text() == f"![](txtfrag:src/app.py#line=0,1;length=3)\n\n![](txtfrag:src/app.py#line=1,2;{PIN})\n"


def test_a_bad_reference_is_reported_and_nothing_is_written_for_it(root: Path) -> None:
    doc = root / "docs" / "a.md"
    text = "![](txtfrag:src/nope.py#L1)\n\n![](txtfrag:src/app.py#line=2,1)\n\n![](txtfrag:../outside.txt)\n\n![](txtfrag:src/app.py#L2)\n"
    doc.write_text(text)
    r = run(root, "pin", "--root", ".", "--write", "docs")
    assert r.returncode == 2
    assert "no such file: src/nope.py" in r.stderr and "line=2,1" in r.stderr and "'..'" in r.stderr
    assert "Traceback" not in r.stderr
    assert doc.read_text() == text.replace("#L2)", f"#line=1,2;{PIN})")


def test_file_line_arguments_pin_only_those_references(root: Path) -> None:
    doc = root / "docs" / "a.md"
    doc.write_text("![](txtfrag:src/app.py#L1)\n\n![](txtfrag:src/app.py#L2)\n")
    assert call("pin", "--root", str(root), "--write", f"{doc}:3")[0] == 0
    assert doc.read_text() == f"![](txtfrag:src/app.py#L1)\n\n![](txtfrag:src/app.py#line=1,2;{PIN})\n"


def test_pin_never_writes_through_a_link_out_of_the_root(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("![](txtfrag:src/app.py#L1)\n")
    (root / "docs" / "link.md").symlink_to(outside)
    r = run(root, "pin", "--root", ".", "--write", "docs")
    assert r.returncode == 2 and "outside the root" in r.stderr
    assert outside.read_text() == "![](txtfrag:src/app.py#L1)\n"


# -- counted, and required on demand --------------------------------------------------------------------


def test_check_and_update_count_unpinned_references_without_listing_them(root: Path) -> None:
    (root / "docs" / "a.md").write_text(f"![](txtfrag:src/app.py#line=1,2)\n\n![](txtfrag:src/app.py#line=1,2;{PIN})\n")
    (root / "docs" / "b.md").write_text(f"![](txtfrag:src/app.py#line=1,2;length={len(APP)})\n")  # length alone: unpinned
    for command in ("check", "update"):
        r = run(root, command, "--root", ".", "docs")
        assert r.returncode == 0, r.stderr
        assert "2 unpinned (not protected against drift: `textfrag pin --write` pins them)" in r.stdout
        assert r.stderr == ""  # no per-reference noise


def test_require_pin_makes_each_unpinned_reference_a_located_problem(root: Path) -> None:
    (root / "docs" / "a.md").write_text(f"# T\n\n![](txtfrag:src/app.py#L2)\n\n![](txtfrag:src/app.py#line=1,2;{PIN})\n")
    r = run(root, "check", "--root", ".", "--require-pin", "docs")
    assert r.returncode == 1
    assert "docs/a.md:3: txtfrag:src/app.py#L2: unpinned: the reference has no md5" in r.stderr
    assert run(root, "update", "--root", ".", "--require-pin", "docs").returncode == 1

    data = json.loads(run(root, "check", "--root", ".", "--require-pin", "--format", "json", "docs").stdout)
    assert [(x["status"], x["pinned"]) for x in data["results"]] == [("unpinned", False), ("current", True)]
    assert data["counts"]["unpinned"] == 1
    import jsonschema

    schema = json.loads((Path(__import__("textfrag").__file__).parent / "schemas" / "results.schema.json").read_text())
    jsonschema.validate(data, schema)
    sarif = json.loads(run(root, "check", "--root", ".", "--require-pin", "--format", "sarif", "docs").stdout)
    assert [x["ruleId"] for x in sarif["runs"][0]["results"]] == ["textfrag/unpinned"]
    github = run(root, "check", "--root", ".", "--require-pin", "--format", "github", "docs")
    assert "::error file=docs/a.md,line=3,col=" in github.stdout and "title=textfrag%3A unpinned" in github.stdout

    assert run(root, "pin", "--root", ".", "--write", "docs").returncode == 0
    assert run(root, "check", "--root", ".", "--require-pin", "docs").returncode == 0


def test_an_unpinned_reference_never_goes_stale_but_a_pinned_one_does(root: Path) -> None:
    (root / "docs" / "a.md").write_text("![](txtfrag:src/app.py#L2)\n")
    (root / "src" / "app.py").write_text("changed\n" + APP)
    r = run(root, "check", "--root", ".", "docs")
    assert r.returncode == 0 and "1 unpinned" in r.stdout  # the silent gap the count makes visible
    (root / "src" / "app.py").write_text(APP)
    assert run(root, "pin", "--root", ".", "--write", "docs").returncode == 0
    (root / "src" / "app.py").write_text("changed\n" + APP)
    assert run(root, "check", "--root", ".", "docs").returncode == 1


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_the_pin_hook_pins_and_fails_as_a_formatter_does(tmp_path: Path, hooks: tuple[Path, Path]) -> None:
    from .test_precommit import _pre_commit

    sample = tmp_path / "sample"
    (sample / "src").mkdir(parents=True)
    (sample / "docs").mkdir()
    (sample / "src" / "app.py").write_text(APP)
    (sample / "docs" / "index.md").write_text("# Sample\n\n![](txtfrag:src/app.py#L3-L4)\n")
    commit_all(sample)
    repo, home = hooks
    first = _pre_commit(sample, home, "textfrag-pin", repo)
    assert first.returncode == 1, first.stdout + first.stderr  # files were modified: the commit fails
    assert (sample / "docs" / "index.md").read_text() == f"# Sample\n\n![](txtfrag:src/app.py#line=2,4;{PIN})\n"
    commit_all(sample, "pinned")
    again = _pre_commit(sample, home, "textfrag-pin", repo)
    assert again.returncode == 0, again.stdout + again.stderr


def test_a_pdi_reference_becomes_the_pinned_rfc_5147_reference_of_its_file(root: Path) -> None:
    speech = b"Remarks by the President\nat the\r\ndedication of the memorial\n"
    (root / "src" / "speech.txt").write_bytes(speech)
    doc = root / "docs" / "a.md"
    doc.write_text("![](txtfrag:pdi://oma.eop.gov.us/1997/09/01/1.text.1#char=37,51)\n")
    pdi = "--pdi=pdi://oma.eop.gov.us/1997/09/01/1.text.1=src/speech.txt"
    code, _, err = call("pin", "--root", str(root), pdi, "--write", str(doc))
    assert code == 0, err
    text = speech.decode()
    pinned = f"src/speech.txt#char=35,49;length={len(text) - 1};md5={hashlib.md5(speech).hexdigest()}"
    assert doc.read_text() == f"![](txtfrag:{pinned})\n"
    assert call("show", "--root", str(root), pinned)[1] == "ication of the"


MODULE = "import os\n\n\ndef greet(name):\n    return f'hello {name}'\n\n\ndef other():\n    pass\n"


def test_a_whole_files_reference_with_an_intent_is_pinned_to_the_lines_it_selects(root: Path) -> None:
    """``.. txtfrag:: src/mod.py`` with ``:pyobject: greet`` (and its Markdown twin): pinned to the lines the
    intent selects, as ``make --pyobject`` writes them, so that ``check`` passes what ``pin`` wrote (the
    whole file pinned is a range the intent contradicts)."""
    (root / "src" / "mod.py").write_text(MODULE)
    (root / "docs" / "a.rst").write_text("T\n=\n\n.. txtfrag:: src/mod.py\n   :pyobject: greet\n")
    (root / "docs" / "b.md").write_text('![](txtfrag:src/mod.py){ pyobject="greet" }\n')
    r = run(root, "pin", "--root", ".", "--write", "docs")
    assert r.returncode == 0 and "pinned 2 references in 2 documents" in r.stdout, r.stdout + r.stderr
    made = run(root, "make", "--root", ".", "src/mod.py", "--pyobject", "greet").stdout.splitlines()[0]
    assert made.startswith("src/mod.py#line=3,5;"), made
    assert (root / "docs" / "a.rst").read_text() == f"T\n=\n\n.. txtfrag:: {made}\n   :pyobject: greet\n"
    assert (root / "docs" / "b.md").read_text() == f'![](txtfrag:{made}){{ pyobject="greet" }}\n'
    checked = run(root, "check", "--root", ".", "--require-pin", "docs")
    assert checked.returncode == 0, checked.stdout + checked.stderr
