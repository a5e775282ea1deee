"""The docstrings' examples, run against the installed package (not the source tree beside the tests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import textfrag

MODULES = sorted(m.name for m in pkgutil.walk_packages(textfrag.__path__, "textfrag.") if m.name != "textfrag.__main__")


def test_every_core_module_is_collected() -> None:
    assert {"textfrag.reference.grammar", "textfrag.source.cache", "textfrag.reference.dialects.wilde"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed (see above)"
