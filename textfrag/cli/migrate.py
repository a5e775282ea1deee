"""``textfrag migrate``: turn literalinclude and snippets includes into txtfrag references."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..project.config import BuildConfig

from ..documents.files import doc_files
from ..errors import TextFragError, spell, spell_lines
from ..source.paths import typed_path
from ._base import BAD, OK, add_common, cache_of, plural, write_diff
from .context import Command, RunContext


def add_parser(sub: Any) -> None:
    """The ``migrate`` subcommand's parser."""
    migrate = sub.add_parser(
        "migrate",
        help="turn literalinclude and pymdownx.snippets includes into txtfrag references that show the same excerpts",
        description=(
            "Replace each literalinclude (reStructuredText and MyST) under the paths with a txtfrag directive, "
            "and each code fence that holds one pymdownx.snippets include with a txtfrag image, pinned with "
            "length and md5, that shows the same excerpt: text, line numbers, emphasized lines, caption or none, "
            "language. An include that would look different is listed with the reason and left as it is. "
            "Without --write, print the diff and change nothing."
        ),
    )
    add_common(migrate)
    migrate.add_argument(
        "--srcdir",
        metavar="DIR",
        default=None,
        help="Sphinx's source folder, where '/path' arguments start (default: the folder of conf.py, else .)",
    )
    migrate.add_argument("--write", action="store_true", help="rewrite the files (atomically); default: show a diff")
    migrate.add_argument("-q", "--quiet", action="store_true", help="print only what is left as it is, and the diff")
    migrate.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")


def _migrate(run: RunContext, out: TextIO, err: TextIO) -> int:
    """Convert literalinclude directives; list what cannot be; change nothing else."""
    from ..documents.scan import MD_SUFFIXES
    from ..migrate.literalinclude import Outcome, convert, find_includes
    from ..migrate.snippets import SnippetSettings, convert_snippet, find_snippet_fences
    from ..project.config import snippet_settings
    from ..project.sphinx_project import SphinxProject, sphinx_project_of
    from ..repair.rewrite import apply_edits, read_doc, unified_diff, write_atomic, write_places

    cache = cache_of(run)
    config: BuildConfig | None = run.config
    # the language and caption a page shows without options are its Sphinx project's (the conf.py nearest
    # above the document, whatever --root says), else those of --config's conf.py
    given = SphinxProject(config.path, config.highlight_language or "default") if config and config.path.suffix == ".py" else None
    projects: dict[Path, SphinxProject | None] = {}
    noted: set[str] = set()
    converted_under: set[Path] = set()  # the conf.py of each Sphinx project a literalinclude was converted in
    empty_captions = 0
    # pymdownx.snippets: paths from its base_path, from the folder of mkdocs.yml (where mkdocs runs)
    site = config.path.parent if config and config.path.suffix in (".yml", ".yaml") else Path(".")
    snippets_options = snippet_settings(config.path) if config and config.path.suffix in (".yml", ".yaml") else {}
    base_path = snippets_options.get("base_path", ["."])
    snippet_config = SnippetSettings(
        [site / str(b) for b in ([base_path] if isinstance(base_path, str) else base_path)],
        linenums=bool(snippets_options.get("linenums")),
        dedent_subsections=bool(snippets_options.get("dedent_subsections")),
        include_base=site / str(snippets_options.get("include_base_path", ".")),
        heading_offset=bool(snippets_options.get("include_headingOffset") or snippets_options.get("include_inheritHeadingDepth")),
    )
    style = run.style
    places = write_places(run.root, run.paths)
    found = converted = left = files = written = 0
    problems = 0

    def say(where: str, text: str, color: str | None = None) -> None:
        where, text = spell(where), spell_lines(text)
        print(f"{style.paint(where, 'bold')}: {style.paint(text, color) if color else text}", file=err)

    unlistable: list[tuple[Path, OSError]] = []
    for path in doc_files((Path(p) for p in run.paths), lambda folder, e: unlistable.append((folder, e))):
        for folder, error in unlistable:  # said, never passed over in silence
            say(typed_path(folder), f"cannot list the folder: {error.strerror}", "red")
            problems += 1
        unlistable.clear()
        shown = typed_path(path)
        try:
            doc = read_doc(path, shown, run.max_size, within=places)
        except TextFragError as unreadable:
            say(shown, unreadable.message, "red")
            problems += 1
            continue
        includes = find_includes(doc.text, shown, path.suffix)
        snippets = find_snippet_fences(doc.text, shown) if path.suffix.lower() in MD_SUFFIXES else []
        if not includes and not snippets:
            continue
        found += len(includes) + len(snippets)
        for include, is_snippet in [*((i, False) for i in includes), *((s, True) for s in snippets)]:
            if is_snippet:
                outcome = convert_snippet(include, cache, snippet_config, doc.text)
                kind = "markdown-include" if include.options.get("(kind)") == "include" else "snippet"
                what = f"{kind} {include.argument or '(several)'}"
                if outcome.replacement is not None and snippets_options.get("attr_list") is False:
                    # without attr_list, "{ .python ... }" after the image would be shown as text
                    outcome = Outcome(
                        include,
                        None,
                        f"{typed_path(config.path) if config else 'the site'} does not enable attr_list, which reads the "
                        "txtfrag image's attributes ({ .python ... }): add `- attr_list` under markdown_extensions, "
                        "then migrate again",
                    )
            else:
                project = sphinx_project_of(path, projects) or given
                if project is not None and project.note and project.note not in noted:
                    noted.add(project.note)
                    say(typed_path(project.conf), project.note, "yellow")
                srcdir = Path(run.args.srcdir) if run.args.srcdir else (project.conf.parent if project else Path("."))
                outcome = convert(
                    include,
                    path,
                    cache,
                    srcdir=srcdir,
                    doc_text=doc.text,
                    highlight_language=project.highlight_language if project else "default",
                    caption_setting=project.caption if project else "path",
                )
                empty_captions += outcome.empty_caption
                what = f"literalinclude {include.argument}"
                if project is not None and outcome.replacement is not None:
                    converted_under.add(project.conf)
            where = f"{shown}:{include.line}"
            if outcome.replacement is None:
                left += 1
                say(where, f"{what}: left as it is: {outcome.reason}", "yellow")
                continue
            converted += 1
            doc.edits.append((include.start, include.end, outcome.replacement))
            for note in outcome.notes:
                say(where, f"{what}: {note}", "yellow")
        if not doc.edits:
            continue
        files += 1
        new_text = apply_edits(doc)
        if run.write:
            try:
                write_atomic(doc.path, doc.encoded(new_text), expected=doc.raw, shown=shown)
                written += 1
            except TextFragError as failure:
                say(shown, failure.message, "red")
                problems += 1
        else:
            write_diff(out, unified_diff(doc, new_text, shown))
    for folder, error in unlistable:
        say(typed_path(folder), f"cannot list the folder: {error.strerror}", "red")
        problems += 1
    done = (
        f"converted {converted} in {plural(written, 'document')}"
        if run.write
        else (f"{converted} would be converted in {plural(files, 'document')} (run with --write)")
    )
    summary = f"textfrag migrate: {plural(found, 'include')}: {done}; {left} left as they are"
    if not run.quiet:
        if empty_captions:  # said once, not on every block
            print(
                f"textfrag migrate: {plural(empty_captions, 'block')} say ':caption:' (empty) to show no caption, as "
                'literalinclude did; with textfrag_caption = "none" in conf.py they need not (set it, then migrate)',
                file=err,
            )
        for conf in sorted(converted_under):
            root_note = _root_note(conf, Path(run.root))
            if root_note:
                print(root_note, file=err)
        print(summary, file=err)
    return BAD if problems else OK


def _root_note(conf: Path, root: Path) -> str | None:
    """What to set when the Sphinx build would read the new references' paths from another folder than
    the root they were written from (a project not yet set up for textfrag: its conf.py's folder)."""
    from ..project.config import read_config

    try:
        build_root = read_config(conf).root.resolve()
    except TextFragError:
        return None  # (a conf.py that cannot be read without running it: its root is not known)
    if build_root == root.resolve():
        return None
    relative = Path(os.path.relpath(root.resolve(), conf.parent.resolve())).as_posix()
    return (
        f"textfrag migrate: the references' paths start at {typed_path(root)} (the root), and {typed_path(conf)} would "
        f'read them from {typed_path(build_root)}: set textfrag_root = "{relative}" there (with "sphinx_textfrag" in '
        "extensions)"
    )


#: the command, as the command line lists it
COMMAND = Command("migrate", add_parser, _migrate)
