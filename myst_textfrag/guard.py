"""Guard mode in mystmd (``TEXTFRAG_GUARD=1``): every ``literalinclude`` is built by mystmd exactly as
without textfrag, and the text it shows is judged against its record in ``textfrag.lock`` (beside
``myst.yml``) by the core (textfrag.guard.judge_include), as ``check`` judges it.

The ``txtfrag-problems`` transform runs once per page, after mystmd has put each included file's lines
in the page's tree, so it sees the text every literalinclude shows. It is not told which page the tree
is, and an include's node carries no line: the page is the one of the project whose literalincludes, in
order, name the files the tree's name; where two pages do, the one whose lines hold the tree's text at
the lines mystmd gives. The tree is returned unchanged (the page is byte-identical); a problem fails the
build, listed as ``page.md:LINE: literalinclude …: problem``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from textfrag import SourceCache, TextFragError
from textfrag.documents import read_text
from textfrag.guard import (
    LITERAL,
    LOCK_NAME,
    Explainer,
    GuardContext,
    GuardedInclude,
    Lock,
    context_of,
    judge_include,
    shown_text,
)
from textfrag.project import BuildConfig, read_config

__all__ = ["GuardedBuild", "guarded_build"]


class GuardedBuild:
    """What one call of the plugin needs of guard mode: the configuration, the lock file, the pages."""

    def __init__(self, config: BuildConfig) -> None:
        self.config = config
        self.folder = config.path.parent
        self.ctx: GuardContext = context_of(config)
        self.cache = SourceCache(config.root, charset=config.charset or "utf-8", max_size=config.max_size or 10**8)
        self.problems: list[str] = []
        try:
            self.lock = Lock.beside(config.path)
        except TextFragError as bad:  # (said once per page that has includes; the build fails)
            self.lock = Lock(self.folder / LOCK_NAME)
            self.problems.append(f"{LOCK_NAME}: {bad.message}")

    def _texts(self) -> Iterator[tuple[Path, str]]:
        """Each Markdown page of the project that has a literalinclude, with its text."""
        for page in _markdown_pages(self.folder):
            try:
                text = read_text(page, str(page), self.cache.max_size)
            except TextFragError:
                continue
            if "literalinclude" in text:
                yield page, text

    def _includes(self, page: Path, text: str) -> list[GuardedInclude]:
        doc = page.relative_to(self.folder).as_posix()
        return LITERAL.find(text, doc, page.suffix)

    def judge(self, page: Path, inc: GuardedInclude, shown: str | TextFragError) -> tuple[list[str], list[str], bool]:
        """The problems and warnings of one include (located, as the build lists them), and whether it
        has a record."""
        record = self.lock.record(self.lock.doc_name(page), inc.key)
        verdict = judge_include(
            inc,
            shown,
            record,
            require_pin=self.config.require_pin,
            on_stale=self.config.on_stale,
            explainer=Explainer(page, self.cache, self.ctx),
            lock=LOCK_NAME,
        )
        where = f"{inc.doc}:{inc.line}"
        said = [p.with_reference(p.reference or inc.text).describe(where) for p in verdict.problems]
        warned = [w.with_reference(w.reference or inc.text).describe(where) for w in verdict.warnings]
        return said, warned, verdict.pinned

    def page_problems(self, tree: dict[str, Any]) -> list[str]:
        """The problems of the literalincludes of the page whose tree this is, judged by what the tree
        shows; when the page cannot be told, those of the whole project, judged as ``check`` judges them
        (so that drift never passes unseen)."""
        shown = _literal_includes(tree)
        if not shown:
            return list(self.problems)
        found = self._page_of(tree, [str(node.get("file", "")) for node, _ in shown])
        if found is None:
            return self.project_problems()
        page, includes = found
        out = list(self.problems)
        for (_, text), inc in zip(shown, includes, strict=True):
            problems, warnings, _pinned = self.judge(page, inc, text)
            out += problems
            for warning in warnings:
                print(f"textfrag-myst: {warning}", file=sys.stderr)
        return out

    def project_problems(self) -> list[str]:
        """Every problem of the project's literalincludes, judged as ``check`` judges them (what mystmd's
        literalinclude shows, computed by the core): the list a failing build gives."""
        out: list[str] = list(self.problems)
        for page, text in self._texts():
            for inc in self._includes(page, text):
                try:
                    now: str | TextFragError = shown_text(inc, page, self.cache, self.ctx).text
                except TextFragError as bad:
                    now = bad
                out += self.judge(page, inc, now)[0]
        return out

    def _page_of(self, tree: dict[str, Any], files: list[str]) -> tuple[Path, list[GuardedInclude]] | None:
        """The page whose literalincludes name ``files`` in order, and its literalincludes; of several, the
        one whose lines hold the tree's text where mystmd says it is."""
        candidates = []
        for page, text in self._texts():
            if all(f in text for f in files):  # (a page that names every file is read further)
                includes = self._includes(page, text)
                if [i.argument for i in includes] == files:
                    candidates.append((page, text, includes))
        if len(candidates) <= 1:
            return (candidates[0][0], candidates[0][2]) if candidates else None
        placed = list(_placed_text(tree))[:50]

        def score(candidate: tuple[Path, str, list[GuardedInclude]]) -> int:
            lines = candidate[1].splitlines()
            return sum(1 for line, value in placed if 0 < line <= len(lines) and value in lines[line - 1])

        page, _, includes = max(candidates, key=score)
        return page, includes


def guarded_build() -> GuardedBuild | None:
    """The build's guard mode, when ``TEXTFRAG_GUARD`` switches it on (mystmd runs in the folder of
    ``myst.yml``)."""
    folder = Path.cwd()
    for name in ("myst.yml", "myst.yaml"):
        if (folder / name).is_file():
            config = read_config(folder / name)
            return GuardedBuild(config) if config.guard else None
    return None


def _literal_includes(tree: dict[str, Any]) -> list[tuple[dict[str, Any], str | TextFragError]]:
    """The tree's literal include nodes (not those inside another include: they are another file's),
    in order, each with the text its code block shows (or why it shows none)."""
    out: list[tuple[dict[str, Any], str | TextFragError]] = []
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        if node.get("type") == "include":
            if node.get("literal"):
                code = next((n for n in _walk(node) if n.get("type") == "code"), None)
                value = code.get("value") if code is not None else None
                nothing = TextFragError(f"literalinclude shows nothing for {node.get('file')}")
                out.append((node, value if isinstance(value, str) else nothing))
            continue
        children = node.get("children")
        if isinstance(children, list):
            stack.extend(reversed(children))
    return out


def _placed_text(tree: dict[str, Any]) -> Iterator[tuple[int, str]]:
    """(line, first line of the text) of the tree's text nodes that say where they are (not in includes)."""
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or node.get("type") == "include":
            continue
        value, position = node.get("value"), node.get("position")
        if node.get("type") == "text" and isinstance(value, str) and value.strip() and isinstance(position, dict):
            line = (position.get("start") or {}).get("line")
            if isinstance(line, int):
                yield line, value.strip().splitlines()[0]
        children = node.get("children")
        if isinstance(children, list):
            stack.extend(reversed(children))


def _walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    stack: list[Any] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            yield current
            children = current.get("children")
            if isinstance(children, list):
                stack.extend(reversed(children))


_SKIPPED = {"_build", "node_modules", "site-packages", "__pycache__"}


def _markdown_pages(folder: Path) -> Iterator[Path]:
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED)
        for name in sorted(files):
            if name.endswith(".md"):
                yield Path(top) / name
