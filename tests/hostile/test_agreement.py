"""The gate sees exactly what the engines render: for generated documents (rST, Markdown, MyST, with
admonitions, content tabs, nested fences, lists, tables, comments, escapes and code), the references
`textfrag check` verifies are the references Sphinx or MkDocs verified, no more and no fewer.

Every reference is stale on purpose and names its own line range, so each engine reports each one it
verified, and the sets can be compared exactly.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textfrag.cli import main

from ..mkdocs.conftest import APP
from ..sphinx.conftest import Site as SphinxSite

ZERO = "0" * 32
FOUND = re.compile(r"src/app\.py#line=(\d+),\d+;md5=0{32}")


def ref(k: int) -> str:
    return f"src/app.py#line={k},{k + 1};md5={ZERO}"


# Each block takes a fresh number and says whether its reference is rendered (True) or not (False).
Block = Callable[[int], tuple[str, bool]]

MARKDOWN: dict[str, Block] = {
    "image alone": lambda k: (f"![](txtfrag:{ref(k)})", True),
    "image inline": lambda k: (f"Text ![x](txtfrag:{ref(k)}) more.", True),
    "link": lambda k: (f"A [link](txtfrag:{ref(k)}).", True),
    "link with title": lambda k: (f'A [link](txtfrag:{ref(k)} "t").', True),
    "angle brackets": lambda k: (f"![](<txtfrag:{ref(k)}>)", True),
    "admonition, blank line": lambda k: (f"!!! note\n\n    ![](txtfrag:{ref(k)})", True),
    "admonition": lambda k: (f'!!! tip "Title"\n    Text ![x](txtfrag:{ref(k)}).', True),
    "details": lambda k: (f"??? note\n\n    ![](txtfrag:{ref(k)})", True),
    "tab": lambda k: (f'=== "One"\n\n    ![](txtfrag:{ref(k)})\n\n=== "Two"\n\n    Text.', True),
    "list": lambda k: (f"- item\n\n    ![](txtfrag:{ref(k)})", True),
    "table": lambda k: (f"| a | b |\n|---|---|\n| ![x](txtfrag:{ref(k)}) | c |", True),
    "heading": lambda k: (f"## See ![x](txtfrag:{ref(k)})", True),
    "image in link": lambda k: (f"[![x](txtfrag:{ref(k)})](https://example.org/)", True),
    "definition": lambda k: (f"![x][d{k}]\n\n[d{k}]: txtfrag:{ref(k)}", True),
    "unused definition": lambda k: (f"[u{k}]: txtfrag:{ref(k)}", False),
    "overridden definition": lambda k: (f"See [o{k}].\n\n[o{k}]: txtfrag:{ref(k)}\n[o{k}]: https://example.org/", False),
    "fence in a list item": lambda k: (f"- ```text\n  ![](txtfrag:{ref(k + 1000)})\n  ```\n- item ![x](txtfrag:{ref(k)})", True),
    "footnote": lambda k: (f"Text[^f{k}].\n\n[^f{k}]: txtfrag:{ref(k)}", False),
    "fence": lambda k: (f"```\n![](txtfrag:{ref(k)})\n```", False),
    "tilde fence in admonition": lambda k: (f"!!! note\n\n    ~~~\n    ![](txtfrag:{ref(k)})\n    ~~~", False),
    "indented code": lambda k: (f"    ![](txtfrag:{ref(k)})", False),
    "code in admonition": lambda k: (f"!!! note\n\n        ![](txtfrag:{ref(k)})", False),
    "code span": lambda k: (f"Span `![](txtfrag:{ref(k)})` here.", False),
    "html comment": lambda k: (f"<!-- ![](txtfrag:{ref(k)}) -->", False),
}

RST: dict[str, Block] = {
    "directive": lambda k: (f".. txtfrag:: {ref(k)}", True),
    "backtick underline": lambda k: (f"Cookies\n```````\n\nSee :txtfrag:`{ref(k)}` and ``x``.", True),
    "argument on the next line": lambda k: (f".. txtfrag::\n   {ref(k)}\n   :linenos:", True),
    "upper case": lambda k: (f".. TXTFRAG:: {ref(k)}", True),
    "role": lambda k: (f"Inline :txtfrag:`{ref(k)}` here.", True),
    "upper-case role": lambda k: (f"Inline :TxtFrag:`{ref(k)}` here.", True),
    "suffix role": lambda k: (f"Inline `{ref(k)}`:txtfrag: here.", True),
    "in a note": lambda k: (f".. note::\n\n   .. txtfrag:: {ref(k)}", True),
    "list": lambda k: (f"- item :txtfrag:`{ref(k)}`", True),
    "default role": lambda k: (f".. default-role:: txtfrag\n\nSee `{ref(k)}`.\n\n.. default-role::", True),
    "escaped role": lambda k: (f"Escaped \\:txtfrag:`{ref(k)}` here.", False),
    # a :caption: is inline text, as literalinclude's: a role in it is rendered, and checked
    "caption option": lambda k: (f".. txtfrag:: src/app.py#line=0,1\n   :caption: see :txtfrag:`{ref(k)}`", True),
    "code block": lambda k: (f".. code-block:: rst\n\n   .. txtfrag:: {ref(k)}", False),
    "comment": lambda k: (f".. a comment\n   .. txtfrag:: {ref(k)}", False),
    "literal block": lambda k: (f"Example::\n\n   :txtfrag:`{ref(k)}`", False),
    "inline literal": lambda k: (f"Literal ``:txtfrag:`{ref(k)}``` here.", False),
}

MYST: dict[str, Block] = {
    "directive": lambda k: (f"```{{txtfrag}} {ref(k)}\n```", True),
    "role": lambda k: (f"Inline {{txtfrag}}`{ref(k)}` here.", True),
    "in a note fence": lambda k: (f"````{{note}}\n```{{txtfrag}} {ref(k)}\n```\n````", True),
    "role in a colon note": lambda k: (f":::{{note}}\nText {{txtfrag}}`{ref(k)}`.\n:::", True),
    "nested admonitions": lambda k: (f"`````{{note}}\n````{{tip}}\n```{{txtfrag}} {ref(k)}\n```\n````\n`````", True),
    "code fence": lambda k: (f"```text\n{{txtfrag}}`{ref(k)}`\n```", False),
    # a :caption: is inline text, as literalinclude's: a role in it is rendered, and checked
    "caption option": lambda k: (f"```{{txtfrag}} src/app.py#line=0,1\n:caption: see {{txtfrag}}`{ref(k)}`\n```", True),
    "caption after the body": lambda k: (
        f"```{{literalinclude}} ../src/app.py\n:lines: 1\n\n:caption: {{txtfrag}}`{ref(k)}`\n```",
        False,
    ),
    "fences in a list": lambda k: (f"* - ```md\n    x\n    ```\n  - See {{txtfrag}}`{ref(k)}`.", True),
    "code-block directive": lambda k: (f"```{{code-block}} md\n```{{txtfrag}} {ref(k)}\n```", False),
    "html comment": lambda k: (f"<!-- {{txtfrag}}`{ref(k)}` -->", False),
    "code span": lambda k: (f"Span `` {{txtfrag}}`{ref(k)}` `` here.", False),
}


def document(kinds: list[str], table: dict[str, Block]) -> tuple[str, set[int]]:
    blocks, rendered = [], set()
    for k, kind in enumerate(kinds, start=2):
        text, shown = table[kind](k)
        blocks.append(text)
        if shown:
            rendered.add(k)
    return "\n\n".join(blocks) + "\n", rendered


def check_finds(root: Path, docs: Path) -> set[int]:
    out, err = io.StringIO(), io.StringIO()
    main(["check", "--root", str(root), str(docs)], stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return {int(k) for k in FOUND.findall(err.getvalue())}


SETTINGS = settings(
    max_examples=int(os.environ.get("TEXTFRAG_AGREEMENT_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


@SETTINGS
@given(st.lists(st.sampled_from(sorted(MARKDOWN)), min_size=1, max_size=8))
def test_check_and_mkdocs_verify_the_same_references(kinds: list[str]) -> None:
    import logging

    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    text, expected = document(kinds, MARKDOWN)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "src").mkdir()
        (root / "src" / "app.py").write_text(APP, encoding="utf-8")
        (root / "docs").mkdir()
        (root / "docs" / "index.md").write_text(text, encoding="utf-8")
        (root / "mkdocs.yml").write_text(
            "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - admonition\n  - footnotes\n  - pymdownx.details\n  - tables\n"
            "  - pymdownx.superfences\n  - pymdownx.tabbed:\n      alternate_style: true\nplugins:\n  - textfrag\n",
            encoding="utf-8",
        )
        records: list[str] = []

        class Collect(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                records.append(record.getMessage())

        handler = Collect()
        logging.getLogger("mkdocs.plugins.textfrag").addHandler(handler)
        try:
            try:
                build(load_config(str(root / "mkdocs.yml")))
            except MkDocsException:
                pass
        finally:
            logging.getLogger("mkdocs.plugins.textfrag").removeHandler(handler)
        engine = {int(k) for m in records for k in FOUND.findall(m)}
        html = (root / "site" / "index.html").read_text(encoding="utf-8")
        assert not re.search(r"""(?:src|href)=["']?txtfrag:""", html)
        gate = check_finds(root, root / "docs")
    assert gate == engine, (kinds, text)  # the property: the gate sees what the engine rendered
    if len(kinds) == 1:  # alone, a construct's fate is known (together, blocks may merge: both follow)
        assert engine == expected, (kinds, text)


def _sphinx(text: str, name: str) -> tuple[set[int], set[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        site = SphinxSite(Path(tmp) / "project")
        site.write("docs/conf.py", 'extensions = ["sphinx_textfrag", "myst_parser"]\ntextfrag_root = ".."\n')
        site.write("src/app.py", APP)
        site.page(name, text)
        build = site.build(fresh=True)
        engine = {int(k) for k in FOUND.findall(build.warnings)}
        gate = check_finds(site.root, site.docs)
    return engine, gate


@SETTINGS
@given(st.lists(st.sampled_from(sorted(RST)), min_size=1, max_size=8))
def test_check_and_sphinx_verify_the_same_references_in_rst(kinds: list[str]) -> None:
    text, expected = document(kinds, RST)
    engine, gate = _sphinx("Title\n=====\n\n" + text, "index.rst")
    assert gate == engine, (kinds, text)
    if len(kinds) == 1:
        assert engine == expected, (kinds, text)


@SETTINGS
@given(st.lists(st.sampled_from(sorted(MYST)), min_size=1, max_size=8))
def test_check_and_sphinx_verify_the_same_references_in_myst(kinds: list[str]) -> None:
    text, expected = document(kinds, MYST)
    engine, gate = _sphinx("# Title\n\n" + text, "index.md")
    assert gate == engine, (kinds, text)
    if len(kinds) == 1:
        assert engine == expected, (kinds, text)


@pytest.mark.parametrize(
    ("table", "kind"), [(t, k) for t, table in (("md", MARKDOWN), ("rst", RST), ("myst", MYST)) for k in table]
)
def test_every_block_kind_alone(table: str, kind: str) -> None:
    """Each construct on its own, so a disagreement names its construct."""
    blocks = {"md": MARKDOWN, "rst": RST, "myst": MYST}[table]
    if table == "md":
        test_check_and_mkdocs_verify_the_same_references.hypothesis.inner_test([kind])  # type: ignore[attr-defined]
    elif table == "rst":
        test_check_and_sphinx_verify_the_same_references_in_rst.hypothesis.inner_test([kind])  # type: ignore[attr-defined]
    else:
        test_check_and_sphinx_verify_the_same_references_in_myst.hypothesis.inner_test([kind])  # type: ignore[attr-defined]
    assert kind in blocks
