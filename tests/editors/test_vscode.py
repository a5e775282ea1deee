"""The VS Code extension: ``editors/vscode`` builds from its lock file (npm), compiles, and
packages into a ``.vsix`` with ``@vscode/vsce``; the manifest starts ``textfrag lsp`` for
reStructuredText and Markdown."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from ..conftest import REPO

EXTENSION = REPO / "editors" / "vscode"


def test_the_extension_builds_and_packages_with_its_manifest(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES") == "1":
            pytest.fail("npm is required here")
        pytest.skip("no npm here")
    work = tmp_path / "vscode"
    shutil.copytree(EXTENSION, work, ignore=shutil.ignore_patterns("node_modules", "out", "*.vsix"))
    env = dict(os.environ, npm_config_audit="false", npm_config_fund="false", npm_config_update_notifier="false")
    prepared = Path(os.environ.get("TEXTFRAG_VSCODE") or "/nonexistent")
    lock = (EXTENSION / "package-lock.json").read_bytes()
    if (prepared / "node_modules").is_dir() and (prepared / "package-lock.json").read_bytes() == lock:
        # (`make test` ran `npm ci` from this very lock file beside the venv, while the wheel was built)
        (work / "node_modules").symlink_to(prepared / "node_modules", target_is_directory=True)
    else:
        r = subprocess.run([npm, "ci", "--silent"], cwd=work, capture_output=True, text=True, timeout=600, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
    # (packaging compiles: vsce runs the manifest's vscode:prepublish, `npm run compile`, first)
    vsix = work / "textfrag.vsix"
    r = subprocess.run(
        [str(work / "node_modules" / ".bin" / "vsce"), "package", "--allow-missing-repository", "-o", str(vsix)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert r.returncode == 0 and vsix.exists(), r.stdout + r.stderr
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
        compiled = z.read("extension/out/extension.js").decode()
    assert "extension/node_modules/vscode-languageclient/node.js" in names
    assert not any(n.startswith("extension/src/") for n in names)  # only what runs is shipped
    assert manifest["main"] == "./out/extension.js"
    assert set(manifest["activationEvents"]) == {"onLanguage:restructuredtext", "onLanguage:markdown"}
    assert manifest["contributes"]["configuration"]["properties"]["textfrag.command"]["default"] == ["textfrag", "lsp"]
    assert 'require("vscode-languageclient/node")' in compiled and '"restructuredtext"' in compiled
