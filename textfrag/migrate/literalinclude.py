"""``textfrag migrate``: turn ``literalinclude`` directives into ``txtfrag`` references that show the
same excerpts (text, line numbers, emphasized lines, caption or none, language), pinned with length and
md5.

reStructuredText (``.. literalinclude:: PATH``) and MyST (```` ```{literalinclude} PATH ````, with
``:option: value`` lines) are read where Sphinx reads them: never inside code, comments or literal
blocks. What literalinclude selects is worked out as Sphinx does (:mod:`textfrag.intents.intent`); the
selection options that say why the lines were chosen (``:pyobject:``, the markers) stay on the
directive as its intent. An include that would look different after conversion is left as it is, with
the reason.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..documents.found import trimmed
from ..documents.scan import RST_SUFFIXES, code_directives
from ..errors import TextFragError
from ..intents.intent import INTENT_OPTIONS, Intent, intent_lines, parse_line_spec, python_objects, signature_cut
from ..reference.selection import select_lines, whole
from ..source.cache import Source, SourceCache
from ..verdict.quoting import make_reference
from ..verdict.written_options import myst_scalar

__all__ = ["Include", "Outcome", "find_includes", "convert", "highlight_language_of"]

# options a txtfrag directive takes as they are (literalinclude's meaning)
_KEPT = ("encoding", "dedent", "tab-width", "class", "name", "prepend", "append", "force")
# options whose effect textfrag cannot reproduce
_REFUSED: dict[str, str] = {
    # (mystmd's literalinclude, not Sphinx's)
    "filename": "mystmd shows it as a title above the block, which a txtfrag block does not have (its :caption: is a caption)",
}
# (a value runs to the end of its line, its trailing blanks taken off after: a lazy value before "[ \t]*$"
# backtracks in quadratic time on a run of blanks)
_OPTION = re.compile(r"^([ \t]+):([\w-]+):(?:[ \t]+(.*))?$")
_MYST_OPTION = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t]+(.*))?$")
#: a block quote's markers at the start of a line (``> ``, ``> > ``)
_QUOTE_MARKERS = re.compile(r"(?:[ ]{0,3}>[ ]?)+")
# the language a page sets for what follows: rST's ``.. highlight:: x``, MyST's ```` ```{highlight} x ````
_RST_HIGHLIGHT = re.compile(
    r"^[ \t]*(?:\.\.[ ]+highlight[ ]?::|(?:`{3,}|~{3,})\{highlight\})[ \t]*([^\s`]+)", re.IGNORECASE | re.MULTILINE
)


@dataclass
class Include:
    """One ``literalinclude`` as written: where, its argument and options, and the text it spans."""

    doc: str  # as shown
    line: int
    start: int  # offsets of the whole directive (its lines, options included) in the document's text
    end: int
    argument: str
    options: dict[str, str]
    indent: str  # of the directive's first line
    option_indent: str  # of its option lines
    fence: str  # MyST's opening fence; "" in reStructuredText
    quote: str = ""  # MyST: the block quote's markers its lines start with (``> ``)


@dataclass
class Outcome:
    """What became of one include: its replacement, or why it is left as it is; notes on what was
    dropped because literalinclude ignored it too."""

    include: Include
    replacement: str | None = None
    reason: str | None = None
    #: the replacement says ``:caption:`` (empty) only to show no caption, as literalinclude did: a line that
    #: ``textfrag_caption = "none"`` in conf.py makes unnecessary
    empty_caption: bool = False
    notes: list[str] = field(default_factory=list)


def find_includes(text: str, doc: str, suffix: str) -> list[Include]:
    """The ``literalinclude`` directives of a document (rST or MyST by ``suffix``), outside code."""
    out: list[Include] = []
    raw = _raw_html(text) if suffix.lower() not in RST_SUFFIXES and "<" in text else []
    for d in code_directives(text, suffix):
        if d.name != "literalinclude":
            continue
        if any(a <= d.offset < z for a, z in raw):
            continue  # (in an HTML block, which MyST keeps as raw HTML: shown as text, never run)
        if d.fence:
            include = _myst_include(text, doc, d.line, d.offset, d.fence)
        else:
            include = _rst_include(text, doc, d.line, d.offset)
        if include is not None:
            out.append(include)
    return out


def _raw_html(text: str) -> list[tuple[int, int]]:
    """The spans of a MyST page that CommonMark keeps as raw HTML (its HTML blocks, code aside)."""
    from ..documents.raw_html import commonmark_html_spans
    from ..documents.scan import scan_markdown_lines

    comments = [m.span() for m in re.finditer(r"<!--.*?(?:-->|\Z)", text, re.DOTALL)] if "<!--" in text else []
    return [*comments, *commonmark_html_spans(text, scan_markdown_lines(text, "<text>")[1])]


def lines_from(text: str, offset: int) -> Iterator[tuple[int, str]]:
    """(offset, line without its ending) from ``offset`` on."""
    pos = offset
    while pos < len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl + 1
        yield pos, text[pos:end].rstrip("\r\n")
        pos = end


def _rst_include(text: str, doc: str, number: int, offset: int) -> Include | None:
    lines = lines_from(text, offset)
    _, first = next(lines)
    m = re.match(r"^([ \t]*)\.\.[ ]+literalinclude[ ]?::[ \t]*(.*)$", first, re.IGNORECASE)
    if m is None:
        return None
    indent, argument = m.group(1), m.group(2).strip()
    options: dict[str, str] = {}
    option_indent = indent + "   "
    end = offset + len(first)
    last: str | None = None  # the option a deeper-indented line goes on with
    last_indent = 0
    for at, line in lines:
        o = _OPTION.match(line)
        deeper = len(line) - len(line.lstrip(" \t"))
        if o is None:
            # docutils' directive grammar: the argument may stand on the lines after the marker (up to the
            # first option or blank line), and an option's value goes on over lines indented deeper than it
            if not line.strip() or deeper <= len(indent):
                break
            if last is not None and deeper > last_indent:
                options[last] = f"{options[last]} {line.strip()}".strip()
            elif not options:
                argument = f"{argument} {line.strip()}".strip()
            else:
                break
            end = at + len(line)
            continue
        if len(o.group(1)) <= len(indent):
            break
        if not options:
            option_indent = o.group(1)
        last, last_indent = o.group(2), len(o.group(1))
        options[last] = (o.group(3) or "").rstrip(" \t")
        end = at + len(line)
    return Include(doc, number, offset, end, argument, options, indent, option_indent, "")


def _myst_include(text: str, doc: str, number: int, offset: int, fence: str) -> Include | None:
    lines = lines_from(text, offset)
    _, first = next(lines)
    # (a directive in a block quote: each of its lines carries the quote's markers, which end it when they stop)
    prefix = _QUOTE_MARKERS.match(first)
    quoted = prefix.group(0).count(">") if prefix is not None else 0
    first = first[prefix.end() :] if prefix is not None else first
    markers = re.compile(r"^(?:[ ]{0,3}>[ ]?){" + str(quoted) + "}") if quoted else None
    m = re.match(r"^([ \t]*)(`{3,}|~{3,}|:{3,})\{literalinclude\}[ \t]*(.*)$", first, re.IGNORECASE)
    if m is None:
        return None
    indent, argument = m.group(1), m.group(3).strip()
    options: dict[str, str] = {}
    end = None
    blank = False
    yaml = None  # options in a YAML block (``---`` lines around them): None before, True in it, False after
    for at, line in lines:
        if markers is not None:
            q = markers.match(line)
            if q is None:
                end = at  # (the quote ends, and the fence with it)
                break
            line = line[q.end() :]
        stripped = line.strip()
        if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]) and not yaml:
            end = at + len(line)
            break
        if not stripped and not yaml:  # blank lines alone are no body (MyST-Parser and mystmd read none); options end
            blank = True
            continue
        if stripped == "---" and (yaml or (yaml is None and not options and not blank)):
            yaml = not yaml
            continue
        if yaml:
            y = _YAML_OPTION.match(line)
            if y is None:
                if stripped and not stripped.startswith("#"):
                    return Include(doc, number, offset, offset, argument, {"(body)": stripped}, indent, indent, fence)
                continue
            options[y.group(1)] = yaml_scalar(line[slice(*trimmed(y, 2))] if y.group(2) is not None else "")
            continue
        o = _MYST_OPTION.match(line)
        if o is None or blank or yaml is False:
            return Include(doc, number, offset, offset, argument, {"(body)": stripped}, indent, indent, fence)
        options[o.group(1)] = (o.group(2) or "").rstrip(" \t")
    if end is None:
        return None
    quote = prefix.group(0) if prefix is not None and quoted else ""
    return Include(doc, number, offset, end, argument, options, indent, indent, fence, quote)


#: an option in a MyST directive's YAML block: ``name: value`` (a value on one line)
_YAML_OPTION = re.compile(r"^[ \t]*([\w-]+)[ \t]*:(?:[ \t]+(.*))?\r?$")


def yaml_scalar(value: str) -> str:
    """A YAML scalar on one line as text, as MyST-Parser and mystmd read an option's value
    (textfrag.verdict.written_options.myst_scalar)."""
    return myst_scalar(value.strip())[0]


def highlight_language_of(text: str, before: int, default: str) -> str:
    """The language literalinclude uses without ``:language:``: the last ``.. highlight::`` before it
    in the document, else the build's ``highlight_language``."""
    found = default
    for m in _RST_HIGHLIGHT.finditer(text, 0, before):
        found = m.group(1)
    return found


def convert(
    include: Include,
    doc_path: Path,
    cache: SourceCache,
    *,
    srcdir: Path,
    doc_text: str,
    highlight_language: str = "default",
    caption_setting: str = "path",
) -> Outcome:
    """The ``txtfrag`` directive that shows what ``include`` shows, or why there is none.

    It writes only what differs from what the txtfrag directive does anyway in that project: no
    ``:language:`` when the page's language (``.. highlight::``, else ``highlight_language``) is the one
    literalinclude used, no empty ``:caption:`` when the project's ``textfrag_caption`` is ``"none"``."""
    outcome = Outcome(include)
    if include.quote:  # (its lines carry the quote's markers: rewritten whole, it would leave the quote)
        outcome.reason = "it stands in a block quote: migrate leaves it as it is (guard mode protects it)"
        return outcome
    try:
        outcome.replacement = _convert(include, doc_path, cache, srcdir, doc_text, highlight_language, caption_setting, outcome)
    except TextFragError as why:
        outcome.reason = why.message
    return outcome


def _convert(
    include: Include,
    doc_path: Path,
    cache: SourceCache,
    srcdir: Path,
    doc_text: str,
    highlight_language: str,
    caption_setting: str,
    outcome: Outcome,
) -> str:
    notes = outcome.notes
    options = dict(include.options)
    if "label" in options and "name" not in options:  # mystmd's name for :name: (both engines read :name:)
        options["name"] = options.pop("label")
    if "(body)" in options:
        raise TextFragError(f"the directive has a body or options textfrag does not read ({options['(body)']!r})")
    if not include.argument or " " in include.argument:
        raise TextFragError("the file name is not a single path on the directive's line")
    for name, why in _REFUSED.items():
        if name in options:
            raise TextFragError(f":{name}: cannot be converted: {why}")
    unknown = sorted(
        set(options) - {*_KEPT, *_REFUSED, "diff", "pyobject", "start-after", "start-at", "end-before", "end-at"} - _DISPLAY
    )
    if unknown:
        raise TextFragError(f"unknown option :{unknown[0]}: (literalinclude would refuse it too)")
    if options.get("encoding"):  # read as literalinclude reads it; the directive keeps :encoding:
        cache = cache.with_charset(options["encoding"])
    arg = include.argument
    rel = _under_root(arg, doc_path, srcdir, cache)
    source = cache.get(rel, rel)
    text = source.text
    if "diff" in options:
        old_rel = _under_root(options["diff"], doc_path, srcdir, cache)
        return _convert_diff(include, options, source, old_rel, cache, caption_setting, outcome)
    for a, b in (
        ("lineno-match", "lineno-start"),
        ("lineno-match", "prepend"),
        ("lineno-match", "append"),
        ("start-after", "start-at"),
        ("end-before", "end-at"),
    ):
        if a in options and b in options:
            raise TextFragError(f":{a}: and :{b}: together (literalinclude refuses them too)")
    intent = Intent.from_options({k: v for k, v in options.items() if k != "lines"})
    if intent is not None and intent.pyobject is not None:
        objects = python_objects(text)
        if intent.pyobject in objects:
            first, last, name_line = objects[intent.pyobject]
            if last > name_line and signature_cut(text, name_line):
                raise TextFragError(
                    f"literalinclude shows only lines {first}-{name_line} of {intent.pyobject} (lines {first}-{last}): "
                    "Sphinx takes the first ':' of a multi-line signature for its end; textfrag would show all of it"
                )
    whole_file = intent is None and not options.get("lines")
    total = len(intent_lines(text, intent)) if text else 0
    wanted = parse_line_spec(options["lines"], total) if options.get("lines") else None
    if wanted is not None:
        past = [n for n in wanted if n > total]
        if past:
            notes.append(
                f":lines: {options['lines']}: line {past[0]} is past the end ({total} lines), ignored as literalinclude does"
            )
            wanted = [n for n in wanted if n <= total]
    gaps = False
    if not text:
        selection = whole(source)
        kept: list[int] = []
    else:
        kept = intent_lines(text, intent, wanted)
        gaps = kept != list(range(kept[0], kept[0] + len(kept)))
        if gaps and ("lineno-match" in options or "prepend" in options or "append" in options):
            raise TextFragError(
                f":lines: {options.get('lines')} selects lines that are not one run, with :lineno-match:, :prepend: or :append:"
            )
        selection = whole(source) if whole_file else select_lines(source, kept[0], kept[-1])
    dedent = options.get("dedent", "").strip()
    if dedent.isdigit() and kept:
        content = text.replace("\r\n", "\n").replace("\r", "\n").splitlines()
        width = int(options["tab-width"]) if options.get("tab-width", "").strip().isdigit() else None
        cut = [n for n in kept if (content[n - 1].expandtabs(width) if width else content[n - 1])[: int(dedent)].strip()]
        if cut:
            raise TextFragError(
                f":dedent: {dedent} would cut text from line {cut[0]} (literalinclude warns and cuts it; textfrag refuses)"
            )
    runs_to_end = bool(text) and kept[-1] == source.line_count
    open_end = runs_to_end and (whole_file or _open_ended(options, intent, total))
    ref = make_reference(selection, lines=True, open_end=open_end)
    out: list[tuple[str, str]] = []
    intent = _as_region(intent, text, kept)
    if intent is not None or gaps:  # (:lines: alone in one run is what the pin says; else it is an intent)
        out.extend(intent.options() if intent is not None else [])
        if wanted is not None:
            out.append(("lines", options["lines"] if wanted == parse_line_spec(options["lines"], total) else spans_of(wanted)))
    page_language = highlight_language_of(doc_text, include.start, highlight_language)
    language = options.get("language") or page_language
    # the txtfrag directive without :language: takes the page's language as literalinclude does, except
    # Sphinx's "default" (then it guesses from the file name): say the language only where that differs
    if language != page_language or page_language in ("", "default"):
        out.append(("language", language))
    # literalinclude's caption: none, the text given, or (given empty) the file name as written
    _caption(options, arg, caption_setting, outcome, out)
    if "lineno-match" in options:
        out.append(("lineno-match", ""))
    elif "lineno-start" in options or "linenos" in options:
        out.append(("lineno-start", options.get("lineno-start") or "1"))  # literalinclude numbers from 1
    if options.get("emphasize-lines"):
        # literalinclude counts the lines it shows, :prepend: and :append: included
        added = 1 if options.get("prepend") else 0
        shown = (len(kept) or 1) + added + (1 if options.get("append") else 0)
        marks = parse_line_spec(options["emphasize-lines"], shown)
        if any(n == 1 for n in marks) and added or any(n == shown for n in marks) and options.get("append"):
            raise TextFragError(":emphasize-lines: marks the :prepend: or :append: line, which textfrag numbers apart")
        marks = [n - added for n in marks]
        shown -= added + (1 if options.get("append") else 0)
        dropped = [n for n in marks if n > shown]
        if dropped:
            notes.append(
                f":emphasize-lines: {options['emphasize-lines']}: line {dropped[0]} is past the end of the excerpt "
                f"({shown} lines); literalinclude ignores it, so it is dropped"
            )
        absolute = sorted({kept[n - 1] if kept else n for n in marks if n <= shown})
        if absolute:
            out.append(("emphasize-lines", spans_of(absolute)))
    for name in _KEPT:
        if name in options:
            out.append((name, options[name]))
    return _render(include, ref, out)


def _as_region(intent: Intent | None, text: str, kept: list[int]) -> Intent | None:
    """``:start-after: [START x]`` with ``:end-before: [END x]`` (or any region convention's pair) is the
    region ``x``: said as ``:region: x`` when it selects the same lines."""
    if intent is None or intent.start_after is None or intent.end_before is None:
        return intent
    if intent.pyobject or intent.start_at or intent.end_at or intent.section or intent.lines:
        return intent
    from ..intents.intent import region_lines, region_marker

    start, end = region_marker(intent.start_after.strip()), region_marker(intent.end_before.strip(), end=True)
    if start is None or end is None or start[0] != end[0] or end[1] not in ("", start[1]):
        return intent
    content = text.replace("\r\n", "\n").replace("\r", "\n").splitlines()
    try:
        if region_lines(content, start[1]) != kept:
            return intent
    except TextFragError:
        return intent
    return Intent(region=start[1])


def _under_root(arg: str, doc_path: Path, srcdir: Path, cache: SourceCache) -> str:
    """The path under the root of a file as Sphinx finds it: "/x" from the source folder, "x" from the
    document's folder; :class:`TextFragError` when it is outside the root."""
    target = (srcdir / arg.lstrip("/")) if arg.startswith("/") else (doc_path.parent / arg)
    real_root = os.path.realpath(cache.root)
    real = os.path.realpath(target)
    if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
        raise TextFragError(f"{arg} is outside the textfrag root ({cache.root}); give --root a folder that holds it")
    rel = os.path.relpath(os.path.normpath(os.path.abspath(target)), os.path.abspath(cache.root)).replace(os.sep, "/")
    if rel.startswith("../"):
        rel = os.path.relpath(real, real_root).replace(os.sep, "/")
    return rel


def _caption(options: dict[str, str], arg: str, caption_setting: str, outcome: Outcome, out: list[tuple[str, str]]) -> None:
    """literalinclude's caption: none, the text given, or (given empty) the file name as written; none is
    said only where the project's ``textfrag_caption`` would otherwise show the path and lines."""
    if "caption" in options:
        out.append(("caption", options["caption"] or arg))
    elif caption_setting != "none":
        out.append(("caption", ""))
        outcome.empty_caption = True


def _convert_diff(
    include: Include,
    options: dict[str, str],
    source: Source,
    old_rel: str,
    cache: SourceCache,
    caption_setting: str,
    outcome: Outcome,
) -> str:
    """``:diff: OLD``: both whole files, pinned; the directive shows literalinclude's unified diff."""
    for name in ("emphasize-lines", "prepend", "append", "dedent", "lines", "lineno-start", "lineno-match", *INTENT_OPTIONS):
        if name in options:
            raise TextFragError(f":diff: with :{name}: (literalinclude refuses it, or numbers the diff's own lines)")
    old = cache.get(old_rel, old_rel)
    out: list[tuple[str, str]] = [("diff", make_reference(whole(old), lines=True, open_end=True))]
    _caption(options, include.argument, caption_setting, outcome, out)
    if "linenos" in options:
        out.append(("linenos", ""))
    for name in _KEPT:
        if name in options:
            out.append((name, options[name]))
    return _render(include, make_reference(whole(source), lines=True, open_end=True), out)


# display options handled by _convert itself
_DISPLAY = {"language", "caption", "linenos", "lineno-start", "lineno-match", "emphasize-lines", "lines"}


def _open_ended(options: dict[str, str], intent: Intent | None, total: int) -> bool:
    """Whether literalinclude's selection is meant to run to the end: no end marker, and ``:lines:``
    (if any) ending in ``N-``."""
    if intent is not None and (intent.pyobject or intent.end_before or intent.end_at):
        return False
    spec = options.get("lines", "").strip()
    return not spec or spec.endswith("-")


def spans_of(numbers: list[int]) -> str:
    """``3,5-7``: sorted numbers as literalinclude's line lists write them."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(parts)


def _render(include: Include, ref: str, options: list[tuple[str, str]]) -> str:
    """The txtfrag directive in the include's syntax and indentation."""
    if include.fence:
        head = f"{include.indent}{include.fence}{{txtfrag}} {ref}"
        body = [f"{include.indent}:{name}:{' ' + value if value else ''}" for name, value in options]
        return "\n".join([head, *body, include.indent + include.fence])
    head = f"{include.indent}.. txtfrag:: {ref}"
    body = [f"{include.option_indent}:{name}:{' ' + value if value else ''}" for name, value in options]
    return "\n".join([head, *body])


# -- pymdownx.snippets -------------------------------------------------------------------------------
