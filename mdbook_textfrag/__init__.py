"""``mdbook-textfrag``: textfrag as an mdBook preprocessor, an adapter over the core's one verdict.

In ``book.toml`` (mdBook runs ``mdbook-textfrag`` for this table; ``textfrag-mdbook`` is the same command)::

    [preprocessor.textfrag]
    before = ["links"]      # (guard mode judges the {{#include}}s before mdBook replaces them)
    guard = true            # optional: guard the book's {{#include}}s (or TEXTFRAG_GUARD=1)
    root = "."              # optional: the folder references are relative to (the book's, by default)

mdBook hands the book to the preprocessor as JSON on standard input and builds what it prints. Each
``![caption](txtfrag:REF)`` image of a chapter becomes its excerpt: a ``div.txtfrag`` with its id and
``data-txtfrag-*`` values around a fenced code block that mdBook highlights. With guard mode, each
``{{#include}}`` is judged against its record in ``textfrag.lock`` beside ``book.toml``, as ``textfrag
check`` judges it. Every problem is written as ``src/chapter.md:LINE: REF: what is wrong`` and the build
fails (exit 1); with ``on_stale = "warning"`` a stale quote is a warning.
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """The preprocessor's command: ``supports RENDERER`` (every renderer), or the book on standard input."""
    from .preprocessor import run

    return run(argv)
