"""A program run in a real pseudo-terminal, its screen read by a terminal emulator (pyte) and drawn as
HTML, so that the real browser can take a picture of what a user of a terminal editor sees."""

from __future__ import annotations

import fcntl
import html
import os
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte

#: the 16 named colours (xterm's defaults); 256-colour and RGB ones come from pyte as hex already
_NAMED = {
    "black": "000000", "red": "cd0000", "green": "00cd00", "brown": "cdcd00", "blue": "0000ee",
    "magenta": "cd00cd", "cyan": "00cdcd", "white": "e5e5e5", "brightblack": "7f7f7f", "brightred": "ff0000",
    "brightgreen": "00ff00", "brightbrown": "ffff00", "brightblue": "5c5cff", "brightmagenta": "ff00ff",
    "brightcyan": "00ffff", "brightwhite": "ffffff",
}  # fmt: skip
FOREGROUND, BACKGROUND = "d0d0d0", "1c1c1c"


class Terminal:
    """``argv`` in a pseudo-terminal of ``columns`` x ``rows``, its output fed to an emulated screen."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], columns: int = 100, rows: int = 24) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=dict(env, TERM="xterm-256color"), stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        os.close(slave)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def read_until(self, done: Callable[[Terminal], bool], timeout: float, quiet: float = 0.5) -> bool:
        """Read the program's output until ``done`` says so and then nothing more came for ``quiet``
        seconds (the screen has settled), or ``timeout`` seconds have passed."""
        end = time.monotonic() + timeout
        settled_since: float | None = None
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the program ended
                    return done(self)
                self.stream.feed(data)
                settled_since = None
                continue
            if done(self):
                settled_since = settled_since or time.monotonic()
                if time.monotonic() - settled_since >= quiet:
                    return True
        return False

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        os.close(self.master)

    def html(self) -> str:
        """The screen as a page: one ``<pre>`` of coloured runs, the cursor not drawn."""
        rows = []
        for y in range(self.screen.lines):
            line = self.screen.buffer[y]
            runs: list[tuple[str, str]] = []
            for x in range(self.screen.columns):
                char = line[x]
                fg, bg = _colour(char.fg, FOREGROUND, char.bold), _colour(char.bg, BACKGROUND, False)
                if char.reverse:
                    fg, bg = bg, fg
                style = f"color:#{fg};background:#{bg}" + (";font-weight:bold" if char.bold else "")
                style += ";text-decoration:underline" if char.underscore else ""
                if runs and runs[-1][0] == style:
                    runs[-1] = (style, runs[-1][1] + char.data)
                else:
                    runs.append((style, char.data))
            rows.append("".join(f'<span style="{s}">{html.escape(t)}</span>' for s, t in runs))
        return (
            "<!doctype html><meta charset=utf-8><style>body{margin:0;background:#fff}"
            f"pre{{margin:0;display:inline-block;background:#{BACKGROUND};padding:6px;"
            "font:14px/1.25 'DejaVu Sans Mono',monospace}</style><pre id=terminal>" + "\n".join(rows) + "</pre>"
        )


def _colour(name: str, default: str, bold: bool) -> str:
    if name == "default":
        return default
    if bold and name in _NAMED and not name.startswith("bright"):
        name = "bright" + name
    return _NAMED.get(name, name if len(name) == 6 else default)
