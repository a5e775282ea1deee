"""``textfrag mcp``: a Model Context Protocol server for agents that write documentation.

An adapter over the core, like an engine or the language server: each tool runs the command of its name
(``make``, ``pin``, ``check``, ``show``, ``impact``) through :func:`textfrag.cli.main`, in the project's
folder, and gives the agent what that command says, structured where the command has a machine-readable
format (``check`` and ``impact`` answer with their JSON documents: each verdict with its document and
line). It never decides a verdict of its own. Needs ``pip install 'textfrag[mcp]'`` (the MCP Python SDK).
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Serve on standard input and output until the client goes (``textfrag mcp``)."""
    from .server import serve

    return serve(argv)
