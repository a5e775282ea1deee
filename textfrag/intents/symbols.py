"""Definitions in many languages, for the ``symbol`` intent: a quote that follows a function, a class, a
method... wherever it moves, as ``:pyobject:`` does for Python.

Files are parsed with tree-sitter and the official per-language grammar wheels (the ``symbols`` extra:
pre-built, nothing downloaded at run time, so a docs build never reaches the network). A definition's
name is the path of the named definitions it is nested in, joined by ``.`` (``::`` is accepted where
the language writes it); a Go method belongs to its receiver's type, a Rust ``impl`` (and ``impl Trait
for T``) and a Swift ``extension`` to their type. Its lines run from the first decorator, attribute or
annotation that belongs to it to its last line; comments above it are not part of it. Python is read by
``textfrag.intents.intent.python_objects``, Sphinx's own finder's rules, so ``--symbol`` selects exactly what
``--pyobject`` selects.
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from typing import Any, NamedTuple

from ..errors import TextFragError
from ..source.store import current as current_store
from .bounded import can_bound, in_worker
from .limits import (
    DEEPEST_BRACKETS,
    ERROR_WEIGHT,
    MOST_ANGLES,
    PARSE_MEMORY,
    backstop_seconds,
    parse_counted,
    parse_seconds,
    parse_steps,
    refuse_hostile,
)

__all__ = ["Definition", "LANGUAGES", "definitions", "find_symbol", "language_of"]

#: file suffix -> language
_SUFFIXES = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".jsx": "javascript", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".cs": "c_sharp",
    ".rb": "ruby", ".php": "php", ".swift": "swift",
}  # fmt: skip
#: Pygments-style names a ``:language:`` may give -> language
_ALIASES = {
    "py": "python", "python3": "python", "js": "javascript", "ts": "typescript", "golang": "go", "rs": "rust",
    "kt": "kotlin", "c++": "cpp", "csharp": "c_sharp", "c#": "c_sharp", "cs": "c_sharp", "rb": "ruby",
}  # fmt: skip
#: language -> (grammar module, its function)
_GRAMMARS = {
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "c_sharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "swift": ("tree_sitter_swift", "language"),
}
LANGUAGES = ("python", *_GRAMMARS)

# what defines a named thing, per language (the node types); a definition nests the names of what it holds
_DEFINITIONS: dict[str, frozenset[str]] = {
    "javascript": frozenset(
        {
            *("class_declaration", "function_declaration", "generator_function_declaration", "method_definition"),
            *("variable_declarator", "field_definition"),  # (when bound to a function or a class)
            "assignment_expression",  # exports.handler = async () => {}, Foo.prototype.bar = function () {}
        }
    ),
    "typescript": frozenset(
        {
            *("class_declaration", "abstract_class_declaration", "function_declaration", "method_definition"),
            *("interface_declaration", "enum_declaration", "type_alias_declaration", "internal_module", "module"),
            *("generator_function_declaration", "abstract_method_signature", "function_signature", "method_signature"),
            *("variable_declarator", "public_field_definition"),  # (when bound to a function or a class)
            "assignment_expression",  # exports.handler = async () => {}
        }
    ),
    "go": frozenset({"function_declaration", "method_declaration", "type_spec", "method_elem", "var_spec"}),
    "rust": frozenset(
        {
            *("function_item", "function_signature_item", "struct_item", "enum_item", "trait_item", "mod_item"),
            *("union_item", "macro_definition"),
        }
    ),
    "java": frozenset(
        {
            *("class_declaration", "interface_declaration", "enum_declaration", "record_declaration"),
            *("method_declaration", "constructor_declaration", "annotation_type_declaration", "compact_constructor_declaration"),
            "enum_constant",  # (one with a body of its own)
        }
    ),
    "kotlin": frozenset(
        {
            *("class_declaration", "object_declaration", "function_declaration", "companion_object"),
            *("property_declaration", "secondary_constructor", "enum_entry"),
        }
    ),
    "c": frozenset({"function_definition", "struct_specifier", "enum_specifier", "union_specifier", "type_definition"}),
    "cpp": frozenset(
        {
            *("function_definition", "struct_specifier", "enum_specifier", "union_specifier", "class_specifier"),
            *("namespace_definition", "type_definition"),
        }
    ),
    "c_sharp": frozenset(
        {
            *("class_declaration", "interface_declaration", "struct_declaration", "enum_declaration", "record_declaration"),
            *("method_declaration", "constructor_declaration", "property_declaration", "namespace_declaration"),
            *("file_scoped_namespace_declaration", "delegate_declaration", "local_function_statement"),
            *("destructor_declaration", "operator_declaration", "indexer_declaration"),
        }
    ),
    "ruby": frozenset({"module", "class", "method", "singleton_method"}),
    "php": frozenset(
        {
            *("class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"),
            *("function_definition", "method_declaration", "namespace_definition"),
        }
    ),
    "swift": frozenset(
        {
            *("class_declaration", "protocol_declaration", "function_declaration", "init_declaration"),
            *("protocol_function_declaration", "deinit_declaration", "subscript_declaration"),
            "property_declaration",  # (a computed one: var body: some View { ... })
        }
    ),
}
_DEFINITIONS["tsx"] = _DEFINITIONS["typescript"]
# what holds definitions without being one: a Rust ``impl`` (of its type), a Swift ``extension``
_CONTAINERS = {"rust": frozenset({"impl_item"})}
# namespaces: a name may leave them out (``Greeter.Hello`` for ``Demo.App.Greeter.Hello``) when that is unique
_NAMESPACES = frozenset({"namespace_definition", "namespace_declaration", "file_scoped_namespace_declaration"})
# attributes that stand before a definition as siblings of their own (Rust's #[...], TypeScript's
# decorators of class members); elsewhere they are inside the definition's node
_LEADING = {
    "rust": frozenset({"attribute_item"}),
    "typescript": frozenset({"decorator"}),
    "tsx": frozenset({"decorator"}),
}
#: how deep definitions are named (names of a pathological nesting would grow quadratically)
_DEEPEST = 100
_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
# `const f = () => {}`, `handler = () => {}` (a class field), `var f = func() {}`, `val f = { x -> x }`
_BOUND_VALUES = frozenset(
    {
        *("arrow_function", "function_expression", "function", "class", "generator_function"),
        *("func_literal", "lambda_literal", "anonymous_function"),
    }
)
# what a definition's node starts after: the wrapper it stands in (decorators, template<>, export)
_WRAPPERS = frozenset({"decorated_definition", "template_declaration", "export_statement"})


class Definition(NamedTuple):
    """A named definition: its dotted name, its 1-based first and last lines, and its kind (node type)."""

    name: str
    first: int
    last: int
    kind: str


def language_of(path: str, language: str | None = None) -> str | None:
    """The language of ``path`` (a ``:language:`` given wins when textfrag reads it); None when unknown."""
    if language:
        wanted = _ALIASES.get(language.lower(), language.lower())
        if wanted in LANGUAGES:
            return wanted
    suffix = "." + path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return _SUFFIXES.get(suffix)


_PARSERS: dict[str, tuple[Any, Any]] = {}


def _parser(language: str) -> tuple[Any, Any]:
    """The language's parser and the query that finds the nodes that may define or hold a name (run in
    tree-sitter's C, so that what a file's functions say is never walked in Python)."""
    if language not in _PARSERS:
        try:
            from tree_sitter import Language, Parser, Query

            module, function = _GRAMMARS[language]
            grammar = importlib.import_module(module)
        except ImportError as missing:
            raise TextFragError(
                f"definitions in {language} need tree-sitter and its grammar: pip install 'textfrag[symbols]' ({missing.name})"
            ) from None
        lang = Language(getattr(grammar, function)())
        kinds = sorted(_DEFINITIONS[language] | _CONTAINERS.get(language, frozenset()))
        _PARSERS[language] = (Parser(lang), Query(lang, "[" + " ".join(f"({k})" for k in kinds) + "] @n"))
    return _PARSERS[language]


#: Python's finder: name -> (first, last, the line of its name), Sphinx's rules (textfrag.intents.intent)
PythonFinder = Callable[[str], dict[str, tuple[int, int, int]]]


def definitions(text: str, language: str, python_objects: PythonFinder | None = None) -> list[Definition]:
    """Every named definition of ``text`` (a file in ``language``), in the file's order; Python's are
    ``python_objects``' (textfrag.intents.intent's, Sphinx's rules)."""
    if language == "python":
        if python_objects is None:
            raise TextFragError("definitions in Python are read by textfrag.intents.intent.python_objects; pass it")
        return sorted(
            (Definition(name, first, last, "def") for name, (first, last, _) in python_objects(text).items()),
            key=lambda d: (d.first, d.name),
        )
    if language not in _GRAMMARS:
        raise TextFragError(f"textfrag reads no definitions in {language!r} (it reads: {', '.join(LANGUAGES)})")
    return [d for d, _ in _scanned(text, language)]


@lru_cache(maxsize=4096)  # (per file: as many as a large build quotes in turn)
def _index(text: str, language: str) -> tuple[dict[str, tuple[Definition, ...]], dict[str, tuple[Definition, ...]]]:
    """A file's definitions by name (overloads share one), and by the name without its namespaces."""
    index: dict[str, list[Definition]] = {}
    short: dict[str, list[Definition]] = {}
    for d, alias in _scanned(text, language):
        index.setdefault(d.name, []).append(d)
        if alias != d.name:
            short.setdefault(alias, []).append(d)
    return ({n: tuple(ds) for n, ds in index.items()}, {n: tuple(ds) for n, ds in short.items()})


@cache
def parser_identity(language: str) -> str:
    """What a table of definitions found in ``language`` depends on besides the text and textfrag's code
    (which names the store): the versions of tree-sitter and of the language's grammar, and the parse
    limits; Python's definitions depend on the Python that reads them (textfrag.source.store names its store by
    that too). Kept tables and remembered verdicts are keyed by it, so that an upgraded grammar or
    another limit finds nothing kept."""
    steps = f"{parse_steps(0)}+{parse_steps(1024) - parse_steps(0)}/KB,x{ERROR_WEIGHT}"
    limits = f"{parse_seconds():g}s,{PARSE_MEMORY},{DEEPEST_BRACKETS},{MOST_ANGLES},{steps}"
    if language not in _GRAMMARS:
        return f"{language}:{limits}"
    from importlib.metadata import PackageNotFoundError, version

    def of(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "?"

    return f"{language}:tree-sitter {of('tree_sitter')}:{_GRAMMARS[language][0]} {of(_GRAMMARS[language][0])}:{limits}"


@lru_cache(maxsize=4096)  # (per file: as many as a large build quotes in turn)
def _scanned(text: str, language: str) -> tuple[tuple[Definition, str], ...]:
    """A file's definitions, each with its name less its namespaces, parsed once however many references
    name them (a str keeps its hash, so a file's text is looked up without being read again); parsed in
    a child process, bounded; a file parsed in an earlier run by the same grammar under the same limits
    is looked up (textfrag.source.store)."""
    store = current_store()
    if store is None:
        return _parsed(text, language)
    kind = "ts:" + parser_identity(language)
    try:  # (what the store gives back is taken only in the shape it was put)
        kept = tuple((Definition(n, f, la, k), a) for n, f, la, k, a in store.get(kind, text))
        lines_ok = all(type(n) is int for d, _ in kept for n in d[1:3])
        if lines_ok and all(type(t) is str for d, a in kept for t in (d.name, d.kind, a)):
            return kept
    except (TypeError, ValueError):  # (none kept: None; or not in that shape)
        pass
    found = _parsed(text, language)
    store.put(kind, text, [[*d, a] for d, a in found])
    return found


def _parsed(text: str, language: str) -> tuple[tuple[Definition, str], ...]:
    """:func:`_scanned`, parsed: a file that the measures of :func:`refuse_hostile` refuse is refused
    alike on every machine; the others are parsed in a child process limited to PARSE_MEMORY more memory
    and stopped after :func:`parse_seconds` (where processes fork), so that nothing this process could
    not stop runs in it, and nothing is left running."""
    _parser(language)  # (a missing grammar is said here, in this process)
    refuse_hostile(text, language)
    if not can_bound():
        return _scanned_here(text, language)
    seconds = backstop_seconds(len(text))
    return in_worker(
        _scanned_here,
        text,
        language,
        seconds=seconds,
        memory=PARSE_MEMORY,
        too_long=f"tree-sitter took more than {seconds:.0f} s to parse this file as {language}, and textfrag stopped it "
        "(TEXTFRAG_PARSE_SECONDS sets the limit); quote it by its lines instead",
        too_large=f"tree-sitter needed more than {PARSE_MEMORY >> 20} MB of memory to parse this file as {language}, "
        "and textfrag stopped it; quote it by its lines instead",
    )


def _scanned_here(text: str, language: str) -> tuple[tuple[Definition, str], ...]:
    """:func:`_scanned`, in this process."""
    if "\r" in text:  # (tree-sitter counts rows by LF only; RFC 5147 ends a line at CR too)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    parser, query = _parser(language)
    from tree_sitter import QueryCursor

    data = text.encode("utf-8", "surrogatepass")
    tree = parse_counted(parser, data, language)
    # each match is one node, in the file's order (an outer node before what it holds)
    matches = QueryCursor(query).matches(tree.root_node)
    nodes = [captured["n"][0] for _, captured in matches]
    last_row = tree.root_node.end_point[0] + (0 if tree.root_node.end_point[1] else -1)
    out: list[tuple[Definition, str]] = []
    namespaces: set[str] = set()
    # what the current node is nested in: (its end, the prefix of names in it, the same less namespaces)
    stack: list[tuple[int, str, str]] = [(len(data) + 1, "", "")]
    for node in nodes:
        while node.end_byte > stack[-1][0] or (node.start_byte >= stack[-1][0]):
            stack.pop()
        if len(stack) > _DEEPEST:
            continue  # (a pathological nesting: what lies deeper is not offered)
        _, prefix, short = stack[-1]
        kind = node.type
        holder = _container(node, language)
        if holder is not None:
            stack.append((node.end_byte, _join(prefix, holder), _join(short, holder)))
            continue
        name = _name(node, language)
        if not name:
            continue
        if language == "go" and kind == "method_declaration":
            receiver = _go_receiver(node)
            prefix = short = ""  # (a Go method belongs to its receiver's type, wherever it is written)
            name = f"{receiver}.{name}" if receiver else name
        full = _join(prefix, name)
        namespace = kind in _NAMESPACES
        alias = short if namespace else _join(short, name)
        if namespace:
            namespaces.add(full)
        elif language == "cpp" and "." in name:  # (void ns::A::m() {}: its namespaces named in the file)
            parts = full.split(".")
            cut = max((k for k in range(1, len(parts)) if ".".join(parts[:k]) in namespaces), default=0)
            alias = ".".join(parts[cut:])
        bound = kind in ("variable_declarator", "var_spec", "assignment_expression")
        host = node.parent if bound and node.parent is not None else node
        if kind == "var_spec" and host.type == "var_spec_list" and host.parent is not None:
            host = node  # (one of a var ( ... ) group: its own line)
        end, last = node.end_byte, node.end_point[0] + 1
        if namespace and node.child_by_field_name("body") is None:  # `namespace N;`: what follows, to the next
            end, last = stack[0][0] - 1, last_row + 1
            following = node.next_named_sibling
            while following is not None and following.type != kind:
                following = following.next_named_sibling
            if following is not None:
                end, last = following.start_byte, following.start_point[0]
        out.append((Definition(full, _first_line(host, language), last, kind), alias or full))
        if kind != "type_definition":  # (typedef struct s {...} t: s is no part of t)
            stack.append((end, full, alias))
    return tuple(out)


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix and name else prefix or name


def _text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace")) if node is not None and node.text is not None else ""


def _without_arguments(name: str) -> str:
    """``Box<int>::set`` -> ``Box::set``: a type's arguments are no part of its name (innermost first)."""
    for _ in range(name.count("<")):
        name, removed = _ARGUMENTS.subn("", name)
        if not removed:
            break
    return name


_ARGUMENTS = re.compile(r"(?<!operator)<[^<>]*>")


def _declarator_name(node: Any) -> str:
    """C and C++: the name a (function) declarator declares (``A::m`` as ``A.m``)."""
    while node is not None:
        if node.type in ("identifier", "field_identifier", "destructor_name", "operator_name", "type_identifier"):
            return _text(node)
        if node.type == "qualified_identifier":
            return _without_arguments(_text(node)).replace("::", ".")
        node = node.child_by_field_name("declarator")
    return ""


def _bound_name(node: Any, language: str) -> str | None:
    """A variable (or a class field) bound to a function or a class: its name, else None."""
    if language == "kotlin":  # (property_declaration: its variable_declaration, then its value)
        named = node.named_children
        if any(c.type in _BOUND_VALUES for c in named):
            for c in named:
                if c.type == "variable_declaration":
                    return _text(c.named_children[0]) if c.named_children else None
        return None
    value = node.child_by_field_name("value")
    if value is not None and value.type == "expression_list":  # (Go: var f = func() {...})
        if len(value.named_children) != 1 or len(node.children_by_field_name("name")) != 1:
            return None
        value = value.named_children[0]
    if value is None or value.type not in _BOUND_VALUES:
        return None
    name = node.child_by_field_name("name") or node.child_by_field_name("property")
    return _text(name) if name is not None else None


def _name(node: Any, language: str) -> str | None:
    """The name ``node`` defines, or None when it defines nothing named here."""
    kind = node.type
    if kind in ("variable_declarator", "field_definition", "public_field_definition", "var_spec") or (
        language == "kotlin" and kind == "property_declaration"
    ):
        return _bound_name(node, language)
    if language in ("c", "cpp"):
        if kind == "function_definition":
            return _declarator_name(node.child_by_field_name("declarator")) or None
        if kind == "type_definition":  # typedef struct { ... } name;
            declared, declarator = node.child_by_field_name("type"), node.child_by_field_name("declarator")
            if declared is None or declared.child_by_field_name("body") is None or declarator is None:
                return None
            return _text(declarator) if declarator.type == "type_identifier" else None
        if kind != "namespace_definition" and node.child_by_field_name("body") is None:
            return None  # (`struct S x;` uses S, it does not define it)
    if kind == "assignment_expression":  # (a statement of the module's own: exports.f = () => {})
        statement = node.parent
        if statement is None or statement.type != "expression_statement" or statement.parent is None:
            return None
        if statement.parent.type != "program":
            return None
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or right.type not in _BOUND_VALUES:
            return None
        target = _text(left).replace(".prototype.", ".")
        for exported in ("module.exports.", "exports."):
            target = target.removeprefix(exported)
        return target if all(part.isidentifier() or part.startswith("#") for part in target.split(".")) else None
    if language == "swift" and kind == "property_declaration":
        if node.child_by_field_name("computed_value") is None:
            return None
        pattern = node.child_by_field_name("name")
        bound = pattern.child_by_field_name("bound_identifier") if pattern is not None else None
        return _text(bound) or None
    if kind in ("enum_entry", "enum_constant"):  # a constant with a body of its own holds definitions
        if not any(c.type == "class_body" for c in node.named_children):
            return None
        name = node.child_by_field_name("name") or next((c for c in node.named_children if c.type == "identifier"), None)
        return _text(name) or None
    if kind == "secondary_constructor":
        return "constructor"
    if kind == "method_definition" and node.parent is not None and node.parent.type == "object":
        return None  # (an object literal's method: no definition of its own)
    if language == "swift":
        if kind in ("init_declaration", "deinit_declaration", "subscript_declaration"):
            return str(kind).split("_", 1)[0]
        if kind == "class_declaration" and _swift_extension(node):
            return None  # (a container: see _container)
    if language == "c_sharp":
        if kind == "indexer_declaration":
            return "this"
        if kind == "operator_declaration":
            operator = node.child_by_field_name("operator")
            return f"operator{_text(operator)}" if operator is not None else None
        if kind == "destructor_declaration":
            name = node.child_by_field_name("name")
            return f"~{_text(name)}" if name is not None else None
    name = node.child_by_field_name("name")
    if name is None and kind == "companion_object":
        return "Companion"
    if name is None:
        return None
    text = _text(name)
    if language == "php" and kind == "namespace_definition":
        text = text.replace("\\", ".")
    if kind == "module" and text[:1] in "\"'":  # (TypeScript: declare module "foo")
        text = text[1:-1]
    if language in ("kotlin", "swift") and text[:1] == "`":  # fun `reads like a sentence`(): its name is inside
        text = text.strip("`")
    return text.replace("::", ".")


def _swift_extension(node: Any) -> bool:
    declared = node.child_by_field_name("declaration_kind")
    return declared is not None and _text(declared) == "extension"


def _type_name(node: Any) -> str:
    """Rust: the type an ``impl`` is for (``&mut Wrapper<T>`` -> ``Wrapper``, ``fmt::Wrapper`` -> ``Wrapper``)."""
    while node is not None:
        if node.type == "type_identifier":
            return _text(node)
        if node.type == "scoped_type_identifier":
            node = node.child_by_field_name("name")
        elif node.type in ("reference_type", "generic_type", "pointer_type"):
            node = node.child_by_field_name("type")
        else:
            return _text(node).split("<", 1)[0]
    return ""


def _container(node: Any, language: str) -> str | None:
    """The name that what ``node`` holds is nested in, when ``node`` is no definition of its own: a Rust
    ``impl`` (its type), a Swift ``extension`` (its type)."""
    if language == "rust" and node.type == "impl_item":
        return _type_name(node.child_by_field_name("type")) or None
    if language == "swift" and node.type == "class_declaration" and _swift_extension(node):
        name = node.child_by_field_name("name")
        return _text(name).split("<", 1)[0] if name is not None else None
    return None


def _go_receiver(node: Any) -> str:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for part in _descendants(receiver):
        if part.type == "type_identifier":
            return _text(part)
    return ""


def _descendants(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.named_children))


def _first_line(node: Any, language: str) -> int:
    """The 1-based line where a definition starts: its own, or the first of the attributes before it
    (comments among them are passed over; a comment above them is not part of it)."""
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    start = node.start_point[0]
    leading = _LEADING.get(language)
    if leading:
        edge, previous = start, node.prev_named_sibling
        while previous is not None and previous.end_point[0] >= edge - 1:
            if previous.type in leading:
                start = edge = previous.start_point[0]
            elif previous.type in _COMMENTS:
                edge = previous.start_point[0]
            else:
                break
            previous = previous.prev_named_sibling
    return int(start) + 1


def find_symbol(text: str, language: str, name: str, python_objects: PythonFinder | None = None) -> Definition:
    """The one definition named ``name`` (``::`` read as ``.``, and Ruby's ``#`` and PHP's ``\\`` too; a
    name may leave out its namespaces when that is unique); :class:`TextFragError` listing every candidate
    with its lines when several match (overloads), or the closest names when none does."""
    wanted = name.strip().replace("::", ".")
    if language == "ruby":
        wanted = wanted.replace("#", ".")
    if language in ("kotlin", "swift"):
        wanted = wanted.replace("`", "")
    if language == "php":
        wanted = wanted.replace("\\", ".").lstrip(".")
    if language in _GRAMMARS:
        index, short = _index(text, language)
        matches = list(index.get(wanted, ()) or short.get(wanted, ()))
        if len(matches) == 1:  # (the common case: a lookup in the file's index, parsed once)
            return matches[0]
        found = [d for d, _ in _scanned(text, language)]
    else:
        found = definitions(text, language, python_objects)
        matches = [d for d in found if d.name == wanted]
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = "; ".join(f"{d.name} (lines {d.first}-{d.last})" for d in matches)
        raise TextFragError(f"{len(matches)} definitions are named {wanted!r}: {listed}; quote one by its lines instead")
    close = difflib.get_close_matches(wanted, sorted({d.name for d in found}), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise TextFragError(f"no definition named {wanted!r} in the file{hint}")
