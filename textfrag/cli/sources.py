"""``textfrag sources``: the repositories a project quotes (``txtfrag://NAME/PATH``): list them, fetch the
commits the lock names, and move one to a newer revision, repairing its quotes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import TextFragError, spell
from ._base import OK, add_common, add_output, cache_of
from .context import Command, RunContext

if TYPE_CHECKING:  # (the command line's start imports no more than its parsers need)
    from ..source.remote import Declared, Sources


def add_parser(sub: Any) -> None:
    """The ``sources`` subcommand's parser."""
    sources = sub.add_parser(
        "sources",
        help="the other repositories the docs quote (txtfrag://NAME/PATH): list, fetch, update",
        description=(
            "The sources declared under [sources] in textfrag.toml (or [tool.textfrag.sources] in pyproject.toml), "
            "each a repository and the revision the docs follow; textfrag-sources.lock, beside that file, records the commit "
            "each revision resolved to, which every build reads."
        ),
    )
    actions = sources.add_subparsers(dest="sources_action", metavar="ACTION")
    listing = actions.add_parser("list", help="each source: its revision, the locked commit, whether the cache holds it")
    fetch = actions.add_parser(
        "fetch",
        help="lock each declared source's revision to a commit (once) and fetch exactly that commit into the cache",
        description="Resolve what the lock lacks, then fetch each locked commit the cache lacks (one shallow fetch per "
        "repository and commit). A build, check and the editor then need no network.",
    )
    update = actions.add_parser(
        "update",
        help="move sources to a newer revision (default: a branch's commit now, else the newest tag), rewriting the "
        "quotes that only moved",
        description="Judge every quote of the source against the new commit: what only moved (or whose file was renamed) "
        "is rewritten, what changed is shown with its diff and left for review (--accept re-pins it). Without "
        "--write, change nothing and show the diff.",
    )
    for p in (sources, listing, fetch, update):
        add_common(p)
    for p in (fetch, update):
        p.add_argument("names", nargs="*", metavar="NAME", help="the sources (default: every declared source)")
    add_output(update)
    update.add_argument(
        "--to",
        metavar="REV",
        help="the tag, branch or commit to move to (default: a source that follows a branch, that branch as it is "
        "now; one that follows a tag or a commit, the newest release tag)",
    )
    update.add_argument("--write", action="store_true", help="rewrite the documents, the declaration and the lock")
    update.add_argument("--accept", action="store_true", help="also re-pin the quotes whose text changed, after review")
    update.add_argument("--docs", dest="paths", action="append", metavar="PATH", help="the documentation to repair (default: .)")
    update.set_defaults(accept_whole_files=False, no_diffs=False)


def _sources(run: RunContext) -> Sources:
    sources: Sources = cache_of(run).sources
    if sources.file is None:
        raise TextFragError(
            f"no source is declared at or above {run.root}: declare them under [sources] in textfrag.toml, "
            'as sdk = { git = "https://github.com/org/sdk", rev = "v1.4.0" }'
        )
    return sources


def _chosen(sources: Sources, names: list[str]) -> list[Declared]:
    unknown = [n for n in names if n not in sources.declared]
    if unknown:
        raise TextFragError(f"{sources.file}: no source named {unknown[0]} is declared ({', '.join(sorted(sources.declared))})")
    return [sources.declared[n] for n in (names or sorted(sources.declared))]


def _list(run: RunContext, out: TextIO, err: TextIO) -> int:
    from ..source.remote import git_dir_of, has_commit

    sources = _sources(run)
    for d in _chosen(sources, []):
        record = sources.locked.get(d.name)
        if record is None or record.rev != d.rev:
            state = "not locked (run `textfrag sources fetch`)"
        else:
            held = has_commit(git_dir_of(sources.cache, record.git), record.commit)
            state = f"{record.commit[:10]}, {'in the cache' if held else 'not in the cache (run `textfrag sources fetch`)'}"
        print(f"{d.name}\t{spell(d.rev)}\t{spell(state)}", file=out)
    return OK


def _fetch(run: RunContext, out: TextIO, err: TextIO) -> int:
    from ..source.fetching import fetch_commit, resolve_rev
    from ..source.gitrun import redacted
    from ..source.remote import Locked, git_dir_of, write_lock

    sources = _sources(run)
    records = dict(sources.locked)
    for d in _chosen(sources, run.args.names):
        record = records.get(d.name)
        if record is None or (redacted(record.git), record.rev) != (redacted(d.git), d.rev):
            record = Locked(d.name, d.git, d.rev, resolve_rev(d.git, d.rev, d.name))
            records[d.name] = record
        fetched = fetch_commit(git_dir_of(sources.cache, d.git), d.git, record.commit, d.name)
        if record.previous:  # (what its quotes were made for before its last update: moved or changed)
            try:
                fetch_commit(git_dir_of(sources.cache, d.git), d.git, record.previous, d.name)
            except TextFragError as missing:  # (a build never needs it: only the explanation of a stale quote)
                print(spell(f"{d.name}: the commit before its last update cannot be fetched: {missing.message}"), file=err)
        print(spell(f"{d.name}: {d.rev} is {record.commit[:10]} ({'fetched' if fetched else 'in the cache'})"), file=err)
    records = {n: r for n, r in records.items() if n in sources.declared}
    assert sources.lock_path is not None
    if write_lock(sources.lock_path, records):
        print(spell(f"textfrag sources: wrote {sources.lock_path}"), file=err)
    return OK


def _update(run: RunContext, out: TextIO, err: TextIO) -> int:
    from ..repair.rewrite import write_atomic
    from ..source.fetching import fetch_commit, next_rev, resolve_rev
    from ..source.remote import Locked, git_dir_of, write_lock
    from .update import run_update

    cache = cache_of(run)
    sources: Sources = cache.sources
    if sources.file is None:
        _sources(run)  # (says what to declare)
    moves: list[Locked] = []
    for d in _chosen(sources, run.args.names):
        record = sources.locked.get(d.name)
        if record is None:
            raise TextFragError(f"the source {d.name} is not in the lock yet: run `textfrag sources fetch` first")
        target = run.args.to or next_rev(d.git, d.rev, d.name)
        commit = resolve_rev(d.git, target, d.name)
        if commit == record.commit and target == record.rev:
            print(spell(f"{d.name}: {target} ({commit[:10]}) is the revision the docs follow already"), file=err)
            continue
        fetch_commit(git_dir_of(sources.cache, d.git), d.git, commit, d.name)
        print(spell(f"{d.name}: {record.rev} ({record.commit[:10]}) -> {target} ({commit[:10]})"), file=err)
        moves.append(Locked(d.name, d.git, target, commit, previous=record.commit))
    if not moves:
        return OK
    if not run.paths:
        run = run.but(paths=(".",))
    if run.args.write:  # (the declaration and the lock first: the documents are then judged as the build will)
        assert sources.file is not None and sources.lock_path is not None
        original = sources.file.read_bytes()  # (as it is: its line endings and everything else kept)
        text = original.decode("utf-8-sig" if original.startswith(b"\xef\xbb\xbf") else "utf-8")
        for move in moves:
            text = _with_rev(text, sources.file, move.name, move.rev)
        bom = b"\xef\xbb\xbf" if original.startswith(b"\xef\xbb\xbf") else b""
        write_atomic(sources.file, bom + text.encode("utf-8"), expected=original)
        write_lock(sources.lock_path, {**sources.locked, **{m.name: m for m in moves}})
        return run_update(run, out, err, cache_of(run))
    for move in moves:  # (the documents judged as they would be after the move; nothing written)
        sources.override(move)
    return run_update(run, out, err, cache)


def _with_rev(text: str, path: Path, name: str, rev: str) -> str:
    """The declaration ``text`` with the source ``name``'s ``rev`` set to ``rev`` (nothing else changed)."""
    quoted = '"' + rev.replace("\\", "\\\\").replace('"', '\\"') + '"'
    inline = re.compile(rf"(?m)^(\s*{re.escape(name)}\s*=\s*\{{[^}}\n]*?\brev\s*=\s*)(\"[^\"\n]*\"|'[^'\n]*')")
    found, n = inline.subn(lambda m: m.group(1) + quoted, text, count=1)
    if n:
        return found
    table = re.compile(
        rf"(?ms)^(\s*\[(?:tool\.textfrag\.)?sources\.{re.escape(name)}\][^\[]*?^\s*rev\s*=\s*)(\"[^\"\n]*\"|'[^'\n]*')"
    )
    found, n = table.subn(lambda m: m.group(1) + quoted, text, count=1)
    if n:
        return found
    raise TextFragError(f"{path}: cannot find the rev of the source {name} to set it to {rev}; set it by hand")


def _sources_run(run: RunContext, out: TextIO, err: TextIO) -> int:
    action = run.args.sources_action or "list"
    return {"list": _list, "fetch": _fetch, "update": _update}[action](run, out, err)


#: the command, as the command line lists it
COMMAND = Command("sources", add_parser, _sources_run)
