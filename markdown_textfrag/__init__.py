"""textfrag for Python-Markdown: the ``textfrag`` extension (Zensical, ProperDocs, MkDocs, plain
Python-Markdown), and the page machinery the MkDocs plugin shares with it.

``markdown.markdown(text, extensions=["textfrag"])`` finds it through the ``markdown.extensions`` entry
point; ``markdown_textfrag.extension.makeExtension`` is the same.
"""

from __future__ import annotations
