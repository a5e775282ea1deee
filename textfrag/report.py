"""What ``check`` and ``update`` found, as people and machines read it: text, GitHub Actions workflow
commands, or JSON (shared/CONTRACT.md section 3). One list of findings, several renderings, as ruff's
``--output-format`` does; the JSON follows the schema shipped in ``textfrag/schemas/results.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .errors import StaleError, TextFragError

__all__ = ["FORMATS", "Finding", "github_commands", "json_results", "SCHEMA_VERSION"]

FORMATS = ("text", "github", "json")
SCHEMA_VERSION = 1

Status = Literal["current", "stale", "bad"]


@dataclass(frozen=True)
class Finding:
    """One reference checked (or one document that could not be read, with ``reference`` None)."""

    document: str
    line: int  # 0: the document as a whole
    column: int
    reference: str | None
    error: TextFragError | None = None

    @property
    def status(self) -> Status:
        """``current``, ``stale`` (an integrity check failed) or ``bad`` (cannot be quoted)."""
        if self.error is None:
            return "current"
        return "stale" if isinstance(self.error, StaleError) else "bad"

    @property
    def message(self) -> str:
        """What is wrong, in plain words (empty for a current reference)."""
        return "" if self.error is None else self.error.message

    @property
    def drift(self) -> str | None:
        """For a stale reference whose drift was explained: moved, changed or unknown."""
        return self.error.drift if isinstance(self.error, StaleError) else None

    @property
    def new_reference(self) -> str | None:
        """For a moved quote, the reference that quotes the same text now."""
        return self.error.new_reference if isinstance(self.error, StaleError) else None


def _escape_data(text: str) -> str:
    # GitHub's workflow command encoding (actions/toolkit, command.ts)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_commands(findings: Iterable[Finding]) -> list[str]:
    """One ``::error`` workflow command per problem, so that GitHub marks the line in the pull request."""
    out = []
    for f in findings:
        if f.error is None:
            continue
        props = [f"file={_escape_property(f.document)}"]
        if f.line:
            props += [f"line={f.line}", f"col={max(1, f.column)}"]
        props.append(f"title={_escape_property('textfrag: ' + f.status)}")
        body = f"{f.reference}: {f.error.message}" if f.reference else f.error.message
        detail = f.error.detail()
        if detail:
            body = f"{body}\n{detail}"
        out.append(f"::error {','.join(props)}::{_escape_data(body)}")
    return out


def json_results(findings: Iterable[Finding], *, command: str, summary: str) -> str:
    """Every reference checked as one JSON object (textfrag/schemas/results.schema.json)."""
    results = [
        {
            "document": f.document,
            "line": f.line,
            "column": f.column,
            "reference": f.reference,
            "status": f.status,
            "drift": f.drift,
            "new_reference": f.new_reference,
            "message": f.message,
        }
        for f in findings
    ]
    counts = {status: sum(r["status"] == status for r in results) for status in ("current", "stale", "bad")}
    document = {"version": SCHEMA_VERSION, "command": command, "summary": summary, "counts": counts, "results": results}
    return json.dumps(document, ensure_ascii=False, indent=2)
