"""The editor and a declared source: the same verdicts as ``check`` for ``txtfrag://NAME/PATH``, and
completion of the sources' names, their files at the locked commit and pinned references to them."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from textfrag.cli import main

from ..sources.conftest import code_repo, docs_project
from ..sources.test_sources import APP, pinned
from .conftest import change_doc, open_doc, start

pytestmark = pytest.mark.asyncio


async def test_diagnostics_and_completion_of_a_declared_source(client: LanguageClient, tmp_path: Path) -> None:
    code, docs = code_repo(tmp_path), docs_project(tmp_path)
    code.release("v1.0.0", {"src/app.py": APP, "src/pkg/util.py": "X = 1\n"})
    docs.declare(sdk=(code.url, "v1.0.0"))
    toml = docs.root / "textfrag.toml"
    toml.write_text('sources_cache = "../cache"\n' + toml.read_text())  # (the server's environment is the editor's)
    assert main(["sources", "fetch", "--root", str(docs.root)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    await start(client, docs.root)
    doc = docs.root / "index.md"
    stale = pinned(APP, 4, 5)[:-32] + "0" * 32
    text = f"# T\n\n![]({pinned(APP, 4, 5)})\n\n![]({stale})\n\n![](txtfrag://sdk/src/nope.py)\n"
    diagnostics = await open_doc(client, doc, text)
    assert sorted((d.range.start.line, str(d.code)) for d in diagnostics) == [(4, "stale"), (6, "missing")], diagnostics
    [missing] = [d for d in diagnostics if d.code == "missing"]
    assert "no such file: //sdk/src/nope.py (in the source sdk" in missing.message

    uri = doc.resolve().as_uri()

    async def complete(line: str) -> list[lsp.CompletionItem]:
        await change_doc(client, doc, line, 2)
        result = await client.text_document_completion_async(
            lsp.CompletionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=0, character=len(line))
            )
        )
        assert isinstance(result, lsp.CompletionList)
        return result.items

    assert "//sdk/" in [i.label for i in await complete("![](txtfrag:")]
    assert [i.label for i in await complete("![](txtfrag://")] == ["//sdk/"]
    assert [i.label for i in await complete("![](txtfrag://sdk/src/")] == ["app.py", "pkg/"]
    edits = [i.text_edit.new_text for i in await complete("![](txtfrag://sdk/src/app.py#")]  # type: ignore[union-attr]
    md5 = hashlib.md5(APP.encode()).hexdigest()
    assert f"//sdk/src/app.py#line=0,;length={len(APP)};md5={md5}" in edits
    assert pinned(APP, 4, 5).removeprefix("txtfrag:") in edits  # (greet, by its definition)
