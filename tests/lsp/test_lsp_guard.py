"""``textfrag lsp`` in guard mode: an include's diagnostics are what ``check`` says of it, on the
include's own line; the quick fixes write what ``update`` and ``pin`` write, the document and the lock
file both."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from textfrag.cli import main

from ..conftest import commit_all
from .conftest import APP, open_doc, start

pytestmark = pytest.mark.asyncio

RST = "T\n=\n\n.. literalinclude:: ../src/app.py\n   :lines: 4-5\n   :lineno-start: 4\n\n.. literalinclude:: ../src/app.py\n   :lines: 1-2\n"


def _guarded(project: Path) -> Path:
    (project / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n")
    doc = project / "docs" / "index.rst"
    doc.write_text(RST)
    return doc


def _edits(edit: lsp.WorkspaceEdit) -> dict[str, list[lsp.TextEdit]]:
    out: dict[str, list[lsp.TextEdit]] = {}
    for change in edit.document_changes or []:
        if isinstance(change, lsp.TextDocumentEdit):
            out[change.text_document.uri] = [e for e in change.edits if isinstance(e, lsp.TextEdit)]
    return out


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    from lsp_textfrag.model import Lines

    lines = Lines(text)
    spans = [
        (
            lines.offset(e.range.start.line, e.range.start.character),
            lines.offset(e.range.end.line, e.range.end.character),
            e.new_text,
        )
        for e in edits
    ]
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


async def _actions(client: LanguageClient, uri: str, line: int, only: list[str]) -> list[lsp.CodeAction]:
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=lsp.Range(start=lsp.Position(line=line, character=0), end=lsp.Position(line=line, character=1)),
            context=lsp.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, lsp.CodeAction)]


def _run(*argv: str) -> int:
    return main(list(argv), stdout=io.StringIO(), stderr=io.StringIO())


async def test_an_unrecorded_include_is_said_and_the_record_fix_writes_what_pin_writes(
    client: LanguageClient, project: Path
) -> None:
    doc = _guarded(project)
    await start(client, project)
    diagnostics = await open_doc(client, doc, RST, "restructuredtext")
    assert [(d.code, d.range.start.line, d.severity) for d in diagnostics] == [
        ("unpinned", 3, lsp.DiagnosticSeverity.Information),
        ("unpinned", 7, lsp.DiagnosticSeverity.Information),
    ]
    assert diagnostics[0].message.startswith("unrecorded: textfrag.lock has no record of what the include shows")
    [record] = await _actions(client, doc.resolve().as_uri(), 3, [lsp.CodeActionKind.QuickFix])
    assert record.title.startswith("Record what the include shows") and record.edit is not None
    lock_uri = (project / "docs" / "textfrag.lock").resolve().as_uri()
    assert any(isinstance(c, lsp.CreateFile) and c.uri == lock_uri for c in record.edit.document_changes or [])
    [fix_all] = await _actions(client, doc.resolve().as_uri(), 0, [lsp.CodeActionKind.SourceFixAll])
    written = _apply("", _edits(fix_all.edit)[lock_uri])  # type: ignore[arg-type]
    assert _run("pin", "--config", str(project / "docs" / "conf.py"), "--write", str(project / "docs")) == 0
    assert written == (project / "docs" / "textfrag.lock").read_text()


async def test_a_moved_include_is_diagnosed_as_check_says_and_its_fix_writes_what_update_writes(
    client: LanguageClient, project: Path
) -> None:
    doc = _guarded(project)
    conf = str(project / "docs" / "conf.py")
    assert _run("pin", "--config", conf, "--write", str(project / "docs")) == 0
    commit_all(project)
    (project / "src" / "app.py").write_text("import os\n" + APP)
    commit_all(project, "moved")
    await start(client, project)
    diagnostics = await open_doc(client, doc, RST, "restructuredtext")
    assert sorted((d.code, d.range.start.line) for d in diagnostics) == [("stale", 3), ("stale", 7)]
    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--config", conf, str(project / "docs")], stdout=out, stderr=err) == 1
    for d in diagnostics:
        assert d.message.split("\n")[0] in err.getvalue()  # the same words as check
        assert "moved: the recorded text is in the file 1 line further down" in d.message
    [update] = await _actions(client, doc.resolve().as_uri(), 3, [lsp.CodeActionKind.QuickFix])
    assert update.title.startswith("Update the moved include") and update.edit is not None
    edits = _edits(update.edit)
    fixed = _apply(RST, edits[doc.resolve().as_uri()])
    lock = project / "docs" / "textfrag.lock"
    lock_fixed = _apply(lock.read_text(), edits[lock.resolve().as_uri()])
    assert ":lines: 5-6\n   :lineno-start: 5\n" in fixed and ":lines: 1-2\n" in fixed  # (this include only)
    assert _run("update", "--config", conf, "--write", f"{doc}:4") == 1  # (the other include is left stale)
    assert doc.read_text() == fixed
    assert lock.read_text() == lock_fixed
