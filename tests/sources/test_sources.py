"""Quotes of other repositories: ``txtfrag://NAME/PATH`` of a source declared in ``textfrag.toml``, its
commit locked, fetched once into a cache, read with no network by ``check`` and the builds, over real git
remotes (``file://`` and smart HTTP)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from textfrag.cli import main

from ..processes import run_mkdocs, run_sphinx, run_textfrag
from .conftest import CodeRepo, Docs

APP = "import os\n\n\ndef greet(name):\n    return f'hi {name}'\n\n\ndef bye():\n    pass\n"


def pinned(text: str, first: int, last: int, path: str = "src/app.py", name: str = "sdk") -> str:
    """``txtfrag://NAME/PATH#line=...`` pinned to ``text`` (lines first-last, 1-based)."""
    md5 = hashlib.md5(text.encode()).hexdigest()
    return f"txtfrag://{name}/{path}#line={first - 1},{last};length={len(text)};md5={md5}"


def released(code: CodeRepo, docs: Docs) -> str:
    """The code released as v1.0.0 and declared by the docs at that tag; its commit."""
    commit = code.release("v1.0.0", {"src/app.py": APP})
    docs.declare(sdk=(code.url, "v1.0.0"))
    return commit


def tf(docs: Docs, *args: str) -> tuple[int, str, str]:
    done = run_textfrag(*args, cwd=docs.root, env=docs.env, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_fetch_locks_the_commit_and_check_reads_it_with_the_remote_gone(code: CodeRepo, docs: Docs) -> None:
    commit = released(code, docs)
    docs.page("index.rst", f"Intro\n=====\n\n.. txtfrag:: {pinned(APP, 4, 5)}\n")
    rc, _, err = tf(docs, "sources", "fetch")
    assert rc == 0, err
    assert "sdk: v1.0.0 is" in err and "(fetched)" in err
    lock = json.loads((docs.root / "textfrag-sources.lock").read_text())
    assert lock["sources"]["sdk"] == {"git": code.url, "rev": "v1.0.0", "commit": commit}
    shutil.rmtree(code.bare)  # (offline: the cache holds the commit)
    rc, _, err = tf(docs, "check", "--require-pin", ".")
    assert rc == 0, err
    rc, _, err = tf(docs, "sources", "fetch")  # (at most one fetch per repository and commit)
    assert rc == 0 and "(in the cache)" in err, err
    rc, out, _ = tf(docs, "sources", "list")
    assert out.split("\t")[:2] == ["sdk", "v1.0.0"] and "in the cache" in out


def test_the_lock_follows_its_commit_not_the_moving_branch(code: CodeRepo, docs: Docs) -> None:
    code.release("v1.0.0", {"src/app.py": APP})
    docs.declare(sdk=(code.url, "main"))
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    code.release("v1.1.0", {"src/app.py": "# moved\n" + APP})  # (main moves on)
    rc, _, err = tf(docs, "check", ".")
    assert rc == 0, err


def test_a_build_without_the_commit_in_its_cache_fails_with_one_located_line_saying_what_to_run(
    code: CodeRepo, docs: Docs
) -> None:
    released(code, docs)
    docs.page("index.rst", f"Intro\n=====\n\n.. txtfrag:: {pinned(APP, 4, 5)}\n")
    docs.page("conf.py", "extensions = ['sphinx_textfrag']\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(docs.cache)  # (a fresh CI machine that keeps no cache)
    rc, _, err = tf(docs, "check", ".")
    assert rc == 2
    said = [line for line in err.splitlines() if "run `textfrag sources fetch`" in line]
    assert len(said) == 1 and said[0].startswith("index.rst:4: txtfrag://sdk/src/app.py#line=3,5"), err
    assert "is not in the cache" in said[0]
    build = run_sphinx("-q", "-W", "-b", "html", ".", "_build", cwd=docs.root, env=docs.env, timeout=120)
    assert build.returncode != 0
    assert "index.rst:4" in build.stderr and "run `textfrag sources fetch`" in build.stderr


def test_a_build_fetches_the_locked_commit_itself_when_the_configuration_allows_it(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(docs.cache)
    (docs.root / "textfrag.toml").write_text("fetch_sources = true\n" + (docs.root / "textfrag.toml").read_text())
    rc, _, err = tf(docs, "check", ".")
    assert rc == 0, err
    assert any(docs.cache.glob("sdk-*.git"))


def test_sphinx_and_mkdocs_render_the_quote_of_a_source_as_check_judges_it(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    reference = pinned(APP, 4, 5)
    docs.page("index.rst", f"Intro\n=====\n\n.. txtfrag:: {reference}\n")
    docs.page("conf.py", "extensions = ['sphinx_textfrag']\n")
    docs.page("site/mkdocs.yml", "site_name: t\nplugins:\n  - textfrag\n")
    docs.page("site/docs/index.md", f"# Intro\n\n![greet]({reference})\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(code.bare)
    build = run_sphinx("-q", "-W", "-b", "html", ".", "_build", cwd=docs.root, env=docs.env, timeout=120)
    assert build.returncode == 0, build.stderr
    site = run_mkdocs("build", "-q", "--strict", cwd=docs.root / "site", env=docs.env, timeout=120)
    assert site.returncode == 0, site.stderr
    for page in (docs.root / "_build" / "index.html", docs.root / "site" / "site" / "index.html"):
        block = BeautifulSoup(page.read_text(), "html.parser").select_one("div.txtfrag")
        assert block is not None and block["data-txtfrag-state"] == "current"
        assert block["data-txtfrag-ref"] == reference.removeprefix("txtfrag:")
        assert "def greet(name):" in block.get_text() and "import os" not in block.get_text()


def test_make_and_pin_write_the_one_spelling(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    assert tf(docs, "sources", "fetch")[0] == 0
    rc, out, err = tf(docs, "make", "txtfrag://sdk/src/app.py", "--lines", "4-5")
    assert rc == 0, err
    assert out.strip() == pinned(APP, 4, 5)
    docs.page("index.md", "# T\n\n![greet](txtfrag://sdk/src/app.py#line=3,5)\n")
    rc, _, err = tf(docs, "pin", "--write", "index.md")
    assert rc == 0, err
    assert f"![greet]({pinned(APP, 4, 5)})" in (docs.root / "index.md").read_text()


def test_sources_over_smart_http(code: CodeRepo, docs: Docs, smart_http: tuple[str, list[str]]) -> None:
    base, requests = smart_http
    released(code, docs)
    docs.declare(sdk=(f"{base}/{code.bare.name}", "v1.0.0"))
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    rc, _, err = tf(docs, "sources", "fetch")
    assert rc == 0, err
    assert any("git-upload-pack" in r for r in requests)
    asked = len(requests)
    rc, _, err = tf(docs, "check", ".")
    assert rc == 0, err
    assert len(requests) == asked  # (the build asked the server nothing)


def test_a_name_that_is_not_declared_is_said_with_what_to_declare(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    assert tf(docs, "sources", "fetch")[0] == 0
    docs.page("index.rst", ".. txtfrag:: txtfrag://docs/src/app.py#line=3,5\n\n.. txtfrag:: txtfrag://SDK/src/app.py\n")
    rc, _, err = tf(docs, "check", ".")
    assert rc == 2
    assert "index.rst:1: txtfrag://docs/src/app.py#line=3,5: no source named docs is declared" in err
    assert "declares sdk" in err
    assert "index.rst:3: txtfrag://SDK/src/app.py: '//SDK/' names no source" in err


def test_through_main_argv(code: CodeRepo, docs: Docs, monkeypatch: pytest.MonkeyPatch) -> None:
    released(code, docs)
    monkeypatch.chdir(docs.root)
    monkeypatch.setenv("TEXTFRAG_SOURCES_CACHE", str(docs.cache))
    out, err = io.StringIO(), io.StringIO()
    assert main(["sources", "fetch"], stdout=out, stderr=err) == 0, err.getvalue()
    assert main(["show", "txtfrag://sdk/src/app.py#line=3,5"], stdout=out, stderr=err) == 0, err.getvalue()
    assert out.getvalue() == "def greet(name):\n    return f'hi {name}'\n"


def test_a_warm_check_starts_no_git_and_a_lost_cache_is_still_said(code: CodeRepo, docs: Docs, tmp_path: Path) -> None:
    """A source's file at a commit never changes: its digest is kept as an earlier run found it (the store),
    so a second check runs no git at all; the store never hides a commit the build could not read."""
    released(code, docs)
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    store = tmp_path / "store"
    env = {**docs.env, "TEXTFRAG_CACHE_DIR": str(store)}
    assert run_textfrag("sources", "fetch", cwd=docs.root, env=env).returncode == 0
    assert run_textfrag("check", ".", cwd=docs.root, env=env).returncode == 0
    log = tmp_path / "git.log"
    real = shutil.which("git")
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    counted = {**env, "PATH": f"{wrapper.parent}:{env['PATH']}"}
    done = run_textfrag("check", ".", cwd=docs.root, env=counted)
    assert done.returncode == 0, done.stderr
    assert not log.exists(), log.read_text()
    shutil.rmtree(docs.cache)
    done = run_textfrag("check", ".", cwd=docs.root, env=counted)
    assert done.returncode == 2 and "run `textfrag sources fetch`" in done.stderr


def test_two_sources_one_page_and_the_batch_protocol_answers_as_check(code: CodeRepo, docs: Docs, tmp_path: Path) -> None:
    """A page quoting two repositories; ``textfrag batch`` (what the JavaScript engines run) answers each
    quote as ``check`` judges it."""
    from .conftest import code_repo

    lib = code_repo(tmp_path / "second", "lib")
    util = "def add(a, b):\n    return a + b\n"
    lib.release("v2.0.0", {"util.py": util})
    code.release("v1.0.0", {"src/app.py": APP})
    docs.declare(sdk=(code.url, "v1.0.0"), lib=(lib.url, "v2.0.0"))
    stale = pinned(util, 1, 2, "util.py", "lib")[:-32] + "0" * 32
    docs.page(
        "page.md", f"# Two\n\n![greet]({pinned(APP, 4, 5)})\n\n![add]({pinned(util, 1, 2, 'util.py', 'lib')})\n\n![x]({stale})\n"
    )
    rc, _, err = tf(docs, "sources", "fetch")
    assert rc == 0 and "sdk: v1.0.0 is" in err and "lib: v2.0.0 is" in err
    assert sorted(json.loads((docs.root / "textfrag-sources.lock").read_text())["sources"]) == ["lib", "sdk"]
    request = json.dumps({"protocol": 1, "documents": [{"path": "page.md"}]})
    done = run_textfrag("batch", cwd=docs.root, env=docs.env, input=request, timeout=60)
    answer = json.loads(done.stdout)
    assert [r["state"] for r in answer["results"]] == ["current", "current", "stale"]
    assert answer["results"][1]["excerpt"]["text"] == util
    said = answer["results"][2]["problems"][0]["said"]
    assert said.startswith("page.md:7: txtfrag://lib/util.py#line=0,2;") and said in tf(docs, "check", ".")[2]


def test_pin_fetches_the_commit_the_lock_names_that_the_cache_lacks(code: CodeRepo, docs: Docs) -> None:
    released(code, docs)
    assert tf(docs, "sources", "fetch")[0] == 0
    shutil.rmtree(docs.cache)  # (a fresh machine: the lock is committed, the cache is not)
    docs.page("index.md", "# T\n\n![greet](txtfrag://sdk/src/app.py#L4-L5)\n")
    rc, _, err = tf(docs, "pin", "--write", "index.md")
    assert rc == 0, err
    assert f"![greet]({pinned(APP, 4, 5)})" in (docs.root / "index.md").read_text()
