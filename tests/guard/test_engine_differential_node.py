"""Differential properties of the include engines that run on Node.js (Asciidoctor.js, VitePress,
remark-code-import): hypothesis writes quoted files and pages, the real engine renders them, and textfrag's
reading must equal it include by include (textfrag.guard's engines; the Python engines', mdBook's and
Sphinx's are in test_engine_differential.py, whose helpers and bounds these share)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textfrag import SourceCache, TextFragError
from textfrag.guard import GuardContext, find_guarded, shown_text

from .test_engine_differential import BUILDS, LINE, quoted_files

MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent  # (.bin: a link)


def _needs(package: Path, said: str) -> None:
    """Skip where Node.js or the engine's package is not installed; fail instead where every engine must be."""
    if shutil.which("node") is None or not package.is_dir():
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail(f"{said} is not installed, and TEXTFRAG_REQUIRE_ENGINES=1 says every engine must be")
        pytest.skip(f"{said} is not installed")


ASCIIDOCTOR = """\
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/");
const core = require("@asciidoctor/core");
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
const doc = asciidoctor.loadFile(process.argv[2], {safe: "unsafe"});
console.log(JSON.stringify(doc.findBy({context: "listing"}).map((b) => b.getSource())));
"""

ADOC_LINE = st.one_of(LINE, st.sampled_from(["// tag::t[]", "// end::t[]", "# tag::u[]", "# end::u[]", "  // tag::t[] x"]))


@st.composite
def adoc_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(ADOC_LINE, min_size=0, max_size=12))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return (ending.join(lines) + (ending if lines and draw(st.booleans()) else "")).encode()


@st.composite
def adoc_pages(draw: st.DrawFn) -> list[str]:
    n = st.integers(-1, 14).map(str)
    ranges = st.one_of(
        st.builds(lambda a, b: f"{a}..{b}", n, n),
        st.builds(lambda a: f"{a}..", n),
        n,
        st.builds(lambda a, b, c: f'"{a}..{b},{c}"', n, n, n),
        st.builds(lambda a, b, c: f"{a};{b}..{c}", n, n, n),
    )
    attrs = st.one_of(
        st.just(""),
        ranges.map(lambda r: f"lines={r}"),
        st.sampled_from(["tag=t", "tag=u", "tags=t;u", "tags=*", "tags=**;!t", "tag=!t"]),
        st.builds(lambda r, i: f"lines={r},indent={i}", ranges, st.integers(0, 4)),
    )
    forms = st.builds(lambda escape, a: f"{escape}include::q.txt[{a}]", st.sampled_from(["", "", "\\"]), attrs)
    return draw(st.lists(forms, min_size=1, max_size=6))


@BUILDS
@given(data=adoc_files(), forms=adoc_pages())
def test_asciidoc_reading_is_asciidoctors_own(tmp_path: Path, data: bytes, forms: list[str]) -> None:
    _needs(MODULES / "@asciidoctor" / "core", "Asciidoctor.js (npm @asciidoctor/core)")
    (tmp_path / "q.txt").write_bytes(data)
    page, lines = "= T\n\n", []
    for form in forms:
        lines.append(page.count("\n") + 3)  # (the include's line: after [source] and ----)
        page += f"[source]\n----\n{form}\n----\n\n"
    (tmp_path / "index.adoc").write_text(page, encoding="utf-8")
    r = subprocess.run(
        ["node", "--input-type=module", "-e", ASCIIDOCTOR, str(MODULES), str(tmp_path / "index.adoc")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    sources = list(json.loads(r.stdout))
    assert len(sources) == len(forms)
    cache = SourceCache(str(tmp_path))
    found = {i.line: i for i in find_guarded(page, "index.adoc", ".adoc")}
    for k, form in enumerate(forms):
        inc = found.get(lines[k])
        if inc is None:
            assert sources[k] == form.removeprefix("\\"), (form, sources[k])
            continue
        try:
            text = shown_text(inc, tmp_path / "index.adoc", cache, GuardContext(srcdir=tmp_path)).text
        except TextFragError:
            continue  # (a problem said, never a record)
        assert sources[k] == text, (form, data, sources[k], text)


VITEPRESS = r"""
import fs from "node:fs";
import path from "node:path";
const [, vitepress, srcDir, file] = process.argv;
const { createMarkdownRenderer } = await import(path.join(vitepress, "dist/node/index.js"));
let seen = null;
const md = await createMarkdownRenderer(srcDir, { highlight: (text) => { seen = text; return ""; } });
const env = { path: file, relativePath: path.relative(srcDir, file), cleanUrls: false };
const out = [];
for (const block of fs.readFileSync(file, "utf8").split("\n\n").filter((b) => b.trim())) {
  seen = null;
  let html = "";
  try { html = md.render(block, env); } catch (e) { out.push({ error: e.message }); continue; }
  out.push(seen === null ? { html } : { code: seen });
}
console.log(JSON.stringify(out));
"""

VP_LINE = st.one_of(
    LINE,
    st.sampled_from(
        [
            "// #region r",
            "// #endregion r",
            "  // #region r",
            "/* #region r */",
            "/* #endregion r */",
            "# region r",
            "# endregion r",
            "<!-- #region r -->",
            "<!-- #endregion r -->",
        ]
    ),
)


@st.composite
def vp_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(VP_LINE, min_size=1, max_size=12))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return (ending.join(lines) + (ending if draw(st.booleans()) else "")).encode()


@BUILDS
@given(
    data=vp_files(),
    forms=st.lists(
        st.builds(
            lambda at, region, extra: f"<<< {at}q.txt{region}{extra}",
            st.sampled_from(["./", "@/"]),
            st.sampled_from(["", "#r", "#nosuch"]),
            st.sampled_from(["", "{2}", " [T]", "{1,2 txt}"]),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_vitepress_reading_is_vitepress_own(tmp_path: Path, data: bytes, forms: list[str]) -> None:
    _needs(MODULES / "vitepress", "VitePress (npm)")
    (tmp_path / "q.txt").write_bytes(data)
    page = "".join(f"{form}\n\n" for form in forms)
    (tmp_path / "index.md").write_text(page, encoding="utf-8")
    r = subprocess.run(
        ["node", "--input-type=module", "-e", VITEPRESS, str(MODULES / "vitepress"), str(tmp_path), str(tmp_path / "index.md")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    rendered = list(json.loads(r.stdout))
    assert len(rendered) == len(forms)
    cache = SourceCache(str(tmp_path))
    found = {i.line: i for i in find_guarded(page, "index.md", ".md", vitepress=True)}
    for k, form in enumerate(forms):
        inc = found.get(2 * k + 1)
        assert inc is not None, (form, found)
        try:
            text = shown_text(inc, tmp_path / "index.md", cache, GuardContext(srcdir=tmp_path)).text
        except TextFragError:
            continue  # (a problem said: a region that is not there shows the whole file, never recorded)
        assert rendered[k].get("code") == text, (form, data, rendered[k], text)


CODE_IMPORT = r"""
import fs from "node:fs";
import path from "node:path";
const [, modules, rootDir, file] = process.argv;
const { remark } = await import(path.join(modules, "remark/index.js"));
const { codeImport } = await import(path.join(modules, "remark-code-import/dist/index.js"));
const { visit } = await import(path.join(modules, "unist-util-visit/index.js"));
const out = [];
for (const block of fs.readFileSync(file, "utf8").split("\n\n").filter((b) => b.trim())) {
  const processor = remark().use(codeImport, { rootDir });
  try {
    const tree = await processor.run(processor.parse(block), { path: file, value: block });
    let code = null;
    visit(tree, "code", (node) => { code = node.value; });
    out.push({ code });
  } catch (e) { out.push({ error: e.message }); }
}
console.log(JSON.stringify(out));
"""


@BUILDS
@given(
    data=quoted_files(),
    forms=st.lists(
        st.builds(
            lambda spec: f"```text file=./q.txt{spec}\n```",
            st.one_of(
                st.just(""),
                st.builds(lambda a: f"#L{a}", st.integers(1, 14)),
                st.builds(lambda a, b: f"#L{a}-L{b}", st.integers(1, 14), st.integers(1, 14)),
                st.builds(lambda a: f"#L{a}-", st.integers(1, 14)),
            ),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_remark_code_imports_reading_is_its_own(tmp_path: Path, data: bytes, forms: list[str]) -> None:
    _needs(MODULES / "remark-code-import", "remark-code-import (npm)")
    (tmp_path / "q.txt").write_bytes(data)
    page = "".join(f"{form}\n\n" for form in forms)
    (tmp_path / "index.mdx").write_text(page, encoding="utf-8")
    r = subprocess.run(
        ["node", "--input-type=module", "-e", CODE_IMPORT, str(MODULES), str(tmp_path), str(tmp_path / "index.mdx")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    rendered = list(json.loads(r.stdout))
    assert len(rendered) == len(forms)
    cache = SourceCache(str(tmp_path))
    found = {i.line: i for i in find_guarded(page, "index.mdx", ".mdx", code_import=True)}
    for k, form in enumerate(forms):
        inc = found.get(3 * k + 1)
        assert inc is not None, (form, found)
        try:
            text = shown_text(inc, tmp_path / "index.mdx", cache, GuardContext(srcdir=tmp_path)).text
        except TextFragError:
            assert "error" in rendered[k], (form, rendered[k])
            continue
        assert rendered[k].get("code") == text, (form, data, rendered[k], text)


ASCIIDOCTOR_TITLES = """\
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/");
const core = require("@asciidoctor/core");
const asciidoctor = typeof core === "function" ? core() : (core.default ? core.default() : core);
const doc = asciidoctor.loadFile(process.argv[2], {safe: "unsafe"});
console.log(JSON.stringify(doc.findBy({context: "listing"}).map((b) => [b.getTitle(), b.getSource()])));
"""

ADOC_CONTEXTS = {
    "plain": lambda block: block,
    "ifdef": lambda block: f"ifdef::never[]\n{block}\nendif::never[]",
    "ifndef": lambda block: f"ifndef::never[]\n{block}\nendif::[]",
    "defined": lambda block: f":here:\nifdef::here[]\n{block}\nendif::here[]",
    "comment": lambda block: f"////\n{block}\n////",
    "unset": lambda block: f":here!:\nifdef::here[]\n{block}\nendif::here[]",
}


@BUILDS
@given(contexts=st.lists(st.sampled_from(sorted(ADOC_CONTEXTS)), min_size=1, max_size=8), ending=st.sampled_from(["\n", "\r\n"]))
def test_the_includes_asciidoctor_expands_are_those_check_finds(tmp_path: Path, contexts: list[str], ending: str) -> None:
    """Every ``include::`` Asciidoctor expands, in skipped and kept conditionals, comment blocks and after
    attribute entries, on LF and CR LF pages, is one ``check`` finds, and none other."""
    _needs(MODULES / "@asciidoctor" / "core", "Asciidoctor.js (npm @asciidoctor/core)")
    (tmp_path / "q.txt").write_text("one\ntwo\n")
    page, lines = "= T\n\n", {}
    for k, context in enumerate(contexts):
        block = ADOC_CONTEXTS[context](f".K{k}K\n[source]\n----\ninclude::q.txt[lines=1]\n----")
        at = page.count("\n") + 1 + block.split("\n").index("include::q.txt[lines=1]")
        lines[at] = f"K{k}K"
        page += block + "\n\n"
    (tmp_path / "index.adoc").write_bytes(page.replace("\n", ending).encode())
    r = subprocess.run(
        ["node", "--input-type=module", "-e", ASCIIDOCTOR_TITLES, str(MODULES), str(tmp_path / "index.adoc")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    expanded = {title for title, source in json.loads(r.stdout) if source == "one"}
    found = {lines[i.line] for i in find_guarded(page.replace("\n", ending), "index.adoc", ".adoc") if i.line in lines}
    assert found == expanded, (contexts, found, expanded)
