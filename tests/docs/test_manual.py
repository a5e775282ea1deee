"""The manual (docs/): built by textfrag itself, every quote pinned and current, organised as
tutorials, how-to guides, reference and explanation, its reference generated from the code."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup

from textfrag.verdict.option_table import OPTIONS

from ..conftest import REPO
from ..processes import run_sphinx, run_textfrag

DOCS = REPO / "docs"


def test_every_quote_of_the_manual_is_pinned_and_current() -> None:
    """`make docs` runs this first: the manual fails its own build when a quote of this repository drifts
    (then `textfrag update --write docs`, or `--accept` after review)."""
    r = run_textfrag("check", "--require-pin", "docs", cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"(\d+) references in (\d+) documents: all current", r.stdout)
    assert m is not None and int(m.group(1)) >= 20, r.stdout


def test_the_manual_builds_without_a_warning_and_has_its_four_parts(tmp_path: Path) -> None:
    r = run_sphinx("-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path / "html"), timeout=300)
    assert r.returncode == 0, r.stderr
    html = tmp_path / "html"
    index = BeautifulSoup((html / "index.html").read_text(encoding="utf-8"), "html.parser")
    captions = {c.get_text(strip=True) for c in index.select(".caption-text")}
    assert {"Tutorials", "How-to guides", "Reference", "Explanation"} <= captions
    howtos = {a["href"] for a in index.select("a.reference.internal") if "howto/" in a.get("href", "")}
    assert {
        f"howto/{p}.html" for p in ("engines", "ci", "migrate", "guard", "symbols", "dialects", "permalinks", "editor")
    } <= howtos
    for name in ("sphinx", "mkdocs", "guard"):  # (each a shell session the suite runs: tests/docs/test_tutorials.py)
        tutorial = BeautifulSoup((html / "tutorial" / f"{name}.html").read_text(encoding="utf-8"), "html.parser")
        assert len(tutorial.select("div.highlight-console")) >= 5, name
    # the reference is generated from the code: every command, every option of the one table
    cli = (html / "reference" / "cli.html").read_text(encoding="utf-8")
    for command in ("show", "make", "check", "update", "pin", "migrate", "symbols", "options", "lsp", "batch"):
        assert f"textfrag {command}" in cli
    # rendered, not pasted: each command's options a definition list of literals, no argparse help to scroll
    page = BeautifulSoup(cli, "html.parser")
    assert "usage: textfrag" not in cli
    assert "--require-pin" in [dt.get_text() for dt in page.select("#command-check dt")]
    assert all(code.name == "code" for code in page.select("#command-check dt > code"))
    options = BeautifulSoup((html / "reference" / "options.html").read_text(encoding="utf-8"), "html.parser")
    cells = {td.get_text(strip=True) for td in options.select("table td")}
    assert all((f":{s.name}:" if s.rst else f"{s.md[0]}=") in cells for s in OPTIONS)
    # the HTML attributes, as the core's verdict gives them; the Python API, from its docstrings
    attributes = BeautifulSoup((html / "reference" / "html.html").read_text(encoding="utf-8"), "html.parser")
    rows = {
        tr.select("td")[0].get_text(strip=True): tr.select("td")[1].get_text(strip=True) for tr in attributes.select("tbody tr")
    }
    assert set(rows) == {
        "id",
        "data-txtfrag-ref",
        "data-txtfrag-md5",
        "data-txtfrag-length",
        "data-txtfrag-charset",
        "data-txtfrag-state",
    }
    assert rows["data-txtfrag-state"] == "current" and rows["data-txtfrag-length"] == "224"
    api = BeautifulSoup((html / "reference" / "api.html").read_text(encoding="utf-8"), "html.parser")
    documented = {dt["id"] for dt in api.select("dt[id]")}
    assert {"textfrag.judge", "textfrag.Verdict", "textfrag.Excerpt", "textfrag.quote", "textfrag.parse_reference"} <= documented
    # (the public Python API is what textfrag/__init__ exports, and all of it is documented)
    import textfrag

    assert {f"textfrag.{name}" for name in textfrag.__all__ if name != "__version__"} <= documented
    assert "the one verdict" in api.get_text().lower()


def test_every_module_and_folder_the_contributor_page_names_exists() -> None:
    """The contributor page is a map of the code: every file and folder it names in code (``guard/model.py``,
    ``cli/``, ``tests/guard/test_engine_contract.py``) is there, under the repository or its ``textfrag/``,
    and every class or function it names in a module it names is defined in that module."""
    page = (DOCS / "contributing.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w./-]+(?:\.py|/))`", page))
    assert len(named) > 20, named

    def there(name: str) -> bool:
        if any((base / name).exists() for base in (REPO, REPO / "textfrag")):
            return True
        # (a bare name in a folder's row: `check.py` of `cli/`, `dialects/` of `reference/`)
        bare = name.rstrip("/")
        return "/" not in bare and any(p.name == bare for p in (REPO / "textfrag").rglob(bare))

    missing = [n for n in sorted(named) if not there(n)]
    assert not missing, f"the contributor page names what is not there: {missing}"
    # (a name and the module it is said to be in, as the page writes them: `IncludeEngine` (`guard/model.py`)
    for name, module in re.findall(r"`([A-Za-z_]\w+)` \(`([\w/]+\.py)`", page) + re.findall(
        r"`([A-Za-z_]\w+)` in `([\w/]+\.py)`", page
    ):
        source = next((base / module for base in (REPO / "textfrag", REPO) if (base / module).is_file()), None)
        assert source is not None, module
        assert re.search(rf"^(?:class|def) {name}\b|^{name} *[:=]", source.read_text(encoding="utf-8"), re.M), (name, module)
