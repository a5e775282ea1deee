"""What a change does to quotes, as people and machines read it: text, GitHub workflow commands (notes on
the changed file's lines), JSON (textfrag/schemas/impact.schema.json), SARIF (the changed line, the
document as its related location) and Markdown (a pull request's comment or a job's summary)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import quote

from ..errors import inert_json, spell, spell_inline, spell_lines
from ..report.formats import JSON, MARKDOWN, SARIF, OutputFormat, escape_data, escape_property, sarif_document
from .changes import Changes
from .predict import EFFECTS, Impact

__all__ = [
    "MARKER",
    "impact_document",
    "impact_github",
    "impact_json",
    "impact_markdown",
    "impact_sarif",
    "impact_text",
    "summary",
]

#: the first line of the Markdown report: what a pull request's comment is found by, to be updated
MARKER = "<!-- textfrag impact -->"
SCHEMA_VERSION = 1


#: each effect as the summary counts it
_COUNTED = {
    "changed": "changed",
    "moved": "moved",
    "renamed": "renamed",
    "deleted": "deleted",
    "unknown": "stale, moved or changed unknown",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def shown_path(changes: Changes, path: str) -> str:
    """A path of the work tree as the reports name it: relative to the current folder when under it."""
    rel = os.path.relpath(changes.top / path)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def summary(changes: Changes, impacts: Sequence[Impact], quotes: int, stale_before: int, follows: int = 0) -> str:
    """``textfrag impact: A..B changes N quoted files: ...`` (one line)."""
    files = {i.path for i in impacts}
    counted: Counter[str] = Counter(i.effect for i in impacts)
    said = f"textfrag impact: {changes.label} changes {_plural(len(changes.files) + len(changes.added), 'file')}"
    if not impacts:
        said += (
            f"; it touches none of the {_plural(quotes, 'quote')} of the files it changes" if quotes else "; no quote names them"
        )
    else:
        parts = [f"{counted[e]} {_COUNTED[e]}" for e in EFFECTS if counted[e]]
        said += f", {_plural(len(files), 'quoted file')}: {_plural(len(impacts), 'quote')} touched ({', '.join(parts)})"
    if follows:
        said += f"; {_plural(follows, 'quote')} re-pinned with the change (current after it)"
    if stale_before:
        said += (
            f"; {_plural(stale_before, 'quote')} of these files stale before the change and after it (`textfrag check` says why)"
        )
    return said


def _where(i: Impact) -> str:
    site = f"{i.site}: " if i.site is not None else ""
    return f"{site}{i.doc}:{i.line}" + (f" ({i.heading})" if i.heading else "") + (f" {i.url}" if i.url else "")


def _lines(first: int, last: int) -> str:
    if not first:
        return ""
    return f"line {first}" if first == last else f"lines {first}-{last}"


def _what(i: Impact, changes: Changes) -> str:
    """One sentence: what the change does to the quote, in the file's terms."""
    path = shown_path(changes, i.path)
    quoted = f"{path} {_lines(i.first, i.last)}".rstrip()
    if i.effect == "changed":
        return f"the change edits the quoted {quoted}"
    if i.effect == "moved" and i.new_first == i.first:
        return f"the quoted {quoted} keep their text and their lines (the file changed elsewhere: its length and md5 did)"
    if i.effect == "moved":
        now = f", now {_lines(i.new_first, i.new_last)}" if i.new_first else ""
        return f"the quoted {quoted} keep their text at other lines{now}"
    if i.effect == "renamed":
        new = shown_path(changes, i.new_path or "")
        if i.needs_review:
            return f"{path} is renamed to {new}, where the quote no longer resolves"
        return f"{path} is renamed to {new}; the quoted text is the same there"
    if i.effect == "deleted":
        return f"{path} is deleted"
    return f"the quoted {quoted} are stale after the change; whether moved or changed cannot be told"


def impact_text(changes: Changes, impacts: Sequence[Impact], *, diffs: bool = True) -> list[str]:
    """The report for a person: per quote, its place and effect, what happens, the diff on the quoted
    lines, and what to run."""
    out: list[str] = []
    for i in impacts:
        site = f"{i.site}: " if i.site is not None else ""
        out.append(f"{spell(site + i.doc)}:{i.line}: {i.said}: {spell(i.text)}")
        if i.heading:
            out.append(f"  shown under {spell(i.heading)!r}" + (f" ({spell(i.url)})" if i.url else ""))
        out.append(f"  {spell(_what(i, changes))}")
        if diffs and i.diff():
            out += ["  " + line for line in spell_lines(i.diff()).splitlines()]
        out.append(f"  then: {spell(i.command)}")
    return out


def impact_github(changes: Changes, impacts: Sequence[Impact]) -> list[str]:
    """A workflow command per quote: a note on the changed file's lines that names the document which
    shows them (``quoted by docs/tutorial.md:42 (Your first quote)``); a deleted file's on the document."""
    out: list[str] = []
    for i in impacts:
        level = "warning" if i.needs_review else "notice"
        where = i.annotated()
        if where is None:
            props = [f"file={escape_property(spell(i.doc))}", f"line={i.line}", f"col={max(1, i.column)}"]
            body = f"{i.text}: {i.message}"
        else:
            path, first, last = where
            props = [f"file={escape_property(spell(shown_path(changes, path)))}", f"line={first}", f"endLine={last}"]
            body = f"quoted by {_where(i)}: {_what(i, changes)}; then: {i.command}"
        props.append(f"title={escape_property(f'textfrag: {i.said}')}")
        out.append(f"::{level} {','.join(props)}::{escape_data(spell(body))}")
    return out


def _record(i: Impact, changes: Changes) -> dict[str, object]:
    where = i.annotated()
    return {
        "effect": i.effect,
        "said": i.said,
        "kind": i.kind,
        "document": i.doc,
        "line": i.line,
        "column": i.column,
        "heading": i.heading,
        "quote": i.text,
        "path": shown_path(changes, i.path),
        "new_path": shown_path(changes, i.new_path) if i.new_path is not None else None,
        "lines": [i.first, i.last] if i.first else None,
        "new_lines": [i.new_first, i.new_last] if i.new_first else None,
        "hunks": [h.header() for h in i.hunks],
        "source_lines": [where[1], where[2]] if where is not None else None,
        "message": i.message,
        "repair": i.repair,
        "command": i.command,
        "needs_review": i.needs_review,
        "diff": i.diff() or None,
        **({"site": i.site, "url": i.url} if i.site is not None else {}),
    }


def impact_json(changes: Changes, impacts: Sequence[Impact], said: str, stale_before: int, follows: int = 0) -> str:
    """The whole report as one JSON object (textfrag/schemas/impact.schema.json)."""
    document = {
        "version": SCHEMA_VERSION,
        "command": "impact",
        "change": {"label": changes.label, "base": changes.base, "head": changes.head},
        "files": sorted(shown_path(changes, p) for p in [*changes.files, *changes.added]),
        "summary": said,
        "counts": {e: sum(i.effect == e for i in impacts) for e in EFFECTS} | {"stale_before": stale_before, "follows": follows},
        "quotes": [_record(i, changes) for i in impacts],
    }
    return inert_json(json.dumps(document, ensure_ascii=False, indent=2))


_RULES = {
    "changed": (
        "QuotedTextChanged",
        "The change edits lines a document quotes: the quote will be stale.",
        "Review the new text, then `textfrag update --accept --write DOC:LINE` re-pins the quote.",
    ),
    "moved": (
        "QuotedLinesShifted",
        "The change moves lines a document quotes; their text is the same.",
        "`textfrag update --write DOC:LINE` rewrites the reference.",
    ),
    "renamed": (
        "QuotedFileRenamed",
        "The change renames a file a document quotes; the quoted text is the same.",
        "`textfrag update --write DOC:LINE` rewrites the reference.",
    ),
    "deleted": ("QuotedFileDeleted", "The change deletes a file a document quotes.", "Quote another file, or remove the quote."),
    "unknown": (
        "QuoteStale",
        "The change makes a quote stale, and whether it moved or changed cannot be told.",
        "Review it, then `textfrag update --accept --write DOC:LINE`.",
    ),
}


def impact_sarif(changes: Changes, impacts: Sequence[Impact]) -> str:
    """SARIF 2.1.0 for code scanning: each quote's result on the changed file's lines, its document as the
    related location (a deleted file's on the document)."""
    kinds = sorted({i.effect for i in impacts})
    rules = [
        {
            "id": f"textfrag/impact-{k}",
            "name": _RULES[k][0],
            "shortDescription": {"text": _RULES[k][1]},
            "fullDescription": {"text": _RULES[k][1]},
            "help": {"text": _RULES[k][2], "markdown": _RULES[k][2]},
            "defaultConfiguration": {"level": "note" if k in ("moved", "renamed") else "warning"},
        }
        for k in kinds
    ]
    results = []
    for i in impacts:
        doc = {"artifactLocation": {"uri": quote(i.doc)}, "region": {"startLine": i.line, "startColumn": max(1, i.column)}}
        where = i.annotated()
        if where is None:
            location = doc
        else:
            path, first, last = where
            location = {
                "artifactLocation": {"uri": quote(shown_path(changes, path))},
                "region": {"startLine": first, "endLine": last},
            }
        results.append(
            {
                "ruleId": f"textfrag/impact-{i.effect}",
                "ruleIndex": kinds.index(i.effect),
                "level": "warning" if i.needs_review else "note",
                "message": {"text": f"quoted by [{i.doc}:{i.line}](0): {_what(i, changes)}"},
                "locations": [{"physicalLocation": location}],
                "relatedLocations": [{"id": 0, "physicalLocation": doc, "message": {"text": i.heading or i.doc}}],
            }
        )
    return sarif_document(rules, results)


def _md(text: str, most: int = 0) -> str:
    """Text in a Markdown table cell or a sentence, never at a line's start: no markup, no HTML, no line break
    (its control characters and an older workflow command's ``##[`` spelled out); ``most``: cut to that many
    characters, with "…"."""
    text = spell_inline(text)
    if most and len(text) > most:
        text = text[: most - 1] + "…"
    out = text.replace("\\", "\\\\").replace("&", "&amp;").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
    for ch in "`*_[]":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def _code(text: str) -> str:
    """Text as a code span in a table cell, that no backtick in it can end early and no ``|`` can split
    (GitHub's tables read a ``|`` in a code span as the cell's end unless it is escaped; the escape is not
    shown)."""
    text = spell_inline(text).replace("\n", " ")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _sentence(said: str) -> str:
    """The summary line as the comment's closing sentence."""
    text = said.removeprefix("textfrag impact: ")
    return _md(text[:1].upper() + text[1:]) + "."


#: what one comment holds at most: GitHub refuses a comment over 65,536 characters
MAX_ROWS, MAX_DIFFS, MAX_CHARS, MAX_HEADING = 100, 20, 60_000, 200


def impact_markdown(changes: Changes, impacts: Sequence[Impact], said: str) -> str:
    """A pull request's comment (or a job's summary): the touched quotes in a table, each quote's diff on
    the quoted lines folded below, what to run. A long list is cut to what a comment holds, diffs first,
    then rows, and says so."""
    diffs = [i for i in impacts if i.diff()][:MAX_DIFFS]
    rows = min(len(impacts), MAX_ROWS)
    while True:
        text = _markdown(changes, impacts, said, diffs, rows)
        if len(text) <= MAX_CHARS or (not diffs and rows <= 1):
            return text
        if diffs:
            diffs = diffs[: len(diffs) // 2]
        else:
            rows = max(1, rows * MAX_CHARS // len(text) - 1)


#: a page's URL a comment links to: http or https, nothing that could end the link or start markup
_LINKABLE = re.compile(r"https?://[^\s<>()\[\]`|\\]{1,2000}")


def _markdown(changes: Changes, impacts: Sequence[Impact], said: str, diffs: Sequence[Impact], rows: int) -> str:
    lines = [MARKER, "### textfrag: quotes this change touches", ""]
    if not impacts:
        lines += [_sentence(said), ""]
        return "\n".join(lines)
    lines += ["| Where readers see it | Quoted | What the change does | Then |", "|---|---|---|---|"]
    for i in impacts[:rows]:
        seen = _code(f"{i.doc}:{i.line}") + (f" ({_md(i.heading, MAX_HEADING)})" if i.heading else "")
        if i.site is not None:  # (a page of another repository's docs site: its name, and a link to the quote)
            seen = f"{_md(i.site, MAX_HEADING)}: {seen}" + (f" [page](<{i.url}>)" if i.url and _LINKABLE.fullmatch(i.url) else "")
        quoted = _code(f"{shown_path(changes, i.path)}" + (f":{i.first}-{i.last}" if i.first else ""))
        then = _code(i.command.split("  (", 1)[0]) if i.effect != "deleted" else "edit the quote"
        lines.append(f"| {seen} | {quoted} | {_md(i.said)} | {then} |")
    if len(impacts) > rows:
        lines += ["", f"And {len(impacts) - rows} more: `textfrag impact` lists every one."]
    if diffs:
        lines.append("")
        for i in diffs:
            body = spell_lines(i.diff())
            fence = "```"
            while fence in body:
                fence += "`"
            lines += [
                "<details>",
                f"<summary>{_md(f'{i.doc}:{i.line}')}: the change on the quoted lines</summary>",
                "",
                f"{fence}diff",
                body,
                fence,
                "</details>",
            ]
    lines += ["", _sentence(said)]
    return "\n".join(lines) + "\n"


def impact_document(
    form: OutputFormat, changes: Changes, impacts: Sequence[Impact], said: str, stale_before: int, follows: int = 0
) -> str | None:
    """The one document ``form`` writes of what a change touches, ending in a line break (None: a format
    written line by line, text and GitHub's commands)."""
    if form is JSON:
        return impact_json(changes, impacts, said, stale_before, follows) + "\n"
    if form is SARIF:
        return impact_sarif(changes, impacts) + "\n"
    if form is MARKDOWN:
        return impact_markdown(changes, impacts, said)
    return None
