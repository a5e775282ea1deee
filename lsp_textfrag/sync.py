"""How the server keeps the client's open documents: pygls' protocol, but for a change to a document the
client never opened. pygls looks it up in its workspace and fails with a ``KeyError`` that the client
shows the user; the specification leaves such a change to the server, and this one passes it over."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.protocol import LanguageServerProtocol, lsp_method

__all__ = ["OpenDocumentsProtocol"]


class OpenDocumentsProtocol(LanguageServerProtocol):
    """pygls' language server protocol, which ignores changes to documents that are not open."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Iterator[Any]:
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            return  # (never opened, or closed: nothing of it is kept, nothing is said)
        yield from super().lsp_text_document__did_change(params)
