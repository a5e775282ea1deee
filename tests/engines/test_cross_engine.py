"""One page of references, built by every engine: the same excerpt texts and ``data-txtfrag-*`` values
(the excerpt model is decided once, in the core; each engine only translates it)."""

from __future__ import annotations

import os
from pathlib import Path

import markdown
from bs4 import BeautifulSoup

from markdown_textfrag.extension import TextfragExtension

from ..processes import run_mkdocs, run_sphinx
from .conftest import MD5, engine, myst_content, myst_project, nodes, project, run

BLOCK = f"src/app.py#line=0,2;md5={MD5}"
INLINE = f"src/app.py#line=4,5;md5={MD5}"
MARKDOWN = f"# Page\n\n![](txtfrag:{BLOCK})\n\nInline ![](txtfrag:{INLINE}) here.\n"
EXPECTED = [
    ("def f():\n    return 1", {"ref": BLOCK, "md5": MD5, "length": "46", "charset": "UTF-8", "state": "current"}),
    ("def g():", {"ref": INLINE, "md5": MD5, "length": "46", "charset": "UTF-8", "state": "current"}),
]


def _from_html(html: str) -> list[tuple[str, dict[str, str]]]:
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for el in soup.select("[data-txtfrag-ref]"):
        code = el.select_one("pre") or el.select_one("code")
        assert code is not None
        data = {k.removeprefix("data-txtfrag-"): str(v) for k, v in el.attrs.items() if k.startswith("data-txtfrag-")}
        out.append((code.get_text().rstrip("\n"), data))
    return out


def test_every_engine_shows_the_same_excerpts(tmp_path: Path) -> None:
    seen: dict[str, list[tuple[str, dict[str, str]]]] = {}
    # plain Python-Markdown
    root = project(tmp_path / "plain", {}, {})
    seen["python-markdown"] = _from_html(markdown.markdown(MARKDOWN, extensions=[TextfragExtension(root=str(root))]))
    # Zensical, with the extension
    zensical = engine("zensical")
    config = "site_name: t\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.highlight\n  - pymdownx.superfences\n  - textfrag\n"
    root = project(tmp_path / "zensical", {"index.md": MARKDOWN}, {"mkdocs.yml": config})
    assert run([zensical, "build"], root).returncode == 0
    seen["zensical"] = _from_html((root / "site" / "index.html").read_text(encoding="utf-8"))
    # MkDocs, with the plugin
    config = "site_name: t\nmarkdown_extensions:\n  - attr_list\nplugins:\n  - textfrag\n"
    root = project(tmp_path / "mkdocs", {"index.md": MARKDOWN}, {"mkdocs.yml": config})
    assert run_mkdocs("build", cwd=root, env=dict(os.environ, NO_MKDOCS_2_WARNING="1")).returncode == 0
    seen["mkdocs"] = _from_html((root / "site" / "index.html").read_text(encoding="utf-8"))
    # Sphinx, with the directive and the role
    root = project(tmp_path / "sphinx", {}, {})
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text("extensions = ['sphinx_textfrag']\ntextfrag_root = '..'\n", encoding="utf-8")
    (root / "docs" / "index.rst").write_text(
        f"Page\n====\n\n.. txtfrag:: {BLOCK}\n\nInline :txtfrag:`{INLINE}` here.\n", encoding="utf-8"
    )
    r = run_sphinx("-b", "html", "-q", "docs", "out", cwd=root, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert r.returncode == 0, r.stderr
    seen["sphinx"] = _from_html((root / "out" / "index.html").read_text(encoding="utf-8"))
    # mystmd, with textfrag-myst
    myst = engine("myst")
    book = myst_project(
        tmp_path / "myst", {"doc.md": f"# Page\n\n```{{txtfrag}} {BLOCK}\n```\n\nInline {{txtfrag}}`{INLINE}` here.\n"}
    )
    assert run([myst, "build", "--site"], book).returncode == 0
    found = []
    for node in nodes(myst_content(book, "doc")["mdast"]):
        data = node.get("data")
        if isinstance(data, dict) and "txtfrag-ref" in data:
            value = node.get("value") or next(n["value"] for n in nodes(node) if n.get("type") == "code")
            found.append((str(value).rstrip("\n"), {k.removeprefix("txtfrag-"): str(v) for k, v in data.items()}))
    seen["mystmd"] = found
    for name, excerpts in seen.items():
        assert excerpts == EXPECTED, name
