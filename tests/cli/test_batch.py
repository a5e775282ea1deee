"""The batch protocol (``textfrag batch``, the manual's reference/protocol page): one JSON request of a
build's documents or of references a plugin found, one JSON answer with each one's excerpt, problems and
repair, the same verdict ``check`` gives. Run as a process and through ``main(argv)``; every request and
answer validated against the schemas the package ships."""

from __future__ import annotations

import hashlib
import io
import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from textfrag.cli import main

from ..conftest import commit_all, new_project
from ..processes import run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 11))
MD5 = hashlib.md5(APP.encode()).hexdigest()


def _schema(name: str) -> dict[str, Any]:
    return json.loads(files("textfrag").joinpath(f"schemas/batch-{name}.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def batch(request: Any, cwd: Path, *, env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    """``textfrag batch`` as a plugin runs it: the request on standard input, the answer on standard output."""
    text = request if isinstance(request, str) else json.dumps(request)
    if not isinstance(request, str):
        jsonschema.validate(request, _schema("request"))
    r = run_textfrag("batch", input=text, cwd=cwd, env={**os.environ, **(env or {})}, timeout=60)
    assert "Traceback" not in r.stderr
    answer = json.loads(r.stdout) if r.stdout else None
    if answer is not None:
        jsonschema.validate(answer, _schema("answer"))
    return r.returncode, answer, r.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "docs" / "page.md").write_text(
        "# Page\n\n"
        f"![Two lines](txtfrag:src/app.txt#line=1,3;length={len(APP)};md5={MD5})\n\n"
        "A link to [it](txtfrag:src/gone.txt).\n",
        encoding="utf-8",
    )
    commit_all(root)
    return root


def test_a_document_answered_as_check_judges_it(project: Path) -> None:
    code, answer, _ = batch({"protocol": 1, "documents": [{"path": "docs/page.md"}]}, project)
    assert code == 1 and answer["failed"]
    image, link = answer["results"]
    assert (image["kind"], image["form"], image["line"], image["state"], image["pinned"]) == (
        "reference",
        "image",
        3,
        "current",
        True,
    )
    assert image["excerpt"]["text"] == "line 2\nline 3\n"
    assert image["excerpt"]["caption"] == "Two lines"
    assert image["excerpt"]["data"]["data-txtfrag-md5"] == MD5
    text = (project / "docs" / "page.md").read_text(encoding="utf-8")
    assert text[slice(*image["span"])].startswith("![Two lines](txtfrag:")  # (what a renderer replaces)
    assert link["state"] == "broken" and link["excerpt"] is None
    assert link["problems"][0]["kind"] == "missing"
    assert link["problems"][0]["said"].startswith("docs/page.md:5: txtfrag:src/gone.txt: ")
    check = run_textfrag("check", "docs", cwd=project, timeout=60)
    assert link["problems"][0]["said"] in check.stderr  # (the same words as check)


def test_a_moved_quote_comes_with_the_edits_that_repair_it(project: Path) -> None:
    (project / "src" / "app.txt").write_text("new first line\n" + APP, encoding="utf-8")
    page = project / "docs" / "page.md"
    page.write_text(page.read_text(encoding="utf-8").replace("A link to [it](txtfrag:src/gone.txt).\n", ""), encoding="utf-8")
    code, answer, _ = batch({"protocol": 1, "documents": [{"path": "docs/page.md"}]}, project)
    (image,) = answer["results"]
    assert code == 1 and image["state"] == "stale" and image["repair"]["drift"] == "moved"
    assert image["excerpt"]["data"]["data-txtfrag-state"] == "stale"  # (what it would show, marked; the build fails)
    text = page.read_text(encoding="utf-8")
    for start, end, new in sorted(image["repair"]["edits"], reverse=True):
        text = text[:start] + new + text[end:]
    assert "txtfrag:src/app.txt#line=2,4;" in text
    code, answer, _ = batch({"protocol": 1, "documents": [{"path": "docs/page.md", "text": text}]}, project)
    assert code == 0 and answer["results"][0]["state"] == "current"
    assert answer["results"][0]["excerpt"]["text"] == "line 2\nline 3\n"


def test_a_stale_quote_where_stale_ones_warn_is_shown_and_fails_nothing(project: Path) -> None:
    (project / "src" / "app.txt").write_text(APP.replace("line 2", "LINE 2"), encoding="utf-8")
    request = {
        "protocol": 1,
        "settings": {"on_stale": "warning"},
        "documents": [{"path": "docs/page.md", "text": "![](txtfrag:src/app.txt#line=1,3;md5=" + MD5 + ")\n"}],
    }
    code, answer, _ = batch(request, project)
    (image,) = answer["results"]
    assert code == 0 and not answer["failed"]
    assert image["state"] == "stale" and image["warnings"][0]["kind"] == "stale"
    assert image["excerpt"]["data"]["data-txtfrag-state"] == "stale" and image["excerpt"]["notice"]


def test_references_a_plugin_found_with_their_options(project: Path) -> None:
    request = {
        "protocol": 1,
        "references": [
            {
                "id": "a",
                "reference": "txtfrag:src/app.txt#line=0,3",
                "options": {"caption": "Top", "emphasize-lines": "2", "linenos": True},
            },
            {"id": 7, "reference": "src/app.txt#line=4,5", "form": "inline", "syntax": "md", "document": "page.mdx", "line": 9},
            {
                "id": "c",
                "reference": "txtfrag:src/app.txt#line=0,3",
                "options": {"lines": "9"},
                "document": "page.mdx",
                "line": 12,
            },
        ],
    }
    code, answer, _ = batch(request, project)
    a, b, c = answer["results"]
    assert [r["id"] for r in answer["results"]] == ["a", 7, "c"]
    assert a["excerpt"]["caption"] == "Top" and a["excerpt"]["pieces"][0]["emphasized"] == [2]
    assert b["excerpt"]["inline_text"] == "line 5" and b["pinned"] is False
    assert code == 1 and c["state"] == "broken" and c["problems"][0]["said"].startswith("page.mdx:12: ")


def test_a_page_decides_its_anchors_and_where_its_links_go_as_every_engine_does(project: Path) -> None:
    """What only a page decides: the same range quoted twice on a page gets two anchors (``-2``), a link goes
    to the quote on its page, a link to a quote no page shows and with no ``source_url`` is a located problem
    (the Markdown extension's words), and the same reference on another page is that page's business."""
    ref = "txtfrag:src/app.txt#line=0,3"
    on = lambda i, form, doc="a.md": {"id": i, "reference": ref, "syntax": "md", "form": form, "document": doc, "line": i}  # noqa: E731
    request = {
        "protocol": 1,
        "references": [
            on(1, "block"),
            on(2, "link"),
            on(3, "inline"),
            {**on(4, "link"), "reference": "txtfrag:src/app.txt#line=4,5"},
            on(5, "block", "b.md"),
        ],
    }
    code, answer, _ = batch(request, project)
    one, link, two, nowhere, other = answer["results"]
    assert (
        one["excerpt"]["anchor"] == "txtfrag-src-app-txt-line-0-3" and two["excerpt"]["anchor"] == f"{one['excerpt']['anchor']}-2"
    )
    assert other["excerpt"]["anchor"] == one["excerpt"]["anchor"]
    assert link["target"] == f"#{one['excerpt']['anchor']}" and link["state"] == "current" and link["excerpt"] is None
    assert code == 1 and nowhere["state"] == "broken" and "target" not in nowhere
    assert nowhere["problems"][0]["said"] == (
        "a.md:4: txtfrag:src/app.txt#line=4,5: this link has no target: the page embeds no such reference and no source_url is set"
    )
    request = {**request, "settings": {"source_url": "https://example.org/code/{path}#L{first}"}}
    _, answer, _ = batch(request, project)
    assert answer["results"][3]["target"].startswith("https://example.org/code/src/app.txt#L") and not answer["failed"]


def test_guard_mode_judges_a_books_includes_against_the_lock_file(tmp_path: Path) -> None:
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text(
        '[book]\ntitle = "T"\n\n[preprocessor.textfrag]\nguard = true\nbefore = ["links"]\n', encoding="utf-8"
    )
    (book / "src" / "app.rs").write_text("fn a() {}\n// ANCHOR: b\nfn b() {}\n// ANCHOR_END: b\n", encoding="utf-8")
    (book / "src" / "ch.md").write_text(
        "# Ch\n\n```rust\n{{#include app.rs:2:3}}\n```\n\n{{#include app.rs:gone}}\n", encoding="utf-8"
    )
    commit_all(book)
    run_textfrag("pin", "--write", "src", cwd=book, timeout=60, text=False)
    commit_all(book, "pinned")
    (book / "src" / "app.rs").write_text("// moved\nfn a() {}\n// ANCHOR: b\nfn b() {}\n// ANCHOR_END: b\n", encoding="utf-8")
    code, answer, _ = batch({"protocol": 1, "documents": [{"path": "src/ch.md"}]}, book)
    assert answer["guard"] is True
    moved, gone = answer["results"]
    assert (moved["kind"], moved["form"], moved["state"]) == ("include", "include", "stale")
    text = (book / "src" / "ch.md").read_text(encoding="utf-8")
    for start, end, new in sorted(moved["repair"]["edits"], reverse=True):
        text = text[:start] + new + text[end:]
    assert "{{#include app.rs:3:4}}" in text and moved["repair"]["key"].endswith("app.rs:3:4}}")
    assert moved["text"] == "fn a() {}\n// ANCHOR: b"  # (what it shows now)
    assert gone["state"] == "broken" and gone["problems"][0]["said"].startswith("src/ch.md:7: ")
    assert code == 1


def test_an_unreadable_lock_file_is_the_first_problem(tmp_path: Path) -> None:
    root = new_project(tmp_path / "p", "app.txt", APP)
    (root / "textfrag.lock").write_text("not a lock file\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_name: T\n", encoding="utf-8")
    (root / "docs" / "index.md").write_text("# T\n", encoding="utf-8")
    code, answer, _ = batch(
        {"protocol": 1, "config": "mkdocs.yml", "settings": {"guard": True}, "documents": [{"path": "docs/index.md"}]}, root
    )
    assert code == 1 and answer["results"][0]["kind"] == "lock" and answer["results"][0]["state"] == "broken"


@pytest.mark.parametrize(
    ("request_text", "said"),
    [
        ("{", "the request is not JSON"),
        ("[1]", "a request is a JSON object, not list"),
        ('{"protocol": 2}', "the request's protocol must be 1"),
        ('{"protocol": 1, "documents": {}}', "the request's documents must be a list, not dict"),
        ('{"protocol": 1, "documents": [{"text": "x"}]}', "the request's documents[].path must be a string, not NoneType"),
        ('{"protocol": 1, "settings": {"gaurd": true}}', "the request's settings have no 'gaurd'"),
        ('{"protocol": 1, "settings": {"on_stale": "maybe"}}', "settings.on_stale must be 'error' or 'warning'"),
        ('{"protocol": 1, "references": [{"reference": 5}]}', "references[0].reference must be a string, not int"),
        ('{"protocol": 1, "references": [{"reference": "a.txt", "form": "box"}]}', "form is block, inline or link"),
        ('{"protocol": 1, "references": [{"reference": "a.txt", "options": {"caption": []}}]}', "options.caption must be"),
        ("[" * 100_000, "nested too deeply"),
        ('{"protocol": 1, "settings": {"max_size": -1}}', "settings.max_size must be a number of bytes above 0, not -1"),
        ('{"protocol": 1, "documents": [{"path": "/etc/passwd"}]}', "documents[0].path '/etc/passwd' is outside the project"),
        ('{"protocol": 1, "documents": [{"path": "../x.md"}]}', "documents[0].path '../x.md' is outside the project"),
        ('{"protocol": 1, "config": "nowhere.yml"}', "the request: "),
    ],
)
def test_a_request_that_is_not_one_is_a_usage_error_naming_the_field(tmp_path: Path, request_text: str, said: str) -> None:
    code, answer, err = batch(request_text, tmp_path)
    assert (code, answer) == (2, None)
    assert said in err and err.startswith("textfrag batch: ")


def test_main_reads_a_request_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    (project / "req.json").write_text(
        json.dumps({"protocol": 1, "references": [{"reference": "src/app.txt#line=0,1"}]}), encoding="utf-8"
    )
    out, err = io.StringIO(), io.StringIO()
    assert main(["batch", "req.json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["results"][0]["excerpt"]["text"] == "line 1\n"
    assert main(["batch", "missing.json"], stdout=out, stderr=err) == 2
    assert "the request cannot be read" in err.getvalue()


def test_a_reference_never_leaves_the_root(project: Path) -> None:
    code, answer, _ = batch({"protocol": 1, "root": "docs", "references": [{"reference": "../src/app.txt"}]}, project)
    assert code == 1 and answer["results"][0]["state"] == "broken" and answer["results"][0]["excerpt"] is None


def test_stream_answers_each_line_in_order_and_outlives_a_wrong_one(tmp_path: Path) -> None:
    """``textfrag batch --stream``: a plugin's one process for a build; each line a request, each answered on a
    line of its own, in order, the same answer ``textfrag batch`` gives; a wrong line is answered with its
    error, and the next is served."""
    import subprocess
    import sys

    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    good = {"protocol": 1, "references": [{"reference": "a.txt#line=0,1", "id": 7}]}
    stale = {"protocol": 1, "references": [{"reference": "a.txt#line=0,1;md5=00000000000000000000000000000000"}]}
    lines = [json.dumps(good), "not json", json.dumps({"protocol": 9}), json.dumps(stale)]
    textfrag = Path(sys.executable).parent / "textfrag"
    r = subprocess.run(
        [str(textfrag), "batch", "--stream"],
        input="\n".join(lines) + "\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    answers = [json.loads(line) for line in r.stdout.splitlines()]
    alone = subprocess.run(
        [str(textfrag), "batch"], input=json.dumps(good), cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert answers[0] == json.loads(alone.stdout) and answers[0]["results"][0]["id"] == 7
    assert answers[1]["status"] == 2 and "not JSON" in answers[1]["error"]
    assert answers[2]["status"] == 2 and "protocol must be 1" in answers[2]["error"]
    assert answers[3]["failed"] is True and answers[3]["results"][0]["state"] == "stale"


def test_stream_reads_a_file_once_while_it_stays_the_same_and_again_once_it_changed(tmp_path: Path) -> None:
    """One build, one read of each quoted file: ``batch --stream`` keeps what it read between requests (the
    pages of a build), and reads a file again once it changed on disk between two (a dev server's build
    that goes on while the writer edits the quoted file); a file that appears is seen too."""
    import subprocess
    import sys

    from textfrag.protocol.batch import answer

    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    ask = {"protocol": 1, "references": [{"reference": "a.txt#line=0,1"}, {"reference": "b.txt#line=0,1"}]}
    carried: dict[Any, Any] = {}
    first = answer(ask, cwd=tmp_path, carried=carried)
    [cache] = carried.values()
    read = cache.get("a.txt")
    assert answer(ask, cwd=tmp_path, carried=carried) == first and cache.get("a.txt") is read  # (not read again)
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "textfrag"), "batch", "--stream"],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None

    def asked() -> dict[str, Any]:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(ask) + "\n")
        process.stdin.flush()
        return dict(json.loads(process.stdout.readline()))

    try:
        before = asked()
        assert [r["excerpt"] and r["excerpt"]["text"] for r in before["results"]] == ["one\n", None]
        (tmp_path / "a.txt").write_text("uno\ntwo\nthree\n", encoding="utf-8")
        (tmp_path / "b.txt").write_text("new\n", encoding="utf-8")
        after = asked()
        assert [r["excerpt"]["text"] for r in after["results"]] == ["uno\n", "new\n"] and not after["failed"]
    finally:
        process.stdin.close()
        process.wait(timeout=60)


def test_stream_looks_on_disk_only_at_the_files_a_page_asks_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two pages of a build, a file is looked at on disk when a page asks for it, once: a page's cost
    does not grow with the files the pages before it read (a site of a thousand pages and quoted files)."""
    from textfrag.protocol.batch import answer
    from textfrag.source import cache as cache_module

    for i in range(50):
        (tmp_path / f"f{i}.txt").write_text(f"file {i}\n", encoding="utf-8")
    carried: dict[Any, Any] = {}
    first = answer(
        {"protocol": 1, "references": [{"reference": f"f{i}.txt#line=0,1"} for i in range(50)]}, cwd=tmp_path, carried=carried
    )
    assert not first["failed"]
    looked: list[str] = []
    stamp_of = cache_module._stamp_of
    monkeypatch.setattr(cache_module, "_stamp_of", lambda full: looked.append(full) or stamp_of(full))
    for _ in range(10):
        page = {"protocol": 1, "references": [{"reference": "f7.txt#line=0,1"}, {"reference": "f7.txt#line=0,1"}]}
        assert not answer(page, cwd=tmp_path, carried=carried)["failed"]
    assert looked == [str(tmp_path.resolve() / "f7.txt")] * 10
    (tmp_path / "f7.txt").write_text("changed\n", encoding="utf-8")  # (and a change is still seen)
    said = answer({"protocol": 1, "references": [{"reference": "f7.txt#line=0,1"}]}, cwd=tmp_path, carried=carried)
    assert said["results"][0]["excerpt"]["text"] == "changed\n"
