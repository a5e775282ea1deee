"""``textfrag mcp`` driven by the MCP Python SDK's own client, over standard input and output, as an agent's
host starts it in a project: the tools it lists, a reference minted by lines and by symbol, written into a
page and pinned, a check that finds it current and then stale (each finding with its document and line),
an excerpt shown, and a change's impact, each the same as the command of its name says."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from mcp import Client

BIN = Path(sys.executable).parent
APP = "def greet(name):\n    return f'hello {name}'\n\n\ndef part():\n    return 2\n"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


async def _called(client: Client, name: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result
    return result.structured_content


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("# Guide\n\nSay hello:\n", encoding="utf-8")
    (tmp_path / "textfrag.toml").write_text("", encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "start")
    return tmp_path


def _textfrag(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "textfrag"), *args], cwd=root, capture_output=True, text=True, timeout=60)


def test_an_agent_quotes_pins_and_checks_through_the_tools(project: Path) -> None:
    """One session, as an agent's host keeps one: the server reads the files as they are at each call."""
    asyncio.run(asyncio.wait_for(_agent(project), 120))


async def _agent(project: Path) -> None:
    mcp = pytest.importorskip("mcp")  # (here: its import takes a second, which the suite's collection paid)
    params = mcp.StdioServerParameters(command=str(BIN / "textfrag"), args=["mcp"], cwd=str(project))
    async with mcp.Client(params, read_timeout_seconds=60) as client:
        tools = sorted(t.name for t in (await client.list_tools()).tools)
        assert tools == ["check", "impact", "make_reference", "pin", "show"]
        by_lines = await _called(client, "make_reference", {"path": "src/app.py", "lines": "1-2"})
        by_symbol = await _called(client, "make_reference", {"path": "src/app.py", "symbol": "part"})
        missing = await _called(client, "make_reference", {"path": "src/nope.py", "lines": "1-2"})
        assert by_lines["reference"] == _textfrag(project, "make", "src/app.py", "--lines", "1-2").stdout.strip()
        assert by_lines["reference"].startswith("src/app.py#line=0,2;length=")
        made = _textfrag(project, "make", "src/app.py", "--symbol", "part").stdout.strip().splitlines()[-1]
        assert by_symbol["reference"] == made
        assert missing["exit_code"] == 2 and "no such file: src/nope.py" in missing["said"]

        page = project / "docs" / "index.md"
        page.write_text(page.read_text(encoding="utf-8") + "\n![](txtfrag:src/app.py#line=0,2)\n", encoding="utf-8")
        pinned = await _called(client, "pin", {"paths": ["docs"]})
        assert pinned["exit_code"] == 0 and f"txtfrag:{by_lines['reference']}" in page.read_text(encoding="utf-8")
        current = await _called(client, "check", {"paths": ["docs"]})
        said = json.loads(_textfrag(project, "check", "--format", "json", "docs").stdout)
        assert current["exit_code"] == 0 and current["document"] == said
        shown = await _called(client, "show", {"reference": by_lines["reference"]})
        assert shown == {"exit_code": 0, "text": "def greet(name):\n    return f'hello {name}'\n"}

        _git(project, "add", "-A")
        _git(project, "commit", "-qm", "quoted")
        (project / "src" / "app.py").write_text(APP.replace("hello", "hi"), encoding="utf-8")
        _git(project, "commit", "-qam", "changed")
        stale = await _called(client, "check", {"paths": ["docs"]})
        assert stale["exit_code"] == 1
        assert stale["document"] == json.loads(_textfrag(project, "check", "--format", "json", "docs").stdout)
        assert "docs/index.md" in json.dumps(stale["document"]) and "stale" in json.dumps(stale["document"])
        touched = await _called(client, "impact", {"revisions": "HEAD~1..HEAD"})
        impact = _textfrag(project, "impact", "--format", "json", "HEAD~1..HEAD")
        assert touched["exit_code"] == impact.returncode and touched["document"] == json.loads(impact.stdout)
        assert "docs/index.md" in json.dumps(touched["document"])
