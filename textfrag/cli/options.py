"""``textfrag options``: every option an excerpt takes, from the core's one table (textfrag.verdict.option_table)."""

from __future__ import annotations

from typing import Any, TextIO

from ..verdict.option_table import OPTIONS
from ._base import OK
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``options`` subcommand's parser."""
    p = sub.add_parser(
        "options",
        help="list every option a txtfrag excerpt takes, in reStructuredText/MyST and as Markdown attributes",
        description="Print the one option table: each option's reStructuredText/MyST name, its Markdown attribute "
        "names, the value it takes and what it does. Sphinx, MkDocs, mystmd, check and the editor read the same table.",
    )
    p.add_argument("--format", choices=("text", "markdown"), default="text", help="text (default) or a Markdown table")


_VALUES = {
    "flag": "no value",
    "text": "text",
    "required": "text",
    "int": "a whole number",
    "positive": "a number from 1",
    "lines": "line list (12,14-16)",
    "within": "line list (2 4-6)",
    "dedent": "a number, or none",
    "classes": "class names",
    "encoding": "a charset",
    "linenums": "a number, or none",
}


def _options(run: RunContext, out: TextIO, err: TextIO) -> int:
    rows = [(f":{s.name}:" if s.rst else "-", ", ".join(f"{m}=" for m in s.md) or "-", _VALUES[s.kind], s.help) for s in OPTIONS]
    if run.format == "markdown":
        print("| reStructuredText / MyST | Markdown attribute | value | meaning |", file=out)
        print("|---|---|---|---|", file=out)
        for row in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |", file=out)
        return OK
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row[:3], widths, strict=True)) + "  " + row[3], file=out)
    return OK


#: the command, as the command line lists it
COMMAND = Command("options", add_parser, _options, settled=False)
