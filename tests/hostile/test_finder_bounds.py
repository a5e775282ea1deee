"""Include finders read a page in one pass, and read it as the engines' own patterns do.

The engines' patterns backtrack: markdown-include's ``{!\\s*(.+?)\\s*!...}`` is quadratic on a line of ``{!``,
markdown_include_variants' ``(\\w+)\\[([^\\]]+)\\]`` on ``ln[ln[...``, VitePress's rawPathRegexp cubic on
``x{{{...``. textfrag's readings are linear, and a hypothesis property holds each to the engine's pattern
(the installed extension's own, or VitePress's transcribed) on generated lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textfrag.guard.mdinclude import markdown_include_matches
from textfrag.guard.variants import variant_options
from textfrag.guard.vitepress import parse_raw_path

from ..processes import run_textfrag

#: VitePress's rawPathRegexp (src/node/markdown/plugins/snippet.ts), JavaScript's ASCII \w, \d
VITEPRESS_RAW = re.compile(
    r"^(.+?(?:(?:\.([a-z0-9]+))?))(?:(#[\w-]+))?(?: ?(?:{(\d+(?:[,-]\d+)*)? ?(\S+)? ?(\S+)?}))? ?(?:\[(.+)\])?$", re.ASCII
)


def _lines(alphabet: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(alphabet), max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(_lines(["{!", "!}", "!", "}", "{", " ", "\t", "a", "lines=", "1", "-", "2 3"]))
def test_markdown_include_matches_are_the_extensions_own(line: str) -> None:
    from markdown_include.include import INC_SYNTAX  # (markdown-include's own pattern)

    expected = [(m.start(), m.end(), m.group(1), m.start(1), m.group(4)) for m in INC_SYNTAX.finditer(line)]
    assert [(m.start, m.end, m.path, m.path_start, m.lines) for m in markdown_include_matches(line)] == expected


@settings(max_examples=400, deadline=None)
@given(_lines(["ln", "hl", "[", "]", " ", "1", ":", ",", "title", '"', "é"]))
def test_variant_options_are_the_extensions_own(configs: str) -> None:
    pytest.importorskip("markdown_include_variants")
    from markdown_include_variants._main import re_config  # (the extension's own pattern)

    expected = [(m.group(1), m.group(2), m.start(2)) for m in re.finditer(re_config, configs)]
    assert variant_options(configs) == expected


@settings(max_examples=600, deadline=None)
@given(_lines(["a", ".", "ts", "#", "r", "{", "}", "[", "]", " ", "1", ",", "-", "\t", "_"]))
def test_a_snippet_path_is_read_as_vitepress_reads_it(raw: str) -> None:
    m = VITEPRESS_RAW.match(raw)
    expected = (raw, "") if m is None else (m.group(1), (m.group(3) or "")[1:])
    assert parse_raw_path(raw) == expected


@pytest.mark.parametrize(
    ("config", "page"),
    [
        # markdown-include: a page of lines of "{!" (59 s for 1 MB before)
        ("markdown_extensions:\n  - markdown_include.include\n", ("{!" * 2000 + "\n") * 250),
        # markdown_include_variants: a page of "{* a ln[ln[...*}" lines
        ("markdown_extensions:\n  - mdx_include\n  - markdown_include_variants\n", ("{* a " + "ln[" * 1300 + " *}\n") * 250),
        # mdx_include: a page of lines of "{!" and "!}" that never make an include
        ("markdown_extensions:\n  - mdx_include\n", ("{![" * 1300 + "!}\n") * 250),
    ],
    ids=["markdown-include", "variants", "mdx_include"],
)
def test_a_megabyte_of_hostile_include_lines_is_checked_in_one_pass(tmp_path: Path, config: str, page: str) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(f"site_name: t\nplugins:\n  - textfrag:\n      guard: true\n{config}", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    r = run_textfrag("check", "docs", cwd=tmp_path, timeout=60)  # (minutes before; a second or two now)
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr, r.stderr[-2000:]


def test_a_vitepress_line_of_braces_is_read_in_one_pass(tmp_path: Path) -> None:
    """``<<< x{{{...`` of 4,000 characters (262 s before: VitePress's pattern is cubic there)."""
    (tmp_path / "docs" / ".vitepress").mkdir(parents=True)
    (tmp_path / "docs" / ".vitepress" / "config.mts").write_text("export default {}\n", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("# T\n\n<<< x" + "{" * 4000 + "\n\n<<< y" + "{ " * 1900 + "}\n")
    (tmp_path / "textfrag.toml").write_text("guard = true\n", encoding="utf-8")
    r = run_textfrag("check", "docs", cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "index.md:3:" in r.stderr and "index.md:5:" in r.stderr, r.stderr[-2000:]


@settings(max_examples=600, deadline=None)
@given(_lines(["{!", "!}", "!", "}", " ", "\t", "a", "[ln:", "1-2", ".", "]", "[", "|", "+", "-", ">", "\\", "utf-8"]))
def test_mdx_include_matches_are_the_extensions_own(line: str) -> None:
    from mdx_include.mdx_include import IncludeExtension

    from textfrag.guard.mdxinclude import mdx_matches

    pattern = IncludeExtension({}).compiled_re  # (the extension's own, as its preprocessor compiles it)
    expected = [
        (
            m.start(),
            m.end(),
            bool(m.group("escape")),
            (m.group("recursive") or "", m.group("apply_indent") or "", m.group("path"), m.group("lines")),
        )
        for m in pattern.finditer(line)
    ]
    assert mdx_matches(line) == expected


@settings(max_examples=400, deadline=None)
@given(_lines([":a:", " ", "\t", "x", "\r", ":", "y z"]))
def test_a_value_to_the_end_of_its_line_is_the_lazy_patterns(line: str) -> None:
    """``(.*)\\r?$`` trimmed is ``(.*?)[ \\t]*\\r?$``, without its quadratic backtracking on a run of blanks."""
    from textfrag.documents.found import trimmed

    lazy = re.match(r"^:a:(?:[ \t]+(.*?))?[ \t]*\r?$", line)
    greedy = re.match(r"^:a:(?:[ \t]+(.*))?\r?$", line)
    assert (lazy is None) == (greedy is None)
    if lazy is not None and greedy is not None:
        assert (lazy.span(1) if lazy.group(1) is not None else None) == (
            trimmed(greedy, 1) if greedy.group(1) is not None else None
        )


def test_a_page_of_options_and_arguments_with_long_runs_of_blanks_is_read_in_one_pass(tmp_path: Path) -> None:
    """An option value, a literalinclude's argument and a fence's info with 4,000 blanks inside: each line
    cost 0.2-0.3 s before (a lazy value before trailing blanks); the page is read in a second now."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_guard = True\n", encoding="utf-8")
    blanks = " " * 4000
    directive = f".. literalinclude:: a{blanks}b\n   :caption: x{blanks}y\n   :lines: 1{blanks}2\n\n"
    (tmp_path / "docs" / "index.rst").write_text("T\n=\n\n" + directive * 60, encoding="utf-8")
    r = run_textfrag("check", "docs", cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "index.rst:4: literalinclude a" in r.stderr, r.stderr[-2000:]
