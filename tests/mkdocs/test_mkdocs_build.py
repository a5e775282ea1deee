"""Failing the build on drift, links, loading once, and `mkdocs serve` on a loopback port."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urljoin

import pytest

from ..conftest import commit_all
from .conftest import APP, DEFAULT, MATERIAL, Site, excerpt_text, md5

GOOD = f"src/app.py#line=10,20;length={len(APP)};md5={md5(APP)}"
STALE = "src/app.py#line=0,2;md5=" + "0" * 32


def two_stale(site: Site) -> None:
    site.page("index.md", f"# Index\n\nSome text.\n\n![](txtfrag:{STALE})\n")
    site.page("other.md", f"# Other\n\nInline ![x](txtfrag:src/app.py#char=0,4;length=3) here.\n\n![](txtfrag:{GOOD})\n")


def test_two_stale_references_fail_mkdocs_build_listing_both(site: Site) -> None:
    two_stale(site)
    r = site.mkdocs("build")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert re.search(r"ERROR\s+-\s+index\.md:5: txtfrag:src/app\.py#line=0,2;md5=0+: stale", r.stderr), r.stderr
    assert re.search(r"ERROR\s+-\s+other\.md:3: txtfrag:src/app\.py#char=0,4;length=3: stale .*length is 3", r.stderr), r.stderr
    tail = r.stderr[r.stderr.index("2 references are stale or broken") :]
    assert "each reported above (in index.md, other.md)" in tail  # the final error counts them, naming the pages
    assert r.stderr.count("index.md:5: ") == 1 and r.stderr.count("other.md:3: ") == 1  # each problem printed once
    assert (site.root / "site/other/index.html").exists()  # every page was built first


def test_on_stale_warning_builds_but_strict_fails(site: Site) -> None:
    two_stale(site)
    site.config(MATERIAL.replace("  - textfrag\n", "  - textfrag:\n      on_stale: warning\n"))
    r = site.mkdocs("build")
    assert r.returncode == 0, r.stderr
    assert len(re.findall(r"WARNING\s+-\s+\S+\.md:\d+: .*stale", r.stderr)) == 2
    strict = site.mkdocs("build", "--strict")
    assert strict.returncode == 1
    assert "strict mode" in strict.stdout + strict.stderr


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("src/app.py#line=2,1", "starts after it ends"),
        ("src/nope.py", "no such file: src/nope.py"),
        ("../secret.txt", "'..'"),
        ("src/bin.dat", "does not decode as UTF-8"),
    ],
)
def test_bad_references_fail_with_location(site: Site, caplog: pytest.LogCaptureFixture, ref: str, words: str) -> None:
    site.write("src/bin.dat", b"ok\x00\xff\x80")
    site.page("index.md", f"# T\n\n![](txtfrag:{ref})\n")
    r = site.build(caplog)
    assert not r.ok
    assert any(m.startswith(f"index.md:3: txtfrag:{ref}: ") and words in m for m in r.messages), r.messages
    assert r.error == "Aborted with a BuildError!"
    assert any(m.startswith("textfrag: 1 reference is stale or broken, each reported above (in index.md)") for m in r.messages)
    assert sum(m.count(f"txtfrag:{ref}: ") for m in r.messages) == 1  # printed once
    assert site.soup().select_one(".txtfrag-error") is not None


def test_links_go_to_the_embedding_page_or_the_source(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.config(
        MATERIAL.replace("  - textfrag\n", "  - textfrag:\n      source_url: https://example.org/{path}#L{first}-L{last}\n")
    )
    site.page(
        "index.md",
        f"# I\n\n[here](txtfrag:{GOOD}) and [there](txtfrag:src/app.py#line=30,31) and [first](txtfrag:src/app.py#line=0,1).\n\n![](txtfrag:{GOOD})\n",
    )
    site.page("sub/other.md", "# O\n\n[back](txtfrag:src/app.py#line=10,20)\n\n![](txtfrag:src/app.py#line=0,1)\n")
    r = site.build(caplog)
    assert r.ok, r.error
    links = {a.get_text(): a["href"] for a in site.soup().select("article a") if a.get_text() in ("here", "there", "first")}
    assert links == {
        "here": "#txtfrag-src-app-py-line-10-20",
        "there": "https://example.org/src/app.py#L31-L31",
        "first": "sub/other/#txtfrag-src-app-py-line-0-1",
    }
    back = [a["href"] for a in site.soup("sub/other/index.html").select("article a") if a.get_text() == "back"]
    assert [urljoin("http://h/sub/other/", b) for b in back] == ["http://h/#txtfrag-src-app-py-line-10-20"]


def test_a_link_without_target_warns(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", "# I\n\n[nowhere](txtfrag:src/app.py#line=1,2)\n")
    r = site.build(caplog)
    assert r.ok
    assert any(m.startswith("index.md:3: txtfrag:src/app.py#line=1,2: this link has no target") for m in r.messages)


def test_each_quoted_file_is_read_once_per_build_and_plain_pages_are_not_scanned(
    site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import markdown_textfrag.embed as plugin_module
    import textfrag.source.cache as source_module

    reads: list[str] = []
    scans: list[str] = []
    real_read, real_scan = source_module.read_under_root, plugin_module.scan_markdown

    def counting_read(real_root: str, path: str, *args: object) -> bytes:
        reads.append(path)
        return real_read(real_root, path, *args)  # type: ignore[arg-type]

    def counting_scan(text: str, file: str = "") -> list[object]:
        scans.append(file)
        return real_scan(text, file)  # type: ignore[return-value]

    monkeypatch.setattr(source_module, "read_under_root", counting_read)
    monkeypatch.setattr(plugin_module, "scan_markdown", counting_scan)
    refs = "\n\n".join(f"![](txtfrag:src/app.py#line={i},{i + 2})" for i in range(10))
    site.page("index.md", f"# I\n\n{refs}\n")
    site.page("b.md", f"# B\n\n{refs}\n\n[l](txtfrag:src/app.py#line=0,2)\n")
    site.page("plain.md", "# Plain\n\nNo references here.\n")
    assert site.build(caplog).ok
    assert reads == ["src/app.py"]
    assert sorted(scans) == ["b.md", "index.md"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (loopback only)
        return str(response.read().decode())


def _wait_for(predicate: object, timeout: float = 40.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if predicate():  # type: ignore[operator]
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def test_serve_rebuilds_when_a_quoted_file_changes_and_survives_a_stale_reference(site: Site) -> None:
    site.write("src/note.txt", "first version\n")
    site.page("index.md", "# I\n\n![](txtfrag:src/note.txt)\n")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=site.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        assert _wait_for(lambda: "first version" in _get(url)), "serve did not come up"
        site.write("src/note.txt", "second version\n")
        assert _wait_for(lambda: "second version" in _get(url)), "the edit of the quoted file was not picked up"
        # now a stale reference: serve shows the problem and keeps serving
        site.page("index.md", "# I\n\n![](txtfrag:src/note.txt#line=0,1;md5=" + "0" * 32 + ")\n")
        # (the page keeps the excerpt, as the file is now; the build log carries the error)
        assert _wait_for(lambda: "md5=" + "0" * 32 in _get(url)), "the stale page was not rebuilt"
        site.write("src/note.txt", "third version\n")
        assert _wait_for(lambda: "third version" in _get(url)), "serve stopped rebuilding after a stale reference"
        assert proc.poll() is None
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0]
    assert "Traceback" not in out, out
    assert re.search(r"ERROR\s+-\s+index\.md:3: txtfrag:src/note\.txt#line=0,1;md5=0+: stale", out), out
    assert "1 reference is stale or broken" in out


def test_stale_messages_say_moved_or_changed_and_what_to_run(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", f"# I\n\n![](txtfrag:{GOOD})\n")
    commit_all(site.root)
    site.write("src/app.py", "# inserted\n" + APP)
    r = site.build(caplog)
    assert not r.ok
    assert any(
        m.startswith("index.md:3: ") and "moved: the quoted text (lines 11-20 in " in m and "run `textfrag update --write`" in m
        for m in r.messages
    ), r.messages


RUST = """\
use std::fmt;

/// A point.
#[derive(Debug)]
pub struct Point {
    x: i32,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.x)
    }
}

fn main() {
    // [START greet]
    println!("hello");
    // [END greet]
}
"""


def test_symbol_and_region_intents_in_a_mkdocs_build_and_drift_that_follows_them(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    """A Rust file quoted by `symbol="Point.fmt"` (an `impl Trait for T` method) and `region="greet"`:
    the build shows exactly their lines; a wrong name fails it naming the closest; the method moved
    below new code is *moved*, and changed it is *changed* with its new range proposed."""
    import io

    from textfrag import Source
    from textfrag.cli import main
    from textfrag.reference.selection import select_lines
    from textfrag.verdict.quoting import make_reference

    site.write("src/lib.rs", RUST)
    source = Source("src/lib.rs", RUST.encode())
    fmt = make_reference(select_lines(source, 10, 12), lines=True)
    greet = make_reference(select_lines(source, 17, 17), lines=True)
    page = f'# T\n\n![](txtfrag:{fmt}){{ symbol="Point::fmt" }}\n\n![](txtfrag:{greet}){{ region="greet" }}\n'
    site.page("index.md", page)
    result = site.build(caplog)
    assert result.ok, result.messages
    blocks = site.soup().select("[data-txtfrag-ref]")
    assert [excerpt_text(b).splitlines()[0].strip() for b in blocks] == [
        "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {",
        'println!("hello");',
    ]
    site.page("index.md", page.replace("Point::fmt", "Point::fnt"))
    result = site.build(caplog)
    assert not result.ok
    assert any("no definition named 'Point.fnt' in the file; did you mean Point.fmt" in m for m in result.messages), (
        result.messages
    )

    site.page("index.md", page)
    commit_all(site.root)
    # moved below an impl of another type whose method is the same text: the intent, not the text, decides
    other = (
        "struct Other;\n\nimpl fmt::Display for Other {\n"
        + RUST.split("impl fmt::Display for Point {\n", 1)[1].split("\n}\n", 1)[0]
    )
    moved = RUST.replace("use std::fmt;\n", "use std::fmt;\n\n" + other + "\n}\n")
    assert moved.count('write!(f, "{}", self.x)') == 2
    site.write("src/lib.rs", moved)
    commit_all(site.root, "move")
    err = io.StringIO()
    docs = str(site.root / "docs")
    assert main(["check", "--root", str(site.root), docs], stdout=io.StringIO(), stderr=err) == 1
    assert ":symbol: Point::fmt selects the same text (lines 10-12 in " in err.getvalue(), err.getvalue()
    assert "now as lines 18-20" in err.getvalue() and ":region: greet selects the same text (line 17 in " in err.getvalue()
    assert main(["update", "--root", str(site.root), "--write", docs], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert "#line=17,20;" in (site.root / "docs" / "index.md").read_text()
    assert main(["check", "--root", str(site.root), docs], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    # changed: its body grows; the range it selects now is proposed, and --accept pins it
    before, body, after = moved.rpartition('        write!(f, "{}", self.x)\n')
    site.write("src/lib.rs", before + '        write!(f, "{}", self.x)?;\n        Ok(())\n' + after)
    commit_all(site.root, "change")
    err = io.StringIO()
    assert main(["check", "--root", str(site.root), docs], stdout=io.StringIO(), stderr=err) == 1
    assert "changed: :symbol: Point::fmt selects different text now (lines 18-21; it quoted lines 18-20 in " in err.getvalue()
    assert (
        main(["update", "--root", str(site.root), "--accept", "--write", docs], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    )
    assert "#line=17,21;" in (site.root / "docs" / "index.md").read_text()
    assert site.build(caplog).ok
    # gone: nothing is proposed, and the closest names are
    site.write("src/lib.rs", RUST.replace("impl fmt::Display for Point", "impl fmt::Debug for Pint"))
    err = io.StringIO()
    assert main(["check", "--root", str(site.root), docs], stdout=io.StringIO(), stderr=err) == 1
    assert "no definition named 'Point.fmt' in the file; did you mean Pint.fmt" in err.getvalue(), err.getvalue()


def test_the_unpinned_count_names_pages_whose_references_a_macro_writes(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """`textfrag pin --write` cannot pin a reference that a macro writes as the page renders;
    the end-of-build count says which pages hold such references, and where to pin them."""
    site.write(
        "hooks.py", "def on_page_markdown(markdown, **kwargs):\n    return markdown + '\\n![](txtfrag:src/app.py#line=0,1)\\n'\n"
    )
    site.config(DEFAULT + "hooks:\n  - hooks.py\n")
    site.page("index.md", "# T\n\n![](txtfrag:src/app.py#line=1,2)\n")
    caplog.set_level("INFO")
    r = site.build(caplog)
    assert r.ok, r.error
    said = next(m for m in r.messages if "not protected against drift" in m)
    assert said.startswith("textfrag: 2 references are not protected")
    assert "1 of them is not in the files of index.md as written (a macro, an include or another plugin writes them)" in said


def test_a_broken_quotes_box_shows_its_commands_as_code(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    site.page("index.md", '# T\n\n![](txtfrag:src/app.py){ bogus="1" }\n')
    site.build(caplog)
    box = site.soup().select_one("div.txtfrag-error")
    assert box is not None
    assert "`" not in box.get_text(), box.get_text()
    assert [code.get_text() for code in box.select("code")] == ["textfrag options"], box
