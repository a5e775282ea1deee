"""The Python-Markdown include extensions' own code, run for guard mode (entry point group
``textfrag.engines``): pymdownx.snippets and mdx_include say what an include shows, through their own
hooks for reading a file, which read it through the build's cache instead (each file once, never outside
the root).

Each function here returns its engine's run, or raises ImportError where the engine is not installed
(textfrag's model of it then reads its includes). markdown-include and markdown-include-variants open
their files inside their preprocessors' loops, with no hook, so running them would read each file again:
textfrag's model reads theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

from textfrag.errors import PathError
from textfrag.guard import GuardContext, GuardedInclude

__all__ = ["snippets", "mdx_include"]


def _lines_read(text: str) -> list[str]:
    """A file's lines as a file opened in text mode reads them (universal newlines), without endings."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n") if text else []


class _SnippetsRun:
    kind = "snippet"

    def __init__(self, preprocessor: type[Any]) -> None:
        self.preprocessor = preprocessor

    @property
    def engine(self) -> str:
        return f"pymdown-extensions {version('pymdown-extensions')}"

    def lines(self, inc: GuardedInclude, ctx: GuardContext, read: Callable[[str], str]) -> list[str]:
        config = {
            "base_path": [str(base) for base in ctx.snippet_bases],
            "restrict_base_path": ctx.snippet_restrict,
            "encoding": ctx.snippet_encoding,
            "check_paths": False,  # (a nested file that is not there is left out; the include's own is a problem)
            "auto_append": [],
            "url_download": False,  # (never the web: a URL is refused before this runs)
            "url_max_size": 0,
            "url_timeout": 0,
            "url_request_headers": {},
            "dedent_subsections": ctx.snippet_dedent,
            "max_retries": 0,
            "backoff_factor": 0,
        }
        run = self.preprocessor(config, SimpleNamespace(tab_length=ctx.tab_length))
        run.reading = read
        run.seen, run.bases, run.failed = set(), None, set()
        # (the include alone, as a block's path line: written as it is, whatever quotes it holds)
        return list(run.parse_snippets(["-8<-", inc.argument, "-8<-"]))


def snippets() -> _SnippetsRun:
    """pymdownx.snippets' ``SnippetPreprocessor``, reading through ``read_lines``."""
    from pymdownx.snippets import SnippetPreprocessor

    class Reading(SnippetPreprocessor):  # type: ignore[misc]
        reading: Callable[[str], str]

        def read_lines(self, path: str) -> list[str]:
            return _lines_read(self.reading(path))

    return _SnippetsRun(Reading)


class _MdxIncludeRun:
    kind = "mdx-include"

    def __init__(self, extension: type[Any], preprocessor: type[Any], cyclic: type[Any]) -> None:
        self.extension, self.preprocessor, self.cyclic = extension, preprocessor, cyclic

    @property
    def engine(self) -> str:
        return f"mdx_include {version('mdx_include')}"

    def lines(self, inc: GuardedInclude, ctx: GuardContext, read: Callable[[str], str]) -> list[str]:
        configs = {
            "base_path": str(ctx.mdx_base),
            "allow_remote": False,  # (never the web)
            "recurs_local": ctx.mdx_recursive,
            "recursive_relative_path": ctx.mdx_relative,
            "line_slice_separator": list(ctx.mdx_separator),
            "content_cache_local": False,  # (the build's cache holds every file)
        }
        extension = self.extension(configs)
        md = SimpleNamespace()
        run = self.preprocessor(md, extension.config, extension.compiled_re)
        run.reading = read
        run.cyclic = self.cyclic()
        return list(run.mdx_include_get_processed_lines([inc.key], ""))


def mdx_include() -> _MdxIncludeRun:
    """mdx_include's ``IncludePreprocessor``, reading through ``get_local_content_list``."""
    from mdx_include.mdx_include import Cyclic, IncludeExtension, IncludePreprocessor

    class Reading(IncludePreprocessor):  # type: ignore[misc]
        reading: Callable[[str], str]

        def get_local_content_list(self, filename: str, encoding: str) -> tuple[list[str], bool]:
            try:
                text = self.reading(filename)
            except PathError as err:
                if err.no_such_file:
                    return [], False  # (as the extension does with a file it cannot open)
                raise
            return (text + "\n").splitlines(), True

    return _MdxIncludeRun(IncludeExtension, Reading, Cyclic)
