"""AsciiDoc's includes, as Asciidoctor's preprocessor reads and shows them.

``include::file.rb[]`` at the start of a line (``\\include::`` is text), anywhere in a document (in a
listing block too): the whole file; ``lines=2..4`` (``2..``, ``2..-1``, ``5``, several joined by ``;`` or,
quoted, by ``,``: the lines in the file's order, each once); ``tag=name`` or ``tags=a;b``: the lines
between ``tag::name[]`` and ``end::name[]``, without any line that holds a tag directive (``!name`` leaves
a tag out, ``*`` is every tagged region, ``**`` every line); ``indent=N``:
the lines re-indented to N spaces. A document attribute in the file's name (``{sourcedir}/app.rb``) is
read from the ``:name: value`` entries above the include. Each line is the file's line without its end
and its trailing blanks.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import PathError, TextFragError
from ..source.cache import SourceCache
from .context import GuardContext, under_root
from .model import MAX_LINE, GuardedInclude, IncludeEngine, shift_numbers

__all__ = ["ASCIIDOC", "adoc_attributes", "resolved", "shift_asciidoc_lines"]

# Asciidoctor's TagDirectiveRx
_TAG = re.compile(r"\b(?:tag|(e)nd)::(\S+?)\[\](?=$|[ \r])")
_ATTRIBUTE = re.compile(r"\{([\w-]+)\}")
# Asciidoctor's IncludeDirectiveRx and ConditionalDirectiveRx, as one
_DIRECTIVE = re.compile(r"^(\\)?(include|ifdef|ifndef|ifeval|endif)::(?:[^\s\[](?:[^\[]*[^\s\[])?)?\[.*\]$")
#: what Antora's loader defines on every page for the older way of naming a family
_ANTORA_DIRS = {"partialsdir": "partial$", "examplesdir": "example$"}


def _target(inc: GuardedInclude, argument: str | None = None, antora: bool = False) -> str:
    """The file's name with the document attributes it names replaced; :class:`PathError` for one that is
    not defined above the include (in an Antora page, also ``{partialsdir}`` and ``{examplesdir}``)."""
    given = inc.argument if argument is None else argument
    # (the attribute entries above the include that its name uses, as the finder read them; Antora's own
    # before them)
    defined = {**(_ANTORA_DIRS if antora else {}), **dict(inc.named)}

    def value(m: re.Match[str]) -> str:
        if m.group(1) not in defined:
            raise PathError(
                f"the file's name uses the attribute {{{m.group(1)}}}, which no ':{m.group(1)}: value' "
                "entry above the include defines; textfrag cannot say which file it is (define it in the document)"
            )
        return defined[m.group(1)]

    return _ATTRIBUTE.sub(value, given)


def resolved(inc: GuardedInclude, doc_path: Path, root: str, argument: str | None = None) -> tuple[str, str]:
    """The path of the file an include names (from the document's folder, or where Antora resolves a
    resource id), and its name with the attributes replaced."""
    from .antora import component_of, resource_file

    antora = "{" in inc.argument and component_of(doc_path) is not None
    target = _target(inc, argument, antora)
    if "$" in target:  # (an Antora resource id: example$app.rb, module:partial$x.adoc, ...)
        resource = resource_file(target, doc_path, root)
        if resource is not None:
            return resource, target
    return str(doc_path.parent / target), target


def file_of(inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None) -> str:
    """The file (under the root) an include names."""
    path, target = resolved(inc, doc_path, cache.real_root, argument)
    return under_root(path, target, cache)


def _numbers(spec: str, total: int) -> list[float]:
    """``lines=`` as Asciidoctor reads it: the line numbers, sorted, each once (infinity: to the end), of a
    file of ``total`` lines (a range is cut at the file's end before it is counted: ``1..300000000`` of a
    three-line file is three numbers, not three hundred million)."""
    out: list[float] = []
    for part in re.split(r"[;,]", spec):
        part = part.strip()
        if not part:
            continue
        if ".." in part:
            a, _, b = part.partition("..")
            first = int(a.strip() or 0)
            if not b.strip() or int(b) < 0:
                out += [first, float("inf")]
            else:
                last = int(b)  # (past the end only the largest number counts: it is where "n.." starts after it)
                out += [*range(max(first, 0), min(last, total + 1) + 1), *([last] if last > total + 1 and first <= last else [])]
        else:
            out.append(int(part))
    return sorted(set(out))


def _by_lines(lines: list[str], spec: str) -> list[int]:
    """The 1-based numbers of the lines ``lines=`` selects, as Asciidoctor's reader walks the file: the
    smallest number not yet met is the one looked for; the line of that number is taken and the next is
    looked for; once the next is infinity every line left is taken. A number below 1 is never met, so the
    lines after it are never taken (``0..``, ``-1..3`` take nothing)."""
    wanted = _numbers(spec, len(lines))
    if not wanted:  # (no number at all, as in 5..3: Asciidoctor selects nothing out, the whole file is shown)
        return list(range(1, len(lines) + 1))
    chosen: list[int] = []
    at = 0
    for number in range(1, len(lines) + 1):
        if at >= len(wanted):
            break
        if wanted[at] == float("inf"):
            chosen += list(range(number, len(lines) + 1))
            break
        if wanted[at] == number:
            chosen.append(number)
            at += 1
    return chosen


def _tag_set(spec: str) -> dict[str, bool]:
    """``tag=``/``tags=`` as Asciidoctor reads it: each name selected (true) or, after ``!``, left out
    (false); ``*`` (every tagged region) and ``**`` (every line) among them."""
    out: dict[str, bool] = {}
    for name in re.split(r"[;,]", spec):
        name = name.strip()
        if name and name != "!":
            out[name[1:] if name.startswith("!") else name] = not name.startswith("!")
    return out


def _by_tags(lines: list[str], tags: dict[str, bool]) -> tuple[list[int], list[str]]:
    """The 1-based numbers of the lines the tags select, the tag directives' lines left out, as Asciidoctor's
    preprocessor selects them (the innermost tag named decides; ``*`` decides for a tag not named; outside
    every tag, ``**`` or, when no tag is selected by name, every line); and the names not found."""
    tags = dict(tags)
    if "**" in tags:
        base = tags.pop("**")
        wildcard: bool | None = tags.pop("*") if "*" in tags else base
    else:
        base = True not in tags.values()
        wildcard = tags.pop("*", None)
    select, active = base, None
    stack: list[tuple[str, bool]] = []
    used: set[str] = set()
    chosen: list[int] = []
    for n, line in enumerate(lines, 1):
        m = _TAG.search(line) if "::" in line and "[]" in line else None
        if m is None:
            if select:
                chosen.append(n)
            continue
        name = m.group(2)
        if m.group(1):  # end::name[]
            if name == active:
                stack.pop()
                active, select = stack[-1] if stack else (None, base)
        elif name in tags:
            used.add(name)
            active, select = name, tags[name]
            stack.append((active, select))
        elif wildcard is not None:
            select = False if active is not None and not select else wildcard
            active = name
            stack.append((active, select))
    return chosen, [t for t in tags if t not in used]


#: the most spaces ``indent=`` puts before a line (a larger one is a located problem, never an allocation)
MAX_INDENT = 1024


def _indented(lines: list[str], indent: int) -> list[str]:
    """Asciidoctor's ``indent=``: the common leading blanks replaced by ``indent`` spaces."""
    gutter = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [(" " * indent + line[gutter:]) if line.strip() else "" for line in lines]


def of_text(inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
    """What the include shows of a file whose text is ``text`` (its ``lines=`` moved by ``shift``), and the
    1-based lines it shows."""
    lines = [line.rstrip() for line in text.splitlines()]
    spec = inc.option("lines")
    tags = inc.option("tags") or inc.option("tag")
    if spec is not None:
        try:
            numbers = _by_lines(lines, shift_asciidoc_lines(spec, shift) if shift else spec)
        except ValueError:
            raise TextFragError(f"lines={spec} names no lines (write numbers: lines=2..4;7)") from None
    elif tags is not None:
        numbers, missing = _by_tags(lines, _tag_set(tags))
        if missing:  # (Asciidoctor warns, and shows the rest: a tag that is gone)
            said = ", ".join(f"tag::{t}[]" for t in missing)
            raise TextFragError(
                f"the file has no {said} (Asciidoctor warns and shows the rest); mark the lines, or name a tag it has"
            )
    else:
        numbers = list(range(1, len(lines) + 1))
    shown = [lines[n - 1] for n in numbers]
    indent = inc.option("indent")
    if indent is not None and indent.strip().isdigit():
        if int(indent) > MAX_INDENT:  # (a number that sizes every line is checked before it is used)
            raise TextFragError(f"indent={indent.strip()} is more than textfrag indents a line by (at most {MAX_INDENT})")
        shown = _indented(shown, int(indent))
    return "\n".join(_preprocessed(shown, numbers)), tuple(numbers)


def _preprocessed(shown: list[str], numbers: list[int]) -> list[str]:
    """The included lines as Asciidoctor's preprocessor reads them in turn: an escaped directive
    (``\\include::``, ``\\ifdef::``) loses its backslash; a directive of its own (a nested include, a
    conditional) is one textfrag does not follow, and is said rather than passed over."""
    out = shown
    for k, line in enumerate(shown):
        if "::" not in line or not line.endswith("]"):
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            continue
        if m.group(1):
            out = out if out is not shown else list(shown)
            out[k] = line[1:]
        else:
            raise TextFragError(
                f"line {numbers[k]} of what it includes is an AsciiDoc {m.group(2)} directive, which Asciidoctor follows "
                f"and textfrag does not yet ({line.strip()}); escape it (\\{m.group(2)}::) if it is meant as text"
            )
    return out


_LINE_NUMBERS = re.compile(r"(?<![-\d])\d+")


def shift_asciidoc_lines(spec: str, d: int) -> str:
    """``lines=2..4;7`` with every line number moved by ``d`` (``-1``, the end, kept)."""
    return shift_numbers(spec, d, _LINE_NUMBERS)


def shiftable(inc: GuardedInclude) -> bool:
    """Whether the include selects lines by number (its numbers can follow moved text)."""
    return inc.option("lines") is not None


# Asciidoctor's IncludeDirectiveRx, and its attribute entries (:name: value, :name!: unsets it)
_ADOC_INCLUDE = re.compile(r"^(\\)?include::([^\s\[](?:[^\[]*[^\s\[])?)\[(.*)\]$")
_ADOC_ENTRY = re.compile(r"^:(!?)([\w-]+)(!?):(?:[ \t]+(.*))?$")
_ADOC_NAME = re.compile(r"[\w-]+")
_ADOC_REFERENCE = re.compile(r"\{([\w-]+)\}")
#: the delimited blocks whose lines are verbatim (no attribute entry there): listing, literal, passthrough,
#: fenced; and the comment block, whose lines the preprocessor does not read at all
_ADOC_VERBATIM = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|`{3})$")
_ADOC_COMMENT = re.compile(r"^/{4,}$")


def adoc_attributes(attrlist: str) -> list[tuple[str, str, int]]:
    """(name, value, the value's offset) of each ``name=value`` of an include's attribute list, in one pass: a
    value in quotes may hold commas; blanks around names and values are not part of them."""
    out = []
    k, n = 0, len(attrlist)
    while k < n:
        while k < n and attrlist[k] in " \t":
            k += 1
        m = _ADOC_NAME.match(attrlist, k)
        j = m.end() if m else k
        while j < n and attrlist[j] in " \t":
            j += 1
        if m is None or j >= n or attrlist[j] != "=":
            k = _after_comma(attrlist, j)
            continue
        j += 1
        while j < n and attrlist[j] in " \t":
            j += 1
        if j < n and attrlist[j] in "'\"":
            close = attrlist.find(attrlist[j], j + 1)
            if close >= 0:
                out.append((m.group(0), attrlist[j + 1 : close], j + 1))
                k = _after_comma(attrlist, close + 1)
                continue
        end = _after_comma(attrlist, j)
        value = attrlist[j:end].rstrip(",").rstrip()
        out.append((m.group(0), value, j))
        k = end
    return out


def _after_comma(text: str, k: int) -> int:
    comma = text.find(",", k)
    return len(text) if comma < 0 else comma + 1


def _adoc_conditional(line: str) -> tuple[str, str, str] | None:
    """(directive, target, text in brackets) of a preprocessor conditional (Asciidoctor's
    ConditionalDirectiveRx, read without backtracking); None when the line is not one, or is escaped."""
    head, sep, rest = line.partition("::")
    if not sep or head not in ("ifdef", "ifndef", "ifeval", "endif") or not line.endswith("]"):
        return None
    target, bracket, body = rest.partition("[")
    if not bracket or any(c.isspace() for c in target):
        return None
    return head, target, body[:-1]


#: attributes Asciidoctor defines in every HTML build, whatever the document says
_ADOC_INTRINSIC = frozenset({"asciidoctor", "asciidoctor-version", "backend-html5", "basebackend-html", "htmlsyntax"})


def _adoc_holds(directive: str, target: str, defined: dict[str, str]) -> bool | None:
    """Whether an ``ifdef``/``ifndef`` keeps its lines, as Asciidoctor decides from the document's attributes
    (``a,b``: any of them defined, ``a+b``: all); None for ``ifeval`` (not decided here: its lines are read)."""
    if directive == "ifeval":
        return None
    names = target.split("+") if "+" in target else target.split(",")
    present = [n in defined or n in _ADOC_INTRINSIC for n in names if n]
    hit = all(present) if "+" in target else any(present)
    return hit if directive == "ifdef" else not hit


def asciidoc_includes(text: str, doc: str) -> list[GuardedInclude]:
    """The includes of an AsciiDoc document, read as Asciidoctor's preprocessor and parser read it: its lines
    without their trailing blanks; not in a comment block, nor in a region an ``ifdef``/``ifndef`` skips;
    the attribute entries above each include (not those in a skipped region, a comment or a verbatim block)
    for the names of its file."""
    out = []
    defined: dict[str, str] = {}
    conditions: list[bool] = []  # (each open conditional: whether its lines are skipped)
    block = ""  # (the delimiter of the verbatim or comment block the line is in)
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset
        offset += len(line) + 1
        if len(line) > MAX_LINE:
            continue
        bare = line.rstrip()
        if block:
            if bare == block:
                block = ""
                continue
            if block[0] == "/" or not bare.startswith(("include::", "ifdef::", "ifndef::", "ifeval::", "endif::")):
                continue  # (a comment is not read; a verbatim block's lines are text, but for the preprocessor's)
        conditional = _adoc_conditional(bare) if bare.startswith(("if", "endif")) else None
        if conditional is not None:
            directive, target, body = conditional
            if directive == "endif":
                if conditions:
                    conditions.pop()
            elif not body or directive == "ifeval":  # (with text in the brackets it is a line of its own)
                # (inside a skipped region a conditional only nests; outside, it is decided)
                conditions.append(any(conditions) or _adoc_holds(directive, target, defined) is False)
            continue
        if any(conditions):
            continue  # (skipped: Asciidoctor drops the line)
        if not block:
            if _ADOC_COMMENT.match(bare):
                block = bare
                continue
            if _ADOC_VERBATIM.match(bare):
                block = bare
                continue
        if bare.startswith(":") and not block:
            entry = _ADOC_ENTRY.match(bare)
            if entry is not None:
                if entry.group(1) or entry.group(3):  # (:name!: and :!name: unset it)
                    defined.pop(entry.group(2), None)
                else:  # (a value's own attribute references are replaced when it is defined, as Asciidoctor does)
                    value = entry.group(4) or ""
                    defined[entry.group(2)] = _ADOC_REFERENCE.sub(lambda r: defined.get(r.group(1), r.group(0)), value)
            continue
        if not bare.startswith(("include::", "\\include::")):
            continue
        m = _ADOC_INCLUDE.match(bare)
        if m is None or m.group(1):
            continue  # (escaped: text)
        options: list[tuple[str, str]] = []
        spans: list[tuple[str, int, int]] = []
        at = start + m.start(3)
        for name, value, v_at in adoc_attributes(m.group(3)):
            options.append((name, value))
            spans.append((name, at + v_at, at + v_at + len(value)))
        span = (start + m.start(2), start + m.end(2))
        used = {r.group(1) for r in _ADOC_REFERENCE.finditer(m.group(2))}
        out.append(
            GuardedInclude(
                doc,
                number,
                1,
                ASCIIDOC,
                m.group(2),
                tuple(options),
                start,
                start + len(bare),
                span,
                tuple(spans),
                named=tuple((k, v) for k, v in defined.items() if k in used),
            )
        )
    return out


class AsciiDoc(IncludeEngine):
    """Asciidoctor's ``include::file[lines=2..4]`` (``tag=``, ``tags=``, ``indent=``; Antora's resource ids)."""

    kind = "asciidoc"
    numbers_option = "lines"

    def find(self, text: str, doc: str, suffix: str) -> list[GuardedInclude]:
        return asciidoc_includes(text, doc) if "include::" in text else []

    def key(self, inc: GuardedInclude) -> str:
        said = ",".join(f"{k}={v}" for k, v in inc.options if k in ("lines", "tag", "tags", "indent"))
        # (the values of the attributes its file's name uses: one name under two values is two includes)
        values = "".join(f" {{{k}={v}}}" for k, v in inc.named)
        return f"include::{inc.argument}[{said}]{values}"

    def file_of(
        self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext, argument: str | None = None
    ) -> str:
        return file_of(inc, doc_path, cache, ctx, argument)

    def would_be(self, inc: GuardedInclude, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        try:
            return os.path.realpath(resolved(inc, doc_path, cache.real_root)[0])
        except TextFragError:
            return None

    def renamed(self, inc: GuardedInclude, new_real: str, doc_path: Path, cache: SourceCache, ctx: GuardContext) -> str | None:
        if "{" in inc.argument:
            return None  # (a name made of attributes is left for the writer to say)
        family, dollar, rel = inc.argument.partition("$")
        if dollar and "/" not in family:  # (an Antora resource id stays one: example$app.rb -> example$main.rb)
            old = self.would_be(inc, doc_path, cache, ctx) or ""
            folder = old[: len(old) - len(rel.lstrip("/"))] if old.endswith(rel.lstrip("/")) else ""
            if folder and new_real.startswith(folder):
                return f"{family}${Path(os.path.relpath(new_real, folder)).as_posix()}"
        return super().renamed(inc, new_real, doc_path, cache, ctx)

    def of_text(self, inc: GuardedInclude, text: str, ctx: GuardContext, shift: int = 0) -> tuple[str, tuple[int, ...] | None]:
        return of_text(inc, text, ctx, shift)

    def shiftable(self, inc: GuardedInclude, ctx: GuardContext) -> bool:
        return shiftable(inc)

    def shift(self, spec: str, d: int) -> str:
        return shift_asciidoc_lines(spec, d)


#: the engine's one object
ASCIIDOC = AsciiDoc()
