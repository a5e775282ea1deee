"""Failing the build on drift, incremental builds, parallel builds, other builders."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..conftest import commit_all
from .conftest import APP, Site, md5

GOOD = f"src/app.py#line=10,20;length={len(APP)};md5={md5(APP)}"
STALE_MD5 = "src/app.py#line=0,2;md5=" + "0" * 32
STALE_LEN = "src/app.py#char=0,4;length=3"


def two_stale(site: Site) -> None:
    site.page(
        "index.rst", f"Title\n=====\n\n.. txtfrag:: {STALE_MD5}\n\nText :txtfrag:`{STALE_LEN}`.\n\n.. toctree::\n\n   other\n"
    )
    site.page("other.rst", f"Other\n=====\n\n.. txtfrag:: {GOOD}\n")


def test_two_stale_references_fail_sphinx_build_after_reporting_both(site: Site) -> None:
    two_stale(site)
    r = site.sphinx_build()
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if "WARNING" in line]
    assert any(re.search(r"index\.rst:4: WARNING: .*line=0,2;md5=0+: stale .*\[textfrag\.stale\]", x) for x in lines), r.stderr
    assert any(
        re.search(r"index\.rst:6: WARNING: .*char=0,4;length=3: stale .*length is 3 .* \[textfrag\.stale\]", x) for x in lines
    ), r.stderr
    assert "2 references are stale or broken; the build fails" in r.stderr
    assert (site.docs / "_build/html/other.html").exists()  # every page was still written


def test_stale_message_names_the_lines_and_a_fresh_reference(site: Site) -> None:
    two_stale(site)
    b = site.build()
    assert b.statuscode == 1
    assert "line=0,2 is lines 1-2 of the file as it is now" in b.warnings
    assert f"the reference is src/app.py#line=0,2;length={len(APP)};md5={md5(APP)}" in b.warnings


def test_on_stale_warning_only_warns_but_W_still_fails(site: Site) -> None:
    two_stale(site)
    site.write("docs/conf.py", (site.docs / "conf.py").read_text() + 'textfrag_on_stale = "warning"\n')
    r = site.sphinx_build()
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("[textfrag.stale]") == 2
    # the stale excerpt is still embedded, as the file is now
    html = BeautifulSoup((site.docs / "_build/html/index.html").read_text(), "html.parser")
    assert html.select_one(".txtfrag pre").get_text().startswith("line 1: value_1 = 1 * 2\n")
    assert site.sphinx_build("-W", "-E").returncode != 0


@pytest.mark.parametrize(
    ("ref", "subtype", "words"),
    [
        ("src/app.py#line=2,1", "syntax", "starts after it ends; a range is written start,end (RFC 5147 section 4.2)"),
        ("src/app.py#LINE=1", "syntax", "lower case"),
        ("src/nope.py#line=1", "missing", "no such file: src/nope.py"),
        ("../outside.txt", "missing", "'..'"),
        ("src/bin.dat", "decode", "does not decode as UTF-8"),
        ("src/app.py#line=1;md5=" + "0" * 32 + ",ISO-8859-1", "stale", "md5"),
    ],
)
def test_bad_references_are_reported_with_location_and_subtype(site: Site, ref: str, subtype: str, words: str) -> None:
    site.write("src/bin.dat", b"\x00\xff\xfe\x80")
    site.page("index.rst", f"T\n=\n\nIntro.\n\n.. txtfrag:: {ref}\n")
    b = site.build()
    assert b.statuscode == 1
    assert re.search(rf"index\.rst:6: WARNING: .*{re.escape(words)}.*\[textfrag\.{subtype}\]", b.warnings, re.S), b.warnings
    assert "Traceback" not in b.warnings


def test_suppress_warnings_by_subtype_silences_and_does_not_fail(site: Site) -> None:
    two_stale(site)
    b = site.build(suppress_warnings=["textfrag.stale"])
    assert b.statuscode == 0
    assert "stale" not in b.warnings


def test_a_syntax_error_shows_the_caret(site: Site) -> None:
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/app.py#line=1,x\n")
    b = site.build()
    assert "    src/app.py#line=1,x\n                      ^" in b.warnings


# -- incremental builds --------------------------------------------------------------------------------


def test_rebuild_without_changes_still_reports_and_fails(site: Site) -> None:
    two_stale(site)
    assert site.sphinx_build().returncode == 1
    again = site.sphinx_build()
    assert "0 changed" in again.stdout or "no targets are out of date" in again.stdout
    assert again.returncode == 1
    assert again.stderr.count("[textfrag.stale]") == 2
    assert "index.rst:4" in again.stderr and "index.rst:6" in again.stderr


def test_editing_a_quoted_file_rereads_exactly_the_documents_that_quote_it(site: Site) -> None:
    site.write("src/other.txt", "other\n")
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {GOOD}\n\n.. toctree::\n\n   other\n")
    site.page("other.rst", "Other\n=====\n\n.. txtfrag:: src/other.txt\n")
    assert site.sphinx_build().returncode == 0
    site.write("src/app.py", APP + "line 41\n")
    r = site.sphinx_build()
    assert r.returncode == 1
    assert "1 changed" in r.stdout or "reading sources... [100%] index" in r.stdout
    assert "other" not in re.findall(r"reading sources\.\.\. \[[ 0-9]+%\] (\S+)", r.stdout)
    assert "index.rst:4" in r.stderr and "[textfrag.stale]" in r.stderr


def test_content_change_with_an_old_mtime_is_noticed_by_md5(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {GOOD}\n")
    assert site.sphinx_build().returncode == 0
    path = site.root / "src/app.py"
    st = path.stat()
    path.write_text(APP.replace("value_1 ", "value_X "))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same mtime, other content
    r = site.sphinx_build()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "[textfrag.stale]" in r.stderr


def test_fixing_the_file_makes_the_next_build_pass(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {GOOD}\n")
    site.write("src/app.py", "changed\n")
    assert site.sphinx_build().returncode == 1
    site.write("src/app.py", APP)
    assert site.sphinx_build().returncode == 0


def test_each_quoted_file_is_read_once_per_build(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    import textfrag.source.cache as source_module

    reads: list[str] = []
    real = source_module.read_under_root

    def counting(real_root: str, path: str, *args: object) -> bytes:
        reads.append(path)
        return real(real_root, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(source_module, "read_under_root", counting)
    refs = "\n\n".join(f".. txtfrag:: src/app.py#line={i},{i + 2}" for i in range(10))
    site.page("index.rst", f"T\n=\n\n{refs}\n\n:txtfrag:`src/app.py#char=0,4`\n\n.. toctree::\n\n   other\n")
    site.page("other.rst", f"O\n=\n\n{refs}\n")
    assert site.build(fresh=True).statuscode == 0
    assert reads == ["src/app.py"]
    reads.clear()
    assert site.build().statuscode == 0  # incremental, nothing changed: one read to compare md5s
    assert reads == ["src/app.py"]


# -- parallel and other builders -----------------------------------------------------------------------


def test_parallel_build_equals_serial_build(site: Site) -> None:
    names = [f"p{i}" for i in range(8)]
    site.page("index.rst", "T\n=\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n in names))
    for i, n in enumerate(names):
        site.page(f"{n}.rst", f"P{i}\n==\n\n.. txtfrag:: src/app.py#line={i},{i + 3}\n\n:txtfrag:`src/app.py#char={i},{i + 5}`\n")
    outs = {}
    for jobs in ("1", "2"):
        r = site.sphinx_build("-E", "-j", jobs)
        assert r.returncode == 0, r.stderr
        outs[jobs] = {n: (site.docs / f"_build/html/{n}.html").read_text() for n in names}
    assert outs["1"] == outs["2"]


def test_parallel_build_reports_and_fails(site: Site) -> None:
    names = [f"p{i}" for i in range(6)]
    site.page("index.rst", "T\n=\n\n.. toctree::\n\n" + "".join(f"   {n}\n" for n in names))
    for n in names:
        site.page(f"{n}.rst", f"P\n=\n\n.. txtfrag:: {STALE_MD5}\n")
    r = site.sphinx_build("-E", "-j", "2")
    assert r.returncode == 1
    assert r.stderr.count("[textfrag.stale]") == 6
    again = site.sphinx_build("-j", "2")
    assert again.returncode == 1 and again.stderr.count("[textfrag.stale]") == 6


@pytest.mark.parametrize("builder", ["text", "latex", "man", "singlehtml", "texinfo"])
def test_other_builders_get_a_captioned_literal_block(site: Site, builder: str) -> None:
    site.page("index.rst", f"Title\n=====\n\n.. txtfrag:: {GOOD}\n   :linenos:\n\nInline :txtfrag:`src/app.py#char=8,17`.\n")
    b = site.build(builder)
    assert b.statuscode == 0, b.warnings
    out = "\n".join(
        p.read_text(errors="replace")
        for p in Path(b.outdir).rglob("*")
        if p.is_file() and p.suffix in (".txt", ".tex", ".1", ".html", ".texi")
    )
    for escaped, plain in (("\\PYGZus{}", "_"), ("\\_", "_"), ("\\sphinxhyphen{}", "-")):  # LaTeX escapes
        out = out.replace(escaped, plain)
    if builder == "latex":
        assert "firstnumber=11" in out  # line numbers match the source file
    assert "value_11" in out and "value_1 =" in out
    if builder in ("text", "latex"):
        assert "src/app.py, lines 11-20" in out


def test_stale_warnings_say_moved_or_changed_and_what_to_run(site: Site) -> None:
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {GOOD}\n\n.. txtfrag:: src/app.py#line=0,2;length={len(APP)};md5={md5(APP)}\n")
    commit_all(site.root)
    site.write("src/app.py", "# inserted\n" + APP.replace("value_1 = 1", "value_1 = 100"))
    b = site.build()
    assert b.statuscode == 1
    assert re.search(
        r"index\.rst:4: WARNING: .*moved: the quoted text \(lines 11-20 in \w+\) is unchanged and now lines 12-21; run `textfrag update --write`",
        b.warnings,
    )
    assert re.search(
        r"index\.rst:6: WARNING: .*changed: the quoted text \(lines 1-2 in \w+\) is no longer in the file", b.warnings
    )
    assert "-line 1: value_1 = 1 * 2" in b.warnings and "+line 1: value_1 = 100 * 2" in b.warnings


def test_the_unpinned_count_names_documents_whose_references_are_not_in_their_files(site: Site) -> None:
    """A reference an `.. include::` of a .txt file brings in cannot be pinned by `textfrag
    pin` where it looks (the document's own file): the end-of-build count says which documents, and why."""
    site.write("docs/part.txt", ".. txtfrag:: src/app.py#line=0,1\n")
    site.page("index.rst", "T\n=\n\n.. txtfrag:: src/app.py#line=1,2\n\n.. include:: part.txt\n")
    b = site.build(fresh=True)
    assert b.statuscode == 0, b.warnings
    assert "textfrag: 2 references are not protected against drift" in b.status
    assert "1 of them is not in the files of index.rst as written (a macro, an include or another plugin writes them)" in b.status


def test_a_default_role_set_to_txtfrag_holds_for_its_own_document_only(site: Site) -> None:
    """``.. default-role:: txtfrag`` makes `...` a reference for the rest of its document. Sphinx 9 left it
    registered for the documents read after it, where `plain text` then stopped the build ("cannot
    determine default role!"); each document now starts without it, as check reads them."""
    site.page("index.rst", "Index\n=====\n\n.. toctree::\n\n   first\n   second\n")
    site.page("first.rst", f"First\n=====\n\n.. default-role:: txtfrag\n\nSee `{GOOD}`.\n")
    site.page("second.rst", "Second\n======\n\nThe `plain title` of a book.\n")
    b = site.build(fresh=True)
    assert b.statuscode == 0, b.warnings
    assert b.soup("first").select_one("span.txtfrag[data-txtfrag-state=current]") is not None
    second = b.soup("second")
    assert second.select_one(".txtfrag") is None and second.select_one("cite").get_text() == "plain title"
    import io

    from textfrag.cli import main

    out = io.StringIO()
    assert main(["check", "--root", str(site.root), str(site.docs)], stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    assert "1 reference in 3 documents: all current" in out.getvalue()
