"""Completion: what the editor offers while a reference is typed (paths under the root, then lines,
definitions and regions of the file), from the core."""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types as lsp

from textfrag import TextFragError
from textfrag.reference import whole
from textfrag.verdict import make_reference

from .model import Project

#: entries of a folder completion offers
MAX_COMPLETIONS = 500
_OPENERS = ("txtfrag:", ".. txtfrag::", "{txtfrag}", ":txtfrag:`")


def typed_reference(before: str) -> str | None:
    """The part of a reference typed so far, when the cursor is in one (after ``txtfrag:``, in a
    ``txtfrag`` directive's argument or role); None elsewhere."""
    best = -1
    for opener in _OPENERS:
        at = before.rfind(opener)
        if at >= 0:
            best = max(best, at + len(opener))
    if best < 0:
        return None
    typed = before[best:].lstrip(" `")
    if any(c in typed for c in " \t)]>`\"'"):
        return None
    return typed


def completions(project: Project, typed: str, where: lsp.Range) -> list[lsp.CompletionItem]:
    """Paths under the root (never outside it), then after ``PATH#`` the whole file and each definition
    the file has, as ready, pinned references."""
    root = project.root
    real_root = os.path.realpath(root)
    items: list[lsp.CompletionItem] = []
    if "#" in typed:
        rel = typed.split("#", 1)[0]
        try:
            source = project.cache.get(rel, rel)
        except TextFragError:
            return []
        whole_ref = make_reference(whole(source), lines=True, open_end=True)
        items.append(
            lsp.CompletionItem(
                label=whole_ref,
                detail="the whole file, pinned",
                kind=lsp.CompletionItemKind.Reference,
                text_edit=lsp.TextEdit(range=where, new_text=whole_ref),
                sort_text="0",
            )
        )
        from textfrag.intents import definitions, language_of, python_objects
        from textfrag.reference import select_lines

        language = language_of(rel)
        if language is not None:
            try:  # (every language with the symbols extra; Python always)
                found = [(d.name, d.first, d.last) for d in definitions(source.text, language, python_objects)]
            except (TextFragError, SyntaxError, ValueError):  # no grammar here, or a file that does not parse
                found = []
            for name, first, last in found:
                ref = make_reference(select_lines(source, first, last), lines=True)
                items.append(
                    lsp.CompletionItem(
                        label=name,
                        detail=f"lines {first}-{last}: {ref}",
                        kind=lsp.CompletionItemKind.Function,
                        filter_text=typed + name,
                        text_edit=lsp.TextEdit(range=where, new_text=ref),
                        sort_text=f"1{first:08}",
                    )
                )
        return items
    if typed.startswith("//") or not typed:
        items = _in_sources(project, typed, where)
        if typed:
            return items
    folder_rel, _, _stem = typed.rpartition("/")
    folder = Path(real_root, folder_rel) if folder_rel else Path(real_root)
    real = os.path.realpath(folder)
    if not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
        return []  # never outside the root
    try:
        entries = sorted(os.scandir(real), key=lambda e: e.name)[:MAX_COMPLETIONS]
    except OSError:
        return []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        full = os.path.realpath(entry.path)
        if not (full == real_root or full.startswith(real_root.rstrip(os.sep) + os.sep)):
            continue  # a link out of the root
        text = (f"{folder_rel}/" if folder_rel else "") + entry.name + ("/" if is_dir else "")
        items.append(
            lsp.CompletionItem(
                label=entry.name + ("/" if is_dir else ""),
                kind=lsp.CompletionItemKind.Folder if is_dir else lsp.CompletionItemKind.File,
                text_edit=lsp.TextEdit(range=where, new_text=text),
                filter_text=text,
            )
        )
    return items


def _in_sources(project: Project, typed: str, where: lsp.Range) -> list[lsp.CompletionItem]:
    """The declared sources (``//NAME/``), then the files of one at its locked commit, as the build reads them."""
    try:
        sources = project.cache.sources
    except TextFragError:
        return []
    name, slash, rest = typed[2:].partition("/")
    if not slash:
        return [
            lsp.CompletionItem(
                label=f"//{n}/",
                detail=f"the source {n} ({d.rev})",
                kind=lsp.CompletionItemKind.Module,
                text_edit=lsp.TextEdit(range=where, new_text=f"//{n}/"),
                filter_text=f"//{n}/",
            )
            for n, d in sorted(sources.declared.items())
        ]
    folder_rel = rest.rpartition("/")[0]
    try:
        names = sources.tree(name).names(folder_rel)[:MAX_COMPLETIONS]
    except TextFragError:
        return []
    items = []
    for entry, is_dir in names:
        text = f"//{name}/" + (f"{folder_rel}/" if folder_rel else "") + entry + ("/" if is_dir else "")
        items.append(
            lsp.CompletionItem(
                label=entry + ("/" if is_dir else ""),
                kind=lsp.CompletionItemKind.Folder if is_dir else lsp.CompletionItemKind.File,
                text_edit=lsp.TextEdit(range=where, new_text=text),
                filter_text=text,
            )
        )
    return items
