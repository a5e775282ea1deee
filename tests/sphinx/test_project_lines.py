"""The same document:line from the build and ``check`` wherever a reference stands: a role on a paragraph's
second line, in a grid or simple table's cell (docutils tells a role its paragraph's first line, in a table
the line below), a definition, a field, list items, a line block, a block quote, a MyST admonition nested
in ``::::{note}``, a MyST table row, and a reference a ``:diff:`` option holds (at the option's line)."""

from __future__ import annotations

import re
from pathlib import Path

from ..processes import run_sphinx, run_textfrag
from .test_project_verdict import CONF, STALE, _project

ROLE = f":txtfrag:`{STALE}`"
_W = len(ROLE) + 2


def _row(a: str, b: str) -> str:
    return f"| {a.ljust(4)} | {b.ljust(_W - 2)} |"


_SEP = "+------+" + "-" * _W + "+"
RST = f"""T
=

.. toctree::

   m

Para one
two {ROLE}
three {ROLE}

{_SEP}
{_row("a", "b")}
{_SEP.replace("-", "=")}
{_row("x", ROLE)}
{_SEP}
{_row("y", "z")}
{_row("", "more")}
{_row("", ROLE)}
{_SEP}

=====  =====
A      B
=====  =====
1      x
       {ROLE}
2      3
3      {ROLE}
=====  =====

Term
   Definition {ROLE}
   and {ROLE}

:field: value
   {ROLE}

- a {ROLE}
- b {ROLE}

  - nested
    and {ROLE} {ROLE}

| line block {ROLE}
| two {ROLE}

   quoted
   {ROLE}

.. txtfrag:: src/app.txt#line=2,4
   :caption: C
   :diff: {STALE}
"""
MYST = f"""# M

::::{{note}}
Some text
and {{txtfrag}}`{STALE}`

:::{{txtfrag}} {STALE}
:::
::::

| a | b |
|---|---|
| x | {{txtfrag}}`{STALE}` |

Para
more {{txtfrag}}`{STALE}` and {{txtfrag}}`{STALE}`

- item
  more {{txtfrag}}`{STALE}`

```{{txtfrag}} src/app.txt#line=2,4
:caption: c
:diff: {STALE}
```
"""


def _places(output: str) -> list[str]:
    """Every ``file:line`` a problem is reported at, as often as it is, in order."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", output)
    return sorted(m.group(1) for m in re.finditer(r"(?:^|/)docs/([\w./-]+:\d+): (?:WARNING: |ERROR: )?src/", plain, re.M))


def test_the_build_and_check_report_every_reference_at_its_own_line(tmp_path: Path) -> None:
    conf = CONF.replace('"sphinx_textfrag"', '"sphinx_textfrag", "myst_parser"') + 'myst_enable_extensions = ["colon_fence"]\n'
    root = _project(tmp_path, {"index.rst": RST, "m.md": MYST}, conf)
    built = run_sphinx("--no-color", "-E", "-q", "-b", "html", "docs", "out", cwd=root, timeout=120)
    checked = run_textfrag("check", cwd=root, timeout=120)
    assert built.returncode != 0 and checked.returncode == 1, checked.stderr
    lines = RST.split("\n")
    expected = sorted(
        [f"index.rst:{i}" for i, text in enumerate(lines, 1) for _ in range(text.count(STALE))]
        + [f"m.md:{i}" for i, text in enumerate(MYST.split("\n"), 1) for _ in range(text.count(STALE))]
    )
    assert _places(checked.stderr) == expected, checked.stderr
    assert _places(built.stderr) == expected, built.stderr
