"""``textfrag index``: the docs' quote index (textfrag.impact.quote_index), for ``textfrag impact --quoted-by``
in the repositories the docs quote."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, TextIO

from ..errors import TextFragError, spell
from ._base import BAD, OK, add_common, cache_of
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``index`` subcommand's parser."""
    p = sub.add_parser(
        "index",
        help="write the docs' quote index: each quote's repository, file, lines, md5 and commit, and where readers see it",
        description="For every quote in the documents: the source (a declared one's name, repository and locked commit), "
        "the file, the lines, the md5, and the document, line, heading and page URL that show it, as JSON. Commit it "
        "or publish it with the site; `textfrag impact --quoted-by INDEX` in a quoted repository reads it.",
    )
    add_common(p)
    p.add_argument("--site", metavar="NAME", help="the site's name in the index (default: the docs repository's folder)")
    p.add_argument("--site-url", metavar="URL", help="the published site's address: each quote's page URL and anchor")
    p.add_argument("-o", "--output", metavar="FILE", help="write the index to FILE (default: standard output)")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")


def _top(folder: Path) -> Path:
    done = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, text=True, check=False)
    return Path(done.stdout.strip()).resolve() if done.returncode == 0 and done.stdout.strip() else folder.resolve()


def _index(run: RunContext, out: TextIO, err: TextIO) -> int:
    from ..documents.files import read_text
    from ..documents.headings import heading_above, headings
    from ..impact.quote_index import IndexedQuote, index_json, page_url
    from ..source.paths import split_source
    from ..verdict.presentation import anchor_id, unique_anchor
    from ..verdict.quoting import quote
    from ._scan import scan_documents

    cache = cache_of(run)
    scan = scan_documents(run)
    top = _top(Path(run.root))
    config = run.config
    base = Path(config.srcdir) if config is not None and config.srcdir is not None else Path(run.root)
    engine = "mkdocs" if config is not None and config.path.suffix in (".yml", ".yaml") else (config.engine if config else "")
    titles: dict[str, list[tuple[int, str]]] = {}
    anchors: dict[str, set[str]] = {}
    quotes: list[IndexedQuote] = []
    for f, ref in scan.entries:
        doc = scan.docs.get(f.file, Path(f.file)).resolve()
        if f.file not in titles:
            try:
                titles[f.file] = headings(read_text(doc, f.file, run.max_size), doc.suffix)
            except TextFragError:
                titles[f.file] = []
        named = split_source(ref.path)
        source = git = commit = None
        path = ref.path
        if named is not None:
            source, path = named
            record = cache.sources.locked.get(source)
            if record is not None:
                git, commit = record.git, record.commit
        lines, md5 = (
            None,
            next((c.value.lower() for c in ref.fragment.known_checks if c.name == "md5"), None) if ref.fragment else None,
        )
        try:
            q = quote(scan.cache_for(cache, f), ref, explain=False)
            lines, md5 = (q.selection.first_line, max(q.selection.first_line, q.selection.last_line)), q.source.md5
        except TextFragError:
            pass  # (a stale or broken quote is indexed as written: check says what is wrong with it)
        taken = anchors.setdefault(f.file, set())
        anchor = unique_anchor(anchor_id(ref), taken)
        taken.add(anchor)
        try:
            in_site = doc.relative_to(base.resolve()).as_posix()
        except ValueError:
            in_site = None
        url = page_url(run.args.site_url, engine, in_site) if in_site is not None else None
        try:
            document = doc.relative_to(top).as_posix()
        except ValueError:
            document = f.file
        quotes.append(
            IndexedQuote(
                source, git, commit, path, ref.text, lines, md5, document, f.line, f.column,
                heading_above(titles[f.file], f.line), f"{url}#{anchor}" if url else None,
            )
        )  # fmt: skip
    for f, e in scan.problems:  # (a document that cannot be read: the index would miss its quotes)
        print(spell(f"{f.file}:{f.line}: {e.message}"), file=err)
    text = index_json(run.args.site or top.name, quotes)
    if run.args.output:
        target = Path(run.args.output)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
        documents = len({q.document for q in quotes})
        print(spell(f"textfrag index: {len(quotes)} quotes in {documents} documents -> {target}"), file=err)
    else:
        out.write(text)
    return BAD if scan.problems else OK


#: the command, as the command line lists it
COMMAND = Command("index", add_parser, _index)
