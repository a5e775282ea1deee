"""What ``check`` and ``update`` found, as people and machines read it: text, GitHub Actions workflow
commands, or JSON (the manual's reference/cli page). One list of findings, several renderings, as ruff's
``--output-format`` does; the JSON follows the schema shipped in ``textfrag/schemas/results.schema.json``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, NamedTuple
from urllib.parse import quote

from .._version import __version__
from ..errors import StaleError, TextFragError, UnpinnedError, inert_json, spell, spell_lines

__all__ = [
    *("FORMATS", "Finding", "github_commands", "json_results", "sarif_document", "sarif_log", "SCHEMA_VERSION"),
    *("OutputFormat", "TEXT", "GITHUB", "JSON", "SARIF", "MARKDOWN", "IMPACT_FORMATS", "names_of", "output_format"),
    *("machine_readable", "chosen_format", "findings_document"),
]


class OutputFormat(NamedTuple):
    """One way a run says what it found, declared once: its ``--format`` name and how it is written."""

    name: str
    #: one document a program reads on standard output, and nothing else said there (JSON, SARIF)
    machine: bool = False
    #: every result listed, the current ones too (JSON); the others say only what is wrong
    every: bool = False
    #: GitHub Actions workflow commands written before the text, which a job turns into annotations
    annotations: bool = False


TEXT = OutputFormat("text")
GITHUB = OutputFormat("github", annotations=True)
JSON = OutputFormat("json", machine=True, every=True)
SARIF = OutputFormat("sarif", machine=True)
#: ``impact``'s pull request comment: one document, a person's (what is said on standard error is kept)
MARKDOWN = OutputFormat("markdown")

#: every command's output formats
FORMATS = (TEXT, GITHUB, JSON, SARIF)
#: ``impact``'s: those and its pull request comment
IMPACT_FORMATS = (*FORMATS, MARKDOWN)


def names_of(formats: Sequence[OutputFormat] = FORMATS) -> tuple[str, ...]:
    """The ``--format`` choices of ``formats``."""
    return tuple(f.name for f in formats)


def output_format(fmt: str | None, environ: Mapping[str, str], formats: Sequence[OutputFormat] = IMPACT_FORMATS) -> OutputFormat:
    """The format a run writes: the one asked for; else GitHub's workflow commands in a GitHub Actions job
    (``GITHUB_ACTIONS=true``), where they become annotations; else text."""
    name = chosen_format(fmt, environ)
    return next(f for f in formats if f.name == name)


def machine_readable(fmt: str | None) -> bool:
    """Whether ``--format`` asks for one document a program reads (JSON, SARIF): nothing else is printed."""
    return any(f.machine and f.name == fmt for f in IMPACT_FORMATS)


def chosen_format(fmt: str | None, environ: Mapping[str, str]) -> str:
    """The name of the format a run writes (:func:`output_format`)."""
    return fmt or (GITHUB.name if environ.get("GITHUB_ACTIONS") == "true" else TEXT.name)


SCHEMA_VERSION = 1

Status = Literal["current", "stale", "bad", "unpinned"]


class Warned(NamedTuple):
    """A warning of one reference: its kind (``bidi``, ``integrity``, or the kind of a problem a setting
    relaxed) and what it says."""

    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


class Finding(NamedTuple):
    """One reference checked (or one document that could not be read, with ``reference`` None)."""

    document: str
    line: int  # 0: the document as a whole
    column: int
    reference: str | None
    error: TextFragError | None = None
    #: warnings that do not fail (``bidi``: the quote holds bidirectional control characters; ``integrity``:
    #: a misspelt check; a stale quote where stale ones warn)
    warnings: tuple[Warned, ...] = ()
    #: the reference carries an md5 (textfrag.verdict.pins); None for a document that could not be read
    pinned: bool | None = None

    @property
    def status(self) -> Status:
        """``current``, ``stale`` (an integrity check failed), ``bad`` (cannot be quoted) or ``unpinned``
        (no md5, where pins are required)."""
        if self.error is None:
            return "current"
        if isinstance(self.error, UnpinnedError):
            return "unpinned"
        return "stale" if isinstance(self.error, StaleError) else "bad"

    @property
    def message(self) -> str:
        """What is wrong, in plain words (empty for a current reference)."""
        return "" if self.error is None else self.error.message

    @property
    def drift(self) -> str | None:
        """For a stale reference whose drift was explained: moved, invisible, changed or unknown."""
        return self.error.drift if isinstance(self.error, StaleError) else None

    @property
    def new_reference(self) -> str | None:
        """For a moved quote, the reference that quotes the same text now."""
        return self.error.new_reference if isinstance(self.error, StaleError) else None


def escape_data(text: str) -> str:
    # GitHub's workflow command encoding (actions/toolkit, command.ts); the message's own line breaks are
    # kept as %0A, every other control character is spelled out (an ESC would reach the log's terminal)
    return spell_lines(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_commands(findings: Iterable[Finding]) -> list[str]:
    """One ``::error`` workflow command per problem, so that GitHub marks the line in the pull request."""
    out = []
    for f in findings:
        for warning in f.warnings:
            where = [f"file={escape_property(spell(f.document))}", f"line={f.line}", f"col={max(1, f.column)}"]
            where.append(f"title={escape_property(f'textfrag: {warning.kind}')}")
            said = f"{spell(f.reference or '')}: {warning}"
            out.append(f"::warning {','.join(where)}::{escape_data(said)}")
        if f.error is None:
            continue
        props = [f"file={escape_property(spell(f.document))}"]
        if f.line:
            props += [f"line={f.line}", f"col={max(1, f.column)}"]
        props.append(f"title={escape_property('textfrag: ' + f.status)}")
        body = f"{spell(f.reference)}: {f.error.message}" if f.reference else f.error.message
        detail = f.error.detail()
        if detail:
            body = f"{body}\n{detail}"
        out.append(f"::error {','.join(props)}::{escape_data(body)}")
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
            "kind": None if f.error is None else f.error.kind,
            "pinned": f.pinned,
            **({"warnings": [w.message for w in f.warnings]} if f.warnings else {}),
        }
        for f in findings
    ]
    counts = {status: sum(r["status"] == status for r in results) for status in ("current", "stale", "bad", "unpinned")}
    document = {"version": SCHEMA_VERSION, "command": command, "summary": summary, "counts": counts, "results": results}
    import json  # only --format json and sarif pay for it

    return inert_json(json.dumps(document, ensure_ascii=False, indent=2))


#: SARIF rules, one per kind of problem (TextFragError.kind): id, name, what it means, how to fix it
#: the kinds that are only ever warnings
_WARNINGS = ("bidi", "integrity", "language")
RULES: dict[str, tuple[str, str, str]] = {
    "stale": (
        "StaleQuote",
        "A quoted file changed since the reference was made: an integrity check (length, md5) failed.",
        "If the quoted text only moved, `textfrag update --write` rewrites the reference; otherwise review the "
        "change and mint a new reference with `textfrag make`.",
    ),
    "syntax": (
        "BadFragment",
        "The reference does not follow its fragment syntax.",
        "Correct the reference; the message shows where.",
    ),
    "missing": (
        "MissingFile",
        "The quoted file does not exist, is outside the root, or is not a regular file.",
        "Correct the path (relative to the root) or the root.",
    ),
    "decode": ("UndecodableFile", "The quoted file does not decode in its charset.", "Set the charset the file is written in."),
    "source": ("UnusableFile", "The quoted file cannot be used as text.", "Set a charset the file is written in."),
    "unverifiable": ("UnverifiableCheck", "An integrity check cannot be verified.", "Use a charset the text can be encoded in."),
    "empty": (
        "EmptyExcerpt",
        "The excerpt shows nothing: its range starts at or past the end of the file, or its marker, region or anchor "
        "selects no line.",
        "Quote lines the file has: `textfrag make PATH --lines A-B` prints the reference (1-based lines).",
    ),
    "unpinned": (
        "UnpinnedReference",
        "The reference has no md5: a change of the quoted file goes unnoticed (pins are required here).",
        "Run `textfrag pin --write` to add length and md5 in place.",
    ),
    "bidi": (
        "HiddenText",
        "The quoted text holds bidirectional control characters: it may read differently from what it is "
        "(Trojan Source, CVE-2021-42574).",
        "Look at the quoted lines in an editor that shows these characters; if they are meant, silence the warning "
        "(`textfrag check --allow-bidi`, Sphinx `suppress_warnings = ['textfrag.bidi']`, MkDocs `warn_bidi: false`).",
    ),
    "language": (
        "UnknownLanguage",
        "The highlighting language named is none Pygments knows: the excerpt is shown without highlighting (Sphinx "
        "warns, and a build with -W fails).",
        "Name a Pygments lexer (`pygmentize -L lexers` lists them), or leave the language out to take the file's.",
    ),
    "integrity": (
        "MisspeltIntegrityCheck",
        "An integrity check whose name is a misspelling of length or md5 (lenght=, md6=): RFC 5147 ignores it, "
        "so the reference is less protected than it reads. A warning: it fails nothing.",
        "Run `textfrag pin --write`: it corrects the name (or write length= or md5= by hand).",
    ),
    "option": (
        "BadOption",
        "An option written with the reference is not one the excerpt takes, or its value cannot be used.",
        "Correct the option; the message names the closest one, and `textfrag options` lists them all.",
    ),
    "intent": (
        "IntentMismatch",
        "The intent written with the reference (:pyobject:, :symbol:, :region:, markers, :lines:) names nothing, "
        "or no longer selects the pinned lines.",
        "If the file changed, `textfrag update --accept --write` re-pins the reference to what the intent selects "
        "now; otherwise correct the intent.",
    ),
    "form": (
        "UnrenderedForm",
        "The reference is written in a form the engine does not render as an excerpt (a Markdown image or link "
        "in a MyST document of a Sphinx project).",
        "Write it in one of the engine's forms; the message names them.",
    ),
    "link": (
        "LinkWithoutTarget",
        "A txtfrag: link has nowhere to go: no page embeds the same reference and no source_url is set (the build "
        "warns, and --strict fails it).",
        "Embed the reference on a page, or set source_url so that the link opens the quoted lines.",
    ),
    "error": ("BadReference", "The reference cannot be quoted.", "Correct the reference; the message says what is wrong."),
}


def sarif_log(findings: Iterable[Finding]) -> str:
    """The problems as a SARIF 2.1.0 log (one run, a rule per kind of problem), for code scanning."""
    findings = list(findings)
    problems = [f for f in findings if f.error is not None]
    kinds = sorted({f.error.kind if f.error.kind in RULES else "error" for f in problems if f.error is not None})
    warned = {w.kind if w.kind in RULES else "error" for f in findings for w in f.warnings}
    kinds = sorted({*kinds, *warned})
    rules = [
        {
            "id": f"textfrag/{kind}",
            "name": RULES[kind][0],
            "shortDescription": {"text": RULES[kind][1]},
            "fullDescription": {"text": RULES[kind][1]},
            "help": {"text": RULES[kind][2], "markdown": RULES[kind][2]},
            "defaultConfiguration": {"level": "warning" if kind in _WARNINGS else "error"},
        }
        for kind in kinds
    ]
    results = []
    for f in problems:
        assert f.error is not None
        kind = f.error.kind if f.error.kind in RULES else "error"
        location: dict[str, object] = {"artifactLocation": {"uri": quote(f.document)}}
        if f.line:
            location["region"] = {"startLine": f.line, "startColumn": max(1, f.column)}
        text = f"{f.reference}: {f.error.message}" if f.reference else f.error.message
        results.append(
            {
                "ruleId": f"textfrag/{kind}",
                "ruleIndex": kinds.index(kind),
                "level": "error",
                "message": {"text": text},
                "locations": [{"physicalLocation": location}],
            }
        )
    for f in findings:
        for warning in f.warnings:
            region = {"startLine": f.line, "startColumn": max(1, f.column)}
            location = {"artifactLocation": {"uri": quote(f.document)}, "region": region}
            results.append(
                {
                    "ruleId": f"textfrag/{warning.kind if warning.kind in RULES else 'error'}",
                    "ruleIndex": kinds.index(warning.kind if warning.kind in RULES else "error"),
                    "level": "warning",
                    "message": {"text": f"{f.reference}: {warning}"},
                    "locations": [{"physicalLocation": location}],
                }
            )
    return sarif_document(rules, results)


def sarif_document(rules: Sequence[Mapping[str, object]], results: Sequence[Mapping[str, object]]) -> str:
    """A SARIF 2.1.0 log of one run of textfrag, with its rules and results (``check``, ``impact``)."""
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "textfrag",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/textfrag/",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    import json

    return inert_json(json.dumps(log, ensure_ascii=False, indent=2))


def findings_document(form: OutputFormat, findings: Iterable[Finding], *, command: str, summary: str) -> str | None:
    """The one document a machine-readable format writes of ``findings`` (None: the format is a person's)."""
    if form is JSON:
        return json_results(findings, command=command, summary=summary)
    if form is SARIF:
        return sarif_log(findings)
    return None
