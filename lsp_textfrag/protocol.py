"""The core's findings and repairs as protocol values: diagnostics over a reference's exact span, and
the workspace edits of the quick fixes."""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from textfrag import TextFragError
from textfrag.errors import StaleError, UnpinnedError
from textfrag.pin import pinned_form
from textfrag.repair import repair

from .model import Finding, Lines, Project

SOURCE = "textfrag"


def _range(lines: Lines, start: int, end: int) -> lsp.Range:
    a, b = lines.position(start), lines.position(end)
    return lsp.Range(start=lsp.Position(line=a[0], character=a[1]), end=lsp.Position(line=b[0], character=b[1]))


def _code(err: TextFragError) -> str:
    return err.kind if err.kind else "error"


def _diagnostics(f: Finding, project: Project, lines: Lines) -> list[lsp.Diagnostic]:
    """What ``check`` says of one reference, as diagnostics over its exact span."""
    if f.problem is None and f.hidden is None and (f.pinned or f.ref is None):
        return []  # (the common case: nothing to say, nothing to compute)
    out = []
    span = _range(lines, f.found.start, f.found.end)
    if f.problem is not None:
        err = f.problem
        if isinstance(err, StaleError):
            severity = lsp.DiagnosticSeverity.Warning if project.on_stale == "warning" else lsp.DiagnosticSeverity.Error
        else:
            severity = lsp.DiagnosticSeverity.Error
        detail = err.detail()
        message = err.message + (f"\n{detail}" if detail else "")
        data = {"drift": getattr(err, "drift", None)}
        out.append(lsp.Diagnostic(range=span, message=message, severity=severity, source=SOURCE, code=_code(err), data=data))
    elif f.ref is not None and not f.pinned:
        out.append(
            lsp.Diagnostic(
                range=span,
                message=UnpinnedError(reference=f.ref.text).message,
                severity=lsp.DiagnosticSeverity.Information,
                source=SOURCE,
                code="unpinned",
            )
        )
    if f.hidden is not None:
        out.append(
            lsp.Diagnostic(range=span, message=f.hidden, severity=lsp.DiagnosticSeverity.Warning, source=SOURCE, code="bidi")
        )
    return out


def _edit_for(f: Finding, project: Project, *, accept: bool) -> tuple[str, list[tuple[int, int, str]]] | None:
    """(what, edits) that repair or pin one reference, as ``update`` (``--accept``) and ``pin`` would."""
    if f.ref is None:
        return None
    cache = project.cache_for(f.charset)
    if isinstance(f.problem, StaleError):
        try:
            fix = repair(cache, f.ref, f.options, accept=accept, syntax="md" if f.found.kind == "image" else "rst")
        except TextFragError:
            return None
        if fix is None or fix.new is None:
            return None
        what = (
            "Accept the current text (textfrag update --accept)"
            if fix.accepted
            else "Update the moved reference (textfrag update)"
        )
        return what, [(f.found.start, f.found.end, fix.new), *fix.follow]
    if f.problem is None or isinstance(f.problem, UnpinnedError):
        if f.pinned or accept:
            return None
        try:
            pinned = pinned_form(cache, f.ref)
        except TextFragError:
            return None
        if pinned.text is None:
            return None
        return "Pin the reference (textfrag pin)", [(f.found.start, f.found.end, pinned.text)]
    return None


def _workspace_edit(doc: TextDocument, lines: Lines, edits: list[tuple[int, int, str]]) -> lsp.WorkspaceEdit:
    text_edits: list[lsp.TextEdit | lsp.AnnotatedTextEdit | lsp.SnippetTextEdit] = [
        lsp.TextEdit(range=_range(lines, a, b), new_text=new) for a, b, new in sorted(set(edits))
    ]
    return lsp.WorkspaceEdit(
        document_changes=[
            lsp.TextDocumentEdit(
                text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
                edits=text_edits,
            )
        ]
    )
