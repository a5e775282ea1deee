from __future__ import annotations

import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# shared/ sits beside the checkout (CI clones main with shared/ next to it)
SHARED = REPO.parent / "shared"


def conformance_cases() -> list[tuple[str, dict[str, object]]]:
    folder = SHARED / "conformance"
    cases = []
    for path in sorted(folder.glob("*.json")):
        for i, case in enumerate(json.loads(path.read_text(encoding="utf-8"))["cases"]):
            cases.append((f"{path.stem}[{i}]#{case['fragment']}", case))
    return cases


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A fresh root folder for references."""
    r = tmp_path / "root"
    r.mkdir()
    return r
