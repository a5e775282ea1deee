"""What a guarded include is: its kind, where it stands, what it names, and its key.

Each include has a key: what it selects as written (the kind, the file as written, the options that
change what it shows), which is what its record is kept under in the lock file. Moving an include in its
document, or changing how it is displayed (a caption, highlighted lines, numbering), changes no key.
Every engine's module (textfrag.guard.asciidoc, .mdbook, .mdxinclude...) builds on this one, and
textfrag.guard.includes finds them in a page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    *("GuardedInclude", "SELECTING", "MAX_LINE", "ADOC_SUFFIXES"),
    *("LITERALINCLUDE", "SNIPPET", "MARKDOWN_INCLUDE", "MDBOOK", "ASCIIDOC", "VITEPRESS", "CODE_IMPORT", "VARIANTS"),
    *("MDX_INCLUDE", "parse_raw_path"),
]

#: an include is a short line: longer ones are not read (the engines' own patterns backtrack on them)
MAX_LINE = 4096

#: AsciiDoc documents
ADOC_SUFFIXES = frozenset({".adoc", ".asciidoc", ".asc"})

LITERALINCLUDE, SNIPPET, MARKDOWN_INCLUDE, MDBOOK = "literalinclude", "snippet", "include", "mdbook"
ASCIIDOC, VITEPRESS, CODE_IMPORT, VARIANTS = "asciidoc", "vitepress", "code-import", "variants"
MDX_INCLUDE = "mdx-include"

#: literalinclude's options that change the text it shows, in the order its reader applies them
SELECTING: tuple[str, ...] = ("pyobject", "start-after", "start-at", "end-before", "end-at", "lines", "dedent")
SELECTING += ("tab-width", "encoding", "prepend", "append", "diff")
SELECTING += ("start-line", "end-line")  # (mystmd's)


@dataclass(frozen=True)
class GuardedInclude:
    """One include as written: where it is, what it names, and the offsets ``update`` rewrites."""

    doc: str  # the document as shown
    line: int  # 1-based
    column: int  # 1-based
    kind: str  # LITERALINCLUDE, SNIPPET, MARKDOWN_INCLUDE or MDBOOK
    #: the file as written: literalinclude's argument, the snippet's path with its lines or section
    #: (``src/app.py:5:9``), markdown-include's file
    argument: str
    #: literalinclude's options as written (name, value); markdown-include's ``lines``
    options: tuple[tuple[str, str], ...]
    start: int  # offsets of the whole include in the document
    end: int
    argument_span: tuple[int, int]
    #: (name, start, end) of each option's value in the document
    option_spans: tuple[tuple[str, int, int], ...] = ()
    #: the options whose value is followed by spaces on its line, with them (mystmd reads them)
    trailing: tuple[tuple[str, str], ...] = ()
    #: AsciiDoc: the document attributes defined above the include (``:name: value``), for its file's name
    attributes: tuple[tuple[str, str], ...] = ()
    #: AsciiDoc: those of them that its file's name uses (part of its key)
    named: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> str | None:
        """The value of an option as written (None: not given)."""
        return next((value for key, value in self.options if key == name), None)

    @property
    def key(self) -> str:
        """What the include selects, as written: its record's key in the lock file."""
        if self.kind == LITERALINCLUDE:
            given = dict(self.options)
            said = "".join(f" :{name}: {_written(name, given[name])}".rstrip() for name in SELECTING if name in given)
            return f"literalinclude {self.argument}{said}"
        if self.kind == MDBOOK:
            return f"{{{{#{self.option('type')} {self.argument}}}}}"
        if self.kind == CODE_IMPORT:
            return f"```{self.argument}"
        if self.kind == VARIANTS:
            lines = self.option("ln")
            return f"{{* {self.argument}" + (f" ln[{lines}]" if lines else "") + " *}"
        if self.kind == VITEPRESS:
            path, region = parse_raw_path(self.argument)
            return f"<<< {path}" + (f"#{region}" if region else "")
        if self.kind == ASCIIDOC:
            said = ",".join(f"{k}={v}" for k, v in self.options if k in ("lines", "tag", "tags", "indent"))
            # (the values of the attributes its file's name uses: one name under two values is two includes)
            values = "".join(f" {{{k}={v}}}" for k, v in self.named)
            return f"include::{self.argument}[{said}]{values}"
        if self.kind == MDX_INCLUDE:
            lines = self.option("ln")
            return f"{{!{self.option('recurse') or ''}{self.argument}" + (f"[ln:{lines}]" if lines else "") + "!}"
        if self.kind == MARKDOWN_INCLUDE:
            lines = self.option("lines")
            return f"include {self.argument}" + (f" lines={' '.join(lines.split())}" if lines else "")
        return f"snippet {self.argument}"

    @property
    def text(self) -> str:
        """The include in a message (its key: what it selects)."""
        return self.key


def _written(name: str, value: str) -> str:
    """An option's value in a key: as written, a number as the number it is (``:dedent: 04`` is 4, as
    Sphinx reads it, so that a build and ``check`` name an include alike)."""
    value = " ".join(value.split())
    if name in ("dedent", "tab-width") and value.lstrip("+-").isdigit():
        return str(int(value))
    return value


# VitePress's rawPathRegexp
_RAW = re.compile(r"^(.+?(?:(?:\.([a-z0-9]+))?))(?:(#[\w-]+))?(?: ?(?:{(\d+(?:[,-]\d+)*)? ?(\S+)? ?(\S+)?}))? ?(?:\[(.+)\])?$")


def parse_raw_path(raw: str) -> tuple[str, str]:
    """The file path and the region's name (or "") of a snippet's text after ``<<<``."""
    m = _RAW.match(raw)
    if m is None:
        return raw, ""
    return m.group(1), (m.group(3) or "")[1:]
