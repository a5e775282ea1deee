"""migrate's side for pymdownx.snippets and markdown-include: the code fences that hold one include,
and the txtfrag image that shows the same excerpt."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import TextFragError
from ..reference.selection import select_lines, whole
from ..source.cache import SourceCache
from ..verdict.quoting import make_reference
from .literalinclude import Include, Outcome, lines_from, spans_of

_CODE_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*(.*)$")


_SNIPPET_LINE = re.compile(r"""^([ \t]*)-{1,}8<-{1,}[ \t]+("(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?')$""")


_SNIPPET_BLOCK = re.compile(r"^[ \t]*-{1,}8<-{1,}$")


# a line pymdownx.snippets takes for an include: not escaped (`;--8<--` is shown as `--8<--`); a section's
# start and end markers in a page are text (they mean something only in an included file)
_ANY_SNIPPET = re.compile(r"""^[ \t]*-{1,}8<-{1,}(?:[ \t]+(?:"[^"\n\r]+"|'[^'\n\r]+'))?$""")


# in an included file, what pymdownx.snippets changes as it includes it: includes, escapes and section markers
_INCLUDED_NOTATION = re.compile(
    r"""^[ \t]*;*-{1,}8<-{1,}(?:[ \t]+(?:"[^"\n\r]+"|'[^'\n\r]+'))?$|-{1,}8<-{1,}[ \t]+\[[ \t]*(?:start|end)""", re.I
)


_MARKDOWN_INCLUDE = re.compile(r"^([ \t]*)\{!\s*(.+?)\s*!(?:\blines\b=([0-9 -]+))?\}[ \t]*$")


_FENCE_OPTION = re.compile(r"""([A-Za-z][\w-]*)(?:=("[^"]*"|'[^']*'|[^\s"']+))?""")


_FENCE_KEYS = ("title", "hl_lines", "linenums")


@dataclass
class SnippetSettings:
    """What migrate needs of a site's ``pymdownx.snippets`` and ``pymdownx.highlight`` settings."""

    bases: list[Path]
    linenums: bool = False  # pymdownx.highlight's linenums: every block numbered
    dedent_subsections: bool = False
    include_base: Path = Path(".")  # markdown-include's base_path
    heading_offset: bool = False  # markdown-include's headingOffset or inheritHeadingDepth is set


def find_snippet_fences(text: str, doc: str) -> list[Include]:
    """Fenced code blocks whose only content is one ``--8<--`` snippet (inline, or a block of one path)."""
    out: list[Include] = []
    lines = list(lines_from(text, 0))
    i = 0
    while i < len(lines):
        start, line = lines[i]
        m = _CODE_FENCE.match(line)
        if m is None or (m.group(2)[0] == "`" and "`" in m.group(3)):
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).rstrip(" \t")
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j][1]):
            j += 1
        if j == len(lines):
            break  # an unclosed fence runs to the end: nothing after it is Markdown
        body = [content for _, content in lines[i + 1 : j] if content.strip()]
        end = lines[j][0] + len(lines[j][1])
        path, kind = None, "snippet"
        included = _MARKDOWN_INCLUDE.match(body[0]) if len(body) == 1 else None
        if included is not None:
            # markdown-include's {!file!} and {!file!lines=3-9}: converted as a snippet, from its own base path
            kind, spec = "include", included.group(3)
            one_range = re.fullmatch(r"\s*([0-9]+)-([0-9]+)\s*", spec) if spec is not None else None
            if included.group(1) != indent or (spec is not None and one_range is None):
                path = ""  # indented within the fence, or several lines and ranges: reported
            else:
                path = included.group(2) + (f":{one_range.group(1)}:{one_range.group(2)}" if one_range else "")
        elif len(body) == 1:
            s = _SNIPPET_LINE.match(body[0])
            if s is not None and s.group(1) == indent:
                path = s.group(2)[1:-1].strip()
        elif len(body) == 3 and _SNIPPET_BLOCK.match(body[0]) and _SNIPPET_BLOCK.match(body[2]):
            path = body[1].strip() if body[1].startswith(indent) and not body[1][len(indent) :].startswith((" ", "\t")) else None
        elif any(_ANY_SNIPPET.search(b) for b in body):
            path = ""  # snippet notation that is not one file alone: reported
        if path is not None:
            out.append(Include(doc, i + 1, start, end, path, {"(info)": info, "(kind)": kind}, indent, indent, fence))
        i = j + 1
    return out


def _fence_options(info: str) -> dict[str, str]:
    """A fence's language and options (``python title="a.py" hl_lines="2 3"`` or ``{ .python title=... }``)."""
    options: dict[str, str] = {}
    body = info.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1].strip()
        for token in re.findall(r"""\S+=(?:"[^"]*"|'[^']*'|\S+)|\S+""", body):
            if token.startswith(".") and "lang" not in options:
                options["lang"] = token[1:]
            elif token.startswith("."):  # (another class: Material's .annotate, a theme's own)
                options[f"(class {token})"] = ""
            elif "=" in token:
                key, value = token.split("=", 1)
                options[key] = value.strip("\"'")
            else:
                options[f"({token})"] = ""
        return options
    first, _, rest = body.partition(" ")
    if first and "=" not in first:
        options["lang"] = first
    else:
        rest = body
    for m in _FENCE_OPTION.finditer(rest):
        options[m.group(1)] = (m.group(2) or "").strip("\"'")
    return options


def convert_snippet(include: Include, cache: SourceCache, settings: SnippetSettings, doc_text: str) -> Outcome:
    """The txtfrag image that shows what a snippet fence shows, or why there is none."""
    outcome = Outcome(include)
    try:
        outcome.replacement = _convert_snippet(include, cache, settings, doc_text, outcome.notes)
    except TextFragError as why:
        outcome.reason = why.message
    return outcome


def _convert_snippet(include: Include, cache: SourceCache, settings: SnippetSettings, doc_text: str, notes: list[str]) -> str:
    if not include.argument:
        raise TextFragError(
            "the fence holds more than one include, other text beside it, or several line ranges (one range converts)"
        )
    if include.options.get("(kind)") == "include" and settings.heading_offset:
        raise TextFragError("markdown-include's headingOffset/inheritHeadingDepth change lines that start with #")
    options = _fence_options(include.options["(info)"])
    unknown = sorted(k for k in options if k not in ("lang", *_FENCE_KEYS))
    classes = [k[len("(class ") : -1] for k in unknown if k.startswith("(class ")]
    if classes:  # (a class styles the block: the excerpt would drop it, Material's code annotations with it)
        raise TextFragError(
            f"the fence has the class {classes[0]}, which an excerpt does not carry"
            + (" (Material's code annotations would become plain comments)" if classes[0] == ".annotate" else "")
        )
    if unknown:
        raise TextFragError(f"the fence option {unknown[0].strip('()')} has no textfrag equivalent")
    target = include.argument
    path, lines, section = _snippet_target(target)
    if target.lower().startswith(("http://", "https://")):  # (a URL snippet: a file of a declared source)
        rel = _declared(cache, path)
    else:
        markdown_include = include.options.get("(kind)") == "include"
        bases = [settings.include_base] if markdown_include else settings.bases
        found = next((base / path for base in bases if (base / path).is_file()), None)
        if found is None:
            raise TextFragError(f"no such file under the {'include' if markdown_include else 'snippets'}' base_path: {path}")
        real_root = os.path.realpath(cache.root)
        real = os.path.realpath(found)
        if not real.startswith(real_root.rstrip(os.sep) + os.sep):
            raise TextFragError(f"{path} is outside the textfrag root ({cache.root}); give --root a folder that holds it")
        rel = os.path.relpath(real, real_root).replace(os.sep, "/")
    source = cache.get(rel, rel)
    text = source.text
    if "\t" in text:
        raise TextFragError("the file has tabs, which Python-Markdown expands in a snippet and textfrag shows as they are")
    content = text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if text else []
    from ..intents.intent import section_lines, trim_blank

    if section is not None:
        if settings.dedent_subsections:
            raise TextFragError("dedent_subsections is on: a section is dedented there, not in textfrag")
        numbers = trim_blank(content, section_lines(content, section))
    else:
        first, last = lines if lines is not None else (1, len(content))
        if lines is not None and settings.dedent_subsections:
            raise TextFragError("dedent_subsections is on: a line range is dedented there, not in textfrag")
        numbers = trim_blank(content, list(range(max(1, first), min(last, len(content)) + 1)))
    if not numbers:
        raise TextFragError("the snippet shows no text")
    spaces = [n for n in range(numbers[0], numbers[-1] + 1) if content[n - 1] and not content[n - 1].strip(" ")]
    if spaces:
        raise TextFragError(
            f"line {spaces[0]} of the file has only spaces, which Python-Markdown empties in a snippet "
            "and textfrag shows as they are"
        )
    notation = [n for n in numbers if _INCLUDED_NOTATION.search(content[n - 1]) or "{!" in content[n - 1]]
    if notation:
        raise TextFragError(f"line {notation[0]} of the file is include notation, which the include does not show as it is")
    whole_file = section is None and lines is None and numbers[0] == 1 and numbers[-1] == source.line_count
    # "file:4" runs to the end of the file, as it grows: the reference keeps an open end (line=3,)
    to_end = section is None and (lines is None or lines[1] >= 10**9) and numbers[-1] == source.line_count
    selection = whole(source) if whole_file else select_lines(source, numbers[0], numbers[-1])
    ref = make_reference(selection, lines=True, open_end=to_end)
    attrs = [f".{options.get('lang') or 'text'}"]
    title = options.get("title", "")
    if '"' in title:
        raise TextFragError("the title has a double quote, which an attribute list cannot hold")
    attrs.append(f'title="{title}"')
    if section is not None:
        attrs.append(f'section="{section}"')
    if options.get("hl_lines", "").strip():
        shown = len(numbers)
        marks: list[int] = []
        for part in options["hl_lines"].split():
            a, _, b = part.partition("-")
            if not a.isdigit() or (b and not b.isdigit()):
                raise TextFragError(f"hl_lines {options['hl_lines']!r} is not a list of lines")
            marks.extend(range(int(a), int(b or a) + 1))
        dropped = sorted({n for n in marks if n > shown or n < 1})
        if dropped:
            notes.append(
                f'hl_lines="{options["hl_lines"]}": line {dropped[0]} is past the end of the excerpt ({shown} lines); '
                "pymdownx ignores it, so it is dropped"
            )
        kept = sorted({n for n in marks if 1 <= n <= shown})
        if kept:
            attrs.append(f'hl_lines="{spans_of(kept).replace(",", " ")}"')
    linenums = options.get("linenums") or ("1" if settings.linenums else "")
    if linenums:
        if not linenums.isdigit():
            raise TextFragError(f"linenums {linenums!r} is not a number")
        attrs.append(f'linenums="{linenums}"')
    image = f"{include.indent}![](txtfrag:{ref}){{ {' '.join(attrs)} }}"
    # alone in its paragraph, as a block excerpt is: blank lines around it where the fence had none
    head = doc_text[: include.start]
    before = head.removesuffix("\n").removesuffix("\r").rsplit("\n", 1)[-1] if head.endswith("\n") else ""
    after_end = doc_text.find("\n", include.end) if doc_text.find("\n", include.end) >= 0 else len(doc_text)
    after = doc_text[after_end + 1 :].split("\n", 1)[0] if after_end < len(doc_text) else ""
    prefix = "\n" if before.strip() else ""
    suffix = "\n" if after.strip() else ""
    return prefix + image + suffix


def _snippet_target(target: str) -> tuple[str, tuple[int, int] | None, str | None]:
    """``file``, ``file:10:20``, ``file:10`` (to the end), ``file::20``, ``file:name`` (a section); read
    from the right, in linear time."""
    last_colon = target.rfind(":")
    if last_colon <= 0:
        return target, None, None
    tail = target[last_colon + 1 :]
    if re.fullmatch(r"[a-z][-_0-9a-z]*", tail, re.IGNORECASE):
        return target[:last_colon], None, tail
    if "," in tail or tail.startswith("-"):
        raise TextFragError(f"{target}: several or negative line ranges have no textfrag equivalent")
    if tail and not tail.isdigit():
        return target, None, None  # a colon in the file's name
    before = target.rfind(":", 0, last_colon)
    middle = target[before + 1 : last_colon] if before > 0 else None
    if middle is not None and (middle.isdigit() or middle == ""):
        path, first, last = target[:before], middle, tail
    elif middle is not None and (middle.startswith("-") or "," in middle):
        raise TextFragError(f"{target}: several or negative line ranges have no textfrag equivalent")
    else:
        path, first, last = target[:last_colon], tail, ""
    return path, (int(first) if first else 1, int(last) if last else 10**9), None


def _declared(cache: SourceCache, url: str) -> str:
    """``//NAME/PATH`` for a snippet's URL of a file of a declared source, at the revision the docs follow
    (a raw.githubusercontent.com, GitHub, GitLab or Codeberg URL): the same text, read from the cache."""
    from ..verdict.permalinks import declared_file, is_followed

    name, path, rev = declared_file(cache, url, url)
    if not is_followed(cache, name, rev):
        record = cache.sources.record(name)
        raise TextFragError(
            f"the URL names {rev}, but the docs follow {record.rev} of the source {name}: move the source to it "
            f"first (`textfrag sources update {name} --to {rev}`), or write the URL at {record.rev}"
        )
    return f"//{name}/{path}"
