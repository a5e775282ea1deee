"""What the command line shows a person at a terminal, and nobody else: a progress line for runs that
take more than a second, and colour.

Both are for standard error when it is a terminal (not a pipe, a file or a CI log) whose ``TERM`` is
not ``dumb``. Colour also honours https://no-color.org (``NO_COLOR`` set and not empty: none) and
``FORCE_COLOR`` (set and not empty: colour even when not a terminal, as in a CI log that renders it).
Nothing here changes what is written to standard output, or the words of any message.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import TextIO

__all__ = ["Progress", "Style", "verdict_word", "laid_out"]


def _is_terminal(stream: TextIO, env: Mapping[str, str]) -> bool:
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or unusual stream is no terminal
        return False
    return bool(tty) and env.get("TERM") != "dumb"


def verdict_word(error: object) -> str:
    """The one word a problem's first line leads with: ``moved``, ``changed``, ``invisible`` (a stale
    quote whose drift is known), ``stale`` (whose drift is not), ``gone`` (no such file), ``empty``,
    ``unpinned``, or ``bad``."""
    from ..errors import EmptyError, PathError, StaleError, UnpinnedError

    if isinstance(error, StaleError):
        return error.drift if error.drift in ("moved", "changed", "invisible") else "stale"
    if isinstance(error, UnpinnedError):
        return "unpinned"
    if isinstance(error, PathError) and error.no_such_file:
        return "gone"
    return "empty" if isinstance(error, EmptyError) else "bad"


def laid_out(where: str, verdict: str, reference: str, message: str, width: int) -> str:
    """A problem as a person at a terminal reads it: ``WHERE: VERDICT: REFERENCE`` on the first line, then
    what is wrong, a clause to a line, wrapped to ``width`` and indented; a diff after it as it is. (Pipes,
    files, CI logs and the machine formats keep the one line ``WHERE: REFERENCE: message``.)"""
    import textwrap

    words, _, diff = message.partition("\n")
    lines = [f"{where}: {verdict}: {reference}"]
    for clause in words.split("; "):
        wrapped = textwrap.wrap(
            clause,
            width=max(40, width),
            initial_indent="    ",
            subsequent_indent="      ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines += wrapped or [""]
    return "\n".join(lines) + (f"\n{diff}" if diff else "")


class Style:
    """ANSI colour for messages on standard error, or plain text when colour is off."""

    RESET = "\x1b[0m"
    CODES = {"bold": "\x1b[1m", "red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}

    def __init__(self, stream: TextIO, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        #: a person's terminal: what is written is spelled out where it could move the cursor or restyle it
        self.terminal = _is_terminal(stream, env)
        if env.get("NO_COLOR"):
            self.on = False
        elif env.get("FORCE_COLOR"):
            self.on = True
        else:
            self.on = self.terminal

    def paint(self, text: str, colour: str) -> str:
        """``text`` in ``colour`` (a key of :attr:`CODES`), or as it is when colour is off."""
        return f"{self.CODES[colour]}{text}{self.RESET}" if self.on and text else text

    def problem(self, report: str, where: str, stale: bool) -> str:
        """A problem's report (``WHERE: REFERENCE: message`` and detail lines) with the place in bold,
        stale in yellow and broken in red, and a diff's removed and added lines in red and green."""
        if not self.on:
            return report
        head, _, rest = report.partition("\n")
        if head.startswith(where):
            head = self.paint(where, "bold") + self.paint(head[len(where) :], "yellow" if stale else "red")
        return f"{head}\n{self.diff(rest)}" if rest else head

    def diff(self, text: str) -> str:
        """A unified diff with hunk headers in cyan, removed lines in red and added lines in green."""
        if not self.on:
            return text
        lines = []
        for line in text.splitlines(keepends=True):
            body, end = (line[:-1], "\n") if line.endswith("\n") else (line, "")
            if body.startswith("@@"):
                body = self.paint(body, "cyan")
            elif body.startswith("+") and not body.startswith("+++ "):
                body = self.paint(body, "green")
            elif body.startswith("-") and not body.startswith("--- "):
                body = self.paint(body, "red")
            lines.append(body + end)
        return "".join(lines)


class Progress:
    """One line on standard error saying how far a long run is, redrawn in place at most ten times a
    second, from the moment the run has taken :attr:`DELAY` seconds, and erased before anything else is
    printed there. Off unless standard error is a terminal (and never with ``--quiet``)."""

    DELAY = 1.0
    INTERVAL = 0.1

    def __init__(self, stream: TextIO, *, enabled: bool = True, env: Mapping[str, str] | None = None) -> None:
        self.stream = stream
        self.on = enabled and _is_terminal(stream, os.environ if env is None else env)
        self.start = time.monotonic()
        self.next = self.start + self.DELAY
        self.drawn = False

    def show(self, text: str) -> None:
        """Say ``text`` (one short line) if the run is long enough and the last redraw is old enough."""
        if not self.on:
            return
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + self.INTERVAL
        self.stream.write(f"\r{text}\x1b[K")
        self.stream.flush()
        self.drawn = True

    def clear(self) -> None:
        """Erase the line, so that what is printed next starts at the left margin of an empty line."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False
