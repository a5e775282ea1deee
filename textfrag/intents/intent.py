"""Selection intents: what a quote means to select, in literalinclude's words.

A reference pins its text with an RFC 5147 range and integrity checks; that is what is verified, so a
build fails when the file changes. An *intent* says what the range was chosen to be: a Python object
(``:pyobject: Class.method``) or the lines between markers (``:start-after:``, ``:start-at:``,
``:end-before:``, ``:end-at:``), with the meaning and in the order Sphinx's ``literalinclude`` gives
them: the object first, then the start marker, then the end marker, each within what the one before
kept. An intent never widens or moves what is shown: the engines check that it still selects the pinned
lines (while the file is current), and ``textfrag migrate`` uses it to pin the range in the first place.

Lines here are literalinclude's: the file's text with its line endings read as ``\\n``, split where
Python's ``str.splitlines`` splits. Where that differs from RFC 5147's lines (a form feed, a vertical
tab, a Unicode line or paragraph separator), :func:`intent_lines` refuses rather than guess.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..errors import TextFragError
from ..source.store import current as current_store

__all__ = [
    *("Intent", "INTENT_OPTIONS", "disagreement", "intent_lines", "parse_line_spec"),
    *("python_objects", "region_lines", "region_marker", "section_lines", "signature_cut", "splitlines_agree", "trim_blank"),
]

#: the directive options that state an intent, in the order literalinclude applies them
INTENT_OPTIONS = ("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "section", "region", "symbol")

#: what is kept per quoted file's text (its objects, whether its lines agree): as many files as a large
#: build quotes in turn (a run quoting 1,000 files round-robin parsed each file per reference with 32),
#: and no more than the texts the build's SourceCache holds anyway
_PER_FILE = 4096

# characters str.splitlines() ends a line at that RFC 5147 (CR, LF, NEL) does not
_OTHER_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\u2028", "\u2029")


@dataclass(frozen=True)
class Intent:
    """What a quote was chosen to be (options of the ``txtfrag`` directive, as literalinclude's)."""

    pyobject: str | None = None
    start_after: str | None = None
    start_at: str | None = None
    end_before: str | None = None
    end_at: str | None = None
    #: literalinclude's ``:lines:`` within what the others keep (1-based, ``1,3-5,7-``)
    lines: str | None = None
    #: pymdownx.snippets' named section: the lines between ``--8<-- [start:NAME]`` and
    #: ``--8<-- [end:NAME]``, without the blank lines at either end (a fence drops them)
    section: str | None = None
    #: a named region between markers of the conventions real projects use (:func:`region_lines`)
    region: str | None = None
    #: a definition in any language textfrag reads (textfrag.intents.symbols): ``Class.method``, ``pkg::f``
    symbol: str | None = None
    #: the language the symbol is looked for in, when the directive says it (else from the file name)
    language: str | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> Intent | None:
        """The intent stated by directive options (None when they state none); :class:`TextFragError`
        for a pair literalinclude refuses too."""
        given = {name: options[name] for name in INTENT_OPTIONS if options.get(name) not in (None, "")}
        if not given:
            return None
        for a, b in (("start-after", "start-at"), ("end-before", "end-at")):
            if a in given and b in given:
                raise TextFragError(f"use :{a}: or :{b}:, not both")
        values = {name.replace("-", "_"): str(value) for name, value in given.items()}
        if "symbol" in given and options.get("language") not in (None, ""):
            values["language"] = str(options["language"])
        return cls(**values)

    def options(self) -> list[tuple[str, str]]:
        """The directive options that state this intent, in literalinclude's order."""
        return [(name, value) for name, value in zip(INTENT_OPTIONS, _values(self), strict=True) if value is not None]

    def __str__(self) -> str:
        return " ".join(f":{name}: {value}" for name, value in self.options())


@lru_cache(maxsize=_PER_FILE)
def _agrees(text: str) -> bool:
    return splitlines_agree(text)


def splitlines_agree(text: str) -> bool:
    """Whether literalinclude's lines of ``text`` are its RFC 5147 lines (no form feed and the like)."""
    return not any(ch in text for ch in _OTHER_BREAKS)


def _alone(intent: Intent) -> str | None:
    """``symbol`` or ``pyobject`` when the intent is that and nothing else (no markers, no :lines:, no
    section or region): then its lines come from the file's index of definitions, found once."""
    stated = [name for name, value in zip(INTENT_OPTIONS, _values(intent), strict=True) if value is not None]
    return stated[0] if stated in (["symbol"], ["pyobject"]) else None


def _language(path: str, intent: Intent) -> str:
    """The language a symbol is looked for in: ``:language:``, else the file's name's."""
    from .symbols import language_of

    language = language_of(path, intent.language)
    if language is None:
        raise TextFragError(f"the language of {path or 'the file'} is not one textfrag reads definitions in; give :language:")
    return language


def _values(intent: Intent) -> tuple[str | None, ...]:
    return (
        *(intent.pyobject, intent.start_after, intent.start_at, intent.end_before, intent.end_at),
        *(intent.lines, intent.section, intent.region, intent.symbol),
    )


def intent_lines(text: str, intent: Intent | None, lines: list[int] | None = None, *, path: str = "") -> list[int]:
    """The 1-based numbers of the file's lines that literalinclude keeps for ``intent`` and then
    ``lines`` (1-based positions within what the intent kept, as its ``:lines:`` counts), in order.

    ``text`` is the file's decoded text. :class:`TextFragError` says why nothing can be selected (an
    object or a marker not found, a line past the end), in literalinclude's terms.
    """
    alone = _alone(intent) if lines is None and intent is not None else None
    if alone is not None and _agrees(text):  # one definition alone: its lines from the file's index, found once
        assert intent is not None  # (no per-reference split of the file)
        if alone == "symbol":
            from .symbols import find_symbol

            found = find_symbol(text, _language(path, intent), str(intent.symbol), python_objects)
            return list(range(found.first, found.last + 1))
        objects = python_objects(text)
        if intent.pyobject not in objects:
            raise TextFragError(
                f"no Python object named {intent.pyobject!r} in the file{_did_you_mean(intent.pyobject, objects)}"
            )
        first, last, _ = objects[str(intent.pyobject)]
        return list(range(first, last + 1))
    if not splitlines_agree(text):
        raise TextFragError(
            "the file has a form feed, vertical tab or Unicode line separator, which literalinclude counts as a "
            "line ending and RFC 5147 does not: its line numbers would disagree"
        )
    content = text.replace("\r\n", "\n").replace("\r", "\n").splitlines()
    kept = list(range(1, len(content) + 1))
    if intent is not None and intent.section is not None:
        kept = trim_blank(content, section_lines(content, intent.section))
    if intent is not None and intent.region is not None:
        kept = region_lines(content, intent.region)
    if intent is not None and intent.symbol is not None:
        from .symbols import find_symbol  # (only a symbol intent pays for tree-sitter)

        found = find_symbol(text, _language(path, intent), intent.symbol, python_objects)
        kept = kept[found.first - 1 : found.last]
    if intent is not None:
        if intent.pyobject is not None:
            objects = python_objects(text)
            if intent.pyobject not in objects:
                raise TextFragError(
                    f"no Python object named {intent.pyobject!r} in the file{_did_you_mean(intent.pyobject, objects)}"
                )
            first, last, _ = objects[intent.pyobject]
            kept = kept[first - 1 : last]
        start, inclusive = (intent.start_at, True) if intent.start_at is not None else (intent.start_after, False)
        if start is not None:
            at = next((i for i, n in enumerate(kept) if start in content[n - 1]), None)
            if at is None:
                raise TextFragError(f"the {'start-at' if inclusive else 'start-after'} text {start!r} is not in the file")
            kept = kept[at:] if inclusive else kept[at + 1 :]
        end, inclusive = (intent.end_at, True) if intent.end_at is not None else (intent.end_before, False)
        if end is not None:
            # end-before never ends before the first line kept (literalinclude looks on past it)
            hits = [i for i, n in enumerate(kept) if end in content[n - 1] and (inclusive or i > 0)]
            if not hits:
                raise TextFragError(f"the {'end-at' if inclusive else 'end-before'} text {end!r} is not in the file")
            kept = kept[: hits[0] + 1] if inclusive else kept[: hits[0]]
    if intent is not None and intent.lines is not None:
        lines = parse_line_spec(intent.lines, len(kept)) if lines is None else lines
    if lines is not None:
        past = [n for n in lines if n > len(kept)]
        if past:
            raise TextFragError(f"line {past[0]} is past the end of what is selected ({len(kept)} lines)")
        kept = [kept[n - 1] for n in lines]
    if not kept:
        raise TextFragError("no line is selected")
    return kept


_SECTION = re.compile(r"-{1,}8<-{1,}[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\]", re.IGNORECASE)


def section_lines(content: list[str], name: str) -> list[int]:
    """1-based numbers of the lines of pymdownx.snippets' section ``name`` (between its start and end
    markers); :class:`TextFragError` when there is none."""
    start = None
    for number, line in enumerate(content, 1):
        m = _SECTION.search(line) if "8<-" in line else None
        if m is None or m.group(2) != name:
            continue
        if m.group(1).lower() == "start" and start is None:
            start = number
        elif m.group(1).lower() == "end" and start is not None:
            return list(range(start + 1, number))
        elif m.group(1).lower() == "end":
            break
    if start is None:
        named = {m.group(2) for line in content if "8<-" in line for m in [_SECTION.search(line)] if m is not None}
        raise TextFragError(f"no section {name!r} (--8<-- [start:{name}]) in the file{_did_you_mean(name, named)}")
    return list(range(start + 1, len(content) + 1))


# region markers, each on a line of its own behind any line-comment syntax (#, //, --, ;, %, ', <!--, /*):
# Google's samples ([START name] / [END name]), VS Code, C# and VitePress (#region name / #endregion),
# Bluehawk (:snippet-start: name / :snippet-end:), pymdownx.snippets ([start:name] / [end:name]), mdBook
# (ANCHOR: name / ANCHOR_END: name), AsciiDoc (tag::name[] / end::name[]) and javadoc's snippets
# (@start region=name / @end, or @end region=name); and Doxygen's (//! [name] ... //! [name], below)
_LEADER = r"^[ \t]*(?:[^\w\s]{1,4}|REM\b|rem\b)?[ \t]*"
_REGION_START = re.compile(
    _LEADER + r"(?:\[START[ \t]+([^\]\s]+)[ \t]*\]|#region\b[ \t]*([^\s*>-]*)|:snippet-start:[ \t]*(\S+)"
    r"|(?:-{1,}8<-{1,}[ \t]+)?\[[ \t]*start[ \t]*:[ \t]*([^\]\s]+)[ \t]*\]"
    r"|ANCHOR:[ \t]*([\w-]+)|tag::([^\[\s]+)\[[^\]]*\]"
    r"|@start\b[^\n]*?\bregion[ \t]*=[ \t]*[\"']?([\w.-]+)[\"']?)"
)
_REGION_END = re.compile(
    _LEADER + r"(?:\[END[ \t]+([^\]\s]+)[ \t]*\]|#endregion\b[ \t]*([^\s*>-]*)|:snippet-end:[ \t]*(\S*)"
    r"|(?:-{1,}8<-{1,}[ \t]+)?\[[ \t]*end[ \t]*:[ \t]*([^\]\s]+)[ \t]*\]"
    r"|ANCHOR_END:[ \t]*([\w-]+)|end::([^\[\s]+)\[[^\]]*\]"
    r"|@end\b[ \t]*(?:region[ \t]*=[ \t]*[\"']?)?([\w.-]*)[\"']?)"
)
#: Doxygen's snippet marker: the same line opens and closes a region (\\snippet file name)
_DOXYGEN = re.compile(r"^[ \t]*(?://[/!]|##|#!)[ \t]*\[([^\]\n]+)\][ \t]*$")
_CONVENTIONS = 7


def region_marker(line: str, *, end: bool = False) -> tuple[int, str] | None:
    """(convention, name) of the region start (or ``end``) marker on ``line`` (the name "" for an unnamed
    end); None when the line is no such marker."""
    return _marker(_REGION_END if end else _REGION_START, line)


def _marker(pattern: re.Pattern[str], line: str) -> tuple[int, str] | None:
    m = pattern.match(line)
    if m is None:
        return None
    for k in range(1, _CONVENTIONS + 1):
        if m.group(k) is not None:
            return k, m.group(k)
    return None


def region_lines(content: list[str], name: str) -> list[int]:
    """1-based numbers of the lines of the region ``name``: between its start marker and the end marker
    that closes it (by name, or the innermost open one for an unnamed ``#endregion``/``:snippet-end:``),
    the marker lines left out. :class:`TextFragError` when there is none, or more than one (never guessed)."""
    found: list[tuple[int, int]] = []
    open_: list[tuple[int, str, int]] = []  # (convention, name, line) of regions not closed yet
    names: set[str] = set()
    for number, line in enumerate(content, 1):
        if not any(c in line for c in "[#:@"):
            continue
        start = _marker(_REGION_START, line)
        if start is not None:
            open_.append((start[0], start[1], number))
            names.add(start[1])
            continue
        end = _marker(_REGION_END, line)
        if end is None:
            doxygen = _DOXYGEN.match(line) if "[" in line else None
            if doxygen is None:
                continue
            if not any(c == _CONVENTIONS + 1 and n == doxygen.group(1) for c, n, _ in open_):
                # (the first of a pair opens it, the second closes it)
                open_.append((_CONVENTIONS + 1, doxygen.group(1), number))
                names.add(doxygen.group(1))
                continue
            end = (_CONVENTIONS + 1, doxygen.group(1))
        convention, closing = end
        for k in range(len(open_) - 1, -1, -1):
            if open_[k][0] == convention and (closing in ("", open_[k][1])):
                _, opened, at = open_.pop(k)
                if opened == name:
                    found.append((at, number))
                break
    if len(found) > 1:
        where = ", ".join(f"lines {a + 1}-{b - 1}" for a, b in found)
        raise TextFragError(f"the region {name!r} is marked {len(found)} times ({where}); name one that is marked once")
    if not found:
        if any(n == name for _, n, _ in open_):
            raise TextFragError(f"the region {name!r} is opened but never closed")
        known = ", ".join(sorted(n for n in names if n)) or "none"
        raise TextFragError(f"no region named {name!r} in the file{_did_you_mean(name, names)} (regions: {known})")
    a, b = found[0]
    return list(range(a + 1, b))


def trim_blank(content: list[str], numbers: list[int]) -> list[int]:
    """``numbers`` without the blank lines at either end (what a fenced code block shows)."""
    first, last = 0, len(numbers)
    while first < last and not content[numbers[first] - 1].strip():
        first += 1
    while last > first and not content[numbers[last - 1] - 1].strip():
        last -= 1
    return numbers[first:last]


def parse_line_spec(spec: str, total: int) -> list[int]:
    """literalinclude's ``:lines:`` (``1,3-5,7-``, ``-3``): 1-based numbers in the order written;
    :class:`TextFragError` for a malformed one."""
    out: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        try:
            if part.isdigit():
                out.append(int(part))
            elif part.startswith("-") and part[1:].strip().isdigit():
                out.extend(range(1, int(part[1:]) + 1))
            elif part.endswith("-") and part[:-1].strip().isdigit():
                out.extend(range(int(part[:-1]), total + 1))
            elif "-" in part:
                a, b = part.split("-", 1)
                first, last = int(a), int(b)
                if first > last:
                    raise ValueError
                out.extend(range(first, last + 1))
            else:
                raise ValueError
        except ValueError:
            raise TextFragError(f"invalid :lines: {spec!r}") from None
        if out and (out[-1] > 10**7 or out[0] < 1):
            raise TextFragError(f"invalid :lines: {spec!r}")
    return out


@lru_cache(maxsize=_PER_FILE)  # per file's text: many quotes of one module parse it once
def python_objects(text: str) -> dict[str, tuple[int, int, int]]:
    """Dotted names of the classes and functions of a Python module -> their first and last line and
    the line of their name,
    as literalinclude's ``:pyobject:`` finds them: from the first decorator to the last line of the
    body (trailing comments and blank lines not included); functions nested directly in a function
    are not listed.

    The module's layout answers this without its syntax tree (textfrag.intents.python_outline, five times faster:
    ``check`` verifies a ``:pyobject:`` of every one of thousands of files), also for a module this
    Python's parser refuses (a Python 2 example); the parser answers what the layout reading declines,
    with the same table, and :class:`TextFragError` when the text is not Python that parses."""
    store = current_store()
    if store is not None:
        kept = _python_table(store.get("py", text))
        if kept is not None:
            return kept
    found = _python_objects(text)
    if store is not None:
        store.put("py", text, found)
    return found


def _python_table(value: object) -> dict[str, tuple[int, int, int]] | None:
    """A table of Python definitions as the store gives it back (JSON), or None for anything else."""
    try:
        table = {name: (a, b, c) for name, (a, b, c) in value.items()}  # type: ignore[attr-defined]
    except (AttributeError, TypeError, ValueError):
        return None
    if all(type(a) is int and type(b) is int and type(c) is int for a, b, c in table.values()):
        return table
    return None


def _python_objects(text: str) -> dict[str, tuple[int, int, int]]:
    """:func:`python_objects`, found from the text."""
    from .python_outline import outline

    fast = outline(text)
    if fast is not None:
        return fast
    if len(text) < _PARSE_HERE_BELOW:
        return _parsed_python(text)
    from .bounded import can_bound, in_child
    from .limits import PARSE_MEMORY, parse_seconds

    if not can_bound():
        return _parsed_python(text)
    # (Python's parser is linear: its time limit grows with the module, a second a 100 KB, so that only
    # memory, which is the same on every machine, refuses a large module)
    seconds = max(parse_seconds(), len(text) / 100_000)
    return in_child(
        _parsed_python,
        text,
        seconds=seconds,
        memory=PARSE_MEMORY,
        too_long=f"Python's parser took more than {seconds:.0f} s to read this module, and textfrag stopped it "
        "(TEXTFRAG_PARSE_SECONDS sets the limit); quote it by its lines instead",
        too_large=f"Python's parser needed more than {PARSE_MEMORY >> 20} MB of memory to read this module, and "
        "textfrag stopped it; quote it by its lines instead",
    )


#: a module this large (characters) that the layout reading declines is parsed in a child process, bounded
#: in memory and time as tree-sitter's parses are (a module's syntax tree takes about 100 times its size)
_PARSE_HERE_BELOW = 1 << 20


def _parsed_python(text: str) -> dict[str, tuple[int, int, int]]:
    """:func:`python_objects` from Python's parser (what the layout reading declines)."""
    try:
        tree = ast.parse(text.replace("\r\n", "\n").replace("\r", "\n"))
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise TextFragError(f"the file is not Python that parses ({exc.__class__.__name__}: {exc})") from None
    found: dict[str, tuple[int, int, int]] = {}

    def visit(body: list[ast.stmt], context: tuple[str, ...], in_function: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = (*context, node.name)
                is_function = not isinstance(node, ast.ClassDef)
                if not (in_function and is_function):
                    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                    found[".".join(name)] = (first, node.end_lineno or node.lineno, node.lineno)
                visit(node.body, name, is_function)
            else:
                for field in ("body", "handlers", "cases", "orelse", "finalbody"):  # in the order of the text
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        blocks = [getattr(n, "body", None) for n in inner] if field in ("handlers", "cases") else [inner]
                        for block in blocks:
                            if isinstance(block, list):
                                visit(block, context, False)

    visit(tree.body, (), False)
    return found


def signature_cut(text: str, name_line: int) -> bool:
    """Whether Sphinx's ``:pyobject:`` ends the object whose name is on ``name_line`` at that line: it
    does when the body starts on the line of the signature's colon (``def f(...) -> int: ...``), also
    when the signature spans several lines. ``textfrag migrate`` reports such includes instead of
    converting them, since literalinclude shows a definition cut short there. Reads from the name's
    line to the colon only."""
    import io
    import tokenize

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[name_line - 1 :]
    depth, colon = 0, False
    try:
        for tok in tokenize.generate_tokens(
            io.StringIO("\n".join(line.lstrip() if n == 0 else line for n, line in enumerate(lines))).readline
        ):
            if colon:
                return tok.type not in (tokenize.COMMENT, tokenize.NEWLINE)
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            elif tok.type == tokenize.OP and tok.string == ":" and depth == 0:
                colon = True
    except (tokenize.TokenError, SyntaxError):
        return False
    return False


def _did_you_mean(name: object, names: Iterable[str]) -> str:
    """``; did you mean 'Shelf.add'?`` for the names closest to a name that is not there ("" for none)."""
    close = difflib.get_close_matches(str(name), sorted(n for n in names if n), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def disagreement(text: str, first: int, last: int, intent: Intent, *, path: str = "") -> str | None:
    """Why a pinned range (lines ``first`` to ``last``, 1-based) is not what ``intent`` selects in the
    file's current ``text`` (the file at ``path``); None when they agree. For a file not changed since the pin."""
    try:
        kept = intent_lines(text, intent, path=path)
    except TextFragError as why:
        return f"{intent} selects nothing: {why.message}"
    if (kept[0], kept[-1]) == (first, last):
        return None
    said = f"the reference pins lines {first}-{last}, but {intent} selects lines {kept[0]}-{kept[-1]}"
    command = _make_command(path, intent)
    return said if command is None else f"{said}: `{command}` prints the reference that pins them"


def _make_command(path: str, intent: Intent) -> str | None:
    """The ``textfrag make`` command that prints the reference pinning what ``intent`` selects in the
    file at ``path`` (None where make cannot say it: a ``:lines:`` within the intent's, a symbol in a
    language the file's name does not tell)."""
    import shlex

    options = intent.options()
    if not path or any(name == "lines" for name, _ in options) or intent.language is not None:
        return None
    flags = " ".join(f"--{name} {shlex.quote(value)}" for name, value in options)
    return f"textfrag make {shlex.quote(path)} {flags}"
