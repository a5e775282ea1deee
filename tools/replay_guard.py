"""Replay a real project's history under guard mode: its literalinclude includes recorded at one
commit, its documentation then kept as it was while the files it includes move on through later commits
(the way includes rot), and at each later commit what ``textfrag check`` says compared with what Sphinx's
own LiteralIncludeReader shows.

    .venv/bin/python tools/replay_guard.py REPO --docs DOCS --start COMMIT [--end COMMIT] [--steps 12]

REPO is a git repository (a clone or a mirror); DOCS the folder of its conf.py (``docs``, ``doc/tutorials``),
or with ``--mdbook`` an mdBook's source folder (``src``, its book.toml one folder up): what mdBook shows is
then read from its own builds (each include between two marker lines in a copy of the chapters, and a
preprocessor of this tool's that writes each chapter as mdBook's ``links`` made it),
or with ``--myst MYST`` (the mystmd command) the folder of its myst.yml: what mystmd shows is then read from
its own builds (``myst build --site``, a local template, textfrag-myst added to its plugins), and at each
step the guarded build's failures are compared with check's (one verdict on real history).
At each step every recorded include is one of: current (Sphinx shows the recorded text and check says
current), moved (check says moved, ``update --write`` gives it lines at which Sphinx shows the recorded
text again: "repaired to the same text"), changed (check says stale, Sphinx shows other text: caught),
a silent pass (Sphinx shows other text and check says current: there must be none) or a false alarm.
Nothing of the project is kept: it is cloned into a temporary folder.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def textfrag(folder: Path, *args: str) -> tuple[int, str, str]:
    from textfrag.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(folder)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def sphinx_shows(docs: Path, doc: Path, inc: object) -> str | None:
    """What Sphinx's LiteralIncludeReader shows for an include (None: it shows nothing)."""
    from sphinx.config import Config
    from sphinx.directives.code import LiteralIncludeReader
    from sphinx.pycode import ModuleAnalyzer

    ModuleAnalyzer.cache.clear()  # (it keeps a file's objects by its name: here the file changes between steps)

    options: dict[str, object] = dict(inc.options)  # type: ignore[attr-defined]
    for name in ("dedent", "tab-width", "lineno-start"):
        if name in options:
            value = str(options[name]).strip()
            options[name] = int(value) if value else None
    arg = inc.argument  # type: ignore[attr-defined]
    path = docs / arg.lstrip("/") if arg.startswith("/") else doc.parent / arg
    if "diff" in options:
        diff = str(options["diff"])
        options["diff"] = str(docs / diff.lstrip("/") if diff.startswith("/") else doc.parent / diff)
    try:
        text, _ = LiteralIncludeReader(str(path), options, Config({"source_encoding": "utf-8-sig"}, {})).read()
    except Exception:
        return None
    if "diff" in options:
        lines = text.splitlines(True)
        text = "".join(lines[2:]) if lines and lines[0].startswith("--- ") else text
    return text


def snippets_show(base: Path, options: dict[str, object], inc: object) -> str | None:
    """What pymdownx.snippets itself puts in the page for an include (None: nothing)."""
    import markdown

    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    pp = md.preprocessors["snippet"]
    pp.seen, pp.bases, pp.failed = set(), None, set()
    try:
        out = pp.parse_snippets(["-8<-", inc.argument, "-8<-"])  # type: ignore[attr-defined]
    except Exception:
        return None
    return "\n".join(out).rstrip("\n") if out else None


def myst_build(folder: Path, myst: str, guard: bool) -> tuple[dict[str, list[str]], str]:
    """A real ``myst build --site``: page (from the folder) -> the text each literalinclude shows, in order
    (mystmd's own trees), and what the build said."""
    env = {**os.environ, "TEXTFRAG_GUARD": "1" if guard else "0"}
    shutil.rmtree(folder / "_build", ignore_errors=True)
    r = subprocess.run([myst, "build", "--site"], cwd=folder, capture_output=True, text=True, timeout=1800, env=env)
    shown: dict[str, list[str]] = {}
    for page in (folder / "_build" / "site" / "content").glob("*.json"):
        data = json.loads(page.read_text(encoding="utf-8"))
        texts: list[str] = []
        stack = [data.get("mdast")]
        while stack:
            node = stack.pop()
            if not isinstance(node, dict):
                continue
            if node.get("type") == "include":
                if node.get("literal"):
                    code = [n for n in _nodes(node) if n.get("type") == "code"]
                    texts.append(code[0].get("value", "") if code else "")
                continue
            stack.extend(reversed(node.get("children") or []))
        shown[str(data.get("location", "")).lstrip("/")] = texts
    return shown, r.stdout + r.stderr


def _nodes(node: dict[str, object]) -> list[dict[str, object]]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            out.append(n)
            stack.extend(reversed(n.get("children") or []))  # type: ignore[arg-type]
    return out


def myst_settings(folder: Path, plugin: str) -> None:
    """The project's myst.yml with textfrag-myst among its plugins and a local template (no network)."""
    import yaml

    path = folder / "myst.yml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    project = config.setdefault("project", {})
    project["plugins"] = [*(project.get("plugins") or []), {"type": "executable", "path": plugin}]
    site = config.setdefault("site", {})
    site["template"] = "./_textfrag_tpl"
    site.pop("parts", None)
    (folder / "_textfrag_tpl").mkdir(exist_ok=True)
    (folder / "_textfrag_tpl" / "template.yml").write_text("jtex: v1\ntitle: local\n", encoding="utf-8")
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


MDBOOK_DUMP = """\
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0)
ctx, book = json.load(sys.stdin)
def walk(items):
    for item in items:
        chapter = item.get("Chapter") if isinstance(item, dict) else None
        if chapter:
            yield chapter
            yield from walk(chapter.get("sub_items", []))
found = {c["path"]: c["content"] for c in walk(book.get("items", book.get("sections", []))) if c.get("path")}
open(sys.argv[0] + ".json", "w").write(json.dumps(found))
print(json.dumps(book))
"""


def mdbook_build(book: Path, src: Path, mdbook: str) -> dict[str, list[str]]:
    """A real ``mdbook build`` of a copy of the chapters, each include between two marker lines: chapter
    (from the source folder) -> the text mdBook put for each include, in order."""
    import re

    from textfrag.guard.includes import find_guarded

    truth = src.parent / "_truth_src"
    shutil.rmtree(truth, ignore_errors=True)
    shutil.copytree(src, truth)
    for chapter in truth.rglob("*.md"):
        text = chapter.read_text(encoding="utf-8", errors="surrogateescape")
        found = find_guarded(text, "", ".md", mdbook=True)
        for k, inc in reversed(list(enumerate(found))):
            text = text[: inc.start] + f"@@TF{k}@@" + text[inc.start : inc.end] + f"@@/TF{k}@@" + text[inc.end :]
        chapter.write_text(text, encoding="utf-8", errors="surrogateescape")
    config = src.parent / "_truth_book"
    shutil.rmtree(config, ignore_errors=True)
    config.mkdir()
    (config / "dump.py").write_text(MDBOOK_DUMP, encoding="utf-8")
    (config / "book.toml").write_text(
        f'[book]\nsrc = "../{truth.name}"\n\n[preprocessor.dump]\ncommand = "{sys.executable} dump.py"\n'
        'after = ["links"]\n\n[output.markdown]\n',
        encoding="utf-8",
    )
    subprocess.run([mdbook, "build", "-d", str(config / "out"), str(config)], cwd=config, capture_output=True, timeout=1800)
    chapters = json.loads((config / "dump.py.json").read_text(encoding="utf-8"))
    out = {}
    for path, content in chapters.items():
        out[path] = [m.group(2) for m in re.finditer(r"@@TF(\d+)@@(.*?)@@/TF\1@@", content, re.S)]
    return out


def includes_of(docs: Path, snippets: bool = False, mdbook: bool = False) -> list[tuple[Path, object]]:
    from textfrag.documents.files import doc_files
    from textfrag.guard import find_guarded

    found = []
    for doc in doc_files([docs]):
        if "_build" in doc.parts:
            continue
        try:
            text = doc.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
        found += [
            (doc, inc) for inc in find_guarded(text, str(doc.relative_to(docs)), doc.suffix, snippets=snippets, mdbook=mdbook)
        ]
    return found


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("repo", type=Path)
    p.add_argument("--docs", required=True)
    p.add_argument("--start", required=True)
    p.add_argument("--end", default="HEAD")
    p.add_argument("--steps", type=int, default=12)
    p.add_argument(
        "--mkdocs",
        default=None,
        metavar="BASE",
        help="an MkDocs site's pymdownx.snippets includes (their base_path, from the repository's top), not Sphinx's",
    )
    p.add_argument("--myst", default=None, metavar="MYST", help="a mystmd project's literalincludes, read with this mystmd")
    p.add_argument("--mdbook", dest="book", default=None, metavar="MDBOOK", help="an mdBook's includes, read with this mdbook")
    p.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="check out only these folders, without images (a snapshot whose large files are absent)",
    )
    p.add_argument("--details", action="store_true", help="say what became of each include at each step")
    p.add_argument("--keep", type=Path, default=None, help="work in this folder (kept) instead of a temporary one")
    a = p.parse_args()
    work = a.keep or Path(tempfile.mkdtemp(prefix="replay-"))
    clone = work / "repo"
    if not clone.exists():
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(a.repo.resolve()), str(clone)], check=True)
    start = git(clone, "rev-parse", a.start).strip()
    end = git(clone, "rev-parse", a.end).strip()

    def checkout(commit: str) -> None:
        if not a.only:
            git(clone, "checkout", "-q", "-f", commit)
            return
        # the folders only, their images left out: the index and HEAD at the commit (for git history)
        for folder in a.only:
            shutil.rmtree(clone / folder, ignore_errors=True)
        git(clone, "read-tree", commit)
        git(clone, "update-ref", "--no-deref", "HEAD", commit)
        images = ("png", "jpg", "jpeg", "gif", "pcd", "ply", "pdf", "svg", "PNG", "JPG")
        spec = [*a.only, *(f":(exclude,glob)**/*.{x}" for x in images)]
        archive = subprocess.run(["git", "archive", commit, "--", *spec], cwd=clone, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x"], cwd=clone, input=archive, check=True)

    docs = clone / a.docs
    documents = [
        line
        for line in git(clone, "ls-tree", "-r", "--name-only", start, "--", a.docs).splitlines()
        if line.endswith((".rst", ".md", ".txt")) or line.endswith(("/conf.py", "/myst.yml"))
    ]

    def freeze() -> None:
        """The documentation as it was recorded (its files at the start), the files it includes as they are."""
        for name in documents:
            blob = subprocess.run(["git", "show", f"{start}:{name}"], cwd=clone, check=True, capture_output=True).stdout
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            (clone / name).write_bytes(blob)

    checkout(start)
    plugin = str(Path(sys.executable).parent / "textfrag-myst")
    if a.book is not None:
        os.environ["TEXTFRAG_GUARD"] = "1"
        folder, config, paths = docs.parent, "book.toml", [a.docs]
        settings = f'[book]\nsrc = "{docs.name}"\n\n[preprocessor.textfrag]\nguard = true\nroot = "."\n'
        snippet_options = {}
    elif a.myst is not None:
        os.environ["TEXTFRAG_GUARD"] = "1"  # (textfrag-myst's settings, which check reads as the build does)
        folder, config, paths = docs, "myst.yml", ["."]
        settings = ""
        snippet_options = {}
    elif a.mkdocs is None:
        # textfrag's settings in a file of their own beside the project's conf.py (which may not parse in this
        # Python: an old project's); its folder is the source folder, as conf.py's
        folder, config, paths = docs, "conf_textfrag.py", ["."]
        settings = f"textfrag_guard = True\ntextfrag_root = {os.path.relpath(clone, docs)!r}\n"
        snippet_options: dict[str, object] = {}
    else:
        folder, config, paths = clone, "textfrag-replay.yml", [a.docs]
        snippet_options = {"base_path": [str(clone / a.mkdocs)], "restrict_base_path": False}
        settings = (
            f"site_name: replay\ndocs_dir: {a.docs}\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
            f"      base_path: [{a.mkdocs!r}]\n      restrict_base_path: false\n  - textfrag:\n      guard: true\n"
        )

    built: dict[str, list[str]] = {}

    def shows(doc: Path, inc: object) -> str | None:
        if a.book is not None:  # (the text mdBook put between the include's markers)
            from textfrag.guard.includes import find_guarded

            page = doc.relative_to(docs).as_posix()
            mine = find_guarded(doc.read_text(encoding="utf-8"), str(doc.relative_to(docs)), ".md", mdbook=True)
            texts = built.get(page, [])
            return texts[mine.index(inc)] if len(texts) == len(mine) else None
        if a.myst is not None:  # (the text mystmd put in the page, the include's place among the page's)
            page = doc.relative_to(docs).as_posix()
            mine = [i for d, i in includes_of(docs) if d == doc]
            texts = built.get(page, [])
            at = mine.index(inc)
            return texts[at] if len(texts) == len(mine) else None
        return sphinx_shows(docs, doc, inc) if a.mkdocs is None else snippets_show(clone, snippet_options, inc)

    def name_of(doc: Path) -> str:
        return doc.relative_to(folder).as_posix()

    def configure() -> None:
        if a.myst is not None:
            myst_settings(folder, plugin)
        else:
            (folder / config).write_text(settings, encoding="utf-8")

    configure()
    if a.book is not None:
        built.update(mdbook_build(folder, docs, a.book))
    if a.myst is not None:
        built.update(myst_build(folder, a.myst, guard=False)[0])
    code, out, err = textfrag(folder, "pin", "--write", "--config", config, *paths)
    if code not in (0, 1, 2) or not (folder / "textfrag.lock").exists():
        sys.exit(f"pin failed ({code}): {err[-3000:]}")
    broken = [line for line in err.splitlines() if ": literalinclude " in line or ": snippet " in line or ": {{#" in line]
    print(f"{len(broken)} includes show nothing at the start (not recorded): {broken[:3]}")
    print(f"recorded at {start[:10]} ({git(clone, 'log', '-1', '--format=%cs', start).strip()}): {out.strip()}")
    recorded = (folder / "textfrag.lock").read_text(encoding="utf-8")
    lock = json.loads(recorded)["includes"]
    truth: dict[tuple[str, str], str] = {}
    for doc, inc in includes_of(docs, a.mkdocs is not None, a.book is not None):
        name = name_of(doc)
        if inc.key in lock.get(name, {}):  # type: ignore[attr-defined]
            shown = shows(doc, inc)
            if shown is not None:
                truth[(name, inc.key)] = shown  # type: ignore[attr-defined]
    print(f"{len(truth)} includes recorded that their engine shows ({sum(len(r) for r in lock.values())} records)")
    commits = git(clone, "rev-list", "--reverse", "--first-parent", f"{start}..{end}").split()
    picks = [commits[round(i * (len(commits) - 1) / max(1, a.steps - 1))] for i in range(a.steps)] if commits else []
    totals: Counter[str] = Counter()
    for commit in dict.fromkeys(picks):
        checkout(commit)
        freeze()  # (the documentation as it was recorded, and its records)
        configure()
        (folder / "textfrag.lock").write_text(recorded, encoding="utf-8")
        code, out, err = textfrag(folder, "check", "--config", config, "--format", "json", *paths)
        results = {(r["document"], r["reference"]): r for r in json.loads(out)["results"]}
        if a.book is not None:  # what mdBook shows now
            built.clear()
            built.update(mdbook_build(folder, docs, a.book))
        if a.myst is not None:  # what mystmd shows now, and whether the guarded build fails what check fails
            built.clear()
            built.update(myst_build(folder, a.myst, guard=False)[0])
            said = myst_build(folder, a.myst, guard=True)[1]
            failing = {(r["document"], r["reference"]) for r in results.values() if r["status"] != "current"}
            in_build = {(d, k) for d, k in failing if f"{d}:" in said and f": {k}: " in said}
            print(
                f"  the guarded build fails {len(in_build)} of the {len(failing)} includes check fails"
                + ("" if "the build fails" in said or not failing else "; it passed")
            )
        row: Counter[str] = Counter()
        moved: list[tuple[str, str]] = []
        for doc, inc in includes_of(docs, a.mkdocs is not None, a.book is not None):
            name = name_of(doc)
            key = (name, inc.key)  # type: ignore[attr-defined]
            if key not in truth:
                continue
            r = results.get((os.path.relpath(doc, folder), inc.key))  # type: ignore[attr-defined]
            said = "current" if r is None or r["status"] == "current" else r.get("drift") or r["status"]
            same = shows(doc, inc) == truth[key]
            if a.details:
                print(f"    {name}:{inc.line}: {inc.key}: {said}, the engine shows {'the same' if same else 'other'} text")  # type: ignore[attr-defined]
            if same and said == "current":
                row["current"] += 1
            elif not same and said == "current":
                row["SILENT PASS"] += 1
                print(f"  silent pass: {name}: {inc.key}")  # type: ignore[attr-defined]
            elif same:
                row["FALSE ALARM"] += 1
                print(f"  false alarm: {name}: {inc.key}: {r}")  # type: ignore[attr-defined]
            elif said == "moved":
                row["moved"] += 1
                moved.append(key)
            else:
                row[f"caught ({said})"] += 1
        if moved:
            textfrag(folder, "update", "--write", "--config", config, *paths)
            if a.book is not None:
                built.clear()
                built.update(mdbook_build(folder, docs, a.book))
            if a.myst is not None:
                built.clear()
                built.update(myst_build(folder, a.myst, guard=False)[0])
            lock_now = json.loads((folder / "textfrag.lock").read_text())["includes"]
            repaired = 0
            for doc, inc in includes_of(docs, a.mkdocs is not None, a.book is not None):
                name = name_of(doc)
                if inc.key not in lock_now.get(name, {}):  # type: ignore[attr-defined]
                    continue
                for old_name, old_key in moved:
                    if old_name == name and shows(doc, inc) == truth[(old_name, old_key)]:
                        repaired += 1
                        break
            row["moved, repaired to the same text"] += min(repaired, len(moved))
            freeze()
        when = git(clone, "log", "-1", "--format=%cs", commit).strip()
        print(f"{commit[:10]} {when}: " + ", ".join(f"{k} {v}" for k, v in sorted(row.items())))
        totals.update(row)
    print("over all steps: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if a.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if totals["SILENT PASS"] else 0)


if __name__ == "__main__":
    main()
