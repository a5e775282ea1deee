"""A subpackage's surface, imported when first used: what it exports is declared once (its ``__all__``
and the module each name comes from), and a command imports only the modules it runs.

A name that is also one of the package's modules (``drift.classify``) is not exported: once that module is
imported, Python makes it the package's attribute, and the name would then be the module."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping


def exported(package: str, where: Mapping[str, str], name: str) -> object:
    """``package``'s exported ``name``, from its module in ``where`` (kept on the package once found);
    AttributeError for a name it does not export."""
    module = where.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{package}.{module}"), name)
    setattr(sys.modules[package], name, value)
    return value
