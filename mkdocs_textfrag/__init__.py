"""MkDocs plugin for textfrag (see the MkDocs issue); a shell until then."""

from __future__ import annotations
