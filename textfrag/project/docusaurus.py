"""A Docusaurus site's configuration (``docusaurus.config.js``, ``.ts``, ``.mjs``), read without running it.

Docusaurus renders a ``txtfrag:`` reference when the configuration names remark-textfrag among its remark
plugins; its own quotes are the code blocks remark-code-import fills (```` ```js file=./app.js#L3-L6 ````),
which guard mode protects when ``TEXTFRAG_GUARD=1`` is set where textfrag runs. The root is the top of the
git repository that holds the site, else the site's folder (``TEXTFRAG_ROOT`` says otherwise, from the
site's folder).
"""

from __future__ import annotations

import os
from pathlib import Path

from .switch import guard_switched_on
from .vitepress import site_top

__all__ = ["DOCUSAURUS_NAMES", "read_docusaurus"]

#: a Docusaurus site's configuration files
DOCUSAURUS_NAMES = ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs")


def read_docusaurus(path: Path) -> dict[str, object]:
    """The settings of a Docusaurus configuration: its root, its docs folder, whether guard mode is on."""
    site = path.parent.resolve()
    given = os.environ.get("TEXTFRAG_ROOT")
    guard = guard_switched_on(path.parent)
    return {"root": (site / given).resolve() if given else site_top(site), "srcdir": site / "docs", "guard": guard}
