"""Where a build's engines find included files (guard mode), what an include shows, and the root rule
every file read obeys: the values the rest of textfrag.guard shares."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PathError
from ..source.cache import SourceCache

if TYPE_CHECKING:
    from ..project.config import BuildConfig

__all__ = ["GuardContext", "Shown", "context_of", "under_root", "mdx_settings"]


@dataclass(frozen=True)
class GuardContext:
    """Where a build's engines find included files, and how they read them (from its configuration)."""

    #: Sphinx: the source folder (literalinclude's ``/path`` starts there); MkDocs: the docs folder
    srcdir: Path
    #: Sphinx's ``source_encoding`` (literalinclude's encoding without ``:encoding:``)
    literal_encoding: str = "utf-8-sig"
    #: whose literalinclude the build runs: "sphinx" (Sphinx's reader), "mystmd" (mystmd's filter)
    literal_reader: str = "sphinx"
    #: pymdownx.snippets: its base paths (absolute), restrict_base_path, encoding, dedent_subsections
    snippet_bases: tuple[Path, ...] = ()
    snippet_restrict: bool = True
    snippet_encoding: str = "utf-8"
    snippet_dedent: bool = False
    tab_length: int = 4
    #: markdown-include: its base path and encoding, headingOffset
    include_base: Path = field(default_factory=Path.cwd)
    include_encoding: str = "utf-8"
    heading_offset: int = 0
    #: the folder the build runs in (markdown_include_variants' paths start there)
    site: Path = field(default_factory=Path.cwd)
    #: mdx_include: its base path, whether nested includes are followed (recurs_local: None follows only
    #: ``{!+...!}``), whether their paths start at their file's folder, the lines between two slices
    mdx_base: Path = field(default_factory=Path.cwd)
    mdx_recursive: bool | None = True
    mdx_relative: bool = False
    mdx_separator: tuple[str, ...] = ("", "")
    #: whether an installed engine's own code says what its includes show (textfrag.guard.model.EngineRun); off,
    #: textfrag's model of it does, as where the engine is not installed
    run_engines: bool = True


def context_of(config: BuildConfig) -> GuardContext:
    """Where a build's configured engines find included files (its relative base paths from the folder of
    its configuration, where the build runs): ``check``, ``update``, ``pin`` and the language server."""
    here = config.path.parent
    snippets = config.snippets or {}
    bases = snippets.get("base_path", ["."])
    bases = [bases] if isinstance(bases, str) else list(bases or [])
    included = config.markdown_include or {}
    return GuardContext(
        srcdir=(config.srcdir or here).resolve(),
        literal_encoding=config.source_encoding,
        literal_reader="mystmd" if config.engine == "mystmd" else "sphinx",
        snippet_bases=tuple((here / str(b)).resolve() for b in bases),
        snippet_restrict=bool(snippets.get("restrict_base_path", True)),
        snippet_encoding=str(snippets.get("encoding") or "utf-8"),
        snippet_dedent=bool(snippets.get("dedent_subsections", False)),
        include_base=(here / str(included.get("base_path", "."))).resolve(),
        include_encoding=str(included.get("encoding") or "utf-8"),
        heading_offset=int(included.get("headingOffset") or 0),
        site=here.resolve(),
        **mdx_settings(config.mdx_include or {}, here),
    )


def mdx_settings(options: dict[str, Any], here: Path) -> dict[str, Any]:
    """The GuardContext values of mdx_include's options (as its configuration gives them), paths from ``here``."""
    separator = options.get("line_slice_separator", ["", ""])
    recursive = options.get("recurs_local", True)
    return {
        "mdx_base": (here / str(options.get("base_path") or ".")).resolve(),
        "mdx_recursive": None if recursive is None else bool(recursive),
        "mdx_relative": bool(options.get("recursive_relative_path", False)),
        "mdx_separator": tuple(str(x) for x in separator) if isinstance(separator, (list, tuple)) else ("", ""),
    }


@dataclass(frozen=True)
class Shown:
    """What an include shows: the text, and where it comes from."""

    text: str
    #: the file it shows (under the root), the first one read
    path: str
    #: the 1-based lines of that file it shows, when it shows them as they are in the file, in order
    lines: tuple[int, ...] | None
    #: every file read (under the root): a build depends on each
    files: tuple[str, ...] = ()


def under_root(target: str, written: str, cache: SourceCache) -> str:
    """The path under the root of the file ``target`` (written ``written`` in the include), its real
    path inside the root; :class:`PathError` when it is not there or resolves outside the root."""
    real_root = cache.real_root
    real = cache.real_paths.get(target)
    if real is None:
        real = cache.real_paths.setdefault(target, os.path.realpath(target))
    # (outside first, whether it exists or not: one answer, so that a page cannot ask which files a machine has)
    if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
        raise PathError(
            f"{written} is outside the textfrag root ({cache.root}): guard mode reads nothing outside it "
            "(set the root: --root, textfrag_root, root:)"
        )
    if not cache.present(real if real == target else os.path.normpath(os.path.abspath(target))):
        missing = PathError(f"no such file: {written}")
        missing.no_such_file = True
        raise missing
    return os.path.relpath(real, real_root).replace(os.sep, "/")
