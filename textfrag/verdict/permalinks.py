"""A pasted forge permalink made a reference to a declared source: ``txtfrag:https://github.com/org/sdk/blob/
<commit>/src/app.py#L10-L20`` becomes ``txtfrag://sdk/src/app.py#line=...;length=...;md5=...`` (``textfrag pin``).

The repository must be declared (only declared sources are ever fetched, and from the URL the declaration
gives, never the page's). The permalink's lines are read at its commit; the docs quote the commit the lock
names, so the same text is looked for there: found once (on whole lines), the reference quotes it where it
is; else the lines changed between the two commits, and nothing is guessed.
"""

from __future__ import annotations

import re

from ..drift.classify import whole_lines
from ..errors import TextFragError
from ..reference.fragment import Reference
from ..reference.grammar import parse_reference
from ..reference.resolving import occurrences, resolve, select
from ..source.cache import Source, SourceCache
from ..source.gitrun import repository_key
from ..source.paths import encode_path
from .quoting import make_fragment

__all__ = ["declared_file", "from_permalink", "is_followed", "is_permalink"]

# github.com/ORG/REPO/blob/REV/PATH, gitlab.com/ORG/REPO/-/blob/REV/PATH, codeberg.org/ORG/REPO/src/commit/REV/PATH,
# raw.githubusercontent.com/ORG/REPO/REV/PATH
_FORMS = (
    re.compile(r"https://(?P<host>github\.com|gitlab\.com)/(?P<repo>[^/]+/[^/]+?)(?:/-)?/blob/(?P<rev>[^/]+)/(?P<path>.+)"),
    re.compile(r"https://(?P<host>codeberg\.org)/(?P<repo>[^/]+/[^/]+)/src/(?:commit|tag|branch)/(?P<rev>[^/]+)/(?P<path>.+)"),
    re.compile(r"https://raw\.githubusercontent\.com/(?P<repo>[^/]+/[^/]+)/(?P<rev>[^/]+)/(?P<path>.+)"),
)


def is_permalink(path: str) -> bool:
    """Whether a reference's PATH is a forge's URL of a file at a revision."""
    return path.startswith("https://") and any(form.fullmatch(path) for form in _FORMS)


def declared_file(cache: SourceCache, url: str, reference: str) -> tuple[str, str, str]:
    """(source name, path in it, revision) of a forge's URL of a file at a revision, when the repository is
    a declared source; :class:`TextFragError` naming what to declare."""
    for form in _FORMS:
        m = form.fullmatch(url)
        if m is not None:
            break
    else:
        raise TextFragError(f"{url} is not a GitHub, GitLab or Codeberg URL of a file at a revision", reference=reference)
    host = m.groupdict().get("host") or "github.com"
    wanted = f"{host}/{m.group('repo')}"
    sources = cache.sources
    names = [n for n, d in sorted(sources.declared.items()) if repository_key(d.git) == wanted]
    if not names:
        raise TextFragError(
            f"the URL is of https://{wanted}, which is not a declared source: declare it under [sources] in "
            f'textfrag.toml (name = {{ git = "https://{wanted}", rev = "TAG" }}) and run `textfrag sources fetch`',
            reference=reference,
        )
    return names[0], m.group("path"), m.group("rev")


def is_followed(cache: SourceCache, name: str, rev: str) -> bool:
    """Whether ``rev`` (a tag, a branch or a commit, or its first 7 or more digits) is what the docs follow."""
    record = cache.sources.record(name)
    return rev in (record.rev, record.commit) or (len(rev) >= 7 and record.commit.startswith(rev))


def from_permalink(cache: SourceCache, ref: Reference) -> Reference:
    """The reference to the declared source that quotes what the permalink ``ref`` quotes, at the commit
    the docs follow; :class:`TextFragError` naming what to declare, or saying the lines changed."""
    name, path, rev = declared_file(cache, ref.path, ref.text)
    sources = cache.sources
    _, hash_, fragment = ref.text.partition("#")
    local = parse_reference(f"txtfrag://{name}/{encode_path(path)}{hash_}{fragment}")
    tree = sources.tree(name)  # (the commit the docs follow; a SourceError says what to run)
    record = sources.locked[name]
    if is_followed(cache, name, rev):
        return local
    then = sources.tree_at(name, rev)
    old = Source(f"//{name}/{path}", then.read(path, ref.text, cache.max_size), cache.charset)
    quoted = resolve(old, local.fragment) if local.selector is None else local.selector.select(old)[0]
    current = cache.get(f"//{name}/{path}", ref.text)
    hits = [h for h in occurrences(current, quoted.text, 2) if whole_lines(current.text, h, h + len(quoted.text))]
    if len(hits) != 1 or quoted.empty:
        raise TextFragError(
            f"the permalink quotes {quoted.lines_display()} at {rev[:10]}; that text is "
            f"{'nowhere' if not hits else 'more than once'} "
            f"in //{name}/{path} at the commit the docs follow ({record.rev}, {tree.commit[:10]}): quote it again "
            f"(`textfrag make txtfrag://{name}/{path} --lines A-B`)",
            reference=ref.text,
        )
    now = select(current, hits[0], hits[0] + len(quoted.text))
    return parse_reference(f"txtfrag://{name}/{encode_path(path)}#{make_fragment(now, length=False, md5=False, lines=True)}")
