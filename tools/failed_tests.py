"""The names of the tests that failed or errored in a pytest JUnit XML report, one a line, for the last lines
of ``make test`` (the suite's own summary scrolls away behind mypy's report)."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def main(report: str) -> int:
    if not Path(report).is_file():
        print("make test: the suite wrote no report (it stopped before the tests ran)")
        return 0
    failed = [
        f"{case.get('classname', '')}::{case.get('name', '')}"
        for case in ElementTree.parse(report).getroot().iter("testcase")
        if case.find("failure") is not None or case.find("error") is not None
    ]
    print(f"make test: {len(failed)} failed" + (":" if failed else ""))
    for name in failed:
        print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
