"""One exception hierarchy for everything a user can get wrong.

Adapters (CLI, Sphinx, MkDocs) catch :class:`TextFragError` and nothing else: any other exception is a
bug and is allowed to surface as a traceback in the tests.

Every error knows the reference it is about and which exit code the CLI maps it to
(the manual's reference/cli page): 1 for a stale reference, 2 for everything else. Anything else that
escapes is a bug in textfrag: :func:`internal_error_report` is how every adapter says so (exit 3 in the CLI).
"""

from __future__ import annotations

import re
from typing import Any

from ._version import __version__

__all__ = [
    "spell",
    "spell_inline",
    "literal_parts",
    "inert_json",
    "internal_error_report",
    "TextFragError",
    "FragmentSyntaxError",
    "PathError",
    "SourceError",
    "DecodeError",
    "StaleError",
    "UnverifiableError",
    "EmptyError",
    "HiddenTextWarning",
    "IntegrityWarning",
    "UnpinnedError",
]


# what must never reach a terminal or a CI log as it is: C0 controls (a line feed would start a new line that
# GitHub Actions reads as a workflow command), DEL, C1 controls (CSI, OSC...), and the bidirectional
# controls that make text read in another order than it is (Trojan Source, CVE-2021-42574)
_UNSPEAKABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _spelled(m: re.Match[str]) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    return f"\\{ord(c):03o}" if ord(c) < 0x80 else f"\\u{ord(c):04x}"


def spell(text: str) -> str:
    r"""``text`` with its control characters spelled out, as git quotes a path: for every line a person
    or a CI log reads (file names, references, messages). JSON and SARIF stay exact.

    What a CI runner would take for a workflow command is spelled out too: GitHub's runner reads a line
    that starts with ``::`` (after white space) as a command, and ``##[`` anywhere in a line as its older
    form, so the first ``:`` of a leading ``::`` and the second ``#`` of ``##[`` are spelled in octal,
    as git spells a byte (a quoted line ``::error::x`` can neither forge an annotation nor stop textfrag's).

    >>> print(spell("x\n::error::y \x1b[2K \u202e"))
    x\n::error::y \033[2K \u202e
    >>> print(spell("  ::error file=a::forged ##[error]too"))
      \072:error file=a::forged #\043[error]too
    """
    spelled = _UNSPEAKABLE.sub(_spelled, text)
    if "::" in spelled or "##[" in spelled:
        spelled = _COMMAND_START.sub(r"\1\\072", spelled).replace("##[", "#\\043[")
    return spelled


def spell_inline(text: str) -> str:
    r"""``text`` spelled as :func:`spell` spells it, for a place that never starts a line (a table cell, a
    heading in a sentence): its control characters and ``##[`` spelled, a leading ``::`` left as written.

    >>> print(spell_inline(":: x ##[y]\n"))
    :: x #\043[y]\n
    """
    spelled = _UNSPEAKABLE.sub(_spelled, text)
    return spelled.replace("##[", "#\\043[") if "##[" in spelled else spelled


#: a workflow command's start: ``::`` after white space at the start of a line (Unicode's, as the runner
#: trims it)
_COMMAND_START = re.compile(r"\A(\s*):(?=:)")


def inert_json(text: str) -> str:
    """JSON text whose strings cannot be read as GitHub's older workflow commands (``##[``) when a runner
    prints it: the second ``#`` as ``\\u0023``, the same value to every JSON reader."""
    return text.replace("##[", "#\\u0023[")


def literal_parts(text: str) -> list[tuple[str, bool]]:
    """A message as a page shows it: its parts in order, each with whether it is a literal (what the message
    writes between backticks: a command, an option, a setting), so that an engine shows those as code and
    never shows the backticks.

    >>> literal_parts("run `textfrag update --write` to re-pin it")
    [('run ', False), ('textfrag update --write', True), (' to re-pin it', False)]
    """
    return [(part, bool(k % 2)) for k, part in enumerate(re.split(r"`([^`\n]+)`", text)) if part]


#: a run of text without white space longer than this is cut in a report a person reads
_LONGEST_WORD = 200
_LONG_WORD = re.compile(rf"\S{{{_LONGEST_WORD + 1},}}")


def _clip(m: re.Match[str]) -> str:
    word = m.group()
    return f"{word[:120]}...{word[-40:]} ({len(word):,} characters)"


def clipped(text: str) -> str:
    """``text`` with each run of more than 200 characters without white space cut to its start and end, and
    its length said: a page's 4,000-character option value is named, not printed twice in every line of a
    log. JSON and SARIF keep the whole text.

    >>> clipped("lines: " + "1" * 500 + " is bad") == "lines: " + "1" * 120 + "..." + "1" * 40 + " (500 characters) is bad"
    True
    """
    return _LONG_WORD.sub(_clip, text) if len(text) > _LONGEST_WORD else text


def spell_lines(text: str) -> str:
    """Each line of ``text`` spelled out, its line breaks and tabs kept (a diff of code, a caret diagram)."""
    return "\n".join("\t".join(spell(part) for part in line.split("\t")) for line in text.split("\n"))


class TextFragError(ValueError):
    """Base class of every error textfrag reports to a user.

    ``str(err)`` is the plain-words message without location; adapters prefix the location
    (``FILE:LINE``) and the reference themselves, see :meth:`describe`.
    """

    #: exit code of the command line for this kind of problem
    exit_code: int = 2
    #: short machine-readable kind, used as the Sphinx warning subtype
    kind: str = "error"

    def __init__(self, message: str, *, reference: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reference = reference

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # keyword-only constructor arguments defeat Exception's default pickling (worker processes)
        return (_restore, (type(self), dict(self.__dict__), self.args))

    def with_reference(self, reference: str | None) -> TextFragError:
        """A copy about ``reference`` (a cached error, reported for each reference to a broken file)."""
        copy = _restore(type(self), dict(self.__dict__), self.args)
        if reference is not None:
            copy.reference = reference
        return copy

    #: lines shown below the message (a diff), set by whoever knows more
    notes: str = ""

    def detail(self) -> str:
        """Extra lines shown below the one-line message (a caret diagram, a diff); may be empty."""
        return self.notes

    def describe(self, where: str) -> str:
        """The full report: ``WHERE: REFERENCE: message`` (no ``WHERE`` when it is empty: a message that
        names its own place) plus any detail lines, each word of the reference and
        the message cut to a readable length (:func:`clipped`)."""
        message = clipped(spell(self.message))
        if self.reference:
            message = f"{clipped(spell(self.reference))}: {message}"
        head = f"{spell(where)}: {message}" if where else message
        extra = spell_lines(self.detail())
        return f"{head}\n{extra}" if extra else head


def _restore(cls: type[TextFragError], state: dict[str, Any], args: tuple[Any, ...]) -> TextFragError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    error.args = args
    return error


class FragmentSyntaxError(TextFragError):
    """The reference does not follow the grammar (RFC 5147 section 3; never corrected, section 4.4).

    Carries the text that was parsed and the span of the bad part so the report can put a caret under it.
    """

    kind = "syntax"

    def __init__(
        self,
        message: str,
        *,
        source: str,
        span: tuple[int, int],
        section: str = "3",
        reference: str | None = None,
        spec: str | None = None,
    ) -> None:
        self.source = source
        self.span = span
        self.section = section
        # the document whose grammar was broken: RFC 5147 unless a dialect says otherwise
        super().__init__(f"{message} ({spec or f'RFC 5147 section {section}'})", reference=reference or source)

    def detail(self) -> str:
        """The caret diagram under the reference (and any further notes)."""
        start, end = self.span
        width = max(1, end - start)
        # spelled out, so the caret stands under what is shown
        start, width = len(spell(self.source[:start])), len(spell(self.source[start : start + width])) or 1
        caret = f"    {spell(self.source)}\n    {' ' * start}{'^' * width}"
        return f"{caret}\n{self.notes}" if self.notes else caret


class PathError(TextFragError):
    """The PATH of a reference is refused: outside the root, missing, not a regular file, too large."""

    kind = "missing"
    #: the file does not exist (git history may say what became of it: textfrag.drift.classify)
    no_such_file = False
    #: a folder the file exists under, which would be a root to quote it from (said as ``--root DIR``)
    other_root: str | None = None

    def with_root_advice(self, setting: str) -> PathError:
        """The same problem, advising the build's own setting instead of the command line's ``--root DIR``
        (``setting``: what to write, e.g. ``textfrag_root = '..' in conf.py``)."""
        if self.other_root is None:
            return self
        said = self.message.replace(f"(--root {self.other_root})", f"({setting})")
        advised = PathError(said, reference=self.reference)
        advised.no_such_file, advised.other_root = self.no_such_file, self.other_root
        return advised


class SourceError(TextFragError):
    """The file exists but cannot be used as text (an unknown charset, for example)."""

    kind = "source"


class DecodeError(SourceError):
    """Bytes that do not decode in the file's charset."""

    kind = "decode"

    def __init__(self, message: str, *, offset: int, charset: str, reference: str | None = None) -> None:
        self.offset = offset
        self.charset = charset
        super().__init__(message, reference=reference)


class StaleError(TextFragError):
    """An integrity check failed: the file is not the one the reference was made for (RFC 5147 4.3).

    ``md5_matches``: the md5 held and only the length failed, so the file did not change (the length in
    the reference is wrong); there is no drift to explain.
    """

    exit_code = 1
    kind = "stale"

    def __init__(
        self,
        message: str,
        *,
        reference: str | None = None,
        md5_matches: bool = False,
        mismatches: tuple[tuple[str, str, str], ...] = (),
        drift: str | None = None,
        new_reference: str | None = None,
        diff: str = "",
    ) -> None:
        super().__init__(message, reference=reference)
        self.md5_matches = md5_matches
        #: each failed check as (name, value in the reference, value for the file)
        self.mismatches = mismatches
        #: "moved", "changed" or "unknown" once the drift is explained (textfrag.drift.classify), else None
        self.drift = drift
        #: for a moved quote, the reference that quotes the same text now
        self.new_reference = new_reference
        self.notes = diff
        #: the full outcome (textfrag.drift.classify.Drift) when the error was explained, for ``update``
        self.outcome: object = None

    def explained(self, explanation: str, *, drift: str, new_reference: str | None = None, diff: str = "") -> StaleError:
        """A copy that also says why the reference is stale (the drift outcome); this one is unchanged."""
        return StaleError(
            f"{self.message}{explanation}",
            reference=self.reference,
            md5_matches=self.md5_matches,
            mismatches=self.mismatches,
            drift=drift,
            new_reference=new_reference,
            diff=diff,
        )


class UnverifiableError(TextFragError):
    """An integrity check names a charset the text cannot be transcoded to (RFC 5147 2.3)."""

    kind = "unverifiable"


class EmptyError(TextFragError):
    """The excerpt shows nothing: a range that starts at or past the file's end (RFC 5147 clamps it to the
    end, section 4.4's positions past the end), or a marker, region or anchor that selects no line. The
    parser keeps the RFC's clamping; an excerpt of nothing is never what a writer meant."""

    kind = "empty"


def internal_error_report(exc: BaseException) -> str:
    """What every adapter prints for an exception that is not a :class:`TextFragError` (a bug in textfrag):
    it names textfrag and its version, so that the report reaches textfrag rather than the engine that
    ran it, and carries the traceback. The first line is the contract's (the manual's reference/cli page).
    """
    import platform  # only a bug pays for these
    import traceback

    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return (
        f"textfrag: internal error (please report it with this output): {type(exc).__name__}: {exc}\n"
        f"textfrag {__version__}, Python {platform.python_version()} on {platform.system()}\n{trace}"
    )


class HiddenTextWarning(TextFragError):
    """A warning, never a failure by itself: the quoted text holds bidirectional control characters that
    make it read differently from what it is (textfrag.source.hidden_text). Silenced by its kind, ``bidi``."""

    kind = "bidi"
    exit_code = 0


class LanguageWarning(TextFragError):
    """A warning, never a failure by itself: ``:language:`` names no language Pygments knows, so the
    excerpt is shown without highlighting (Sphinx warns, and ``-W`` fails its build). Silenced by its kind,
    ``language``."""

    kind = "language"
    exit_code = 0


class IntegrityWarning(TextFragError):
    """A warning, never a failure by itself: an integrity check whose name is close to ``length`` or ``md5``
    but is neither (``lenght=``, ``md6=``). RFC 5147 ignores a check it does not know, so the reference is
    less protected than it reads; ``pin --write`` corrects the name. Silenced by its kind, ``integrity``."""

    kind = "integrity"
    exit_code = 0


class UnpinnedError(TextFragError):
    """A reference without ``md5`` where pins are required (``--require-pin``): it cannot go stale, so
    a change of the quoted file would go unnoticed. Exit code 1, as a stale one."""

    kind = "unpinned"
    exit_code = 1

    def __init__(self, *, reference: str | None = None) -> None:
        super().__init__(
            "unpinned: the reference has no md5, so a change of the quoted file would go unnoticed; "
            "`textfrag pin --write` pins it",
            reference=reference,
        )
