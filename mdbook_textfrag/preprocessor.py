"""The mdBook preprocessor: the book in (JSON on standard input), the book out (standard output), every
chapter's ``txtfrag:`` images made excerpts and, in guard mode, its ``{{#include}}``s judged; each problem
said on standard error as mdBook users read them, and the build failed on any.

It is a plugin of the batch protocol (textfrag.protocol), in the same process: the chapters are one
request, and the answer is rendered; what a plugin of another engine does through ``textfrag batch``."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

from textfrag.documents import read_text
from textfrag.errors import TextFragError, internal_error_report, spell
from textfrag.guard import escaped_for_links
from textfrag.project import checked, guard_switched_on
from textfrag.protocol import answer

__all__ = ["run"]


def _yes(value: object) -> bool:
    return str(value).strip().lower() not in ("", "0", "false", "no", "none")


def _names(value: object) -> list[str]:
    """A ``before``/``after`` list of book.toml (a single name too)."""
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list) else []


def _chapters(items: list[Any]) -> Iterator[dict[str, Any]]:
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if isinstance(chapter, dict):
            yield chapter
            yield from _chapters(chapter.get("sub_items") or [])


def _block(ex: dict[str, Any], links_after: bool) -> str | None:
    """An excerpt as mdBook shows it: a ``div.txtfrag`` (its id and data values) around a fenced block (its
    fence longer than any the text holds). When mdBook's ``links`` preprocessor reads the chapter after
    textfrag, every ``{{#include}}`` in the excerpt's text is escaped, so that the page shows the quoted
    text, never the file it names; None when that cannot be written."""
    data = " ".join(f'{k}="{escape(v)}"' for k, v in ex["data"].items())
    text = ex["text"]
    if links_after:
        text = escaped_for_links(text)
        if text is None:
            return None
    longest = max((len(run) for run in re.findall(r"^[ \t]*(`{3,})", text, re.M)), default=2)
    fence = "`" * (longest + 1)
    caption = f'<p class="txtfrag-caption">{escape(ex["caption"])}</p>\n' if ex["caption"] else ""
    opening = f'<div class="txtfrag" id="{escape(ex["anchor"])}" {data}>'
    body = text[:-1] if text.endswith("\n") else text  # (a code block's content ends its line itself)
    return f"{opening}\n{caption}\n{fence}{ex['language']}\n{body}\n{fence}\n\n</div>\n"


class _Book:
    """One run of the preprocessor: the book's request (its ``[preprocessor.textfrag]`` table: root, guard,
    on_stale, require_pin, charset; guard mode also by ``TEXTFRAG_GUARD=1``), the problems said."""

    def __init__(self, context: dict[str, Any]) -> None:
        self.root = Path(context.get("root") or ".").resolve()
        config = context.get("config") or {}
        config = config if isinstance(config, dict) else {}
        table = (config.get("preprocessor") or {}).get("textfrag") or {}
        self.src = str((config.get("book") or {}).get("src") or "src")
        self.failed = False
        self.guard = _yes(table.get("guard", False)) or guard_switched_on(self.root)  # (or TEXTFRAG_GUARD=1, textfrag.toml)
        links = (config.get("preprocessor") or {}).get("links") or {}
        # mdBook runs its links preprocessor first unless told otherwise (ties go by name: "links" < "textfrag");
        # after it, a chapter's {{#include}}s are replaced, so guard mode reads the chapter's file as written
        self.links_after = "links" in _names(table.get("before")) or "textfrag" in _names(links.get("after"))
        settings: dict[str, Any] = {"guard": self.guard, "require_pin": _yes(table.get("require_pin", False))}
        try:  # (refused as check refuses it: textfrag.project.setting_table)
            settings["on_stale"] = checked(
                "on_stale", table.get("on_stale") or "error", "[preprocessor.textfrag] on_stale", "book.toml"
            )
        except TextFragError as bad:
            self._say(bad.message, error=True)
            settings["on_stale"] = "error"
        if table.get("charset"):
            settings["charset"] = str(table["charset"])
        self.request: dict[str, Any] = {"protocol": 1, "root": str(table.get("root") or "."), "settings": settings}
        if (self.root / "book.toml").is_file():
            self.request["config"] = "book.toml"

    def _say(self, text: str, *, error: bool) -> None:
        print(f"{'ERROR' if error else 'WARN'} textfrag: {spell(text)}", file=sys.stderr)  # (control characters spelt)
        self.failed = self.failed or error

    def _source(self, chapter: dict[str, Any]) -> str | None:
        """A chapter's file as written (what mdBook's links preprocessor read before textfrag): its
        ``source_path`` under the book's source folder; None for a chapter with no file."""
        source = chapter.get("source_path") or chapter.get("path")
        if not isinstance(source, str):
            return None
        src = (self.root / self.src).resolve()
        path = (src / source).resolve()
        if not path.is_relative_to(src) or not path.is_file():
            return None
        return read_text(path, str(path.relative_to(self.root) if path.is_relative_to(self.root) else path))

    def render(self, chapters: list[dict[str, Any]]) -> None:
        """Every chapter judged in one request; its excerpts put in place of its ``txtfrag:`` images. In guard
        mode after mdBook's links preprocessor, the chapters' files as written are judged for their includes."""
        shown = {}
        documents = []
        written = []
        raw = self.guard and not self.links_after
        for chapter in chapters:
            path, content = chapter.get("path"), chapter.get("content")
            if not isinstance(path, str) or not isinstance(content, str):
                continue
            name = (Path(self.src) / path).as_posix()
            if "txtfrag:" in content or (self.links_after and "{{" in content):
                shown[name] = chapter
                documents.append({"path": name, "text": content})
            source = self._source(chapter) if raw else None
            if source is not None and "{{" in source:
                written.append({"path": name, "text": source})
        results = []
        if documents:
            request = {**self.request, "settings": {**self.request["settings"], "guard": self.links_after and self.guard}}
            results += answer({**request, "documents": documents}, cwd=self.root)["results"]
        if written:  # (the includes alone: the references are judged in the chapter as mdBook hands it over)
            results += [
                r
                for r in answer({**self.request, "documents": written}, cwd=self.root)["results"]
                if r["kind"] in ("include", "lock", "document")
            ]
        edits: dict[str, list[tuple[int, int, str]]] = {}
        for result in results:
            for problem in result["problems"]:
                self._say(problem["said"], error=True)
            for warning in result["warnings"]:
                self._say(warning["said"], error=False)
            if result.get("form") == "image" and result["excerpt"] is not None and result["document"] in shown:
                start, end = result["span"]
                block = _block(result["excerpt"], self.links_after)
                if block is None:
                    self._say(
                        f"{result['document']}:{result['line']}: {result['reference']}: the excerpt holds a {{{{ #...}}}} "
                        "that mdBook's links preprocessor would replace by a file, and it cannot be escaped: let links "
                        'run first (remove "links" from before in [preprocessor.textfrag])',
                        error=True,
                    )
                    continue
                edits.setdefault(result["document"], []).append((start, end, block))
        for name, changes in edits.items():
            content = shown[name]["content"]
            for start, end, text in sorted(changes, reverse=True):
                content = content[:start] + text + content[end:]
            shown[name]["content"] = content


def run(argv: list[str] | None = None) -> int:
    """``supports RENDERER`` (exit 0: every renderer); else the book, from standard input to standard output."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["supports"]:
        return 0
    try:
        context, book = json.load(sys.stdin)
        run_ = _Book(context)
        run_.render(list(_chapters(book.get("items", book.get("sections", [])) or [])))
    except TextFragError as bad:  # (book.toml that cannot be read)
        print(f"ERROR textfrag: {spell(bad.message)}", file=sys.stderr)
        return 2
    except (ValueError, TypeError) as bad:
        print(f"ERROR textfrag: mdBook gave no book on standard input ({bad})", file=sys.stderr)
        return 2
    except Exception as bug:  # a bug in textfrag: said so, never as the book's
        print(internal_error_report(bug), file=sys.stderr)
        return 3
    if run_.failed:
        print("ERROR textfrag: stale or broken quotes; the build fails", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(book))  # (json.dump writes piece by piece: many times slower)
    return 0
