"""What the language server knows, without the protocol: projects (a build's settings and its source
cache, kept while the server runs) and the findings of a document's text.

Everything here is the core's: references are found by ``textfrag.documents.scan`` as ``check`` finds them,
judged by ``textfrag.verdict.judging.judge`` as ``check`` and every build judge them (drift explained from git history),
pinned by ``textfrag.verdict.pins`` and repaired by ``textfrag.repair.references`` as ``pin`` and ``update`` do. What this
module adds is memory: a quoted file is read and hashed once and kept while its size and mtime are
unchanged, and a reference's verdict is kept while its file is, so that after an edit only the references
whose text changed are verified again.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from textfrag import SourceCache, TextFragError, parse_reference
from textfrag.documents import (
    MD_SUFFIXES,
    RST_SUFFIXES,
    Found,
    MarkdownScan,
    doc_files,
    fenced_directives,
    parts_read_as,
    read_text,
    rescan_markdown,
    scan_markdown_kept,
    scan_text,
    substituted,
    window_of,
)
from textfrag.guard import (
    LOCK_NAME,
    Explainer,
    GuardContext,
    GuardedInclude,
    Lock,
    Shown,
    context_of,
    found_of,
    guarded_by,
    judge_include,
    shown_text,
)
from textfrag.project import BuildConfig, forms_of, html_blocks_of, read_by_build
from textfrag.reference import Reference
from textfrag.source import DEFAULT_CHARSET, DEFAULT_MAX_SIZE
from textfrag.verdict import Option, Settings, how_written, is_pinned, judge, options_of, quoted_path, with_option_references

__all__ = ["Finding", "Lines", "Project", "suffix_for"]

_BREAK = re.compile(r"\r\n|\r|\n")
#: parsed references kept at most (then forgotten at once, and parsed again as needed)
MAX_KEPT = 200_000


def suffix_for(path: str, language_id: str | None) -> str:
    """The suffix a document is read by: its own when textfrag knows it, else from the editor's language
    (``restructuredtext`` -> ``.rst``, ``markdown``/``myst`` -> ``.md``)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix in RST_SUFFIXES or suffix in MD_SUFFIXES:
        return suffix
    return ".rst" if (language_id or "").lower() in ("restructuredtext", "rst") else ".md"


#: how long the parts a project's documents pull in are taken as known (they are read again after)
PARTS_SECONDS = 5.0


def _text_or_none(path: Path) -> str | None:
    """A document's text, None when it cannot be read."""
    try:
        return read_text(path, str(path), DEFAULT_MAX_SIZE)
    except TextFragError:
        return None


@dataclass
class Finding:
    """One reference of a document and what ``check`` says of it."""

    found: Found
    ref: Reference | None  # None: it does not parse (``problem`` says why)
    problem: TextFragError | None
    pinned: bool
    #: the warning about bidirectional control characters in the quote (textfrag.source.hidden_text)
    hidden: str | None
    #: the charset its directive's ``:encoding:`` reads the file in
    charset: str | None
    options: list[Option]
    #: guard mode: the include this finding is about (``ref`` is then None), and its lock file
    include: GuardedInclude | None = None
    lock: Lock | None = None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class Project:
    """One build: its root and settings (from its conf.py, mkdocs.yml or zensical.toml, as ``check``
    finds them) and a source cache that lives as long as the server."""

    def __init__(self, root: Path, config: BuildConfig | None) -> None:
        self.root = root
        self.config = config
        self.on_stale = config.on_stale if config is not None else "error"
        self.require_pin = config.require_pin if config is not None else False
        self.settings = Settings(require_pin=self.require_pin)
        self.cache = SourceCache(
            root,
            charset=(config.charset if config is not None and config.charset else DEFAULT_CHARSET),
            max_size=(config.max_size if config is not None and config.max_size else DEFAULT_MAX_SIZE),
            pdi_map=dict(config.pdi_map) if config is not None else {},
        )
        self._lock = threading.RLock()
        self._stamps: dict[str, tuple[int, int] | None] = {}
        #: (reference, charset, intent) -> (problem, hidden-text warning), while the quoted file is unchanged
        self._memo: dict[tuple[str, str | None, str], tuple[TextFragError | None, str | None]] = {}
        self._memo_of: dict[str, set[tuple[str, str | None, str]]] = {}
        #: how many references were verified (not looked up): what the speed tests count
        self.verified = 0
        #: reference text -> its parse (the reference, whether it is pinned, the path it quotes; or the syntax
        #: error): parsed once while the server runs
        self._parsed: dict[str, tuple[Reference, bool, str | None] | TextFragError] = {}
        #: document -> its last scan (Markdown), to scan an edit of it in part
        self._scans: dict[str, MarkdownScan] = {}
        #: guard mode (the build's configuration switches it on): where its engines find files, and its
        #: lock file, read again when it changed on disk
        self.guard: GuardContext | None = context_of(config) if config is not None and config.guard else None
        self._lock_file: tuple[tuple[int, int] | None, Lock] | None = None
        #: when the parts the documents pull in were last read, and each one's suffix as the build reads it
        self._parts: tuple[float, dict[str, str]] | None = None
        #: what each include of a part takes of it (a part its includes cut: only that is rendered)
        self._windows: dict[str, list[tuple[tuple[str, str], ...]]] = {}

    def read_as(self, path: Path) -> str | None:
        """The suffix the build reads ``path`` as when it is a part some document pulls in and not a
        document of the build itself (an ``.inc`` part of an rST page is rST, as ``check`` reads it); None
        otherwise. The project's includes are read again a few seconds after they were last read."""
        config = self.config
        if config is None or config.srcdir is None:
            return None
        reads = read_by_build(config)
        if path.suffix.lower() in (*RST_SUFFIXES, *MD_SUFFIXES) and (reads is None or reads(path)):
            return None
        now = time.monotonic()
        if self._parts is None or now - self._parts[0] > PARTS_SECONDS:
            documents = [d for d in doc_files([config.srcdir]) if reads is None or reads(d)]
            self._windows = {}
            self._parts = (now, parts_read_as(documents, config.srcdir, _text_or_none, windows=self._windows))
        return self._parts[1].get(os.path.realpath(path))

    def cache_for(self, charset: str | None) -> SourceCache:
        return self.cache if charset is None else self.cache.with_charset(charset)

    def forget(self, rel: str) -> None:
        """Drop what is known of a quoted file (it changed on disk) and the verdicts that relied on it."""
        with self._lock:
            self.cache.forget(rel)
            for key in self._memo_of.pop(rel, set()):
                self._memo.pop(key, None)
            self._stamps.pop(rel, None)

    def _fresh(self, rel: str) -> bool:
        """Forget ``rel`` when its size or mtime changed since it was read; whether it did."""
        stamp = _stamp(self.root / rel)
        with self._lock:
            changed = rel in self._stamps and self._stamps[rel] != stamp
            if changed:
                self.forget(rel)
            self._stamps[rel] = stamp
        return changed

    def quoted(self, ref: Reference) -> str | None:
        """The path under the root that ``ref`` quotes (None: it names none)."""
        try:
            return quoted_path(self.cache, ref)
        except TextFragError:
            return None

    def _scan(self, text: str, name: str, suffix: str) -> list[Found]:
        """The references of a document's text: a Markdown document's edit is scanned again only in the
        paragraphs it touched, when that is safe (textfrag.documents.scan.rescan_markdown)."""
        if suffix in RST_SUFFIXES:
            return scan_text(text, name, suffix)
        kept = self._scans.get(name)
        html = html_blocks_of(self.config) if self.config is not None else None  # (as the engine reads raw HTML)
        scanned = rescan_markdown(kept, text, name, html) if kept is not None else scan_markdown_kept(text, name, html)
        self._scans[name] = scanned
        found = scanned.found
        if self.config is not None and "txtfrag" in self.config.fence_directives and "txtfrag" in text:
            # (```txtfrag REF, a directive where myst_fence_as_directive says so: as check reads it)
            found = sorted([*found, *fenced_directives(text, name)], key=lambda f: f.start)
        if self.config is not None and self.config.substitutions is not None and "{{" in text:
            # (MyST's {{ name }}: the references of its value, where the build renders them, as check reads them)
            used = substituted(text, scanned.masked, name, self.config.substitutions, lambda v, f: scan_text(v, f, ".md", html))
            found = sorted([*found, *used], key=lambda f: (f.line, f.start))
        return found

    def analyse(self, text: str, name: str, suffix: str) -> list[Finding]:
        """Every reference of a document's text and what ``check`` says of it (``--require-pin`` when the
        build requires pins)."""
        found, charsets = with_option_references(text, self._scan(text, name, suffix))
        windows = self._windows.get(os.path.realpath(name))
        if windows and () not in windows:  # (a part its includes take only some of, as check reads it)
            spans = [window_of(text, w) for w in windows]
            found = [f for f in found if any(a <= f.start and f.end <= z for a, z in spans)]
        out: list[Finding] = []
        looked: set[str] = set()
        # (a Sphinx project reading Markdown with MyST: a txtfrag: image or link there is no excerpt)
        forms = forms_of(self.config)  # (the ways of writing a reference the engine renders: the others are problems)
        for f, in_html in forms.in_raw_html(text, name, suffix):  # (raw HTML: what the build says is not rendered)
            out.append(Finding(f, None, in_html, False, None, None, []))
        for f in found:
            charset = charsets.get(f.start)
            not_rendered = forms.problem(f, text, suffix)
            if not_rendered is not None:
                out.append(Finding(f, None, not_rendered, False, None, charset, []))
                continue
            options = options_of(text, f) if f.kind in ("directive", "image") and text[f.start : f.end] == f.text else []
            parsed = self._parsed.get(f.text)
            if parsed is None:
                try:
                    ref_ = parse_reference(f.text)
                    parsed = (ref_, is_pinned(ref_), self.quoted(ref_))
                except TextFragError as bad:
                    parsed = bad
                if len(self._parsed) > MAX_KEPT:
                    self._parsed.clear()
                self._parsed[f.text] = parsed
            if isinstance(parsed, TextFragError):
                out.append(Finding(f, None, parsed, False, None, charset, options))
                continue
            ref, pinned, rel = parsed
            if rel is not None and rel not in looked:
                looked.add(rel)
                self._fresh(rel)
            if f.kind in ("directive", "image"):
                raw, syntax, form = how_written(text, f, attr_list=self.config is None or self.config.attr_list)
            else:
                raw, syntax, form = None, ("md" if f.kind in ("link", "definition") else "rst"), "inline"
            key = (ref.text, charset, repr((raw, syntax, form)))
            with self._lock:
                memo = self._memo.get(key)
            if memo is None:  # the core's verdict, as check and the build reach it
                cache = self.cache_for(charset)
                verdict = judge(cache, ref.text, raw, syntax=syntax, form=form, settings=self.settings, show=False)
                warning = verdict.hidden
                memo = (verdict.problem, warning.message if warning is not None else None)
                self.verified += 1
                with self._lock:
                    self._memo[key] = memo
                    self._memo_of.setdefault(rel or "", set()).add(key)
            problem, hidden = memo
            out.append(Finding(f, ref, problem, pinned, hidden, charset, options))
        if self.guard is not None:
            out += self._includes(text, name, suffix)
        return out

    def lock(self) -> Lock:
        """The build's lock file (guard mode), read again when it changed on disk (``pin --write``)."""
        assert self.config is not None
        path = self.config.home / LOCK_NAME
        stamp = _stamp(path)
        if self._lock_file is None or self._lock_file[0] != stamp:
            self._lock_file = (stamp, Lock.read(path))
        return self._lock_file[1]

    def _includes(self, text: str, name: str, suffix: str) -> list[Finding]:
        """Guard mode: every include of the document, judged as ``check`` and the build judge it."""
        assert self.guard is not None and self.config is not None
        found = guarded_by(self.config, text, name, suffix)
        if not found:
            return []
        try:
            lock = self.lock()
        except TextFragError as bad:
            return [Finding(found_of(found[0]), None, bad, False, None, None, [], found[0])]
        doc = Path(name)
        out = []
        for inc in found:
            shown: Shown | TextFragError
            try:
                shown = shown_text(inc, doc, self.cache, self.guard)
                if any(self._fresh(rel) for rel in shown.files):  # (a file changed on disk since it was read)
                    shown = shown_text(inc, doc, self.cache, self.guard)
            except TextFragError as bad:
                shown = bad
            verdict = judge_include(
                inc,
                shown,
                lock.record(lock.doc_name(doc), inc.key),
                require_pin=self.require_pin,
                on_stale=self.on_stale,
                explainer=Explainer(doc, self.cache, self.guard),
                lock=lock.path.name,
            )
            out.append(Finding(found_of(inc), None, verdict.problem, verdict.pinned, None, None, [], inc, lock))
        return out


class Lines:
    """Offsets in a text <-> protocol positions (a line, and a column in the negotiated code units:
    UTF-16 unless the client chose UTF-8 or UTF-32). LF, CR LF and CR end a line, as the protocol says."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        starts = [0]
        starts.extend(m.end() for m in _BREAK.finditer(text))
        self.starts = starts

    def _units(self, segment: str) -> int:
        if segment.isascii() or self.encoding == "utf-32":
            return len(segment)
        if self.encoding == "utf-8":
            return len(segment.encode("utf-8", "surrogatepass"))
        return len(segment) + sum(1 for c in segment if ord(c) > 0xFFFF)

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of ``offset``, both 0-based, the column in code units."""
        from bisect import bisect_right

        line = bisect_right(self.starts, offset) - 1
        return line, self._units(self.text[self.starts[line] : offset])

    def offset(self, line: int, column: int) -> int:
        """The offset of a protocol position (past the end: the end)."""
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[max(0, line)]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        segment = self.text[start:end]
        if segment.isascii() or self.encoding == "utf-32":
            return min(start + column, end)
        units = 0
        for k, c in enumerate(segment):
            if units >= column:
                return start + k
            units += len(c.encode("utf-8", "surrogatepass")) if self.encoding == "utf-8" else (2 if ord(c) > 0xFFFF else 1)
        return end
