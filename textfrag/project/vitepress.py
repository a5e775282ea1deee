"""A VitePress site's configuration (``.vitepress/config.mts``, ``.ts``, ``.mjs`` or ``.js``), read without
running it: its source folder (``srcDir``, when written as a string), the folder the site lives in.

VitePress renders no ``txtfrag:`` reference (textfrag has no VitePress plugin): a site's quotes are its
``<<<`` snippets, which guard mode protects when ``TEXTFRAG_GUARD=1`` is set where textfrag runs. The
root is the top of the git repository that holds the site (``TEXTFRAG_ROOT`` says otherwise, from the
site's folder), so that ``<<< @/../src/app.ts`` is under it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .switch import guard_switched_on

__all__ = ["VITEPRESS_NAMES", "read_vitepress"]

#: where a VitePress site keeps its configuration, from the site's folder
VITEPRESS_NAMES = tuple(f".vitepress/config.{x}" for x in ("mts", "ts", "mjs", "js", "cts", "cjs"))
_SRC_DIR = re.compile(r"""\bsrcDir\s*:\s*(['"])([^'"]+)\1""")


def read_vitepress(path: Path, text: str) -> dict[str, object]:
    """The settings of a VitePress configuration file: its root, source folder and whether guard mode is on."""
    site = path.parent.parent
    found = _SRC_DIR.search(text)
    srcdir = (site / found.group(2)).resolve() if found else site.resolve()
    top = site.resolve()
    while not (top / ".git").exists() and top.parent != top:
        top = top.parent
    if not (top / ".git").exists():
        top = site.resolve()
    given = os.environ.get("TEXTFRAG_ROOT")
    guard = guard_switched_on(path.parent)
    return {"root": (site / given).resolve() if given else top, "srcdir": srcdir, "guard": guard}
