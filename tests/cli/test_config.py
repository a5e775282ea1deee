"""The build's own configuration on the command line: --config conf.py|mkdocs.yml, discovery from the
documentation folder, and "no such file" that names the root and suggests what was meant."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from ..conftest import new_project
from ..processes import run_sphinx, run_textfrag

APP = "".join(f"line {i}\n" for i in range(1, 31))
REF = f"src/app.py#line=2,4;length={len(APP)};md5={hashlib.md5(APP.encode()).hexdigest()}"


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return run_textfrag(*argv, cwd=cwd, env=env, timeout=60)


@pytest.fixture
def sphinx_project(tmp_path: Path) -> Path:
    root = new_project(tmp_path / "p", "app.py", APP)
    (root / "docs" / "conf.py").write_text('extensions = ["sphinx_textfrag"]\ntextfrag_root = ".."\n', encoding="utf-8")
    (root / "docs" / "index.rst").write_text(f"T\n=\n\n.. txtfrag:: {REF}\n", encoding="utf-8")
    return root


def test_check_from_the_docs_folder_finds_conf_py_and_says_so(sphinx_project: Path) -> None:
    r = run("check", cwd=sphinx_project / "docs")
    assert r.returncode == 0, r.stderr
    assert "textfrag: using the configuration in conf.py (root: ..)" in r.stderr
    assert "1 reference in 1 document: all current" in r.stdout


def test_check_of_the_docs_folder_from_the_project_finds_conf_py(sphinx_project: Path) -> None:
    r = run("check", "docs", cwd=sphinx_project)
    assert r.returncode == 0, r.stderr
    assert "using the configuration in docs/conf.py" in r.stderr


def test_an_explicit_root_wins_and_a_wrong_one_says_which_root_works(sphinx_project: Path) -> None:
    r = run("check", "--root", ".", ".", cwd=sphinx_project / "docs")
    assert r.returncode == 2
    assert "no such file: src/app.py (under the root .)" in r.stderr
    assert "it exists under ..: is that the root (--root ..)?" in r.stderr
    # (the configuration is read all the same: --root only sets the root, and says so)
    assert "using the configuration in conf.py (root: ., from --root)" in r.stderr


def test_no_such_file_suggests_the_closest_existing_paths(sphinx_project: Path) -> None:
    (sphinx_project / "docs" / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/ap.py#line=0,1\n", encoding="utf-8")
    r = run("check", cwd=sphinx_project / "docs")
    assert r.returncode == 2 and "did you mean src/app.py?" in r.stderr


def test_config_reads_mkdocs_yml(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "code").mkdir()
    (site / "code" / "app.py").write_text(APP, encoding="utf-8")
    (site / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "plugins:\n  - search\n  - textfrag:\n      root: code\n      charset: latin-1\n",
        encoding="utf-8",
    )
    (site / "docs" / "index.md").write_text("![](txtfrag:app.py#line=0,1)\n", encoding="utf-8")
    r = run("check", "docs", cwd=site)
    assert r.returncode == 0, r.stderr
    assert "using the configuration in mkdocs.yml (root: code)" in r.stderr
    explicit = run("check", "--config", "mkdocs.yml", "docs", cwd=site)
    assert explicit.returncode == 0, explicit.stderr


def test_a_computed_setting_in_conf_py_is_a_clear_error(sphinx_project: Path) -> None:
    (sphinx_project / "docs" / "conf.py").write_text("import os\ntextfrag_root = os.path.join('..')\n", encoding="utf-8")
    r = run("check", "--config", "docs/conf.py", "docs", cwd=sphinx_project)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "docs/conf.py:2: textfrag_root is computed" in r.stderr


def test_zensical_configurations_are_found_and_read(tmp_path: Path) -> None:
    """Zensical sites: the extension's options in mkdocs.yml's markdown_extensions, or a zensical.toml."""
    root = new_project(tmp_path / "z", "app.py", APP)
    (root / "docs" / "index.md").write_text(f"# T\n\n![](txtfrag:{REF})\n", encoding="utf-8")
    (root / "zensical.toml").write_text(
        '[project]\nsite_name = "t"\n\n[project.markdown_extensions.textfrag]\nroot = "."\n', encoding="utf-8"
    )
    r = run("check", "docs", cwd=root)
    assert r.returncode == 0, r.stderr
    assert "textfrag: using the configuration in zensical.toml (root: .)" in r.stderr
    (root / "zensical.toml").unlink()
    (root / "docs" / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - textfrag:\n      root: ..\n", encoding="utf-8"
    )
    r = run("check", cwd=root / "docs")
    assert r.returncode == 0, r.stderr
    assert "textfrag: using the configuration in mkdocs.yml (root: ..)" in r.stderr


def test_a_properdocs_yml_is_read_and_found_from_the_docs_folder(tmp_path: Path) -> None:
    """A ProperDocs project (properdocs.yml, the extension alone) is read as an mkdocs.yml;
    run from docs/, check finds the configuration above it, up to the top of the repository."""
    root = new_project(tmp_path / "pd", "app.py", APP)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "docs" / "index.md").write_text(f"# T\n\n![](txtfrag:{REF})\n", encoding="utf-8")
    (root / "properdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - textfrag:\n      root: .\n      require_pin: true\n",
        encoding="utf-8",
    )
    r = run("check", "docs", cwd=root)
    assert r.returncode == 0, r.stderr
    assert "textfrag: using the configuration in properdocs.yml (root: .)" in r.stderr
    r = run("check", ".", cwd=root / "docs")
    assert r.returncode == 0, r.stderr
    assert "textfrag: using the configuration in ../properdocs.yml (root: ..)" in r.stderr
    assert "1 reference in 1 document: all current" in r.stdout


def test_make_finds_the_project_as_check_does_and_prints_its_form(tmp_path: Path) -> None:
    """Make reads the build's configuration (its root) from docs/ too, and in a MkDocs
    project prints the Markdown form of an intent (an image with its attributes); --form chooses."""
    root = new_project(tmp_path / "mk", "app.py", "import os\n\n\ndef hello():\n    return 1\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - textfrag:\n      root: .\n", encoding="utf-8")
    r = run("make", "--pyobject", "hello", "src/app.py", cwd=root / "docs")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("![](txtfrag:src/app.py#line=3,5;length=") and r.stdout.rstrip().endswith('){ pyobject="hello" }')
    assert "using the configuration in ../mkdocs.yml (root: ..)" in r.stderr
    rst = run("make", "--form", "rst", "--pyobject", "hello", "src/app.py", cwd=root / "docs")
    assert rst.stdout.splitlines()[1] == "   :pyobject: hello"


def test_a_build_that_requires_pins_makes_check_require_them(sphinx_project: Path) -> None:
    """One verdict: ``textfrag_require_pin = True`` fails the build on an unpinned reference, so check,
    which reads the build's configuration, fails it too (it counted it and passed before)."""
    conf = sphinx_project / "docs" / "conf.py"
    (sphinx_project / "docs" / "index.rst").write_text("T\n=\n\n.. txtfrag:: src/app.py#line=2,4\n", encoding="utf-8")
    assert run("check", cwd=sphinx_project / "docs").returncode == 0
    conf.write_text(conf.read_text() + "textfrag_require_pin = True\n", encoding="utf-8")
    r = run("check", cwd=sphinx_project / "docs")
    assert r.returncode == 1
    assert "index.rst:4: src/app.py#line=2,4: unpinned: the reference has no md5" in r.stderr
    build = run_sphinx("-E", "-q", "-b", "html", "docs", "docs/_build", cwd=sphinx_project)
    assert build.returncode == 1 and "unpinned" in build.stderr


@pytest.mark.parametrize(
    ("conf", "markdown_forms", "colon_fence"),
    [
        ("extensions = ['sphinx_textfrag']\n", True, True),
        ("extensions = ['sphinx_textfrag', 'myst_parser']\n", False, False),
        ("extensions = ['sphinx_textfrag']\nextensions.append('myst_parser')\n", False, False),
        ("extensions = ['sphinx_textfrag']\nextensions += ['myst_nb']\nmyst_enable_extensions = ['colon_fence']\n", False, True),
        (
            "extensions = ['myst_parser']\nmyst_enable_extensions = []\nmyst_enable_extensions.extend(['deflist', 'colon_fence'])\n",
            False,
            True,
        ),
        (
            "extensions = ['myst_parser']\nmyst_enable_extensions = ['deflist']\nmyst_enable_extensions.append(name)\n",
            False,
            True,
        ),
        ("extensions = list(base)\n", True, True),
    ],
)
def test_conf_py_says_whether_myst_reads_markdown_however_it_lists_its_extensions(
    tmp_path: Path, conf: str, markdown_forms: bool, colon_fence: bool
) -> None:
    """``extensions = [...]``, ``+= [...]``, ``.append(...)``, ``.extend([...])``: check reads each as Sphinx
    would run it. What is computed is not known: no extension, and MyST's colon_fence taken as on."""
    from textfrag.project.config import read_config

    (tmp_path / "conf.py").write_text(conf + "textfrag_root = '.'\n", encoding="utf-8")
    config = read_config(tmp_path / "conf.py")
    assert (config.markdown_forms, config.colon_fence) == (markdown_forms, colon_fence)


def test_an_mkdocs_yml_that_inherits_another_reads_both_as_mkdocs_merges_them(tmp_path: Path) -> None:
    """INHERIT: the parent's Markdown extensions (pymdownx.snippets' base_path, attr_list) apply, the
    child's values win, mappings are merged (as mergedeep merges them for MkDocs)."""
    from textfrag.project.config import read_config

    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "common.yml").write_text(
        "site_name: base\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.snippets:\n      base_path: [src]\n"
        "plugins:\n  search: {}\n  textfrag:\n    guard: false\n    charset: latin-1\n"
    )
    (tmp_path / "mkdocs.yml").write_text("INHERIT: base/common.yml\nsite_name: child\nplugins:\n  textfrag:\n    guard: true\n")
    config = read_config(tmp_path / "mkdocs.yml")
    assert config.guard and config.charset == "latin-1" and config.attr_list
    assert config.snippets == {"base_path": ["src"]}
    (tmp_path / "base" / "common.yml").write_text("INHERIT: ../mkdocs.yml\n")  # (a loop is read once)
    assert read_config(tmp_path / "mkdocs.yml").guard


def test_a_conf_py_nested_deeper_than_pythons_parser_goes_is_a_clear_error(tmp_path: Path) -> None:
    """``x = ---...1`` with 200,000 minus signs: Python's parser gives up (MemoryError); textfrag says where,
    exit 2, never "internal error"."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("x = " + "-" * 200_000 + "1\nextensions = ['sphinx_textfrag']\n", encoding="utf-8")
    (tmp_path / "docs" / "index.rst").write_text("T\n=\n", encoding="utf-8")
    r = run("check", "docs", cwd=tmp_path)
    assert r.returncode == 2 and "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "conf.py: nested too deeply for Python's parser" in r.stderr, r.stderr
    # the file is the place: the line starts with it, not with "command line:"
    assert any(line.startswith(f"{tmp_path / 'docs' / 'conf.py'}: nested") for line in r.stderr.splitlines()), r.stderr


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("docs/conf.py", "extensions = ['sphinx_textfrag']\ntextfrag_on_stale = 'warn'\n", "textfrag_on_stale must be"),
        ("mkdocs.yml", "site_name: t\nplugins:\n  - textfrag:\n      on_stale: warn\n", "on_stale must be"),
        (
            "book.toml",
            "[book]\nsrc = 'docs'\n[preprocessor.textfrag]\non_stale = 'warn'\n",
            "[preprocessor.textfrag] on_stale must be",
        ),
    ],
    ids=["sphinx", "mkdocs", "mdbook"],
)
def test_a_setting_an_engine_refuses_is_refused_by_check_in_the_same_words(
    tmp_path: Path, name: str, text: str, said: str
) -> None:
    """``on_stale = "warn"``: the settings table (textfrag.project.setting_table) is what every reader of a
    configuration checks a value against, so ``check`` refuses it where the build does, naming the file."""
    (tmp_path / "docs").mkdir()
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("![](txtfrag:docs/index.md)\n", encoding="utf-8")
    r = run("check", "docs", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"{said} 'error' or 'warning', not 'warn'" in r.stderr and name.rsplit("/", 1)[-1] in r.stderr, r.stderr
    if name.endswith("conf.py"):  # (the build refuses it in the same words)
        built = run_sphinx("-q", "-b", "html", "docs", str(tmp_path / "out"), cwd=tmp_path)
        assert built.returncode != 0 and "textfrag_on_stale must be 'error' or 'warning', not 'warn'" in built.stderr


def test_the_sphinx_extensions_config_values_are_the_settings_table() -> None:
    from sphinx_textfrag import CONFIG_VALUES
    from textfrag.project import settings_of

    assert [(n, d, t) for n, d, _, t, _ in CONFIG_VALUES] == [(s.sphinx, s.default, s.types) for s in settings_of("sphinx")]


def test_each_builds_settings_are_the_settings_table() -> None:
    """The MkDocs plugin's options, the Markdown extension's config and textfrag-myst's environment are the
    table's for each (textfrag.project.setting_table), with its defaults: a setting is declared once."""
    from markdown_textfrag.extension import TextfragExtension
    from mkdocs_textfrag.plugin import TextfragConfig
    from textfrag.project import myst_environment, settings_of

    mkdocs = TextfragConfig()
    mkdocs.load_dict({})
    assert not mkdocs.validate()[0]
    assert {name: mkdocs[name] for name in mkdocs} == {s.name: s.default for s in settings_of("mkdocs")}
    markdown = TextfragExtension().getConfigs()
    # (a root or a language not given is the site's: the extension's default for them is empty)
    assert markdown == {s.name: "" if s.name == "root" or s.default is None else s.default for s in settings_of("markdown")}
    myst = myst_environment(Path("/x"), {})
    assert list(myst) == [s.name for s in settings_of("mystmd")]
    assert myst["root"] == Path("/x").resolve() and myst["on_stale"] == "error" and myst["warn_bidi"] is True


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TEXTFRAG_ON_STALE", "warn", "TEXTFRAG_ON_STALE must be 'error' or 'warning', not 'warn'"),
        ("TEXTFRAG_MAX_SIZE", "lots", "TEXTFRAG_MAX_SIZE must be a number, not 'lots'"),
    ],
)
def test_textfrag_myst_and_check_refuse_a_setting_of_the_environment_alike(
    tmp_path: Path, variable: str, value: str, said: str
) -> None:
    """mystmd gives its plugin no configuration: ``TEXTFRAG_ON_STALE=warn`` was taken as "error" by the
    plugin and by ``check`` alike. Both now refuse it in the table's words, naming the variable."""
    import json
    import shutil
    import sys

    (tmp_path / "myst.yml").write_text("version: 1\nproject:\n  plugins:\n    - type: executable\n      path: textfrag-myst\n")
    (tmp_path / "index.md").write_text("# T\n", encoding="utf-8")
    env = {**os.environ, variable: value}
    r = run_textfrag("check", ".", cwd=tmp_path, env=env)
    assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    script = shutil.which("textfrag-myst", path=str(Path(sys.executable).parent))
    assert script is not None
    tree = {"type": "root", "children": []}
    done = subprocess.run(
        [script, "--transform", "txtfrag-problems"],
        input=json.dumps({"node": tree, "options": {}}),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
