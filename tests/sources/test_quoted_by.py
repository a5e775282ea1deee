""" "Who quotes this?" in the quoted repository: ``textfrag index`` writes a docs site's quote index, and
``textfrag impact --quoted-by INDEX`` in the code repository says which of the site's pages a change alters,
moves or deletes: what ``check`` in the docs then says, quote by quote."""

from __future__ import annotations

import hashlib
import io
import json
import os
from importlib.resources import files
from pathlib import Path

import jsonschema
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag.cli import main

from ..impact.shared import LINES, edited, effect
from ..processes import run_sphinx
from .conftest import CodeRepo, Docs, code_repo, docs_project, git
from .test_sources import APP, pinned, tf


def _main(cwd: Path, cache: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    before, said = os.getcwd(), os.environ.get("TEXTFRAG_SOURCES_CACHE")
    os.chdir(cwd)
    os.environ["TEXTFRAG_SOURCES_CACHE"] = str(cache)
    try:
        code = main(list(argv), stdout=out, stderr=err)
    finally:
        os.chdir(before)
        if said is None:
            os.environ.pop("TEXTFRAG_SOURCES_CACHE", None)
        else:
            os.environ["TEXTFRAG_SOURCES_CACHE"] = said
    return code, out.getvalue(), err.getvalue()


def test_the_index_names_each_quote_its_commit_and_the_anchor_readers_follow(code: CodeRepo, docs: Docs) -> None:
    commit = code.release("v1.0.0", {"src/app.py": APP})
    docs.declare(sdk=(code.url, "v1.0.0"))
    docs.page("conf.py", "extensions = ['sphinx_textfrag']\nexclude_patterns = ['_build']\n")
    docs.page("local.py", "X = 1\n")
    docs.page("index.rst", f"Intro\n=====\n\nGreeting\n--------\n\n.. txtfrag:: {pinned(APP, 4, 5)}\n\n.. txtfrag:: local.py\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    rc, out, err = tf(docs, "index", "--site", "guide", "--site-url", "https://docs.example.org/")
    assert rc == 0, err
    index = json.loads(out)
    schema = json.loads(files("textfrag").joinpath("schemas/index.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(index, schema)
    remote, local = index["quotes"]
    assert remote == {
        "source": "sdk",
        "git": code.url,
        "commit": commit,
        "path": "src/app.py",
        "reference": pinned(APP, 4, 5),
        "lines": [4, 5],
        "md5": hashlib.md5(APP.encode()).hexdigest(),
        "document": "index.rst",
        "line": 7,
        "column": 14,
        "heading": "Greeting",
        "url": remote["url"],
    }
    assert local["source"] is None and local["path"] == "local.py" and local["lines"] == [1, 1]
    build = run_sphinx("-q", "-b", "html", ".", "_build", cwd=docs.root, env=docs.env, timeout=120)
    assert build.returncode == 0, build.stderr
    page, anchor = remote["url"].removeprefix("https://docs.example.org/").split("#")
    html = BeautifulSoup((docs.root / "_build" / page).read_text(), "html.parser")
    target = html.find(id=anchor)
    assert target is not None and "def greet(name):" in target.get_text()


def test_impact_quoted_by_says_which_pages_of_which_site_a_change_alters(code: CodeRepo, docs: Docs, tmp_path: Path) -> None:
    code.release("v1.0.0", {"src/app.py": APP})
    git(code.work, "remote", "add", "origin", code.url)
    docs.declare(sdk=(code.url, "v1.0.0"))
    docs.page("index.rst", f"Intro\n=====\n\n.. txtfrag:: {pinned(APP, 4, 5)}\n\n.. txtfrag:: {pinned(APP, 8, 9)}\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    assert tf(docs, "index", "--site", "guide", "-o", str(tmp_path / "quotes.json"))[0] == 0
    code.write({"src/app.py": "# header\n" + APP.replace("    pass\n", "    return 1\n")})
    git(code.work, "commit", "-qam", "edit")
    rc, out, err = _main(code.work, docs.cache, "impact", "--quoted-by", str(tmp_path / "quotes.json"), "v1.0.0..HEAD")
    assert rc == 0, err
    assert "guide: index.rst:4: shifts quoted lines: txtfrag://sdk/src/app.py#line=3,5;" in out, out
    assert "guide: index.rst:6: changes quoted text: txtfrag://sdk/src/app.py#line=7,9;" in out and "+    return 1" in out
    assert "in guide: textfrag sources update --write (repairs index.rst:4)" in out
    rc, out, err = _main(
        code.work, docs.cache, "impact", "--quoted-by", str(tmp_path / "quotes.json"), "v1.0.0..HEAD", "--format", "json"
    )
    report = json.loads(out)
    assert {(q["site"], q["document"], q["line"], q["effect"]) for q in report["quotes"]} == {
        ("guide", "index.rst", 4, "moved"),
        ("guide", "index.rst", 6, "changed"),
    }
    elsewhere = code_repo(tmp_path / "other", "lib")
    elsewhere.release("v1", {"a.py": "A = 1\n"})
    rc, _, err = _main(elsewhere.work, docs.cache, "impact", "--quoted-by", str(tmp_path / "quotes.json"), "HEAD")
    assert rc == 2 and "no quote of the site guide is of this repository" in err and code.url in err


edits = st.lists(
    st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 19), st.integers(1, 3)), min_size=1, max_size=3
)
ranges = st.lists(st.tuples(st.integers(0, 17), st.integers(1, 4)), min_size=1, max_size=4)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=edits, ranges=ranges, rename=st.booleans())
def test_impact_quoted_by_predicts_what_check_in_the_docs_says_after_the_release(tmp_path_factory, edits, ranges, rename) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("quoted-by")
    code, docs = code_repo(folder), docs_project(folder)
    text = "".join(LINES)
    before = code.release("v1", {"src/app.py": text})
    git(code.work, "remote", "add", "origin", code.url)
    docs.declare(sdk=(code.url, "v1"))
    pin = f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    docs.page(
        "index.md",
        "# Quotes\n\n" + "".join(f"![](txtfrag://sdk/src/app.py#line={a},{min(a + n, 20)};{pin})\n\n" for a, n in ranges),
    )
    assert _main(docs.root, docs.cache, "sources", "fetch")[0] == 0
    assert _main(docs.root, docs.cache, "index", "-o", str(folder / "quotes.json"))[0] == 0
    code.write({"src/app.py": "".join(edited(LINES, edits))})
    if rename:
        code.rename("src/app.py", "src/main.py")
    after = code.release("v2")
    rc, out, err = _main(
        code.work, docs.cache, "impact", "--quoted-by", str(folder / "quotes.json"), "v1..v2", "--format", "json"
    )
    assert rc == 0, err
    predicted = {q["line"]: q["effect"] for q in json.loads(out)["quotes"]}
    # the docs follow v2 (the lock names its commit, and the one before it), their quotes as they were
    (docs.root / "textfrag.toml").write_text((docs.root / "textfrag.toml").read_text().replace('"v1"', '"v2"'))
    lock = docs.root / "textfrag-sources.lock"
    record = {"git": code.url, "rev": "v2", "commit": after, "previous": before}
    lock.write_text(json.dumps({"textfrag-sources.lock": 1, "sources": {"sdk": record}}))
    assert _main(docs.root, docs.cache, "sources", "fetch")[0] == 0
    rc, out, err = _main(docs.root, docs.cache, "check", "--format", "json", ".")
    results = json.loads(out)["results"]
    assert predicted == {r["line"]: effect(r) for r in results if effect(r) is not None}, err
