"""Selection intents select what literalinclude selects: properties against Sphinx's own reader
(``sphinx.directives.code.LiteralIncludeReader``), and its ``:pyobject:`` finder on real code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sphinx.config import Config
from sphinx.directives.code import LiteralIncludeReader
from sphinx.pycode import ModuleAnalyzer

from textfrag import TextFragError
from textfrag.intents.intent import Intent, intent_lines, parse_line_spec, python_objects, signature_cut

WORDS = ["alpha", "beta", "START", "END", "# mark", "x = 1", ""]
lines_of_text = st.lists(st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join), min_size=1, max_size=12)
markers = st.one_of(st.none(), st.sampled_from(["alpha", "beta", "START", "END", "mark", "x ="]))


def sphinx_lines(tmp_path: Path, text: str, options: dict[str, str]) -> list[str] | str:
    """What literalinclude shows (its lines), or the start of its error."""
    path = tmp_path / "f.txt"
    path.write_text(text, encoding="utf-8")
    config = Config({}, {})
    try:
        content, _ = LiteralIncludeReader(str(path), dict(options), config).read()
    except ValueError as error:
        return f"error: {error}"
    return content.splitlines()


@settings(max_examples=300, deadline=None)
@given(
    lines=lines_of_text,
    start=markers,
    start_inclusive=st.booleans(),
    end=markers,
    end_inclusive=st.booleans(),
    spec=st.one_of(st.none(), st.sampled_from(["1", "2-3", "2-", "-2", "1-2,3"])),
)
def test_markers_and_lines_select_what_literalinclude_selects(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[str],
    start: str | None,
    start_inclusive: bool,
    end: str | None,
    end_inclusive: bool,
    spec: str | None,
) -> None:
    text = "\n".join(lines) + "\n"
    options: dict[str, str] = {}
    if start is not None:
        options["start-at" if start_inclusive else "start-after"] = start
    if end is not None:
        options["end-at" if end_inclusive else "end-before"] = end
    if spec is not None:
        options["lines"] = spec
    theirs = sphinx_lines(tmp_path_factory.mktemp("f"), text, options)
    intent = Intent.from_options({k: v for k, v in options.items() if k != "lines"})
    try:
        kept = intent_lines(text, intent)
        if spec is not None:
            wanted = [n for n in parse_line_spec(spec, len(kept)) if n <= len(kept)]
            kept = intent_lines(text, intent, wanted)
    except TextFragError:
        # literalinclude fails too, or shows nothing
        assert isinstance(theirs, str) or theirs == [], (options, theirs)
        return
    assert not isinstance(theirs, str), (options, theirs)
    assert [lines[n - 1] for n in kept] == theirs, options


def test_pyobject_finds_what_sphinx_finds_in_the_standard_library() -> None:
    """Every class and function of some standard modules: the same first and last lines as Sphinx's
    finder, except the signatures Sphinx cuts at the name's line (which migrate reports)."""
    folder = Path(sys.modules["json"].__file__ or "").parent.parent
    compared = cut = 0
    for name in ("argparse.py", "dataclasses.py", "pathlib.py", "json/decoder.py", "typing.py", "inspect.py"):
        text = (folder / name).read_text(encoding="utf-8")
        theirs = {k: (v[1], v[2]) for k, v in ModuleAnalyzer.for_string(text, "m").find_tags().items()}
        mine = python_objects(text)
        assert set(mine) == set(theirs), name
        for key, (first, last, name_line) in mine.items():
            compared += 1
            if last > name_line and signature_cut(text, name_line):
                assert theirs[key] == (first, name_line)
                cut += 1
            else:
                assert theirs[key] == (first, last), (name, key)
    assert compared > 500 and cut < compared // 50
