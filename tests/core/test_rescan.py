"""Scanning an edit in part (the language server's re-diagnosis): ``rescan_markdown`` of any edit of any
document gives exactly what a full scan gives (the references with their lines and columns, and the
masked text the next edit relies on). Hypothesis builds documents and edits from the constructs that
change how Markdown reads the rest: code spans and fences, indented code, comments, definitions and their
uses, MyST roles and directives, lists, admonitions, titles and labels over line breaks, CR and CR LF."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from textfrag.documents.incremental import rescan_markdown, scan_markdown_kept

PIECES = [
    "Some text ",
    "![](txtfrag:src/a.py#line=1,2)",
    " and [l](txtfrag:src/b.py)",
    "\n",
    "\n\n",
    "x",
    "y z",
    "  ",
    "`code ![](txtfrag:x)`",
    "```\n![](txtfrag:in/code)\n```\n",
    "    indented ![](txtfrag:c)\n",
    "[d]: txtfrag:src/d.py\n",
    "[d]",
    "<!-- ![](txtfrag:e) -->",
    "{txtfrag}`src/f.py`",
    "é😀",
    "\r\n",
    "\r",
    "![a](txtfrag:g)\n\n",
    ":::{note}\n",
    "~~~\n",
    "\n- item ![](txtfrag:h)\n",
    "!!! note\n",
    "[",
    "]",
    "(",
    ")",
    '"',
    "'",
    '![t](txtfrag:i "ti\ntle")',
    "[x\ny](txtfrag:j)",
    "\n  \n",
    "% comment ![](txtfrag:k)\n",
    "> ",
    ">     ![](txtfrag:q)\n",
    "```{eval-rst}\n.. txtfrag:: r\n```\n",
    "![](txtfrag:s t)",
    "+++ x\n",
    "(tgt)=\n",
    ":class: x\n",
    "```{note}\n",
    "<div>\n",
    "</div>\n",
    "<!--\n",
    "---\n",
    "title: x\n",
    "{TXTFRAG}``src/g.py``",
    "> ```\n",
]
documents = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    documents,
    st.lists(st.tuples(st.floats(0, 1), st.integers(0, 20), st.lists(st.sampled_from(PIECES), max_size=2)), max_size=6),
    st.sampled_from([None, "raw", "commonmark"]),  # (no engine known; a Markdown engine's Python-Markdown; MyST)
)
def test_a_partial_rescan_gives_what_a_full_scan_gives(
    doc: str, edits: list[tuple[float, int, list[str]]], html: str | None
) -> None:
    kept = scan_markdown_kept(doc, "d.md", html)  # type: ignore[arg-type]
    for where, length, inserted in edits:
        i = int(where * len(doc))
        new = doc[:i] + "".join(inserted) + doc[i + length :]
        partial = rescan_markdown(kept, new, "d.md", html)  # type: ignore[arg-type]
        full = scan_markdown_kept(new, "d.md", html)  # type: ignore[arg-type]
        assert partial.found == full.found
        assert partial.masked == full.masked
        kept, doc = partial, new


def test_an_edit_inside_a_paragraph_is_scanned_in_part_and_moves_the_rest() -> None:
    doc = "".join(f"Para {i} ![](txtfrag:src/a.py#line={i},{i + 1})\n\n" for i in range(50))
    kept = scan_markdown_kept(doc, "d.md")
    new = doc.replace("Para 7 ", "Paragraph 7, longer, ", 1)
    partial = rescan_markdown(kept, new, "d.md")
    assert partial.found == scan_markdown_kept(new, "d.md").found
    assert partial.found[8].start == kept.found[8].start + len("Paragraph 7, longer, ") - len("Para 7 ")
