"""``.. txtfrag:: REF`` and ``:txtfrag:`REF```: translate a quote into nodes, nothing more.

Parsing, loading, counting and verifying are the core's (textfrag.quote); presentation decisions shared
with MkDocs are textfrag.present's. Every problem is recorded on the environment (see state.py) so that
it is reported, and fails the build, on every build until it is fixed.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective, SphinxRole

from textfrag import PREFIX, Quote, Reference, TextFragError, parse_reference, quote
from textfrag.present import (
    anchor_id,
    dedent,
    default_caption,
    display_text,
    emphasized_lines,
    language_for,
    source_url,
    unique_anchor,
)

from .nodes import txtfrag_block, txtfrag_inline
from .state import cache_of, record_bug, record_dependency, record_problem


def _dedent_option(argument: str | None) -> int | None:
    if argument is None or not argument.strip():
        return None
    return directives.nonnegative_int(argument)


def quote_here(env: BuildEnvironment, lineno: int, text: str) -> Quote | None:
    """Quote ``text`` for the document being read; record every problem on ``env`` (None: unusable)."""
    docname = env.docname
    cache = cache_of(env)
    try:
        ref: Reference = parse_reference(text.strip())
    except TextFragError as err:
        record_problem(env, docname, lineno, err, error=True)
        return None
    try:
        path = cache.pdi_path(ref.path, ref.text) if ref.dialect == "pdi" else ref.path
    except TextFragError as err:
        record_problem(env, docname, lineno, err, error=True)
        return None
    # noted before the read: a file that cannot be read now still triggers a rebuild when it changes
    env.note_dependency(str(cache.root / path))
    try:
        q = quote(cache, ref)
    except TextFragError as err:
        record_dependency(env, docname, path, None)
        record_problem(env, docname, lineno, err, error=True)
        return None
    record_dependency(env, docname, path, q.source.md5)
    if q.stale is not None:
        record_problem(env, docname, lineno, q.stale, error=env.config.textfrag_on_stale != "warning")
    return q


def anchor_and_data(node: nodes.Element, q: Quote, document: nodes.document) -> None:
    """The contract's class, unique stable id and integrity data (shared/CONTRACT.md section 6)."""
    anchor = unique_anchor(anchor_id(q.reference), document.ids)
    node["ids"].append(anchor)
    document.ids[anchor] = node
    node["classes"].append("txtfrag")
    ref = q.reference
    node["txtfrag_ref"] = ref.text.removeprefix(PREFIX)  # as written
    node["txtfrag_md5"] = q.source.md5
    node["txtfrag_length"] = q.source.length
    node["txtfrag_charset"] = q.source.charset


class TxtfragDirective(SphinxDirective):
    """``.. txtfrag:: PATH#FRAGMENT``: a block excerpt, verified at build time."""

    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True  # so that a space in a reference gets textfrag's own message
    has_content = False
    option_spec = {
        "caption": directives.unchanged,
        "language": directives.unchanged_required,
        "linenos": directives.flag,
        "emphasize-lines": directives.unchanged_required,
        "dedent": _dedent_option,
        "name": directives.unchanged,
        "class": directives.class_option,
    }

    def run(self) -> list[nodes.Node]:
        try:
            return self._run()
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, with its location
            record_bug(self.env, self.lineno, bug)
            return [_broken(self.arguments[0])]

    def _run(self) -> list[nodes.Node]:
        q = quote_here(self.env, self.lineno, self.arguments[0])
        if q is None:
            return [_broken(self.arguments[0])]
        pieces = q.selections
        selection = q.selection
        try:
            texts = [display_text(p.text) for p in pieces]
            if "dedent" in self.options:
                texts = [dedent(t, self.options["dedent"]) for t in texts]
            spec = self.options.get("emphasize-lines")
            if spec is None:
                hl: list[list[int]] = [[] for _ in pieces]
            elif len(pieces) == 1:
                hl = [emphasized_lines(spec, pieces[0])]  # type: ignore[list-item]
            else:
                hl = emphasized_lines(spec, pieces)  # type: ignore[assignment]
            url = source_url(self.config.textfrag_source_url, selection)
        except TextFragError as err:
            err.reference = self.arguments[0]
            record_problem(self.env, self.env.docname, self.lineno, err, error=True)
            return [_broken(self.arguments[0])]
        language = self.options.get("language") or language_for(q.source.path)
        blocks: list[nodes.Node] = []
        for i, (piece, text, hl_lines) in enumerate(zip(pieces, texts, hl, strict=True)):
            if i:  # disjoint pieces: an elision marker between them
                blocks.append(nodes.paragraph("\u22ef", "\u22ef", classes=["txtfrag-elision"]))
            literal = nodes.literal_block(text, text)
            literal["language"] = language
            literal["linenos"] = "linenos" in self.options
            literal["highlight_args"] = {"linenostart": piece.first_line}  # each piece numbered as in the file
            if hl_lines:
                literal["highlight_args"]["hl_lines"] = hl_lines
            literal["classes"] += self.options.get("class", [])
            self.set_source_info(literal)
            blocks.append(literal)

        caption_text = self.options.get("caption") or default_caption(pieces)
        caption = nodes.caption(caption_text, caption_text)
        if url:
            caption += nodes.Text(" ")
            caption += nodes.reference("", "view source", refuri=url, classes=["txtfrag-source"])
        self.set_source_info(caption)
        block = txtfrag_block("", caption, *blocks, literal_block=True, classes=["literal-block-wrapper"])
        block["txtfrag_caption"] = caption_text
        anchor_and_data(block, q, self.state.document)
        self.add_name(block)
        return [block]


class TxtfragRole(SphinxRole):
    """``:txtfrag:`PATH#FRAGMENT```: an inline excerpt, verified at build time."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        try:
            return self._run()
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, with its location
            record_bug(self.env, self.lineno, bug)
            return [_broken(self.text, inline=True)], []

    def _run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        q = quote_here(self.env, self.lineno, self.text)
        if q is None:
            return [_broken(self.text, inline=True)], []
        text = " \u22ef ".join(display_text(p.text) for p in q.selections)
        node = txtfrag_inline(text, text)
        try:
            url = source_url(self.config.textfrag_source_url, q.selection)
        except TextFragError as err:
            record_problem(self.env, self.env.docname, self.lineno, err, error=True)
            url = None
        if url:
            node["txtfrag_source_url"] = url
        anchor_and_data(node, q, self.inliner.document)
        return [node], []


def _broken(reference: str, *, inline: bool = False) -> nodes.Node:
    """What stands in the page for a reference that could not be quoted (the build fails anyway)."""
    text = f"[textfrag: cannot quote {reference}]"
    if inline:
        return nodes.inline(text, text, classes=["txtfrag-error"])
    return nodes.paragraph(text, text, classes=["txtfrag-error"])
