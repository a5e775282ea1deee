"""A VitePress site's configuration (``.vitepress/config.mts``, ``.ts``, ``.mjs`` or ``.js``), read without
running it: its source folder (``srcDir``, when written as a string), the pages it leaves out
(``srcExclude``, when written as a list of strings), the folder the site lives in.

VitePress renders a ``txtfrag:`` reference when the configuration uses markdown-it-textfrag
(``md.use(textfrag)``); its own quotes are its ``<<<`` snippets, which guard mode protects when
``TEXTFRAG_GUARD=1`` is set where textfrag runs. The root is the top of the git repository that holds the
site, else the npm project's folder (the nearest holding a ``package.json``, where ``vitepress build``
runs), else the site's (``TEXTFRAG_ROOT`` says otherwise, from the site's folder), so that
``<<< @/../src/app.ts`` is under it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .switch import guard_switched_on

__all__ = ["VITEPRESS_NAMES", "read_vitepress", "site_top"]

#: where a VitePress site keeps its configuration, from the site's folder
VITEPRESS_NAMES = tuple(f".vitepress/config.{x}" for x in ("mts", "ts", "mjs", "js", "cts", "cjs"))
_SRC_DIR = re.compile(r"""\bsrcDir\s*:\s*(['"])([^'"]+)\1""")
_SRC_EXCLUDE = re.compile(r"""\bsrcExclude\s*:\s*\[([^\]]{0,4000})\]""")
_STRING = re.compile(r"""(['"])([^'"\n]*)\1""")


def read_vitepress(path: Path, text: str) -> dict[str, object]:
    """The settings of a VitePress configuration file: its root, source folder and whether guard mode is on."""
    site = path.parent.parent
    found = _SRC_DIR.search(text)
    srcdir = (site / found.group(2)).resolve() if found else site.resolve()
    given = os.environ.get("TEXTFRAG_ROOT")
    guard = guard_switched_on(path.parent)
    listed = _SRC_EXCLUDE.search(text)
    excluded = tuple(m.group(2) for m in _STRING.finditer(listed.group(1))) if listed else ()
    root = (site / given).resolve() if given else site_top(site)
    return {"root": root, "srcdir": srcdir, "guard": guard, "exclude": excluded}


def site_top(site: Path) -> Path:
    """The root of a JavaScript engine's site: the top of the git repository that holds it, else the nearest
    folder at or above it with a ``package.json`` (the npm project, where its build runs), else the site."""
    site = site.resolve()
    for marker in (".git", "package.json"):
        for folder in (site, *site.parents):
            if (folder / marker).exists():
                return folder
    return site
