"""textfrag for mystmd / Jupyter Book 2: the executable plugin ``textfrag-myst``."""

from __future__ import annotations
