"""What the tests of declared sources share: a code repository with tags, published as a bare repository
over ``file://`` and over git's smart HTTP (a local ``git http-backend``), and a docs project quoting it."""

from __future__ import annotations

import http.server
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

IDENTITY = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.org",
}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **IDENTITY})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@dataclass
class CodeRepo:
    """A code repository (its work tree) and the bare repository it is published as."""

    work: Path
    bare: Path
    tags: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.bare.as_uri()

    def write(self, files: dict[str, str | None]) -> None:
        """Write (or, for None, delete) files in the work tree."""
        for name, text in files.items():
            path = self.work / name
            if text is None:
                git(self.work, "rm", "-q", name)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))

    def release(self, tag: str, files: dict[str, str | None] | None = None, *, branch: str = "main") -> str:
        """Commit ``files`` (if any), tag the commit ``tag`` and publish both; the commit."""
        if files:
            self.write(files)
        git(self.work, "add", "-A")
        git(self.work, "commit", "-q", "--allow-empty", "-m", tag)
        git(self.work, "tag", tag)
        git(self.work, "push", "-q", str(self.bare), f"HEAD:refs/heads/{branch}", f"refs/tags/{tag}")
        self.tags.append(tag)
        return git(self.work, "rev-parse", "HEAD")

    def rename(self, old: str, new: str) -> None:
        (self.work / new).parent.mkdir(parents=True, exist_ok=True)
        git(self.work, "mv", old, new)


def code_repo(folder: Path, name: str = "sdk") -> CodeRepo:
    work, bare = folder / f"{name}-work", folder / f"{name}.git"
    work.mkdir(parents=True)
    git(work, "init", "-q", "-b", "main")
    git(work, "config", "core.autocrlf", "false")
    git(folder, "init", "-q", "--bare", "-b", "main", str(bare))
    return CodeRepo(work, bare)


@dataclass
class Docs:
    """A docs project (its own git repository) that declares sources, with its own cache of them."""

    root: Path
    cache: Path

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "TEXTFRAG_SOURCES_CACHE": str(self.cache)}

    def declare(self, **sources: tuple[str, str]) -> None:
        lines = ["[sources]"] + [f'{name} = {{ git = "{url}", rev = "{rev}" }}' for name, (url, rev) in sources.items()]
        (self.root / "textfrag.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def page(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


def docs_project(folder: Path) -> Docs:
    root = folder / "docs"
    root.mkdir()
    git(root, "init", "-q")
    return Docs(root, folder / "cache")


@pytest.fixture
def code(tmp_path: Path) -> CodeRepo:
    return code_repo(tmp_path)


@pytest.fixture
def docs(tmp_path: Path) -> Docs:
    return docs_project(tmp_path)


class _GitOverHttp(http.server.BaseHTTPRequestHandler):
    """git's smart HTTP, as a forge serves it: each request handed to ``git http-backend`` (CGI)."""

    projects: Path
    backend: str
    requests: list[str]

    def _cgi(self) -> None:
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        env = {
            "PATH": os.environ.get("PATH", ""),
            "GIT_PROJECT_ROOT": str(self.projects),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
            "REMOTE_ADDR": "127.0.0.1",
        }
        self.requests.append(f"{self.command} {path}?{query}")
        out = subprocess.run([self.backend], input=body, env=env, capture_output=True, check=False).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode("latin-1").split("\r\n"):
            key, _, value = line.partition(":")
            if key.lower() == "status":
                status = int(value.split()[0])
            elif key:
                headers.append((key, value.strip()))
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _cgi

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002  (the base class's name)
        pass


@pytest.fixture
def smart_http(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """A local git server over smart HTTP for the bare repositories in ``tmp_path``: its base URL, and
    the requests it answered."""
    exec_path = subprocess.run(["git", "--exec-path"], capture_output=True, text=True, check=True).stdout.strip()
    requests: list[str] = []
    handler = type(
        "Handler", (_GitOverHttp,), {"projects": tmp_path, "backend": f"{exec_path}/git-http-backend", "requests": requests}
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()
