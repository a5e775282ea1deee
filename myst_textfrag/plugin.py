"""``textfrag-myst``: the executable plugin for mystmd and Jupyter Book 2.

mystmd runs it with no argument for its specification, then once per use with ``--directive txtfrag``
or ``--role txtfrag`` (the directive's data as JSON on standard input, the nodes it becomes as JSON on
standard output), and with ``--transform txtfrag-problems`` for each page's tree. A use only becomes a
placeholder (:mod:`myst_textfrag.launch`, which imports nothing of textfrag's: a process per use costs
what Python's start costs); the page's transform replaces each with what it shows, here.

- ``txtfrag`` directive: the same options as the Sphinx directive in MyST (caption, language, linenos,
  lineno-start, lineno-match, emphasize-lines, dedent, tab-width, name, class, the literalinclude intents,
  encoding, prepend, append); it becomes a mystmd ``code`` node (in a ``container`` with its ``caption``),
  with the line numbers, the emphasized lines, the excerpt's anchor as its label and the contract's
  ``data-txtfrag-*`` values in ``data``, all decided by the core's excerpt model.
- ``txtfrag`` role: an ``inlineCode`` node.
- A problem: the page shows mystmd's error admonition with the message, and the transform, which runs
  once every page has been read, fails the build (``myst build``, ``jupyter book build``, with or without
  ``--strict``) listing every problem of the project as ``FILE:LINE: REF: problem``. A stale reference
  with ``TEXTFRAG_ON_STALE=warning`` shows the stale excerpt with its notice and does not fail.

An executable plugin is told neither the page's file nor any configuration: the file is found as the one
whose line holds the reference (mystmd gives the line), and the options come from the environment
(``TEXTFRAG_ROOT``, default the folder mystmd runs in, the one of ``myst.yml``; ``TEXTFRAG_ON_STALE``,
``TEXTFRAG_CHARSET``, ``TEXTFRAG_SOURCE_URL``, ``TEXTFRAG_MAX_SIZE``, ``TEXTFRAG_LANGUAGE``;
``TEXTFRAG_REQUIRE_PIN=1`` makes a reference without md5 a problem; ``TEXTFRAG_WARN_BIDI=0`` silences the
warning about bidirectional control characters in a quote).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from textfrag import PREFIX, SourceCache, TextFragError
from textfrag.errors import internal_error_report
from textfrag.project import myst_environment
from textfrag.verdict import (
    OPTIONS,
    Excerpt,
    Forms,
    Labels,
    Settings,
    Verdict,
    failure_summary,
    how_written,
    judge,
    language_for,
    translator,
    unrendered,
)

from .uses import KIND, NAME, PENDING, BadInput, received

__all__ = ["SPEC", "run"]

TRANSFORM = "txtfrag-problems"
_STRING = {"type": "string"}
_FLAG = {"type": "boolean"}
SPEC: dict[str, Any] = {
    "name": "textfrag",
    "directives": [
        {
            "name": NAME,
            "doc": "An excerpt of a file by an RFC 5147 fragment reference, verified at build time.",
            "arg": {"type": "string", "required": True, "doc": "PATH#FRAGMENT (txtfrag: optional)"},
            # every option of the core's one table (textfrag.verdict.option_table), read and checked there
            "options": {spec.name: (_FLAG if spec.kind == "flag" else _STRING) for spec in OPTIONS if spec.rst},
        }
    ],
    "roles": [{"name": NAME, "doc": "An inline excerpt, verified at build time.", "body": {"type": "string", "required": True}}],
    "transforms": [{"name": TRANSFORM, "doc": "Fails the build when a reference is stale or broken.", "stage": "document"}],
}
_SKIPPED_DIRS = {"_build", "node_modules", "site-packages", "__pycache__"}


# -- configuration and the problems of this build -------------------------------------------------------


def _settings() -> dict[str, Any]:
    """This build's settings: the environment's, read as ``check`` reads them (the folder mystmd runs in)."""
    return myst_environment(Path.cwd())


def _ledger() -> Path:
    """Where this build's problems are kept: one build is one mystmd process, the parent of every call."""
    import tempfile

    return Path(tempfile.gettempdir()) / f"textfrag-myst-{os.getuid() if hasattr(os, 'getuid') else 0}-{os.getppid()}.jsonl"


def _record(problem: str) -> None:
    with _ledger().open("a", encoding="utf-8") as f:
        f.write(json.dumps(problem) + "\n")


def _located(line: int, ref: str) -> str:
    """``FILE:LINE`` of a use of ``ref`` mystmd says is on ``line``: the project's page whose line holds it."""
    matches = []
    for page in _pages(Path.cwd()):
        try:
            lines = page.read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except OSError:
            continue
        if 0 < line <= len(lines) and ref in lines[line - 1] and NAME in lines[line - 1]:
            matches.append(str(page.relative_to(Path.cwd())))
    return f"{' or '.join(sorted(matches))}:{line}" if matches else f"line {line}"


def _pages(root: Path) -> Iterator[Path]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name.endswith((".md", ".ipynb")):
                yield Path(folder) / name


# -- nodes ---------------------------------------------------------------------------------------------


def _text(value: str) -> dict[str, Any]:
    return {"type": "text", "value": value}


def _admonition(kind: str, title: str, message: str, data: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "admonition",
        "kind": kind,
        "class": f"txtfrag-{'error' if kind == 'error' else 'stale'}",
        "data": data,
        "children": [
            {"type": "admonitionTitle", "children": [_text(title)]},
            {"type": "paragraph", "children": [_text(message)]},
        ],
    }


def _data(ex: Excerpt) -> dict[str, str]:
    return {f"txtfrag-{k}": v for k, v in ex.data.items()}


def _block(ex: Excerpt, options: dict[str, Any], to_the_end: bool = False) -> list[dict[str, Any]]:
    numbered = bool(options.get("numbered"))
    # Sphinx's "default" (the configured highlight language, which mystmd does not have): from the file
    language = ex.language if ex.language != "default" else language_for(ex.ref.split("#", 1)[0])
    codes: list[dict[str, Any]] = []
    for piece in ex.pieces:
        # as mystmd's literalinclude: a whole file's text as it is; selected lines without a last line ending
        text = piece.text if to_the_end and piece is ex.pieces[-1] else piece.text.removesuffix("\n")
        code: dict[str, Any] = {"type": "code", "lang": language, "value": text}
        if numbered:
            code["showLineNumbers"] = True
            code["startingLineNumber"] = piece.number
        if piece.emphasized:
            code["emphasizeLines"] = list(piece.emphasized)
        codes.append(code)
    label = str(options.get("label") or options.get("name") or ex.anchor)
    nodes: list[dict[str, Any]] = []
    for i, code in enumerate(codes):
        if i:
            nodes.append({"type": "paragraph", "class": "txtfrag-elision", "children": [_text("⋯")]})
        nodes.append(code)
    classes = " ".join(["txtfrag", *str(options.get("class") or "").split()])
    if ex.caption:
        said: list[dict[str, Any]] = [_text(ex.caption)]
        if ex.source_url:
            said += [_text(" "), {"type": "link", "url": ex.source_url, "children": [_text(ex.labels.view_source)]}]
        caption = {"type": "caption", "children": [{"type": "paragraph", "children": said}]}
        block = {
            "type": "container",
            "kind": "code",
            "enumerated": False,  # captioned as literalinclude's are, not "Program 1:"
            "identifier": label,
            "label": label,
            "class": classes,
            "data": _data(ex),
            "children": [*nodes, caption],
        }
    else:  # a div carries the anchor and the data (mystmd moves a lone code node's data to its block)
        block = {"type": "div", "identifier": label, "label": label, "class": classes, "data": _data(ex), "children": nodes}
    out = [block]
    if ex.state == "stale":
        out.insert(0, _admonition("warning", ex.labels.stale_title, ex.notice or "", {"txtfrag-state": "stale"}))
    return out


# -- the directive, the role, the transform -------------------------------------------------------------


def _written(options: dict[str, Any]) -> dict[str, str | None]:
    """mystmd's typed option values as written: a flag given is there without a value, one set false is
    not there, a number is its digits."""
    out: dict[str, str | None] = {}
    for name, value in options.items():
        if value is False or value is None:
            continue
        if value is True:
            out[name] = None
        elif isinstance(value, float) and value.is_integer():
            out[name] = str(int(value))
        else:
            out[name] = str(value)
    return out


def _page() -> tuple[dict[str, Any], SourceCache]:
    """This build's settings and a cache of the quoted files, shared by the uses of one page."""
    settings = _settings()
    return settings, SourceCache(settings["root"], charset=settings["charset"], max_size=settings["max_size"])


def _judged(
    ref_text: str,
    options: dict[str, Any] | None,
    line: int,
    *,
    inline: bool,
    page: tuple[dict[str, Any], SourceCache] | None = None,
) -> tuple[Verdict, Any]:
    settings, cache = page or _page()
    _ = translator(settings["language"])
    verdict = judge(
        cache,
        ref_text,
        _written(options or {}),
        syntax="myst",
        form="inline" if inline else "block",
        settings=Settings(
            on_stale=settings["on_stale"],
            require_pin=settings["require_pin"],
            source_url=settings["source_url"],
            translate=_,
            highlighter="mystmd",
        ),
        bidi=settings["warn_bidi"],
    )
    for warning in verdict.warnings:  # on standard error: mystmd shows it; it fails nothing
        if warning.kind == "bidi":
            print(f"textfrag: warning: {warning.describe(_located(line, ref_text))}", file=sys.stderr)
    return verdict, _


def directive(data: dict[str, Any], page: tuple[dict[str, Any], SourceCache] | None = None) -> list[dict[str, Any]]:
    """The nodes of a ``txtfrag`` directive: the core's verdict, translated."""
    options: dict[str, Any] = dict(data.get("options") or {})
    ref_text = str(data.get("arg") or "").strip()
    line = _line(data)
    verdict, _ = _judged(ref_text, options, line, inline=False, page=page)
    ex, q = verdict.excerpt, verdict.quote
    if verdict.problems or ex is None or q is None:
        return [_problem(verdict.problem or TextFragError("cannot be quoted"), ref_text, line, _)]
    last = q.selections[-1]
    o = verdict.options
    block_options = {"label": o.name, "class": " ".join(o.classes), "numbered": o.numbered}
    return _block(ex, block_options, to_the_end=last.end == len(last.source.text) and not o.append)


def role(data: dict[str, Any], page: tuple[dict[str, Any], SourceCache] | None = None) -> list[dict[str, Any]]:
    """The node of a ``txtfrag`` role: the excerpt as inline code."""
    ref_text = str(data.get("body") or "").strip()
    line = _line(data)
    verdict, _ = _judged(ref_text, None, line, inline=True, page=page)
    ex = verdict.excerpt
    if verdict.problems or ex is None:
        return [_inline_problem(verdict.problem or TextFragError("cannot be quoted"), ref_text, line)]
    node = {
        "type": "inlineCode",
        "value": ex.inline_text,
        "identifier": ex.anchor,
        "label": ex.anchor,
        "class": "txtfrag",
        "data": _data(ex),
    }
    return [node]


def _line(data: dict[str, Any]) -> int:
    """The line mystmd gives for a use (0 when it gives none)."""
    node = data.get("node")
    position = node.get("position") if isinstance(node, dict) else None
    start = position.get("start") if isinstance(position, dict) else None
    line = start.get("line") if isinstance(start, dict) else None
    return line if isinstance(line, int) and not isinstance(line, bool) else 0


def resolve_pending(tree: dict[str, Any]) -> None:
    """Replace, in place, each placeholder of a page's tree (what ``textfrag-myst`` made of a use of the
    directive or the role: :mod:`myst_textfrag.launch`) with what the use becomes, the quoted files read
    once for the page."""
    page: tuple[dict[str, Any], SourceCache] | None = None
    stack = [tree]
    while stack:
        node = stack.pop()
        children = node.get("children")
        if not isinstance(children, list):
            continue
        shown: list[Any] = []
        for child in children:
            use = _pending(child)
            if use is None:
                shown.append(child)
                continue
            kind, data = use
            page = page or _page()
            if data is None:  # (what mystmd sent is not a JSON object: said where the use is)
                unread = TextFragError("what mystmd sent for this use cannot be read as a JSON object")
                block = kind == "directive"
                shown.append(
                    _problem(unread, "", 0, translator(page[0]["language"])) if block else _inline_problem(unread, "", 0)
                )
            else:
                shown += directive(data, page) if kind == "directive" else role(data, page)
        node["children"] = shown
        stack.extend(child for child in shown if isinstance(child, dict))


def _pending(node: Any) -> tuple[str, dict[str, Any] | None] | None:
    """(``directive`` or ``role``, what mystmd sent for it, or None when that is not a JSON object) for a
    placeholder; None for any other node."""
    data = node.get("data") if isinstance(node, dict) else None
    if not isinstance(data, dict) or data.get(KIND) not in ("directive", "role") or not isinstance(data.get(PENDING), str):
        return None
    try:
        sent = json.loads(data[PENDING])
    except (ValueError, RecursionError):
        sent = None
    return str(data[KIND]), sent if isinstance(sent, dict) else None


def _inline_problem(err: TextFragError, ref_text: str, line: int) -> dict[str, Any]:
    said = err.with_reference(err.reference or ref_text).describe(_located(line, ref_text))
    _record(said)
    return {"type": "inlineCode", "value": f"[textfrag: {said}]", "class": "txtfrag-error", "data": {"txtfrag-problem": said}}


def _problem(err: TextFragError, ref_text: str, line: int, _: Any) -> dict[str, Any]:
    said = err.with_reference(err.reference or ref_text).describe(_located(line, ref_text))
    _record(said)
    return _admonition("error", Labels.of(_).broken_title, said, {"txtfrag-problem": said})


def transform(tree: dict[str, Any]) -> dict[str, Any]:
    """A page's tree, each use of the directive and the role in it replaced with what it shows; when the
    page shows a problem (a ``txtfrag`` directive's or role's, or,
    in guard mode, a literalinclude's), the build fails listing every problem of the build."""
    resolve_pending(tree)
    here = [n["data"]["txtfrag-problem"] for n in _walk(tree) if "txtfrag-problem" in (n.get("data") or {})]
    unrendered_here = _unrendered(tree)
    # (a use whose page cannot be told from its line is listed, located, among the project's problems)
    here += [said for said in unrendered_here if said is not None]
    guarded = None
    if _settings()["guard"]:
        from .guard import guarded_build  # (only a guarded build pays for guard mode)

        guarded = guarded_build()
        if guarded is not None:
            here += guarded.page_problems(tree)
    if not here and not unrendered_here:
        return tree
    ledger = _ledger()
    try:
        problems = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        problems = []
    problems += here
    # mystmd may transform a page before it has read another (under load it does): the project's pages are
    # judged here too, as check judges them, so that the list is every problem whatever the order
    project = _project_problems() + (guarded.project_problems() if guarded is not None else [])
    unique = list(dict.fromkeys([*problems, *project]))
    raise _Failed("\n".join(unique) + f"\n{failure_summary(unique)}; the build fails")


#: what mystmd renders: its directive and role, not a Markdown image or link with a txtfrag: URL
_FORMS = Forms(unrendered_in="mystmd")


def _unrendered(tree: dict[str, Any]) -> list[str | None]:
    """The page's Markdown images and links with a txtfrag: URL, each a problem (mystmd would show a
    broken image and a dead link), as ``check`` and the editor say of them (None: where its line does
    not tell which page it is on); the page shows it in place."""
    out: list[str | None] = []
    for node in _walk(tree):
        url = node.get("url")
        if node.get("type") not in ("image", "link") or not isinstance(url, str) or not url.startswith(PREFIX):
            continue
        line = ((node.get("position") or {}).get("start") or {}).get("line") or 0
        where = _located(int(line), url)
        said = unrendered(str(node["type"]), url, "mystmd").describe(where)
        out.append(None if " or " in where or where.startswith("line ") else said)
        node.clear()  # (in place: the tree is the page's)
        shown = {"type": "inlineCode", "value": f"[textfrag: {said}]", "class": "txtfrag-error"}
        node.update(shown, data={"txtfrag-problem": said})
    return out


def _project_problems() -> list[str]:
    """Every problem of the project's ``txtfrag`` directives and roles, located as the directives locate
    theirs (``page.md:LINE: REF: problem``): the core's verdict on each, with this build's settings."""
    from textfrag.documents import (
        read_text,  # (only the transform reads pages: each use is a process)
        scan_text,
    )

    settings = _settings()
    cache = SourceCache(settings["root"], charset=settings["charset"], max_size=settings["max_size"])
    judged = Settings(
        on_stale=settings["on_stale"],
        require_pin=settings["require_pin"],
        source_url=settings["source_url"],
        highlighter="mystmd",
    )
    out: list[str] = []
    cwd = Path.cwd()
    for page in _pages(cwd):
        if page.suffix != ".md":
            continue
        try:
            text = read_text(page, str(page), settings["max_size"])
        except TextFragError:
            continue
        shown = str(page.relative_to(cwd))
        for f in scan_text(text, shown, ".md", "commonmark"):  # (mystmd reads CommonMark's HTML blocks)
            not_rendered = _FORMS.problem(f, text, ".md")
            if not_rendered is not None:
                out.append(not_rendered.describe(f"{shown}:{f.line}"))
                continue
            if f.kind not in ("directive", "role"):
                continue
            raw, _syntax, form = how_written(text, f)
            verdict = judge(cache, f.text, raw, syntax="myst", form=form, settings=judged, bidi=False)
            for err in verdict.problems:
                out.append(err.with_reference(err.reference or f.text).describe(f"{shown}:{f.line}"))
    return out


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every node of a tree, in document order; with a stack, not recursion (a tree may be deep)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            yield current
            children = current.get("children") or ()
            if isinstance(children, list):
                stack.extend(reversed(children))


class _Failed(Exception):
    """The build fails: the message is what mystmd shows."""


def javascript() -> str:
    """This plugin as a JavaScript plugin of mystmd (``textfrag.mjs``, shipped beside this module): it asks
    ``textfrag-myst`` for the specification once, makes each use the placeholder ``textfrag-myst`` would
    answer, in mystmd's own process, and runs the page's transform as mystmd runs this one's."""
    from pathlib import Path

    return (Path(__file__).parent / "textfrag.mjs").read_text(encoding="utf-8")


def run(argv: list[str] | None = None) -> int:
    """The console script: ``textfrag-myst [--directive NAME | --role NAME | --transform NAME | --serve |
    --javascript]``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--serve"]:
        return serve(sys.stdin, sys.stdout)
    status, said = _outcome(lambda: _command(args))
    if said:
        print(said, file=sys.stderr)
    return status


def serve(lines: Iterable[str], out: TextIO) -> int:
    """``textfrag-myst --serve``: one process for every page transform of a build (the JavaScript plugin
    starts it once, instead of a process per page). Each line it reads is a request,
    ``{"specification": true}`` (first: the plugin's, as ``textfrag-myst`` alone answers it) or
    ``{"transform": "txtfrag-problems", "tree": TREE}``; each is answered on a line of its own, in order:
    ``{"specification": SPEC}``, ``{"tree": TREE}``, or ``{"status": N, "said": TEXT}`` where the page's
    own process would have exited with N and said TEXT. It ends when its input does; a line that is not a
    request is answered as one that mystmd sent wrong."""
    for line in lines:
        if not line.strip():
            continue
        answer: list[str] = []

        def one(line: str = line, answer: list[str] = answer) -> int:
            request = received(line)
            if request == {"specification": True}:  # (first: a new build begins)
                answer.append(json.dumps({"specification": SPEC}))
                _ledger().unlink(missing_ok=True)
                return 0
            tree = request.get("tree") if isinstance(request, dict) else None
            if not isinstance(request, dict) or request.get("transform") != TRANSFORM or not isinstance(tree, dict):
                raise BadInput(f'textfrag-myst: a request is {{"transform": "{TRANSFORM}", "tree": {{...}}}} on a line')
            answer.append(json.dumps({"tree": transform(tree)}))
            return 0

        status, said = _outcome(one)
        out.write((answer[0] if status == 0 else json.dumps({"status": status, "said": said})) + "\n")
        out.flush()
    return 0


def _command(args: list[str]) -> int:
    """One command of the console script, its answer on standard output."""
    if not args:
        sys.stdout.write(json.dumps(SPEC))
        _ledger().unlink(missing_ok=True)  # a new build begins: mystmd asks for the specification first
        return 0
    if args == ["--javascript"]:  # (the plugin as JavaScript: a use costs no process)
        sys.stdout.write(javascript())
        return 0
    if len(args) != 2 or args[0] not in ("--directive", "--role", "--transform"):
        raise BadInput(
            "usage: textfrag-myst [--directive txtfrag | --role txtfrag | --transform txtfrag-problems | --serve | --javascript]"
        )
    data = received()
    kind, name = args[0][2:], args[1]
    if kind == "directive" and name == NAME:
        sys.stdout.write(json.dumps(directive(data)))
    elif kind == "role" and name == NAME:
        sys.stdout.write(json.dumps(role(data)))
    elif kind == "transform" and name == TRANSFORM:
        sys.stdout.write(json.dumps(transform(data)))  # (json.dump writes piece by piece: many times slower)
    else:
        raise BadInput(f"textfrag-myst: no {kind} named {name!r} (this plugin has {NAME} and {TRANSFORM})")
    return 0


def _outcome(call: Callable[[], int]) -> tuple[int, str]:
    """``call``'s exit status and what it says on standard error: 1 and the build's problems when the page
    fails it, 2 for what mystmd sent wrong or a setting refused, 3 for a bug in textfrag."""
    try:
        return call(), ""
    except _Failed as failed:
        _ledger().unlink(missing_ok=True)
        return 1, str(failed)
    except BadInput as bad:
        return 2, str(bad)
    except TextFragError as refused:  # (a setting the environment gives that the table refuses)
        return 2, f"textfrag-myst: {refused.message}"
    except RecursionError:  # (Python's JSON writer recurses once per level)
        return 2, "textfrag-myst: what mystmd sent is nested too deeply to be read"
    except Exception as bug:  # a bug in textfrag: said so, with its traceback
        return 3, internal_error_report(bug)


def main() -> None:
    """Entry point of the ``textfrag-myst`` console script."""
    sys.exit(run())
