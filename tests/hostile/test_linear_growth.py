"""Every finder is linear in the page: a hostile page made eight times longer (its lines eight times longer,
or eight times as many lines) costs about eight times the work, never sixty-four.

The work is measured as a ratio within one run (the least of three tries at each size), never as an
absolute time, and in the processor time of the thread that reads (``time.thread_time``): a machine busy
with other work makes the reading wait, not cost more, so the ratio holds under load. A linear finder
gives about 8, a quadratic one 64: the bound of 16 holds on a slow or loaded machine and fails for any
finder that backtracks over a line or rescans the page."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from textfrag.documents.scan import scan_text
from textfrag.guard.includes import find_guarded

#: the longest line an include finder reads (textfrag.guard.model.MAX_LINE is 4,096)
LONG = 4000


def _read(text: str, suffix: str, engines: dict[str, bool]) -> None:
    scan_text(text, "docs/page" + suffix, suffix)
    find_guarded(text, "docs/page" + suffix, suffix, **engines)


def _cost(text: str, suffix: str, engines: dict[str, bool]) -> float:
    gc.disable()  # (a collection that falls in one try and not the other is not the finder's work; no
    # gc.collect() first: in a worker that has run hundreds of tests it costs more than the finders)
    try:
        start = time.thread_time()
        _read(text, suffix, engines)
        return time.thread_time() - start
    finally:
        gc.enable()


#: (name, suffix, engines, a hostile line of about ``n`` characters)
HOSTILE: list[tuple[str, str, dict[str, bool], Callable[[int], str]]] = [
    ("rst option value of blanks", ".rst", {}, lambda n: ".. literalinclude:: a\n   :lines: 1" + " " * n + "2\n"),
    ("rst argument of blanks", ".rst", {}, lambda n: ".. literalinclude:: a" + " " * n + "b\n"),
    ("rst directive of colons", ".rst", {}, lambda n: ".. " + ":" * n + "\n"),
    ("fence info of blanks", ".md", {}, lambda n: "```" + " " * n + "x\n"),
    ("fence of backticks", ".md", {}, lambda n: "`" * n + "\n"),
    ("nested link brackets", ".md", {}, lambda n: "[" * (n // 2) + "](txtfrag:a" + ")" * (n // 2) + "\n"),
    ("images without an end", ".md", {}, lambda n: "![](txtfrag:a" * (n // 13) + "\n"),
    ("markdown-include {!", ".md", {"markdown_include": True}, lambda n: "{!" * (n // 2) + "\n"),
    ("mdx_include {![", ".md", {"mdx_include": True}, lambda n: "{![" * (n // 3) + "!}\n"),
    ("variants ln[ln[", ".md", {"mdx_include": True, "include_variants": True}, lambda n: "{* a " + "ln[" * (n // 3) + " *}\n"),
    ("snippets --8<--", ".md", {"snippets": True}, lambda n: '--8<-- "' + "a" * n + "\n"),
    ("snippets section marks", ".md", {"snippets": True}, lambda n: "--8<-- [start:" + "--8<-- " * (n // 7) + "\n"),
    ("mdBook {{#include", ".md", {"mdbook": True}, lambda n: "{{#include " * (n // 11) + "\n"),
    ("VitePress <<< x{{{", ".md", {"vitepress": True}, lambda n: "<<< x" + "{" * n + "\n"),
    ("VitePress <<< { }", ".md", {"vitepress": True}, lambda n: "<<< y" + "{ " * (n // 2) + "}\n"),
    ("code import file=", ".md", {"code_import": True}, lambda n: "```js file=" + "a " * (n // 2) + "\n```\n"),
    ("AsciiDoc entry of blanks", ".adoc", {}, lambda n: ":a:" + " " * n + "x\ninclude::{a}[]\n"),
    ("AsciiDoc include of braces", ".adoc", {}, lambda n: "include::" + "{" * n + "[]\n"),
    ("AsciiDoc attributes", ".adoc", {}, lambda n: "include::" + "{a}" * (n // 3) + "[lines=1]\n"),
    ("AsciiDoc entries and includes", ".adoc", {}, lambda n: f":a{n}:" + " x" * (n // 2) + "\ninclude::{a}[]\n"),
    ("AsciiDoc ifdef", ".adoc", {}, lambda n: "ifdef::" + "a," * (n // 2) + "[]\ninclude::x[]\n"),
]


def _ratio(page: Callable[[int], str], suffix: str, engines: dict[str, bool]) -> tuple[float, float]:
    """The work on ``page(8)`` over that on ``page(1)``: the fastest of three tries of each, taken in turn so
    that a machine busy for a moment slows both."""
    one, four = page(1), page(8)
    small = large = float("inf")
    for _ in range(3):
        small = min(small, _cost(one, suffix, engines))
        large = min(large, _cost(four, suffix, engines))
    return large / small, large


@pytest.mark.parametrize(("suffix", "engines", "line"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_lines_eight_times_longer_cost_about_eight_times_the_work(
    suffix: str, engines: dict[str, bool], line: Callable[[int], str]
) -> None:
    ratio, took = _ratio(lambda k: line(LONG * k // 8) * 10, suffix, engines)
    assert ratio < 16, f"eight times longer lines cost {ratio:.1f} times the work ({took * 1000:.0f} ms)"


@pytest.mark.parametrize(("suffix", "engines", "line"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_eight_times_as_many_lines_cost_about_eight_times_the_work(
    suffix: str, engines: dict[str, bool], line: Callable[[int], str]
) -> None:
    ratio, took = _ratio(lambda k: line(20) * (400 * k), suffix, engines)
    assert ratio < 16, f"eight times as many lines cost {ratio:.1f} times the work ({took * 1000:.0f} ms)"
