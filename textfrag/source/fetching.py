"""Fetching a declared source: a revision resolved to a commit (``git ls-remote``), and exactly that commit
fetched into the cache's bare repository, shallow (``git fetch --depth 1``), at most once: a commit the
cache holds is never fetched again, whatever the number of quotes or runs.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import SourceError
from .gitrun import git, has_commit, redacted

__all__ = ["fetch_commit", "newest_tag", "next_rev", "resolve_rev"]

_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def _refs(url: str, name: str, *patterns: str) -> dict[str, str]:
    """``git ls-remote``: ref name -> commit (a tag's peeled commit in place of the tag object)."""
    out = git(None, "ls-remote", "--", url, *patterns, what=f"the source {name} ({redacted(url)})")
    refs: dict[str, str] = {}
    for line in out.decode("utf-8", "replace").splitlines():
        oid, _, ref = line.partition("\t")
        if ref.endswith("^{}"):
            refs[ref[:-3]] = oid  # (the commit an annotated tag names)
        else:
            refs.setdefault(ref, oid)
    return refs


def resolve_rev(url: str, rev: str, name: str) -> str:
    """The commit ``rev`` (a tag, a branch, ``HEAD`` or a commit) names in the repository at ``url`` now."""
    if _COMMIT.fullmatch(rev):
        return rev
    refs = _refs(url, name, rev)
    for ref in (f"refs/tags/{rev}", f"refs/heads/{rev}", rev):
        if ref in refs:
            return refs[ref]
    raise SourceError(f"the source {name} ({redacted(url)}) has no tag or branch {rev!r}")


def _version_key(tag: str) -> tuple[tuple[int, int | str], ...]:
    """``v1.10.0`` after ``v1.9.2``: numbers compared as numbers; a pre-release (``-rc1``) before its release."""
    parts = re.findall(r"[0-9]+|[A-Za-z]+", tag)
    key: list[tuple[int, int | str]] = [(1, int(p)) if p.isdigit() else (0, p) for p in parts]
    return (*key, (0 if "-" in tag else 1, ""))


def newest_tag(url: str, name: str) -> str | None:
    """The repository's newest release tag (by version number; pre-releases are not chosen), or None."""
    refs = _refs(url, name, "refs/tags/*")
    tags = [r.removeprefix("refs/tags/") for r in refs]
    releases = [t for t in tags if re.search(r"[0-9]", t) and not re.search(r"(?i)(rc|alpha|beta|pre|dev)[0-9]*$|-", t)]
    chosen = releases or tags
    return max(chosen, key=_version_key) if chosen else None


def fetch_commit(git_dir: Path, url: str, commit: str, name: str) -> bool:
    """Make the cache's bare repository ``git_dir`` hold ``commit`` of ``url`` (one shallow fetch of that
    commit); whether it had to fetch."""
    if has_commit(git_dir, commit):
        return False
    what = f"fetching the source {name} ({redacted(url)}) at {commit[:10]}"
    if not (git_dir / "objects").is_dir():
        git_dir.parent.mkdir(parents=True, exist_ok=True)
        git(None, "init", "--quiet", "--bare", str(git_dir), what=what)
    git(git_dir, "fetch", "--quiet", "--no-tags", "--depth=1", "--no-recurse-submodules", "--", url, commit, what=what)
    if not has_commit(git_dir, commit):
        raise SourceError(f"{what}: the repository sent no commit {commit[:10]}")
    return True


def next_rev(url: str, rev: str, name: str) -> str:
    """What ``sources update`` moves a source that follows ``rev`` to, when no revision is given: a branch
    (or ``HEAD``) stays that branch, at its commit now; a tag or a commit moves to the newest release tag,
    never to one older than the tag followed."""
    if rev == "HEAD" or f"refs/heads/{rev}" in _refs(url, name, f"refs/heads/{rev}"):
        return rev
    newest = newest_tag(url, name)
    if newest is None or (not _COMMIT.fullmatch(rev) and _version_key(newest) < _version_key(rev)):
        return rev
    return newest
