"""``textfrag lsp`` as a process spoken to in raw JSON-RPC (malformed input), and without its extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_malformed_messages_get_an_error_and_the_server_goes_on(project: Path) -> None:
    """Raw JSON-RPC on the server's standard input: garbage, an unknown request, then a real one."""

    def frame(body: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": project.as_uri()}}
    unknown = {"jsonrpc": "2.0", "id": 2, "method": "textfrag/nothing", "params": {}}
    shutdown = {"jsonrpc": "2.0", "id": 3, "method": "shutdown"}
    stream = (
        frame(json.dumps(init).encode())
        + frame(b"{not json")
        + frame(json.dumps(unknown).encode())
        + frame(json.dumps(shutdown).encode())
        + frame(json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode())
    )
    r = subprocess.run([sys.executable, "-m", "textfrag", "lsp"], input=stream, capture_output=True, timeout=60)
    out = r.stdout.decode()
    assert '"id": 1' in out.replace('"id":1', '"id": 1') and "capabilities" in out
    assert "-32700" in out or "-32600" in out  # the garbage: a parse error
    assert "-32601" in out  # the unknown request: method not found
    assert out.replace('"id":3', '"id": 3').count('"id": 3') == 1  # and it still answered the shutdown
    assert "Traceback" not in r.stderr.decode()


def test_without_the_extra_it_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys, builtins\nreal = builtins.__import__\n"
        "def fake(name, *a, **k):\n    if name.split('.')[0] == 'pygls':\n        raise ImportError(name=name)\n    return real(name, *a, **k)\n"
        "builtins.__import__ = fake\nfrom textfrag.cli import main\nsys.exit(main(['lsp']))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "pip install 'textfrag[lsp]'" in r.stderr and "Traceback" not in r.stderr
