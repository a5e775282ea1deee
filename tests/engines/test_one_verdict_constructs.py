"""One verdict on where a reference stands: constructs of reStructuredText and MyST that a
real Sphinx build reads as text, or not, and that ``check`` (a process, SARIF) and the language server
must read the same way. Found by exploratory differentials of 51 reStructuredText and 29 MyST documents
against a real ``sphinx-build``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from ..lsp.conftest import client, open_doc, start  # noqa: F401 (the pytest-lsp fixture)
from ..processes import run_sphinx, run_textfrag
from .test_one_verdict import APP, GREET, STALE, check_kinds, mkdocs_failing, mkdocs_site, sarif_kinds, site_kinds, sphinx_kinds

ROLE = f":txtfrag:`{STALE}`"
MYST_ROLE = "{txtfrag}`" + STALE + "`"
F = "```"

#: (name, the document, whether the build judges the stale reference in it)
RST = [
    # a directive's options are values: docutils parses none of them (a code directive's :caption: apart)
    ("directive_option", f"C\n=\n\n.. note::\n   :class: {ROLE}\n\n   Body.\n", False),
    ("toctree_caption", f"C\n=\n\n.. toctree::\n   :caption: {ROLE}\n", False),
    ("option_then_content", f"C\n=\n\n.. note::\n   :class: x\n\n   {ROLE}\n", True),
    ("argument_then_option", f"C\n=\n\n.. admonition:: {ROLE}\n   :class: x\n\n   Body.\n", True),
    ("code_caption", f"C\n=\n\n.. code-block:: text\n   :caption: {ROLE}\n\n   x\n", True),
    # a role declared as txtfrag's under another name (docutils' role directive), from there on (Sphinx
    # keeps it for the documents read after this one too, so their order would decide: not in the table)
    ("role_alias", f"C\n=\n\n.. role:: tf(txtfrag)\n\nSee :tf:`{STALE}`.\n", True),
    ("role_alias_suffix", f"C\n=\n\n.. role:: tf(txtfrag)\n\nSee `{STALE}`:tf:.\n", True),
    # docutils expands a tab to spaces (a tab after '..' is white space); a field's body may be a directive
    ("tab_after_dots", f"C\n=\n\n..\ttxtfrag:: {STALE}\n", True),
    ("field_body_directive", f"C\n=\n\n:Field: .. txtfrag:: {STALE}\n", True),
]
MYST = [
    # the options at the top of a directive's body (short or YAML) are values
    ("myst_option", f"# C\n\n{F}{{note}}\n:class: {MYST_ROLE}\n\nBody\n{F}\n", False),
    ("myst_yaml_options", f"# C\n\n{F}{{note}}\n---\nclass: {MYST_ROLE}\n---\nBody\n{F}\n", False),
    ("myst_yaml_then_body", f"# C\n\n{F}{{note}}\n---\nclass: x\n---\n{MYST_ROLE}\n{F}\n", True),
    ("myst_option_then_body", f"# C\n\n{F}{{note}}\n:class: x\n\n{MYST_ROLE}\n{F}\n", True),
    ("myst_colon_option", f"# C\n\n:::{{note}}\n:alt: {MYST_ROLE}\n\nBody\n:::\n", False),
    # an {eval-rst} body is reStructuredText: MyST-Parser hands it to docutils
    ("eval_rst_directive", f"# C\n\n{F}{{eval-rst}}\n.. txtfrag:: {STALE}\n{F}\n", True),
    ("eval_rst_role", f"# C\n\n{F}{{eval-rst}}\nSee {ROLE}.\n{F}\n", True),
    ("eval_rst_in_note", f"# C\n\n::::{{note}}\n{F}{{eval-rst}}\n.. txtfrag:: {STALE}\n{F}\n::::\n", True),
    ("eval_rst_code", f"# C\n\n{F}{{eval-rst}}\n.. code-block:: rst\n\n   {ROLE}\n{F}\n", False),
    # a comment, a block break and a target are not text, in a list or a quote too
    ("myst_comment", f"# C\n\n% {MYST_ROLE}\n", False),
    ("myst_comment_after_text", f"# C\n\nText\n% {MYST_ROLE}\n", False),
    ("myst_comment_in_list", f"# C\n\n- % {MYST_ROLE}\n", False),
    ("myst_comment_in_quote", f"# C\n\n> % {MYST_ROLE}\n", False),
    ("percent_in_text", f"# C\n\n50 % {MYST_ROLE}\n", True),
    ("myst_block_break", f"# C\n\n+++ {MYST_ROLE}\n", False),
    ("myst_target", f"# C\n\n({MYST_ROLE})=\n\n## T\n", False),
    # a role's name in any case, its code span of any length, not after a backslash; a directive in a quote;
    # front matter is the page's metadata
    ("myst_role_upper", "# C\n\n{TXTFRAG}`" + STALE + "`\n", True),
    ("myst_role_double_ticks", "# C\n\n{txtfrag}``" + STALE + "``\n", True),
    ("myst_role_escaped", "# C\n\n\\{txtfrag}`" + STALE + "`\n", False),
    ("myst_directive_in_quote", f"# C\n\n> {F}{{txtfrag}} {STALE}\n> {F}\n", True),
    ("myst_code_in_quote", f"# C\n\n> {F}\n> {MYST_ROLE}\n> {F}\n", False),
    ("myst_front_matter", f"---\ntitle: {MYST_ROLE}\n---\n\n# C\n", False),
    # CommonMark's HTML blocks are raw HTML (most end at a blank line; a comment at its -->)
    ("html_block", f"# C\n\n<div>\n{MYST_ROLE}\n</div>\n", False),
    ("html_block_one_line", f"# C\n\n<div> {MYST_ROLE}\n", False),
    ("html_block_then_markdown", f"# C\n\n<div>\n\n{MYST_ROLE}\n\n</div>\n", True),
    ("html_comment_unclosed", f"# C\n\n<!--\n{MYST_ROLE}\n", False),
    ("html_tag_in_paragraph", f"# C\n\nText\n<span>\n{MYST_ROLE}\n", True),
]


def test_check_reads_directive_options_role_aliases_eval_rst_and_myst_comments_as_sphinx_does(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    conf = "extensions = ['sphinx_textfrag', 'myst_parser']\nmyst_enable_extensions = ['colon_fence']\ntextfrag_root = '..'\n"
    (sphinx / "conf.py").write_text(conf)
    for name, text, _ in RST:
        (sphinx / f"{name}.rst").write_text(text, encoding="utf-8")
    for name, text, _ in MYST:
        (sphinx / f"{name}.md").write_text(text, encoding="utf-8")
    (sphinx / "index.rst").write_text("Index\n=====\n\n.. toctree::\n   :glob:\n\n   *\n")
    expected = {f"{n}.rst": {"stale"} for n, _, judged in RST if judged}
    expected |= {f"{n}.md": {"stale"} for n, _, judged in MYST if judged}
    assert sphinx_kinds(tmp_path) == expected
    assert configured_kinds(tmp_path, "sphinx") == expected  # (conf.py read: MyST's CommonMark HTML blocks)
    assert check_kinds(tmp_path, sphinx) == expected  # (--root sets the root: conf.py is read all the same)


def configured_kinds(root: Path, docs: str) -> dict[str, set[str]]:
    """Document -> the kinds ``textfrag check DOCS`` reports, run in ``root``, reading the configuration it finds."""
    return sarif_kinds([docs], root)


def test_eval_rst_under_mystmd_is_a_form_it_does_not_render(tmp_path: Path) -> None:
    """mystmd has no {eval-rst} (an unknown directive: its body is not shown), so a reference in one is no
    excerpt there: check, reading myst.yml, says so (kind ``form``) instead of judging it as one."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  plugins:\n    - type: executable\n      path: textfrag-myst\n")
    (tmp_path / "rst.md").write_text(f"# C\n\n{F}{{eval-rst}}\n.. txtfrag:: {GREET}\n{F}\n\nSee {ROLE}.\n", encoding="utf-8")
    (tmp_path / "myst.md").write_text(f"# C\n\n{F}{{txtfrag}} {GREET}\n{F}\n", encoding="utf-8")
    r = run_textfrag("check", "--format", "sarif", ".", cwd=tmp_path)
    results = json.loads(r.stdout)["runs"][0]["results"]
    found = sorted((x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], x["ruleId"]) for x in results)
    assert found == [("rst.md", "textfrag/form")], r.stdout
    assert "mystmd does not run reStructuredText" in results[0]["message"]["text"]


def test_a_myst_fence_in_an_mkdocs_page_is_code_as_python_markdown_reads_it(tmp_path: Path) -> None:
    """Python-Markdown knows no MyST directive: ```{note} is a code block (its image is code, not an
    excerpt), a ::: line is text (the image after it is one); check, reading mkdocs.yml, reads them so."""
    docs = mkdocs_site(tmp_path, "  - attr_list\n  - pymdownx.superfences\n")
    (docs / "index.md").write_text("# Index\n\nHello.\n", encoding="utf-8")
    (docs / "fenced.md").write_text(f"# C\n\n{F}{{note}}\n![](txtfrag:{STALE})\n{F}\n", encoding="utf-8")
    (docs / "colon.md").write_text(f"# C\n\n:::{{note}}\n![](txtfrag:{STALE})\n:::\n", encoding="utf-8")
    (docs / "option.md").write_text(f"# C\n\n:::{{note}}\n:class: x\n![](txtfrag:{STALE})\n:::\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"colon.md", "option.md"}, log
    assert site_kinds(tmp_path) == {"colon.md": {"stale"}, "option.md": {"stale"}}


#: (name, the page, the kind check and the build report; None: the build passes)
MKDOCS = [
    ("quote", f"# C\n\n> ![](txtfrag:{STALE})\n", "stale"),
    ("quote_code", f"# C\n\n>     ![](txtfrag:{STALE})\n", None),
    ("quote_code_after_blank", f"# C\n\n> Text\n>\n>     ![](txtfrag:{STALE})\n", None),
    ("quote_lazy_line", f"# C\n\n> Text\n>     ![](txtfrag:{STALE})\n", "stale"),
    # Python-Markdown takes a URL with a space in it: the reference is there, and bad
    ("space_in_the_fragment", "# C\n\n![](txtfrag:src/app.py#line=3, 5)\n", "syntax"),
    ("space_then_title", '# C\n\n![](txtfrag:src/app.py#line=3, 5 "T")\n', "syntax"),
]


def test_check_reads_block_quote_code_and_spaced_urls_as_mkdocs_does(tmp_path: Path) -> None:
    docs = mkdocs_site(tmp_path)
    (docs / "index.md").write_text("# Index\n\nHello.\n", encoding="utf-8")
    for name, text, _ in MKDOCS:
        (docs / f"{name}.md").write_text(text, encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {f"{n}.md" for n, _, kind in MKDOCS if kind}, log
    assert site_kinds(tmp_path) == {f"{n}.md": {kind} for n, _, kind in MKDOCS if kind}
    assert "space_in_the_fragment.md:3: txtfrag:src/app.py#line=3, 5: expected a line position after ','" in log


@pytest.mark.asyncio
async def test_the_editor_reads_them_as_check_does(client: LanguageClient, tmp_path: Path) -> None:  # noqa: F811
    """The language server reads each document as check does, by its own build's configuration: a Sphinx
    site and an MkDocs site quoting the same root are two projects (the first found was used for both)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    docs = tmp_path / "sphinx"
    docs.mkdir()
    (docs / "conf.py").write_text("extensions = ['sphinx_textfrag', 'myst_parser']\ntextfrag_root = '..'\n")
    await start(client, tmp_path)
    cases = [c for c in RST if c[0].startswith(("directive_option", "role_alias"))]
    cases += [c for c in MYST if c[0].startswith(("myst_option", "eval_rst_directive", "myst_comment", "html_"))]
    for name, text, judged in cases:
        path = docs / (f"{name}.rst" if name in {c[0] for c in RST} else f"{name}.md")
        language = "restructuredtext" if path.suffix == ".rst" else "markdown"
        diagnostics = await open_doc(client, path, text, language)
        codes = {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error}
        assert codes == ({"stale"} if judged else set()), (name, diagnostics)
    site = tmp_path / "site"  # (an MkDocs project: its pages read as Python-Markdown reads them)
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - attr_list\nplugins:\n  - textfrag:\n      root: ..\n"
    )
    for name, text, kind in MKDOCS:
        path = site / "docs" / f"{name}.md"
        diagnostics = await open_doc(client, path, text, "markdown")
        codes = {str(d.code) for d in diagnostics if d.severity == lsp.DiagnosticSeverity.Error}
        assert codes == ({kind} if kind else set()), (name, diagnostics)


def test_markdown_a_page_includes_with_snippets_is_checked_as_the_page_it_is_part_of(tmp_path: Path) -> None:
    """pymdownx.snippets puts an included Markdown file into the page before Markdown reads it, so MkDocs
    verifies its references (a snippet inside a code block shows as code); check, reading mkdocs.yml, scans
    the files the pages include, each once, as pages (before, one outside the docs folder went unchecked)."""
    docs = mkdocs_site(tmp_path, '  - attr_list\n  - pymdownx.superfences\n  - pymdownx.snippets:\n      base_path: [".."]\n')
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "stale.md").write_text(f"Part ![](txtfrag:{STALE})\n", encoding="utf-8")
    (tmp_path / "parts" / "nested.md").write_text('--8<-- "parts/stale.md"\n', encoding="utf-8")
    (tmp_path / "parts" / "code.md").write_text(f"Code ![](txtfrag:{STALE})\n", encoding="utf-8")
    (docs / "index.md").write_text('# I\n\n--8<-- "parts/nested.md"\n\n```md\n--8<-- "parts/code.md"\n```\n', encoding="utf-8")
    (docs / "other.md").write_text("# O\n\n--8<--\nparts/stale.md\n--8<--\n", encoding="utf-8")
    failing, log = mkdocs_failing(tmp_path)
    assert failing == {"index.md", "other.md"}, log  # (MkDocs says where the page includes it)
    r = run_textfrag("check", "docs", cwd=tmp_path / "mkdocs")
    assert r.returncode == 1, r.stderr
    assert [line.split(": ", 1)[0] for line in r.stderr.splitlines() if "stale (RFC" in line] == ["../parts/stale.md:1"]


def test_a_large_tree_follows_its_pages_snippets_once_as_one_process_does(tmp_path: Path) -> None:
    """Checked in parts by forked processes (1,000 documents or more), the included files are followed once,
    by the process that split the tree: the same output as one process gives."""
    docs = mkdocs_site(tmp_path, '  - pymdownx.snippets:\n      base_path: [".."]\n')
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "stale.md").write_text(f"Part ![](txtfrag:{STALE})\n", encoding="utf-8")
    for i in range(1100):
        (docs / f"d{i:04}.md").write_text(f'# D\n\n--8<-- "parts/stale.md"\n\n![](txtfrag:{GREET})\n', encoding="utf-8")
    runs = []
    for cores in ("0", "0,1"):
        r = subprocess.run(
            ["taskset", "-c", cores, sys.executable, "-m", "textfrag", "check", "docs"],
            cwd=tmp_path / "mkdocs",
            capture_output=True,
            text=True,
        )
        runs.append((r.returncode, r.stdout, r.stderr))
    assert runs[0] == runs[1]
    assert runs[0][0] == 1 and runs[0][2].count("parts/stale.md:1:") == 1, runs[0][2][-2000:]
    assert "1101 references in 1101 documents" in runs[0][1] + runs[0][2]


def test_a_page_of_another_source_suffix_is_read_as_its_parser_reads_it(tmp_path: Path) -> None:
    """``source_suffix = {".txt": "restructuredtext", ".rst": ...}``: Sphinx builds ``index.txt`` as
    reStructuredText, and ``check`` judges its references and its guarded includes as it judges an
    ``.rst`` page's (it found nothing there before); a stale one fails both."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nroot_doc = 'index'\n"
        "source_suffix = {'.rst': 'restructuredtext', '.txt': 'restructuredtext'}\n",
        encoding="utf-8",
    )
    (sphinx / "index.txt").write_text(f"Index\n=====\n\n.. txtfrag:: {STALE}\n", encoding="utf-8")
    built = run_sphinx("-E", "-q", "-b", "html", str(sphinx), str(tmp_path / "_build"), timeout=300)
    assert built.returncode != 0 and "index.txt:4" in built.stderr, built.stderr
    checked = run_textfrag("check", str(sphinx), cwd=tmp_path, timeout=120)
    assert checked.returncode == 1 and "index.txt:4:" in checked.stderr, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    "options",
    [
        ":start-line: 4\n   :end-line: 7",
        ":end-line: 3",
        ":start-after: .. cut here\n   :end-before: .. stop here",
        ":start-line: 2\n   :end-line: -2",
    ],
)
def test_a_part_an_include_takes_only_some_of_is_judged_where_docutils_renders_it(tmp_path: Path, options: str) -> None:
    """``.. include:: part.inc`` with ``:start-line:``/``:end-line:`` (docutils' slice of its lines) or
    ``:start-after:``/``:end-before:``: a stale reference in the lines the include leaves out is not
    rendered (Sphinx builds the page), and ``check`` passes as the build does; one in the lines it takes
    fails both (``check`` at the part's own line)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n", encoding="utf-8")
    page = f"Index\n=====\n\n.. txtfrag:: {GREET}\n\n.. include:: part.inc\n   {options}\n"
    (sphinx / "index.rst").write_text(page, encoding="utf-8")
    # (lines 0-1 and the last two are left out by every include above; lines 4-5 are taken by every one)
    part = f"Left out: {ROLE}\n\n.. cut here\n\nTaken.\n\n.. stop here\n\nLeft out: {ROLE}\n"
    (sphinx / "part.inc").write_text(part, encoding="utf-8")
    if options == ":end-line: 3":
        part = f"Taken.\n\n.. cut here\n\nLeft out: {ROLE}\n\n.. stop here\n\nLeft out: {ROLE}\n"
        (sphinx / "part.inc").write_text(part, encoding="utf-8")
    built = run_sphinx("-E", "-q", "-b", "html", str(sphinx), str(tmp_path / "_build"), timeout=300)
    assert built.returncode == 0, built.stderr
    checked = run_textfrag("check", str(sphinx), cwd=tmp_path, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    taken = part.replace("Taken.", f"Taken: {ROLE}")
    (sphinx / "part.inc").write_text(taken, encoding="utf-8")
    line = taken.splitlines().index(f"Taken: {ROLE}") + 1
    built = run_sphinx("-E", "-q", "-b", "html", str(sphinx), str(tmp_path / "_build"), timeout=300)
    # (docutils counts a cut part's lines from the cut: the build says part.inc:1 for line 5; check, the line)
    assert built.returncode != 0 and "part.inc:" in built.stderr and "stale" in built.stderr, built.stderr
    checked = run_textfrag("check", str(sphinx), cwd=tmp_path, timeout=120)
    assert checked.returncode == 1 and f"part.inc:{line}:" in checked.stderr, checked.stdout + checked.stderr
    assert len([x for x in checked.stderr.splitlines() if "part.inc:" in x and ROLE[10:30] in x]) == 1, checked.stderr


def test_a_language_pygments_does_not_know_is_said_by_check_as_sphinx_warns_and_strict_fails_it(tmp_path: Path) -> None:
    """``:language: nosuchlang``: Sphinx warns that Pygments does not know it (the excerpt is not highlighted)
    and ``-W`` fails the build; ``check`` warns at the reference's line, and ``check --strict`` fails, as
    ``-W`` does (a bad reference: exit 2). A language Pygments knows says nothing."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    sphinx = tmp_path / "sphinx"
    sphinx.mkdir()
    (sphinx / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n", encoding="utf-8")
    page = f"Index\n=====\n\n.. txtfrag:: {GREET}\n   :language: nosuchlang\n\n.. txtfrag:: {GREET}\n   :language: py3\n"
    (sphinx / "index.rst").write_text(page, encoding="utf-8")
    built = run_sphinx("-E", "-q", "-W", "-b", "html", str(sphinx), str(tmp_path / "_build"), timeout=300)
    assert built.returncode != 0 and "nosuchlang" in built.stderr and "py3" not in built.stderr, built.stderr
    checked = run_textfrag("check", str(sphinx), cwd=tmp_path, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    [said] = [line for line in checked.stderr.splitlines() if "Pygments knows no language" in line]
    assert said.startswith("sphinx/index.rst:4: ") and "'nosuchlang'" in said, checked.stderr
    strict = run_textfrag("check", "--strict", str(sphinx), cwd=tmp_path, timeout=120)
    assert strict.returncode == 2 and "sphinx/index.rst:4: " in strict.stderr, strict.stdout + strict.stderr
    assert "1 bad" in strict.stdout + strict.stderr and "warning" not in strict.stdout, strict.stdout
