"""The manual's reference pages, generated from the code so that they cannot drift.

- ``.. textfrag-cli::`` every command, its arguments and options, from the argparse parsers the command line uses;
- ``.. textfrag-options::`` the one option table (textfrag.verdict.option_table), as `textfrag options` prints it;
- ``.. textfrag-problems::`` every kind of problem, with what it means and how to fix it (textfrag.report.formats);
- ``.. textfrag-html:: REFERENCE`` the attributes of an excerpt's element, with the values the core's
  verdict gives that reference (textfrag.verdict.excerpt.Excerpt): a new attribute without its meaning here fails the build.
"""

from __future__ import annotations

import os
import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx


class CommandLine(Directive):
    """Each subcommand, a section per command: what it does, its arguments and its options as definition
    lists (each option's spellings and value as literals, its help as text), from the parsers the command
    line uses. Nothing is preformatted, so the page wraps at any width."""

    def run(self) -> list[nodes.Node]:
        import argparse

        from textfrag.cli import build_parser

        parser = build_parser()
        out: list[nodes.Node] = [_said(parser.description or ""), _said(parser.epilog or "")]
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for name, sub in subparsers.choices.items():
            section = nodes.section(ids=[f"command-{name}"], names=[f"textfrag {name}"])
            section += nodes.title(text=f"textfrag {name}")
            if sub.description:
                section += _said(sub.description)
            arguments = [a for a in sub._actions if not a.option_strings and not isinstance(a, argparse._HelpAction)]
            options = [a for a in sub._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]
            for heading, actions in (("Arguments", arguments), ("Options", options)):
                if not actions:
                    continue
                section += nodes.rubric(text=heading)
                items = nodes.definition_list()
                for action in actions:
                    item = nodes.definition_list_item()
                    term = nodes.term()
                    for k, spelling in enumerate(_spellings(action)):
                        if k:
                            term += nodes.Text(", ")
                        term += nodes.literal(text=spelling)
                    item += term
                    definition = nodes.definition()
                    definition += _said(_help(action))
                    item += definition
                    items += item
                section += items
            out.append(section)
        return out


def _spellings(action: Any) -> list[str]:
    """How an argument is written: ``--root DIR``, ``-q``/``--quiet``, a positional's metavar."""
    import argparse

    if not action.option_strings:
        return [str(action.metavar or action.dest).upper() + (" ..." if action.nargs in ("*", "+") else "")]
    takes = action.nargs != 0 and not isinstance(
        action, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._VersionAction)
    )
    value = f" {action.metavar or action.dest.upper()}" if takes else ""
    if takes and action.choices is not None and action.metavar is None:
        value = " {" + ",".join(str(c) for c in action.choices) + "}"
    return [f"{o}{value}" for o in action.option_strings]


def _help(action: Any) -> str:
    said = str(action.help or "").replace("%(default)s", str(action.default)).replace("%%", "%")
    return said or "(no description)"


class Options(Directive):
    """The option table: reStructuredText/MyST name, Markdown attributes, value, meaning."""

    def run(self) -> list[nodes.Node]:
        from textfrag.cli.options import _VALUES
        from textfrag.verdict.option_table import OPTIONS

        table = nodes.table()
        group = nodes.tgroup(cols=4)
        table += group
        for width in (18, 18, 18, 46):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        body = nodes.tbody()
        group += head
        group += body
        head += _row(["reStructuredText / MyST", "Markdown attribute", "value", "meaning"])
        for s in OPTIONS:
            body += _row([f":{s.name}:" if s.rst else "-", ", ".join(f"{m}=" for m in s.md) or "-", _VALUES[s.kind], s.help])
        return [table]


def _said(text: str) -> nodes.paragraph:
    """A paragraph of words, each `command` or `--option` in it a literal (never typeset, never raw backticks)."""
    paragraph = nodes.paragraph()
    for k, part in enumerate(re.split(r"`([^`]+)`", text)):
        if part:
            paragraph += nodes.literal(text=part) if k % 2 else nodes.Text(part)
    return paragraph


class Problems(Directive):
    """Every kind of problem: its SARIF rule and LSP code, what it means, how to fix it."""

    def run(self) -> list[nodes.Node]:
        from textfrag.report.formats import RULES

        out: list[nodes.Node] = []
        items = nodes.definition_list()
        for kind, (name, meaning, fix) in RULES.items():
            item = nodes.definition_list_item()
            item += nodes.term(text=f"{kind} ({name}; SARIF textfrag/{kind}, Sphinx textfrag.{kind})")
            definition = nodes.definition()
            definition += _said(meaning)
            definition += _said(f"Fix: {fix}")
            item += definition
            items += item
        out.append(items)
        return out


#: what each attribute of an excerpt's element means (the manual's reference/html page)
_HTML_MEANING = {
    "id": "stable across builds, derived from the path and the fragment, unique on its page; the permalink's target",
    "ref": "the reference as written, without the txtfrag: prefix",
    "md5": "the md5 of the quoted file as it was at build time (hex)",
    "length": "the quoted file's length in characters at build time",
    "charset": "the charset the file was read in",
    "state": "current, stale (a build that goes on shows a mark with the reason) or unverifiable (a dialect with no pin)",
}


class Html(Directive):
    """The attributes of one excerpt's element: name, the value the core gives the argument's reference, meaning."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from textfrag import SourceCache
        from textfrag.verdict.judging import judge

        env = self.state.document.settings.env
        root = os.path.normpath(os.path.join(env.srcdir, env.config.textfrag_root))
        verdict = judge(SourceCache(root), self.arguments[0].removeprefix("txtfrag:"))
        assert verdict.excerpt is not None, verdict.problems
        values = {"id": verdict.excerpt.anchor, **verdict.excerpt.data}
        unexplained = set(values) - set(_HTML_MEANING)
        if unexplained:
            raise self.error(f"the manual does not say what these attributes mean: {sorted(unexplained)}")
        table = nodes.table()
        group = nodes.tgroup(cols=3)
        table += group
        for width in (22, 34, 44):
            group += nodes.colspec(colwidth=width)
        head, body = nodes.thead(), nodes.tbody()
        group += head
        group += body
        head += _row(["attribute", "value (this example)", "meaning"])
        for name, value in values.items():
            body += _row([name if name == "id" else f"data-txtfrag-{name}", value, _HTML_MEANING[name]])
        return [table]


def _row(cells: list[str]) -> nodes.row:
    row = nodes.row()
    for text in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(text=text)
        row += entry
    return row


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("textfrag-cli", CommandLine)
    app.add_directive("textfrag-options", Options)
    app.add_directive("textfrag-problems", Problems)
    app.add_directive("textfrag-html", Html)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
