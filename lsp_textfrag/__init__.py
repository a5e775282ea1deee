"""``textfrag lsp``: a Language Server Protocol server for reStructuredText, Markdown and MyST documents.

An adapter over the core, like an engine: it holds the open documents and a source cache per project
and translates what ``check``, ``update``, ``pin`` and ``show`` would say into protocol values
(diagnostics, hovers, locations, code actions, completions, code lenses). It never re-implements a check
and never writes a file: its fixes are edits the editor applies. Needs ``pip install 'textfrag[lsp]'``
(pygls and lsprotocol).
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Serve on standard input and output until the client says exit (``textfrag lsp``)."""
    from .server import serve

    return serve(argv)
