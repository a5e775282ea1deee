# The textfrag manual: built by textfrag itself (`make docs`), quoting this repository through pinned
# references, so that the manual fails its own build when a quote drifts.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "textfrag"
author = "the textfrag authors"
copyright = "2026, the textfrag authors"
# commands and options are never typeset: --write stays two hyphens, quotes stay straight
smartquotes = False
extensions = ["sphinx_textfrag", "myst_parser", "textfrag_reference", "sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
textfrag_root = ".."  # reference paths are relative to the repository
textfrag_require_pin = True  # every quote is pinned: an edit of a quoted file fails this build
exclude_patterns = ["_build"]
html_title = "textfrag"
try:
    import furo  # noqa: F401

    html_theme = "furo"
except ImportError:  # (the manual builds with Sphinx's own theme too)
    html_theme = "alabaster"
html_static_path = ["_static"]
