"""Sphinx extension for textfrag (see the Sphinx issue); a shell until then."""

from __future__ import annotations
