"""Links with nowhere to go, in the editor as in ``check``: a ``[text](txtfrag:REF)`` link whose reference
no page embeds (the MkDocs plugin looks on every page) or its own page does not (the Markdown extension
alone), where no ``source_url`` is set. The build warns, ``--strict`` fails it, and ``check`` fails it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from textfrag.verdict import identity, no_link_target

from .model import Finding, Project

__all__ = ["with_link_targets"]

_LINKS = ("link", "definition")


Embedded = Callable[[], set[tuple[str, str]]]


def with_link_targets(project: Project, findings: list[Finding], embedded_anywhere: Embedded) -> list[Finding]:
    """``findings``, each good link without a target given its problem; ``embedded_anywhere``: what the
    project's pages embed (asked only when a link of this page needs it)."""
    config = project.config
    if config is None or config.link_targets is None or config.source_url:
        return findings
    links = [i for i, f in enumerate(findings) if f.problem is None and f.ref is not None and f.found.kind in _LINKS]
    if not links:
        return findings
    site = config.link_targets == "site"
    targets = {identity(f.ref) for f in findings if f.ref is not None and f.problem is None and f.found.kind == "image"}
    out = list(findings)
    elsewhere: set[tuple[str, str]] | None = None
    for i in links:
        finding = out[i]
        assert finding.ref is not None
        to = identity(finding.ref)
        if to in targets:
            continue
        if site:
            elsewhere = embedded_anywhere() if elsewhere is None else elsewhere
            if to in elsewhere:
                continue
        out[i] = replace(finding, problem=no_link_target(finding.found.text, site=site))
    return out
