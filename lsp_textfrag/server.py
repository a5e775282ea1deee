"""The protocol side of ``textfrag lsp`` (pygls and lsprotocol): documents in, protocol values out.

Diagnostics, hover, definition, code actions (update, accept, pin, ``source.fixAll``), completion of
paths and pinned references, references and code lenses from a quoted file to the documents that quote
it, and a refresh when a quoted file changes on disk. What each says is the core's (lsp_textfrag.model).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from textfrag import TextFragError, __version__
from textfrag.documents import MD_SUFFIXES, RST_SUFFIXES, doc_files, read_text
from textfrag.errors import StaleError, internal_error_report, spell
from textfrag.guard import Lock
from textfrag.project import nearest_config
from textfrag.source import store
from textfrag.verdict import excerpt_of, identity, lines_label, quote

from .complete import completions, typed_reference
from .links import with_link_targets
from .model import Finding, Lines, Project, suffix_for
from .protocol import diagnostics_of, edit_for, include_fix, range_of, workspace_edit
from .sync import OpenDocumentsProtocol

__all__ = ["TextfragServer", "serve"]

#: lines of an excerpt a hover shows; more are cut with a marker
HOVER_LINES = 30
#: documents the references index reads at most (a workspace larger than that is partly indexed, and says so)
MAX_INDEXED = 20_000

log = logging.getLogger("textfrag.lsp")


#: seconds a document's project is kept before its configuration is looked for again
REDISCOVER_SECONDS = 5.0


def _stamp_of(path: Path | None) -> tuple[int, int] | None:
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _path_of(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def _uri_of(path: Path) -> str:
    return path.resolve().as_uri()


class TextfragServer(LanguageServer):
    """The server: projects by root, the last findings of each open document."""

    def __init__(self) -> None:
        super().__init__("textfrag", __version__, protocol_cls=OpenDocumentsProtocol)  # (incremental sync, its default)
        self.projects: dict[tuple[Path, Path | None], Project] = {}  # (root, configuration) -> its project
        self.findings: dict[str, tuple[int | None, list[Finding]]] = {}
        self.analysed: dict[str, tuple[int | None, str, tuple[Project, list[Finding], Lines]]] = {}
        #: folder -> (its project, when found, the configuration file, its stamp then)
        self._project_of: dict[Path, tuple[Project, float, Path | None, tuple[int, int] | None]] = {}
        #: documents on disk -> (stamp, [(finding, quoted path)]): what quotes what, for the source side
        self.index: dict[Path, tuple[tuple[int, int] | None, list[tuple[Finding, str]]]] = {}
        #: (when, what the workspace's pages embed): kept for a moment, so that typing on a page whose links
        #: point to other pages does not walk the workspace on every keystroke
        self._embedded_seen: tuple[float, set[tuple[str, str]]] | None = None

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message that is not JSON gets JSON-RPC's parse error (id null), as the specification says; the
        server goes on. Anything else is reported as pygls does."""
        if isinstance(error, json.JSONDecodeError):
            self.protocol._send_response(
                None,  # type: ignore[arg-type]
                error=lsp.ResponseError(code=lsp.ErrorCodes.ParseError, message=f"not JSON: {error}"),
            )
            return
        super().report_server_error(error, source)

    # -- where ---------------------------------------------------------------------------------------

    def folders(self) -> list[Path]:
        out = []
        for folder in self.workspace.folders.values():
            path = _path_of(folder.uri)
            if path is not None:
                out.append(path)
        root = self.workspace.root_path
        if not out and root:
            out.append(Path(root))
        return out

    def folder_of(self, path: Path) -> Path | None:
        resolved = path.resolve()
        best = None
        for folder in self.folders():
            f = folder.resolve()
            if (f == resolved or f in resolved.parents) and (best is None or len(str(f)) > len(str(best))):
                best = f
        return best

    def project_for(self, path: Path) -> Project:
        """The project a document (or a quoted file) belongs to: its build's configuration, found as
        ``check`` finds it, up to its workspace folder; else the workspace folder is the root. Looked up
        again when the configuration file changed, or a few seconds later (a new one may have appeared)."""
        folder = path.parent
        kept = self._project_of.get(folder)
        now = time.monotonic()
        if kept is not None and now - kept[1] < REDISCOVER_SECONDS and _stamp_of(kept[2]) == kept[3]:
            return kept[0]
        project = self._discover(path)
        config_path = project.config.path if project.config is not None else None
        self._project_of[folder] = (project, now, config_path, _stamp_of(config_path))
        return project

    def _discover(self, path: Path) -> Project:
        top = self.folder_of(path)
        try:
            config = nearest_config(path, top)
        except TextFragError:
            config = None
        root = (config.root if config is not None else (top or path.parent)).resolve()
        # (two builds may share a root, a Sphinx and an MkDocs site quoting one repository: each reads as its own)
        key = (root, config.path.resolve() if config is not None else None)
        project = self.projects.get(key)
        if project is None:
            project = Project(root, config)
            self.projects[key] = project
        return project

    def encoding(self) -> str:
        chosen = self.workspace.position_encoding
        value = chosen.value if isinstance(chosen, lsp.PositionEncodingKind) else str(chosen or "utf-16")
        return value.lower()

    # -- documents -----------------------------------------------------------------------------------

    def analyse(self, doc: TextDocument, *, fresh: bool = True) -> tuple[Project, list[Finding], Lines] | None:
        """The findings of a document's text; without ``fresh``, those of its last analysis when it was
        of this version (a hover, a definition or a code action needs no new verification)."""
        path = _path_of(doc.uri)
        if path is None:
            return None
        if self.folders() and self.folder_of(path) is None:
            return None  # (outside the workspace: no project, no root at the document's folder)
        kept = self.analysed.get(doc.uri)
        if not fresh and kept is not None and kept[0] == doc.version and kept[1] == doc.source:
            return kept[2]
        project = self.project_for(path)
        suffix = project.read_as(path) or suffix_for(str(path), doc.language_id)
        findings = with_link_targets(project, project.analyse(doc.source, str(path), suffix), lambda: self._embedded(project))
        self.findings[doc.uri] = (doc.version, findings)
        result = project, findings, Lines(doc.source, self.encoding())
        self.analysed[doc.uri] = (doc.version, doc.source, result)
        return result

    def publish(self, uri: str) -> None:
        doc = self.workspace.get_text_document(uri)
        analysed = self.analyse(doc)
        if analysed is None:
            return
        project, findings, lines = analysed
        diagnostics = [d for f in findings for d in diagnostics_of(f, project, lines)]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=doc.version)
        )
        store.flush()  # (the definitions found, for the next session: the editor may end this one by a signal)

    def is_document(self, uri: str) -> bool:
        doc = self.workspace.text_documents.get(uri)
        path = _path_of(uri)
        if path is None:
            return False
        suffix = path.suffix.lower()
        return (
            suffix in RST_SUFFIXES
            or suffix in MD_SUFFIXES
            or (doc is not None and (doc.language_id or "") in ("restructuredtext", "markdown", "myst"))
            or self.project_for(path).read_as(path) is not None  # (a part a page pulls in: .inc, .txt)
        )

    def refresh_file(self, path: Path) -> None:
        """A file changed on disk: every project that quotes it reads it again; open documents are diagnosed
        again; the index forgets the document if it is one."""
        for project in self.projects.values():
            try:
                rel = path.resolve().relative_to(project.root).as_posix()
            except ValueError:
                continue
            project.forget(rel)
        self.index.pop(path.resolve(), None)
        self.analysed.clear()
        for uri in list(self.workspace.text_documents):
            if self.is_document(uri):
                self.publish(uri)

    # -- the source side -----------------------------------------------------------------------------

    def quoting(self, path: Path) -> list[tuple[Path, Finding, int, int]]:
        """Every reference in the workspace's documents that quotes ``path``, with the 1-based lines it
        quotes: (document, finding, first, last). Open documents as the editor has them; the others as
        on disk, each read again only when it changed."""
        out: list[tuple[Path, Finding, int, int]] = []
        for step in self.quoting_steps(path):
            out.extend(step)
        return out

    def quoting_steps(self, path: Path) -> Iterator[list[tuple[Path, Finding, int, int]]]:
        """:meth:`quoting`, one document at a time (long work that can report progress and be cancelled)."""
        target = path.resolve()
        project = self.project_for(target)
        try:
            rel = target.relative_to(project.root).as_posix()
        except ValueError:
            return
        open_docs = {}
        for uri, doc in self.workspace.text_documents.items():
            p = _path_of(uri)
            if p is not None and self.is_document(uri):
                open_docs[p.resolve()] = doc
        seen = 0
        for folder in self.folders() or [project.root]:
            for doc_path in doc_files([folder]):
                seen += 1
                if seen > MAX_INDEXED:
                    break
                doc_path = doc_path.resolve()
                step: list[tuple[Path, Finding, int, int]] = []
                for finding, quoted in self._references_of(doc_path, open_docs.get(doc_path)):
                    if quoted != rel or finding.ref is None:
                        continue
                    try:
                        q = quote(project.cache_for(finding.charset), finding.ref, explain=False)
                    except TextFragError:
                        continue
                    for piece in q.selections:
                        step.append((doc_path, finding, piece.first_line, piece.last_line))
                yield step

    def _embedded(self, project: Project) -> set[tuple[str, str]]:
        """What the workspace's pages embed (their images' references), as a link's target (looked at again
        after two seconds at most)."""
        now = time.monotonic()
        if self._embedded_seen is not None and now - self._embedded_seen[0] < 2.0:
            return self._embedded_seen[1]
        open_docs = {p.resolve(): d for u, d in self.workspace.text_documents.items() if (p := _path_of(u)) is not None}
        out: set[tuple[str, str]] = set()
        for folder in self.folders() or [project.root]:
            for n, doc_path in enumerate(doc_files([folder])):
                if n >= MAX_INDEXED:
                    break
                for finding, _ in self._references_of(doc_path.resolve(), open_docs.get(doc_path.resolve())):
                    if finding.found.kind == "image" and finding.ref is not None:
                        out.add(identity(finding.ref))
        self._embedded_seen = (now, out)
        return out

    def _references_of(self, doc_path: Path, open_doc: TextDocument | None) -> list[tuple[Finding, str]]:
        project = self.project_for(doc_path)
        if open_doc is not None:
            text = open_doc.source
            stamp = None
        else:
            try:
                st = doc_path.stat()
            except OSError:
                return []
            stamp = (st.st_size, st.st_mtime_ns)
            kept = self.index.get(doc_path)
            if kept is not None and kept[0] == stamp:
                return kept[1]
            try:
                text = read_text(doc_path, str(doc_path), project.cache.max_size)
            except TextFragError:
                return []
        from textfrag import parse_reference
        from textfrag.documents import scan_text
        from textfrag.project import html_blocks_of
        from textfrag.verdict import with_option_references

        html = html_blocks_of(project.config) if project.config is not None else None
        found, charsets = with_option_references(text, scan_text(text, str(doc_path), doc_path.suffix, html))
        out: list[tuple[Finding, str]] = []
        for f in found:
            try:
                ref = parse_reference(f.text)
            except TextFragError:
                continue
            rel = project.quoted(ref)
            if rel is not None:
                out.append((Finding(f, ref, None, False, None, charsets.get(f.start), []), rel))
        if stamp is not None:
            self.index[doc_path] = (stamp, out)
        return out


# -- diagnostics ---------------------------------------------------------------------------------------


# -- fixes ---------------------------------------------------------------------------------------------


# -- the server's features -----------------------------------------------------------------------------


def _register(ls: TextfragServer) -> None:
    @ls.feature(lsp.INITIALIZED)
    def initialized(ls: TextfragServer, params: lsp.InitializedParams) -> None:
        watched = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            ls.client_register_capability(
                lsp.RegistrationParams(
                    registrations=[
                        lsp.Registration(
                            id="textfrag-watch",
                            method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[lsp.FileSystemWatcher(glob_pattern="**/*")]
                            ),
                        )
                    ]
                )
            )

    @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TextfragServer, params: lsp.DidOpenTextDocumentParams) -> None:
        if ls.is_document(params.text_document.uri):
            ls.publish(params.text_document.uri)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TextfragServer, params: lsp.DidChangeTextDocumentParams) -> None:
        if ls.is_document(params.text_document.uri):
            ls.publish(params.text_document.uri)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TextfragServer, params: lsp.DidSaveTextDocumentParams) -> None:
        path = _path_of(params.text_document.uri)
        if path is not None:
            ls.refresh_file(path)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TextfragServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.findings.pop(params.text_document.uri, None)
        ls.analysed.pop(params.text_document.uri, None)

    @ls.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: TextfragServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = _path_of(change.uri)
            if path is not None:
                ls.refresh_file(path)

    def finding_at(ls: TextfragServer, uri: str, position: lsp.Position) -> tuple[Project, Finding, Lines] | None:
        doc = ls.workspace.get_text_document(uri)
        analysed = ls.analyse(doc, fresh=False)
        if analysed is None:
            return None
        project, findings, lines = analysed
        offset = lines.offset(position.line, position.character)
        for f in findings:
            if f.found.start <= offset <= f.found.end:
                return project, f, lines
        return None

    @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: TextfragServer, params: lsp.HoverParams) -> lsp.Hover | None:
        at = finding_at(ls, params.text_document.uri, params.position)
        if at is None:
            return None
        project, f, lines = at
        if f.ref is None:
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"textfrag: {f.problem}"))
        try:
            q = quote(project.cache_for(f.charset), f.ref, explain=False)
            language = next((o.value for o in f.options if o.name == "language" and o.value), None)
            ex = excerpt_of(q, language=language)
        except TextFragError as err:
            said = f"**textfrag**: {err.message}"
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=said))
        body = ex.text.splitlines()
        cut = len(body) - HOVER_LINES
        shown = "\n".join(body[:HOVER_LINES]) + (f"\n… ({cut} more lines)" if cut > 0 else "")
        fence = "````" if "```" in shown else "```"
        state = "stale" if isinstance(f.problem, StaleError) else ("broken" if f.problem is not None else "current")
        pinned = "pinned" if f.pinned else "unpinned (`textfrag pin`)"
        where = ", ".join(f"{p.source.path}, {lines_label(p.first_line, p.last_line)}" for p in q.selections)
        value = f"**{where}** · {state} · {pinned}\n\n{fence}{ex.language}\n{shown}\n{fence}"
        if f.problem is not None:
            value += f"\n\n{f.problem.message}"
        if f.hidden is not None:
            value += f"\n\n⚠ {f.hidden}"
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value),
            range=range_of(lines, f.found.start, f.found.end),
        )

    @ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: TextfragServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        at = finding_at(ls, params.text_document.uri, params.position)
        if at is None or at[1].ref is None:
            return None
        project, f, _ = at
        try:
            q = quote(project.cache_for(f.charset), f.ref, explain=False)  # type: ignore[arg-type]
        except TextFragError:
            return None
        target = Lines(q.source.text, ls.encoding())
        uri = _uri_of(project.root / q.source.path)
        return [lsp.Location(uri=uri, range=range_of(target, p.start, p.end)) for p in q.selections]

    @ls.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll]),
    )
    def code_action(ls: TextfragServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        analysed = ls.analyse(doc, fresh=False)
        if analysed is None:
            return []
        project, findings, lines = analysed
        only = params.context.only or []
        out: list[lsp.CodeAction] = []
        if not only or any(k.startswith(lsp.CodeActionKind.QuickFix) for k in only):
            # the references on the lines asked about (an editor asks for the cursor's line or a selection)
            a = lines.starts[min(params.range.start.line, len(lines.starts) - 1)]
            last = params.range.end.line + 1
            b = lines.starts[last] if last < len(lines.starts) else len(doc.source)
            for f in findings:
                if f.found.end < a or f.found.start >= max(b, a + 1):
                    continue
                for accept in (False, True):
                    guarded = include_fix(f, project, accept=accept)
                    if guarded is not None:
                        title, changes, lock = guarded
                        out.append(
                            lsp.CodeAction(
                                title=title,
                                kind=lsp.CodeActionKind.QuickFix,
                                edit=workspace_edit(doc, lines, changes, lock),
                                is_preferred=not accept,
                            )
                        )
                    fix = edit_for(f, project, accept=accept)
                    if fix is None:
                        continue
                    title, changes = fix
                    if accept and not title.startswith("Accept"):
                        continue  # (a move is offered once)
                    out.append(
                        lsp.CodeAction(
                            title=title,
                            kind=lsp.CodeActionKind.QuickFix,
                            edit=workspace_edit(doc, lines, changes),
                            is_preferred=not accept,
                        )
                    )
        if not only or any(k.startswith(lsp.CodeActionKind.SourceFixAll) or k == lsp.CodeActionKind.Source for k in only):
            edits: list[tuple[int, int, str]] = []
            lock_after: Lock | None = None
            for f in findings:  # moves and pins: what needs no review (an accept does)
                fix = edit_for(f, project, accept=False)
                if fix is not None:
                    edits.extend(fix[1])
                guarded = include_fix(f, project, accept=False, onto=lock_after)
                if guarded is not None:  # (guard mode: the records of every fix, in one lock file)
                    edits.extend(guarded[1])
                    lock_after = guarded[2]
            if edits or (lock_after is not None and lock_after.changed):
                out.append(
                    lsp.CodeAction(
                        title="Update moved and pin unpinned references (textfrag)",
                        kind=lsp.CodeActionKind.SourceFixAll,
                        edit=workspace_edit(doc, lines, edits, lock_after),
                    )
                )
        return out

    @ls.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["/", "#", ":"]))
    def completion(ls: TextfragServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        path = _path_of(doc.uri)
        empty = lsp.CompletionList(is_incomplete=False, items=[])
        if path is None:
            return empty
        lines = Lines(doc.source, ls.encoding())
        offset = lines.offset(params.position.line, params.position.character)
        line_start = lines.starts[min(params.position.line, len(lines.starts) - 1)]
        typed = typed_reference(doc.source[line_start:offset])
        if typed is None:
            return empty
        project = ls.project_for(path)
        start = offset - len(typed)
        return lsp.CompletionList(is_incomplete=True, items=completions(project, typed, range_of(lines, start, offset)))

    @ls.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: TextfragServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        """The documents quoting this line: a walk of the workspace's documents that reports progress
        (when the client gave a token) and stops when the request is cancelled."""
        path = _path_of(params.text_document.uri)
        if path is None:
            return []
        line = params.position.line + 1
        token = params.work_done_token
        if token is not None:
            ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title="textfrag: finding quotes", cancellable=True))
        found: list[tuple[Path, Finding, int, int]] = []
        try:
            for n, step in enumerate(ls.quoting_steps(path), 1):
                found.extend(step)
                if n % 50 == 0:
                    if token is not None:
                        ls.work_done_progress.report(token, lsp.WorkDoneProgressReport(message=f"{n} documents read"))
                    await asyncio.sleep(0)  # (where a cancellation reaches this request)
        finally:
            if token is not None:
                ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"{len(found)} quotes"))
        out = []
        for doc_path, f, first, last in found:
            if first <= line <= max(first, last):
                text = _text_of(ls, doc_path)
                if text is None:
                    continue
                lines = Lines(text, ls.encoding())
                out.append(lsp.Location(uri=_uri_of(doc_path), range=range_of(lines, f.found.start, f.found.end)))
        return out

    @ls.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: TextfragServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
        path = _path_of(params.text_document.uri)
        if path is None or ls.is_document(params.text_document.uri):
            return []
        by_range: dict[tuple[int, int], list[str]] = {}
        for doc_path, f, first, last in ls.quoting(path):
            shown = os.path.relpath(doc_path, ls.folder_of(doc_path) or doc_path.parent)
            by_range.setdefault((first, last), []).append(f"{shown}:{f.found.line}")
        out = []
        for (first, _last), places in sorted(by_range.items()):
            more = f" (+{len(places) - 1})" if len(places) > 1 else ""
            title = f"quoted by {spell(sorted(places)[0])}{more}"
            where = lsp.Range(start=lsp.Position(line=first - 1, character=0), end=lsp.Position(line=first - 1, character=0))
            out.append(lsp.CodeLens(range=where, command=lsp.Command(title=title, command="")))
        return out


def _text_of(ls: TextfragServer, path: Path) -> str | None:
    doc = ls.workspace.text_documents.get(_uri_of(path))
    if doc is not None:
        return str(doc.source)
    try:
        return read_text(path, str(path))
    except TextFragError:
        return None


class _ParseErrorsAnswered(logging.Filter):
    """pygls logs a traceback for a message that is not JSON; the client got its parse error instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], json.JSONDecodeError))


def serve(argv: list[str] | None = None) -> int:
    """Run the server on standard input and output."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_ParseErrorsAnswered())
    ls = TextfragServer()
    _register(ls)
    try:
        ls.start_io()
    except Exception as bug:  # a bug in textfrag: said so on standard error (the protocol owns standard output)
        print(internal_error_report(bug), file=sys.stderr)
        return 3
    return 0
