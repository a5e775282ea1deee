"""The command line as a process and through main(argv): the manual's reference/cli page."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
from pathlib import Path

import pytest

from textfrag.cli import main

from ..conftest import conformance_cases
from ..processes import run_textfrag

TEXT = "".join(f"line {i}\n" for i in range(1, 31))


def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return run_textfrag(*argv, cwd=cwd, timeout=60, text=False)


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def src(root: Path) -> Path:
    (root / "src").mkdir()
    (root / "src" / "app.txt").write_bytes(TEXT.encode())
    return root


# -- show ----------------------------------------------------------------------------------------------


def test_show_writes_the_excerpt_exactly_with_nothing_added(src: Path) -> None:
    r = run("show", "--root", str(src), "src/app.txt#line=10,12")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"line 11\nline 12\n", b"")


def test_show_keeps_original_line_endings_and_writes_utf8(root: Path) -> None:
    (root / "w.txt").write_bytes("caf\xe9\r\nna\xefve\r\n".encode("iso-8859-1"))
    r = run("show", "--root", str(root), "--charset", "ISO-8859-1", "w.txt#line=0,1")
    assert r.stdout == "café\r\n".encode()


def test_show_accepts_the_prefix_and_whole_files(src: Path) -> None:
    assert run("show", "--root", str(src), "txtfrag:src/app.txt").stdout == TEXT.encode()


CASES = conformance_cases()


@pytest.mark.parametrize(("name", "case"), CASES, ids=[c[0] for c in CASES])
def test_conformance_vectors_through_the_process(name: str, case: dict[str, object], tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_bytes(str(case["text"]).encode())
    r = run("show", "--root", str(tmp_path), f"c.txt#{case['fragment']}")
    assert r.returncode == case["exit"]
    if case["excerpt"] is not None:
        assert r.stdout.decode() == case["excerpt"]
    assert b"Traceback" not in r.stderr


def test_stale_reference_exits_1_and_shows_nothing(src: Path) -> None:
    r = run("show", "--root", str(src), "src/app.txt#line=10,12;md5=" + "0" * 32)
    assert r.returncode == 1
    assert r.stdout == b""
    err = r.stderr.decode()
    assert err.startswith("command line: src/app.txt#line=10,12;md5=0000")
    assert "stale" in err and "lines 11-12" in err and "RFC 5147 section 4.3" in err


REFUSALS = [
    # (reference, words in the message)
    ("src/app.txt#line=1,x", "expected a line position"),
    ("src/app.txt#line=5,1", "starts after it ends"),
    ("src/app.txt#LINE=1", "lower case"),
    ("../outside.txt", "'..'"),
    ("/etc/passwd", "absolute"),
    ("nope.txt#line=1", "no such file"),
    ("src#line=1", "is a directory"),
    ("fifo", "is a FIFO"),
    ("link-out.txt", "outside the root"),
    ("sibling/secret.txt", "outside the root"),
    ("bad.txt", "does not decode as UTF-8"),
    ("big.txt", "over the limit"),
    ("a\x01.txt", "no such file"),
]


@pytest.fixture
def hostile(src: Path) -> Path:
    root = src
    outside = root.parent / "outside.txt"
    outside.write_text("secret\n")
    os.symlink(outside, root / "link-out.txt")
    evil = root.parent / (root.name + "_evil")  # a sibling whose name starts with the root's
    evil.mkdir()
    (evil / "secret.txt").write_text("secret\n")
    os.symlink(f"../{evil.name}", root / "sibling")
    os.mkfifo(root / "fifo")
    (root / "bad.txt").write_bytes(b"ok\n\xff\xfe\x00")
    (root / "big.txt").write_bytes(b"x" * 2000)
    return root


@pytest.mark.parametrize(("reference", "words"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_exits_2_with_a_message_and_no_traceback(hostile: Path, reference: str, words: str) -> None:
    r = run("show", "--root", str(hostile), "--max-size", "1000", reference)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert r.stdout == b""
    assert words in err
    assert "Traceback" not in err
    assert err.startswith("command line: ")


def test_symlink_inside_the_root_is_followed(src: Path) -> None:
    os.symlink("src/app.txt", src / "alias.txt")
    assert run("show", "--root", str(src), "alias.txt#line=0,1").stdout == b"line 1\n"


def test_unknown_charset_is_a_usage_error(src: Path) -> None:
    code, out, err = call("show", "--root", str(src), "--charset", "no-such", "src/app.txt")
    assert code == 2 and "unknown charset 'no-such'" in err


def test_bad_usage_exits_2(src: Path) -> None:
    assert run("frobnicate").returncode == 2
    assert run("show").returncode == 2
    assert run("make", "--root", str(src), "src/app.txt").returncode == 2  # no selection given


# -- make ----------------------------------------------------------------------------------------------


def test_make_lines_are_1_based_inclusive_and_print_0_based_line(src: Path) -> None:
    code, out, err = call("make", "--root", str(src), "src/app.txt", "--lines", "11-20")
    md5 = hashlib.md5(TEXT.encode()).hexdigest()
    assert (code, err) == (0, "")
    assert out == f"src/app.txt#line=10,20;length={len(TEXT)};md5={md5}\n"
    r = run("show", "--root", str(src), out.strip())
    assert r.stdout.decode() == "".join(f"line {i}\n" for i in range(11, 21))


def test_make_chars_and_match_and_without_checks(src: Path) -> None:
    assert (
        call("make", "--root", str(src), "src/app.txt", "--chars", "0,4", "--no-md5")[1]
        == f"src/app.txt#char=0,4;length={len(TEXT)}\n"
    )
    assert (
        call("make", "--root", str(src), "src/app.txt", "--match", "line 12\n", "--no-md5", "--no-length")[1]
        == "src/app.txt#char=79,87\n"
    )
    assert call("show", "--root", str(src), "src/app.txt#char=79,87")[0] == 0


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--lines", "0-3", "numbered from 1"),
        ("--lines", "5-3", "must not be after"),
        ("--lines", "29-31", "the file has 30 lines"),
        ("--lines", "a-b", "--lines takes A-B"),
        ("--chars", "5", "--chars takes S,E"),
        ("--chars", "0,9999", "characters"),
        ("--match", "not there", "does not occur"),
        ("--match", "line 1", "more than once (lines 1, 10, 11"),
    ],
)
def test_make_refuses_what_it_cannot_mint_exactly(src: Path, option: str, value: str, words: str) -> None:
    code, out, err = call("make", "--root", str(src), "src/app.txt", option, value)
    assert code == 2 and out == ""
    assert words in err


def test_make_adds_the_charset_for_a_file_not_in_utf8(root: Path) -> None:
    (root / "l.txt").write_bytes("grüße\n".encode("iso-8859-1"))
    code, out, _ = call("make", "--root", str(root), "--charset", "ISO-8859-1", "l.txt", "--lines", "1")
    assert code == 0 and ";length=6,ISO-8859-1;md5=" in out and out.rstrip().endswith(",ISO-8859-1")
    assert call("show", "--root", str(root), "--charset", "ISO-8859-1", out.strip())[0] == 0


def test_a_near_miss_of_the_syntax_is_answered_with_the_reference_it_means(tmp_path: Path) -> None:
    """`#line=10-12` is refused saying what to write, `line=9,12` (lines 10-12)."""
    import io

    (tmp_path / "a.txt").write_text("".join(f"{i}\n" for i in range(1, 20)))
    for written, meant in (
        ("a.txt#line=10-12", "a.txt#line=9,12"),
        ("a.txt#lines=10,12", "a.txt#line=9,12"),
        ("a.txt#line=10..12", "a.txt#line=9,12"),
    ):
        err = io.StringIO()
        assert main(["show", "--root", str(tmp_path), written], stdout=io.StringIO(), stderr=err) == 2
        assert f"did you mean {meant}? " in err.getvalue() and "is lines 10-12 as an editor numbers them" in err.getvalue()


def test_a_path_out_of_the_root_says_how_to_set_the_root(tmp_path: Path) -> None:
    """The refusal names the ways to set the root."""
    import io

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("![](txtfrag:../src/app.py#line=0,1)\n")
    err = io.StringIO()
    assert main(["check", "--root", str(tmp_path / "docs"), str(tmp_path / "docs")], stdout=io.StringIO(), stderr=err) == 2
    said = err.getvalue()
    assert "references never leave the root" in said and "--root DIR" in said and "textfrag_root in conf.py" in said
    assert "root: under the textfrag plugin" in said


def test_a_command_run_alone_parses_and_helps_as_in_the_whole_parser() -> None:
    """``textfrag COMMAND`` builds that command's parser alone (the others' cost a tenth of check's start-up):
    what it parses, its help and its usage errors are those of the parser of every command."""
    import argparse
    import contextlib

    from textfrag.cli import COMMANDS, build_parser

    def sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert name in action.choices
        return action.choices[name]

    whole = build_parser()
    for name in COMMANDS:
        alone = build_parser(only=name)
        assert sub(alone, name).format_help() == sub(whole, name).format_help()
        for argv in ([name, "docs"], [name, "--format", "json", "docs"], [name, "--no-such-option"]):
            said = []
            for parser in (alone, whole):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    try:
                        said.append(vars(parser.parse_args(argv)))
                    except SystemExit as exit:
                        said.append((exit.code, err.getvalue()))
            assert said[0] == said[1], (name, argv)
    assert main(["check", "--help"]) == 0
