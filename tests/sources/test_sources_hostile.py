"""A declared source gets the bounds a local file gets: a link out of it, a submodule, a file over the size
limit; only the transports git runs without a helper; no credential in the lock or a message."""

from __future__ import annotations

import os
import subprocess

from .conftest import CodeRepo, Docs, git
from .test_sources import APP, pinned, tf


def test_a_link_inside_the_source_is_followed_and_one_out_of_it_refused(code: CodeRepo, docs: Docs) -> None:
    code.write({"src/app.py": APP})
    os.symlink("src/app.py", code.work / "inside.py")
    os.symlink("../../etc/passwd", code.work / "src" / "outside.py")
    os.symlink("/etc/passwd", code.work / "absolute.py")
    code.release("v1.0.0")
    docs.declare(sdk=(code.url, "v1.0.0"))
    docs.page(
        "index.rst",
        f".. txtfrag:: {pinned(APP, 4, 5, 'inside.py')}\n\n"
        ".. txtfrag:: txtfrag://sdk/src/outside.py#line=0,1\n\n"
        ".. txtfrag:: txtfrag://sdk/absolute.py#line=0,1\n",
    )
    assert tf(docs, "sources", "fetch")[0] == 0
    rc, _, err = tf(docs, "check", ".")
    assert rc == 2
    assert "index.rst:1:" not in err, err
    assert "index.rst:3: txtfrag://sdk/src/outside.py#line=0,1: '//sdk/src/outside.py' resolves outside the source sdk" in err
    assert "index.rst:5: txtfrag://sdk/absolute.py#line=0,1: '//sdk/absolute.py' resolves outside the source sdk" in err
    assert "root:" not in err  # (nothing of /etc/passwd was read)


def test_a_submodule_is_never_followed_and_a_large_file_never_read(
    code: CodeRepo, docs: Docs, tmp_path: os.PathLike[str]
) -> None:
    code.write({"src/app.py": APP, "big.txt": "x" * 5000 + "\n"})
    other = code.work.parent / "other"
    other.mkdir()
    git(other, "init", "-q")
    git(other, "commit", "-q", "--allow-empty", "-m", "o")
    git(code.work, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "vendor/other")
    code.release("v1.0.0")
    docs.declare(sdk=(code.url, "v1.0.0"))
    docs.page(
        "index.rst",
        ".. txtfrag:: txtfrag://sdk/vendor/other/README#line=0,1\n\n.. txtfrag:: txtfrag://sdk/big.txt#line=0,1\n",
    )
    assert tf(docs, "sources", "fetch")[0] == 0
    rc, _, err = tf(docs, "check", "--max-size", "1000", ".")
    assert rc == 2
    assert "index.rst:1:" in err and "vendor/other is a submodule of the source sdk; textfrag never fetches submodules" in err
    assert "index.rst:3:" in err and "//sdk/big.txt is 5001 bytes, over the limit of 1000 bytes" in err


def test_only_declared_transports_are_run(docs: Docs) -> None:
    for url in ("ext::sh -c touch% /tmp/pwned", "--upload-pack=touch /tmp/pwned", "fd::7", "https://x/\\u001b[2Jrepo"):
        docs.declare(sdk=(url, "v1"))
        rc, _, err = tf(docs, "sources", "fetch")
        assert rc == 2, err
        assert "is not a URL textfrag fetches" in err or "is not a repository URL" in err
        assert "Traceback" not in err and "\x1b" not in err
    assert not os.path.exists("/tmp/pwned")


def test_no_credential_is_written_in_the_lock_or_said(code: CodeRepo, docs: Docs, smart_http: tuple[str, list[str]]) -> None:
    base, _ = smart_http
    code.release("v1.0.0", {"src/app.py": APP})
    secret = "ghp_SECRET123"
    url = base.replace("http://", f"http://x-access-token:{secret}@") + f"/{code.bare.name}"
    docs.declare(sdk=(url, "v1.0.0"))
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    rc, out, err = tf(docs, "sources", "fetch")
    assert rc == 0, err
    assert secret not in (docs.root / "textfrag-sources.lock").read_text() and secret not in out + err
    assert tf(docs, "check", ".")[0] == 0
    docs.declare(sdk=(url.replace(code.bare.name, "missing.git"), "v1.0.0"))
    rc, out, err = tf(docs, "sources", "fetch")
    assert rc == 2 and secret not in out + err and "the source sdk" in err


def test_a_git_that_hangs_is_stopped(code: CodeRepo, docs: Docs, tmp_path: os.PathLike[str]) -> None:
    listener = subprocess.Popen(
        [
            "python3",
            "-c",
            "import socket,time;s=socket.socket();s.bind(('127.0.0.1',0));s.listen();print(s.getsockname()[1],flush=True);time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert listener.stdout is not None
        port = listener.stdout.readline().strip()
        docs.declare(sdk=(f"http://127.0.0.1:{port}/sdk.git", "v1"))
        done_env = {**docs.env, "TEXTFRAG_GIT_TIMEOUT": "2"}
        from ..processes import run_textfrag

        done = run_textfrag("sources", "fetch", cwd=docs.root, env=done_env, timeout=60)
        assert done.returncode == 2
        assert "git took over 2 s (TEXTFRAG_GIT_TIMEOUT sets the limit)" in done.stderr
    finally:
        listener.kill()
        listener.wait()
