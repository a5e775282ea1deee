"""The core's findings and repairs as protocol values: diagnostics over a reference's exact span, and
the workspace edits of the quick fixes."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from textfrag import TextFragError
from textfrag.errors import StaleError, UnpinnedError
from textfrag.guard import IncludeRepair, Lock, UnrecordedError, record_of, shown_text
from textfrag.project import lets_pass
from textfrag.repair import repair
from textfrag.verdict import intent_of, misspelt_warnings, pinned_form

from .model import Finding, Lines, Project

SOURCE = "textfrag"


def range_of(lines: Lines, start: int, end: int) -> lsp.Range:
    a, b = lines.position(start), lines.position(end)
    return lsp.Range(start=lsp.Position(line=a[0], character=a[1]), end=lsp.Position(line=b[0], character=b[1]))


def _code(err: TextFragError) -> str:
    return err.kind if err.kind else "error"


def diagnostics_of(f: Finding, project: Project, lines: Lines) -> list[lsp.Diagnostic]:
    """What ``check`` says of one reference, as diagnostics over its exact span."""
    if f.problem is None and f.hidden is None and (f.pinned or (f.ref is None and f.include is None)):
        return []  # (the common case: nothing to say, nothing to compute)
    out = []
    span = range_of(lines, f.found.start, f.found.end)
    if f.problem is not None:
        err = f.problem
        # (a warning where the build's settings let it pass, as check says: on_stale unless strict, suppress_warnings)
        severity = lsp.DiagnosticSeverity.Warning if lets_pass(project.config, err) else lsp.DiagnosticSeverity.Error
        detail = err.detail()
        message = err.message + (f"\n{detail}" if detail else "")
        data = {"drift": getattr(err, "drift", None)}
        out.append(lsp.Diagnostic(range=span, message=message, severity=severity, source=SOURCE, code=_code(err), data=data))
    elif f.include is not None and not f.pinned:
        out.append(
            lsp.Diagnostic(
                range=span,
                message=UnrecordedError(reference=f.include.text).message,
                severity=lsp.DiagnosticSeverity.Information,
                source=SOURCE,
                code="unpinned",
            )
        )
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
    if f.ref is not None and f.ref.fragment is not None and not all(c.known for c in f.ref.fragment.checks):
        for warning in misspelt_warnings(f.ref):  # (the core's words: lenght=, md6=)
            out.append(
                lsp.Diagnostic(
                    range=span, message=warning.message, severity=lsp.DiagnosticSeverity.Warning, source=SOURCE, code="integrity"
                )
            )
    return out


def include_fix(
    f: Finding, project: Project, *, accept: bool, onto: Lock | None = None
) -> tuple[str, list[tuple[int, int, str]], Lock] | None:
    """Guard mode: (what, edits of the document, the lock file as it will be) that repair, accept or
    record one include, as ``update`` (``--accept``) and ``pin`` write them; ``onto``: the lock file as
    other fixes leave it (fix all)."""
    inc, lock = f.include, f.lock
    if inc is None or lock is None or project.guard is None:
        return None
    doc = Path(inc.doc)
    name = lock.doc_name(doc)
    after = onto if onto is not None else lock.copy()
    repair = f.problem.outcome if isinstance(f.problem, StaleError) else None
    if isinstance(repair, IncludeRepair):
        if repair.accept != accept:
            return None
        after.rename(name, inc.key, repair.key, repair.record)
        what = (
            "Accept what the include shows now (textfrag update --accept)"
            if accept
            else "Update the moved include (textfrag update)"
        )
        return what, list(repair.edits), after
    if f.problem is None or isinstance(f.problem, UnpinnedError):
        if f.pinned or accept:
            return None
        try:
            shown = shown_text(inc, doc, project.cache, project.guard)
        except TextFragError:
            return None
        after.put(name, inc.key, record_of(shown.text))
        return "Record what the include shows (textfrag pin)", [], after
    return None


def edit_for(f: Finding, project: Project, *, accept: bool) -> tuple[str, list[tuple[int, int, str]]] | None:
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
    intent = intent_of(f.options)
    # (a whole file's reference that its intent contradicts is pinned to the intent's lines, as pin does)
    if f.problem is None or isinstance(f.problem, UnpinnedError) or (f.ref.fragment is None and intent is not None):
        if f.pinned or accept:
            return None
        try:
            pinned = pinned_form(cache, f.ref, intent=intent)
        except TextFragError:
            return None
        if pinned.text is None:
            return None
        return "Pin the reference (textfrag pin)", [(f.found.start, f.found.end, pinned.text)]
    return None


def workspace_edit(
    doc: TextDocument, lines: Lines, edits: list[tuple[int, int, str]], lock: Lock | None = None
) -> lsp.WorkspaceEdit:
    """The edits of a document, and (guard mode) the lock file's new text: created when it is not there,
    else replaced whole (its lines are sorted: the editor shows the records that change)."""
    text_edits: list[lsp.TextEdit | lsp.AnnotatedTextEdit | lsp.SnippetTextEdit] = [
        lsp.TextEdit(range=range_of(lines, a, b), new_text=new) for a, b, new in sorted(set(edits))
    ]
    changes: list[lsp.TextDocumentEdit | lsp.CreateFile | lsp.RenameFile | lsp.DeleteFile] = []
    if text_edits:
        changes.append(
            lsp.TextDocumentEdit(
                text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version), edits=text_edits
            )
        )
    if lock is not None and lock.changed:
        uri = lock.path.resolve().as_uri()
        before = lock.path.read_text(encoding="utf-8") if lock.path.exists() else ""
        if not lock.path.exists():
            changes.append(lsp.CreateFile(uri=uri, options=lsp.CreateFileOptions(ignore_if_exists=True)))
        whole = Lines(before)
        end = whole.position(len(before))
        replace = lsp.TextEdit(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=end[0], character=end[1])),
            new_text=lock.text(),
        )
        changes.append(
            lsp.TextDocumentEdit(
                text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None), edits=[replace]
            )
        )
    return lsp.WorkspaceEdit(document_changes=changes)
