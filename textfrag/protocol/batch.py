"""One request, one answer: what a build of any engine asks of textfrag, in JSON values.

A request names the documents an engine renders (their text, or their path to read) and, or instead, the
references a plugin has already found with their options. The answer gives each of them, in order, what
the build shows (the excerpt and its ``data-txtfrag-*`` values), what fails the build (problems, located
as ``check`` locates them), what is only said (warnings) and the repair ``update --write`` would make.
Every verdict is the core's (:func:`textfrag.verdict.judging.judge`, :func:`textfrag.guard.judge_include`):
a plugin only renders it. The manual's reference/protocol page is this module's documentation for
plugin authors; ``textfrag/schemas/batch-request.schema.json`` and ``batch-answer.schema.json`` pin it.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from ..documents.files import read_text
from ..documents.scan import Found, scan_text
from ..errors import StaleError, TextFragError
from ..guard import LOCK_NAME, IncludeRepair, Lock, context_of, guarded_by, judge_include, shown_text
from ..guard.judge import Explainer, found_of
from ..project.config import BuildConfig, forms_of, html_blocks_of, read_config
from ..project.discovery import nearest_config
from ..project.setting_table import SETTINGS, checked
from ..project.settings import highlighter_of
from ..reference.grammar import parse_reference
from ..repair.references import repair
from ..source.cache import DEFAULT_CHARSET, DEFAULT_MAX_SIZE, SourceCache
from ..verdict.excerpt import Excerpt, failure_summary
from ..verdict.judging import Settings, Verdict, judge, no_link_target
from ..verdict.presentation import identity
from ..verdict.written_options import how_written, options_of
from .version import PROTOCOL

__all__ = ["PROTOCOL", "RequestError", "answer"]

_SETTINGS = {"on_stale": str, "require_pin": bool, "charset": str, "source_url": str, "guard": bool, "max_size": int}
_SYNTAXES = ("rst", "myst", "md")


class RequestError(TextFragError):
    """A request that is not one: which field, and what it must be (exit 2, as any bad usage)."""

    kind = "request"


def _field(value: Any, name: str, kind: type | tuple[type, ...], *, optional: bool = True) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        what = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        words = {"str": "a string", "int": "a number", "bool": "true or false", "dict": "an object", "list": "a list"}
        raise RequestError(f"the request's {name} must be {words.get(what, what)}, not {type(value).__name__}")
    return value


def _config(request: dict[str, Any], cwd: Path, documents: list[Path]) -> BuildConfig:
    """The build's configuration: the one the request names, else the nearest one above its first document,
    else none (the defaults); then the request's own settings over it."""
    named = _field(request.get("config"), "config", str)
    if named is not None:
        config = read_config((cwd / named).resolve())
    else:
        config = (nearest_config(documents[0]) if documents else None) or BuildConfig(cwd / "textfrag.toml", cwd)
    changes: dict[str, Any] = {}
    root = _field(request.get("root"), "root", str)
    if root is not None:
        changes["root"] = (cwd / root).resolve()
    settings = _field(request.get("settings"), "settings", dict) or {}
    for name, value in settings.items():
        if name not in _SETTINGS:
            raise RequestError(f"the request's settings have no {name!r}: they are {', '.join(_SETTINGS)}")
        changes[name] = _field(value, f"settings.{name}", _SETTINGS[name])
    for name in changes.keys() & {s.name for s in SETTINGS if s.choices}:  # (in the settings table's words)
        try:
            checked(name, changes[name], f"the request's settings.{name}")
        except TextFragError as err:
            raise RequestError(err.message) from None
    if "max_size" in changes and changes["max_size"] is not None and changes["max_size"] < 1:
        raise RequestError(f"the request's settings.max_size must be a number of bytes above 0, not {changes['max_size']}")
    return dataclasses.replace(config, **changes) if changes else config


def answer(request: Any, *, cwd: Path | None = None, carried: dict[Any, SourceCache] | None = None) -> dict[str, Any]:
    """The answer to ``request`` (a JSON object, read): raises :class:`RequestError` for one that is not
    a request of this protocol; every problem of a document or a reference is in the answer. ``carried``:
    the source caches of the requests before it in one build (``batch --stream``), each file read once while
    it stays the same."""
    if not isinstance(request, dict):
        raise RequestError(f"a request is a JSON object, not {type(request).__name__}")
    if request.get("protocol") != PROTOCOL:
        raise RequestError(f"the request's protocol must be {PROTOCOL} (this textfrag speaks version {PROTOCOL})")
    here = (cwd or Path.cwd()).resolve()
    documents = _field(request.get("documents"), "documents", list) or []
    references = _field(request.get("references"), "references", list) or []
    paths = [
        here / _field((d or {}).get("path") if isinstance(d, dict) else d, "documents[].path", str, optional=False)
        for d in documents
    ]
    # (the build's configuration is the one above its pages, as check finds it: a reference's page stands for them)
    pages = [here / r["document"] for r in references if isinstance(r, dict) and isinstance(r.get("document"), str)]
    config = _config(request, here, paths or pages[:1])
    batch = _Batch(config, here, carried)
    results: list[dict[str, Any]] = []
    if batch.unreadable_lock is not None:
        results.append(
            _result("lock", LOCK_NAME, None, None, None, _problems_of(Verdict(LOCK_NAME), [batch.unreadable_lock], LOCK_NAME))
        )
    for i, (doc, path) in enumerate(zip(documents, paths, strict=True)):
        text = _field(doc.get("text"), f"documents[{i}].text", str)
        if text is None and not _within(path, (here, config.root)):  # (read from disk: the project's own only)
            raise RequestError(
                f"the request's documents[{i}].path {doc['path']!r} is outside the project (the request's folder "
                "and the root): batch reads documents under them only; send its text instead"
            )
        only = _field(doc.get("only"), f"documents[{i}].only", str)
        if only not in (None, "includes"):
            raise RequestError(f'the request\'s documents[{i}].only is "includes" or absent, not {only!r}')
        results += batch.document(path, str(doc["path"]), text, includes_only=only == "includes")
    judged = []
    for i, ref in enumerate(references):
        if not isinstance(ref, dict):
            raise RequestError(f"the request's references[{i}] must be an object, not {type(ref).__name__}")
        judged.append(batch.reference(ref, i))
    results += _on_pages(judged)
    said = [p["said"] for r in results for p in r["problems"]]
    return {
        "protocol": PROTOCOL,
        "root": str(config.root),
        "guard": batch.lock is not None,
        "results": results,
        "failed": bool(said),
        "summary": f"{failure_summary(said)}; the build fails" if said else f"{len(results)} checked, all current",
    }


def _within(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether ``path``, its links followed, is in one of ``folders`` (theirs followed too)."""
    real = os.path.realpath(path)
    return any(real.startswith(os.path.realpath(f).rstrip(os.sep) + os.sep) for f in folders)


class _Batch:
    """One request's build: its settings, its source cache (each file read once), its lock file."""

    def __init__(self, config: BuildConfig, cwd: Path, carried: dict[Any, SourceCache] | None = None) -> None:
        self.config = config
        self.cwd = cwd
        charset, max_size = config.charset or DEFAULT_CHARSET, config.max_size or DEFAULT_MAX_SIZE
        key = (str(config.root), charset, max_size)
        kept = carried.get(key) if carried is not None else None
        if kept is not None:
            kept.refresh()  # (what changed on disk since the page before is read again)
            self.cache = kept
        else:
            self.cache = SourceCache(config.root, charset=charset, max_size=max_size)
            if carried is not None:
                carried[key] = self.cache
        self.settings = Settings(
            on_stale=config.on_stale,
            require_pin=config.require_pin,
            source_url=config.source_url,
            highlighter=highlighter_of(config),
        )
        self.forms = forms_of(config)
        self.lock: Lock | None = None
        self.unreadable_lock: TextFragError | None = None
        if config.guard:
            try:
                self.lock = Lock.read(config.home / LOCK_NAME)
            except TextFragError as bad:  # (said as the build's first problem; no include is judged without it)
                self.unreadable_lock = bad

    def document(self, path: Path, shown: str, text: str | None, *, includes_only: bool = False) -> list[dict[str, Any]]:
        """Every reference of the document, then (guard mode) every include, each judged; ``includes_only``:
        the includes alone (a plugin that found the references itself), and nothing read when guard mode is off."""
        if includes_only and self.lock is None:
            return []
        try:
            text = read_text(path, shown, self.config.max_size or DEFAULT_MAX_SIZE) if text is None else text
        except TextFragError as unreadable:
            return [_result("document", shown, 0, None, None, _problems_of(Verdict(shown), [unreadable], f"{shown}"))]
        out: list[dict[str, Any]] = []
        for f in [] if includes_only else scan_text(text, shown, path.suffix, html_blocks_of(self.config)):
            form = self.forms.problem(f, text, path.suffix)
            if form is not None:
                out.append(
                    _result("reference", shown, f.line, f, None, _problems_of(Verdict(f.text), [form], f"{shown}:{f.line}"))
                )
                continue
            raw, syntax, kind = how_written(text, f, attr_list=self.config.attr_list)
            verdict = judge(self.cache, f.text, raw, syntax=syntax, form=kind, settings=self.settings)
            result = _result("reference", shown, f.line, f, verdict.excerpt, _problems_of(verdict, None, f"{shown}:{f.line}"))
            result["pinned"] = verdict.pinned
            if verdict.stale is not None:
                result["repair"] = self._repair(text, f, syntax)
            out.append(result)
        if self.lock is not None:
            out += self._includes(path, shown, text)
        return out

    def _repair(self, text: str, f: Found, syntax: Any) -> dict[str, Any] | None:
        try:
            fix = repair(self.cache, parse_reference(f.text), options_of(text, f), syntax=syntax)
        except TextFragError:
            return None
        if fix is None or fix.new is None:
            return None
        edits = [[f.start, f.end, fix.new], *([s, e, t] for s, e, t in fix.follow)]
        return {"reference": fix.new, "edits": sorted(edits), "drift": fix.drift.kind if fix.drift else None}

    def _includes(self, path: Path, shown: str, text: str) -> list[dict[str, Any]]:
        assert self.lock is not None
        ctx = context_of(self.config)
        out = []
        for inc in guarded_by(self.config, text, shown, path.suffix):
            try:
                now: Any = shown_text(inc, path, self.cache, ctx)
            except TextFragError as why:
                now = why
            verdict = judge_include(
                inc,
                now,
                self.lock.record(self.lock.doc_name(path), inc.key),
                require_pin=self.config.require_pin,
                on_stale=self.config.on_stale,
                explainer=Explainer(path, self.cache, ctx),
                lock=LOCK_NAME,
            )
            result = _result("include", shown, inc.line, found_of(inc), None, _problems_of(verdict, None, f"{shown}:{inc.line}"))
            result["pinned"] = verdict.pinned
            result["text"] = now.text if not isinstance(now, TextFragError) else None
            stale = verdict.stale
            fix = stale.outcome if isinstance(stale, StaleError) else None
            if isinstance(fix, IncludeRepair) and not fix.accept:
                result["repair"] = {"edits": sorted([s, e, t] for s, e, t in fix.edits), "key": fix.key, "record": fix.record}
            out.append(result)
        return out

    def reference(self, ref: dict[str, Any], i: int) -> dict[str, Any]:
        """A reference a plugin found, with its options as written (name -> value, or null for a flag)."""
        text = _field(ref.get("reference"), f"references[{i}].reference", str, optional=False)
        options = _field(ref.get("options"), f"references[{i}].options", dict)
        syntax = _field(ref.get("syntax"), f"references[{i}].syntax", str) or "myst"
        form = _field(ref.get("form"), f"references[{i}].form", str) or "block"
        if syntax not in _SYNTAXES or form not in ("block", "inline", "link"):
            raise RequestError(f"references[{i}]: syntax is one of {', '.join(_SYNTAXES)} and form is block, inline or link")
        for name, value in (options or {}).items():
            _field(value, f"references[{i}].options.{name}", (str, bool, int, float))
        raw = {k: (None if v is True else str(v)) for k, v in (options or {}).items() if v is not False} if options else None
        document = _field(ref.get("document"), f"references[{i}].document", str)
        line = _field(ref.get("line"), f"references[{i}].line", int) or 0
        where = f"{document}:{line}" if document and line else document or "<request>"
        shown = "inline" if form == "link" else form  # (a link's quote is judged as the inline excerpt it points at)
        verdict = judge(self.cache, text, raw, syntax=syntax, form=shown, settings=self.settings)  # type: ignore[arg-type]
        result = _result("reference", document, line or None, None, verdict.excerpt, _problems_of(verdict, None, where))
        result["asked"] = form
        result["where"] = where
        result["identity"] = identity(verdict.reference) if verdict.reference is not None else None
        result["id"] = ref.get("id")
        result["pinned"] = verdict.pinned
        result["reference"] = text
        if verdict.stale is not None and not options:
            try:
                fix = repair(self.cache, parse_reference(text), [], syntax="md")
            except TextFragError:
                fix = None
            if fix is not None and fix.new is not None:
                result["repair"] = {"reference": fix.new, "drift": fix.drift.kind if fix.drift else None}
        return result


def _on_pages(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What only a page decides, as every engine decides it: each excerpt's anchor unique on its page (the
    second quote of a range gets ``-2``), and where a link goes: to the excerpt of the same reference on
    its page, else to the quoted file's URL (``source_url``), else nowhere, which is a problem."""
    taken: dict[str | None, set[str]] = {}
    shown: dict[tuple[str | None, Any], str] = {}
    suffixes: dict[tuple[str | None, str], int] = {}  # (the next "-N" to try of a page's anchor: linear in its quotes)
    for r in results:
        ex = r["excerpt"]
        if ex is not None and r["asked"] != "link":
            anchors = taken.setdefault(r["document"], set())
            base = ex["anchor"]
            if base in anchors:
                n = suffixes.get((r["document"], base), 2)
                while f"{base}-{n}" in anchors:
                    n += 1
                suffixes[(r["document"], base)] = n + 1
                ex["anchor"] = f"{base}-{n}"
            anchors.add(ex["anchor"])
            shown.setdefault((r["document"], r["identity"]), ex["anchor"])
    for r in results:
        where, ident, asked = r.pop("where"), r.pop("identity"), r.pop("asked")
        if asked != "link" or r["state"] == "broken":
            continue
        ex, r["excerpt"] = r["excerpt"], None
        anchor = shown.get((r["document"], ident))
        if anchor is not None:
            r["target"] = f"#{anchor}"
        elif ex is not None and ex["source_url"]:
            r["target"] = ex["source_url"]
        else:
            e = no_link_target(r["reference"], site=False)
            r["problems"].append({"kind": e.kind, "message": e.message, "said": e.describe(where)})
            r["state"] = "broken"
    return results


def _problems_of(verdict: Verdict, problems: list[TextFragError] | None, where: str) -> dict[str, Any]:
    said = []
    for kind, errors in (("problems", verdict.problems if problems is None else problems), ("warnings", verdict.warnings)):
        for e in errors:
            e = e.with_reference(e.reference or verdict.text)
            said.append((kind, {"kind": e.kind, "message": e.message, "said": e.describe(where)}))
    state = (
        "broken" if any(k == "problems" and p["kind"] != "stale" for k, p in said) else "stale" if verdict.stale else "current"
    )
    return {
        "state": state,
        "problems": [p for k, p in said if k == "problems"],
        "warnings": [p for k, p in said if k == "warnings"],
    }


def _result(
    kind: str, document: str | None, line: int | None, f: Found | None, ex: Excerpt | None, judged: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "document": document, "line": line}
    if f is not None:
        out["reference"] = f.text
        out["form"] = f.kind
        out["column"] = f.column
        out["span"] = list(f.span) if f.span is not None else [f.start, f.end]
    out.update(judged)
    out["excerpt"] = _excerpt(ex) if ex is not None else None
    out["repair"] = None
    return out


def _excerpt(ex: Excerpt) -> dict[str, Any]:
    return {
        "text": ex.text,
        "inline_text": ex.inline_text,
        "pieces": [
            {"text": p.text, "first_line": p.first_line, "number": p.number, "emphasized": list(p.emphasized)} for p in ex.pieces
        ],
        "caption": ex.caption,
        "anchor": ex.anchor,
        "language": ex.language,
        "data": {f"data-txtfrag-{k}": v for k, v in ex.data.items()},
        "source_url": ex.source_url,
        "notice": ex.notice,
        # the words an engine shows beside the excerpt (the permalink's title, the source link), in the build's language
        "labels": {"permalink": ex.labels.permalink, "view_source": ex.labels.view_source},
    }
