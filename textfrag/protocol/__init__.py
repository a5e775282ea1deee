"""The batch protocol: one JSON request in (the documents of a build, or references a plugin has already
found), one JSON answer out (for each reference and guarded include: its excerpt, its problems, its
repair). ``textfrag batch`` speaks it on standard input and output, so that a plugin of an engine written
in another language (remark, markdown-it, Asciidoctor.js) is a thin adapter; the mdBook preprocessor
speaks it in the same process. The manual's reference/protocol page documents it.

May import: every layer below the command line (``textfrag.guard`` and under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .batch import RequestError, answer
    from .version import PROTOCOL

__all__ = ["PROTOCOL", "RequestError", "answer"]

_WHERE = {"PROTOCOL": "version", "RequestError": "batch", "answer": "batch"}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
