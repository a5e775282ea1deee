"""The language server's two speed figures, against `textfrag check` on the same document:

1. a document's first diagnostics (didOpen -> publishDiagnostics) against `textfrag check DOC` as a
   process (target: no slower);
2. the diagnostics after a one-reference edit of a 2,000-reference document against the first (target:
   at most a quarter), since only the reference whose text changed is verified again.

    .venv/bin/python bench/bench_lsp.py [--refs 2000] [--files 20] [--runs 5]

Generates (once per shape) bench/.tree-lsp-*/ with source files and one Markdown document quoting them;
the server is the installed `textfrag lsp`, driven by pytest-lsp's client over standard input/output.
Also times a 100,000-reference document and a 10 MB line, which must stay responsive.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig

HERE = Path(__file__).resolve().parent


def generate(tree: Path, refs: int, files: int) -> Path:
    """``files`` sources of 400 lines, a doc with ``refs`` pinned references spread over them."""
    (tree / "src").mkdir(parents=True, exist_ok=True)
    (tree / "docs").mkdir(exist_ok=True)
    pins = []
    for i in range(files):
        text = "".join(f"def f{i}_{n}(x):\n    return x + {n}\n" for n in range(200))
        (tree / "src" / f"m{i}.py").write_text(text)
        pins.append(f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}")
    lines = ["# Many quotes\n"]
    for k in range(refs):
        i, n = k % files, (k * 7) % 399
        lines.append(f"\nQuote {k}: ![](txtfrag:src/m{i}.py#line={n},{n + 1};{pins[i]})\n")
    doc = tree / "docs" / "index.md"
    doc.write_text("".join(lines))
    return doc


async def lsp_times(doc: Path, root: Path, edits: int) -> tuple[float, list[float]]:
    """(first diagnostics, [diagnostics after each one-reference edit]) in seconds."""
    config = ClientServerConfig(server_command=[sys.executable, "-m", "textfrag", "lsp"])
    client = await config.start()
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name="b")],
        )
    )
    uri = doc.resolve().as_uri()
    text = doc.read_text()

    async def published() -> None:
        while uri not in client.diagnostics:
            await asyncio.sleep(0.001)

    began = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text))
    )
    await asyncio.wait_for(published(), 600)
    first = time.perf_counter() - began
    again = []
    for v in range(edits):
        if "#line=49,50;" in text:  # one reference's text edited (the generated document)
            text = text.replace("#line=49,50;", f"#line={49 + v % 3},{50 + v % 3};", 1)
        else:  # a real document: a paragraph typed at its end
            text += f"\n\nEdited {v}.\n"
        client.diagnostics.pop(uri, None)
        began = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=v + 2),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        await asyncio.wait_for(published(), 600)
        again.append(time.perf_counter() - began)
    await client.shutdown_session()
    await client.stop()
    return first, again


def check_time(doc: Path, root: Path) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "textfrag", "check", "--root", str(root), str(doc)], capture_output=True, check=False)
    return time.perf_counter() - began


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--refs", type=int, default=2000)
    p.add_argument("--files", type=int, default=20)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--large", action="store_true", help="also time a 100,000-reference document and a 10 MB line")
    a = p.parse_args()
    tree = HERE / f".tree-lsp-{a.refs}-{a.files}"
    doc = generate(tree, a.refs, a.files)
    checks = [check_time(doc, tree) for _ in range(a.runs)]
    firsts, agains = [], []
    for _ in range(a.runs):
        first, again = asyncio.run(lsp_times(doc, tree, 3))
        firsts.append(first)
        agains.extend(again)
    check, first, again = statistics.median(checks), statistics.median(firsts), statistics.median(agains)
    print(f"{a.refs} references in one document, {a.files} quoted files, medians of {a.runs} runs")
    print(f"  textfrag check (a process):           {check:.3f} s")
    print(f"  lsp first diagnostics:                {first:.3f} s   ({first / check:.2f}x check; target <= 1.0x)")
    print(f"  lsp after a one-reference edit:       {again:.3f} s   ({again / first:.2f}x the first; target <= 0.25x)")
    if a.large:
        big = generate(HERE / ".tree-lsp-100000-20", 100_000, 20)
        first, again = asyncio.run(lsp_times(big, big.parent.parent, 1))
        print(f"  100,000 references: first {first:.2f} s, after an edit {again[0]:.2f} s")
        line_tree = HERE / ".tree-lsp-line"
        (line_tree / "docs").mkdir(parents=True, exist_ok=True)
        (line_tree / "src").mkdir(exist_ok=True)
        (line_tree / "src" / "a.txt").write_text("x\n")
        long_line = line_tree / "docs" / "line.md"
        long_line.write_text("a" * 10_000_000 + " ![](txtfrag:src/a.txt)\n")
        first, again = asyncio.run(lsp_times(long_line, line_tree, 1))
        print(f"  a 10 MB line: first {first:.2f} s, after an edit {again[0]:.2f} s")


if __name__ == "__main__":
    main()
