"""The conformance vectors (RFC 5147 section 5 examples; the sinclude test suite), via the API.

The vectors kept in tests/data always run; the team's shared/conformance beside the checkout, when it is
there, runs too, so that a vector added there is checked before it is copied here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from textfrag import SourceCache, TextFragError, quote

from ..conftest import SHARED, conformance_cases

CASES = conformance_cases()
SHARED_CASES = conformance_cases(SHARED / "conformance") if (SHARED / "conformance").is_dir() else []


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


@pytest.mark.skipif(not SHARED_CASES, reason="no shared/conformance beside the checkout (an extra check only)")
@pytest.mark.parametrize(("name", "case"), SHARED_CASES, ids=[c[0] for c in SHARED_CASES])
def test_shared_conformance_vector(name: str, case: dict[str, object], tmp_path: Path) -> None:
    _check(case, tmp_path)
