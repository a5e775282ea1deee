"""One verdict: a table of single-document cases, each run through ``textfrag check`` (a process),
the language server (pytest-lsp), a Sphinx build (``sphinx-build -E``, reStructuredText and MyST) and a
MkDocs build, must reach the same verdict: the same documents fail, with the same kind of problem (SARIF's
rule, the editor's code, Sphinx's warning subtype). A green gate is a green build."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from textfrag.cli import main

from ..lsp.conftest import client, open_doc, start  # noqa: F401 (the pytest-lsp fixture)
from ..processes import run_mkdocs, run_sphinx, run_textfrag

APP = """\
import os


def greet(name):
    return f"hello {name}"


def farewell(name):
    return f"bye {name}"


class Shelf:
    def add(self, item):
        self.items.append(item)
        return item

# [START region_a]
x = 1
# [END region_a]
# --8<-- [start:sec]
y = 2
# --8<-- [end:sec]
"""
PIN = f"length={len(APP.encode())};md5={hashlib.md5(APP.encode()).hexdigest()}"
GREET = f"src/app.py#line=3,5;{PIN}"  # lines 4-5: greet
SHELF = f"src/app.py#line=11,15;{PIN}"  # lines 12-15: class Shelf
STALE = f"src/app.py#line=3,5;md5={'0' * 32}"

#: (case, reference, options as reStructuredText/MyST writes them, the Markdown attributes (None: no such
#: form), the kind every front end reports, None when the build passes)
CASES: list[tuple[str, str, dict[str, str], dict[str, str] | None, str | None]] = [
    ("plain", GREET, {}, {}, None),
    ("pyobject_agrees", GREET, {"pyobject": "greet"}, {"pyobject": "greet"}, None),
    ("options_that_fit", GREET, {"emphasize-lines": "5", "dedent": "", "caption": "Hi"}, {"hl_lines": "2", "title": "Hi"}, None),
    ("pyobject_other_lines", GREET, {"pyobject": "farewell"}, {"pyobject": "farewell"}, "intent"),
    ("pyobject_names_nothing", GREET, {"pyobject": "nothing"}, {"pyobject": "nothing"}, "intent"),
    ("markers_select_other_lines", GREET, {"start-at": "def farewell", "end-before": "class"}, None, "intent"),
    ("region_names_nothing", GREET, {"region": "nope"}, {"region": "nope"}, "intent"),
    ("section_names_nothing", GREET, {"section": "nope"}, {"section": "nope"}, "intent"),
    ("symbol_names_nothing", GREET, {"symbol": "Nope"}, {"symbol": "Nope"}, "intent"),
    ("lines_after_pyobject_past_its_end", SHELF, {"pyobject": "Shelf", "lines": "9-12"}, None, "intent"),
    ("highlight_past_the_end", GREET, {"emphasize-lines": "9"}, {"hl_lines": "5"}, "error"),
    ("dedent_strips_text", GREET, {"dedent": "8"}, {"dedent": "8"}, "error"),
    ("misspelt_option", GREET, {"emphasise-lines": "4"}, {"emphasise-lines": "4"}, "option"),
    ("value_of_the_wrong_type", GREET, {"lineno-start": "abc"}, {"lineno-start": "abc"}, "option"),
    ("tab_width_zero", GREET, {"tab-width": "0"}, {"tab-width": "0"}, "option"),
    ("flag_with_a_value", GREET, {"linenos": "yes"}, None, "option"),
    ("two_starts", GREET, {"start-after": "x", "start-at": "y"}, {"start-after": "x", "start-at": "y"}, "option"),
    ("stale_pin", STALE, {}, {}, "stale"),
    ("space_in_the_fragment", "src/app.py#line=3, 5", {}, None, "syntax"),
]
IDS = [c[0] for c in CASES]


def rst_doc(ref: str, options: dict[str, str]) -> str:
    lines = ["Case", "====", "", f".. txtfrag:: {ref}"] + [f"   :{k}: {v}".rstrip() for k, v in options.items()]
    return "\n".join(lines) + "\n"


def myst_doc(ref: str, options: dict[str, str]) -> str:
    lines = ["# Case", "", f"```{{txtfrag}} {ref}"] + [f":{k}: {v}".rstrip() for k, v in options.items()] + ["```"]
    return "\n".join(lines) + "\n"


def md_doc(ref: str, attrs: dict[str, str]) -> str:
    said = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    return f"# Case\n\n![](txtfrag:{ref}){{ {said} }}\n" if said else f"# Case\n\n![](txtfrag:{ref})\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("one-verdict")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx, mkdocs = root / "sphinx", root / "mkdocs" / "docs"
    sphinx.mkdir()
    mkdocs.mkdir(parents=True)
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag', 'myst_parser']\ntextfrag_root = '..'\n")
    (root / "mkdocs" / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - attr_list\nplugins:\n  - textfrag:\n      root: ..\n"
    )
    toctree = []
    for name, ref, options, attrs, _ in CASES:
        (sphinx / f"{name}.rst").write_text(rst_doc(ref, options), encoding="utf-8")
        (sphinx / f"{name}_myst.md").write_text(myst_doc(ref, options), encoding="utf-8")
        toctree += [name, f"{name}_myst"]
        if attrs is not None:
            (mkdocs / f"{name}.md").write_text(md_doc(ref, attrs), encoding="utf-8")
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n in toctree))
    (mkdocs / "index.md").write_text("# Index\n")
    return root


def check_kinds(root: Path, docs: Path) -> dict[str, set[str]]:
    """Document stem -> the kinds ``textfrag check`` (a process, SARIF) reports in it."""
    return sarif_kinds(["--root", str(root), str(docs)])


def sarif_kinds(argv: list[str], cwd: Path | None = None) -> dict[str, set[str]]:
    """Document name -> the kinds ``textfrag check ARGV`` (a process, SARIF, run in ``cwd``) reports in it."""
    r = run_textfrag("check", "--format", "sarif", *argv, cwd=cwd, timeout=120)
    assert r.returncode in (0, 1, 2), r.stderr
    out: dict[str, set[str]] = {}
    for result in json.loads(r.stdout)["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        out.setdefault(Path(uri).name, set()).add(result["ruleId"].removeprefix("textfrag/"))
    return out


def sphinx_kinds(root: Path) -> dict[str, set[str]]:
    """Document -> the kinds a real ``sphinx-build -E`` reports in it (its warnings' subtypes)."""
    r = run_sphinx("-E", "-q", "--no-color", "-b", "html", str(root / "sphinx"), str(root / "_build"), timeout=300)
    out: dict[str, set[str]] = {}
    # (a message may run over indented lines: a syntax error draws a caret under the reference; its kind
    # ends it, and a line that is not indented starts another message)
    warning = r"([\w]+\.(?:rst|md)):\d+: (?:WARNING|ERROR): (?:(?!\n\S).)*?\[textfrag\.(\w+)\]"
    for m in re.finditer(warning, r.stderr, re.S):
        out.setdefault(m.group(1), set()).add(m.group(2))
    return out


def mkdocs_failing(root: Path) -> tuple[set[str], str]:
    """The pages a real ``mkdocs build`` reports a textfrag problem in, and its log."""
    r = run_mkdocs(
        "build", "-q", "-d", str(root / "_site"), timeout=300, cwd=root / "mkdocs", env=dict(os.environ, NO_MKDOCS_2_WARNING="1")
    )
    return set(re.findall(r"ERROR\s+-\s+(\w+\.md):\d+:", r.stderr)), r.stderr


def mkdocs_site(root: Path, extensions: str = "  - attr_list\n", options: str = "") -> Path:
    """A project at ``root``: ``src/app.py`` and an MkDocs site in ``mkdocs/`` (the plugin, its root ``..``,
    the Markdown extensions given as YAML list lines, more plugin options); its empty docs folder."""
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    docs = root / "mkdocs" / "docs"
    docs.mkdir(parents=True)
    listed = f"markdown_extensions:\n{extensions}" if extensions else ""
    (root / "mkdocs" / "mkdocs.yml").write_text(f"site_name: t\n{listed}plugins:\n  - textfrag:\n      root: ..\n{options}")
    return docs


def site_kinds(root: Path) -> dict[str, set[str]]:
    """Document -> the kinds ``textfrag check docs`` reports, run in the MkDocs site (reading its mkdocs.yml)."""
    r = run_textfrag("check", "--format", "json", "docs", cwd=root / "mkdocs", timeout=60)
    assert r.returncode in (0, 1, 2), r.stderr
    out: dict[str, set[str]] = {}
    for result in json.loads(r.stdout)["results"]:
        if result["kind"]:
            out.setdefault(Path(result["document"]).name, set()).add(result["kind"])
    return out


def test_check_sphinx_and_mkdocs_reach_one_verdict_on_every_case(project: Path) -> None:
    checked_rst = check_kinds(project, project / "sphinx")
    built = sphinx_kinds(project)
    checked_md = check_kinds(project, project / "mkdocs" / "docs")
    mk_failing, mk_log = mkdocs_failing(project)
    for name, _ref, _options, attrs, kind in CASES:
        expected = set() if kind is None else {kind}
        for doc in (f"{name}.rst", f"{name}_myst.md"):
            assert checked_rst.get(doc, set()) == expected, (doc, checked_rst.get(doc))
            assert built.get(doc, set()) == expected, (doc, built.get(doc))
        if attrs is not None:
            assert checked_md.get(f"{name}.md", set()) == expected, (name, checked_md.get(f"{name}.md"))
            assert (f"{name}.md" in mk_failing) == (kind is not None), (name, mk_log)


@pytest.mark.asyncio
async def test_the_editor_reaches_the_same_verdict(client: LanguageClient, project: Path) -> None:  # noqa: F811
    await start(client, project)
    for name, _ref, _options, _attrs, kind in CASES:
        expected = set() if kind is None else {kind}
        for doc, language in ((f"sphinx/{name}.rst", "restructuredtext"), (f"sphinx/{name}_myst.md", "markdown")):
            path = project / doc
            diagnostics = await open_doc(client, path, path.read_text(encoding="utf-8"), language)
            codes = {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error}
            assert codes == expected, (doc, diagnostics)


def test_the_same_problem_has_the_same_words_in_check_and_the_build(project: Path) -> None:
    """A misspelt option: check and Sphinx say the same words, naming the option it was probably meant to be."""
    r = run_textfrag("check", "--root", str(project), str(project / "sphinx" / "misspelt_option.rst"), timeout=60)
    assert r.returncode == 2
    said = "unknown option :emphasise-lines:; did you mean :emphasize-lines:?"
    assert said in r.stderr and "misspelt_option.rst:4:" in r.stderr
    built = run_sphinx("-E", "-q", "--no-color", "-b", "html", str(project / "sphinx"), str(project / "_b2"), timeout=300)
    assert said in built.stderr


#: edits of the quoted file a writer makes: (old, new) text replaced once, in the file as the project has it
EDITS = [
    ("", ""),
    ('"hello {name}"', '"hi {name}"'),
    ("import os\n", "import os\nimport sys\n"),
    ("def farewell", "def goodbye"),
    ("def greet", "def salute"),
    ("    return item\n", "    return item\n\n    def take(self):\n        return 1\n"),
]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    case=st.sampled_from([c for c in CASES if c[0] != "stale_pin"]),
    edit=st.sampled_from(EDITS),
)
def test_checks_verdict_equals_the_builds_for_any_edit_of_the_quoted_file(
    tmp_path_factory: pytest.TempPathFactory,
    case: tuple[str, str, dict[str, str], dict[str, str] | None, str | None],
    edit: tuple[str, str],
) -> None:
    """A property: whatever the options and whatever edit the quoted file gets, ``check`` (through
    ``main(argv)``) fails exactly when the Sphinx build fails, with the same kinds."""
    from sphinx.testing.util import SphinxTestApp

    root = tmp_path_factory.mktemp("prop")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP.replace(edit[0], edit[1], 1), encoding="utf-8")
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (docs / "index.rst").write_text(rst_doc(case[1], case[2]), encoding="utf-8")
    import io

    out, err = io.StringIO(), io.StringIO()
    main(["check", "--root", str(root), "--format", "json", str(docs)], stdout=out, stderr=err)
    checked = {r["kind"] for r in json.loads(out.getvalue())["results"] if r["kind"]}
    warnings = io.StringIO()
    # (a test app: its cleanup undoes what Sphinx registers in docutils, which would otherwise leak into the
    # next Sphinx app this worker process makes)
    app = SphinxTestApp("html", srcdir=docs, builddir=root / "_build", status=io.StringIO(), warning=warnings)
    try:
        app.build()
    finally:
        app.cleanup()
    built = set(re.findall(r"\[textfrag\.(\w+)\]", warnings.getvalue())) - {"summary"}
    assert checked == built, (case[0], edit, err.getvalue(), warnings.getvalue())
    assert (app.statuscode != 0) == bool(checked)


def test_textfrag_options_lists_the_one_table_the_messages_point_to() -> None:
    import io

    from textfrag.verdict.option_table import OPTIONS

    out = io.StringIO()
    assert main(["options"], stdout=out, stderr=io.StringIO()) == 0
    for spec in OPTIONS:
        assert (f":{spec.name}:" if spec.rst else f"{spec.md[0]}=") in out.getvalue()
    table = io.StringIO()
    assert main(["options", "--format", "markdown"], stdout=table, stderr=io.StringIO()) == 0
    assert table.getvalue().startswith("| reStructuredText / MyST | Markdown attribute |")


def test_an_option_written_twice_fails_check_as_docutils_refuses_the_directive(tmp_path: Path) -> None:
    """docutils refuses a directive with an option written twice (the page shows its error, not the
    excerpt); MyST-Parser takes the last one. ``check`` says the same of each."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "sphinx_textfrag"]\n', encoding="utf-8")
    (tmp_path / "index.rst").write_text(
        f"T\n=\n\n.. toctree::\n\n   mine\n\n.. txtfrag:: {GREET}\n   :caption: one\n   :caption: two\n", encoding="utf-8"
    )
    (tmp_path / "mine.md").write_text(f"# M\n\n```{{txtfrag}} {GREET}\n:caption: one\n:caption: two\n```\n", encoding="utf-8")
    built = run_sphinx("-E", "-q", "-b", "html", str(tmp_path), str(tmp_path / "_build"), timeout=300)
    assert 'index.rst:8: ERROR: Error in "txtfrag" directive' in built.stderr
    assert "duplicate option" in built.stderr
    assert "mine.md" not in built.stderr  # (MyST-Parser: the last one)
    checked = run_textfrag("check", "--root", str(tmp_path), str(tmp_path))
    assert checked.returncode == 2, checked.stderr
    assert re.search(r"index\.rst:8: \S+: duplicate option :caption: \(docutils refuses the directive", checked.stderr)
    assert "mine.md" not in checked.stderr


def test_crlf_pages_with_options_are_read_as_sphinx_reads_them(tmp_path: Path) -> None:
    """Pages checked out with CR LF (git on Windows): a directive's option lines are options, in
    reStructuredText and in MyST; Sphinx builds both and ``check`` says all current, as the build does.
    A stale one is stale in both, on the same line."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "sphinx_textfrag"]\n', encoding="utf-8")
    rst = f"T\n=\n\n.. toctree::\n\n   mine\n\n.. txtfrag:: {GREET}\n   :caption: Greet\n   :emphasize-lines: 5\n\nAfter.\n"
    myst = f"# M\n\n```{{txtfrag}} {SHELF}\n:caption: Shelf\n:pyobject: Shelf\n```\n\nAfter.\n"
    (tmp_path / "index.rst").write_bytes(rst.replace("\n", "\r\n").encode())
    (tmp_path / "mine.md").write_bytes(myst.replace("\n", "\r\n").encode())
    built = run_sphinx("-E", "-q", "-b", "html", str(tmp_path), str(tmp_path / "_build"), timeout=300)
    assert built.returncode == 0 and "ERROR" not in built.stderr and "WARNING" not in built.stderr, built.stderr
    checked = run_textfrag("check", "--root", str(tmp_path), str(tmp_path))
    assert checked.returncode == 0 and "2 references in 2 documents: all current" in checked.stdout, checked.stderr
    (tmp_path / "index.rst").write_bytes(rst.replace(GREET, STALE).replace("\n", "\r\n").encode())
    built = run_sphinx("-E", "-q", "-b", "html", str(tmp_path), str(tmp_path / "_build"), timeout=300)
    checked = run_textfrag("check", "--root", str(tmp_path), str(tmp_path))
    assert checked.returncode == 1 and "index.rst:8: " in checked.stderr and "stale" in checked.stdout, checked.stderr
    assert "index.rst:8:" in built.stderr, built.stderr


#: MyST-Parser reads an option's value as YAML: quotes and a comment are not part of it
MYST_VALUES = [
    ("quoted", {"emphasize-lines": '"5"'}, set()),
    ("commented", {"emphasize-lines": "5 # the return"}, set()),
    ("single_quoted_past_the_end", {"emphasize-lines": "'9'"}, {"error"}),
    ("comment_alone", {"prepend": "# a comment, so no value"}, {"option"}),
    ("hash_inside", {"caption": "issue#5"}, set()),
]


def myst_yaml_doc(ref: str, options: dict[str, str]) -> str:
    """A MyST directive whose options are written as YAML, between ``---`` lines."""
    return "\n".join(["# Case", "", f"```{{txtfrag}} {ref}", "---", *(f"{k}: {v}" for k, v in options.items()), "---", "```", ""])


def test_myst_option_values_are_read_as_myst_parser_reads_them(tmp_path: Path) -> None:
    """``:emphasize-lines: "5"`` or ``5 # the return`` in MyST is line 5 to the build; ``:prepend: # x``
    is no value at all; options may be written as YAML between ``---`` lines: check reads them the same
    way, and fails the same documents with the same kinds."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag', 'myst_parser']\ntextfrag_root = '..'\n")
    cases = [(name, myst_doc(GREET, options), kinds) for name, options, kinds in MYST_VALUES]
    cases += [
        ("yaml_block", myst_yaml_doc(GREET, {"emphasize-lines": "5  # the return", "caption": '"Greet: hello"'}), set()),
        ("yaml_block_past_the_end", myst_yaml_doc(GREET, {"caption": "Hi", "emphasize-lines": "9"}), {"error"}),
        ("yaml_block_misspelt", myst_yaml_doc(GREET, {"emphasise-lines": "5"}), {"option"}),
    ]
    for name, doc, _ in cases:
        (sphinx / f"{name}.md").write_text(doc, encoding="utf-8")
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n, _, _ in cases))
    checked, built = check_kinds(tmp_path, sphinx), sphinx_kinds(tmp_path)
    for name, _, kinds in cases:
        assert checked.get(f"{name}.md", set()) == kinds == built.get(f"{name}.md", set()), (name, checked, built)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" #'\"\\abcnxuU0159fF-:_", max_size=14))
def test_a_myst_value_is_what_myst_parser_reads(value: str) -> None:
    """textfrag.verdict.written_options.myst_scalar against MyST-Parser's own option parser, on every one-line value it
    accepts (what it refuses fails the build with MyST-Parser's error, whatever textfrag reads)."""
    from myst_parser.parsers.options import TokenizeError, options_to_items

    from textfrag.verdict.written_options import myst_scalar

    value = value.strip(" ")
    try:
        items, _ = options_to_items(f"k: {value}")
    except TokenizeError:
        return
    assert myst_scalar(value)[0] == (items[0][1] if items else "")


def test_an_attribute_list_after_a_space_fails_check_as_it_fails_the_build(tmp_path: Path) -> None:
    """attr_list reads ``{ ... }`` only right after the image: after a space it is text, and the options in
    it are lost. The build and check say so with the same words (and not "enable attr_list": it is on)."""
    docs = mkdocs_site(tmp_path)
    (docs / "index.md").write_text("# Index\n")
    (docs / "spaced.md").write_text(f'# Case\n\n![](txtfrag:{GREET}) {{ hl_lines="2" }}\n', encoding="utf-8")
    (docs / "direct.md").write_text(f'# Case\n\n![](txtfrag:{GREET}){{ hl_lines="2" }}\n', encoding="utf-8")
    assert check_kinds(tmp_path, docs) == {"spaced.md": {"option"}}
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"spaced.md"}, log
    said = "attr_list reads it only when it follows the image directly (remove the space before {)"
    assert said in log
    r = run_textfrag("check", "--root", str(tmp_path), str(docs), timeout=60)
    assert said in r.stderr and "spaced.md:3:" in r.stderr


def test_an_attribute_list_where_attr_list_is_off_fails_check_as_it_fails_the_build(tmp_path: Path) -> None:
    """An mkdocs.yml without attr_list shows ``{ hl_lines="2" }`` after the image as text: the build fails
    and says to enable attr_list; check reads the same mkdocs.yml and says the same of the same line."""
    docs = mkdocs_site(tmp_path, extensions="")
    (docs / "index.md").write_text("# Index\n")
    (docs / "attributes.md").write_text(f'# Case\n\n![](txtfrag:{GREET}){{ hl_lines="2" }}\n', encoding="utf-8")
    (docs / "plain.md").write_text(f"# Case\n\n![](txtfrag:{GREET})\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"attributes.md"}, log
    said = "enable attr_list (markdown_extensions: [attr_list])"
    assert said in log
    r = run_textfrag("check", "docs", cwd=tmp_path / "mkdocs", timeout=60)
    assert r.returncode == 2, r.stderr
    assert said in r.stderr and "attributes.md:3:" in r.stderr and "plain.md" not in r.stderr


def test_a_reference_style_images_attribute_list_is_read_by_check_as_by_the_build(tmp_path: Path) -> None:
    """``![x][r]{ hl_lines="9" }`` with ``[r]: txtfrag:...``: Python-Markdown embeds the definition's
    reference with the options written after the image that uses it. A highlighted line past the end fails
    the build at the definition's line, and check there too; the same image with options that fit passes
    both, and a definition only a link uses is judged without options."""
    docs = mkdocs_site(tmp_path)
    (docs / "index.md").write_text(f"# Index\n\n![]({'txtfrag:' + GREET})\n")
    (docs / "past.md").write_text(f'# Case\n\n![x][r]{{ hl_lines="9" }}\n\n[r]: txtfrag:{GREET}\n', encoding="utf-8")
    (docs / "short.md").write_text(f'# Case\n\n![r]{{ pyobject="farewell" }}\n\n[r]: txtfrag:{GREET}\n', encoding="utf-8")
    (docs / "fits.md").write_text(f'# Case\n\n![x][r]{{ hl_lines="2" }}\n\n[r]: txtfrag:{GREET}\n', encoding="utf-8")
    (docs / "linked.md").write_text(f"# Case\n\nSee [greet][r].\n\n[r]: txtfrag:{GREET}\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"past.md", "short.md"}, log
    assert "past.md:5:" in log and "short.md:5:" in log
    assert check_kinds(tmp_path, docs) == {"past.md": {"error"}, "short.md": {"intent"}}
    r = run_textfrag("check", "docs", cwd=tmp_path / "mkdocs", timeout=60)
    assert r.returncode == 2 and "past.md:5:" in r.stderr and "hl_lines 9 is outside the excerpt" in r.stderr, r.stderr


def _sphinx_myst_project(root: Path) -> Path:
    """A Sphinx project reading Markdown with MyST-Parser, whose .md documents write txtfrag: images and links."""
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = root / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag', 'myst_parser']\ntextfrag_root = '..'\n")
    docs = {
        "image": f"# Case\n\n![](txtfrag:{GREET})\n",
        "link": f"# Case\n\nSee [greet](txtfrag:{GREET}).\n",
        "reference_style": f"# Case\n\n![x][r]\n\n[r]: txtfrag:{GREET}\n",
        "directive": f"# Case\n\n```{{txtfrag}} {GREET}\n```\n",
    }
    for name, text in docs.items():
        (sphinx / f"{name}.md").write_text(text, encoding="utf-8")
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n in docs))
    return sphinx


def test_a_markdown_image_or_link_in_a_sphinx_myst_document_fails_check_the_editor_and_the_build_alike(
    tmp_path: Path,
) -> None:
    """MyST-Parser makes ``![](txtfrag:...)`` a broken image and ``[x](txtfrag:...)`` a broken cross-reference
    (Sphinx only warned, and shipped both): the build now fails on each with the kind ``form``, and check,
    reading the same conf.py, says the same of the same documents; the directive beside them passes both."""
    sphinx = _sphinx_myst_project(tmp_path)
    built = sphinx_kinds(tmp_path)
    expected = {"image.md": {"form"}, "link.md": {"form"}, "reference_style.md": {"form"}}
    assert built == expected
    r = run_textfrag("check", "--config", str(sphinx / "conf.py"), "--format", "sarif", str(sphinx), timeout=60)
    assert r.returncode == 2, r.stderr
    checked: dict[str, set[str]] = {}
    for result in json.loads(r.stdout)["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        checked.setdefault(Path(uri).name, set()).add(result["ruleId"].removeprefix("textfrag/"))
    assert checked == expected
    said = "Sphinx does not embed a Markdown image (MyST-Parser makes it a broken image)"
    text = run_textfrag("check", str(sphinx), cwd=tmp_path, timeout=60)
    assert f"image.md:3: txtfrag:{GREET}: {said}" in text.stderr, text.stderr
    page = (tmp_path / "_build" / "image.html").read_text(encoding="utf-8")
    assert said in page and 'src="txtfrag:' not in page  # the problem in its place, no broken image


@pytest.mark.asyncio
async def test_the_editor_says_the_same_of_a_markdown_image_in_a_sphinx_myst_document(
    client: LanguageClient,  # noqa: F811
    tmp_path: Path,
) -> None:
    sphinx = _sphinx_myst_project(tmp_path)
    await start(client, tmp_path)
    for name, expected in (("image", {"form"}), ("link", {"form"}), ("directive", set())):
        path = sphinx / f"{name}.md"
        diagnostics = await open_doc(client, path, path.read_text(encoding="utf-8"), "markdown")
        assert {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error} == expected, diagnostics


def test_a_myst_directive_or_role_in_an_mkdocs_page_fails_check_and_the_build_alike(tmp_path: Path) -> None:
    """MkDocs showed ```{txtfrag} REF```, :::{txtfrag} and {txtfrag}`REF` as code or text and built, while
    check judged them as excerpts: now each fails the build and check (reading mkdocs.yml) with the same
    words; the image beside them passes both."""
    docs = mkdocs_site(tmp_path)
    (docs / "index.md").write_text(f"# Index\n\n![](txtfrag:{GREET})\n")
    (docs / "fence.md").write_text(f"# Case\n\n```{{txtfrag}} {GREET}\n```\n", encoding="utf-8")
    (docs / "colon.md").write_text(f"# Case\n\n:::{{txtfrag}} {GREET}\n:::\n", encoding="utf-8")
    (docs / "role.md").write_text(f"# Case\n\nSee {{txtfrag}}`{GREET}`.\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"fence.md", "colon.md", "role.md"}, log
    # (--root sets the root only: mkdocs.yml is read all the same, and check fails what the build fails)
    assert check_kinds(tmp_path, docs) == {"fence.md": {"form"}, "colon.md": {"form"}, "role.md": {"form"}}
    assert site_kinds(tmp_path) == {"fence.md": {"form"}, "colon.md": {"form"}, "role.md": {"form"}}
    said = "a MyST directive is not rendered by Markdown (MkDocs, ProperDocs, Zensical show it as text or code)"
    assert f"fence.md:3: {GREET}: {said}" in log


@pytest.mark.asyncio
async def test_the_editor_says_the_same_of_a_myst_directive_in_an_mkdocs_page_and_of_an_image_in_mystmd(
    client: LanguageClient,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The language server reads the document's nearest configuration as check does: in an MkDocs project a
    MyST directive is a ``form`` problem and the image beside it is not; in a mystmd project, the reverse."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    site, book = tmp_path / "site", tmp_path / "book"
    (site / "docs").mkdir(parents=True)
    book.mkdir()
    (site / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag:\n      root: ..\n")
    (book / "myst.yml").write_text("version: 1\nproject:\n  plugins:\n    - type: executable\n      path: textfrag-myst\n")
    directive, image = f"# Case\n\n```{{txtfrag}} {GREET}\n```\n", f"# Case\n\n![](txtfrag:{GREET})\n"
    cases = [(site / "docs" / "directive.md", directive, {"form"}), (site / "docs" / "image.md", image, set())]
    cases += [(book / "image.md", image, {"form"})]  # (judged as no excerpt before its path is looked at)
    await start(client, tmp_path)
    for path, text, expected in cases:
        path.write_text(text, encoding="utf-8")
        diagnostics = await open_doc(client, path, text, "markdown")
        assert {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error} == expected, (path, diagnostics)


@pytest.mark.parametrize("enabled", [False, True])
def test_a_colon_fence_is_a_directive_only_where_myst_parser_enables_colon_fence(tmp_path: Path, enabled: bool) -> None:
    """Without ``colon_fence`` in ``myst_enable_extensions`` MyST-Parser shows ``:::{txtfrag} REF`` as text
    (Sphinx built it, quoting nothing, while check judged it): the build and check now both fail it as a
    ``form`` problem saying what to enable; with colon_fence it is the directive, judged as such by both."""
    sphinx = _sphinx_myst_project(tmp_path)
    for name in ("image", "link", "reference_style", "directive"):
        (sphinx / f"{name}.md").unlink()
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   colon\n")
    (sphinx / "colon.md").write_text(f"# Case\n\n:::{{txtfrag}} {STALE}\n:::\n", encoding="utf-8")
    if enabled:
        with (sphinx / "conf.py").open("a") as conf:
            conf.write("myst_enable_extensions = ['colon_fence']\n")
    expected = {"colon.md": {"stale" if enabled else "form"}}
    assert sphinx_kinds(tmp_path) == expected
    r = run_textfrag("check", "--format", "sarif", str(sphinx), cwd=tmp_path, timeout=60)
    kinds = {r_["ruleId"].removeprefix("textfrag/") for r_ in json.loads(r.stdout)["runs"][0]["results"]}
    assert kinds == expected["colon.md"], r.stderr


@pytest.mark.parametrize("md_in_html", [False, True])
def test_an_image_in_a_raw_html_block_is_judged_by_check_as_mkdocs_renders_it(tmp_path: Path, md_in_html: bool) -> None:
    """Python-Markdown leaves a raw HTML block's text as it is: an image inside ``<div>...</div>`` is never
    embedded, and the page shows its Markdown as text. check (reading mkdocs.yml) and the build say so alike
    (it passed silently before), and judge what md_in_html makes Markdown (``<div markdown>``)."""
    docs = mkdocs_site(tmp_path, extensions="  - attr_list\n" + ("  - md_in_html\n" if md_in_html else ""))
    (docs / "index.md").write_text("# Index\n")
    (docs / "raw.md").write_text(f"# Case\n\n<div>\n![](txtfrag:{STALE})\n</div>\n", encoding="utf-8")
    (docs / "markdown.md").write_text(f"# Case\n\n<div markdown>\n\n![](txtfrag:{STALE})\n\n</div>\n", encoding="utf-8")
    (docs / "after.md").write_text(f"# Case\n\n<div></div>\n\n![](txtfrag:{STALE})\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"after.md", "markdown.md", "raw.md"}, log
    said = "a Markdown image or link inside a raw HTML block is shown as the text it is"
    assert f"raw.md:4: txtfrag:{STALE}: {said}" in log
    assert (f"markdown.md:5: txtfrag:{STALE}: {said}" in log) == (not md_in_html), log
    kinds = site_kinds(tmp_path)
    assert kinds["after.md"] == {"stale"} and kinds["raw.md"] == {"form"}, kinds
    assert kinds["markdown.md"] == ({"stale"} if md_in_html else {"form"}), kinds


#: reStructuredText constructs where docutils and Sphinx read, or do not read, inline markup and directives:
#: (name, document, whether the build judges the stale reference in it)
_RST_CONSTRUCTS = [
    ("parsed_literal", f"C\n=\n\n.. parsed-literal::\n\n   :txtfrag:`{STALE}`\n", True),
    ("list_table_directive", f"C\n=\n\n.. list-table::\n\n   * - .. txtfrag:: {STALE}\n", True),
    ("list_item_directive", f"C\n=\n\n- .. txtfrag:: {STALE}\n", True),
    ("enumerated_directive", f"C\n=\n\n1. .. txtfrag:: {STALE}\n", True),
    ("empty_comment", f"C\n=\n\n..\n\n   .. txtfrag:: {STALE}\n", True),
    ("comment", f"C\n=\n\n.. a comment\n   .. txtfrag:: {STALE}\n", False),
    ("doctest_block", f"C\n=\n\n>>> :txtfrag:`{STALE}`\n", False),
    ("productionlist", f"C\n=\n\n.. productionlist::\n   a: :txtfrag:`{STALE}`\n", False),
    ("list_item_code_block", f"C\n=\n\n- .. code-block:: rst\n\n     :txtfrag:`{STALE}`\n", False),
]


def test_check_reads_rst_constructs_as_sphinx_does(tmp_path: Path) -> None:
    """Roles in a parsed-literal are rendered; a directive can open a list item (and a list-table's cell);
    '..' alone before a blank line is an empty comment that does not take the indented text after it;
    doctest blocks and a grammar's productions are literal. Found by an exploratory differential of 41
    reStructuredText documents against a real Sphinx build."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    for name, text, _ in _RST_CONSTRUCTS:
        (sphinx / f"{name}.rst").write_text(text, encoding="utf-8")
    names = [c[0] for c in _RST_CONSTRUCTS]
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n in names))
    expected = {f"{name}.rst": {"stale"} for name, _, judged in _RST_CONSTRUCTS if judged}
    assert sphinx_kinds(tmp_path) == expected
    assert check_kinds(tmp_path, sphinx) == expected


@pytest.mark.parametrize("source_url", [False, True])
def test_a_link_with_no_target_fails_check_as_it_fails_a_strict_mkdocs_build(tmp_path: Path, source_url: bool) -> None:
    """``[see](txtfrag:REF)`` where no page embeds REF and no source_url is set points nowhere: MkDocs warns
    (``--strict`` fails), and check, which said nothing, now fails it with the same words at the same line,
    also for a reference-style link. A link to an excerpt another page embeds, or with source_url, passes."""
    options = "      source_url: https://example.org/{path}#L{first}\n" if source_url else ""
    docs = mkdocs_site(tmp_path, extensions="", options=options)
    (docs / "index.md").write_text(f"# Index\n\n![](txtfrag:{SHELF})\n")
    (docs / "alone.md").write_text(f"# Case\n\nSee [greet](txtfrag:{GREET}).\n", encoding="utf-8")
    (docs / "defined.md").write_text(f"# Case\n\nSee [greet][r].\n\n[r]: txtfrag:{GREET}\n", encoding="utf-8")
    (docs / "elsewhere.md").write_text(f"# Case\n\nSee [the shelf](txtfrag:{SHELF}).\n", encoding="utf-8")
    r = run_mkdocs(
        "build",
        "--strict",
        "-d",
        str(tmp_path / "_site"),
        cwd=tmp_path / "mkdocs",
        timeout=300,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    warned = set(re.findall(r"WARNING\s+-\s+(\w+\.md:\d+): .*this link has no target", r.stderr))
    checked = run_textfrag("check", "docs", cwd=tmp_path / "mkdocs", timeout=60)
    said = set(re.findall(r"docs/(\w+\.md:\d+): .*this link has no target", checked.stderr))
    if source_url:
        assert r.returncode == 0 and not warned, r.stderr
        assert checked.returncode == 0 and not said, checked.stderr
    else:
        assert r.returncode != 0 and warned == {"alone.md:3", "defined.md:5"}, r.stderr
        assert checked.returncode == 2 and said == warned, checked.stderr


@pytest.mark.asyncio
async def test_the_editor_says_a_link_has_no_target_as_check_does(client: LanguageClient, tmp_path: Path) -> None:  # noqa: F811
    """The language server looks for a link's excerpt where the MkDocs plugin does (every page of the
    workspace): a link to what no page embeds gets the ``link`` problem, one to another page's excerpt none."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag\n")
    (docs / "index.md").write_text(f"# Index\n\n![](txtfrag:{SHELF})\n")
    cases = [(docs / "alone.md", f"# A\n\nSee [greet](txtfrag:{GREET}).\n", {"link"})]
    cases += [(docs / "elsewhere.md", f"# E\n\nSee [the shelf](txtfrag:{SHELF}).\n", set())]
    await start(client, tmp_path)
    for path, text, expected in cases:
        path.write_text(text, encoding="utf-8")
        diagnostics = await open_doc(client, path, text, "markdown")
        assert {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error} == expected, (path, diagnostics)
