"""MkDocs plugin for textfrag; a shell until the MkDocs issue lands."""

from __future__ import annotations
