"""Guard reads what the engine reads: a literalinclude's argument on the line after the marker and an
option's value that goes on over deeper-indented lines (docutils' directive grammar); an extension named
twice in mkdocs.yml (MkDocs keeps the options it was given); an include that shows nothing is a located
problem (``empty``), never recorded. Each is held to the real build: the same verdict at the same line."""

from __future__ import annotations

import json
import re

from .conftest import APP, Repo, Run, body

CONF = 'extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\ntextfrag_guard = True\nexclude_patterns = ["_build"]\n'
PLAIN = 'exclude_patterns = ["_build"]\n'
RST = """\
Grammar
=======

.. literalinclude::
   ../src/app.txt
   :lines: 3-5

.. literalinclude:: ../src/app.txt
   :caption: A caption that goes on
      over a second line
   :lines: 10-12

.. literalinclude::\t../src/app.txt
   :lines: 20-21
"""


def _sphinx(repo: Repo) -> None:
    repo.config = "docs/conf.py"
    repo.write("src/app.txt", APP)
    repo.write("docs/conf.py", CONF)
    repo.write("plain.py", PLAIN)
    repo.write("docs/index.rst", RST)


def test_docutils_forms_are_recorded_with_their_options_and_the_page_is_unchanged(repo: Repo) -> None:
    _sphinx(repo)
    pinned = repo.textfrag("pin", "--write")
    assert pinned.code == 0 and "recorded 3 includes" in pinned.out, pinned.out + pinned.err
    records = json.loads(repo.read("docs/textfrag.lock"))["includes"]["index.rst"]
    assert sorted(records) == [
        "literalinclude ../src/app.txt :lines: 10-12",
        "literalinclude ../src/app.txt :lines: 20-21",
        "literalinclude ../src/app.txt :lines: 3-5",
    ]
    built, out = repo.sphinx()
    assert built.returncode == 0, built.stderr
    assert "no record" not in built.stderr
    from bs4 import BeautifulSoup

    page = BeautifulSoup((out / "index.html").read_text(), "html.parser")
    shown = [m.group(1) for pre in page.select("div.highlight pre") for m in re.finditer(r"line (\d+):", pre.get_text())]
    assert shown == ["3", "4", "5", "10", "11", "12", "20", "21"]


def test_a_change_in_each_form_fails_the_build_and_check_at_the_same_line(repo: Repo) -> None:
    _sphinx(repo)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.write(
        "src/app.txt", APP.replace("line 4:", "line FOUR:").replace("line 11:", "line ELEVEN:").replace("line 21:", "line X:")
    )
    built, _ = repo.sphinx()
    checked = repo.textfrag("check")
    assert built.returncode != 0 and checked.code == 1
    places = sorted({int(n) for n in re.findall(r"index\.rst:(\d+): (?:WARNING: )?literalinclude", built.stderr)})
    assert places == [4, 8, 13], built.stderr
    assert sorted({int(n) for n in re.findall(r"index\.rst:(\d+): literalinclude", checked.err)}) == places


def test_update_repairs_each_form_where_its_lines_are_written(repo: Repo) -> None:
    _sphinx(repo)
    repo.textfrag("pin", "--write")
    repo.commit("pinned")
    repo.write("src/app.txt", "new 1\nnew 2\n" + APP)
    repo.commit("moved")
    assert repo.textfrag("update", "--write").code == 0
    assert repo.read("docs/index.rst") == RST.replace("3-5", "5-7").replace("10-12", "12-14").replace("20-21", "22-23")
    assert repo.textfrag("check").code == 0


MKDOCS = """\
site_name: g
plugins:
  - textfrag:
      guard: true
markdown_extensions:
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: ["src"]
  - pymdownx.snippets
"""
MODULE = """\
def greet(name):
    # --8<-- [start:greet]
    return f"hello {name}"
    # --8<-- [end:greet]
"""


def _site(repo: Repo, source: str, text: str, page: str) -> Run:
    """An MkDocs site (MKDOCS) with ``src/SOURCE`` and ``docs/index.md``, pinned; what pin said."""
    repo.config = "mkdocs.yml"
    repo.write(f"src/{source}", text)
    repo.write("mkdocs.yml", MKDOCS)
    repo.write("docs/index.md", page)
    return repo.textfrag("pin", "--write")


def test_an_extension_named_twice_keeps_the_options_mkdocs_keeps(repo: Repo) -> None:
    pinned = _site(repo, "app.txt", APP, '# S\n\n```text\n--8<-- "app.txt:2:3"\n```\n')
    assert pinned.code == 0 and "recorded 1 include" in pinned.out, pinned.err
    built, out = repo.mkdocs()
    assert built.returncode == 0, built.stderr
    assert "line 2: value_2" in body(out / "index.html")


def test_a_snippet_section_that_is_not_there_is_an_empty_include_in_pin_check_and_the_build(repo: Repo) -> None:
    page = '# S\n\n```python\n--8<-- "mod.py:greet"\n```\n\n```python\n--8<-- "mod.py:nowhere"\n```\n'
    pinned = _site(repo, "mod.py", MODULE, page)
    assert pinned.code == 2 and "docs/index.md:8: snippet mod.py:nowhere: the include shows nothing" in pinned.err, pinned.err
    records = json.loads(repo.read("textfrag.lock"))["includes"]["docs/index.md"]
    assert list(records) == ["snippet mod.py:greet"]  # (never recorded as length=0)
    checked = repo.textfrag("check")
    assert checked.code == 2 and "docs/index.md:8: snippet mod.py:nowhere: the include shows nothing" in checked.err
    built, _ = repo.mkdocs()
    assert built.returncode != 0 and "index.md:8: snippet mod.py:nowhere: the include shows nothing" in built.stderr
