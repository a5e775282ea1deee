"""``textfrag migrate``: literalinclude directives, in reStructuredText and MyST, become txtfrag
references; the site built before and after shows, block by block, the same text, line numbers,
emphasized lines, caption and language. What cannot look the same is listed and left as it is."""

from __future__ import annotations

import io
from pathlib import Path

from bs4 import BeautifulSoup

from ..processes import run_sphinx, run_textfrag
from .conftest import Site
from .test_literalinclude_parity import shown

MODULE = '''\
"""A module."""

import os


def helper(x):
    # a comment
    return x + 1


@decorate
def decorated(a, b):
    """Doc."""
    if a:
        return b
    return a

    # trailing comment, not part of it


class Greeter:
    """Greets."""

    def __init__(self, name):
        self.name = name

    def greet(self):
        print("hello", self.name)
        # END greet
        return self.name


# START main
def main():
\tGreeter("x").greet()
# END main
'''

#: literalinclude options (each converted, then compared block by block)
CONVERTED = [
    "",
    ":caption:",
    ":caption: Given",
    ":language: text",
    ":lines: 4-8",
    ":lines: 10-",
    ":lines: -3\n   :linenos:",
    ":pyobject: helper",
    ":pyobject: decorated\n   :lineno-match:",
    ":pyobject: Greeter.greet\n   :dedent: 4\n   :emphasize-lines: 2",
    ":pyobject: Greeter\n   :lines: 3-5\n   :lineno-start: 7",
    ":start-after: START main\n   :end-before: END main\n   :tab-width: 4",
    ":start-at: def greet\n   :end-at: # END greet\n   :linenos:\n   :emphasize-lines: 1,3",
    ":start-after: # START main",
    ":lines: 2-6\n   :emphasize-lines: 1,9\n   :name: named-block\n   :class: extra",
    ":prepend: # before\n   :append: # after\n   :lines: 6-8\n   :linenos:\n   :emphasize-lines: 3",
    ":pyobject: Greeter.greet\n   :prepend: @example\n   :dedent: 4\n   :lineno-start: 20",
    ":lines: 2-3\n   :force:",
    ":lines: 1,3",
    ":lines: 2-3\n   :caption: with **markup** and ``code``",
    ":lines: 1-2,6-8\n   :linenos:\n   :emphasize-lines: 2,4\n   :dedent: 0",
    ":pyobject: Greeter\n   :lines: 1,4-5\n   :caption: joined",
]

#: literalinclude options that cannot look the same: each is left as it is, with its reason
LEFT = {
    ":pyobject: missing": "no Python object named 'missing'",
    ":pyobject: helper\n   :dedent: 4": ":dedent: 4 would cut text from line 6",
}


def _page(title: str, includes: list[str], prefix: str = "") -> str:
    parts = [f"{title}\n{'=' * len(title)}\n\n"]
    for i, options in enumerate(includes):
        body = f"\n   {options}" if options else ""
        parts.append(f"Case {i}\n\n.. literalinclude:: {prefix}../src/mod.py{body}\n\n")
    return "".join(parts)


def _blocks(soup: BeautifulSoup) -> list[dict[str, object]]:
    body = soup.select_one("div[role=main], div.body")
    assert body is not None
    found = [
        b
        for b in body.select("div.literal-block-wrapper, div[class*=highlight-]")
        if not b.find_parent(class_="literal-block-wrapper")
    ]
    out = []
    for block in found:
        seen = shown(block)
        ids = [block.get("id")] + [s.get("id") for s in block.select("[id]")]
        seen["named"] = "named-block" in ids
        seen["extra"] = "extra" in " ".join(
            block.get("class", []) + [c for p in block.select("pre, div") for c in p.get("class", [])]
        )
        out.append(seen)
    return out


def _myst(includes: list[str]) -> str:
    parts = ["# MyST page\n\n"]
    for options in includes:
        lines = "".join(line.strip() + "\n" for line in options.splitlines()) if options else ""
        parts.append(f"```{{literalinclude}} ../src/mod.py\n{lines}```\n\n")
    return "".join(parts)


def test_migrate_converts_literalincludes_and_the_site_shows_the_same_excerpts(site: Site) -> None:
    from textfrag.cli import main

    site.write("src/mod.py", MODULE)
    site.write("docs/conf.py", (site.docs / "conf.py").read_text() + "highlight_language = 'python'\n")
    site.page("index.rst", _page("Migrated", CONVERTED + list(LEFT)) + ".. toctree::\n\n   myst\n")
    site.page("myst.md", _myst(CONVERTED[:6]))
    before = site.build(fresh=True)
    assert before.statuscode == 0, before.warnings
    expected = {page: _blocks(before.soup(page)) for page in ("index", "myst")}

    out, err = io.StringIO(), io.StringIO()
    code = main(["migrate", "--config", str(site.docs / "conf.py"), "--write", str(site.docs)], stdout=out, stderr=err)
    report = err.getvalue()
    assert code == 0, report
    total = len(CONVERTED) + len(LEFT) + 6
    assert f"textfrag migrate: {total} includes: converted {len(CONVERTED) + 6} in 2 documents; {len(LEFT)} left" in report
    for reason in LEFT.values():
        assert reason in report
    # an emphasized line past the excerpt: literalinclude ignores it; migrate says so and drops it
    assert ":emphasize-lines: 1,9: line 9 is past the end of the excerpt (5 lines)" in report

    index = (site.docs / "index.rst").read_text()
    assert index.count(".. literalinclude::") == len(LEFT) and index.count(".. txtfrag::") == len(CONVERTED)
    assert ".. txtfrag:: src/mod.py#line=0,;length=" in index  # the whole file: open to the end
    assert ":pyobject: Greeter.greet" in index  # the intent stays beside the pin
    myst = (site.docs / "myst.md").read_text()
    assert myst.count("```{txtfrag} src/mod.py#") == 6 and "literalinclude" not in myst

    after = site.build(fresh=True)
    assert after.statuscode == 0, after.warnings
    # only the include left as it is warns, as it did before
    left_warnings = ("Object named 'missing'", "non-whitespace stripped by dedent")
    assert [w for w in after.warnings.splitlines() if "WARNING" in w and not any(t in w for t in left_warnings)] == []
    for page, blocks in expected.items():
        now = _blocks(after.soup(page))
        assert len(now) == len(blocks)
        for i, (old, new) in enumerate(zip(blocks, now, strict=True)):
            assert new == old, f"{page} block {i}"

    # and it is pinned: check passes now, and fails once the quoted file changes
    assert (
        main(["check", "--config", str(site.docs / "conf.py"), str(site.docs)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    )
    site.write("src/mod.py", MODULE.replace("return x + 1", "return x + 2"))
    assert (
        main(["check", "--config", str(site.docs / "conf.py"), str(site.docs)], stdout=io.StringIO(), stderr=io.StringIO()) == 1
    )


def test_migrate_without_write_prints_a_diff_and_changes_nothing(site: Site, tmp_path: Path) -> None:
    site.write("src/mod.py", MODULE)
    site.page("index.rst", _page("T", [":pyobject: helper"]))
    page = site.docs / "index.rst"
    before = page.read_bytes()
    result = run_textfrag("migrate", "--root", str(site.root), "--srcdir", str(site.docs), str(page), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert page.read_bytes() == before
    assert "-.. literalinclude:: ../src/mod.py" in result.stdout
    assert "+.. txtfrag:: src/mod.py#line=5,8;length=" in result.stdout
    assert "\n    :pyobject: helper\n" in result.stdout  # the intent stays (a line of context)
    assert "1 would be converted in 1 document (run with --write)" in result.stderr


def test_a_literalinclude_shown_as_code_is_not_migrated(site: Site) -> None:
    from textfrag.cli import main

    site.write("src/mod.py", MODULE)
    text = "T\n=\n\n.. code-block:: rst\n\n   .. literalinclude:: ../src/mod.py\n\n::\n\n   .. literalinclude:: ../src/mod.py\n"
    site.page("index.rst", text)
    err = io.StringIO()
    assert main(["migrate", "--root", str(site.root), "--write", str(site.docs)], stdout=io.StringIO(), stderr=err) == 0
    assert (site.docs / "index.rst").read_text() == text
    assert "0 includes" in err.getvalue()


def test_the_intent_must_agree_with_the_pin(site: Site) -> None:
    """A :pyobject: that selects other lines than the reference pins fails the build, saying both."""
    from textfrag import Source
    from textfrag.reference.selection import select_lines
    from textfrag.verdict.quoting import make_reference

    site.write("src/mod.py", MODULE)
    ref = make_reference(select_lines(Source("src/mod.py", MODULE.encode()), 6, 8), lines=True)
    site.page("index.rst", f"T\n=\n\n.. txtfrag:: {ref}\n   :pyobject: decorated\n")
    result = site.build(fresh=True)
    assert result.statuscode != 0 or "ERROR" in result.warnings or "WARNING" in result.warnings
    assert "the reference pins lines 6-8, but :pyobject: decorated selects lines 11-16" in result.warnings


def test_encoding_and_diff_look_the_same_after_migrate_and_stay_pinned(site: Site) -> None:
    """``:encoding:`` reads the file in that charset; ``:diff:`` shows literalinclude's unified diff of two
    pinned files. Built before and after migrate, block by block; `check` verifies both, in that charset."""
    from textfrag.cli import main

    latin = "# caf\xe9 cr\xe8me\ndef f():\n    return '\xe9t\xe9'\n"
    (site.root / "src").mkdir(exist_ok=True)
    (site.root / "src" / "latin.py").write_bytes(latin.encode("latin-1"))
    site.write("src/v1.py", "def f():\n    return 1\n\n\ndef g():\n    pass\n")
    site.write("src/v2.py", "def f():\n    return 2\n\n\ndef g():\n    pass\n\n\ndef h():\n    pass\n")
    site.page(
        "index.rst",
        "T\n=\n\n"
        ".. literalinclude:: ../src/latin.py\n   :encoding: latin-1\n   :lines: 2-3\n   :linenos:\n\n"
        ".. literalinclude:: ../src/latin.py\n   :encoding: latin-1\n   :caption:\n\n"
        ".. literalinclude:: ../src/v2.py\n   :diff: ../src/v1.py\n\n"
        ".. literalinclude:: ../src/v2.py\n   :diff: ../src/v1.py\n   :caption: What changed\n   :linenos:\n",
    )
    before = site.build(fresh=True)
    assert before.statuscode == 0, before.warnings
    expected = _blocks(before.soup())
    assert "caf\xe9" in str(expected[1]["text"]) and "+    return 2" in str(expected[2]["text"])

    err = io.StringIO()
    code = main(["migrate", "--config", str(site.docs / "conf.py"), "--write", str(site.docs)], stdout=io.StringIO(), stderr=err)
    assert code == 0, err.getvalue()
    page = (site.docs / "index.rst").read_text()
    assert "literalinclude" not in page and page.count(":encoding: latin-1") == 2
    assert ":diff: src/v1.py#line=0,;length=" in page and ",latin-1;md5=" in page  # the checks name the charset

    after = site.build(fresh=True)
    assert after.statuscode == 0, after.warnings
    assert "WARNING" not in after.warnings, after.warnings
    assert _blocks(after.soup()) == expected

    config = str(site.docs / "conf.py")
    assert main(["check", "--config", config, str(site.docs)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    site.write("src/v1.py", "def f():\n    return 0\n")  # the old side of a diff is pinned too
    out = io.StringIO()
    assert main(["check", "--config", config, str(site.docs)], stdout=out, stderr=io.StringIO()) == 1
    failed = site.build(fresh=True)
    assert failed.statuscode != 0 and "src/v1.py" in failed.warnings


def test_linenothreshold_numbers_migrated_blocks_as_it_numbers_literalincludes(site: Site) -> None:
    """``.. highlight:: python`` with ``:linenothreshold:``: a block longer than the threshold is numbered
    whether it is a literalinclude or the txtfrag it became (found on Sphinx's own test project)."""
    from textfrag.cli import main

    site.write("src/mod.py", MODULE)
    site.write("src/short.py", "x = 1\n")
    site.page(
        "index.rst",
        "T\n=\n\n.. highlight:: python\n   :linenothreshold: 5\n\n"
        ".. literalinclude:: ../src/mod.py\n\n.. literalinclude:: ../src/short.py\n",
    )
    before = site.build(fresh=True)
    assert before.statuscode == 0, before.warnings
    expected = _blocks(before.soup())
    assert expected[0]["numbers"] and not expected[1]["numbers"]
    code = main(
        ["migrate", "--config", str(site.docs / "conf.py"), "--write", str(site.docs)], stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert code == 0
    after = site.build(fresh=True)
    assert after.statuscode == 0, after.warnings
    assert _blocks(after.soup()) == expected


def test_migrating_a_project_not_yet_set_up_says_which_textfrag_root_its_build_needs(tmp_path: Path) -> None:
    """Migrated from the repository's top, the paths start there; a conf.py that does not name textfrag
    yet would read them from its own folder. migrate says what to set; once set, check and the build pass."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    docs = tmp_path / "docs" / "source"
    docs.mkdir(parents=True)
    (docs / "conf.py").write_text("extensions = []\n", encoding="utf-8")
    (docs / "index.rst").write_text("T\n=\n\n.. literalinclude:: ../../src/app.py\n   :lines: 1-2\n", encoding="utf-8")
    r = run_textfrag("migrate", "--write", "docs/source", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    said = 'docs/source/conf.py would read them from docs/source: set textfrag_root = "../.." there'
    assert said in r.stderr, r.stderr
    with (docs / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('extensions.append("sphinx_textfrag")\ntextfrag_root = "../.."\n')
    checked = run_textfrag("check", "docs/source", cwd=tmp_path)
    assert checked.returncode == 0 and "all current" in checked.stdout, checked.stderr
    built = run_sphinx("-W", "-q", "-b", "html", str(docs), str(tmp_path / "_build"))
    assert built.returncode == 0, built.stderr


def test_mystmd_s_filename_option_is_left_as_it_is_saying_why(tmp_path: Path) -> None:
    """mystmd's literalinclude takes :filename: (a title above the block); a txtfrag block has none, so the
    include is left as it is, and the reason says what the option does rather than that it is unknown."""
    (tmp_path / "app.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    page = "# T\n\n```{literalinclude} app.py\n:filename: app.py\n```\n"
    (tmp_path / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  title: t\n", encoding="utf-8")
    r = run_textfrag("migrate", "--root", ".", "--write", ".", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    said = "index.md:3: literalinclude app.py: left as it is: :filename: cannot be converted: mystmd shows it as a title"
    assert said in r.stdout + r.stderr, r.stdout + r.stderr
    assert "literalinclude would refuse it too" not in r.stdout + r.stderr
    assert (tmp_path / "index.md").read_text(encoding="utf-8") == page
