"""The symbol intent in each of its thirteen grammars, on a file of each language in
``tests/data/symbols``: nested definitions, decorators, attributes and annotations, overloads, the ways
each language writes a qualified name. Every definition a file has is listed with its 1-based lines."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from textfrag import TextFragError
from textfrag.cli import main
from textfrag.intents.intent import Intent, intent_lines
from textfrag.intents.symbols import definitions, find_symbol, language_of

DATA = Path(__file__).parent.parent / "data" / "symbols"

EXPECTED = {
    "A.java": [
        ("A", 6, 31),
        ("A.A", 12, 12),
        ("A.toString", 14, 15),
        ("A.m", 17, 17),
        ("A.m", 18, 18),
        ("A.Inner", 20, 22),
        ("A.Inner.run", 21, 21),
        ("A.Cb", 24, 24),
        ("A.Cb.call", 24, 24),
        ("A.E", 26, 26),
        ("A.E.f", 26, 26),
        ("A.R", 28, 28),
        ("Marker", 33, 33),
    ],
    "a.c": [
        ("point", 4, 6),
        ("vec", 8, 10),
        ("node_t", 12, 14),
        ("node", 12, 14),
        ("make", 16, 18),
        ("color", 20, 20),
        ("main", 22, 24),
    ],
    "a.cpp": [
        ("outer", 3, 25),
        ("outer.inner", 4, 24),
        ("outer.inner.Box", 7, 18),
        ("outer.inner.Box.Box", 10, 10),
        ("outer.inner.Box.~Box", 11, 11),
        ("outer.inner.Box.get", 12, 12),
        ("outer.inner.Box.operator==", 13, 13),
        ("outer.inner.Box.set", 15, 15),
        ("outer.inner.Plain", 20, 20),
        ("outer.inner.f", 22, 22),
        ("outer.inner.Box.set", 27, 27),
        ("Color", 29, 29),
        ("Legacy", 31, 31),
    ],
    "a.cs": [
        ("Demo.App", 3, 24),
        ("Demo.App.Greeter", 6, 18),
        ("Demo.App.Greeter.Hello", 9, 10),
        ("Demo.App.Greeter.Hello", 11, 11),
        ("Demo.App.Greeter.Name", 12, 12),
        ("Demo.App.Greeter.Greeter", 13, 13),
        ("Demo.App.Greeter.operator+", 14, 14),
        ("Demo.App.Greeter.this", 16, 16),
        ("Demo.App.Greeter.Local", 17, 17),
        ("Demo.App.Greeter.Local.Inner", 17, 17),
        ("Demo.App.IGreeter", 20, 20),
        ("Demo.App.IGreeter.Hello", 20, 20),
        ("Demo.App.Person", 21, 21),
        ("Demo.App.S", 22, 22),
        ("Demo.App.Color", 23, 23),
        ("Demo.App.D", 24, 24),
    ],
    "a.go": [
        ("Point", 6, 8),
        ("A", 11, 11),
        ("Shape", 12, 14),
        ("Shape.Area", 13, 13),
        ("Point.Dist", 18, 18),
        ("Point.Gen", 20, 20),
        ("New", 22, 24),
        ("handler", 26, 26),
        ("init", 30, 30),
        ("init", 31, 31),
    ],
    "a.js": [
        ("App", 2, 8),
        ("App.create", 3, 3),
        ("App.#priv", 4, 4),
        ("App.x", 5, 5),
        ("App.handler", 6, 6),
        ("App.method", 7, 7),
        ("outer", 10, 13),
        ("outer.inner", 11, 11),
        ("fetchData", 15, 17),
        ("Klass", 19, 19),
        ("util", 20, 20),
        ("gen", 21, 21),
        ("counter", 22, 22),
    ],
    "a.kt": [
        ("Point", 6, 14),
        ("Point.dist", 8, 8),
        ("Point.Companion", 10, 13),
        ("Point.Companion.origin", 11, 12),
        ("Shape", 16, 18),
        ("Shape.area", 17, 17),
        ("Registry", 20, 23),
        ("Registry.register", 21, 21),
        ("Registry.register", 22, 22),
        ("Color", 25, 25),
        ("shout", 27, 27),
        ("handler", 29, 29),
        ("f", 30, 30),
        ("Result", 32, 34),
        ("Result.Ok", 33, 33),
    ],
    "a.php": [
        ("App.Models", 2, 26),
        ("App.Models.User", 7, 19),
        ("App.Models.User.show", 13, 14),
        ("App.Models.User.find", 16, 16),
        ("App.Models.User.__construct", 18, 18),
        ("App.Models.HasName", 21, 21),
        ("App.Models.HasName.name", 21, 21),
        ("App.Models.Greets", 22, 22),
        ("App.Models.Greets.greet", 22, 22),
        ("App.Models.Suit", 23, 23),
        ("App.Models.Suit.color", 23, 23),
        ("App.Models.helper", 24, 24),
    ],
    "a.rb": [
        ("Outer", 4, 27),
        ("Outer.Inner", 5, 24),
        ("Outer.Inner.initialize", 8, 10),
        ("Outer.Inner.build", 12, 14),
        ("Outer.Inner.create", 17, 17),
        ("Outer.Inner.helper?", 22, 23),
        ("Outer.util", 26, 26),
        ("Outer.Later", 29, 31),
        ("Outer.Later.m", 30, 30),
        ("top_level", 33, 34),
    ],
    "a.rs": [
        ("Point", 4, 9),
        ("Point.new", 13, 14),
        ("Wrapper.fmt", 18, 18),
        ("Shape", 21, 24),
        ("Shape.area", 22, 22),
        ("Shape.name", 23, 23),
        ("Color", 26, 26),
        ("m", 28, 28),
        ("tests", 34, 38),
        ("tests.it_works", 36, 37),
        ("Point.area", 41, 41),
    ],
    "a.swift": [
        ("Point", 4, 26),
        ("Point.init", 8, 10),
        ("Point.init", 12, 12),
        ("Point.dist", 14, 14),
        ("Point.move", 16, 17),
        ("Point.norm", 19, 21),
        ("Point.subscript", 23, 23),
        ("Point.deinit", 25, 25),
        ("Shape", 28, 30),
        ("Shape.area", 29, 29),
        ("Color", 32, 35),
        ("Color.name", 34, 34),
        ("Point.area", 38, 38),
        ("Counter", 41, 43),
        ("Counter.inc", 42, 42),
        ("ViewModel", 45, 48),
        ("ViewModel.load", 47, 47),
        ("free", 50, 50),
        ("free", 51, 51),
    ],
    "a.ts": [
        ("AppComponent", 4, 25),
        ("AppComponent.handler", 9, 11),
        ("AppComponent.constructor", 13, 13),
        ("AppComponent.onClick", 15, 16),
        ("AppComponent.value", 18, 18),
        ("AppComponent.greet", 20, 20),
        ("AppComponent.greet", 21, 21),
        ("AppComponent.greet", 22, 24),
        ("parse", 27, 27),
        ("parse", 28, 28),
        ("parse", 29, 31),
        ("make", 33, 33),
        ("main", 34, 34),
        ("Shape", 35, 38),
        ("Shape.area", 36, 36),
        ("Fn", 39, 39),
        ("Base", 40, 42),
        ("Base.run", 41, 41),
        ("foo", 43, 45),
        ("foo.bar", 44, 44),
        ("Color", 46, 46),
    ],
    "a.tsx": [
        ("Props", 3, 3),
        ("Hello", 5, 7),
        ("App", 9, 11),
        ("Old", 13, 15),
        ("Old.render", 14, 14),
    ],
    "namespaces.php": [
        ("A", 2, 3),
        ("A.X", 3, 3),
        ("B", 4, 5),
        ("B.Y", 5, 5),
    ],
}

# a definition whose first line is a decorator, attribute or annotation (the text it starts with), with a
# comment above it that is no part of it
ATTRIBUTED = {
    "A.java": [("A", "@Entity"), ("A.toString", "    @Override")],
    "a.cs": [("Greeter", "[Serializable]")],
    "a.kt": [("Point", '@Suppress("unused")'), ("Point.Companion.origin", "        @JvmStatic")],
    "a.php": [("User", "#[Entity]"), ("User.show", '    #[Route("/x")]')],
    "a.rs": [("Point", "#[derive(Debug)]"), ("Point.new", "    #[inline]"), ("tests", "#[cfg(test)]")],
    "a.swift": [("Point", "@available(iOS 13, *)"), ("Point.move", "    @discardableResult"), ("ViewModel", "@MainActor")],
    "a.ts": [("AppComponent", "@Component({"), ("AppComponent.onClick", '  @HostListener("click")')],
    "a.js": [("App.method", "  @dec method() {}")],
    "a.cpp": [("Box", "template <typename T>"), ("f", "[[nodiscard]] int f(int a) { return a; }")],
}
# names that several definitions share (overloads): an error listing each with its lines
OVERLOADS = {
    "A.java": "A.m",
    "a.cs": "Greeter.Hello",
    "a.kt": "Registry.register",
    "a.swift": "free",
    "a.ts": "parse",
    "a.cpp": "Box::set",
    "a.go": "init",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_definition_of_a_file_is_named_by_its_nesting_with_its_lines(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    language = language_of(name)
    assert language is not None
    assert [(d.name, d.first, d.last) for d in definitions(text, language)] == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_name_that_is_unique_selects_its_lines_as_the_intent(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    names = [n for n, _, _ in EXPECTED[name]]
    for symbol, first, last in EXPECTED[name]:
        if names.count(symbol) == 1:
            assert intent_lines(text, Intent(symbol=symbol), path=name) == list(range(first, last + 1))


@pytest.mark.parametrize("name", sorted(ATTRIBUTED))
def test_a_definition_starts_at_its_first_attribute_and_leaves_the_comment_above_out(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    language = language_of(name)
    assert language is not None
    for symbol, starts in ATTRIBUTED[name]:
        found = find_symbol(text, language, symbol)
        if starts is not None:
            assert lines[found.first - 1] == starts, (symbol, lines[found.first - 1])
        above = lines[found.first - 2].strip()
        assert above.startswith(("//", "/*", "/**", "*", "#", "///")) or not above or above.endswith(("{", ";", "}")), above


@pytest.mark.parametrize("name", sorted(OVERLOADS))
def test_overloads_are_an_error_listing_each_candidate_with_its_lines(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    language = language_of(name)
    assert language is not None
    with pytest.raises(TextFragError) as raised:
        find_symbol(text, language, OVERLOADS[name])
    message = raised.value.message
    wanted = OVERLOADS[name].replace("::", ".")
    assert message.startswith(f"2 definitions are named {wanted!r}") or message.startswith(f"3 definitions are named {wanted!r}")
    assert message.count("(lines ") == int(message[0]) and message.endswith("quote one by its lines instead")


@pytest.mark.parametrize(
    ("name", "written", "means"),
    [
        ("a.rs", "Wrapper::fmt", "Wrapper.fmt"),  # impl<T> fmt::Display for Wrapper<T>
        ("a.rs", "Point::area", "Point.area"),  # impl Shape for &Point
        ("a.go", "Point.Gen", "Point.Gen"),  # func (p Point[T]) Gen()
        ("a.cs", "Demo.App.Greeter.Name", "Demo.App.Greeter.Name"),  # namespace Demo.App; (file-scoped)
        ("a.cs", "Greeter.Name", "Demo.App.Greeter.Name"),  # its namespace left out
        ("a.cpp", "outer::inner::Box::get", "outer.inner.Box.get"),
        ("a.cpp", "Box::get", "outer.inner.Box.get"),
        ("a.php", "App\\Models\\User::show", "App.Models.User.show"),
        ("a.php", "User::show", "App.Models.User.show"),
        ("a.rb", "Outer::Inner#initialize", "Outer.Inner.initialize"),
        ("a.rb", "Outer::Inner.build", "Outer.Inner.build"),  # def self.build
        ("a.swift", "Point.area", "Point.area"),  # extension Point: Shape
        ("a.kt", "Point.Companion.origin", "Point.Companion.origin"),
        ("namespaces.php", "B\\Y", "B.Y"),
    ],
)
def test_qualified_names_as_each_language_writes_them(name: str, written: str, means: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    language = language_of(name)
    assert language is not None
    assert find_symbol(text, language, written).name == means


def test_an_unknown_name_suggests_the_closest_and_nothing_is_guessed() -> None:
    text = (DATA / "a.cs").read_text(encoding="utf-8")
    with pytest.raises(TextFragError) as raised:
        find_symbol(text, "c_sharp", "Greeter.Nme")
    assert "no definition named 'Greeter.Nme' in the file; did you mean Demo.App.Greeter.Name" in raised.value.message
    with pytest.raises(TextFragError):
        find_symbol(text, "c_sharp", "Nme")


def test_a_file_nested_past_reason_is_refused_in_plain_words(tmp_path: Path) -> None:
    (tmp_path / "deep.js").write_text("x = " + "[" * 100_000)
    err = io.StringIO()
    assert main(["symbols", "--root", str(tmp_path), "deep.js"], stdout=io.StringIO(), stderr=err) == 2
    assert "deep.js: the file's brackets nest more than 2,000 deep" in err.getvalue() and "Traceback" not in err.getvalue()
    (tmp_path / "deep.js").write_text("function f() {" * 1_500 + "}" * 1_500)  # (named 100 deep at most)
    out = io.StringIO()
    assert main(["symbols", "--root", str(tmp_path), "deep.js"], stdout=out, stderr=io.StringIO()) == 0
    assert len(out.getvalue().splitlines()) == 100


def test_a_file_with_cr_line_ends_numbers_its_lines_as_rfc_5147_does() -> None:
    text = "package p\r\rfunc A() {\r}\r\rfunc B() {\r}\r"
    assert [(d.name, d.first, d.last) for d in definitions(text, "go")] == [("A", 3, 4), ("B", 6, 7)]


def test_enum_constants_with_a_body_hold_their_methods_and_kotlin_constructors_are_named() -> None:
    kotlin = "class A {\n    constructor(x: Int) : this() {}\n}\n\nenum class E {\n    X {\n        override fun g() {}\n    },\n    Y;\n\n    open fun g() {}\n}\n"
    assert [(d.name, d.first, d.last) for d in definitions(kotlin, "kotlin")] == [
        ("A", 1, 3),
        ("A.constructor", 2, 2),
        ("E", 5, 12),
        ("E.X", 6, 8),
        ("E.X.g", 7, 7),
        ("E.g", 11, 11),
    ]
    java = "enum E {\n    X {\n        void f() {}\n    },\n    Y;\n    void f() {}\n}\n"
    assert [(d.name, d.first, d.last) for d in definitions(java, "java")] == [
        ("E", 1, 7),
        ("E.X", 2, 4),
        ("E.X.f", 3, 3),
        ("E.f", 6, 6),
    ]


def test_a_name_in_backticks_is_the_name_inside_them() -> None:
    kotlin = "class HeapSortTest {\n    @Test\n    fun `sort array of integers`() {\n    }\n}\n"
    assert find_symbol(kotlin, "kotlin", "HeapSortTest.`sort array of integers`").name == "HeapSortTest.sort array of integers"
    assert find_symbol(kotlin, "kotlin", "HeapSortTest.sort array of integers").first == 2
    swift = "enum E {\n    func `default`() {}\n}\n"
    assert find_symbol(swift, "swift", "E.default").first == 2


def test_module_assignments_in_javascript_and_computed_properties_in_swift_are_definitions() -> None:
    js = "/** doc */\nexports.handler = async (event) => {\n  return 1;\n};\nmodule.exports.util = function () {};\n"
    js += "Foo.prototype.bar = function () {};\nif (x) {\n  y = () => 1;\n}\n"
    assert [(d.name, d.first, d.last) for d in definitions(js, "javascript")] == [
        ("handler", 2, 4),
        ("util", 5, 5),
        ("Foo.bar", 6, 6),
    ]
    swift = 'struct ContentView: View {\n    @State var n = 0\n\n    var body: some View {\n        Text("hi")\n    }\n}\n'
    assert [(d.name, d.first, d.last) for d in definitions(swift, "swift")] == [("ContentView", 1, 7), ("ContentView.body", 4, 6)]
