"""``.. txtfrag:: REF`` and ``:txtfrag:`REF```: translate a quote into nodes, nothing more.

Parsing, loading, counting and verifying are the core's (textfrag.quote); presentation decisions shared
with MkDocs are textfrag.present's. Every problem is recorded on the environment (see state.py) so that
it is reported, and fails the build, on every build until it is fixed.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.environment import BuildEnvironment
from sphinx.locale import get_translation
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.osutil import relative_uri

from textfrag import Quote, Reference, TextFragError, parse_reference, quote
from textfrag.errors import HiddenTextWarning, UnpinnedError
from textfrag.excerpt import ELISION, Excerpt, diff_text, excerpt_of
from textfrag.intent import Intent, disagreement, intent_lines
from textfrag.pin import is_pinned
from textfrag.present import unique_anchor
from textfrag.quote import quoted_path

from .nodes import txtfrag_block, txtfrag_inline
from .state import cache_of, record_bug, record_dependency, record_problem, record_range, state_of


def _dedent_option(argument: str | None) -> int | None:
    if argument is None or not argument.strip():
        return None
    return directives.nonnegative_int(argument)


def translate(message: str) -> str:
    """``message`` in the project's language (Sphinx's i18n, the catalogs textfrag ships)."""
    return str(_textfrag_messages(message))


_textfrag_messages = get_translation("textfrag")


def quote_here(
    env: BuildEnvironment, lineno: int, text: str, intent: Intent | None = None, charset: str | None = None
) -> Quote | None:
    """Quote ``text`` for the document being read; record every problem on ``env`` (None: unusable). A
    stale quote's drift is explained by its selection ``intent`` when it has one; ``charset`` is the one
    the file is read in (``:encoding:``), instead of ``textfrag_charset``."""
    docname = env.docname
    cache = cache_of(env)
    try:
        cache = cache.with_charset(charset) if charset else cache
    except TextFragError as err:
        record_problem(env, docname, lineno, err.with_reference(text), error=True)
        return None
    try:
        ref: Reference = parse_reference(text.strip())
    except TextFragError as err:
        record_problem(env, docname, lineno, err, error=True)
        return None
    if not is_pinned(ref):  # counted for the end of the build; a problem where pins are required
        unpinned = state_of(env).unpinned
        unpinned[docname] = unpinned.get(docname, 0) + 1
        if env.config.textfrag_require_pin:
            record_problem(env, docname, lineno, UnpinnedError(reference=ref.text), error=True)
    try:
        path = quoted_path(cache, ref)
    except TextFragError as err:
        record_problem(env, docname, lineno, err, error=True)
        return None
    # noted before the read: a file that cannot be read now still triggers a rebuild when it changes
    env.note_dependency(str(cache.root / path))
    try:
        q = quote(cache, ref, intent=intent)
    except TextFragError as err:
        record_dependency(env, docname, path, None)
        record_problem(env, docname, lineno, err, error=True)
        return None
    record_dependency(env, docname, path, q.source.md5)
    if q.stale is not None:
        record_problem(env, docname, lineno, q.stale, error=env.config.textfrag_on_stale != "warning")
    return q


def anchor_and_data(node: nodes.Element, ex: Excerpt, document: nodes.document) -> None:
    """The contract's class, unique stable id and integrity data (shared/CONTRACT.md section 6)."""
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
    option_spec = {
        "caption": lambda argument: (argument or "").strip(),
        "language": directives.unchanged_required,
        "linenos": directives.flag,
        # literalinclude's: numbers from N (with :linenos:, implied as there), or the file's own (the default)
        "lineno-start": directives.nonnegative_int,
        "lineno-match": directives.flag,
        "tab-width": directives.positive_int,
        "emphasize-lines": directives.unchanged_required,
        "dedent": _dedent_option,
        "name": directives.unchanged,
        "class": directives.class_option,
        # highlight even where the lexer fails, as literalinclude's
        "force": directives.flag,
        # the intent: why these lines (literalinclude's selection options); the reference pins them
        "pyobject": directives.unchanged_required,
        "start-after": directives.unchanged_required,
        "start-at": directives.unchanged_required,
        "end-before": directives.unchanged_required,
        "end-at": directives.unchanged_required,
        "lines": directives.unchanged_required,
        # a region between markers ([START x]/[END x], #region x/#endregion, :snippet-start: x, [start:x])
        "region": directives.unchanged_required,
        # a definition in any language textfrag reads (Class.method), by tree-sitter: the symbols extra
        "symbol": directives.unchanged_required,
        # the charset the file is read in, as literalinclude's (default: textfrag_charset)
        "encoding": directives.encoding,
        # a unified diff from this reference's text (an older file) to the directive's, as literalinclude's
        "diff": directives.unchanged_required,
        # lines of the document's own around the excerpt, as literalinclude's (not verified)
        "prepend": directives.unchanged_required,
        "append": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        """The excerpt's nodes; a bug in textfrag is reported as textfrag's, never raised to Sphinx."""
        try:
            return self._run()
        except Exception as bug:  # a bug in textfrag: reported as textfrag's, with its location
            record_bug(self.env, self.lineno, bug)
            return [_broken(self.arguments[0], self.env, self.lineno)]

    def _run(self) -> list[nodes.Node]:
        try:
            stated = Intent.from_options(self.options)
        except TextFragError:
            stated = None  # reported below, once the reference is known good
        q = quote_here(self.env, self.lineno, self.arguments[0], stated, self.options.get("encoding"))
        if q is None:
            return [_broken(self.arguments[0], self.env, self.lineno)]
        try:
            intent = Intent.from_options(self.options)
            if intent is not None and q.stale is None:  # a stale quote is reported already
                why = disagreement(q.source.text, q.selection.first_line, q.selection.last_line, intent, path=q.source.path)
                if why is not None:
                    raise TextFragError(why)
            keep = _gaps(q, intent, self.options)
            ex = excerpt_of(
                q,
                # an explicit empty :caption: is none, as literalinclude's; no :caption: follows textfrag_caption
                caption=self.options.get("caption"),
                auto_caption=self.config.textfrag_caption == "path",
                language=self.options.get("language") or _page_language(self.env),
                emphasize=self.options.get("emphasize-lines"),
                dedent_by=self.options["dedent"] if "dedent" in self.options else False,
                source_url_template=self.config.textfrag_source_url,
                number_from=self.options.get("lineno-start"),
                tab_width=self.options.get("tab-width"),
                prepend=self.options.get("prepend"),
                append=self.options.get("append"),
                keep=keep,
                translate=translate,
            )
        except TextFragError as err:
            record_problem(self.env, self.env.docname, self.lineno, err.with_reference(self.arguments[0]), error=True)
            return [_broken(self.arguments[0], self.env, self.lineno)]
        _warn_hidden(self.env, self.lineno, ex, self.arguments[0])
        blocks: list[nodes.Node] = []
        if "diff" in self.options:
            diffed = self._diff(q)
            if diffed is None:
                return [_broken(self.arguments[0], self.env, self.lineno)]
            blocks.append(diffed)
        for i, piece in enumerate(ex.pieces if not blocks else ()):
            if i:  # disjoint pieces: an elision marker between them
                blocks.append(nodes.paragraph(ELISION, ELISION, classes=["txtfrag-elision"]))
            literal = nodes.literal_block(piece.text, piece.text)
            literal["language"] = ex.language
            if {"linenos", "lineno-start", "lineno-match"} & set(self.options):
                literal["linenos"] = True  # (unset otherwise, so that .. highlight:: :linenothreshold: applies)
            literal["highlight_args"] = {"linenostart": piece.number}  # as in the file, unless :lineno-start:
            if piece.emphasized:
                literal["highlight_args"]["hl_lines"] = list(piece.emphasized)
            literal["classes"] += self.options.get("class", [])
            literal["force"] = "force" in self.options
            self.set_source_info(literal)
            blocks.append(literal)
        caption = self._caption(ex.caption) if self.options.get("caption") else _literal_caption(ex.caption)
        if ex.source_url:
            caption += nodes.Text(" ")
            caption += nodes.reference("", ex.labels.view_source, refuri=ex.source_url, classes=["txtfrag-source"])
        context = context_link(self.env, q)
        if context:
            caption += nodes.Text(" ")
            caption += nodes.reference("", ex.labels.in_context, refuri=context, classes=["txtfrag-context-link"])
        self.set_source_info(caption)
        if ex.state == "stale":  # the build goes on (warning mode, autobuild): the reader is told
            blocks.insert(0, _stale_notice(ex))
        # no caption and no link: no caption element, as literalinclude draws none (an empty caption would be a
        # visible bar holding only the permalink); the permalink then sits at the block's corner (nodes.py)
        head = [caption] if caption.astext().strip() else []
        block = txtfrag_block("", *head, *blocks, literal_block=True, classes=["literal-block-wrapper"])
        block["txtfrag_caption"] = ex.caption
        anchor_and_data(block, ex, self.state.document)
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

    def _diff(self, new: Quote) -> nodes.literal_block | None:
        """``:diff: REF``: literalinclude's unified diff from the quote of REF to this one (both verified),
        its header naming the two files as literalinclude does (their full paths), in ``udiff``."""
        clash = sorted(
            {
                "pyobject",
                "start-after",
                "start-at",
                "end-before",
                "end-at",
                "lines",
                "region",
                "symbol",
                "emphasize-lines",
                "lineno-match",
                "lineno-start",
                "prepend",
                "append",
                "dedent",
            }
            & set(self.options)
        )
        if clash:
            err = TextFragError(f":diff: shows a diff of two quotes; it cannot be combined with :{clash[0]}:")
            record_problem(self.env, self.env.docname, self.lineno, err.with_reference(self.arguments[0]), error=True)
            return None
        old = quote_here(self.env, self.lineno, self.options["diff"], None, self.options.get("encoding"))
        if old is None:
            return None
        root = cache_of(self.env).root
        text = diff_text(
            old, new, str(root / old.source.path), str(root / new.source.path), tab_width=self.options.get("tab-width")
        )
        literal = nodes.literal_block(text, text)
        literal["language"] = "udiff"
        if "linenos" in self.options:
            literal["linenos"] = True
        literal["highlight_args"] = {"linenostart": 1}
        literal["classes"] += self.options.get("class", [])
        literal["force"] = "force" in self.options
        self.set_source_info(literal)
        return literal


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


def _gaps(q: Quote, intent: Intent | None, options: dict[str, object]) -> list[int] | None:
    """The lines a ``:lines:`` intent with gaps (``1-9,14-16``) keeps of the pinned ones, which are then
    shown joined as literalinclude joins them; None when it keeps one run (the pin itself)."""
    if intent is None or intent.lines is None or q.stale is not None:
        return None
    kept = intent_lines(q.source.text, intent, path=q.source.path)
    if kept == list(range(kept[0], kept[-1] + 1)):
        return None
    if {"linenos", "lineno-match"} & set(options) and "lineno-start" not in options:
        raise TextFragError(
            f":lines: {intent.lines} joins lines that are not one run, so the file's numbers would skip: "
            "number them with :lineno-start: (literalinclude refuses :lineno-match: here too)"
        )
    if "prepend" in options or "append" in options:
        raise TextFragError(f":lines: {intent.lines} with gaps cannot be combined with :prepend: or :append:")
    return kept


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
        q = quote_here(self.env, self.lineno, self.text)
        if q is None:
            return [_broken(self.text, self.env, self.lineno, inline=True)], []
        try:
            ex = excerpt_of(q, source_url_template=self.config.textfrag_source_url, translate=translate)
        except TextFragError as err:
            record_problem(self.env, self.env.docname, self.lineno, err.with_reference(self.text), error=True)
            return [_broken(self.text, self.env, self.lineno, inline=True)], []
        _warn_hidden(self.env, self.lineno, ex, self.text)
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


def _warn_hidden(env: BuildEnvironment, line: int, ex: Excerpt, reference: str) -> None:
    """A warning (``textfrag.bidi``, which ``suppress_warnings`` silences) for an excerpt that holds
    bidirectional control characters; the HTML marks each one (nodes.py)."""
    if ex.hidden is not None:
        record_problem(env, env.docname, line, HiddenTextWarning(ex.hidden, reference=reference), error=False)


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
    return nodes.error("", nodes.paragraph(text, text), classes=["txtfrag-error"])


def _stale_notice(ex: Excerpt) -> nodes.Node:
    """The mark a stale excerpt shows when the build goes on: a warning admonition with the short reason."""
    title = ex.labels.stale_title
    notice = ex.notice or ""
    return nodes.admonition("", nodes.title(title, title), nodes.paragraph(notice, notice), classes=["warning", "txtfrag-stale"])
