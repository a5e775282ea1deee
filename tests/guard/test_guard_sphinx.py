"""Guard mode in Sphinx: ``textfrag_guard = True`` leaves every literalinclude as it is (the page
is the page Sphinx makes without textfrag), ``textfrag pin --write`` records what each shows in
textfrag.lock, and the build and ``check`` fail with the same words when that changes, telling moved
(repaired by ``update --write``) from changed (recorded by ``update --accept --write``)."""

from __future__ import annotations

import json

import pytest

from .conftest import APP, Repo, body

CONF = 'extensions = ["sphinx_textfrag", "myst_parser"]\ntextfrag_root = ".."\ntextfrag_guard = True\nexclude_patterns = ["_build"]\n'
PLAIN = 'extensions = ["myst_parser"]\nexclude_patterns = ["_build"]\n'

MODULE = '''\
import os


@decorated
def greet(name):
    """Say hello."""
    return f"hello {name}"


class Shelf:
    def add(self, book):
        self.books.append(book)
'''

RST = """\
Guarded
=======

.. literalinclude:: ../src/app.txt
   :lines: 5-7
   :lineno-start: 5
   :emphasize-lines: 2
   :caption: Three lines

Some text.

.. literalinclude:: /../src/mod.py
   :pyobject: greet
   :linenos:

.. literalinclude:: ../src/app.txt
   :start-after: line 20:
   :end-before: line 24:
   :dedent: 5
   :prepend: # before
   :append: # after

.. literalinclude:: ../src/new.py
   :diff: ../src/old.py
"""

MYST = """\
# In MyST

```{literalinclude} ../src/app.txt
:lines: 10-11
:language: text
```
"""


def _project(repo: Repo) -> None:
    repo.write("src/app.txt", APP)
    repo.write("src/mod.py", MODULE)
    repo.write("src/old.py", MODULE.replace("hello", "hi"))
    repo.write("src/new.py", MODULE)
    repo.write("docs/conf.py", CONF)
    repo.write("plain/conf.py", PLAIN)
    repo.write("docs/index.rst", RST + "\n.. toctree::\n\n   myst\n")
    repo.write("docs/myst.md", MYST)


def test_a_guarded_build_is_the_build_without_textfrag(repo: Repo) -> None:
    _project(repo)
    pinned = repo.textfrag("pin", "--write")
    assert pinned.code == 0, pinned.err
    assert "recorded 5 includes in textfrag.lock" in pinned.out
    guarded, out = repo.sphinx()
    assert guarded.returncode == 0, guarded.stderr
    plain, plain_out = repo.sphinx(conf="plain", out="plain")
    assert plain.returncode == 0, plain.stderr
    for page in ("index.html", "myst.html"):
        assert body(out / page) == body(plain_out / page), page
    assert "textfrag" not in (out / "index.html").read_text()  # (no stylesheet, no class, no attribute)


def test_pin_records_each_include_once_and_an_edit_elsewhere_changes_no_record(repo: Repo) -> None:
    _project(repo)
    assert repo.textfrag("pin", "--write").code == 0
    lock = json.loads(repo.read("docs/textfrag.lock"))
    records = lock["includes"]["index.rst"]
    assert sorted(records) == [
        "literalinclude ../src/app.txt :lines: 5-7",
        "literalinclude ../src/app.txt :start-after: line 20: :end-before: line 24: :dedent: 5 :prepend: # before :append: # after",
        "literalinclude ../src/new.py :diff: ../src/old.py",
        "literalinclude /../src/mod.py :pyobject: greet",
    ]
    assert lock["includes"]["myst.md"] == {"literalinclude ../src/app.txt :lines: 10-11": records_of(repo, 10, 11)}
    before = repo.read("docs/textfrag.lock")
    # the document edited (a paragraph, a caption), the quoted files edited outside what is shown
    repo.write("docs/index.rst", RST.replace("Some text.", "Some other text.\n\nAnd more.").replace("Three lines", "3 lines"))
    repo.write("src/app.txt", APP + "line 31: appended\n")
    assert repo.textfrag("pin", "--write").code == 0
    assert repo.read("docs/textfrag.lock") == before
    checked = repo.textfrag("check")
    assert checked.code == 0, checked.err
    assert "0 references and 5 includes in 2 documents: all current" in checked.out


def records_of(repo: Repo, first: int, last: int) -> str:
    import hashlib

    text = "".join(APP.splitlines(True)[first - 1 : last])
    return f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


def test_a_moved_include_fails_the_build_and_check_alike_and_update_repairs_it(repo: Repo) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.write("src/app.txt", "a new first line\n" + APP)
    repo.commit("moved")
    built, _ = repo.sphinx()
    checked = repo.textfrag("check")
    assert built.returncode == 1 and checked.code == 1
    said = "literalinclude ../src/app.txt :lines: 5-7: it shows other text than textfrag.lock records"
    assert f"index.rst:4: WARNING: {said}" in built.stderr
    assert f"index.rst:4: {said}" in checked.err
    assert (
        "moved: the recorded text is in the file 1 line further down (new include: literalinclude ../src/app.txt :lines: 6-8); "
        "`textfrag update --write` writes it" in checked.err
    )
    assert "moved" in built.stderr and "myst.md:3" in built.stderr and "myst.md:3" in checked.err
    lock = repo.read("docs/textfrag.lock")
    dry = repo.textfrag("update")  # (the patch of the document and of the records; nothing written)
    assert dry.code == 1
    assert "+   :lines: 6-8" in dry.out and '+      "literalinclude ../src/app.txt :lines: 6-8": ' in dry.out
    assert repo.read("docs/textfrag.lock") == lock and ":lines: 5-7" in repo.read("docs/index.rst")
    # (only includes to repair: the summary counts documents and includes, no "0 moved references")
    assert ": 2 documents would be rewritten (run with --write); 2 includes to repair (in textfrag.lock);" in dry.out
    updated = repo.textfrag("update", "--write")
    assert updated.code == 0, updated.err
    assert ": rewrote 2 documents; 2 includes repaired (in textfrag.lock);" in updated.out
    rst = repo.read("docs/index.rst")
    assert "   :lines: 6-8\n   :lineno-start: 6\n   :emphasize-lines: 2\n" in rst  # (emphasis counts shown lines)
    assert ":lines: 11-12" in repo.read("docs/myst.md")
    assert (
        rst.replace(":lines: 6-8", ":lines: 5-7").replace("lineno-start: 6", "lineno-start: 5")
        == RST + "\n.. toctree::\n\n   myst\n"
    )
    assert "literalinclude ../src/app.txt :lines: 6-8" in repo.read("docs/textfrag.lock")
    assert repo.textfrag("check").code == 0
    built, out = repo.sphinx()
    assert built.returncode == 0, built.stderr
    plain, plain_out = repo.sphinx(conf="plain", out="plain")
    assert body(out / "index.html") == body(plain_out / "index.html")


@pytest.mark.parametrize("order", ["1-2 first", "2-3 first"])
def test_two_includes_moved_together_keep_both_records_whichever_comes_first(repo: Repo, order: str) -> None:
    """``:lines: 1-2`` and ``:lines: 2-3`` of one file, both moved a line down: the update renames 1-2 to
    2-3 and 2-3 to 3-4, and the lock keeps both records, so a later change of either is still caught."""
    first, second = ".. literalinclude:: ../src/app.txt\n   :lines: 1-2\n", ".. literalinclude:: ../src/app.txt\n   :lines: 2-3\n"
    pair = [first, second] if order == "1-2 first" else [second, first]
    repo.write("src/app.txt", APP)
    repo.write("docs/conf.py", CONF)
    repo.write("docs/index.rst", "Two\n===\n\n" + "\n".join(pair))
    assert repo.textfrag("pin", "--write").code == 0
    repo.write("src/app.txt", "a new first line\n" + APP)
    updated = repo.textfrag("update", "--write")
    assert updated.code == 0, updated.err
    records = json.loads(repo.read("docs/textfrag.lock"))["includes"]["index.rst"]
    assert sorted(records) == ["literalinclude ../src/app.txt :lines: 2-3", "literalinclude ../src/app.txt :lines: 3-4"]
    assert ":lines: 2-3" in repo.read("docs/index.rst") and ":lines: 3-4" in repo.read("docs/index.rst")
    assert repo.textfrag("check").code == 0
    built, _ = repo.sphinx()
    assert built.returncode == 0, built.stderr
    # a change of the line only the first include shows (file line 2, "line 1") is caught: its record is kept
    repo.write("src/app.txt", "a new first line\n" + APP.replace("line 1: value_1", "line 1: changed"))
    checked = repo.textfrag("check")
    assert checked.code == 1 and ":lines: 2-3: it shows other text than textfrag.lock records" in checked.err, checked.err


def test_a_changed_include_shows_its_diff_and_accept_records_what_it_shows_now(repo: Repo) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.write("src/mod.py", MODULE.replace('return f"hello {name}"', 'return f"hello, {name}!"'))
    checked = repo.textfrag("check")
    assert checked.code == 1
    assert "index.rst:12: literalinclude /../src/mod.py :pyobject: greet: it shows other text" in checked.err
    assert "changed: what it shows differs from the recorded text" in checked.err
    assert '-    return f"hello {name}"\n+    return f"hello, {name}!"' in checked.err
    assert "--- src/mod.py lines 4-7 (recorded, " in checked.err and "+++ src/mod.py lines 4-7 (now)" in checked.err
    assert repo.textfrag("update", "--write").code == 1  # (a change is not written without --accept)
    accepted = repo.textfrag("update", "--accept", "--write")
    assert accepted.code == 0, accepted.err
    assert repo.read("docs/index.rst") == RST + "\n.. toctree::\n\n   myst\n"  # (only the record changes)
    assert repo.textfrag("check").code == 0
    assert repo.sphinx()[0].returncode == 0


def test_an_include_that_follows_its_code_by_itself_stays_current(repo: Repo) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    repo.write("src/mod.py", "import sys\n" + MODULE.replace("class Shelf:", "# a comment\nclass Shelf:"))
    checked = repo.textfrag("check")
    assert checked.code == 0, checked.err
    assert repo.sphinx()[0].returncode == 0


def test_an_unrecorded_include_is_counted_and_required_pins_make_it_a_located_problem(repo: Repo) -> None:
    _project(repo)
    checked = repo.textfrag("check")
    assert checked.code == 0
    assert (
        "5 includes unrecorded (not protected against drift: `textfrag pin --write` records them in textfrag.lock)" in checked.out
    )
    built, _ = repo.sphinx()
    assert built.returncode == 0
    required = repo.textfrag("check", "--require-pin")
    assert required.code == 1
    assert "index.rst:4: literalinclude ../src/app.txt :lines: 5-7: unrecorded: textfrag.lock has no record" in required.err
    repo.write("docs/conf.py", CONF + "textfrag_require_pin = True\n")
    built, _ = repo.sphinx()
    assert built.returncode == 1 and "unrecorded: textfrag.lock has no record" in built.stderr


def test_a_renamed_file_is_followed_and_update_writes_its_new_path(repo: Repo) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.git("mv", "src/app.txt", "src/data.txt")  # staged: what the pre-commit hook sees
    checked = repo.textfrag("check")
    assert checked.code == 1
    assert "no such file: ../src/app.txt; git shows it renamed to src/data.txt in the index" in checked.err
    assert repo.textfrag("update", "--write").code == 0
    assert ".. literalinclude:: ../src/data.txt\n   :lines: 5-7" in repo.read("docs/index.rst")
    assert "```{literalinclude} ../src/data.txt" in repo.read("docs/myst.md")
    assert repo.textfrag("check").code == 0
    assert repo.sphinx()[0].returncode == 0


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_every_format_reports_an_include_as_a_reference_at_its_directive(repo: Repo, fmt: str) -> None:
    _project(repo)
    repo.textfrag("pin", "--write")
    repo.write("src/app.txt", "new\n" + APP)
    checked = repo.textfrag("check", "--format", fmt)
    assert checked.code == 1
    if fmt == "json":
        results = json.loads(checked.out)["results"]
        bad = [r for r in results if r["status"] == "stale"]
        assert {(r["document"], r["line"], r["reference"]) for r in bad} >= {
            ("index.rst", 4, "literalinclude ../src/app.txt :lines: 5-7")
        }
        assert all(r["pinned"] for r in results)
    elif fmt == "sarif":
        result = json.loads(checked.out)["runs"][0]["results"][0]
        assert result["ruleId"] == "textfrag/stale"
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].endswith("index.rst") and location["region"]["startLine"] == 4
    else:
        assert "::error file=index.rst,line=4," in checked.out


@pytest.mark.parametrize(
    ("lock", "said"),
    [
        ("{not json", "textfrag.lock:1: the lock file is not valid JSON"),
        ('{"textfrag.lock": 2, "includes": {}}', "not a textfrag lock file of format 1"),
        ('{"textfrag.lock": 1, "includes": {"index.rst": {"x": "length=1;md5=zz"}}}', "is not length=N;md5=HEX"),
        ('{"textfrag.lock": 1, "includes": []}', "not a textfrag lock file of format 1"),
    ],
)
def test_a_lock_file_textfrag_did_not_write_is_a_clear_error_everywhere(repo: Repo, lock: str, said: str) -> None:
    _project(repo)
    repo.write("docs/textfrag.lock", lock)
    for command in (["check"], ["pin", "--write"], ["update", "--write"]):
        run = repo.textfrag(*command)
        assert run.code == 2 and said in run.err and "Traceback" not in run.err, (command, run.err)
    built, _ = repo.sphinx()
    assert built.returncode != 0 and said in built.stderr and "Traceback" not in built.stderr
    assert repo.read("docs/textfrag.lock") == lock  # (nothing written over it)


def test_an_include_outside_the_root_is_never_read_nor_recorded(repo: Repo) -> None:
    _project(repo)
    (repo.root.parent / "secret.txt").write_text("secret\n")
    repo.write("docs/index.rst", "T\n=\n\n.. literalinclude:: ../../secret.txt\n")
    pinned = repo.textfrag("pin", "--write")
    assert pinned.code == 2
    assert "index.rst:4: literalinclude ../../secret.txt: ../../secret.txt is outside the textfrag root" in pinned.err
    assert "secret" not in repo.read("docs/textfrag.lock") if repo.lock.exists() else True
    # one answer whether the file outside exists or not: a page cannot learn which files the machine has
    repo.write("docs/index.rst", "T\n=\n\n.. literalinclude:: ../../secret.txt\n\n.. literalinclude:: ../../nope.txt\n")
    checked = repo.textfrag("check")
    assert "index.rst:4: literalinclude ../../secret.txt: ../../secret.txt is outside the textfrag root" in checked.err
    assert "index.rst:6: literalinclude ../../nope.txt: ../../nope.txt is outside the textfrag root" in checked.err
    assert "no such file" not in checked.err, checked.err
