"""Finding the references of the documents under the paths, and writing documents back (update, pin)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ..repair.rewrite import DocText

from ..documents.fenced import fenced_directives
from ..documents.files import doc_files, read_text
from ..documents.found import with_columns
from ..documents.included import included_parts, window_of
from ..documents.scan import MD_SUFFIXES, Found, scan_markdown_lines, scan_text
from ..documents.substitutions import substituted
from ..errors import StaleError, TextFragError, spell
from ..project.buildset import read_by_build
from ..reference.fragment import Reference
from ..reference.grammar import parse_reference
from ..report.formats import machine_readable
from ..source.cache import SourceCache
from ..source.digesting import Digester
from ..source.paths import typed_path
from ..verdict.forms import Forms
from ..verdict.judging import reads_text
from ..verdict.option_table import Form, Syntax
from ..verdict.quoting import quote
from ..verdict.written_options import how_written, image_key, image_options
from ._base import cache_of, write_diff
from .context import RunContext

_Written = tuple[dict[str, str | None] | None, Syntax, Form]
_Said = tuple[tuple[tuple[str, str | None], ...] | None, Syntax, Form]


class Scan:
    """Every reference found under the paths, and what could not even be parsed."""

    def __init__(self) -> None:
        self.entries: list[tuple[Found, Reference]] = []
        self.problems: list[tuple[Found, TextFragError]] = []
        self.docs: dict[str, Path] = {}  # shown name -> path
        self.total = 0
        #: (document, offset) -> the charset a directive's ``:encoding:`` reads its file in
        self.charsets: dict[tuple[str, int], str] = {}
        #: (document, offset) -> the options written with a reference, their syntax and its form (block,
        #: inline), for those not read as the defaults (an inline reference with no option)
        #: and the same as a key (what a verdict is kept under)
        self.written: dict[tuple[str, int], tuple[_Written, _Said]] = {}
        #: the quoted files whose text some verdict reads (an intent, an option checked against the excerpt)
        self.texts: set[str] = set()
        #: Markdown files the pages include (pymdownx.snippets), and the parts they pull in (``.. include::``,
        #: MyST's ``{include}``), to be scanned as pages too
        self.included: list[Path] = []
        #: the real path of a part -> the suffix its build reads it as (a ``.inc`` part of an rST page is rST)
        self.read_as: dict[str, str] = {}
        #: a part as shown -> its real path (found once)
        self.real_of: dict[str, str] = {}
        #: the real path of a part -> what each include of it takes (() for the whole part)
        self.windows: dict[str, list[tuple[tuple[str, str], ...]]] = {}
        #: whether the documents are scanned, and the parts they include now
        self.following = False
        #: impact: the documents not scanned (they name none of the files asked about) that write txtfrag
        self.mentioning = 0

    def written_at(self, f: Found) -> tuple[_Written, _Said]:
        """The options written with ``f``, their syntax and its form, as the core's verdict takes them;
        and the same as a key."""
        known = self.written.get((f.file, f.start))
        if known is not None:
            return known
        plain: _Written = (None, "md" if f.kind in ("link", "definition") else "rst", "inline")
        return plain, (None, plain[1], plain[2])

    def cache_for(self, cache: SourceCache, f: Found) -> SourceCache:
        """The cache that reads ``f``'s file: in its directive's ``:encoding:``, else the run's charset."""
        charset = self.charsets.get((f.file, f.start))
        return cache if charset is None else cache.with_charset(charset)

    def summary(self) -> str:
        """``N references in M documents``, for the closing line."""
        docs = len(self.docs)
        return f"{self.total} reference{'s' if self.total != 1 else ''} in {docs} document{'s' if docs != 1 else ''}"


def scan_documents(run: RunContext, digester: Digester | None = None) -> Scan:
    result = Scan()

    def unlistable(folder: Path, error: OSError) -> None:
        """Report a folder that cannot be listed."""
        shown = typed_path(folder)
        result.problems.append(
            (Found(shown, 0, "", 0, 0, "file"), TextFragError(f"cannot list the folder {shown}: {error.strerror}"))
        )

    seen: dict[_Said, tuple[_Written, _Said, bool]] = {}
    attr_list = run.attr_list  # (False: an mkdocs.yml that reads no { ... })
    forms: Forms = run.forms or Forms()  # (what the engine renders: the others are problems)
    html_blocks = run.html_blocks  # (a Markdown engine's raw HTML blocks are not Markdown)
    images: dict[tuple[str | None, str, bool], tuple[_Written, _Said, bool] | None] = {}
    # (a part of a large tree: its documents were listed once, each once, by the process that split it)
    listed = run.listed
    snippets = run.snippets  # (pymdownx.snippets: the Markdown a page includes is the page's)

    read_as = run.read_as
    #: impact: whether a document's text may name a file asked about (the others are counted, not scanned)
    mentions = run.mentions
    config = run.config
    srcdir = config.srcdir if config is not None else None
    fence_directives = config is not None and "txtfrag" in config.fence_directives
    substitutions = config.substitutions if config is not None else None

    def one(doc: Path) -> None:
        shown = typed_path(doc)
        try:
            text = read_text(doc, shown, run.max_size)
        except TextFragError as unreadable:
            result.problems.append((Found(shown, 0, "", 0, 0, "file"), unreadable))
            return
        if mentions is not None and not mentions(text) and not _pulls_in(text):
            result.docs[shown] = doc  # (it names none of the files asked about, and pulls in nothing that might)
            result.mentioning += "txtfrag" in text
            return
        if str(doc) in read_as:  # (a part an include pulled in: read as its build reads it; named as shown)
            suffix = read_as[str(doc)]
        elif read_as or result.read_as:  # (or by its real path)
            real = os.path.realpath(doc)
            suffix = result.read_as.get(real) or read_as.get(real) or doc.suffix
        else:
            suffix = config.read_as(doc) if config is not None else doc.suffix
        for part, as_suffix, window in included_parts(text, doc, suffix, srcdir):
            real, part = os.path.realpath(part), Path(typed_path(part))
            result.read_as.setdefault(real, as_suffix)
            result.windows.setdefault(real, []).append(window)
            result.real_of[str(part)] = real
            result.included.append(part)
        substituting = substitutions is not None and "{{" in text and suffix.lower() in MD_SUFFIXES
        if (snippets is not None and "8<" in text or substituting) and suffix.lower() in MD_SUFFIXES:
            # (the page's scan, once: its references, and where its snippets and substitutions stand outside code)
            found, masked, lines = scan_markdown_lines(text, shown, html_blocks)
            found = with_columns(text, found, lines)
            if snippets is not None:
                result.included += included_markdown(masked, snippets[0])
            if substituting:
                assert substitutions is not None
                used = substituted(text, masked, shown, substitutions, lambda v, f: scan_text(v, f, ".md", html_blocks), lines)
                found = sorted([*found, *used], key=lambda f: (f.line, f.start))
        else:
            found = scan_text(text, shown, suffix, html_blocks)
        result.docs[shown] = doc
        if fence_directives and suffix.lower() in MD_SUFFIXES and "txtfrag" in text:  # (```txtfrag REF)
            found = sorted([*found, *fenced_directives(text, shown)], key=lambda f: f.start)
        windows = result.windows.get(os.path.realpath(doc)) if result.following else None
        if windows and () not in windows:  # (a part its includes take only some of: the rest is not rendered)
            spans = [window_of(text, w) for w in windows]
            found = [f for f in found if any(a <= f.start and f.end <= z for a, z in spans)]
        for f, problem in forms.in_raw_html(text, shown, suffix):  # (what the build says is not rendered)
            result.total += 1
            result.problems.append((f, problem))
        if ":encoding:" in text or ":diff:" in text:
            found = _with_options(text, found, result)
        for f in found:
            result.total += 1
            text_read = False
            form = forms.problem(f, text, suffix)
            if form is not None:
                result.problems.append((f, form))
                continue
            if f.kind == "image" and f.span is not None:  # (the same image options again: read once)
                key = image_key(text, f)
                image = images.get(key, _UNREAD)
                if image is _UNREAD:
                    image = images[key] = _known(image_options(*key, attr_list=attr_list), seen)
                if image is not None:
                    result.written[(f.file, f.start)] = image[0], image[1]
                    text_read = image[2]
            elif f.kind == "directive":
                written = how_written(text, f)
                if written[0] is not None or written[2] == "block":
                    # the same options written again (an intent on many references) are kept once, and
                    # whether their verdict reads the quoted text is asked once
                    known = _known(written, seen)
                    assert known is not None
                    result.written[(f.file, f.start)] = known[0], known[1]
                    text_read = known[2]
            try:
                ref = parse_reference(f.text)
            except TextFragError as bad_ref:
                result.problems.append((f, bad_ref))
                continue
            result.entries.append((f, ref))
            if text_read:
                result.texts.add(ref.path)
            # (a file whose text the verdict reads is read once, then, for its digest too)
            if digester is not None and ref.selector is None and not text_read and (f.file, f.start) not in result.charsets:
                digester.add(ref.path)

    reads = None if listed else built_documents(run)
    asciidoc = config is not None and config.engine == "asciidoc"
    # (MDX pages: a Docusaurus site's, or, with no configuration, pages remark-textfrag renders: Astro Starlight's)
    mdx = config is None or config.engine == "docusaurus"
    extra = [suffix for suffix, _ in config.other_suffixes] if config is not None else []
    found_docs = doc_files((Path(p) for p in run.paths), unlistable, asciidoc=asciidoc, mdx=mdx, extra=extra)
    for doc in (Path(p) for p in run.paths) if listed else found_docs:
        if reads is None or reads(doc):
            one(doc)
    if snippets is not None and result.docs:  # (and every page's appended snippets)
        result.included += [p for p in (_under(snippets[0], a) for a in snippets[1]) if p is not None]
    if not listed:  # (a part's includes are followed by the process that split the tree, once)
        follow_included(result, one)
    return result


def _pulls_in(text: str) -> bool:
    """Whether a document may pull in another's text (``.. include::``, ``{include}``, a snippet, a
    substitution): what it pulls in is scanned as its build reads it."""
    return "include" in text or "8<" in text or "{{" in text


def built_documents(run: RunContext) -> Callable[[Path], bool] | None:
    """Whether a document found under the paths is one the build reads (textfrag.project.buildset): a file named
    on the command line always is; None when every one is."""
    reads = read_by_build(run.config)
    if reads is None:
        return None
    named = {os.path.realpath(p) for p in run.paths}
    return lambda doc: os.path.realpath(doc) in named or reads(doc)


def follow_included(result: Scan, one: Callable[[Path], None], scanned: Iterable[str] = ()) -> None:
    """Scan the Markdown files the scanned pages include (pymdownx.snippets), each once, and theirs (not
    those ``scanned`` already, real paths)."""
    done = {os.path.realpath(d) for d in result.docs.values()} | set(scanned)
    result.following = True
    while result.included:
        doc = result.included.pop(0)
        real = os.path.realpath(doc)
        if real not in done:
            done.add(real)
            one(doc)


def included_markdown(masked: str, bases: tuple[Path, ...]) -> list[Path]:
    """The Markdown files a page includes with pymdownx.snippets (``--8<-- "file.md"``, alone or as a block
    of paths), outside its code (``masked``: the page with its code blanked, as the scanner leaves it: a
    snippet in a code block shows as code); each found under a base path."""
    out: list[Path] = []
    block = False
    for line in masked.splitlines():
        if _SNIPPET_BLOCK.match(line):
            block = not block
            continue
        single = _SNIPPET_LINE.match(line)
        target = (
            single.group(2) if single else line.strip() if block and line.strip() and not line.lstrip().startswith(";") else None
        )
        if target:
            found = _under(bases, target.split(":", 1)[0] if not re.match(r"[A-Za-z]:[\\/]", target) else target)
            if found is not None and found.suffix.lower() in MD_SUFFIXES:
                out.append(found)
    return out


def _under(bases: tuple[Path, ...], target: str) -> Path | None:
    """The file ``target`` names under the first base path that holds it (None: none does)."""
    if "://" in target:
        return None
    for base in bases:
        path = base / target
        try:
            # (as pymdownx.snippets restricts it by default: a file under the base path, never beside it)
            if path.is_file() and Path(os.path.realpath(path)).is_relative_to(os.path.realpath(base)):
                return Path(os.path.relpath(path))  # (shown as a user would type it, from here)
        except (OSError, ValueError):
            continue
    return None


_SNIPPET_LINE = re.compile(r"""^[ \t]*-{1,}8<-{1,}[ \t]+(["'])(.+?)\1[ \t]*$""")
_SNIPPET_BLOCK = re.compile(r"^[ \t]*-{1,}8<-{1,}[ \t]*$")


_UNREAD: tuple[_Written, _Said, bool] = ((None, "md", "inline"), (None, "md", "inline"), False)  # (a sentinel)


def _known(written: _Written, seen: dict[_Said, tuple[_Written, _Said, bool]]) -> tuple[_Written, _Said, bool] | None:
    """Options written with a reference, kept once however often they are written again, with their key
    and whether their verdict reads the quoted text (asked once); None for none (an inline reference)."""
    if written[0] is None and written[2] != "block":
        return None
    said = (tuple(written[0].items()) if written[0] else None, written[1], written[2])
    known = seen.get(said)
    if known is None:
        known = seen[said] = (written, said, reads_text(*written))
    return known


def _with_options(text: str, found: list[Found], result: Scan) -> list[Found]:
    """The references of a document with those its directives' options hold (textfrag.verdict.written_options); each
    directive's ``:encoding:`` noted."""
    from ..verdict.written_options import with_option_references

    out, charsets = with_option_references(text, found)
    file = found[0].file if found else ""
    for start, charset in charsets.items():
        result.charsets[(file, start)] = charset
    return out


def targets_of(run: RunContext) -> tuple[RunContext, set[tuple[str, int]] | None]:
    """``FILE:LINE`` arguments (a reference's place, as check prints it): the places ``update`` is
    limited to (None when there are none), and the run on their files (they are searched)."""
    targets: set[tuple[str, int]] = set()
    paths = []
    for p in run.paths:
        file, sep, line = p.rpartition(":")
        if sep and line.isdigit() and len(line) < 12 and not os.path.exists(p) and os.path.isfile(file):
            targets.add((typed_path(Path(file)), int(line)))
            paths.append(file)
        else:
            paths.append(p)
    return run.but(paths=tuple(paths)), targets or None


def write_or_show(
    run: RunContext, docs: dict[str, DocText], out: TextIO, problems: list[tuple[Found, TextFragError]]
) -> list[str]:
    """Each document with edits replaced atomically (``--write``, only if unchanged since it was read) or
    its diff shown; a document that cannot be written is a problem. The names written."""
    from ..repair.rewrite import apply_edits, unified_diff, write_atomic

    written: list[str] = []
    for shown, doc in docs.items():
        if not doc.edits:
            continue
        try:
            new_text = apply_edits(doc)
            if run.write:
                write_atomic(doc.path, doc.encoded(new_text), expected=doc.raw, shown=shown)
                written.append(shown)
            elif not machine_readable(run.format):
                write_diff(out, unified_diff(doc, new_text, shown))
        except TextFragError as failure:
            problems.append((Found(shown, 0, "", 0, 0, "file"), failure))
    return written


def written_names(docs: dict[str, DocText], problems: list[tuple[Found, TextFragError]]) -> set[str]:
    """The documents with edits that no problem of their own stopped."""
    failed = {f.file for f, _ in problems if not f.text}
    return {name for name, doc in docs.items() if doc.edits and name not in failed}


def stale_after_writing(
    run: RunContext, scan: Scan, written: list[str], rewritten: dict[tuple[str, int], str]
) -> list[tuple[Found, TextFragError]]:
    """References made stale by this run's own rewrites: a rewritten document that is itself quoted.

    The files are verified as they are now (a fresh cache), with each reference as this run left it, so
    that ``update`` never exits 0 while a reference it can see is stale.
    """
    cache = cache_of(run)
    # (a document guard mode rewrote may be one no reference was scanned in: its own path then)
    real = {os.path.realpath(scan.docs.get(shown, shown)) for shown in written}
    found = []
    for f, ref in scan.entries:
        if ref.dialect == "pdi" or os.path.realpath(os.path.join(cache.real_root, ref.path)) not in real:
            continue
        now = parse_reference(rewritten.get((f.file, f.start), ref.text))
        try:
            q = quote(cache, now, explain=False)
        except TextFragError as failure:
            found.append((f, failure))
            continue
        if q.stale is not None:
            found.append(
                (
                    f,
                    StaleError(
                        f"{q.stale.message}: this update rewrote the quoted file itself; run `textfrag update` again",
                        reference=now.text,
                    ),
                )
            )
    return found


def defined_elsewhere(doc: DocText, f: Found, new: str) -> str | None:
    """Why a reference is left as it is when it is written in a substitution defined outside the documents
    (conf.py's ``myst_substitutions``): what to write there; None when it is not."""
    used = doc.text[f.start : f.end]
    if not (used.startswith("{{") and used.endswith("}}")):
        return None
    return (
        f"written in the value of the substitution {spell(used)}, which conf.py's myst_substitutions defines: "
        f"write {spell(new)} there (textfrag rewrites documentation files only)"
    )


def left_as_is(doc: DocText, f: Found, new: str) -> TextFragError:
    """Why a reference the scanner found is not rewritten: written in a substitution defined elsewhere, or
    its document changed while it was read."""
    elsewhere = defined_elsewhere(doc, f, new)
    if elsewhere is not None:
        return TextFragError(f"{spell(f.text)}: {elsewhere}")
    return TextFragError(f"{f.file} changed while textfrag was reading it; it is left as it is")
