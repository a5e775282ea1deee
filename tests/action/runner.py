"""The composite action's steps (action.yml) run as GitHub's runner runs them, on this machine: each step's
``if`` and ``env`` evaluated from a context (the inputs, the event, the steps' outputs), its ``run`` in
bash with GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH as files and folders of a
test. Only what GitHub's servers do is stood in for: ``gh`` is a script that keeps the pull request's
comments in a JSON file (tests/action/gh.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..conftest import REPO

ACTION = REPO / "action.yml"
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def lookup(context: dict[str, Any], dotted: str) -> Any:
    value: Any = context
    for part in dotted.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return "" if value is None else value


def evaluate(context: dict[str, Any], expression: str) -> Any:
    """The expressions action.yml uses: a || b, a && b, x == 'literal', x != 'literal', a context's value."""
    if "||" in expression:
        for part in expression.split("||"):
            value = evaluate(context, part.strip())
            if value not in ("", None, False):
                return value
        return ""
    if "&&" in expression:
        return all(evaluate(context, part.strip()) for part in expression.split("&&"))
    compared = re.fullmatch(r"(.+?)\s*(==|!=)\s*'([^']*)'", expression)
    if compared:
        left = str(evaluate(context, compared.group(1).strip()))
        return (left == compared.group(3)) == (compared.group(2) == "==")
    if expression.startswith("'") and expression.endswith("'"):
        return expression[1:-1]
    return lookup(context, expression)


def substitute(context: dict[str, Any], text: str) -> str:
    return _EXPR.sub(lambda m: str(evaluate(context, m.group(1))), text)


@dataclass
class Ran:
    name: str
    code: int
    out: str
    err: str


@dataclass
class Runner:
    """One job's run of the action in ``workspace`` (a git work tree), with ``temp`` as RUNNER_TEMP."""

    workspace: Path
    temp: Path
    inputs: dict[str, str]
    github: dict[str, Any]
    bin: Path  # (gh, the stand-in for GitHub's API)
    only: tuple[str, ...] = ()  # (run only these steps)
    skip: tuple[str, ...] = ()  # (steps already run: the install, once per test run)
    state: Path | None = None  # (the stand-in's comments)
    ran: list[Ran] = field(default_factory=list)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)

    def run(self) -> list[Ran]:
        action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
        defaults = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        context: dict[str, Any] = {"github": self.github, "steps": {}}
        context["inputs"] = {k: substitute(context, v) for k, v in {**defaults, **self.inputs}.items()}
        path_file, summary = self.temp / "github_path", self.temp / "summary.md"
        path_file.touch()
        state = self.state or self.temp / "gh-state.json"
        for step in action["runs"]["steps"]:
            if (self.only and step["name"] not in self.only) or step["name"] in self.skip:
                continue
            condition = step.get("if")
            if condition is not None and not evaluate(context, condition):
                continue
            output = self.temp / f"output-{len(self.ran)}"
            output.write_text("", encoding="utf-8")
            extra = [p for p in path_file.read_text(encoding="utf-8").splitlines() if p]
            env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTHON"))}
            env.update(
                PATH=os.pathsep.join([*extra, str(self.bin), os.environ["PATH"]]),
                GITHUB_ACTIONS="true",
                GITHUB_ACTION_PATH=str(REPO),
                GITHUB_OUTPUT=str(output),
                GITHUB_PATH=str(path_file),
                GITHUB_STEP_SUMMARY=str(summary),
                GITHUB_WORKSPACE=str(self.workspace),
                RUNNER_TEMP=str(self.temp),
                GH_STATE=str(state),
            )
            env.update({k: substitute(context, str(v)) for k, v in (step.get("env") or {}).items()})
            r = subprocess.run(
                ["bash", "-e", "-c", step["run"]], cwd=self.workspace, env=env, capture_output=True, text=True, timeout=600
            )
            self.ran.append(Ran(step["name"], r.returncode, r.stdout, r.stderr))
            said = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines() if "=" in line)
            if "id" in step:
                context["steps"][step["id"]] = {"outputs": said}
                self.outputs[step["id"]] = said
            if r.returncode:
                break  # (a failed step ends the job)
        return self.ran

    def step(self, name: str) -> Ran:
        return next(r for r in self.ran if r.name == name)

    @property
    def summary(self) -> str:
        path = self.temp / "summary.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""


GH = f"""#!{sys.executable}
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from gh import main
sys.exit(main(sys.argv[1:]))
"""
