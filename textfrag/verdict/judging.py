"""THE judge: a reference as a document writes it, with its options, in a project -> a :class:`Verdict`.

What a build shows (the excerpt) and every problem it raises are decided here, once. ``check``,
``update``, ``pin``, the language server, the Sphinx directive and role, the Markdown extension, the
MkDocs plugin and textfrag-myst call :func:`judge` and only translate its result: a green ``check``
is a green build (the manual's explanation/verdict page).

The steps, in the order a build takes them: the reference is parsed; its options are read by the one
table (textfrag.verdict.option_table); the file is quoted and its pin verified (a stale pin explained from git
history by the options' intent); the intent must still select the pinned lines; the excerpt is made
with every option (highlighted lines inside the quote, a dedent that strips no text, ...). A reference
whose options cannot fail and whose pin holds by the file's digest is judged without its text, so
``check`` of a large tree reads no more than it hashes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from ..errors import EmptyError, HiddenTextWarning, IntegrityWarning, LanguageWarning, StaleError, TextFragError, UnpinnedError
from ..reference.grammar import parse_reference
from ..reference.integrity import mismatches, misspelt_checks, needs_text
from ..source.store import Store
from ..source.store import current as current_store
from .option_table import INERT, OptionError, Options, Syntax, read_options
from .pins import is_pinned
from .quoting import Quote, empty_problem, hidden_note, problem_of, quote, quoted_path
from .written_options import Option, raw_of, shifted

if TYPE_CHECKING:  # (check judges most references without these: they are imported when needed)
    from ..intents.intent import Intent
    from ..reference.fragment import Reference
    from ..source.cache import SourceCache
    from .excerpt import Excerpt
    from .i18n import Translate

__all__ = [
    *("Settings", "Verdict", "IntentError", "LinkError"),
    *("judge", "no_link_target", "reads_text"),
]


class IntentError(TextFragError):
    """An intent (``:pyobject:``, ``:symbol:``, ``:region:``, markers, ``:lines:``) that names nothing or
    no longer selects the pinned lines."""

    kind = "intent"


class LinkError(TextFragError):
    """A ``[text](txtfrag:REF)`` link with nowhere to go: no excerpt of the same reference to point to,
    and no ``source_url``. The build warns (``--strict`` fails it), and ``check`` fails it."""

    kind = "link"


def no_link_target(reference: str, *, site: bool) -> LinkError:
    """The problem of a link to a reference that no page embeds (``site``: the MkDocs plugin, which points
    a link at any page's excerpt) or that its own page does not (the Markdown extension alone)."""
    where = "no page embeds the same reference" if site else "the page embeds no such reference"
    return LinkError(f"this link has no target: {where} and no source_url is set", reference=reference)


class Settings:
    """What a project's configuration says about judging (the same for every engine and command)."""

    __slots__ = ("on_stale", "require_pin", "auto_caption", "source_url", "translate", "language", "highlighter")

    def __init__(
        self,
        *,
        on_stale: str = "error",
        require_pin: bool = False,
        auto_caption: bool = True,
        source_url: str | None = None,
        translate: Translate = str,
        language: str | None = None,
        highlighter: str = "pygments",
    ) -> None:
        #: "error": a stale reference fails; "warning": it is shown, marked, and said
        self.on_stale = on_stale
        #: a reference without md5 is a problem
        self.require_pin = require_pin
        #: with no caption written, the path and lines (False: none)
        self.auto_caption = auto_caption
        #: the template of a "view source" link
        self.source_url = source_url
        #: what a reader sees, in the site's language
        self.translate = translate
        #: the language when the options name none and it is not to be guessed from the file's name
        self.language = language
        #: what highlights the excerpt: "pygments" (Sphinx, MkDocs, Zensical: a language it does not know is
        #: a warning), or the engine's own highlighter, whose names textfrag does not judge
        self.highlighter = highlighter

    def key(self) -> str:
        """Every setting here as one text (part of the key a good verdict is remembered under): a setting
        added to this class is part of it without being listed again. ``translate`` is the language's."""
        return repr(tuple(getattr(self, name) for name in self.__slots__ if name != "translate"))


class Verdict:
    """What a build shows of one reference, or what is wrong with it."""

    __slots__ = ("text", "reference", "options", "path", "quote", "excerpt", "diff", "problems", "warnings", "pinned")

    def __init__(self, text: str) -> None:
        #: the reference as written
        self.text = text
        self.reference: Reference | None = None
        self.options = Options()
        #: the file under the root the reference quotes (known before it is read: a build depends on it)
        self.path: str | None = None
        self.quote: Quote | None = None
        #: what a build shows; None when it cannot show it (or when the caller did not ask for it)
        self.excerpt: Excerpt | None = None
        #: ``:diff:``: the unified diff the build shows instead of the excerpt
        self.diff: str | None = None
        #: every problem that fails the build, in the order a build meets them
        self.problems: list[TextFragError] = []
        #: what is said and fails nothing: a stale quote where stale ones warn, hidden text
        self.warnings: list[TextFragError] = []
        self.pinned = False

    def __repr__(self) -> str:
        return f"Verdict({self.text!r}, problems={[p.kind for p in self.problems]})"

    @property
    def ok(self) -> bool:
        """Nothing fails the build."""
        return not self.problems

    @property
    def stale(self) -> StaleError | None:
        """The failed integrity check, with its drift explained (a problem or a warning)."""
        for e in (*self.problems, *self.warnings):
            if isinstance(e, StaleError):
                return e
        return None

    @property
    def problem(self) -> TextFragError | None:
        """The first problem (what a one-line report names)."""
        return self.problems[0] if self.problems else None

    @property
    def hidden(self) -> TextFragError | None:
        """The warning about bidirectional control characters in the quoted text, if any."""
        return next((w for w in self.warnings if w.kind == "bidi"), None)


_DEFAULT = Settings()
#: options whose every problem is found without making the excerpt: the inert ones, and the intents
#: judged by the disagreement check (``:lines:`` is not among them: its gaps are checked with the excerpt)
_NO_EXCERPT = INERT | {"pyobject", "start-after", "start-at", "end-before", "end-at", "section", "region", "symbol"}


def judge(
    cache: SourceCache,
    text: str | Reference,
    raw: Mapping[str, str | None] | None = None,
    *,
    syntax: Syntax = "rst",
    form: Literal["block", "inline"] = "block",
    settings: Settings = _DEFAULT,
    show: bool = True,
    explain: bool = True,
    bidi: bool = True,
    remember: bool = False,
) -> Verdict:
    """The verdict on the reference ``text`` written with the options ``raw`` (name -> value as
    written; None for none) in a document of ``syntax``.

    ``show``: make the excerpt even when nothing needs it to be judged (an engine shows it; ``check``
    does not). ``explain``: say from git history why a stale pin is stale. ``bidi``: warn of
    bidirectional control characters in the quoted text. ``remember`` (``check``, without ``show``):
    a pinned reference whose verdict reads the quoted text (an intent, an option checked against the
    excerpt) and finds nothing wrong is remembered as good (textfrag.source.store); a later run whose file
    still has the pinned digest finds it good from the digest alone, as a reference without options is
    (the pin fixes the file's whole text, and the rest of the verdict's inputs are the key).
    """
    if not isinstance(text, str):  # already parsed (check parses each reference as it scans)
        v = Verdict(text.text)
        ref = text
    else:
        v = Verdict(text.strip())
        try:
            ref = parse_reference(v.text)
        except TextFragError as bad:
            v.problems.append(bad)
            return v
    v.reference = ref
    v.pinned = is_pinned(ref)
    if ref.fragment is not None and ref.fragment.checks and not all(c.known for c in ref.fragment.checks):
        v.warnings += misspelt_warnings(ref)
    unpinned = [UnpinnedError(reference=ref.text)] if settings.require_pin and not v.pinned else []
    try:
        v.options = options = read_options(raw or {}, syntax, form)
    except OptionError as bad:
        v.problems += [bad.with_reference(ref.text), *unpinned]
        return v
    intent = options.intent if form == "block" else None
    if options.language and settings.highlighter == "pygments" and _unknown_language(options.language):
        v.warnings.append(
            LanguageWarning(
                f"Pygments knows no language {options.language!r}: the excerpt is shown without highlighting "
                "(Sphinx warns, and -W fails the build); name a Pygments lexer, or leave the language out",
                reference=ref.text,
            )
        )
    try:
        source_cache = cache.with_charset(options.encoding) if options.encoding else cache
        v.path = quoted_path(source_cache, ref)
    except TextFragError as bad:
        v.problems += [bad.with_reference(ref.text), *unpinned]
        return v
    if not show and (options.inert or form == "inline"):  # judged by the file's digest: no text read
        try:
            problem = problem_of(source_cache, ref, intent) if explain else _bare_problem(source_cache, ref)
        except TextFragError as bad:
            problem = bad.with_reference(ref.text)
        if problem is None or isinstance(problem, StaleError):
            note = hidden_note(source_cache, ref) if bidi else None
            if note is not None:
                v.warnings.append(HiddenTextWarning(note, reference=ref.text))
        if problem is not None:
            _stale_or_problem(v, problem, settings)
        v.problems += unpinned
        return v
    good = _good_key(source_cache, v, raw, syntax, form, settings, explain, bidi) if remember and not show else None
    if good is not None and _known_good(source_cache, ref, v.path, good[0], good[1]):
        return v  # (pinned: nothing else to add)
    try:
        q = quote(source_cache, ref, explain=explain, intent=intent)
    except TextFragError as bad:
        v.problems += [bad.with_reference(ref.text), *unpinned]
        return v
    v.quote = q
    if q.stale is not None:
        _stale_or_problem(v, _advice_checked(source_cache, q.stale, ref, raw, syntax, form), settings)
    else:
        empty = empty_problem(q, ref)  # (RFC 5147 clamps a range past the end: an excerpt of nothing)
        if empty is not None:
            v.problems += [empty, *unpinned]
            return v
    try:
        if intent is not None and q.stale is None:  # a stale quote's intent is in its drift explanation
            from ..intents.intent import disagreement

            why = disagreement(q.source.text, q.selection.first_line, q.selection.last_line, intent, path=q.source.path)
            if why is not None:
                raise IntentError(why)
        if show or not options.written <= _NO_EXCERPT:  # (what only the excerpt can find wrong)
            v.excerpt = _excerpt(q, options, intent, form, settings)
            if form == "block" and q.stale is None and not any(piece.text for piece in v.excerpt.pieces):
                raise EmptyError(
                    "the excerpt is empty: its options (a marker, region, :lines: or an intent) select no line of "
                    f"{q.selection.lines_display()}",
                    reference=ref.text,
                )
        if options.diff is not None and show:  # (check judges the older reference where it is written)
            v.diff = _diff(source_cache, q, options)
    except TextFragError as bad:
        v.problems.append(bad.with_reference(bad.reference or ref.text))
        v.excerpt = None
    if v.excerpt is not None and bidi and v.excerpt.hidden is not None:
        v.warnings.append(HiddenTextWarning(v.excerpt.hidden, reference=ref.text))
    v.problems += unpinned
    if good is not None and not v.problems and not v.warnings:
        good[0].put("good", good[1], True)
    return v


def _unknown_language(name: str) -> bool:
    """Whether Pygments, which highlights the excerpt, has no lexer of that name (its table read when asked)."""
    from .presentation import language_known

    return language_known(name) is False


def misspelt_warnings(ref: Reference) -> list[TextFragError]:
    """A warning for each integrity check whose name is a misspelling of ``length`` or ``md5``."""
    return [
        IntegrityWarning(
            f"the integrity check {check.name}= is not one RFC 5147 knows, so it is ignored and protects nothing; "
            f"did you mean {meant}=? (`textfrag pin --write` corrects it)",
            reference=ref.text,
        )
        for check, meant in misspelt_checks(ref.fragment)
    ]


def _good_key(
    cache: SourceCache,
    v: Verdict,
    raw: Mapping[str, str | None] | None,
    syntax: str,
    form: str,
    settings: Settings,
    explain: bool,
    bidi: bool,
) -> tuple[Store, str] | None:
    """The store and the key a good verdict on a pinned reference is remembered under: every input of
    the verdict but the file's text, which the pin fixes (None without a store or a pin)."""
    store = current_store()
    if store is None or not v.pinned or v.reference is None or v.reference.selector is not None:
        return None
    said = [v.text, str(v.path), repr(list((raw or {}).items())), syntax, form, cache.charset, str(cache.max_size)]
    said += [settings.key()]
    said += [repr((explain, bidi))]
    if raw:  # (an option that reads definitions: the grammar, its version and the parse limits too)
        from ..intents.symbols import language_of, parser_identity

        said += [parser_identity(language_of(str(v.path), raw.get("language")) or "python")]
    return store, "\0".join(said)


def _known_good(cache: SourceCache, ref: Reference, path: str | None, store: Store, key: str) -> bool:
    """Whether the verdict under ``key`` was good, and the file still has the text the pin fixes (read
    for its digest alone, as a reference without options is)."""
    if path is None or store.get("good", key) is not True:
        return False
    try:
        digest = cache.digest(path, ref.text)
    except TextFragError:
        return False
    return not needs_text(ref.fragment, digest.charset) and not mismatches(digest, ref.fragment)


def reads_text(raw: Mapping[str, str | None] | None, syntax: Syntax = "rst", form: str = "block") -> bool:
    """Whether :func:`judge` (without ``show``) reads the quoted text of a reference written with these
    options (an intent, an option checked against the excerpt), not only the file's digest: ``check``
    then reads such a file once, for both."""
    if form != "block" or not raw:
        return False
    try:
        return not read_options(raw, syntax, form).inert
    except OptionError:
        return False


def _advice_checked(
    cache: SourceCache, stale: StaleError, ref: Reference, raw: Mapping[str, str | None] | None, syntax: Syntax, form: str
) -> StaleError:
    """A changed quote's message recommends ``update --accept --write``; when the reference that would
    write still fails with the options written beside it (a highlighted line past the new end, a dedent
    that strips text), the message says so instead of promising a fix."""
    from ..drift.classify import Drift

    drift = stale.outcome
    if stale.drift != "changed" or not raw or not isinstance(drift, Drift):
        return stale
    new = drift.new_reference(ref, accept=True)
    if new is None:
        return stale
    # the options that count lines follow the re-pinned ones as update --accept makes them (textfrag.repair.references)
    written = [Option(k, v or "", i, i) for i, (k, v) in enumerate(raw.items())]
    follow = shifted(written, dict(drift.line_map), drift.old_first, drift.new_first, new_last=drift.new_last)
    if isinstance(follow, str):
        why = follow
    else:
        kept = raw_of(written, follow)
        after = judge(cache, new, kept, syntax=syntax, form=form, show=False, explain=False, bidi=False)  # type: ignore[arg-type]
        problems = [p for p in after.problems if p.kind not in ("unpinned", "stale")]
        if not problems:
            return stale
        why = f"with the new text, {problems[0].message}"
    said = stale.explained(
        f"; accepting it is not enough: {why} (correct the option by hand, then accept)",
        drift="changed",
        new_reference=stale.new_reference,
        diff=stale.notes,
    )
    said.outcome = drift
    return said


def _stale_or_problem(v: Verdict, problem: TextFragError, settings: Settings) -> None:
    if isinstance(problem, StaleError) and settings.on_stale == "warning":
        v.warnings.append(problem)
    else:
        v.problems.append(problem)


def _bare_problem(cache: SourceCache, ref: Reference) -> TextFragError | None:
    """The stale error without its drift explained (an editor's hover, a quick look)."""
    return quote(cache, ref, explain=False).stale


def _excerpt(q: Quote, o: Options, intent: Intent | None, form: str, settings: Settings) -> Excerpt:
    from .excerpt import excerpt_of

    if form == "inline":
        return excerpt_of(
            q,
            caption=o.alt or None,
            auto_caption=settings.auto_caption,
            language=o.language,
            source_url_template=settings.source_url,
            translate=settings.translate,
        )
    keep = _gaps(q, intent, o)
    return excerpt_of(
        q,
        caption=o.caption if o.caption is not None else (o.alt or None),
        auto_caption=settings.auto_caption,
        language=o.language or settings.language,
        emphasize=o.emphasize,
        emphasize_in_excerpt=o.emphasize_in_excerpt,
        dedent_by=o.dedent,
        source_url_template=settings.source_url,
        number_from=o.number_from,
        tab_width=o.tab_width,
        prepend=o.prepend,
        append=o.append,
        keep=keep,
        translate=settings.translate,
    )


def _gaps(q: Quote, intent: Intent | None, o: Options) -> list[int] | None:
    """The lines a ``:lines:`` intent with gaps (``1-9,14-16``) keeps of the pinned ones, which are then
    shown joined as literalinclude joins them; None when it keeps one run (the pin itself)."""
    if intent is None or intent.lines is None or q.stale is not None:
        return None
    from ..intents.intent import intent_lines

    try:
        kept = intent_lines(q.source.text, intent, path=q.source.path)
    except TextFragError as why:
        raise IntentError(why.message) from None
    if kept == list(range(kept[0], kept[-1] + 1)):
        return None
    if {"linenos", "lineno-match", "linenums"} & o.written and o.number_from is None:
        raise OptionError(
            f":lines: {intent.lines} joins lines that are not one run, so the file's numbers would skip: "
            "number them with :lineno-start: (literalinclude refuses :lineno-match: here too)"
        )
    if o.prepend is not None or o.append is not None:
        raise OptionError(f":lines: {intent.lines} with gaps cannot be combined with :prepend: or :append:")
    return kept


def _diff(cache: SourceCache, new: Quote, o: Options) -> str:
    """``:diff: REF``: literalinclude's unified diff from the quote of REF to this one (both verified),
    its header naming the two files by their full paths, as literalinclude's does."""
    from .excerpt import diff_text

    assert o.diff is not None
    old = quote(cache, o.diff)
    if old.stale is not None:
        raise old.stale.with_reference(o.diff)
    root = cache.root
    return diff_text(old, new, str(root / old.source.path), str(root / new.source.path), tab_width=o.tab_width)
