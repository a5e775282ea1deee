"""The language server as an editor meets it: ``textfrag lsp`` (the installed command) in a process,
driven by pytest-lsp's client over standard input and output. The process is forked from one that
imported the server (tests/processes.py): importing pygls and lsprotocol was most of each start."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from ..processes import attached, serve_attached

APP = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(1, 8))  # 21 lines
MD5 = hashlib.md5(APP.encode()).hexdigest()
PIN = f"length={len(APP)};md5={MD5}"

SERVER = ClientServerConfig(server_command=attached("lsp"))


@pytest.fixture(autouse=True, scope="session")
def _forked_servers() -> None:
    serve_attached()


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient) -> Any:
    """A client (no session yet: each test starts one for its own workspace)."""
    yield
    await lsp_client.shutdown_session()


def workspace(root: Path) -> Path:
    """A project: ``src/app.py`` and an empty ``docs/`` with a Sphinx conf.py naming textfrag."""
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "app.py").write_text(APP)
    (root / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    return root


async def start(
    client: LanguageClient, root: Path, *, encodings: list[str] | None = None, spec: str = "neovim"
) -> lsp.InitializeResult:
    caps = client_capabilities(spec)
    # no encodings said: UTF-16, the protocol's default (the recorded clients' own lists would win otherwise)
    caps.general = lsp.GeneralClientCapabilities(
        position_encodings=[lsp.PositionEncodingKind(e) for e in encodings] if encodings is not None else None
    )
    return await client.initialize_session(
        lsp.InitializeParams(
            capabilities=caps,
            root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name="w")],
        )
    )


async def open_doc(
    client: LanguageClient, path: Path, text: str, language: str = "markdown", version: int = 1
) -> list[lsp.Diagnostic]:
    """Open a document (its text need not be on disk) and wait for its diagnostics."""
    uri = path.resolve().as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)
        )
    )
    return await diagnostics_of(client, uri)


async def change_doc(client: LanguageClient, path: Path, text: str, version: int) -> list[lsp.Diagnostic]:
    """Replace a document's whole text (unsaved) and wait for its new diagnostics."""
    uri = path.resolve().as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await diagnostics_of(client, uri)


async def diagnostics_of(client: LanguageClient, uri: str, timeout: float = 10) -> list[lsp.Diagnostic]:
    """The diagnostics published for ``uri`` (after the caller cleared the old ones)."""

    async def wait() -> list[lsp.Diagnostic]:
        while uri not in client.diagnostics:
            await asyncio.sleep(0.01)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), timeout)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return workspace(tmp_path / "w")
