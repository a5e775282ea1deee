"""One verdict for the whole project: ``check`` reads the documents the Sphinx build reads, as it reads them
(parts pulled in by ``.. include::``, whatever their name or exclusion; no document ``exclude_patterns``
or the source suffixes leave out), honours the settings that change a verdict (``suppress_warnings``,
``textfrag_on_stale``) and says which did; the build and ``check`` report the same file:line, after an
include too. Each case is a small project run through ``check`` and a real ``sphinx-build``."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..processes import run_mkdocs, run_sphinx, run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))
STALE = f"src/app.txt#line=2,4;length={len(APP)};md5={'0' * 32}"
GOOD = f"src/app.txt#line=2,4;length={len(APP)};md5={hashlib.md5(APP.encode()).hexdigest()}"
CONF = 'extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n'


def _project(tmp_path: Path, files: dict[str, str], conf: str = CONF) -> Path:
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.txt").write_text(APP)
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text(conf)
    for name, text in files.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text)
    return root


def _places(output: str) -> list[str]:
    """``file:line`` of every textfrag problem reported, relative to the docs folder."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", output)  # (a colour another test's setting may have turned on)
    return sorted({m.group(1) for m in re.finditer(r"(?:^|/)docs/([\w./-]+:\d+): (?:WARNING: |ERROR: )?src/", plain, re.M)})


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return run_textfrag("check", cwd=root, timeout=120)


def _sphinx(root: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return run_sphinx("--no-color", "-E", "-q", *flags, "-b", "html", "docs", "out", cwd=root, timeout=120)


def _both(root: Path) -> tuple[tuple[int, list[str]], tuple[int, list[str]]]:
    """(exit code, places) of ``check`` run at the project's top, and of ``sphinx-build``."""
    checked = _check(root)
    built = _sphinx(root)
    assert "Traceback" not in checked.stderr + built.stderr, checked.stderr + built.stderr
    return (checked.returncode, _places(checked.stderr)), (0 if built.returncode == 0 else 1, _places(built.stderr))


PART = f"Part\n----\n\n.. txtfrag:: {STALE}\n"
CASES = {
    "an .inc part pulled in": (
        {"index.rst": "T\n=\n\n.. include:: parts/a.inc\n", "parts/a.inc": PART},
        CONF,
        (1, ["parts/a.inc:4"]),
    ),
    "an excluded part pulled in": (
        {"index.rst": "T\n=\n\n.. include:: parts/a.rst\n", "parts/a.rst": PART},
        CONF + 'exclude_patterns = ["parts"]\n',
        (1, ["parts/a.rst:4"]),
    ),
    "a reference after a part": (
        {"index.rst": f"T\n=\n\n.. include:: parts/a.inc\n\n.. txtfrag:: {STALE}\n", "parts/a.inc": "Part\n\n" + "x\n\n" * 10},
        CONF,
        (1, ["index.rst:6"]),
    ),
    "an excluded document": (
        {"index.rst": f"T\n=\n\n.. txtfrag:: {GOOD}\n", "drafts/old.rst": PART},
        CONF + 'exclude_patterns = ["drafts/**"]\n',
        (0, []),
    ),
    "a document include_patterns leaves out": (
        {"index.rst": f"T\n=\n\n.. txtfrag:: {STALE}\n", "guide/a.rst": PART, "notes/b.rst": PART},
        CONF + 'include_patterns = ["index.rst", "guide/**"]\n',
        (1, ["guide/a.rst:4", "index.rst:4"]),
    ),
    "Markdown without a Markdown parser": (
        {"index.rst": f"T\n=\n\n.. txtfrag:: {GOOD}\n", "notes.md": f"# N\n\n```{{txtfrag}} {STALE}\n```\n"},
        CONF,
        (0, []),
    ),
    "a literal include": (
        {"index.rst": f"T\n=\n\n.. txtfrag:: {GOOD}\n\n.. include:: parts/a.inc\n   :literal:\n", "parts/a.inc": PART},
        CONF,
        (0, []),
    ),
    "stale, suppressed": (
        {"index.rst": f"T\n=\n\n.. txtfrag:: {STALE}\n"},
        CONF + 'suppress_warnings = ["textfrag.stale"]\n',
        (0, ["index.rst:4"]),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_and_the_sphinx_build_reach_the_same_verdict_at_the_same_place(tmp_path: Path, case: str) -> None:
    files, conf, (code, places) = CASES[case]
    root = _project(tmp_path, files, conf)
    checked, built = _both(root)
    if case == "stale, suppressed":  # (the build says nothing of it; check says why it does not fail)
        assert checked[0] == built[0] == 0
        return
    assert checked == built == (code, places), (checked, built)


def test_the_text_names_the_setting_that_relaxed_a_verdict(tmp_path: Path) -> None:
    root = _project(tmp_path, {"index.rst": f"T\n=\n\n.. txtfrag:: {STALE}\n"}, CONF + 'textfrag_on_stale = "warning"\n')
    r = _check(root)
    assert r.returncode == 0, r.stderr
    assert "1 not failing, as in the build (textfrag_on_stale = 'warning' in docs/conf.py)" in r.stdout
    assert "docs/index.rst:4:" in r.stderr and "warning: stale" in r.stderr
    strict = run_textfrag("check", "--strict", cwd=root, timeout=60)
    assert strict.returncode == 1 and _sphinx(root, "-W").returncode != 0  # (as sphinx-build -W fails it)


def test_mkdocs_strict_true_keeps_a_stale_quote_failing_where_on_stale_warns(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.txt").write_text(APP)
    config = "site_name: s\nplugins:\n  - textfrag:\n      on_stale: warning\nmarkdown_extensions: [attr_list]\n"
    (tmp_path / "mkdocs.yml").write_text(config)
    (tmp_path / "docs" / "index.md").write_text(f"# S\n\n![](txtfrag:{STALE})\n")
    assert _check(tmp_path).returncode == 0
    (tmp_path / "mkdocs.yml").write_text(config + "strict: true\n")
    assert _check(tmp_path).returncode == 1
    assert run_mkdocs("build", cwd=tmp_path, timeout=120).returncode != 0


REFUSED = {
    "a role in a substitution definition": (
        f".. |x| replace:: :txtfrag:`{GOOD}`\n\nUse |x| here.\n",
        4,
        "substitution definition",
    ),
    "content under the directive": (f".. txtfrag:: {GOOD}\n   :caption: C\n\n   some content\n", 4, "no content permitted"),
    "an image of a txtfrag: URI": (f".. image:: txtfrag:{GOOD}\n", 4, "shows no excerpt of a txtfrag: URI"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_docutils_refuses_is_a_located_problem_in_check_too(tmp_path: Path, case: str) -> None:
    body, line, words = REFUSED[case]
    root = _project(tmp_path, {"index.rst": "T\n=\n\n" + body})
    checked = _check(root)
    built = _sphinx(root, "-W")
    assert built.returncode != 0 and re.search(f"index.rst:{line}: (ERROR|WARNING)", built.stderr), built.stderr
    assert checked.returncode == 2 and f"docs/index.rst:{line}: " in checked.stderr and words in checked.stderr, checked.stderr


def test_myst_content_after_the_options_is_refused_by_myst_parser_and_check(tmp_path: Path) -> None:
    page = f"# T\n\n```{{txtfrag}} {GOOD}\n:caption: C\n\nsome content\n```\n"
    root = _project(tmp_path, {"index.md": page}, CONF.replace('"sphinx_textfrag"', '"sphinx_textfrag", "myst_parser"'))
    checked = _check(root)
    built = _sphinx(root, "-W")
    assert built.returncode != 0 and "index.md:3" in built.stderr, built.stderr
    assert checked.returncode == 2 and "docs/index.md:3: " in checked.stderr and "no content permitted" in checked.stderr
    (root / "docs" / "index.md").write_text(page.replace("\nsome content\n", "\n"))
    checked = _check(root)
    assert checked.returncode == 0, checked.stderr


_DOCS = st.lists(
    st.tuples(
        st.sampled_from(["page", "part", "excluded", "draft-included"]),  # how the build reaches the file
        st.booleans(),  # whether its reference is stale
        st.integers(0, 3),  # paragraphs of text before the reference
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_DOCS)
def test_generated_projects_get_the_same_verdict_at_the_same_places_from_check_and_sphinx(
    tmp_path_factory: pytest.TempPathFactory, docs: list[tuple[str, bool, int]]
) -> None:
    """A property over small projects: pages in the toctree, parts pulled in by ``.. include::`` (an
    ``.inc`` file, or a document under an excluded folder), documents ``exclude_patterns`` leaves out;
    each with a good or a stale reference after some text. sphinx-build is the oracle."""
    files: dict[str, str] = {}
    index = ["Index\n=====\n\n.. toctree::\n   :glob:\n\n   pages/*\n"]
    for k, (how, stale, paragraphs) in enumerate(docs):
        body = "".join(f"Text {n}.\n\n" for n in range(paragraphs)) + f".. txtfrag:: {STALE if stale else GOOD}\n"
        if how == "page":
            files[f"pages/p{k}.rst"] = f"P{k}\n===\n\n" + body
        elif how == "part":
            files[f"parts/a{k}.inc"] = body
            index.append(f"\n.. include:: parts/a{k}.inc\n")
        elif how == "excluded":
            files[f"drafts/d{k}.rst"] = f"D{k}\n===\n\n" + body
        else:
            files[f"drafts/i{k}.rst"] = body
            index.append(f"\n.. include:: drafts/i{k}.rst\n")
    files["index.rst"] = "".join(index) + f"\n.. txtfrag:: {GOOD}\n"
    root = _project(tmp_path_factory.mktemp("gen"), files, CONF + 'exclude_patterns = ["drafts/**", "parts/**"]\n')
    checked, built = _both(root)
    assert checked == built, (docs, checked, built)


def test_a_fence_myst_makes_a_directive_is_judged_and_pinned_as_the_build_runs_it(tmp_path: Path) -> None:
    """myst_fence_as_directive = ["txtfrag"]: MyST-Parser runs ```txtfrag REF as the directive, options and
    all; check judges it (it passed it as code), pin pins it, at the fence's line."""
    conf = CONF.replace('"sphinx_textfrag"', '"sphinx_textfrag", "myst_parser"') + 'myst_fence_as_directive = ["txtfrag"]\n'
    page = f"# T\n\n```txtfrag {STALE}\n:caption: C\n```\n\n```text\n```txtfrag {STALE}\n```\n"
    root = _project(tmp_path, {"index.md": page}, conf)
    checked, built = _both(root)
    assert checked == built == (1, ["index.md:3"]), (checked, built)
    (root / "docs" / "index.md").write_text(page.replace(STALE, "src/app.txt#line=2,4", 1))
    pinned = run_textfrag("pin", "--write", cwd=root, timeout=60)
    assert pinned.returncode == 0 and "pinned 1 reference" in pinned.stdout, pinned.stdout + pinned.stderr
    assert _check(root).returncode == 0 and _sphinx(root, "-W").returncode == 0


def test_a_tree_of_parts_is_checked_on_every_core_with_the_output_one_process_gives(tmp_path: Path) -> None:
    """60 pages pulling in 1,200 parts (.inc, rST) and 60 parts of their own: checked in parts by forked
    processes, the pages first and then the parts they pull in, each once, read as the page reads them;
    the same output, in the same order, as one process gives."""
    files = {}
    for p in range(60):
        files[f"p{p:02}.rst"] = f"P{p}\n===\n\n" + "".join(f".. include:: parts/a{p:02}-{k:02}.inc\n\n" for k in range(20))
        for k in range(20):
            nested = f".. include:: deeper/n{p:02}.inc\n\n" if k == 0 else ""
            files[f"parts/a{p:02}-{k:02}.inc"] = nested + f".. txtfrag:: {STALE if (p, k) == (7, 3) else GOOD}\n"
        files[f"parts/deeper/n{p:02}.inc"] = f"Deeper\n\n.. txtfrag:: {STALE if p == 50 else GOOD}\n"
    root = _project(tmp_path, files, CONF)
    runs = []
    for cores in ("0", "0,1"):
        r = subprocess.run(
            ["taskset", "-c", cores, sys.executable, "-m", "textfrag", "check", "--no-cache"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
        )
        runs.append((r.returncode, r.stdout, r.stderr))
    assert runs[0] == runs[1]
    assert runs[0][0] == 1 and _places(runs[0][2]) == ["parts/a07-03.inc:1", "parts/deeper/n50.inc:3"], runs[0][2][-2000:]
    assert "1260 references in 1320 documents" in runs[0][1], runs[0][1]
