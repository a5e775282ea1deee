"""Markdown images and links with a ``txtfrag:`` URL in a MyST document: not textfrag's forms in Sphinx.

MyST-Parser makes ``![](txtfrag:REF)`` an image of a file that does not exist and ``[text](txtfrag:REF)``
a cross-reference to nothing; without its colon_fence extension, ``:::{txtfrag} REF`` is text. Sphinx
would only warn, or say nothing, and ship a broken image, a dead link or the fence as text, while
``check`` judged the reference as an excerpt. Each is a located problem instead, in the core's words
(textfrag.verdict.forms.unrendered), the same that ``check`` and the editor say of it in a Sphinx project; the
page shows the problem in its place.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from textfrag import PREFIX
from textfrag.verdict import unrendered

from .state import record_problem

_MYST_SUFFIXES = (".md", ".markdown", ".myst")


class MarkdownForms(SphinxTransform):
    """Report each ``txtfrag:`` image and link of a MyST document, and show the problem in its place."""

    default_priority = 100  # (while reading: before images are collected and cross-references resolved)

    def apply(self, **kwargs: object) -> None:
        env = self.env
        if not str(env.doc2path(env.docname)).endswith(_MYST_SUFFIXES):
            return
        if "colon_fence" not in (getattr(env.config, "myst_enable_extensions", None) or ()):
            self._colon_fences()
        for node in list(self.document.findall(_txtfrag_target)):
            assert isinstance(node, nodes.Element)
            kind = "image" if isinstance(node, nodes.image) else "link"
            target = _target(node)
            line = _line_of(node)
            problem = unrendered(kind, target)
            record_problem(env, env.docname, line, problem, error=True)
            text = f"[textfrag: {problem.describe('').removeprefix(': ')}]"
            node.replace_self(nodes.inline(text, text, classes=["txtfrag-error"]))

    def _colon_fences(self) -> None:
        """Without MyST-Parser's colon_fence, ``:::{txtfrag} REF`` is a paragraph of text: each is reported
        (``check`` reads conf.py's ``myst_enable_extensions`` and says the same)."""
        env = self.env
        for paragraph in list(self.document.findall(nodes.paragraph)):
            text = paragraph.astext()
            if ":::{txtfrag}" not in text:
                continue
            for i, line in enumerate(text.split("\n")):
                if line.startswith(":::{txtfrag}"):
                    reference = line[len(":::{txtfrag}") :].strip()
                    record_problem(env, env.docname, (paragraph.line or 1) + i, unrendered("colon", reference), error=True)


def _target(node: nodes.Node) -> str:
    if isinstance(node, nodes.image):
        return str(node.get("uri", ""))
    if isinstance(node, addnodes.pending_xref):
        return str(node.get("reftarget", ""))
    return str(node.get("refuri", "")) if isinstance(node, nodes.Element) else ""


def _txtfrag_target(node: nodes.Node) -> bool:
    if not isinstance(node, (nodes.image, addnodes.pending_xref, nodes.reference)):
        return False
    return _target(node).startswith(PREFIX)


def _line_of(node: nodes.Node) -> int:
    """The line of the node, or of the nearest element around it that has one (MyST gives images none)."""
    here: nodes.Node | None = node
    while here is not None:
        if here.line:
            return int(here.line)
        here = here.parent
    return 0


def setup_forms(app: Sphinx) -> None:
    app.add_transform(MarkdownForms)
