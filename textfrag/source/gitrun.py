"""git run safely for declared sources: only the transports a source may use, no prompt, no hook, no
configuration of the machine's that could run a program, a time limit, and no credential in a message.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import SourceError

__all__ = ["GIT_TIMEOUT", "git", "git_environment", "has_commit", "redacted", "repository_key", "safe_url", "same_repository"]

#: seconds a git command of a source may take (a fetch of one commit; TEXTFRAG_GIT_TIMEOUT sets it)
GIT_TIMEOUT = 300.0

#: the transports a declared source may name (never ``ext::``, ``fd::`` or a remote helper)
_PROTOCOLS = "file:git:http:https:ssh"

_SCP_LIKE = re.compile(r"[A-Za-z0-9_.-]+@[A-Za-z0-9.-]+:[^/\\].*|[A-Za-z0-9_.-]+@[A-Za-z0-9.-]+:/.*")
_USERINFO = re.compile(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", re.I)


def redacted(url: str) -> str:
    """``url`` without a user name or token (``https://x:TOKEN@host/r`` -> ``https://host/r``): what a
    message and the lock say."""
    return _USERINFO.sub(r"\1", url)


def safe_url(url: object, where: str) -> str:
    """A source's ``git`` as declared, or :class:`SourceError`: a URL of a transport git runs without a
    helper program (``https://``, ``http://``, ``ssh://``, ``git://``, ``file://``, ``user@host:path``)."""
    if not isinstance(url, str) or not url.strip():
        raise SourceError(f"{where}: git must be the repository's URL, as a string")
    if url.startswith("-") or any(ord(c) < 0x20 or c == "\x7f" or c.isspace() for c in url):
        raise SourceError(f"{where}: {redacted(url)!r} is not a repository URL (no white space or control characters)")
    scheme = url.split("://", 1)[0].lower() if "://" in url else None
    if scheme in ("https", "http", "ssh", "git", "file") or (scheme is None and _SCP_LIKE.fullmatch(url)):
        return url
    raise SourceError(
        f"{where}: {redacted(url)!r} is not a URL textfrag fetches: write https://, ssh://, git://, file:// or user@host:path"
    )


def git_environment() -> dict[str, str]:
    """The environment git runs in for a source: the user's, less what would make it prompt or run a
    program the repository names."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in ("GIT_SSH_COMMAND", "GIT_SSL_CAINFO")}
    env.update(
        GIT_ALLOW_PROTOCOL=_PROTOCOLS,
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_ASKPASS="",
        SSH_ASKPASS="",
        LC_ALL="C",
    )
    return env


def _timeout() -> float:
    try:
        return max(1.0, float(os.environ.get("TEXTFRAG_GIT_TIMEOUT", GIT_TIMEOUT)))
    except ValueError:
        return GIT_TIMEOUT


def git(git_dir: Path | None, *args: str, what: str, input: bytes | None = None) -> bytes:
    """Run ``git ARGS`` (on the bare repository ``git_dir``), its output; :class:`SourceError` saying
    ``what`` failed and git's last words (credentials removed) when it fails, takes too long, or git is
    not installed."""
    import subprocess  # (only a run that runs git pays for it)

    command = ["git", "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never", "-c", "core.fsmonitor=false"]
    if git_dir is not None:
        command += ["--git-dir", str(git_dir)]
    limit = _timeout()
    try:
        done = subprocess.run(
            [*command, *args], input=input, capture_output=True, env=git_environment(), timeout=limit, check=False
        )
    except FileNotFoundError:
        raise SourceError(f"{what}: git is not installed (textfrag runs git to fetch a declared source)") from None
    except subprocess.TimeoutExpired:
        raise SourceError(f"{what}: git took over {limit:g} s (TEXTFRAG_GIT_TIMEOUT sets the limit)") from None
    if done.returncode != 0:
        said = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        last = redacted(said[-1].strip()) if said else f"git exited with {done.returncode}"
        raise SourceError(f"{what}: {last}")
    return done.stdout


def has_commit(git_dir: Path, commit: str) -> bool:
    """Whether the bare repository ``git_dir`` holds ``commit``: known from a mark left when it was found
    there (no process), else asked of git (and marked)."""
    mark = git_dir / "textfrag-commits" / commit
    if mark.exists():
        return True
    if not (git_dir / "objects").is_dir():
        return False
    import subprocess

    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        env=git_environment(),
        check=False,
    )
    if done.returncode != 0:
        return False
    try:
        mark.parent.mkdir(exist_ok=True)
        mark.touch()
    except OSError:  # (a cache that cannot be written: asked again next time)
        pass
    return True


def repository_key(url: str) -> str:
    """What names a repository whatever the transport: ``github.com/org/sdk`` for its https, ssh and scp-like
    URLs (no credential, no ``.git``); a local path for ``file://`` and a path."""
    text = url.strip().rstrip("/").removesuffix(".git")
    if text.startswith("file://"):
        return text.removeprefix("file://")
    m = re.match(r"(?i)^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/:]+)(?::[0-9]+)?/(.*)$", text)
    if m:
        return f"{m.group(1).lower()}/{m.group(2)}"
    m = re.match(r"^(?:[^@]+@)?([^:/]+):(.*)$", text)  # (user@host:org/repo)
    if m and not text.startswith("/"):
        return f"{m.group(1).lower()}/{m.group(2).lstrip('/')}"
    return text


def same_repository(a: str, b: str) -> bool:
    """Whether two URLs name the same repository (``https://github.com/org/sdk`` and ``git@github.com:org/sdk.git``)."""
    return repository_key(a) == repository_key(b)
