"""The ``symbol`` intent: definitions in thirteen languages by tree-sitter (the ``symbols`` extra),
named by their nesting (a Go method by its receiver, a Rust impl's by its type), from their first
decorator/attribute/annotation to their last line; overloads and unknown names are errors that list and
suggest; Python agrees with ``--pyobject`` (Sphinx's finder) on the standard library; a build checks the
intent, and drift follows it."""

from __future__ import annotations

import io
import sysconfig
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag import TextFragError
from textfrag.cli import main
from textfrag.intents.intent import Intent, intent_lines, python_objects, splitlines_agree
from textfrag.intents.symbols import definitions, find_symbol, language_of

from ..processes import run_sphinx

# (file name, text, name -> (first, last)): nested definitions, decorators/attributes/annotations
TABLE = {
    "a.py": (
        "import os\n\n# a comment, not part of it\n@decorate\ndef f():\n    return 1\n\nclass A:\n    def m(self):\n        pass\n",
        {"f": (4, 6), "A": (8, 10), "A.m": (9, 10)},
    ),
    "a.js": (
        "class A {\n  m() {}\n}\nfunction f() {\n}\nconst g = () => {\n  return 1;\n};\nexport function h() {}\n",
        {"A": (1, 3), "A.m": (2, 2), "f": (4, 5), "g": (6, 8), "h": (9, 9)},
    ),
    "a.ts": (
        "@Component\nclass A {\n  @Input() m(): void {}\n}\ninterface I { x: number }\nenum E { X }\nnamespace N {\n  export function f() {}\n}\n",
        {"A": (1, 4), "A.m": (3, 3), "I": (5, 5), "E": (6, 6), "N": (7, 9), "N.f": (8, 8)},
    ),
    "a.tsx": ("export const App = () => {\n  return <div/>;\n};\n", {"App": (1, 3)}),
    "a.go": (
        "package p\n\ntype S struct {\n}\n\nfunc (s *S) M() {\n}\n\nfunc F() {}\n",
        {"S": (3, 4), "S.M": (6, 7), "F": (9, 9)},
    ),
    "a.rs": (
        "// a comment\n#[derive(Debug)]\n#[allow(x)]\nstruct S;\n\nimpl S {\n    fn m(&self) {}\n}\n\nimpl Display for S {\n    fn fmt(&self) {}\n}\n\nmod m {\n    pub fn g() {}\n}\n",
        {"S": (2, 4), "S.m": (7, 7), "S.fmt": (11, 11), "m": (14, 16), "m.g": (15, 15)},
    ),
    "A.java": (
        'class A {\n  @Override\n  public String toString() { return ""; }\n  class B {\n  }\n}\n',
        {"A": (1, 6), "A.toString": (2, 3), "A.B": (4, 5)},
    ),
    "a.kt": ('class A {\n    @Deprecated("x")\n    fun m() {}\n}\n\nfun f() {}\n', {"A": (1, 4), "A.m": (2, 3), "f": (6, 6)}),
    "a.c": ("struct S {\n  int x;\n};\n\nint f(void) {\n  return 0;\n}\n", {"S": (1, 3), "f": (5, 7)}),
    "a.cpp": (
        "namespace n {\nclass A {\n  void m() {}\n};\n}\n\nvoid A::k() {}\n",
        {"n": (1, 5), "n.A": (2, 4), "n.A.m": (3, 3), "A.k": (7, 7)},
    ),
    "a.cs": (
        "namespace N {\n  [Serializable]\n  class A {\n    [Obsolete]\n    void M() {}\n  }\n}\n",
        {"N": (1, 7), "N.A": (2, 6), "N.A.M": (4, 5)},
    ),
    "a.rb": ("module M\n  class A\n    def m\n    end\n  end\nend\n", {"M": (1, 6), "M.A": (2, 5), "M.A.m": (3, 4)}),
    "a.php": (
        "<?php\n#[Attr]\nclass A {\n  #[Route]\n  function m() {}\n}\nfunction f() {}\n",
        {"A": (2, 6), "A.m": (4, 5), "f": (7, 7)},
    ),
    "a.swift": (
        "class A {\n  func m() {}\n}\n\nextension A {\n  func e() {}\n}\n\nfunc f() {}\n",
        {"A": (1, 3), "A.m": (2, 2), "A.e": (6, 6), "f": (9, 9)},
    ),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_each_language_names_its_definitions_and_their_lines(name: str) -> None:
    text, wanted = TABLE[name]
    language = language_of(name)
    assert language is not None
    found = {d.name: (d.first, d.last) for d in definitions(text, language, python_objects)}
    for symbol, lines in wanted.items():
        assert found.get(symbol) == lines, (symbol, found)
        first, last = lines
        assert intent_lines(text, Intent(symbol=symbol), path=name) == list(range(first, last + 1))


def test_double_colons_are_read_as_dots_and_overloads_and_unknown_names_are_said() -> None:
    rust = TABLE["a.rs"][0]
    assert find_symbol(rust, "rust", "m::g").name == "m.g"
    java = "class A {\n  void m() {}\n  void m(int x) {}\n}\n"
    with pytest.raises(TextFragError) as overloads:
        find_symbol(java, "java", "A.m")
    assert "2 definitions are named 'A.m': A.m (lines 2-2); A.m (lines 3-3)" in overloads.value.message
    with pytest.raises(TextFragError) as unknown:
        find_symbol(java, "java", "A.n")
    assert "no definition named 'A.n' in the file; did you mean A.m" in unknown.value.message


def test_the_language_comes_from_the_file_name_or_from_language() -> None:
    assert language_of("src/x.go") == "go" and language_of("Makefile") is None
    assert language_of("script", "typescript") == "typescript" and language_of("x.h", "c++") == "cpp"


def test_python_symbols_are_what_pyobject_selects_on_the_standard_library() -> None:
    import argparse
    import difflib
    import inspect
    import json
    import textwrap

    checked = 0
    for module in (json, textwrap, inspect, difflib, argparse):
        text = Path(module.__file__ or "").read_text(encoding="utf-8")
        objects = python_objects(text)
        for name, (first, last, _) in list(objects.items())[:60]:
            assert intent_lines(text, Intent(symbol=name), path="m.py") == intent_lines(text, Intent(pyobject=name))
            assert (first, last) == (
                find_symbol(text, "python", name, python_objects).first,
                find_symbol(text, "python", name, python_objects).last,
            )
            checked += 1
    assert checked > 100


# (listed when the property first runs, not as the suite is collected: the glob takes half a second)
_STDLIB = st.deferred(
    lambda: st.sampled_from(
        sorted(str(p) for p in Path(sysconfig.get_paths()["stdlib"]).glob("**/*.py") if "test" not in p.parts)
    )
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_python_symbols_agree_with_pyobject_and_sphinx_across_the_standard_library(data: st.DataObject) -> None:
    """A property: in any module of the standard library, any object's ``symbol`` selects the lines its
    ``pyobject`` selects, and they are Sphinx's finder's (which cuts a signature written over several lines
    at the name's line, a cut migrate reports)."""
    from sphinx.pycode import ModuleAnalyzer

    path = data.draw(_STDLIB, label="module")
    try:
        text = Path(path).read_text(encoding="utf-8")
        with warnings.catch_warnings():  # (the library's test data writes what Python warns about)
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(text, path, "exec")
        theirs = ModuleAnalyzer.for_string(text, "m").find_tags()
    except (UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return  # (a file Python or Sphinx cannot read: neither intent applies)
    if not splitlines_agree(text):
        return  # (a form feed or another break literalinclude counts and RFC 5147 does not: both intents refuse the file)
    mine = python_objects(text)
    assert set(mine) == set(theirs), path
    if not mine:
        return
    name = data.draw(st.sampled_from(sorted(mine)), label="object")
    first, last, name_line = mine[name]
    lines = intent_lines(text, Intent(symbol=name), path="m.py")
    assert lines == intent_lines(text, Intent(pyobject=name)) == list(range(first, last + 1))
    assert theirs[name][1:] in ((first, last), (first, name_line)), (path, name)


def test_make_symbols_and_a_sphinx_build_with_the_intent(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "src" / "app.go").write_text(TABLE["a.go"][0])
    out = io.StringIO()
    assert main(["symbols", "--root", str(tmp_path), "src/app.go"], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue().splitlines() == ["S\t3-4\ttype_spec", "S.M\t6-7\tmethod_declaration", "F\t9-9\tfunction_declaration"]
    out = io.StringIO()
    assert main(["make", "--root", str(tmp_path), "src/app.go", "--symbol", "S.M"], stdout=out, stderr=io.StringIO()) == 0
    ref, option = out.getvalue().splitlines()
    assert ref.startswith("src/app.go#line=5,7;") and option == "   :symbol: S.M"
    (tmp_path / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n")
    (tmp_path / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref}\n   :symbol: S.M\n")
    build = ["-E", "-b", "html", str(tmp_path / "docs"), str(tmp_path / "out")]
    ok = run_sphinx(*build)
    assert ok.returncode == 0, ok.stderr
    from bs4 import BeautifulSoup

    page = BeautifulSoup((tmp_path / "out" / "index.html").read_text(encoding="utf-8"), "html.parser")
    [block] = page.select("[data-txtfrag-ref]")
    assert block.select_one("pre").get_text() == "func (s *S) M() {\n}\n"  # what the reader sees: the method
    (tmp_path / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {ref}\n   :symbol: S.N\n")
    bad = run_sphinx(*build)
    assert bad.returncode == 1 and "no definition named 'S.N' in the file; did you mean S.M" in bad.stderr


def test_drift_follows_a_definition_that_moved_and_says_when_it_is_gone(tmp_path: Path) -> None:
    from ..conftest import commit_all, quoted_by_intent

    src = "package p\n\nfunc A() {\n\treturn\n}\n\nfunc B() {\n\treturn\n}\n"
    doc = quoted_by_intent(tmp_path, "a.go", src, "symbol", "B")
    # B moves below a copy of its own body (the same text now occurs twice): the intent decides
    (tmp_path / "src" / "a.go").write_text(src.replace("func A() {", "func Z() {\n\treturn\n}\n\nfunc A() {"))
    commit_all(tmp_path, "move")
    err = io.StringIO()
    assert main(["update", "--root", str(tmp_path), "--write", str(doc)], stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    assert "#line=10,13;" in doc.read_text()
    (tmp_path / "src" / "a.go").write_text("package p\n\nfunc C() {}\n")
    commit_all(tmp_path, "gone")
    err = io.StringIO()
    assert main(["check", "--root", str(tmp_path), str(doc)], stdout=io.StringIO(), stderr=err) == 1
    assert "changed: :symbol: B no longer selects anything" in err.getvalue() and "no definition named 'B'" in err.getvalue()


def test_a_file_is_parsed_once_however_many_references_name_its_definitions_and_only_for_a_symbol() -> None:
    from textfrag.intents import symbols
    from textfrag.intents.intent import disagreement

    text = "package p\n\n" + "".join(f"func F{n}() {{\n}}\n\n" for n in range(40))
    before, looked_up = symbols._scanned.cache_info(), symbols._index.cache_info()
    for n in range(40):
        assert disagreement(text, 3 + 3 * n, 4 + 3 * n, Intent(symbol=f"F{n}"), path="m.go") is None
    after = symbols._scanned.cache_info()
    assert after.misses - before.misses == 1  # parsed once
    index = symbols._index.cache_info()
    assert (index.misses - looked_up.misses, index.hits - looked_up.hits) == (1, 39)  # then 39 lookups
    other = text.replace("package p", "package q")  # (another file's text) quoted by a region: never parsed
    assert disagreement(other + "// [START r]\nx\n// [END r]\n", 124, 124, Intent(region="r"), path="m.go") is None
    assert symbols._scanned.cache_info().misses == after.misses
