"""Which ways of writing a reference a project's engine renders as textfrag's: a form it does not render
(a Markdown image in a MyST document Sphinx builds, a MyST role in a page Python-Markdown renders, a
``txtfrag:`` URL in raw HTML, content under the directive, a role in a substitution definition) is a
:class:`FormError`, the same in ``check``, the editor and the build."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..documents.found import MD_SUFFIXES, Found
from ..errors import TextFragError
from .written_options import colon_fenced

__all__ = ["FormError", "Forms", "directive_content", "in_raw_html", "markdown_in_html", "unrendered"]


class FormError(TextFragError):
    """A reference written in a form the engine does not render as textfrag's (a Markdown image or link
    in a MyST document that Sphinx builds)."""

    kind = "form"


#: the engines textfrag renders no reference in, and how their users quote a file instead
_OWN_INCLUDES = {
    "mdbook": (
        "mdBook",
        'preprocessor in this book: add [preprocessor.textfrag] command = "textfrag-mdbook" to book.toml, or',
        "{{#include file:lines}}",
    ),
    "vitepress": ("VitePress", "markdown-it-textfrag", "<<< @/file#region"),
    "docusaurus": ("Docusaurus", "remark-textfrag", "remark-code-import's ```js file=./file#L3-L6"),
}


def unrendered(kind: str, reference: str, engine: str = "sphinx") -> FormError:
    """The problem of a ``txtfrag:`` Markdown image (``kind`` "image") or link ("link", "definition")
    in a MyST document that Sphinx (``engine`` "sphinx") or mystmd ("mystmd") builds: the one becomes a
    broken image, the other a broken cross-reference or a dead link, and neither is verified; or of a MyST
    directive or role (``kind`` "directive", "role") in a page Python-Markdown renders (``engine``
    "markdown"), which shows it as text. The same words in the build, ``check`` and the editor."""
    if kind == "eval-rst":  # (reStructuredText in a mystmd project)
        said = (
            "mystmd does not run reStructuredText ({eval-rst} is an unknown directive there, its body is not "
            "shown): write ```{txtfrag} REF``` for a block or the role {txtfrag}`REF` inline"
        )
        return FormError(said, reference=reference)
    if kind == "colon":  # (a ::: fence where MyST-Parser's colon_fence is off)
        said = (
            "a ::: fence is a directive only with MyST-Parser's colon_fence extension, and this conf.py does not "
            'enable it (Sphinx shows the fence as text): add "colon_fence" to myst_enable_extensions, or write '
            "```{txtfrag} REF```"
        )
        return FormError(said, reference=reference)
    if engine in _OWN_INCLUDES:  # (an engine no plugin of textfrag's renders a reference in)
        name, plugin, include = _OWN_INCLUDES[engine]
        if engine == "mdbook":
            said = (
                f"{name} renders no txtfrag: reference (textfrag has no {name} {plugin}; the page would show it as "
                f"written): quote with {include} and guard mode (TEXTFRAG_GUARD=1), which textfrag checks"
            )
        else:
            said = (
                f"{name} renders a txtfrag: reference only through {plugin}, which its configuration does not use "
                f"(the page would show it as written): add {plugin} (npm) to the configuration, or quote with "
                f"{include} and guard mode (TEXTFRAG_GUARD=1), which textfrag checks"
            )
        return FormError(said, reference=reference)
    if engine == "markdown":  # (a MyST directive or role where Python-Markdown renders the page)
        what = "directive" if kind == "directive" else "role"
        where = "a block when it stands alone in its paragraph" if kind == "directive" else "inline in a sentence"
        said = (
            f"a MyST {what} is not rendered by Markdown (MkDocs, ProperDocs, Zensical show it as text or code): "
            f"write the image ![](txtfrag:REF), {where}"
        )
        return FormError(said, reference=reference)
    name, maker = ("Sphinx", "MyST-Parser makes it") if engine == "sphinx" else ("mystmd", "it shows")
    if kind == "image":
        said = (
            f"{name} does not embed a Markdown image ({maker} a broken image): write the directive "
            "```{txtfrag} REF``` for a block or the role {txtfrag}`REF` inline"
        )
    else:
        what = "a broken cross-reference" if engine == "sphinx" else "a dead link"
        said = (
            f"{name} does not verify or resolve a txtfrag: link ({maker} {what}): "
            "quote the text with the role {txtfrag}`REF`, or link to the section that embeds it"
        )
    return FormError(said, reference=reference)


def in_raw_html(reference: str) -> FormError:
    """The problem of a ``txtfrag:`` URL in raw HTML (Python-Markdown passes it through as it is)."""
    return FormError(
        "a txtfrag: reference in raw HTML is not rendered (write it as a Markdown image or link)", reference=reference
    )


def markdown_in_html(reference: str, md_in_html: bool) -> FormError:
    """The problem of a Markdown image or link inside a raw HTML block (Python-Markdown shows it as text)."""
    how = 'give the block markdown="1"' if md_in_html else 'enable md_in_html and give the block markdown="1"'
    return FormError(
        f"a Markdown image or link inside a raw HTML block is shown as the text it is (Python-Markdown passes the "
        f"block through): write it outside the block, or {how}",
        reference=reference,
    )


class Forms(NamedTuple):
    """Which ways of writing a reference the project's engine renders as textfrag's; the others are each a
    :class:`FormError` (the same in ``check``, the editor and the build). The default: every one (no
    engine known)."""

    #: "sphinx" or "mystmd": a Markdown image or link is not an excerpt there (None: it is)
    unrendered_in: str | None = None
    #: False in the Markdown engines' projects: a MyST directive or role is text there
    myst_forms: bool = True
    #: False where MyST-Parser's colon_fence is off: a ``:::`` fence is text there
    colon_fence: bool = True
    #: True where the build says a ``txtfrag:`` URL in raw HTML is not rendered (the MkDocs plugin)
    raw_html: bool = False
    #: how Python-Markdown reads raw HTML blocks ("raw", or "md_in_html" where that extension is on): a
    #: Markdown image inside one is text, said as a problem; None: not a Python-Markdown build
    python_markdown: str | None = None

    def in_raw_html(self, text: str, file: str, suffix: str) -> list[tuple[Found, FormError]]:
        """The ``txtfrag:`` URLs in a Markdown page's raw HTML (an ``<img src=...>`` outside code and
        comments), each with its problem, where the build reports them; none elsewhere."""
        if suffix.lower() not in MD_SUFFIXES:
            return []
        out: list[tuple[Found, FormError]] = []
        if self.raw_html:
            from ..documents.scan import raw_html_references

            out += [(f, in_raw_html(f.text)) for f in raw_html_references(text, file)]
        if self.python_markdown is not None:
            from ..documents.scan import markdown_in_raw_html

            md_in_html = self.python_markdown == "md_in_html"
            out += [(f, markdown_in_html(f.text, md_in_html)) for f in markdown_in_raw_html(text, file, md_in_html=md_in_html)]
        return sorted(out, key=lambda pair: pair[0].start)

    def problem(self, found: Found, text: str, suffix: str) -> FormError | None:
        """The problem of ``found`` (in ``text``, a document with ``suffix``) written in a form the engine
        does not render; None when it renders it."""
        kind = found.kind
        if self.unrendered_in is not None and kind in ("image", "link", "definition"):
            return unrendered(kind, found.text, self.unrendered_in)
        if not self.myst_forms and kind in ("directive", "role") and suffix.lower() in MD_SUFFIXES:
            engine = self.unrendered_in if self.unrendered_in in _OWN_INCLUDES else "markdown"
            return unrendered(kind, found.text, engine or "markdown")
        if not self.colon_fence and kind == "directive" and colon_fenced(text, found):
            return unrendered("colon", found.text)
        if self.unrendered_in == "mystmd" and kind in ("directive", "role") and _rst_written(text, found):
            return unrendered("eval-rst", found.text)  # (reStructuredText in an {eval-rst} block)
        if kind == "image-directive":
            return FormError(
                "an image or figure directive shows no excerpt of a txtfrag: URI (Sphinx looks for an image file by "
                "that name): write the txtfrag directive, .. txtfrag:: REF",
                reference=found.text,
            )
        if kind == "role" and _in_substitution(text, found):
            return FormError(
                "docutils refuses a txtfrag role in a substitution definition (an excerpt carries its anchor, and "
                "targets are not supported there): write the role where the substitution is used",
                reference=found.text,
            )
        if kind == "directive" and directive_content(text, found):
            return FormError(
                "the txtfrag directive takes no content (docutils and MyST refuse it: no content permitted): "
                "remove the text indented under it, or end the directive before it",
                reference=found.text,
            )
        return None


_SUBSTITUTION = re.compile(r"^[ \t]*\.\.[ \t]+\|[^|\n]+\|[ \t]")
_OPTION_LINE = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t]|$)")


def _line_at(text: str, offset: int) -> tuple[int, str]:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return start, text[start : len(text) if end < 0 else end].rstrip("\r")


def _in_substitution(text: str, found: Found) -> bool:
    """Whether a role stands in an rST substitution definition (``.. |name| replace:: ...``, its first line
    or one indented under it)."""
    start, line = _line_at(text, found.start)
    while True:
        if _SUBSTITUTION.match(line):
            return True
        if start == 0 or not line[:1].isspace() or not line.strip():
            return False
        start, line = _line_at(text, start - 1)


def directive_content(text: str, found: Found) -> bool:
    """Whether a txtfrag directive (rST, or a MyST fence) has content: text after its argument and options
    that docutils and MyST refuse (``no content permitted``). In rST its header (argument and options)
    runs to the first blank line, and anything indented under it after that is content; in a MyST fence,
    anything after its options (``:name: value`` lines, or a ``---`` block) is."""
    start, first = _line_at(text, found.start)
    if "txtfrag" not in first.lower() and start:  # (the argument on the line after the marker)
        start, first = _line_at(text, start - 1)
    fence = re.match(r"^[ \t]*(`{3,}|~{3,}|:{3,})", first)
    indent = len(first) - len(first.lstrip())
    end = text.find("\n", start)
    lines = text[end + 1 :].split("\n") if end >= 0 else []  # (after the line's own ending, CR LF too)
    if fence is None:
        blank = False
        for line in lines:
            if not line.strip():
                blank = True
            elif len(line) - len(line.lstrip()) <= indent:
                return False
            elif blank:
                return True
        return False
    mark = fence.group(1)
    yaml = False
    for k, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(mark[0] * len(mark)) and not stripped.strip(mark[0]):
            return False  # (the closing fence)
        if stripped == "---" and (k == 0 or yaml):
            yaml = not yaml
            continue
        if yaml or (_OPTION_LINE.match(line) and all(_OPTION_LINE.match(x) for x in lines[:k])):
            continue
        if stripped:
            return True
    return False


def _rst_written(text: str, found: Found) -> bool:
    """Whether ``found`` is written in reStructuredText (``.. txtfrag::``, ``:txtfrag:`...```) in a Markdown
    document: in an ``{eval-rst}`` block, which MyST-Parser hands to docutils."""
    before = text[text.rfind("\n", 0, found.start) + 1 : found.start].rstrip().lower()
    if found.kind == "directive":
        return before.endswith("::") and not before.endswith("}")
    return before.endswith(":`") or text.startswith("`:", found.end)
