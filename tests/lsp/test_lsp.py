"""``textfrag lsp`` end to end, against the installed wheel: diagnostics for unsaved text in both
document kinds (UTF-16 columns after non-ASCII text, or UTF-8 when negotiated), hover, definition, the
fixes as update/pin write them, completion, the source side (references, code lens), the refresh when a
quoted file changes on disk, and malformed input."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from textfrag.cli import main

from ..conftest import commit_all
from .conftest import APP, PIN, change_doc, diagnostics_of, open_doc, start

pytestmark = pytest.mark.asyncio


def by_code(diagnostics: list[lsp.Diagnostic]) -> dict[str, lsp.Diagnostic]:
    return {str(d.code): d for d in diagnostics}


def apply(text: str, edit: lsp.WorkspaceEdit, encoding: str = "utf-16") -> str:
    """What an editor makes of ``text`` with ``edit`` applied (one document's edits, from the end back)."""
    from lsp_textfrag.model import Lines

    assert edit.document_changes is not None
    [change] = edit.document_changes
    assert isinstance(change, lsp.TextDocumentEdit)
    lines = Lines(text, encoding)
    spans = []
    for e in change.edits:
        a = lines.offset(e.range.start.line, e.range.start.character)
        b = lines.offset(e.range.end.line, e.range.end.character)
        spans.append((a, b, e.new_text))
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


async def test_diagnostics_are_what_check_says_on_the_references_exact_span(client: LanguageClient, project: Path) -> None:
    await start(client, project)
    # non-ASCII text before the reference on its line: UTF-16 columns (an astral character counts 2)
    text = f"# Tést 😀\n\nÉté 😀 ![](txtfrag:src/app.py#line=0,2;md5={'0' * 32}) and ![](txtfrag:src/nope.py#L1)\n\n![](txtfrag:src/app.py#L4-L5)\n\n![](txtfrag:src/app.py#line=0,2;{PIN})\n"
    doc = project / "docs" / "index.md"  # never saved: the editor's text is what is diagnosed
    diagnostics = await open_doc(client, doc, text)
    codes = sorted(str(d.code) for d in diagnostics)
    assert codes == ["missing", "stale", "unpinned"], diagnostics
    found = by_code(diagnostics)
    stale = found["stale"]
    ref = f"txtfrag:src/app.py#line=0,2;md5={'0' * 32}"
    start_col = len("Été 😀 ![](".encode("utf-16-le")) // 2
    assert stale.range.start == lsp.Position(line=2, character=start_col)
    assert stale.range.end == lsp.Position(line=2, character=start_col + len(ref))
    assert stale.source == "textfrag" and stale.severity == lsp.DiagnosticSeverity.Error
    assert "md5 is 000" in stale.message and "the file changed since the reference was made" in stale.message
    assert found["missing"].severity == lsp.DiagnosticSeverity.Error and "no such file: src/nope.py" in found["missing"].message
    assert found["unpinned"].severity == lsp.DiagnosticSeverity.Information and found["unpinned"].range.start.line == 4
    # and check says the same of the same text
    doc.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    main(["check", "--root", str(project), str(doc)], stdout=out, stderr=err)
    assert "md5 is 000" in err.getvalue() and "no such file: src/nope.py" in err.getvalue()


async def test_utf8_columns_when_the_client_negotiates_them(client: LanguageClient, project: Path) -> None:
    result = await start(client, project, encodings=["utf-8", "utf-16"])
    assert result.capabilities.position_encoding in (lsp.PositionEncodingKind.Utf8, "utf-8")
    text = "Été ![](txtfrag:src/nope.py)\n"
    [d] = await open_doc(client, project / "docs" / "a.md", text)
    assert d.range.start.character == len("Été ![](".encode())


async def test_rst_and_myst_documents(client: LanguageClient, project: Path) -> None:
    await start(client, project)
    rst = "T\n=\n\n.. txtfrag:: src/app.py#line=0,2\n   :caption: x\n\nInline :txtfrag:`src/nope.py`.\n"
    diagnostics = await open_doc(client, project / "docs" / "a.rst", rst, "restructuredtext")
    assert sorted((str(d.code), d.range.start.line) for d in diagnostics) == [("missing", 6), ("unpinned", 3)]
    myst = "# T\n\n```{txtfrag} src/nope.py\n```\n"
    [d] = await open_doc(client, project / "docs" / "b.md", myst)
    assert d.code == "missing" and d.range.start.line == 2


async def test_on_stale_warning_and_require_pin_follow_the_build(client: LanguageClient, project: Path) -> None:
    (project / "docs" / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_on_stale = 'warning'\ntextfrag_require_pin = True\n"
    )
    await start(client, project)
    text = f"![](txtfrag:src/app.py#line=0,2;md5={'0' * 32})\n\n![](txtfrag:src/app.py#L1)\n"
    found = by_code(await open_doc(client, project / "docs" / "a.md", text))
    assert found["stale"].severity == lsp.DiagnosticSeverity.Warning
    assert found["unpinned"].severity == lsp.DiagnosticSeverity.Error


async def test_hover_shows_the_excerpt_and_definition_goes_to_the_quoted_lines(client: LanguageClient, project: Path) -> None:
    await start(client, project)
    text = f"# T\n\n![](txtfrag:src/app.py#line=3,5;{PIN})\n"
    doc = project / "docs" / "a.md"
    await open_doc(client, doc, text)
    uri = doc.resolve().as_uri()
    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=20))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    value = hover.contents.value
    assert "src/app.py, lines 4-5" in value and "current" in value and "pinned" in value
    assert "```python\ndef f2():\n    return 2\n```" in value
    where = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=2, character=20))
    )
    assert isinstance(where, list) and len(where) == 1
    assert where[0].uri == (project / "src" / "app.py").resolve().as_uri()
    assert where[0].range.start == lsp.Position(line=3, character=0) and where[0].range.end == lsp.Position(line=5, character=0)


async def test_a_long_excerpt_is_cut_in_the_hover(client: LanguageClient, project: Path) -> None:
    (project / "src" / "long.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    await start(client, project)
    doc = project / "docs" / "a.md"
    await open_doc(client, doc, "![](txtfrag:src/long.txt)\n")
    hover = await client.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=doc.resolve().as_uri()), position=lsp.Position(line=0, character=15)
        )
    )
    assert hover is not None and "… (70 more lines)" in hover.contents.value  # type: ignore[union-attr]


def _repo_with_an_edit(project: Path, app: str = "# a new first line\n" + APP, message: str = "move") -> None:
    """The project committed, then ``src/app.py`` written as ``app`` and committed (default: a move)."""
    commit_all(project)
    (project / "src" / "app.py").write_text(app)
    commit_all(project, message)


def _quietly(*argv: str) -> int:
    """``textfrag ARGV`` through ``main``, its output dropped: the exit code."""
    return main(list(argv), stdout=io.StringIO(), stderr=io.StringIO())


async def _actions(client: LanguageClient, uri: str, line: int, only: list[str] | None = None) -> list[lsp.CodeAction]:
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=lsp.Range(start=lsp.Position(line=line, character=0), end=lsp.Position(line=line, character=1)),
            context=lsp.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, lsp.CodeAction)]


async def test_the_update_fix_writes_what_update_writes(client: LanguageClient, project: Path) -> None:
    rst = f"T\n=\n\n.. txtfrag:: src/app.py#line=3,6;{PIN}\n   :emphasize-lines: 5\n   :lineno-start: 4\n"
    doc = project / "docs" / "a.rst"
    doc.write_text(rst)
    _repo_with_an_edit(project)
    await start(client, project)
    [d] = await open_doc(client, doc, rst, "restructuredtext")
    assert d.code == "stale" and "moved" in d.message
    [action] = await _actions(client, doc.resolve().as_uri(), 3, [lsp.CodeActionKind.QuickFix])
    assert action.title.startswith("Update the moved reference") and action.edit is not None
    assert action.edit.document_changes[0].text_document.version == 1  # type: ignore[index,union-attr]
    fixed = apply(rst, action.edit)
    # exactly what `textfrag update --write` writes (the server itself writes nothing)
    assert doc.read_text() == rst
    assert _quietly("update", "--root", str(project), "--write", str(doc)) == 0
    assert fixed == doc.read_text()
    assert ":emphasize-lines: 6" in fixed and ":lineno-start: 5" in fixed


async def test_accept_and_pin_fixes_and_fix_all(client: LanguageClient, project: Path) -> None:
    changed = f"![](txtfrag:src/app.py#line=3,6;{PIN})\n\n![](txtfrag:src/app.py#L1)\n"
    doc = project / "docs" / "a.md"
    doc.write_text(changed)
    _repo_with_an_edit(project, APP.replace("return 2", "return 22"), "change")
    await start(client, project)
    found = by_code(await open_doc(client, doc, changed))
    assert "changed" in found["stale"].message and "-    return 2\n+    return 22" in found["stale"].message  # the diff, shown
    uri = doc.resolve().as_uri()
    [accept] = await _actions(client, uri, 0, [lsp.CodeActionKind.QuickFix])
    assert accept.title.startswith("Accept the current text")
    accepted = apply(changed, accept.edit)  # type: ignore[arg-type]
    assert _quietly("update", "--root", str(project), "--accept", "--write", str(doc)) == 0
    assert accepted.splitlines()[0] == doc.read_text().splitlines()[0]
    doc.write_text(changed)
    [pin] = await _actions(client, uri, 2, [lsp.CodeActionKind.QuickFix])
    assert pin.title.startswith("Pin the reference")
    pinned = apply(changed, pin.edit)  # type: ignore[arg-type]
    assert _quietly("pin", "--root", str(project), "--write", str(doc)) == 0
    assert pinned == doc.read_text()
    [fix_all] = await _actions(client, uri, 0, [lsp.CodeActionKind.SourceFixAll])
    assert apply(changed, fix_all.edit).splitlines()[2] == pinned.splitlines()[2]  # type: ignore[arg-type]
    assert apply(changed, fix_all.edit).splitlines()[0] == changed.splitlines()[0]  # a change needs review: not in fix-all  # type: ignore[arg-type]


async def test_the_accept_fix_keeps_a_markdown_highlight_on_its_line_as_update_does(
    client: LanguageClient, project: Path
) -> None:
    """f2 grew by a line above its return; accepting what ``pyobject="f2"`` selects now moves
    ``hl_lines`` (counted within the quote) with the highlighted line, in the editor's fix as in
    ``update --accept --write``."""
    page = f'![](txtfrag:src/app.py#line=3,5;{PIN}){{ pyobject="f2" hl_lines="2" }}\n'  # def f2 / return 2
    doc = project / "docs" / "a.md"
    doc.write_text(page)
    _repo_with_an_edit(project, APP.replace("def f2():\n", "def f2():\n    x = 2\n"), "f2 grew")
    await start(client, project)
    [stale] = await open_doc(client, doc, page)
    assert stale.code == "stale" and "pyobject" in stale.message
    [accept] = await _actions(client, doc.resolve().as_uri(), 0, [lsp.CodeActionKind.QuickFix])
    accepted = apply(page, accept.edit)  # type: ignore[arg-type]
    assert _quietly("update", "--root", str(project), "--accept", "--write", str(doc)) == 0
    assert accepted == doc.read_text() and 'hl_lines="3"' in accepted, accepted


async def test_completion_offers_paths_under_the_root_then_pinned_references(
    client: LanguageClient, project: Path, tmp_path: Path
) -> None:
    (project / "src" / "pkg").mkdir()
    (project / "src" / "pkg" / "mod.py").write_text("class A:\n    def m(self):\n        return 1\n")
    (project / "src" / "pkg" / "m.go").write_text("package p\n\ntype S struct{}\n\n// M does.\nfunc (s *S) M() {\n}\n")
    (project / "src" / "out").symlink_to(tmp_path)  # a link out of the root is never offered
    await start(client, project)
    doc = project / "docs" / "a.md"
    text = "![](txtfrag:src/"
    await open_doc(client, doc, text)
    uri = doc.resolve().as_uri()

    async def complete(line_text: str) -> list[lsp.CompletionItem]:
        change_text = line_text
        await change_doc(client, doc, change_text, 2)
        result = await client.text_document_completion_async(
            lsp.CompletionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=0, character=len(change_text))
            )
        )
        assert isinstance(result, lsp.CompletionList)
        return result.items

    labels = [i.label for i in await complete("![](txtfrag:src/")]
    assert labels == ["app.py", "pkg/"]
    assert [i.label for i in await complete("![](txtfrag:../")] == []
    items = await complete("![](txtfrag:src/pkg/mod.py#")
    refs = {i.label: i.text_edit.new_text for i in items}  # type: ignore[union-attr]
    data = (project / "src" / "pkg" / "mod.py").read_bytes()
    import hashlib

    md5 = hashlib.md5(data).hexdigest()
    assert f"src/pkg/mod.py#line=0,;length={len(data)};md5={md5}" in refs
    assert refs["A.m"] == f"src/pkg/mod.py#line=1,3;length={len(data)};md5={md5}"
    go = {i.label: (i.detail, i.text_edit.new_text) for i in await complete("![](txtfrag:src/pkg/m.go#")}  # type: ignore[union-attr]
    assert go["S.M"][0].startswith("lines 6-7: ") and go["S.M"][1].startswith("src/pkg/m.go#line=5,7;")  # (any language)
    directive = [i.label for i in await complete(".. txtfrag:: src/p")]
    assert "pkg/" in directive


async def test_the_source_side_references_and_code_lens(client: LanguageClient, project: Path) -> None:
    (project / "docs" / "a.md").write_text(f"# A\n\n![](txtfrag:src/app.py#line=3,6;{PIN})\n")
    (project / "docs" / "b.rst").write_text(f"T\n=\n\n.. txtfrag:: src/app.py#line=4,5;{PIN}\n")
    await start(client, project)
    src = (project / "src" / "app.py").resolve().as_uri()
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(uri=src),
            position=lsp.Position(line=4, character=0),
            context=lsp.ReferenceContext(include_declaration=False),
        )
    )
    assert refs is not None
    assert sorted((Path(r.uri).name, r.range.start.line) for r in refs) == [("a.md", 2), ("b.rst", 3)]
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=src)))
    titles = sorted((lens.range.start.line, lens.command.title) for lens in lenses or [] if lens.command)
    assert titles == [(3, "quoted by docs/a.md:3"), (4, "quoted by docs/b.rst:4")]


async def test_a_quoted_file_changed_on_disk_is_diagnosed_again_within_a_second(client: LanguageClient, project: Path) -> None:
    await start(client, project)
    doc = project / "docs" / "a.md"
    uri = doc.resolve().as_uri()
    assert await open_doc(client, doc, f"![](txtfrag:src/app.py#line=0,2;{PIN})\n") == []
    client.diagnostics.pop(uri, None)
    (project / "src" / "app.py").write_text("changed\n" + APP)
    began = time.monotonic()
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams(
            changes=[lsp.FileEvent(uri=(project / "src" / "app.py").resolve().as_uri(), type=lsp.FileChangeType.Changed)]
        )
    )
    [d] = await diagnostics_of(client, uri, timeout=5)
    assert d.code == "stale" and time.monotonic() - began < 1.0


async def test_a_watcher_is_registered_when_the_client_can(client: LanguageClient, project: Path) -> None:
    registered: list[lsp.RegistrationParams] = []

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: lsp.RegistrationParams) -> None:
        registered.append(params)

    await start(client, project, spec="visual_studio_code")
    for _ in range(200):
        if registered:
            break
        await asyncio.sleep(0.01)
    assert [r.method for p in registered for r in p.registrations] == [lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES]


async def test_finding_quotes_reports_progress_on_the_clients_token(client: LanguageClient, project: Path) -> None:
    for i in range(120):
        (project / "docs" / f"p{i:03}.md").write_text(f"# {i}\n\n![](txtfrag:src/app.py#line={i % 20},{i % 20 + 1};{PIN})\n")
    await start(client, project)
    client.progress_reports["find"] = []  # a token the client made (as for a request's workDoneToken)
    src = (project / "src" / "app.py").resolve().as_uri()
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(uri=src),
            position=lsp.Position(line=0, character=0),
            context=lsp.ReferenceContext(include_declaration=False),
            work_done_token="find",
        )
    )
    assert refs is not None and len(refs) == 6  # line 1 is quoted by the documents whose range starts at 0
    await asyncio.sleep(0.2)
    kinds = [type(r).__name__ for r in client.progress_reports["find"]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd" and "WorkDoneProgressReport" in kinds


async def test_an_attribute_list_the_build_does_not_read_is_diagnosed_as_the_build_says(
    client: LanguageClient, tmp_path: Path
) -> None:
    """An mkdocs.yml without attr_list: ``{ hl_lines="2" }`` after the image is shown as text and its options
    are lost; the editor says so as check and the build do."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag\n")
    await start(client, tmp_path)
    ref = f"txtfrag:src/app.py#line=0,2;{PIN}"
    diagnostics = await open_doc(client, tmp_path / "docs" / "a.md", f'# A\n\n![]({ref}){{ hl_lines="2" }}\n\n![]({ref})\n')
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("option", 2)], diagnostics
    assert "enable attr_list (markdown_extensions: [attr_list])" in diagnostics[0].message


async def test_what_the_build_refuses_or_runs_is_diagnosed_as_check_says_it(client: LanguageClient, tmp_path: Path) -> None:
    """The editor says what check says of a project's reading: a txtfrag: URL in a MkDocs page's raw HTML
    (not in a code span), content under an rST directive, and a fence MyST runs as the directive."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    (tmp_path / "site" / "docs").mkdir(parents=True)
    (tmp_path / "site" / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - textfrag:\n      root: ..\nmarkdown_extensions: [attr_list]\n"
    )
    (tmp_path / "sphinx").mkdir()
    conf = "extensions = ['sphinx_textfrag', 'myst_parser']\ntextfrag_root = '..'\nmyst_fence_as_directive = ['txtfrag']\n"
    stale = f"src/app.py#line=0,2;length=1;md5={'0' * 32}"
    conf += f"myst_enable_extensions = ['substitution']\nmyst_substitutions = {{'q': '{{txtfrag}}`{stale}`'}}\n"
    (tmp_path / "sphinx" / "conf.py").write_text(conf)
    await start(client, tmp_path)
    ref = f"src/app.py#line=0,2;{PIN}"
    page = f'# A\n\nCode `<img src="txtfrag:{ref}">` here.\n\n<div>\n<img src="txtfrag:{ref}">\n</div>\n'
    diagnostics = await open_doc(client, tmp_path / "site" / "docs" / "a.md", page)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("form", 5)], diagnostics
    assert "reference in raw HTML is not rendered" in diagnostics[0].message
    rst = f"T\n=\n\n.. txtfrag:: {ref}\n\n   some content\n"
    diagnostics = await open_doc(client, tmp_path / "sphinx" / "b.rst", rst)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("form", 3)], diagnostics
    diagnostics = await open_doc(client, tmp_path / "sphinx" / "c.md", f"# C\n\n```txtfrag {stale}\n```\n")
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("stale", 2)], diagnostics
    # (a MyST substitution's value, judged where the build renders it: marked on the use, {{ q }})
    diagnostics = await open_doc(client, tmp_path / "sphinx" / "d.md", "# D\n\nUse {{ q }} here.\n")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [("stale", 2, 4)], diagnostics


async def test_a_part_a_page_pulls_in_is_diagnosed_as_its_build_reads_it(client: LanguageClient, tmp_path: Path) -> None:
    """An ``.inc`` part of an rST page, and a ``.md`` file an rST page includes, are rST to the build and
    to check: the editor reads them so (the ``.inc`` part is a document to it at all), at the part's lines."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    (tmp_path / "docs" / "parts").mkdir(parents=True)
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (tmp_path / "docs" / "index.rst").write_text("T\n=\n\n.. include:: parts/a.inc\n\n.. include:: parts/b.md\n")
    stale = f"src/app.py#line=0,2;length=1;md5={'0' * 32}"
    part = f"Part\n\n.. txtfrag:: {stale}\n"
    for name in ("a.inc", "b.md"):
        (tmp_path / "docs" / "parts" / name).write_text(part)
    await start(client, tmp_path)
    diagnostics = await open_doc(client, tmp_path / "docs" / "parts" / "a.inc", part, language="plaintext")
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("stale", 2)], diagnostics
    diagnostics = await open_doc(client, tmp_path / "docs" / "parts" / "b.md", part)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("stale", 2)], diagnostics


async def test_a_part_an_include_cuts_is_diagnosed_only_where_it_is_rendered(client: LanguageClient, tmp_path: Path) -> None:
    """``.. include:: parts/a.inc`` with ``:start-line: 3``: the reference above the cut is not rendered (Sphinx
    builds the page, check passes it), and the editor says nothing of it; the one below it is diagnosed."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    (tmp_path / "docs" / "parts").mkdir(parents=True)
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (tmp_path / "docs" / "index.rst").write_text("T\n=\n\n.. include:: parts/a.inc\n   :start-line: 3\n")
    stale = f"src/app.py#line=0,2;length=1;md5={'0' * 32}"
    part = f"Left out: :txtfrag:`{stale}`\n\nCut here.\n\n.. txtfrag:: {stale}\n"
    (tmp_path / "docs" / "parts" / "a.inc").write_text(part)
    await start(client, tmp_path)
    diagnostics = await open_doc(client, tmp_path / "docs" / "parts" / "a.inc", part, language="plaintext")
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("stale", 4)], diagnostics


async def test_the_builds_settings_decide_a_stale_quotes_severity_as_check_does(client: LanguageClient, tmp_path: Path) -> None:
    """on_stale: warning warns, unless MkDocs' strict: true makes every warning fail (as check and
    mkdocs build --strict say); Sphinx's suppress_warnings = ["textfrag.stale"] lets it pass: a warning."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP)
    for name, strict in (("warns", ""), ("strict", "strict: true\n")):
        (tmp_path / name / "docs").mkdir(parents=True)
        (tmp_path / name / "mkdocs.yml").write_text(
            f"site_name: t\n{strict}plugins:\n  - textfrag:\n      root: ..\n      on_stale: warning\n"
        )
    (tmp_path / "sphinx").mkdir()
    (tmp_path / "sphinx" / "conf.py").write_text(
        "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\nsuppress_warnings = ['textfrag.stale']\n"
    )
    await start(client, tmp_path)
    stale = f"src/app.py#line=0,2;length=1;md5={'0' * 32}"
    severities = {}
    for name, doc, text in (
        ("warns", "warns/docs/a.md", f"# A\n\n![](txtfrag:{stale})\n"),
        ("strict", "strict/docs/a.md", f"# A\n\n![](txtfrag:{stale})\n"),
        ("suppressed", "sphinx/a.rst", f"A\n=\n\n.. txtfrag:: {stale}\n"),
    ):
        diagnostics = await open_doc(
            client, tmp_path / doc, text, language="markdown" if doc.endswith(".md") else "restructuredtext"
        )
        severities[name] = [(d.code, d.severity) for d in diagnostics]
    assert severities == {
        "warns": [("stale", lsp.DiagnosticSeverity.Warning)],
        "strict": [("stale", lsp.DiagnosticSeverity.Error)],
        "suppressed": [("stale", lsp.DiagnosticSeverity.Warning)],
    }, severities


@pytest.mark.asyncio
async def test_a_change_to_a_document_never_opened_is_passed_over_without_an_error(client: LanguageClient, project: Path) -> None:
    """A client that sends didChange for a document it never opened (or already closed) got pygls' "KeyError"
    as a pop-up; the server passes it over, says nothing, and goes on serving the documents it has."""
    await start(client, project)
    uri = (project / "docs" / "never.md").resolve().as_uri()
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text="# x\n")],
        )
    )
    page = project / "docs" / "index.md"
    diagnostics = await open_doc(client, page, "# Index\n\n![](txtfrag:src/app.py#line=0,1;md5=" + "0" * 32 + ")\n")
    assert [d.code for d in diagnostics] == ["stale"], diagnostics
    assert not [m for m in client.messages if m.type == lsp.MessageType.Error], client.messages
    assert not [m for m in client.log_messages if "KeyError" in m.message], client.log_messages


@pytest.mark.asyncio
async def test_a_document_opened_outside_the_workspace_gets_no_project(
    client: LanguageClient, project: Path, tmp_path: Path
) -> None:
    """A page opened from outside every workspace folder is no project's: the server says nothing about it
    (it rooted the page at its own folder, and its did-you-mean offered the files there)."""
    await start(client, project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.py").write_text("x = 1\n")
    outside = elsewhere / "notes.md"
    uri = outside.resolve().as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text="# N\n\n![](txtfrag:secre.py#line=0,1)\n"
            )
        )
    )
    page = project / "docs" / "index.md"
    diagnostics = await open_doc(client, page, "# Index\n\n![](txtfrag:src/app.py#line=0,1;md5=" + "0" * 32 + ")\n")
    assert [d.code for d in diagnostics] == ["stale"], diagnostics  # (the server went on, in order)
    assert not client.diagnostics.get(uri), client.diagnostics.get(uri)


async def test_the_pin_fix_pins_an_intents_lines_as_pin_does(client: LanguageClient, project: Path) -> None:
    """A whole file's reference written with ``pyobject="f2"``: the fix pins the lines f2 spans, the
    text ``textfrag pin --write`` writes (never the whole file, which the intent contradicts)."""
    written = '![](txtfrag:src/app.py){ pyobject="f2" }\n'
    doc = project / "docs" / "a.md"
    doc.write_text(written)
    await start(client, project)
    await open_doc(client, doc, written)
    [pin] = await _actions(client, doc.resolve().as_uri(), 0, [lsp.CodeActionKind.QuickFix])
    assert pin.title.startswith("Pin the reference")
    pinned = apply(written, pin.edit)  # type: ignore[arg-type]
    assert _quietly("pin", "--root", str(project), "--write", str(doc)) == 0
    assert pinned == doc.read_text() and pinned.startswith("![](txtfrag:src/app.py#line=3,5;"), pinned
