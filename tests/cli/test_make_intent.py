"""``make`` by intent: --pyobject, the markers and --section pin the lines they select now
and print the options that say why; ``make --batch`` answers many requests in one process."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from textfrag import Source, quote
from textfrag.cli import main
from textfrag.source.cache import SourceCache

from ..processes import run_textfrag

MODULE = "import os\n\n\n@wraps\ndef one():\n    return 1\n\n\nclass Two:\n    def method(self):\n        return 2\n"
SECTIONS = "a = 0\n# --8<-- [start:part]\n\nb = 1\n\n# --8<-- [end:part]\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "mod.py").write_text(MODULE)
    (tmp_path / "sec.py").write_text(SECTIONS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        old = sys.stdin
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(["make", *argv], stdout=out, stderr=err)
    finally:
        if stdin is not None:
            sys.stdin = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("options", "lines", "printed"),
    [
        (["--pyobject", "one"], "@wraps\ndef one():\n    return 1\n", [":pyobject: one"]),
        (["--pyobject", "Two.method"], "    def method(self):\n        return 2\n", [":pyobject: Two.method"]),
        (["--start-after", "import", "--end-before", "class"], "\n\n@wraps\ndef one():\n    return 1\n\n\n", None),
        (["--start-at", "def one", "--end-at", "return 1"], "def one():\n    return 1\n", None),
    ],
)
def test_make_by_intent_pins_what_the_intent_selects(
    root: Path, options: list[str], lines: str, printed: list[str] | None
) -> None:
    code, out, err = make("mod.py", *options)
    assert code == 0, err
    ref, *rest = out.splitlines()
    assert quote(SourceCache(root), ref).text == lines  # the pin selects what the intent does
    expected = printed or [f":{options[i][2:]}: {options[i + 1]}" for i in range(0, len(options), 2)]
    assert [r.strip() for r in rest] == expected


def test_make_by_section_leaves_out_markers_and_blank_lines_at_the_ends(root: Path) -> None:
    code, out, _ = make("sec.py", "--section", "part")
    assert code == 0
    ref, option = out.splitlines()
    assert quote(SourceCache(root), ref).text == "b = 1\n" and option.strip() == ":section: part"


def test_an_intent_that_selects_nothing_names_the_file_and_the_intent(root: Path) -> None:
    code, _, err = make("mod.py", "--pyobject", "three")
    assert code == 2
    assert "mod.py" in err and ":pyobject: three: no Python object named 'three' in the file" in err
    code, _, err = make("mod.py", "--pyobject", "one", "--lines", "1-2")
    assert code == 2 and "either by intent" in err


def test_make_batch_answers_every_request_in_order_and_reads_each_file_once(root: Path, read_log: Path) -> None:
    requests = "mod.py --lines 1-2\n# a comment\n\nmod.py --pyobject one\nmod.py --lines 99\nmod.py --bogus\nsec.py --whole\n"
    code, out, err = make("--batch", stdin=requests)
    assert code == 2  # two requests failed
    lines = out.splitlines()
    assert lines[0].startswith("mod.py#line=0,2;length=") and lines[1].startswith("mod.py#line=3,6;")
    assert lines[2].strip() == ":pyobject: one" and lines[3].startswith("sec.py#line=0,;length=")
    assert "<stdin>:5: mod.py --lines 99:" in err and "the file has 11 lines" in err
    assert "<stdin>:6: mod.py --bogus: unrecognized arguments: --bogus" in err
    assert sorted(read_log.read_text().splitlines()) == ["mod.py", "sec.py"]


def test_make_batch_as_a_process(root: Path) -> None:
    source = Source("mod.py", MODULE.encode())
    requests = "".join(f"mod.py --lines {n}-{n}\n" for n in range(1, 12))
    result = run_textfrag("make", "--batch", input=requests, cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"mod.py#line={n - 1},{n};length={source.length};md5={source.md5}" for n in range(1, 12)
    ]
    refused = run_textfrag("make", "--batch", "mod.py", input="", cwd=root)
    assert refused.returncode == 2 and "give none on the command line" in refused.stderr
