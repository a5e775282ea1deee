"""The conformance vectors (RFC 5147 section 5 examples; the sinclude test suite), via the API.

The vectors are kept in tests/data (see its README).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from textfrag import SourceCache, TextFragError, quote

from ..conftest import conformance_cases

CASES = conformance_cases()


def test_vectors_are_present() -> None:
    assert len(CASES) >= 21


def _check(case: dict[str, object], folder: Path) -> None:
    (folder / "c.txt").write_bytes(str(case["text"]).encode("utf-8"))
    cache = SourceCache(folder)
    try:
        q = quote(cache, f"c.txt#{case['fragment']}")
        code = 1 if q.stale else 0
    except TextFragError as e:
        code = e.exit_code
        q = None
    assert code == case["exit"]
    if case["excerpt"] is not None:
        assert q is not None and q.text == case["excerpt"]


@pytest.mark.parametrize(("name", "case"), CASES, ids=[c[0] for c in CASES])
def test_conformance_vector(name: str, case: dict[str, object], tmp_path: Path) -> None:
    _check(case, tmp_path)
