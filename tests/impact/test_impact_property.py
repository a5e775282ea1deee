"""A property of ``textfrag impact``: for any edit of a quoted file (lines put in, taken out, changed, in
any place, the file renamed or not; in the work tree or staged), what impact says of each quote is what ``check`` says once the edit
is made: changed where check says changed, moved where it says moved, and nothing named that check finds
current. The edit is made in the work tree; the references are pinned to the last commit."""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag.cli import main

from .shared import LINES, committed, edited, effect, git


def _main(root: Path, *argv: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(root)
    try:
        code = main(list(argv), stdout=out, stderr=err)
    finally:
        os.chdir(before)
    assert code in (0, 1, 2), err.getvalue()
    return json.loads(out.getvalue())


edits = st.lists(
    st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 19), st.integers(1, 3)), min_size=1, max_size=3
)
ranges = st.lists(st.tuples(st.integers(0, 17), st.integers(1, 4)), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=edits, ranges=ranges, rename=st.booleans(), staged=st.booleans())
def test_impact_names_exactly_what_check_then_finds_stale(tmp_path_factory, edits, ranges, rename, staged) -> None:  # type: ignore[no-untyped-def]
    text = "".join(LINES)
    pin = f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"
    refs = [f"![](txtfrag:src/app.py#line={a},{min(a + n, 20)};{pin})\n\n" for a, n in ranges]
    root = committed(tmp_path_factory.mktemp("property"), {"src/app.py": text, "docs/index.md": "# Quotes\n\n" + "".join(refs)})
    (root / "src" / "app.py").write_text("".join(edited(LINES, edits)), encoding="utf-8")
    if rename:
        git(root, "mv", "src/app.py", "src/main.py")
    if staged:  # (the index, as a pre-commit hook sees it: the work tree is the same here)
        git(root, "add", "-A")
    which = ["--staged"] if staged else []
    report = _main(root, "impact", *which, "--root", ".", "--docs", "docs", "--format", "json")
    predicted = {q["line"]: q["effect"] for q in report["quotes"]}
    results = _main(root, "check", "--root", ".", "--format", "json", "docs")["results"]
    assert predicted == {r["line"]: effect(r) for r in results if effect(r) is not None}


CONF = 'textfrag_root = ".."\ntextfrag_guard = True\nexclude_patterns = ["_build"]\n'


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=edits, ranges=ranges, rename=st.booleans())
def test_impact_names_exactly_the_guarded_includes_check_then_finds_stale(tmp_path_factory, edits, ranges, rename) -> None:  # type: ignore[no-untyped-def]
    """The same for literalincludes a Sphinx project guards (what each shows recorded in textfrag.lock)."""
    includes = [f".. literalinclude:: ../src/app.py\n   :lines: {a + 1}-{min(a + n, 20)}\n\n" for a, n in ranges]
    files = {"src/app.py": "".join(LINES), "docs/conf.py": CONF, "docs/index.rst": "Quotes\n======\n\n" + "".join(includes)}
    root = committed(tmp_path_factory.mktemp("property-guard"), files)
    _main(root / "docs", "pin", "--write", "--format", "json")
    (root / "src" / "app.py").write_text("".join(edited(LINES, edits)), encoding="utf-8")
    if rename:
        git(root, "mv", "src/app.py", "src/main.py")
    report = _main(root / "docs", "impact", "--format", "json")
    predicted = {q["line"]: q["effect"] for q in report["quotes"]}
    results = _main(root / "docs", "check", "--format", "json")["results"]
    assert predicted == {r["line"]: effect(r) for r in results if effect(r) is not None}
