"""MyST-Parser's substitutions: a reference written in a substitution's value is rendered where the
substitution is used (``{{ name }}``), and reported by the build at that line.

With the ``substitution`` extension enabled (``myst_enable_extensions``), a page's ``{{ name }}`` is
replaced by the value of ``name`` from its front matter (``myst: substitutions:``) or, failing that, from
``myst_substitutions`` in conf.py, and the value is read as Markdown. ``check``, ``pin`` and ``update``
read each value where it is used, as the build does: a substitution defined and never used renders
nothing, and one used twice is judged twice. A reference defined in the page's own front matter is
rewritten there by ``update --write``; one defined in conf.py is reported with the reference to write
there, and left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .found import Found, LineIndex

__all__ = ["front_substitutions", "substituted"]

# a use: ``{{ name }}`` (a Jinja2 expression; one that is exactly a name, as pages write them, is followed)
_USE = re.compile(r"\{\{([^{}\r\n]+)\}\}")
# a line that starts a block of its own (a heading, a list item, a quote, a fence, a directive)
_BLOCK_START = re.compile(r"^[ \t]*(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|>|`{3,}|~{3,}|:{3,})")
_FRONT = re.compile(r"\A-{3}[ \t]*\r?\n(.*?\r?\n)?(?:-{3}|\.{3})[ \t]*(?:\r?\n|\Z)", re.DOTALL)


def front_substitutions(text: str) -> dict[str, tuple[str, int | None]]:
    """The substitutions a page's front matter defines (``myst: substitutions:``): name -> (value, the
    offset of the value in the page, None when it is not written there as is: a quoted string with escapes,
    a folded block)."""
    front = _FRONT.match(text) if text.startswith("---") else None
    if front is None or "substitutions" not in (front.group(1) or ""):
        return {}
    try:
        import yaml  # (PyYAML comes with MyST-Parser, which is what reads substitutions)
    except ImportError:
        return {}
    try:
        data = yaml.safe_load(front.group(1) or "")
    except yaml.YAMLError:
        return {}
    myst = data.get("myst") if isinstance(data, dict) else None
    values = myst.get("substitutions") if isinstance(myst, dict) else None
    if not isinstance(values, dict):
        return {}
    out: dict[str, tuple[str, int | None]] = {}
    for name, value in values.items():
        if isinstance(name, str) and isinstance(value, str):
            at = text.find(value, 0, front.end()) if value else -1
            out[name] = (value, at if at >= 0 and text.count(value, 0, front.end()) == 1 else None)
    return out


def substituted(
    text: str,
    masked: str,
    file: str,
    defined: Mapping[str, str],
    scan: object,
    lines: LineIndex | None = None,
) -> list[Found]:
    """The references the substitutions used in ``text`` render, each at the line and column of its use.

    ``masked`` is the page with its code blanked (a use in code is text); ``defined`` the substitutions of
    conf.py, which the page's front matter overrides; ``scan(value, file)`` finds the references of a
    value read as Markdown. A reference whose value is written as is in the page's front matter keeps its
    offsets there (``update --write`` rewrites it); the others have the offsets of their use."""
    if "{{" not in masked:
        return []
    front = front_substitutions(text)
    lines = LineIndex(text) if lines is None else lines
    out: list[Found] = []
    found_in: dict[str, list[Found]] = {}
    for use in _USE.finditer(masked):
        name = use.group(1).strip()
        if name in front:
            value, at = front[name]
        elif name in defined:
            value, at = defined[name], None
        else:
            continue
        if name not in found_in:
            found_in[name] = scan(value, file)  # type: ignore[operator]
        # (MyST-Parser reports what a value renders one line below the first line of the block that uses it)
        line = _block_start(masked, lines, use.start()) + 1
        column = use.start() - lines.line_start(use.start()) + 1
        for f in found_in[name]:
            if at is not None:
                start, end = at + f.start, at + f.end
                span = (at + f.span[0], at + f.span[1]) if f.span is not None else None
            else:
                start, end, span = use.start(), use.end(), (use.start(), use.end())
            out.append(Found(file, line + f.line - 1, f.text, start, end, f.kind, span, f.label, column))
    return out


def _block_start(masked: str, lines: LineIndex, offset: int) -> int:
    """The first line of the paragraph (or heading, list item) that holds ``offset``."""
    line = lines.line_at(offset)
    start = lines.line_start(offset)
    while line > 1:
        end = masked.find("\n", start)
        here = masked[start : end if end >= 0 else len(masked)]
        if _BLOCK_START.match(here):
            break
        before = lines.line_start(start - 1)
        previous = masked[before:start].rstrip("\r\n")
        if not previous.strip() or previous.lstrip().startswith("#"):
            break
        line, start = line - 1, before
    return line
