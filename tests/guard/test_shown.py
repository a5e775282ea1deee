"""What a guarded include shows, as ``check`` computes it without an engine (textfrag.guard.shown), is what
the engine itself shows: Sphinx's LiteralIncludeReader, pymdownx.snippets' preprocessor and
markdown-include's, on a table of their forms and on generated files and options."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag import SourceCache, TextFragError
from textfrag.guard import GuardContext, find_guarded, shown_text

APP = textwrap.dedent(
    '''\
    """A module."""
    import os


    class Shelf:
        """Books."""

        def add(self, book):
            # --8<-- [start:add]
            self.books.append(book)
            return len(self.books)
            # --8<-- [end:add]


    def greet(name: str) -> str:
    \treturn f"hello {name}"  # a tab
    # END
    '''
)


def _sphinx(path: Path, options: dict[str, object]) -> str | None:
    from sphinx.config import Config
    from sphinx.directives.code import LiteralIncludeReader

    config = Config({"source_encoding": "utf-8-sig"}, {})
    try:
        text, _ = LiteralIncludeReader(str(path), dict(options), config).read()
    except (ValueError, OSError, UnicodeError):
        return None
    return text


def _ours(path: Path, options: dict[str, str]) -> str | None:
    """What ``check`` computes: the directive found in a page as written, the file read by the cache."""
    page = f".. literalinclude:: {path.name}\n" + "".join(f"   :{k}: {v}\n".replace(" \n", "\n") for k, v in options.items())
    inc = find_guarded(page, "index.rst", ".rst")[0]
    assert dict(inc.options) == options
    try:
        return shown_text(inc, path.parent / "index.rst", SourceCache(path.parent), GuardContext(srcdir=path.parent)).text
    except TextFragError:
        return None


LITERAL_CASES = [
    {},
    {"lines": "3-5"},
    {"lines": "1,3,5-"},
    {"lines": "-4"},
    {"lines": "40-50"},
    {"pyobject": "Shelf.add"},
    {"pyobject": "greet"},
    {"pyobject": "nothing"},
    {"pyobject": "Shelf", "lines": "2-3"},
    {"start-after": "class Shelf", "end-before": "def greet"},
    {"start-at": "def add", "end-at": "return"},
    {"start-after": "--8<-- [start:add]", "end-before": "--8<-- [end:add]", "dedent": "8"},
    {"end-before": '"""A module."""'},
    {"lines": "9-10", "dedent": ""},
    {"lines": "16-17", "tab-width": "4"},
    {"lines": "3", "prepend": "# before", "append": "# after"},
    {"start-at": "not there"},
]


@pytest.mark.parametrize("options", LITERAL_CASES, ids=[repr(o) for o in LITERAL_CASES])
def test_literalinclude_shows_what_sphinx_s_reader_shows(tmp_path: Path, options: dict[str, str]) -> None:
    path = tmp_path / "app.py"
    path.write_text(APP)
    converted: dict[str, object] = dict(options)
    for name in ("dedent", "tab-width"):
        if name in options:
            converted[name] = int(options[name]) if options[name] else None
    assert _ours(path, options) == _sphinx(path, converted)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.sampled_from(["x = 1", "    y = 2", "", "def f():", "  # c", "\tz", "MARK"]), max_size=12),
    spec=st.one_of(st.none(), st.from_regex(r"\A(?:[1-9][0-9]?(?:-[1-9]?[0-9]?)?)(?:,[1-9][0-9]?(?:-[1-9]?[0-9]?)?){0,2}\Z")),
    marker=st.sampled_from([None, "start-after", "start-at", "end-before", "end-at"]),
    dedent=st.sampled_from([None, "", "1", "2"]),
    ending=st.sampled_from(["\n", "\r\n", ""]),
)
def test_literalinclude_agrees_with_sphinx_on_generated_files(
    tmp_path: Path, lines: list[str], spec: str | None, marker: str | None, dedent: str | None, ending: str
) -> None:
    """A property: for generated files, line specs, markers and dedents, the same text or both nothing."""
    path = tmp_path / "f.py"
    path.write_bytes(("\n".join(lines) + ending).replace("\n", "\r\n" if ending == "\r\n" else "\n").encode())
    options: dict[str, str] = {}
    if spec:
        options["lines"] = spec
    if marker:
        options[marker] = "MARK"
    if dedent is not None:
        options["dedent"] = dedent
    converted: dict[str, object] = dict(options)
    if dedent is not None:
        converted["dedent"] = int(dedent) if dedent else None
    assert _ours(path, options) == _sphinx(path, converted)


def _snippet_engine(base: Path, spec: str, **config: object) -> list[str]:
    import markdown

    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": {"base_path": [str(base)], **config}}
    )
    pp = md.preprocessors["snippet"]
    pp.seen, pp.bases, pp.failed = set(), None, set()
    return list(pp.parse_snippets(["-8<-", spec, "-8<-"]))


SNIPPET_CASES = [
    "app.py",
    "app.py:3:5",
    "app.py:9",
    "app.py::4",
    "app.py:-3",
    "app.py:2:3,9:10",
    "app.py:add",
    "nested.md",
    "nested.md:2:3",
]


@pytest.mark.parametrize("dedent", [False, True])
@pytest.mark.parametrize("spec", SNIPPET_CASES)
def test_a_snippet_shows_what_pymdownx_snippets_puts_in_the_page(tmp_path: Path, spec: str, dedent: bool) -> None:
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "nested.md").write_text('# nested\n--8<-- "app.py:add"\n;--8<-- "escaped"\nend\n')
    engine = "\n".join(_snippet_engine(tmp_path, spec, dedent_subsections=dedent)).rstrip("\n")
    inc = next(i for i in find_guarded(f'--8<-- "{spec}"\n', "page.md", ".md", snippets=True))
    ctx = GuardContext(srcdir=tmp_path, snippet_bases=(tmp_path,), snippet_dedent=dedent)
    assert shown_text(inc, tmp_path / "page.md", SourceCache(tmp_path), ctx).text == engine


def test_a_markdown_include_shows_what_markdown_include_puts_in_the_page(tmp_path: Path) -> None:
    import markdown

    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "outer.md").write_text("# Outer\n{!app.py!lines=3-4}\nafter\n")
    md = markdown.Markdown(
        extensions=["markdown_include.include"], extension_configs={"markdown_include.include": {"base_path": str(tmp_path)}}
    )
    ctx = GuardContext(srcdir=tmp_path, include_base=tmp_path)
    for syntax in ("{!app.py!}", "{!app.py!lines=3-5 9}", "{!outer.md!}", "{!app.py!lines=40-50}"):
        engine = "\n".join(md.preprocessors["include"].run([syntax]))
        inc = find_guarded(f"x {syntax} y\n", "page.md", ".md", markdown_include=True)[0]
        assert shown_text(inc, tmp_path / "page.md", SourceCache(tmp_path), ctx).text == engine, syntax


def test_the_includes_of_a_page_are_found_where_their_engines_read_them() -> None:
    rst = ".. literalinclude:: a.py\n   :lines: 1-2\n   :caption: x\n\n.. code-block:: rst\n\n   .. literalinclude:: not.py\n"
    found = find_guarded(rst, "i.rst", ".rst")
    assert [(i.kind, i.argument, i.key, i.line) for i in found] == [
        ("literalinclude", "a.py", "literalinclude a.py :lines: 1-2", 1)
    ]
    md = (
        '```{literalinclude} b.py\n:start-after: x\n```\n\n```\n--8<-- "c.py:3:4"\n```\n\n;--8<-- "escaped.py"\n\n'
        "-8<-\nd.py\n; e.py\n\nf.py:sec\n-8<-\n\ntext {!g.md!} and {!h.md!lines=1-2 5}\n"
    )
    keys = [i.key for i in find_guarded(md, "p.md", ".md", snippets=True, markdown_include=True)]
    assert keys == [
        "literalinclude b.py :start-after: x",
        "snippet c.py:3:4",
        "snippet d.py",
        "snippet f.py:sec",
        "include g.md",
        "include h.md lines=1-2 5",
    ]
    assert [i.key for i in find_guarded(md, "p.md", ".md")] == ["literalinclude b.py :start-after: x"]  # (not enabled)


def test_a_key_names_what_an_include_selects_not_how_it_is_displayed() -> None:
    a = find_guarded(".. literalinclude:: a.py\n   :caption: One\n   :lines: 3-4\n   :dedent: 04\n", "i.rst", ".rst")[0]
    b = find_guarded(".. literalinclude:: a.py\n   :lines: 3-4\n   :emphasize-lines: 2\n   :dedent: 4\n", "i.rst", ".rst")[0]
    assert a.key == b.key == "literalinclude a.py :lines: 3-4 :dedent: 4"
