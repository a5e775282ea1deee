"""Guard mode: the includes a project already has (``literalinclude``, ``pymdownx.snippets``,
markdown-include), left as they are and protected as ``txtfrag:`` references are.

``textfrag pin --write`` records, in the lock file beside the build's configuration (``textfrag.lock``),
the length and md5 of the text each include shows; the build, ``check`` and the editor compare what it
shows now with what was recorded, through the one verdict (:func:`judge_include`), and explain a
difference from git history: moved (``update --write`` gives the include its new lines), renamed (its
new path), changed (with the diff; ``update --accept --write`` records the reviewed text).

- :mod:`.model`: what an include is, and the interface every include engine implements;
- one module per engine (:mod:`.literal`, :mod:`.snippets`, :mod:`.mdinclude`, :mod:`.mdxinclude`,
  :mod:`.variants`, :mod:`.mdbook`, :mod:`.asciidoc`, :mod:`.vitepress`, :mod:`.codeimport`), listed by
  :mod:`.registry`: how it finds its includes, what they show (no engine imported), how their numbers move;
- :mod:`.includes`: the includes of a document, found by the engines its build runs;
- :mod:`.shown`: what an include shows, as its engine says;
- :mod:`.model` also loads an engine's own code, where an installed adapter offers it (entry point group
  ``textfrag.engines``) to say what its includes show;
- :mod:`.lock`: the lock file;
- :mod:`.judge`: the verdict on one include, its drift and its repair.

May import: the layers below it (``textfrag.project``, ``textfrag.repair``, ``textfrag.report``,
``textfrag.migrate`` and under).
"""

from __future__ import annotations

from .context import GuardContext, Shown, context_of, mdx_settings
from .includes import find_guarded, guarded_by
from .judge import Explainer, IncludeRepair, UnrecordedError, empty_include, found_of, judge_include
from .literal import LITERAL
from .lock import LOCK_NAME, Lock, record_of
from .mdbook import escaped_for_links
from .model import EngineRun, GuardedInclude, engines_run
from .shown import shown_text

__all__ = [
    "Explainer",
    "EngineRun",
    "engines_run",
    "LITERAL",
    "UnrecordedError",
    "escaped_for_links",
    "found_of",
    "mdx_settings",
    "GuardContext",
    "GuardedInclude",
    "IncludeRepair",
    "LOCK_NAME",
    "Lock",
    "Shown",
    "context_of",
    "empty_include",
    "find_guarded",
    "guarded_by",
    "judge_include",
    "record_of",
    "shown_text",
]
