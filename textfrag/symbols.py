"""Definitions in many languages, for the ``symbol`` intent: a quote that follows a function, a class, a
method... wherever it moves, as ``:pyobject:`` does for Python.

Files are parsed with tree-sitter and the official per-language grammar wheels (the ``symbols`` extra:
pre-built, nothing downloaded at run time, so a docs build never reaches the network). A definition's
name is the path of the named definitions it is nested in, joined by ``.`` (``::`` is accepted where
the language writes it); a Go method belongs to its receiver's type, a Rust ``impl`` (and ``impl Trait
for T``) and a Swift ``extension`` to their type. Its lines run from the first decorator, attribute or
annotation that belongs to it to its last line; comments above it are not part of it. Python is read by
``textfrag.intent.python_objects``, Sphinx's own finder's rules, so ``--symbol`` selects exactly what
``--pyobject`` selects.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from .errors import TextFragError

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

# what defines a named thing, per language (the node types); containers nest the names of what they hold
_DEFINITIONS: dict[str, frozenset[str]] = {
    "javascript": frozenset({"class_declaration", "function_declaration", "generator_function_declaration", "method_definition"}),
    "typescript": frozenset(
        {
            *("class_declaration", "abstract_class_declaration", "function_declaration", "method_definition"),
            *("interface_declaration", "enum_declaration", "type_alias_declaration", "internal_module", "module"),
            *("generator_function_declaration", "abstract_method_signature"),
        }
    ),
    "go": frozenset({"function_declaration", "method_declaration", "type_spec"}),
    "rust": frozenset({"function_item", "struct_item", "enum_item", "trait_item", "mod_item", "union_item", "macro_definition"}),
    "java": frozenset(
        {
            *("class_declaration", "interface_declaration", "enum_declaration", "record_declaration"),
            *("method_declaration", "constructor_declaration", "annotation_type_declaration"),
        }
    ),
    "kotlin": frozenset({"class_declaration", "object_declaration", "function_declaration", "companion_object"}),
    "c": frozenset({"function_definition", "struct_specifier", "enum_specifier", "union_specifier"}),
    "cpp": frozenset(
        {
            "function_definition",
            "struct_specifier",
            "enum_specifier",
            "union_specifier",
            "class_specifier",
            "namespace_definition",
        }
    ),
    "c_sharp": frozenset(
        {
            *("class_declaration", "interface_declaration", "struct_declaration", "enum_declaration", "record_declaration"),
            *("method_declaration", "constructor_declaration", "property_declaration", "namespace_declaration"),
            *("file_scoped_namespace_declaration", "delegate_declaration"),
        }
    ),
    "ruby": frozenset({"module", "class", "method", "singleton_method"}),
    "php": frozenset(
        {
            "class_declaration",
            "interface_declaration",
            "trait_declaration",
            "enum_declaration",
            "function_definition",
            "method_declaration",
        }
    ),
    "swift": frozenset({"class_declaration", "protocol_declaration", "function_declaration", "init_declaration"}),
}
_DEFINITIONS["tsx"] = _DEFINITIONS["typescript"]
# attributes that stand before a definition as siblings of their own (Rust's #[...]); others are inside it
_LEADING = {"rust": frozenset({"attribute_item"})}
# JavaScript/TypeScript: `const f = () => {}` and `const C = class {}` define f and C
_BOUND_VALUES = frozenset({"arrow_function", "function_expression", "function", "class", "generator_function"})


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


_PARSERS: dict[str, Any] = {}


def _parser(language: str) -> Any:
    if language not in _PARSERS:
        try:
            from tree_sitter import Language, Parser

            module, function = _GRAMMARS[language]
            grammar = importlib.import_module(module)
        except ImportError as missing:
            raise TextFragError(
                f"definitions in {language} need tree-sitter and its grammar: pip install 'textfrag[symbols]' ({missing.name})"
            ) from None
        _PARSERS[language] = Parser(Language(getattr(grammar, function)()))
    return _PARSERS[language]


#: Python's finder: name -> (first, last, the line of its name), Sphinx's rules (textfrag.intent)
PythonFinder = Callable[[str], dict[str, tuple[int, int, int]]]


def definitions(text: str, language: str, python_objects: PythonFinder | None = None) -> list[Definition]:
    """Every named definition of ``text`` (a file in ``language``), in the file's order; Python's are
    ``python_objects``' (textfrag.intent's, Sphinx's rules)."""
    if language == "python":
        if python_objects is None:
            raise TextFragError("definitions in Python are read by textfrag.intent.python_objects; pass it")
        return sorted(
            (Definition(name, first, last, "def") for name, (first, last, _) in python_objects(text).items()),
            key=lambda d: (d.first, d.name),
        )
    if language not in _GRAMMARS:
        raise TextFragError(f"textfrag reads no definitions in {language!r} (it reads: {', '.join(LANGUAGES)})")
    return list(_parsed(text, language))


@lru_cache(maxsize=256)
def _index(text: str, language: str) -> dict[str, tuple[Definition, ...]]:
    """A file's definitions by name (overloads share one)."""
    index: dict[str, list[Definition]] = {}
    for d in _parsed(text, language):
        index.setdefault(d.name, []).append(d)
    return {name: tuple(ds) for name, ds in index.items()}


@lru_cache(maxsize=256)
def _parsed(text: str, language: str) -> tuple[Definition, ...]:
    """A file's definitions, parsed once however many references name them (a str keeps its hash, so a
    file's text is looked up without being read again)."""
    tree = _parser(language).parse(text.encode("utf-8", "surrogatepass"))
    out: list[Definition] = []
    _walk(tree.root_node, "", language, out)
    return tuple(out)


def _text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace")) if node is not None and node.text is not None else ""


def _declarator_name(node: Any) -> str:
    """C and C++: the name a (function) declarator declares (``A::m`` as ``A.m``)."""
    while node is not None:
        if node.type in ("identifier", "field_identifier", "destructor_name", "operator_name", "type_identifier"):
            return _text(node)
        if node.type == "qualified_identifier":
            return _text(node).replace("::", ".")
        node = node.child_by_field_name("declarator")
    return ""


def _name(node: Any, language: str) -> str | None:
    """The name ``node`` defines, or None when it defines nothing named here."""
    kind = node.type
    if language in ("c", "cpp"):
        if kind == "function_definition":
            return _declarator_name(node.child_by_field_name("declarator")) or None
        if node.child_by_field_name("body") is None:  # `struct S x;` uses S, it does not define it
            return None
    if language == "swift" and kind == "class_declaration":
        declared = node.child_by_field_name("declaration_kind")
        if declared is not None and _text(declared) == "extension":
            return None  # (a container: see _container)
    name = node.child_by_field_name("name")
    if name is None and kind == "companion_object":
        return "Companion"
    return _text(name).replace("::", ".") if name is not None else None


def _container(node: Any, language: str) -> str | None:
    """The name that what ``node`` holds is nested in, when ``node`` is no definition of its own: a Rust
    ``impl`` (its type), a Swift ``extension`` (its type)."""
    if language == "rust" and node.type == "impl_item":
        kind = node.child_by_field_name("type")
        return _text(kind).split("<", 1)[0] if kind is not None else None
    if language == "swift" and node.type == "class_declaration":
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
    """The 1-based line where a definition starts: its own, or the first of the attributes before it."""
    start = node.start_point[0]
    leading = _LEADING.get(language)
    if leading:
        previous = node.prev_named_sibling
        while previous is not None and previous.type in leading and previous.end_point[0] >= start - 1:
            start = previous.start_point[0]
            previous = previous.prev_named_sibling
    parent = node.parent
    if parent is not None and parent.type in ("decorated_definition", "template_declaration", "export_statement"):
        start = min(start, parent.start_point[0])
    return int(start) + 1


def _walk(node: Any, prefix: str, language: str, out: list[Definition], depth: int = 0) -> None:
    if depth > 200:  # (a pathological nesting: what lies deeper is not offered)
        return
    for child in node.named_children:
        name: str | None = None
        if child.type in _DEFINITIONS[language]:
            name = _name(child, language)
            if name and language == "go" and child.type == "method_declaration":
                receiver = _go_receiver(child)
                name = f"{receiver}.{name}" if receiver else name
        elif language in ("javascript", "typescript", "tsx") and child.type == "variable_declarator":
            value = child.child_by_field_name("value")
            if value is not None and value.type in _BOUND_VALUES:
                name = _name(child, language)
        if name:
            full = f"{prefix}.{name}" if prefix and not (language == "go" and "." in name) else name
            host = child.parent if child.type == "variable_declarator" and child.parent is not None else child
            out.append(Definition(full, _first_line(host, language), child.end_point[0] + 1, child.type))
            _walk(child, full, language, out, depth + 1)
            continue
        holder = _container(child, language)
        _walk(child, (f"{prefix}.{holder}" if prefix else holder) if holder else prefix, language, out, depth + 1)


def find_symbol(text: str, language: str, name: str, python_objects: PythonFinder | None = None) -> Definition:
    """The one definition named ``name`` (``::`` read as ``.``); :class:`TextFragError` listing every
    candidate with its lines when several match (overloads), or the closest names when none does."""
    wanted = name.replace("::", ".").strip()
    if language in _GRAMMARS:
        matches = list(_index(text, language).get(wanted, ()))
        if len(matches) == 1:  # (the common case: a lookup in the file's index, parsed once)
            return matches[0]
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
