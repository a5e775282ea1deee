"""``.. txtfrag:: REF`` and ``:txtfrag:`REF```: translate the core's verdict into nodes, nothing more.

Whether a reference is good and what its excerpt shows is the core's verdict (textfrag.verdict.judging), the
same one ``check`` and the editor reach; the options are read by the core's one table, so every option
is passed on as written. Every problem is recorded on the environment (see state.py) so that it is
reported, and fails the build, on every build until it is fixed.
"""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.environment import BuildEnvironment
from sphinx.locale import get_translation
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.osutil import relative_uri

from textfrag import Quote
from textfrag.errors import literal_parts
from textfrag.verdict import ELISION, Excerpt, Settings, Syntax, Verdict, judge, option_names, unique_anchor

from .nodes import txtfrag_block, txtfrag_inline
from .state import cache_of, place_of, record_bug, record_dependency, record_problem, record_range, role_line, state_of


class _AnyOption(dict):  # type: ignore[type-arg]
    """The directive's option_spec: every option is passed on as written, so that the core's one option
    table (textfrag.verdict.option_table) reads it: a misspelt option or a bad value is then the same problem, in
    the same words, in Sphinx, MkDocs, mystmd, ``check`` and the editor."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> object:
        return _as_written


def _as_written(argument: str | None) -> str | None:
    return argument


def translate(message: str) -> str:
    """``message`` in the project's language (Sphinx's i18n, the catalogs textfrag ships)."""
    return str(_textfrag_messages(message))


_textfrag_messages = get_translation("textfrag")


def settings_of(env: BuildEnvironment) -> Settings:
    """The project's configuration, as the core's verdict takes it."""
    config = env.config
    return Settings(
        on_stale=config.textfrag_on_stale,
        require_pin=config.textfrag_require_pin,
        auto_caption=config.textfrag_caption == "path",
        source_url=config.textfrag_source_url,
        translate=translate,
        language=_page_language(env),
        highlighter="sphinx",  # (Sphinx says itself which language Pygments does not know)
    )


def judged_here(
    env: BuildEnvironment,
    lineno: int,
    text: str,
    options: dict[str, str | None] | None = None,
    *,
    inline: bool = False,
    source: str | None = None,
    option_lines: dict[str, int] | None = None,
) -> Verdict:
    """The core's verdict on ``text`` written with ``options`` in the document being read; every problem
    recorded on ``env`` (so that it fails this build and every later one until it is fixed), the quoted
    file noted as a dependency before it is read."""
    docname = env.docname
    cache = cache_of(env)
    # what is the same for every reference of the document: its syntax, the quoted files already noted
    here: tuple[Syntax, set[str]] | None = env.temp_data.get("textfrag_here")
    if here is None:
        myst = str(env.doc2path(docname)).endswith((".md", ".markdown", ".myst"))
        here = ("myst" if myst else "rst", set())
        env.temp_data["textfrag_here"] = here
    syntax = here[0]
    verdict = judge(cache, text, options, syntax=syntax, form="inline" if inline else "block", settings=settings_of(env))
    if verdict.reference is not None and not verdict.pinned:  # counted for the end of the build
        unpinned = state_of(env).unpinned
        unpinned[docname] = unpinned.get(docname, 0) + 1
    if verdict.path is not None and verdict.path not in here[1]:  # (noted once per document)
        # a file that cannot be read now still triggers a rebuild when it changes
        env.note_dependency(str(cache.root / verdict.path))
        record_dependency(env, docname, verdict.path, verdict.quote.source.md5 if verdict.quote is not None else None)
        if verdict.quote is not None:
            here[1].add(verdict.path)
    lines = option_lines or {}  # (a problem of a reference an option holds is at the option's line)
    for problem in verdict.problems:
        record_problem(env, docname, lines.get(problem.reference or "", lineno), problem, error=True, source=source)
    for warning in verdict.warnings:
        record_problem(env, docname, lines.get(warning.reference or "", lineno), warning, error=False, source=source)
    return verdict


def anchor_and_data(node: nodes.Element, ex: Excerpt, document: nodes.document) -> None:
    """The contract's class, unique stable id and integrity data (the manual's reference/html page)."""
    anchor = unique_anchor(ex.anchor, document.ids)
    node["ids"].append(anchor)
    document.ids[anchor] = node
    node["classes"].append("txtfrag")
    for key, value in ex.data.items():
        node[f"txtfrag_{key}"] = value


def _page_language(env: BuildEnvironment) -> str | None:
    """The language literalinclude would use without ``:language:``: the page's ``.. highlight::`` or
    ``highlight_language``, when the project chose one; None (guess from the file name) when it left
    Sphinx's ``default``."""
    language = env.temp_data.get("highlight_language") or env.config.highlight_language
    return None if language in (None, "", "default") else str(language)


class TxtfragDirective(SphinxDirective):
    """``.. txtfrag:: PATH#FRAGMENT``: a block excerpt, verified at build time."""

    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True  # so that a space in a reference gets textfrag's own message
    has_content = False
    # the core's table reads them (textfrag.verdict.option_table); docutils only looks for an option block when the
    # spec is not empty, so it lists the table's names, and takes any other to be told of it in the core's words
    option_spec = _AnyOption({name: _as_written for name in option_names("rst")})

    def run(self) -> list[nodes.Node]:
        """The excerpt's nodes; a bug in textfrag is reported as textfrag's, never raised to Sphinx."""
        try:
            return self._run()
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, with its location
            record_bug(self.env, self.lineno, bug)
            return [_broken(self.arguments[0], self.env, self.lineno)]

    def _run(self) -> list[nodes.Node]:
        source, line = place_of(self.env, *self.get_source_info())
        options = dict(self.options)
        verdict = judged_here(
            self.env, line, self.arguments[0], options, source=source, option_lines=_option_lines(self.block_text, line, options)
        )
        ex, q, o = verdict.excerpt, verdict.quote, verdict.options
        if ex is None or q is None or (o.diff is not None and verdict.diff is None):
            return [_broken(self.arguments[0], self.env, self.lineno)]
        blocks: list[nodes.Node] = []
        if verdict.diff is not None:
            literal = nodes.literal_block(verdict.diff, verdict.diff)
            literal["language"] = "udiff"
            if "linenos" in o.written:
                literal["linenos"] = True
            literal["highlight_args"] = {"linenostart": 1}
            literal["classes"] += list(o.classes)
            literal["force"] = o.force
            self.set_source_info(literal)
            blocks.append(literal)
        for i, piece in enumerate(ex.pieces if not blocks else ()):
            if i:  # disjoint pieces: an elision marker between them
                blocks.append(nodes.paragraph(ELISION, ELISION, classes=["txtfrag-elision"]))
            literal = nodes.literal_block(piece.text, piece.text)
            literal["language"] = ex.language
            if o.numbered:
                literal["linenos"] = True  # (unset otherwise, so that .. highlight:: :linenothreshold: applies)
            literal["highlight_args"] = {"linenostart": piece.number}  # as in the file, unless :lineno-start:
            if piece.emphasized:
                literal["highlight_args"]["hl_lines"] = list(piece.emphasized)
            literal["classes"] += list(o.classes)
            literal["force"] = o.force
            self.set_source_info(literal)
            blocks.append(literal)
        caption = self._caption(ex.caption) if o.caption else _literal_caption(ex.caption)
        if ex.source_url:
            caption += nodes.Text(" ")
            caption += nodes.reference("", ex.labels.view_source, refuri=ex.source_url, classes=["txtfrag-source"])
        context = context_link(self.env, q)
        if context:
            caption += nodes.Text(" ")
            caption += nodes.reference("", ex.labels.in_context, refuri=context, classes=["txtfrag-context-link"])
        self.set_source_info(caption)
        # the build goes on (warning mode, autobuild): the reader is told, above the caption, which stays with
        # its code
        notice = [_stale_notice(ex)] if ex.state == "stale" else []
        # no caption and no link: no caption element, as literalinclude draws none (an empty caption would be a
        # visible bar holding only the permalink); the permalink then sits at the block's corner (nodes.py)
        head = [caption] if caption.astext().strip() else []
        block = txtfrag_block("", *notice, *head, *blocks, literal_block=True, classes=["literal-block-wrapper"])
        block["txtfrag_caption"] = ex.caption
        anchor_and_data(block, ex, self.state.document)
        if o.name:
            self.options["name"] = o.name
        else:
            self.options.pop("name", None)
        self.add_name(block)
        for name in block["names"]:  # :name: is an id too, as literalinclude's (links to #name keep working)
            named = nodes.make_id(name)
            if named and named not in self.state.document.ids:
                block["ids"].append(named)
                self.state.document.ids[named] = block
        return [block]

    def _caption(self, text: str) -> nodes.caption:
        """A caption the user wrote, parsed as reStructuredText inline markup, as literalinclude's is."""
        parsed = nodes.Element()
        self.state.nested_parse(StringList([text], source=""), self.content_offset, parsed)
        if len(parsed) == 1 and isinstance(parsed[0], nodes.paragraph):
            return nodes.caption(parsed[0].rawsource, "", *parsed[0].children)
        return nodes.caption(text, text)


def context_link(env: BuildEnvironment, q: Quote) -> str | None:
    """With ``textfrag_context_pages``: note the quoted lines (marked on the file's page) and return the
    address of the excerpt's lines there, relative to the current document (HTML builders only)."""
    if not env.config.textfrag_context_pages or q.stale is not None:
        return None
    from context_textfrag import context_url

    path = q.source.path
    for piece in q.selections:
        record_range(env, env.docname, path, piece.first_line, max(piece.first_line, piece.last_line))
    builder = env.app.builder
    if builder.format != "html" or builder.name.startswith("epub"):  # (an e-book lists its files: no pages)
        return None
    first, last = q.selections[0].first_line, max(p.last_line for p in q.selections)
    target, _, fragment = context_url(path, first, max(first, last)).partition("#")
    return f"{relative_uri(builder.get_target_uri(env.docname), target)}#{fragment}"


def _option_lines(block_text: str, line: int, options: dict[str, str | None]) -> dict[str, int]:
    """The reference an option holds (``:diff: REF``) -> the line of that option, the directive's first line
    being ``line``: where ``check`` and the editor report its problems too."""
    reference = options.get("diff")
    if not reference:
        return {}
    for i, text in enumerate(block_text.splitlines()):
        if text.lstrip().startswith(":diff:"):
            return {reference: line + i}
    return {}


class TxtfragRole(SphinxRole):
    """``:txtfrag:`PATH#FRAGMENT```: an inline excerpt, verified at build time."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """The excerpt's nodes; a bug in textfrag is reported as textfrag's, never raised to Sphinx."""
        try:
            return self._run()
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, with its location
            record_bug(self.env, self.lineno, bug)
            return [_broken(self.text, self.env, self.lineno, inline=True)], []

    def _run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        source, line = place_of(self.env, *self.get_source_info())
        line = role_line(self.env, source, line, self.rawtext, getattr(self.inliner, "parent", None))
        verdict = judged_here(self.env, line, self.text, inline=True, source=source)
        ex, q = verdict.excerpt, verdict.quote
        if ex is None or q is None:
            return [_broken(self.text, self.env, self.lineno, inline=True)], []
        node = txtfrag_inline(ex.inline_text, ex.inline_text)
        if ex.source_url:
            node["txtfrag_source_url"] = ex.source_url
        if ex.notice:
            node["txtfrag_notice"] = ex.notice
        node["txtfrag_labels"] = (ex.labels.permalink, ex.labels.view_source, ex.labels.stale_mark, ex.labels.in_context)
        context = context_link(self.env, q)
        if context:
            node["txtfrag_context_url"] = context
        anchor_and_data(node, ex, self.inliner.document)
        return [node], []


def _literal_caption(text: str) -> nodes.caption:
    """The caption textfrag writes (the path and lines): literal text, never touched by smart quotes (a
    file named ``it's--a"name"...txt`` is shown as it is named)."""
    caption = nodes.caption(text, text)
    caption["support_smartquotes"] = False
    return caption


def _broken(reference: str, env: BuildEnvironment, line: int, *, inline: bool = False) -> nodes.Node:
    """What stands in the page for a reference that could not be quoted (the build fails, unless it is
    served or set to go on): the theme's own error admonition with the problem as the build reported it
    (``docname:line: REF: what is wrong``), so a reader is never shown a quote that is not there."""
    recorded = state_of(env).problems.get(env.docname, [])
    said = next((p.message for p in reversed(recorded) if p.line == line), f"{reference}: cannot be quoted")
    if inline:
        text = f"[textfrag: {said}]"
        return nodes.inline(text, text, classes=["txtfrag-error"])
    text = f"{env.doc2path(env.docname, False)}:{line}: {said}"
    paragraph = nodes.paragraph()
    for part, literal in literal_parts(text):  # (a command in the message is code, never raw backticks)
        paragraph += nodes.literal(part, part) if literal else nodes.Text(part)
    return nodes.error("", paragraph, classes=["txtfrag-error"])


def _stale_notice(ex: Excerpt) -> nodes.Node:
    """The mark a stale excerpt shows when the build goes on: a warning admonition with the short reason."""
    title = ex.labels.stale_title
    notice = ex.notice or ""
    return nodes.admonition("", nodes.title(title, title), nodes.paragraph(notice, notice), classes=["warning", "txtfrag-stale"])
