"""A store that never decides: every input of what it keeps is in its key (the grammar's version, the parse
limits), it is trusted as git trusts a repository (another user's folder or file is not read), and no
state of it makes a command crash. A property: check with the store says what check without it says."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MODULE = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(5))


def _pin(text: str) -> str:
    return f"length={len(text)};md5={hashlib.md5(text.encode()).hexdigest()}"


def _project(root: Path) -> Path:
    """``docs/p.md`` quoting ``f2`` of ``src/app.py`` by its lines, pinned, with ``pyobject``."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "src" / "app.py").write_text(MODULE)
    (root / "docs" / "p.md").write_text(f'# P\n\n![](txtfrag:src/app.py#line=10,13;{_pin(MODULE)}){{ pyobject="f2" }}\n')
    return root


def _check(
    root: Path, cache: Path, *argv: str, user: int | None = None, site: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``textfrag check`` of the project as a process; as ``user`` (with ``site``, textfrag as installed, in a
    folder that user may read: the clone and its venv may live where no other user can enter)."""
    environment = {**os.environ, "TEXTFRAG_CACHE_DIR": str(cache), **env}
    environment.pop("TEXTFRAG_NO_CACHE", None)
    python, cwd = sys.executable, None
    if user is not None:
        assert site is not None
        python, cwd = getattr(sys, "_base_executable", sys.executable), str(site)
        environment.update(PYTHONPATH=str(site), PYTHONNOUSERSITE="1", HOME=str(site))
    command = [python, "-m", "textfrag", "check", "--root", str(root), *argv, str(root / "docs")]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, env=environment, cwd=cwd, timeout=120)


def _installed_for_everyone(folder: Path) -> Path:
    """textfrag and what it requires, as installed in this environment (the wheel's files, not the source
    tree), copied into ``folder`` for another user: what that user's ``python -m textfrag`` imports."""
    from importlib.metadata import distribution

    from packaging.requirements import Requirement

    site = folder / "site"
    wanted, seen = ["textfrag"], set()
    while wanted:
        name = wanted.pop()
        dist = distribution(name)
        if dist.metadata["Name"].lower() in seen:
            continue
        seen.add(dist.metadata["Name"].lower())
        for f in dist.files or ():
            source = Path(str(dist.locate_file(f)))
            if f.parts[0] == ".." or not source.is_file() or "__pycache__" in f.parts:
                continue  # (scripts beside the venv's bin, byte code: not imported from here)
            target = site / f
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        for requirement in dist.requires or ():
            r = Requirement(requirement)
            if r.marker is None or r.marker.evaluate({"extra": ""}):
                wanted.append(r.name)
    for path in [site, *site.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return site


def _kinds(cache: Path) -> list[str]:
    (store,) = cache.glob("store-*.sqlite3")
    with sqlite3.connect(store) as db:
        return sorted(k for (k,) in db.execute("SELECT k FROM kept"))


def test_a_verdict_found_under_one_parse_limit_is_not_reused_under_another(tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache, TEXTFRAG_PARSE_SECONDS="120").returncode == 0
    assert _check(root, cache, TEXTFRAG_PARSE_SECONDS="1").returncode == 0
    good = [k for k in _kinds(cache) if k.startswith("good:")]
    assert len(good) == 2, good  # (each limit its own key: the second run judged the reference itself)


def test_definitions_kept_under_one_grammar_version_are_not_used_under_another(tmp_path: Path) -> None:
    """tree-sitter-c 0.21.4 put first on the path (as an upgrade or a downgrade would) finds nothing kept by
    the installed grammar: each version's definitions have their own key."""
    pytest.importorskip("tree_sitter_c")
    older = tmp_path / "older"
    uv = Path(sys.executable).parent / "uv"
    installer = (
        [str(uv), "pip", "install", "--python", sys.executable] if uv.exists() else [sys.executable, "-m", "pip", "install"]
    )
    got = subprocess.run(
        [*installer, "--quiet", "--no-deps", "--target", str(older), "tree-sitter-c==0.21.4"], capture_output=True
    )
    if got.returncode != 0:
        pytest.skip("tree-sitter-c 0.21.4 cannot be installed here: " + got.stderr.decode()[-300:])
    root, cache = tmp_path / "p", tmp_path / "cache"
    header = "struct point {\n  int x;\n  int y;\n};\n\nint area(struct point p);\n"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "geo.h").write_text(header)
    (root / "docs" / "p.md").write_text(f'# P\n\n![](txtfrag:src/geo.h#line=0,4;{_pin(header)}){{ symbol="point" }}\n')
    assert _check(root, cache).returncode == 0
    assert _check(root, cache, PYTHONPATH=str(older)).returncode in (0, 2)
    grammars = {k.split(":")[3] for k in _kinds(cache) if k.startswith("ts:c:")}
    assert grammars == {"tree_sitter_c 0.21.4", "tree_sitter_c 0.24.2"} or len(grammars) == 2, grammars


def _enterable_by_everyone(folder: Path) -> bool:
    """Whether every user may enter ``folder``: it and every folder above it let others search them."""
    try:
        return all(p.stat().st_mode & stat.S_IXOTH for p in (folder, *folder.parents))
    except OSError:
        return False


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder every user may enter, removed afterwards: in the temporary folder when others may enter it
    (pytest's own is its owner's alone, and TMPDIR may be a 0700 folder), else in /tmp, /var/tmp or
    /dev/shm; its files are made for others to read whatever the umask."""
    places = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]
    place = next((p for p in places if p.is_dir() and _enterable_by_everyone(p)), None)
    if place is None:
        pytest.fail("no temporary folder here lets another user in (TMPDIR, /tmp, /var/tmp, /dev/shm)")
    folder = Path(tempfile.mkdtemp(prefix="textfrag-users-", dir=place))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _as_root() -> None:
    if not hasattr(os, "getuid") or os.getuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("two users are made with setpriv, as root")


NOBODY = 65534


def test_a_store_another_user_owns_is_not_read_and_the_run_says_so_once(shared_tmp: Path) -> None:
    """Root's store, in a folder nobody may read: nobody's check refuses it (it is not nobody's) and reads
    every file; root's check, in a folder nobody made, refuses nobody's the same way."""
    _as_root()
    root = _project(shared_tmp / "p")
    for folder in (shared_tmp, root, root / "src", root / "docs"):
        folder.chmod(0o755)
    for file in (root / "src" / "app.py", root / "docs" / "p.md"):
        file.chmod(0o644)  # (whatever the umask: nobody reads the project as root's check does)
    cache = shared_tmp / "cache"
    assert _check(root, cache).returncode == 0  # root keeps what it found
    os.chmod(cache, 0o755)
    for f in cache.iterdir():
        f.chmod(0o644)
    r = _check(root, cache, user=NOBODY, site=_installed_for_everyone(shared_tmp))
    assert r.returncode == 0 and "all current" in r.stdout, r.stderr
    assert r.stderr.count("belongs to another user") == 1 and "Traceback" not in r.stderr, r.stderr
    theirs = shared_tmp / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, NOBODY, NOBODY)
    r = _check(root, theirs)
    assert r.returncode == 0 and "belongs to another user" in r.stderr and not list(theirs.iterdir()), r.stderr


def test_a_planted_wal_cannot_claim_a_stale_file_is_current(shared_tmp: Path) -> None:
    """Another user plants a -wal beside root's store (a folder others may write, sticky as /tmp is): root's
    check refuses the store and finds the stale quote stale, with no traceback."""
    _as_root()
    root = _project(shared_tmp / "p")
    cache = shared_tmp / "cache"
    assert _check(root, cache).returncode == 0
    (store,) = cache.glob("store-*.sqlite3")
    cache.chmod(0o1777)
    planted = Path(f"{store}-wal")
    planted.unlink(missing_ok=True)
    planted.write_bytes(b"\0" * 4096)
    os.chown(planted, NOBODY, NOBODY)
    planted.chmod(0o644)
    (root / "src" / "app.py").write_text(MODULE.replace("x + 2", "x + 3"))
    r = _check(root, cache)
    assert r.returncode == 1 and "stale" in r.stdout and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "can be written by other users" in r.stderr or "belongs to another user" in r.stderr


def _current_then_stale(root: Path, cache: Path, runs: int = 1) -> None:
    """check finds the quote current (``runs`` times), then, once the quoted function changed, stale; never
    a traceback, whatever the store's state."""
    for _ in range(runs):
        r = _check(root, cache)
        assert r.returncode == 0 and "all current" in r.stdout and "Traceback" not in r.stderr, r.stderr
    (root / "src" / "app.py").write_text(MODULE.replace("x + 2", "x + 3"))
    r = _check(root, cache)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr


def test_a_lock_held_forever_by_another_process_leaves_the_verdict_as_it_is(tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    (store,) = cache.glob("store-*.sqlite3")
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        _current_then_stale(root, cache)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_two_installs_of_one_version_name_one_store(tmp_path: Path) -> None:
    """The same wheel installed twice, by different installers (RECORD lists byte code and INSTALLER
    differently): both name the same store, so neither removes the other's."""
    import textfrag

    site = Path(textfrag.__file__).parent.parent
    (info,) = site.glob("textfrag-*.dist-info")
    names = []
    for k, extra in enumerate(["textfrag/__pycache__/x.cpython-311.pyc,,\n", "textfrag-x.dist-info/INSTALLER,sha256=abc,3\n"]):
        copy = tmp_path / f"site{k}"
        shutil.copytree(site / "textfrag", copy / "textfrag")
        shutil.copytree(info, copy / info.name)
        record = copy / info.name / "RECORD"
        record.write_text(record.read_text() + extra)
        probe = "from textfrag.source import store; print(store.default_store().path.name)"
        env = {**os.environ, "PYTHONPATH": str(copy)}
        got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
        names.append(got.stdout.strip())
    assert names[0] == names[1] and names[0].startswith("store-"), names


@pytest.mark.parametrize(
    "state", ["folder in the database's place", "read-only folder", "group-writable folder", "link in the database's place"]
)
def test_no_state_of_the_store_makes_a_command_crash(tmp_path: Path, state: str) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache).returncode == 0
    (store,) = cache.glob("store-*.sqlite3")
    for f in cache.glob("store-*"):
        f.unlink()
    if state == "folder in the database's place":
        store.mkdir()
    elif state == "read-only folder":
        cache.chmod(0o500)
    elif state == "group-writable folder":
        cache.chmod(0o770)
    else:
        store.symlink_to(tmp_path / "elsewhere.sqlite3")
    try:
        _current_then_stale(root, cache, runs=2)
    finally:
        cache.chmod(0o700)
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_no_cache_neither_reads_nor_keeps(tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    assert _check(root, cache, "--no-cache").returncode == 0
    assert not cache.exists() or not list(cache.iterdir())


def test_the_store_and_its_companions_are_the_users_alone(tmp_path: Path) -> None:
    """The database is made 0600 whatever the umask, so that SQLite's -wal and -shm are too."""
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    old = os.umask(0o002)
    try:
        assert _check(root, cache).returncode == 0
    finally:
        os.umask(old)
    modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in cache.iterdir()}
    assert modes and all(mode & 0o077 == 0 for mode in modes.values()), modes
    assert stat.S_IMODE(cache.stat().st_mode) & 0o022 == 0


EDITS = st.lists(
    st.tuples(st.sampled_from(["grow", "shrink", "touch a line", "same size", "restore"]), st.integers(0, 4)),
    min_size=1,
    max_size=4,
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["pyobject", "none", "lines"]), first=st.integers(0, 20), edits=EDITS)
def test_check_with_the_store_says_what_check_without_it_says(
    tmp_path_factory: pytest.TempPathFactory, option: str, first: int, edits: list[tuple[str, int]]
) -> None:
    """For generated references and edits between runs, the store changes no verdict and no word."""
    import io

    from textfrag.cli import main

    base = tmp_path_factory.mktemp("same")
    root, cache = _project(base / "p"), base / "cache"
    name = f"f{first % 5}"
    start = (first % 5) * 5
    options = {"pyobject": f'{{ pyobject="{name}" }}', "none": "", "lines": '{ lines="1-2" }'}[option]
    (root / "docs" / "p.md").write_text(f"# P\n\n![](txtfrag:src/app.py#line={start},{start + 3};{_pin(MODULE)}){options}\n")
    text = MODULE
    for kind, at in edits:
        if kind == "grow":
            text += f"\n\ndef g{at}():\n    return {at}\n"
        elif kind == "shrink":
            text = text[: len(text) // 2]
        elif kind == "touch a line":
            text = text.replace(f"x + {at}", f"x - {at}")
        elif kind == "same size":
            text = text.replace(f"x + {at}", f"x * {at}")
        else:
            text = MODULE
        (root / "src" / "app.py").write_text(text)
        said = []
        for env in ({"TEXTFRAG_CACHE_DIR": str(cache)}, {"TEXTFRAG_NO_CACHE": "1"}, {"TEXTFRAG_CACHE_DIR": str(cache)}):
            saved = {k: os.environ.get(k) for k in ("TEXTFRAG_CACHE_DIR", "TEXTFRAG_NO_CACHE")}
            os.environ.pop("TEXTFRAG_NO_CACHE", None)
            os.environ.update(env)
            try:
                out, err = io.StringIO(), io.StringIO()
                code = main(["check", "--root", str(root), str(root / "docs")], stdout=out, stderr=err)
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            said.append((code, out.getvalue(), err.getvalue()))
        assert said[0] == said[1] == said[2], (kind, at, said)
