"""The tools of ``textfrag mcp``, each the command of its name run in the project's folder (the server's
working directory, where the agent's client starts it)."""

from __future__ import annotations

import io
import json
from typing import Any

from mcp.server.mcpserver import MCPServer

from textfrag import __version__
from textfrag.cli import main as textfrag

__all__ = ["serve", "server"]

INSTRUCTIONS = (
    "textfrag quotes source files in documentation by pinned references (txtfrag:PATH#line=A,B;length=N;md5=H) "
    "that fail the build when the quoted text drifts. Quote instead of pasting: mint a reference with "
    "`make_reference`, write it into the page (Markdown: ![caption](txtfrag:REF); reStructuredText and MyST: the "
    "txtfrag directive), then `check` the docs. Paths are relative to the project's root; nothing outside it "
    "is read."
)


def _run(*argv: str) -> dict[str, Any]:
    """``textfrag ARGV`` in this process: its exit code and what it wrote."""
    out, err = io.StringIO(), io.StringIO()
    code = textfrag(list(argv), stdout=out, stderr=err)
    return {"exit_code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _document(done: dict[str, Any]) -> dict[str, Any]:
    """A run whose standard output is a JSON document: the document, with the exit code (what the run said
    on standard error, when it wrote no document)."""
    try:
        document = json.loads(done["stdout"])
    except ValueError:
        return {"exit_code": done["exit_code"], "said": done["stderr"].strip()}
    return {"exit_code": done["exit_code"], "document": document}


def server() -> MCPServer:
    """The server and its tools."""
    mcp = MCPServer("textfrag", version=__version__, instructions=INSTRUCTIONS)

    @mcp.tool()
    def make_reference(
        path: str,
        lines: str | None = None,
        symbol: str | None = None,
        region: str | None = None,
        match: str | None = None,
    ) -> dict[str, Any]:
        """Mint a pinned reference to a file under the project's root (the whole file when nothing else is
        given): `lines` "A-B" (1-based, inclusive, as an editor counts), or `symbol` (a definition's name, e.g.
        "Greeter.greet"), or `region` (a named region or snippet section), or `match` (the one occurrence of
        a text). The answer's `reference` is what a page writes after `txtfrag:`."""
        argv = ["make", path]
        for flag, value in (("--lines", lines), ("--symbol", symbol), ("--region", region), ("--match", match)):
            if value is not None:
                argv += [flag, value]
        if len(argv) == 2:
            argv.append("--whole")
        done = _run(*argv)
        if done["exit_code"] != 0:
            return {"exit_code": done["exit_code"], "said": done["stderr"].strip()}
        return {"exit_code": 0, "reference": done["stdout"].strip().splitlines()[-1] if done["stdout"].strip() else ""}

    @mcp.tool()
    def check(paths: list[str] | None = None) -> dict[str, Any]:
        """Check the documentation (the folders or files in `paths`; default: the project's, as `textfrag
        check` finds it): every reference and guarded include, each finding with its document and line, its
        kind (stale, missing...) and what to do. Exit code 0: all current; 1: stale; 2: bad."""
        return _document(_run("check", "--format", "json", *(paths or [])))

    @mcp.tool()
    def pin(paths: list[str] | None = None) -> dict[str, Any]:
        """Pin every unpinned reference in the documentation (rewrites the pages in place: adds length and
        md5; in guard mode records the includes in textfrag.lock). Says what it did."""
        done = _run("pin", "--write", *(paths or []))
        return {"exit_code": done["exit_code"], "said": done["stderr"].strip(), "output": done["stdout"]}

    @mcp.tool()
    def show(reference: str) -> dict[str, Any]:
        """The text a reference selects, exactly as it stands in the file (the excerpt a page shows)."""
        done = _run("show", reference)
        if done["exit_code"] != 0:
            return {"exit_code": done["exit_code"], "said": done["stderr"].strip()}
        return {"exit_code": 0, "text": done["stdout"]}

    @mcp.tool()
    def impact(revisions: str, docs: list[str] | None = None) -> dict[str, Any]:
        """Which quotes a change alters, moves or deletes (`revisions`: a git range, "main...HEAD"), each with
        the page and line where readers see it."""
        argv = ["impact", "--format", "json", revisions]
        for folder in docs or []:
            argv += ["--docs", folder]
        return _document(_run(*argv))

    return mcp


def serve(argv: list[str] | None = None) -> int:
    """Serve on standard input and output."""
    server().run()
    return 0
