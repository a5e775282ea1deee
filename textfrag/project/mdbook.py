"""An mdBook's ``book.toml``, read without running mdBook: where its chapters are and which of them it
builds, and textfrag's settings for it.

Where the book runs textfrag's preprocessor (a ``[preprocessor.textfrag]`` table: mdBook runs
``mdbook-textfrag``), its ``txtfrag:`` images are excerpts; otherwise mdBook shows them as written. Its own
``{{#include}}``s are protected by guard mode: switched on by ``TEXTFRAG_GUARD=1``, as for mystmd, or by
``guard = true`` in that table (whose ``root``, ``on_stale`` and ``require_pin`` are read too). The root
is the book's folder unless the table says otherwise: an include that leaves it is refused until the
root holds it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from .setting_table import checked
from .switch import guard_switched_on
from .tomlfile import read_toml, toml_table

__all__ = ["read_book", "summary_chapters"]


def read_book(path: Path, text: str) -> dict[str, Any]:
    """The settings of a ``book.toml``: its source folder, and textfrag's (root, guard, on_stale,
    require_pin, charset) from ``[preprocessor.textfrag]`` and the environment."""
    data = read_toml(path, text)
    preprocessors = toml_table(data, "preprocessor")
    settings = toml_table(preprocessors, "textfrag")
    here = path.parent

    def yes(value: object) -> bool:
        return str(value).strip().lower() not in ("", "0", "false", "no", "none")

    guard = settings.get("guard", False)
    return {
        "srcdir": (here / str(toml_table(data, "book").get("src") or "src")).resolve(),
        "root": (here / str(settings.get("root") or ".")).resolve(),
        "guard": yes(guard) or guard_switched_on(path.parent),
        "on_stale": checked("on_stale", settings["on_stale"], "[preprocessor.textfrag] on_stale", path)
        if settings.get("on_stale")
        else "error",
        "require_pin": yes(settings.get("require_pin", False)),
        "charset": settings.get("charset") or None,
        # (the book runs textfrag's preprocessor, mdBook's default mdbook-textfrag or a command naming textfrag:
        # its txtfrag: images are excerpts)
        "renders": "textfrag" in toml_table(data, "preprocessor")
        and "textfrag" in str(settings.get("command") or "mdbook-textfrag"),
    }


# a chapter's link in SUMMARY.md: [Title](path.md), a draft chapter's empty ()
_CHAPTER = re.compile(r"\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)<>]+?)>?\s*\)")


def summary_chapters(srcdir: Path) -> set[str] | None:
    """The real paths of the chapters ``SUMMARY.md`` lists (the files mdBook builds); None when there is
    no SUMMARY.md to read (every Markdown file is then taken as a chapter)."""
    summary = srcdir / "SUMMARY.md"
    try:
        text = summary.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    out: set[str] = set()
    for m in _CHAPTER.finditer(text):
        target = m.group(1).split("#", 1)[0].strip()
        if target and "://" not in target:
            out.add(os.path.realpath(srcdir / target))
    return out
