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

from textfrag.errors import TextFragError, internal_error_report, spell
from textfrag.project.switch import guard_switched_on
from textfrag.protocol import answer

__all__ = ["run"]


def _yes(value: object) -> bool:
    return str(value).strip().lower() not in ("", "0", "false", "no", "none")


def _chapters(items: list[Any]) -> Iterator[dict[str, Any]]:
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if isinstance(chapter, dict):
            yield chapter
            yield from _chapters(chapter.get("sub_items") or [])


def _block(ex: dict[str, Any]) -> str:
    """An excerpt as mdBook shows it: a ``div.txtfrag`` (its id and data values) around a fenced block (its
    fence longer than any the text holds)."""
    data = " ".join(f'{k}="{escape(v)}"' for k, v in ex["data"].items())
    text = ex["text"]
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
        guard = _yes(table.get("guard", False)) or guard_switched_on(self.root)  # (or TEXTFRAG_GUARD=1, textfrag.toml)
        if guard and "links" not in (table.get("before") or []):  # (after links, no {{#include}} is left to judge)
            self._say(
                'guard mode judges the {{#include}}s before mdBook replaces them: add before = ["links"] to '
                "[preprocessor.textfrag] in book.toml",
                error=True,
            )
            guard = False
        settings: dict[str, Any] = {"guard": guard, "require_pin": _yes(table.get("require_pin", False))}
        settings["on_stale"] = str(table.get("on_stale") or "error")
        if table.get("charset"):
            settings["charset"] = str(table["charset"])
        self.request: dict[str, Any] = {"protocol": 1, "root": str(table.get("root") or "."), "settings": settings}
        if (self.root / "book.toml").is_file():
            self.request["config"] = "book.toml"

    def _say(self, text: str, *, error: bool) -> None:
        print(f"{'ERROR' if error else 'WARN'} textfrag: {spell(text)}", file=sys.stderr)  # (control characters spelt)
        self.failed = self.failed or error

    def render(self, chapters: list[dict[str, Any]]) -> None:
        """Every chapter judged in one request; its excerpts put in place of its ``txtfrag:`` images."""
        shown = {}
        documents = []
        for chapter in chapters:
            path, content = chapter.get("path"), chapter.get("content")
            if isinstance(path, str) and isinstance(content, str) and ("txtfrag:" in content or "{{" in content):
                name = (Path(self.src) / path).as_posix()
                shown[name] = chapter
                documents.append({"path": name, "text": content})
        if not documents:
            return  # (a book that quotes nothing: nothing to ask)
        edits: dict[str, list[tuple[int, int, str]]] = {}
        for result in answer({**self.request, "documents": documents}, cwd=self.root)["results"]:
            for problem in result["problems"]:
                self._say(problem["said"], error=True)
            for warning in result["warnings"]:
                self._say(warning["said"], error=False)
            if result.get("form") == "image" and result["excerpt"] is not None and result["document"] in shown:
                start, end = result["span"]
                edits.setdefault(result["document"], []).append((start, end, _block(result["excerpt"])))
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
    json.dump(book, sys.stdout)
    return 0
