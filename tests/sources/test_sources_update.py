"""``textfrag sources update``: a source moved to a newer tag, each quote judged against the new commit by
the one verdict: what moved is rewritten, a renamed file followed, what changed shown and left for review."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from textfrag.cli.sources import _with_rev
from textfrag.errors import TextFragError
from textfrag.source.fetching import _version_key

from .conftest import CodeRepo, Docs
from .test_sources import APP, pinned, tf

UTIL = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
OLD = "def gone():\n    return 0\n"


@pytest.fixture
def bumped(code: CodeRepo, docs: Docs) -> tuple[CodeRepo, Docs, str]:
    """Docs quoting v1.0.0 four ways; v1.1.0 moves one quote, changes one, renames one file and deletes one."""
    before = code.release("v1.0.0", {"src/app.py": APP, "src/util.py": UTIL, "src/old.py": OLD})
    docs.declare(sdk=(code.url, "v1.0.0"))
    docs.page(
        "index.rst",
        "Quotes\n======\n\n"
        f".. txtfrag:: {pinned(APP, 4, 5)}\n\n"  # greet: moves down two lines
        f".. txtfrag:: {pinned(APP, 8, 9)}\n\n"  # bye: changes
        f".. txtfrag:: {pinned(UTIL, 1, 2, 'src/util.py')}\n\n"  # add: its file is renamed
        f".. txtfrag:: {pinned(OLD, 1, 2, 'src/old.py')}\n",  # its file is deleted
    )
    assert tf(docs, "sources", "fetch")[0] == 0
    code.rename("src/util.py", "src/maths/util.py")
    code.write({"src/app.py": '"""The app."""\nimport sys\n' + APP.replace("    pass\n", "    return 1\n"), "src/old.py": None})
    code.release("v1.1.0")
    code.release("v1.2.0-rc1")  # (a pre-release: never chosen by default)
    return code, docs, before


def test_a_dry_run_shows_what_moves_and_what_changed_and_writes_nothing(bumped: tuple[CodeRepo, Docs, str]) -> None:
    _, docs, _ = bumped
    files = {p: p.read_bytes() for p in docs.root.iterdir() if p.is_file()}
    rc, out, err = tf(docs, "sources", "update")
    assert rc == 2, err  # (a quote of a deleted file is bad, as for a local file)
    assert re.search(r"sdk: v1\.0\.0 \([0-9a-f]{10}\) -> v1\.1\.0 \([0-9a-f]{10}\)", err), err
    assert "index.rst:4:" in err and "moved -> txtfrag://sdk/src/app.py#line=5,7" in err
    assert "index.rst:8:" in err and "renamed and moved -> txtfrag://sdk/src/maths/util.py#line=0,2" in err
    assert "index.rst:6:" in err and "changed: the quoted text" in err and "-    pass" in err
    assert "`textfrag make txtfrag://sdk/src/app.py --lines 8-9`" in err
    assert re.search(
        r"index.rst:10: .*no such file: //sdk/src/old.py; in the source sdk, from [0-9a-f]{10} to [0-9a-f]{10}, it was deleted",
        err,
    )
    assert "+.. txtfrag:: txtfrag://sdk/src/app.py#line=5,7" in out
    assert {p: p.read_bytes() for p in docs.root.iterdir() if p.is_file()} == files


def test_write_moves_the_declaration_the_lock_and_the_quotes_that_moved(bumped: tuple[CodeRepo, Docs, str]) -> None:
    code, docs, before = bumped
    rc, _, err = tf(docs, "sources", "update", "--write")
    assert rc == 2, err  # (the changed quote and the deleted file are left for review)
    assert 'sdk = { git = "' + code.url + '", rev = "v1.1.0" }' in (docs.root / "textfrag.toml").read_text()
    record = json.loads((docs.root / "textfrag-sources.lock").read_text())["sources"]["sdk"]
    assert record["rev"] == "v1.1.0" and record["previous"] == before
    page = (docs.root / "index.rst").read_text()
    assert "txtfrag://sdk/src/app.py#line=5,7;" in page and "txtfrag://sdk/src/maths/util.py#line=0,2;" in page
    rc, _, err = tf(docs, "check", ".")  # (the build's verdict: the two left, said with their diff)
    assert rc == 2 and "index.rst:6:" in err and "index.rst:10:" in err
    assert "changed: the quoted text" in err
    rc, _, err = tf(docs, "update", "--accept", "--write", "index.rst:6")
    assert rc == 2, err  # (the deleted file stays bad)
    assert "index.rst:6:" in err and "accepted" in err


def test_to_names_the_revision(bumped: tuple[CodeRepo, Docs, str]) -> None:
    _, docs, _ = bumped
    rc, _, err = tf(docs, "sources", "update", "sdk", "--to", "v1.0.0")
    assert rc == 0 and "is the revision the docs follow already" in err


def test_the_newest_release_tag_is_chosen_by_its_numbers() -> None:
    tags = ["v1.9.2", "v1.10.0", "v1.10.0-rc1", "v1.2"]
    assert max(tags, key=_version_key) == "v1.10.0"


def test_the_declared_rev_is_rewritten_in_either_form() -> None:
    inline = '[sources]\nsdk = { git = "https://x/sdk", rev = "v1.0" }  # pinned\nother = { git = "https://x/o", rev = "v1.0" }\n'
    assert _with_rev(inline, Path("t"), "sdk", "v2.0") == inline.replace('rev = "v1.0" }  # pinned', 'rev = "v2.0" }  # pinned')
    table = '[tool.textfrag.sources.sdk]\ngit = "https://x/sdk"\nrev = "v1.0"\n\n[tool.other]\nrev = "x"\n'
    assert _with_rev(table, Path("t"), "sdk", "v2.0") == table.replace('rev = "v1.0"', 'rev = "v2.0"')
    with pytest.raises(TextFragError, match="set it by hand"):
        _with_rev("[sources]\nsdk = {git='x'}\n", Path("t"), "sdk", "v2.0")


def test_write_keeps_the_declarations_line_endings_and_the_rest_of_it(code: CodeRepo, docs: Docs) -> None:
    code.release("v1.0.0", {"src/app.py": APP})
    declaration = (
        f'# the SDK the guide follows\r\n[sources]\r\nsdk = {{ git = "{code.url}", rev = "v1.0.0" }}  # bump with care\r\n'
    )
    (docs.root / "textfrag.toml").write_bytes(declaration.encode())
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    code.release("v1.1.0", {"src/app.py": "# moved\n" + APP})
    rc, _, err = tf(docs, "sources", "update", "--write")
    assert rc == 0, err
    assert (docs.root / "textfrag.toml").read_bytes() == declaration.replace('"v1.0.0"', '"v1.1.0"').encode()


def test_a_source_that_follows_a_branch_moves_to_its_commit_now_not_to_a_tag(code: CodeRepo, docs: Docs) -> None:
    first = code.release("v1.0.0", {"src/app.py": APP})
    docs.declare(sdk=(code.url, "main"))
    docs.page("index.rst", f".. txtfrag:: {pinned(APP, 4, 5)}\n")
    assert tf(docs, "sources", "fetch")[0] == 0
    later = code.release("v1.1.0-rc1", {"src/app.py": "# moved\n" + APP})  # (main moves on; no release tag)
    rc, _, err = tf(docs, "sources", "update", "--write")
    assert rc == 0, err
    assert f"sdk: main ({first[:10]}) -> main ({later[:10]})" in err
    record = json.loads((docs.root / "textfrag-sources.lock").read_text())["sources"]["sdk"]
    assert (record["rev"], record["commit"], record["previous"]) == ("main", later, first)
    assert 'rev = "main"' in (docs.root / "textfrag.toml").read_text()
    assert "txtfrag://sdk/src/app.py#line=4,6;" in (docs.root / "index.rst").read_text()
