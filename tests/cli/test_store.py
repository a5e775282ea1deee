"""What the command line found in quoted files, kept from one run to the next (textfrag.source.store): a second ``check`` of an unchanged file does not parse it again, in one process or on both
cores, and finds a good verdict good from the file's digest alone; the verdict never depends on the
store, whatever it holds; a folder that cannot be written, or ``TEXTFRAG_NO_CACHE``, leaves ``check`` as
it was."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from textfrag.cli import main
from textfrag.intents import intent, symbols
from textfrag.intents import python_outline as pyoutline

from ..processes import run_textfrag

MODULE = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(5))


def _pin(text: str) -> str:
    return f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


def _quoting(root: Path, texts: dict[str, str]) -> Path:
    """``src/<name>`` holding each text, and ``docs/p.md`` quoting the first line of each, pinned."""
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    refs = []
    for name, text in texts.items():
        (root / "src" / name).write_text(text)
        refs.append(f"![](txtfrag:src/{name}#line=0,1;{_pin(text)})\n")
    (root / "docs" / "p.md").write_text("# Page\n\n" + "\n".join(refs))
    return root


def _project(root: Path, *, pyobject: str | None = "f2", first: int = 10, docs: int = 1) -> Path:
    """``src/app.py`` and ``docs/`` quoting its ``pyobject`` (None: no option) at lines ``first``..``first + 2``
    (0-based)."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "src" / "app.py").write_text(MODULE)
    ref = f"txtfrag:src/app.py#line={first},{first + 3};{_pin(MODULE)}"
    for d in range(docs):
        options = f'{{ pyobject="{pyobject}" }}' if pyobject else ""
        (root / "docs" / f"p{d}.md").write_text(f"# Page\n\n![]({ref}){options}\n")
    return root


def _check(root: Path, cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    environment = {**os.environ, "TEXTFRAG_CACHE_DIR": str(cache), **env}
    return run_textfrag("check", "--root", str(root), str(root / "docs"), env=environment, timeout=120)


def _rows(cache: Path) -> dict[str, str]:
    """What the store at ``cache`` holds (nothing: no database, as a run that kept nothing leaves it)."""
    found = list(cache.glob("store-*.sqlite3"))
    if not found:
        return {}
    (store,) = found
    with sqlite3.connect(store) as db:
        return dict(db.execute("SELECT k, v FROM kept"))


def _check_here(root: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", "--root", str(root), str(root / "docs")], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def test_check_keeps_the_definitions_it_found_and_the_next_run_does_not_parse_the_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    first = _check(root, cache)
    assert first.returncode == 0, first.stderr
    rows = _rows(cache)
    key = f"py:{hashlib.md5(MODULE.encode()).hexdigest()}:{len(MODULE)}"
    assert {k for k in rows if k.startswith("py:")} == {key}
    assert '"f2":[11,13,11]' in rows[key]  # (1-based: the function's first and last line, and its name's)

    # the next run, in this process: the table comes from the store, and the file is not parsed
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(cache))
    intent.python_objects.cache_clear()

    def no_parse(text: str) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(pyoutline, "outline", no_parse)
    code, said = _check_here(root)
    assert (code, "all current" in said) == (0, True), said


def test_a_wrong_intent_is_found_wrong_with_the_store_as_without_it(tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p", pyobject="f3"), tmp_path / "cache"
    for env in ({}, {}, {"TEXTFRAG_NO_CACHE": "1"}):  # (the store empty, then full, then off)
        run = _check(root, cache, **env)
        assert run.returncode == 2 and "f3" in run.stdout + run.stderr, run.stdout + run.stderr


@pytest.mark.parametrize(
    "damage",
    ["not json", "[]", '{"f2": [1, 2]}', '{"f2": ["a", 2, 3]}', '{"f2": [1, 2, 3.5]}', "null", '{"f2": {"a": 1}}'],
)
def test_a_damaged_entry_is_found_again_from_the_text(tmp_path: Path, damage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    (store,) = cache.glob("store-*.sqlite3")
    with sqlite3.connect(store) as db:
        db.execute("UPDATE kept SET v = ? WHERE k LIKE 'py:%'", (damage,))
        db.execute("DELETE FROM kept WHERE k LIKE 'good:%'")
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(cache))
    intent.python_objects.cache_clear()
    code, said = _check_here(root)
    assert code == 0 and "all current" in said, said
    assert [v for k, v in _rows(cache).items() if k.startswith("py:") and '"f2":[11,13,11]' in v]  # (written again, right)


def test_a_folder_that_cannot_be_written_or_no_cache_leaves_check_as_it_was(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    run = _check(root, blocked / "cache")
    assert run.returncode == 0 and "all current" in run.stdout and not run.stderr.strip(), run.stderr
    off = tmp_path / "off"
    run = _check(root, off, TEXTFRAG_NO_CACHE="1")
    assert run.returncode == 0 and not off.exists()


def test_a_store_other_code_wrote_is_removed_once_unused_for_a_month(tmp_path: Path) -> None:
    """Another install's store (another version in another virtual environment) is kept while it is used:
    two installs do not remove each other's on every run; one no run opened for a month is removed."""
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    cache.mkdir(mode=0o700)
    month = time.time() - 31 * 86400
    for name in ("store-000000000000.sqlite3", "store-000000000000.sqlite3-wal", "store-111111111111.sqlite3"):
        (cache / name).write_bytes(b"older")
    for name in ("store-000000000000.sqlite3", "store-000000000000.sqlite3-wal"):
        os.utime(cache / name, (month, month))
    (cache / "kept.txt").write_text("not the store's")
    assert _check(root, cache).returncode == 0
    names = sorted(p.name for p in cache.iterdir() if not p.name.endswith(("-wal", "-shm")))
    assert len(names) == 3 and "kept.txt" in names and "store-111111111111.sqlite3" in names, names
    assert not any(n.startswith("store-000000000000") for n in os.listdir(cache))


def test_a_large_tree_checked_on_both_cores_keeps_what_each_process_found(tmp_path: Path) -> None:
    """(1,100 documents: check splits them between processes where there are two cores; each writes.)"""
    root, cache = _project(tmp_path / "p", docs=1100), tmp_path / "cache"
    run = _check(root, cache)
    assert run.returncode == 0 and "1100 references" in run.stdout, run.stdout + run.stderr
    assert sum(k.startswith("py:") for k in _rows(cache)) == 1


def test_symbols_read_by_tree_sitter_are_kept_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tree_sitter")
    root, cache = tmp_path / "p", tmp_path / "cache"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    js = "function one() {\n  return 1;\n}\n\nfunction two() {\n  return 2;\n}\n"
    (root / "src" / "app.js").write_text(js)
    ref = f"txtfrag:src/app.js#line=4,7;{_pin(js)}"
    (root / "docs" / "p.md").write_text(f'# Page\n\n![]({ref}){{ symbol="two" }}\n')
    run = _check(root, cache)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [k.split(":")[:2] for k in _rows(cache) if k.startswith("ts:")] == [["ts", "javascript"]]
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(cache))
    symbols._scanned.cache_clear()
    symbols._index.cache_clear()

    def no_parse(text: str, language: str) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(symbols, "_parsed", no_parse)
    code, said = _check_here(root)
    assert code == 0 and "all current" in said, said


def test_a_good_verdict_is_remembered_and_the_next_run_reads_the_file_for_its_digest_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textfrag.verdict import judging as verdict

    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    assert sum(k.startswith("good:") for k in _rows(cache)) == 1
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(cache))

    def no_quote(*args: object, **kwargs: object) -> None:
        raise AssertionError("judged again")

    monkeypatch.setattr(verdict, "quote", no_quote)
    code, said = _check_here(root)
    assert code == 0 and "all current" in said, said


@pytest.mark.parametrize("change", ["option", "another option", "file"])
def test_a_remembered_good_verdict_never_hides_what_changed(tmp_path: Path, change: str) -> None:
    """What the key leaves out, the pin fixes: a changed option, an option added or a changed file are
    judged again, and found wrong as without the store."""
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    page = root / "docs" / "p0.md"
    if change == "option":
        page.write_text(page.read_text().replace('pyobject="f2"', 'pyobject="f3"'))
    elif change == "file":
        (root / "src" / "app.py").write_text(MODULE.replace("return y", "return -y"))
    else:  # (a highlighted line past the quote's end)
        page.write_text(page.read_text().replace('pyobject="f2"', 'pyobject="f2" hl_lines="9"'))
    run = _check(root, cache)
    expected = {"option": (2, "f3"), "file": (1, "stale"), "another option": (2, "hl_lines")}[change]
    assert run.returncode == expected[0] and expected[1] in (run.stdout + run.stderr).lower(), run.stdout + run.stderr


def _settled(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """The store at ``cache`` for this process, and files settled after 50 ms rather than 2 s (the tests
    wait that long after the last write; the clock's granularity is a few milliseconds), whatever their
    size."""
    from textfrag.source import store

    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(cache))
    monkeypatch.setattr(store, "_SETTLED_NS", 50_000_000)
    monkeypatch.setattr(store, "WORTH_KEEPING", 0)  # (the small files of these tests kept too)


def _unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading or hashing a quoted file (one under src/) from here on fails the test; documents are read."""
    from textfrag.source import charsets
    from textfrag.source import reading as source

    read_all = source._read_all

    def no_read(fd: int, size: int, path: str, *rest: object) -> bytes:
        assert not path.startswith("src/"), f"{path} read again"
        return read_all(fd, size, path, *rest)  # type: ignore[arg-type]

    def no_hash(*args: object, **kwargs: object) -> None:
        raise AssertionError("hashed again")

    monkeypatch.setattr(source, "_read_all", no_read)
    monkeypatch.setattr(source, "_ascii_digest", no_hash)
    monkeypatch.setattr(charsets.Digest, "of", no_hash)


#: one small file; one large one (hashed a block at a time as it is read: its digest is kept the same way);
#: 300 (hashed in forked processes where there are two cores: each sends what is to be kept with its answer, and
#: the process that forked them writes it)
_KEPT_CASES = {
    "small": {"a.py": "x = 1\n" * 10},
    "large": {"a.py": "x = 1\n" * 200_000},
    "300 files": {f"m{i}.py": f"v = {i}\n" for i in range(300)},
}


@pytest.mark.parametrize("case", list(_KEPT_CASES))
def test_a_file_whose_metadata_holds_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    import time

    texts = _KEPT_CASES[case]
    root = _quoting(tmp_path / "p", texts)
    _settled(monkeypatch, tmp_path / "cache")
    time.sleep(0.1)
    assert _check_here(root)[0] == 0
    assert sum(k.startswith("digest:") for k in _rows(tmp_path / "cache")) == len(texts)
    _unread(monkeypatch)
    code, said = _check_here(root)
    assert code == 0 and f"{len(texts)} reference" in said and "all current" in said, said


@pytest.mark.parametrize("change", ["same size, times set back", "replaced by another file", "read too soon"])
def test_a_changed_file_is_read_again_whatever_its_times_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A file written again with the same size and its modification time set back, or replaced by a
    file with the same times, has another change time or inode: it is read, and found stale. A file
    changed just before a run is not kept at all (its change time could still be its next one's)."""
    import os
    import time

    root, cache = _project(tmp_path / "p", pyobject=None), tmp_path / "cache"
    app = root / "src" / "app.py"
    _settled(monkeypatch, cache)
    if change != "read too soon":
        time.sleep(0.1)
    assert _check_here(root)[0] == 0
    kept = sum(k.startswith("digest:") for k in _rows(cache))
    assert kept == (0 if change == "read too soon" else 1)
    before = app.stat()
    time.sleep(0.06)
    edited = MODULE.replace("x + 1", "x - 1")  # (the same size)
    if change == "replaced by another file":
        (root / "src" / "new.py").write_text(edited)
        os.utime(root / "src" / "new.py", ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(root / "src" / "new.py", app)
    else:
        app.write_text(edited)
        os.utime(app, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (app.stat().st_size, app.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    time.sleep(0.1)
    code, said = _check_here(root)
    assert code == 1 and "stale" in said, said


@pytest.mark.parametrize("damage", ['["utf-8", "x", 1, 2, false]', '["utf-8", 5, 1, 2, false]', "[1, 2]", '"text"', "{}"])
def test_a_damaged_digest_is_found_again_from_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    import time

    root, cache = _project(tmp_path / "p", pyobject=None), tmp_path / "cache"
    _settled(monkeypatch, cache)
    time.sleep(0.1)
    assert _check_here(root)[0] == 0
    (path,) = cache.glob("store-*.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE kept SET v = ? WHERE k LIKE 'digest:%'", (damage,))
        db.execute("DELETE FROM kept WHERE k LIKE 'good:%'")
    code, said = _check_here(root)
    assert code == 0 and "all current" in said, said


def test_only_a_file_worth_keeping_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file under 64 KB costs less to hash again than to look up: only the larger one is kept."""
    import time

    from textfrag.source import store

    root = _quoting(tmp_path / "p", {"small.py": "x = 1\n" * 100, "large.py": "x = 1\n" * 20_000})
    monkeypatch.setenv("TEXTFRAG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(store, "_SETTLED_NS", 50_000_000)
    time.sleep(0.1)
    assert _check_here(root)[0] == 0
    kept = [k for k in _rows(tmp_path / "cache") if k.startswith("digest:")]
    assert len(kept) == 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give the store to another user")
def test_a_store_another_user_owns_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from textfrag.source import charsets

    root, cache = _project(tmp_path / "p", pyobject=None), tmp_path / "cache"
    _settled(monkeypatch, cache)
    time.sleep(0.1)
    assert _check_here(root)[0] == 0
    for path in cache.iterdir():
        os.chown(path, 12345, 12345)
    hashed = []
    of = charsets.Digest.of
    monkeypatch.setattr(charsets.Digest, "of", lambda *a, **k: hashed.append(a) or of(*a, **k))
    code, said = _check_here(root)
    assert code == 0 and "all current" in said and len(hashed) == 1, said


def test_a_store_that_is_not_a_database_is_made_afresh(tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    (path,) = cache.glob("store-*.sqlite3")
    for kept in cache.glob(path.name + "*"):
        kept.write_bytes(b"not a database " * 100)
    run = _check(root, cache)
    assert run.returncode == 0 and "all current" in run.stdout and not run.stderr.strip(), run.stderr
    assert any(k.startswith("py:") for k in _rows(cache))
