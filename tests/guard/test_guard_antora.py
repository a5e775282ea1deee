"""Guard mode on an Antora component's pages: ``include::example$app.rb[]`` and the other resource ids
(a family, a module, another component of the repository, a version) name the file Antora's content
catalog gives them (``COMPONENT/modules/MODULE/examples/app.rb``). The truth is Asciidoctor.js showing the
same page with each id written as the path Antora resolves it to; an id of a component that is not in the
repository is a located problem."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from ..processes import run_textfrag
from .test_guard_asciidoc import CORE, SHOWN, _engine, _git

APP = "require 'x'\ndef call\n  :ok\nend\n"
CLIENT = "import api\n# tag::call[]\napi.call()\n# end::call[]\n"
#: each resource id, and the path from the page Antora resolves it to
IDS = [
    ("example$app.rb[lines=2..3]", "../examples/app.rb[lines=2..3]"),
    ("partial$note.adoc[]", "../partials/note.adoc[]"),
    ("admin:example$setup.sh[]", "../../admin/examples/setup.sh[]"),
    ("api::example$client.py[tag=call]", "../../../../api/modules/ROOT/examples/client.py[tag=call]"),
    ("api:ROOT:example$client.py[]", "../../../../api/modules/ROOT/examples/client.py[]"),
    ("2.0@guide::example$app.rb[lines=1]", "../examples/app.rb[lines=1]"),
    ("{partialsdir}/note.adoc[]", "../partials/note.adoc[]"),  # (what Antora's loader defines on every page)
]


def _page(targets: list[str]) -> str:
    return "= Page\n\n" + "".join(f"[source]\n----\ninclude::{t}\n----\n\n" for t in targets)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    _engine()
    component = tmp_path / "docs"
    files = {
        "docs/antora.yml": "name: guide\nversion: '2.0'\n",
        "docs/modules/ROOT/examples/app.rb": APP,
        "docs/modules/ROOT/partials/note.adoc": "A note.\n",
        "docs/modules/admin/examples/setup.sh": "make install\n",
        "api/antora.yml": "name: api\nversion: ~\n",
        "api/modules/ROOT/examples/client.py": CLIENT,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    pages = component / "modules" / "ROOT" / "pages"
    pages.mkdir(parents=True)
    (pages / "index.adoc").write_text(_page([i for i, _ in IDS]), encoding="utf-8")
    (tmp_path / "shown.js").write_text(SHOWN, encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "start")
    return tmp_path


def _textfrag(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TEXTFRAG_GUARD": "1"}
    return run_textfrag(*args, cwd=site, env=env, timeout=120)


def _asciidoctor(site: Path, page: Path) -> list[str]:
    r = subprocess.run(
        ["node", str(site / "shown.js"), str(CORE), str(page)], capture_output=True, text=True, check=True, timeout=120
    )
    return list(json.loads(r.stdout))


def test_resource_ids_are_recorded_as_the_files_antora_resolves_them_to_show(site: Path) -> None:
    pages = site / "docs" / "modules" / "ROOT" / "pages"
    (pages / "resolved.adoc").write_text(_page([p for _, p in IDS]), encoding="utf-8")
    texts = _asciidoctor(site, pages / "resolved.adoc")
    (pages / "resolved.adoc").unlink()
    assert texts == ["def call\n  :ok", "A note.", "make install", "api.call()", CLIENT.rstrip("\n"), "require 'x'", "A note."]
    r = _textfrag(site, "pin", "--write", "docs")
    assert r.returncode == 0, r.stdout + r.stderr
    recorded = json.loads((site / "docs" / "textfrag.lock").read_text(encoding="utf-8"))["includes"][
        "modules/ROOT/pages/index.adoc"
    ]
    for (resource, _), text in zip(IDS, texts, strict=True):
        assert recorded[f"include::{resource}"] == f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}", resource
    assert _textfrag(site, "check", "docs").returncode == 0


def test_a_moved_range_behind_a_resource_id_is_repaired(site: Path) -> None:
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    app = site / "docs" / "modules" / "ROOT" / "examples" / "app.rb"
    app.write_text("# frozen_string_literal: true\n" + APP, encoding="utf-8")
    _git(site, "commit", "-qam", "a line above")
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "index.adoc:5: include::example$app.rb[lines=2..3]" in checked.stderr, checked.stderr
    assert "moved" in checked.stderr
    _textfrag(site, "update", "--write", "docs")
    page = (site / "docs" / "modules" / "ROOT" / "pages" / "index.adoc").read_text(encoding="utf-8")
    assert "include::example$app.rb[lines=3..4]" in page and "include::2.0@guide::example$app.rb[lines=2]" in page, page
    assert _textfrag(site, "check", "docs").returncode == 0


def test_a_component_outside_the_repository_is_a_located_problem(site: Path) -> None:
    page = site / "docs" / "modules" / "ROOT" / "pages" / "index.adoc"
    page.write_text(_page(["ghost:ROOT:example$x.txt[]", "9.9@api::example$client.py[]"]), encoding="utf-8")
    r = _textfrag(site, "check", "docs")
    assert r.returncode == 2, r.stderr
    assert (
        "index.adoc:5: include::ghost:ROOT:example$x.txt[]: the Antora component ghost is not in this repository" in r.stderr
    ), r.stderr
    assert (
        "index.adoc:10: include::9.9@api::example$client.py[]: the Antora component 9.9@api is not in this repository" in r.stderr
    )


def test_a_renamed_file_behind_a_resource_id_keeps_the_id_in_check_update_and_impact(site: Path) -> None:
    """``git mv`` of an example: ``check`` says renamed with the new include in Antora's own form
    (``example$main.rb``, not a path from the page), ``update --write`` writes it and Asciidoctor shows the
    recorded text again; ``impact`` from the repository's top, with no ``--docs``, reads the same lock file
    and says the quote follows the rename (it said the quote no longer resolves)."""
    pages = site / "docs" / "modules" / "ROOT" / "pages"
    (pages / "index.adoc").write_text(_page(["example$app.rb[lines=2..3]"]), encoding="utf-8")
    assert _textfrag(site, "pin", "--write", "docs").returncode == 0
    assert (site / "docs" / "textfrag.lock").is_file()
    _git(site, "add", "-A")
    _git(site, "commit", "-qm", "pinned")
    assert _textfrag(site, "check").returncode == 0  # (from the top: the project's own lock file)
    _git(site, "mv", "docs/modules/ROOT/examples/app.rb", "docs/modules/ROOT/examples/main.rb")
    _git(site, "commit", "-qm", "renamed")
    impact = _textfrag(site, "impact", "HEAD~1")
    assert "is renamed to docs/modules/ROOT/examples/main.rb; the quoted text is the same there" in impact.stdout, (
        impact.stdout + impact.stderr
    )
    checked = _textfrag(site, "check", "docs")
    assert checked.returncode == 1 and "(new include: include::example$main.rb[lines=2..3])" in checked.stderr, checked.stderr
    assert _textfrag(site, "update", "--write", "docs").returncode == 0
    assert "include::example$main.rb[lines=2..3]" in (pages / "index.adoc").read_text(encoding="utf-8")
    assert _textfrag(site, "check").returncode == 0
    (pages / "resolved.adoc").write_text(_page(["../examples/main.rb[lines=2..3]"]), encoding="utf-8")
    assert _asciidoctor(site, pages / "resolved.adoc") == ["def call\n  :ok"]
