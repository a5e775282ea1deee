"""The mdBook preprocessor: the book in (JSON on standard input), the book out (standard output), every
chapter's ``txtfrag:`` images made excerpts and, in guard mode, its ``{{#include}}``s judged; each problem
said on standard error as mdBook users read them, and the build failed on any."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

from textfrag import DEFAULT_MAX_SIZE, SourceCache, TextFragError
from textfrag.documents.scan import scan_text
from textfrag.errors import internal_error_report, spell
from textfrag.guard import LOCK_NAME, Lock, context_of, find_guarded, judge_include, shown_text
from textfrag.guard.judge import Explainer
from textfrag.project.config import BuildConfig
from textfrag.verdict.excerpt import Excerpt
from textfrag.verdict.judging import Settings, judge
from textfrag.verdict.written_options import written_options

__all__ = ["run"]


def _yes(value: object) -> bool:
    return str(value).strip().lower() not in ("", "0", "false", "no", "none")


def _config(context: dict[str, Any]) -> tuple[BuildConfig, dict[str, Any]]:
    """The book's settings for textfrag: its ``[preprocessor.textfrag]`` table (root, guard, on_stale,
    require_pin, charset), guard mode also by ``TEXTFRAG_GUARD=1``."""
    book_root = Path(context.get("root") or ".").resolve()
    config = context.get("config") or {}
    settings = ((config.get("preprocessor") or {}).get("textfrag") or {}) if isinstance(config, dict) else {}
    src = book_root / str((config.get("book") or {}).get("src") or "src")
    return (
        BuildConfig(
            book_root / "book.toml",
            (book_root / str(settings.get("root") or ".")).resolve(),
            settings.get("charset") or None,
            on_stale=str(settings.get("on_stale") or "error"),
            require_pin=_yes(settings.get("require_pin", False)),
            guard=_yes(settings.get("guard", False)) or _yes(os.environ.get("TEXTFRAG_GUARD", "0")),
            srcdir=src,
            engine="mdbook",
        ),
        settings,
    )


def _chapters(items: list[Any]) -> Iterator[dict[str, Any]]:
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if isinstance(chapter, dict):
            yield chapter
            yield from _chapters(chapter.get("sub_items") or [])


def _block(ex: Excerpt) -> str:
    """An excerpt as mdBook shows it: a ``div.txtfrag`` (its id and data values) around a fenced block (its
    fence longer than any the text holds)."""
    data = " ".join(f'data-txtfrag-{k}="{escape(v)}"' for k, v in ex.data.items())
    longest = max((len(run) for run in re.findall(r"^[ \t]*(`{3,})", ex.text, re.M)), default=2)
    fence = "`" * (longest + 1)
    caption = f'<p class="txtfrag-caption">{escape(ex.caption)}</p>\n' if ex.caption else ""
    opening = f'<div class="txtfrag" id="{escape(ex.anchor)}" {data}>'
    body = ex.text[:-1] if ex.text.endswith("\n") else ex.text  # (a code block's content ends its line itself)
    return f"{opening}\n{caption}\n{fence}{ex.language}\n{body}\n{fence}\n\n</div>\n"


class _Book:
    """One run of the preprocessor: the settings, the build's source cache, the problems said."""

    def __init__(self, context: dict[str, Any]) -> None:
        self.config, _ = _config(context)
        self.cache = SourceCache(self.config.root, charset=self.config.charset or "utf-8", max_size=DEFAULT_MAX_SIZE)
        self.settings = Settings(on_stale=self.config.on_stale, require_pin=self.config.require_pin)
        self.failed = False
        self.lock: Lock | None = None
        before = (((context.get("config") or {}).get("preprocessor") or {}).get("textfrag") or {}).get("before") or []
        if self.config.guard and "links" not in before:  # (after links, the {{#include}}s are gone from the chapters)
            self._say(
                'guard mode judges the {{#include}}s before mdBook replaces them: add before = ["links"] to '
                "[preprocessor.textfrag] in book.toml",
                error=True,
            )
        elif self.config.guard:
            try:
                self.lock = Lock.read(self.config.home / LOCK_NAME)
            except TextFragError as bad:
                self._say(f"{LOCK_NAME}: {bad.message}", error=True)

    def _say(self, text: str, *, error: bool) -> None:
        print(f"{'ERROR' if error else 'WARN'} textfrag: {spell(text)}", file=sys.stderr)  # (control characters spelt)
        self.failed = self.failed or error

    def chapter(self, chapter: dict[str, Any]) -> None:
        path = chapter.get("path")
        content = chapter.get("content")
        if not isinstance(path, str) or not isinstance(content, str):
            return  # (a draft chapter, or a separator)
        srcdir = self.config.srcdir or self.config.home / "src"
        shown = (Path(srcdir.name) / path).as_posix()
        if self.lock is not None and "{{" in content:
            self._includes(content, shown, srcdir / path)
        if "txtfrag:" in content:
            chapter["content"] = self._references(content, shown)

    def _references(self, content: str, shown: str) -> str:
        edits: list[tuple[int, int, str]] = []
        for f in scan_text(content, shown, ".md"):
            if f.kind != "image" or f.span is None:
                continue  # (a link or a definition: no excerpt to show)
            raw, syntax, form = written_options(content, f, attr_list=False)
            v = judge(self.cache, f.text, raw, syntax=syntax, form="block", settings=self.settings)
            for problem in v.problems:
                self._say(problem.describe(f"{shown}:{f.line}"), error=True)
            for warning in v.warnings:
                self._say(warning.describe(f"{shown}:{f.line}"), error=False)
            if v.excerpt is not None:
                edits.append((f.span[0], f.span[1], _block(v.excerpt)))
        for start, end, text in sorted(edits, reverse=True):
            content = content[:start] + text + content[end:]
        return content

    def _includes(self, content: str, shown: str, chapter: Path) -> None:
        assert self.lock is not None
        ctx = context_of(self.config)
        for inc in find_guarded(content, shown, ".md", mdbook=True):
            try:
                now: Any = shown_text(inc, chapter, self.cache, ctx)
            except TextFragError as why:
                now = why
            verdict = judge_include(
                inc,
                now,
                self.lock.record(self.lock.doc_name(chapter), inc.key),
                require_pin=self.config.require_pin,
                on_stale=self.config.on_stale,
                explainer=Explainer(chapter, self.cache, ctx),
                lock=LOCK_NAME,
            )
            where = f"{inc.doc}:{inc.line}"
            for p in verdict.problems:
                self._say(p.with_reference(p.reference or inc.text).describe(where), error=True)
            for w in verdict.warnings:
                self._say(w.with_reference(w.reference or inc.text).describe(where), error=False)


def run(argv: list[str] | None = None) -> int:
    """``supports RENDERER`` (exit 0: every renderer); else the book, from standard input to standard output."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["supports"]:
        return 0
    try:
        context, book = json.load(sys.stdin)
        run_ = _Book(context)
        for chapter in _chapters(book.get("items", book.get("sections", [])) or []):
            run_.chapter(chapter)
    except (ValueError, TypeError) as bad:
        print(f"ERROR textfrag: mdBook gave no book on standard input ({bad})", file=sys.stderr)
        return 2
    except Exception as bug:  # a bug in textfrag: said as textfrag's, never as the book's
        print(internal_error_report(bug), file=sys.stderr)
        return 3
    if run_.failed:
        print("ERROR textfrag: stale or broken quotes; the build fails", file=sys.stderr)
        return 1
    json.dump(book, sys.stdout)
    return 0
