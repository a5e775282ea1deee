"""Which documents a build reads as its own, from its configuration, so that ``check``, ``pin`` and
``update`` judge what the build renders, no more: under Sphinx's source folder, a document with one of
its source suffixes (``.md`` only with a Markdown parser) that ``include_patterns`` names and
``exclude_patterns`` leaves in; under MkDocs' docs folder, a Markdown page that neither MkDocs' own
exclusions (hidden files, ``/templates/``, a README.md beside an index.md) nor ``exclude_docs`` leave out;
under VitePress's source folder, a page that neither its own exclusions (hidden folders, ``node_modules``,
``dist``) nor ``srcExclude`` leave out. A document outside those folders, or named on the command line, is
judged as asked; a part an included page pulls in is judged wherever it lies (textfrag.documents.included).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import BuildConfig

__all__ = ["read_by_build"]


def read_by_build(config: BuildConfig | None) -> Callable[[Path], bool] | None:
    """Whether the build of ``config`` reads a document found under the paths; None when it reads every
    one (no configuration, or nothing it leaves out)."""
    if config is None or config.srcdir is None:
        return None
    srcdir = os.path.realpath(config.srcdir)
    if config.engine == "" and config.myst_forms:  # Sphinx
        matchers = [_sphinx_pattern(p) for p in config.exclude_patterns]
        # (include_patterns: a document one of them names; none named, none read; "**", Sphinx's default: all)
        everything = "**" in config.include_patterns
        included = [] if everything else [_sphinx_pattern(p) for p in config.include_patterns] or [_NOTHING]
        suffixes = config.source_suffixes
        if not matchers and not included and suffixes is None:
            return None

        def sphinx_reads(doc: Path) -> bool:
            rel = _under(srcdir, doc)
            if rel is None:
                return True
            if suffixes is not None and not rel.lower().endswith(suffixes):
                return False
            if included and not any(m.match(rel) for m in included):
                return False
            parts = rel.split("/")
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]  # (an excluded folder excludes all below)
            return not any(m.match(p) for m in matchers for p in prefixes)

        return sphinx_reads
    if config.engine == "mdbook":  # the chapters SUMMARY.md lists
        from .mdbook import summary_chapters

        chapters = summary_chapters(config.srcdir)
        if chapters is None:
            return None

        def mdbook_reads(doc: Path) -> bool:
            return _under(srcdir, doc) is None or os.path.realpath(doc) in chapters

        return mdbook_reads
    if config.engine == "vitepress":  # the pages VitePress globs: **.md, but node_modules, dist, srcExclude
        ignored = [_glob_pattern(p) for p in ("**/node_modules/**", "**/dist/**", *config.src_exclude)]

        def vitepress_reads(doc: Path) -> bool:
            rel = _under(srcdir, doc)
            if rel is None:
                return True
            parts = rel.split("/")
            if any(part.startswith(".") for part in parts):
                return False  # (a hidden folder's page is no page: .vitepress/ among them)
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
            return not any(m.match(p) for m in ignored for p in prefixes)

        return vitepress_reads
    if config.exclude_docs is not None:  # MkDocs (and ProperDocs)
        spec = _gitignore(".*\n/templates/\n" + config.exclude_docs)
        if spec is None:
            return None

        def mkdocs_reads(doc: Path) -> bool:
            rel = _under(srcdir, doc)
            if rel is None:
                return True
            if doc.name.lower() == "readme.md" and (doc.parent / "index.md").is_file():
                return False  # (MkDocs builds index.md and leaves a README.md beside it out)
            return not spec(rel)

        return mkdocs_reads
    return None


_NOTHING = re.compile(r"(?!)")


def _under(folder: str, doc: Path) -> str | None:
    """``doc``'s path below ``folder`` with ``/``, or None when it is not below it."""
    real = os.path.realpath(doc)
    if not real.startswith(folder.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(real, folder).replace(os.sep, "/")


@lru_cache(maxsize=256)
def _glob_pattern(pattern: str) -> re.Pattern[str]:
    """A glob as VitePress's (tinyglobby's) reads it: ``**/`` any folders, none too; ``/**`` all below."""
    pattern = pattern.removeprefix("./")
    lead = pattern.startswith("**/")
    body = _sphinx_pattern(pattern[3:] if lead else pattern).pattern
    return re.compile(("(?:.*/)?" if lead else "") + body)


def _sphinx_pattern(pattern: str) -> re.Pattern[str]:
    """Sphinx's glob (sphinx.util.matching): ``**`` matches across folders, ``*`` and ``?`` within one."""
    out, i, n = "", 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            if i < n and pattern[i] == "*":
                i += 1
                out += ".*"
            else:
                out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "[":
            j = pattern.find("]", i)
            if j < 0:
                out += re.escape(c)
            else:
                body = pattern[i:j]
                i = j + 1
                negated = body.startswith("!")
                out += "[" + ("^/" if negated else "") + re.escape(body[1:] if negated else body) + "]"
        else:
            out += re.escape(c)
    return re.compile(out + r"\Z")


def _gitignore(lines: str) -> Callable[[str], bool] | None:
    """MkDocs' reading of ``exclude_docs`` (pathspec's gitignore patterns, which MkDocs brings); None where
    pathspec is not installed (then MkDocs is not either)."""
    try:
        import pathspec
    except ImportError:
        return None
    spec = pathspec.GitIgnoreSpec.from_lines(lines.splitlines())
    return spec.match_file
