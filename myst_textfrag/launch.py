"""The ``textfrag-myst`` command: what mystmd starts for every use of the directive and the role, kept to
what Python's start costs.

mystmd starts an executable plugin once for every use of a directive or role of it (a book of 500
references is 500 processes). A use here is only read and set aside: the directive and the role become a
placeholder node holding what mystmd sent, with nothing imported beyond ``json``. The transform, which
mystmd runs once per page, replaces each placeholder with the core's verdict
(:func:`myst_textfrag.plugin.resolve_pending`), with one cache of the quoted files for the page. Anything
else (the specification, the transform) is :func:`myst_textfrag.plugin.run`'s.
"""

from __future__ import annotations

import json
import sys

from .uses import NAME, BadInput, placeholder, received


def run(argv: list[str] | None = None) -> int:
    """``textfrag-myst [--directive txtfrag | --role txtfrag | --transform txtfrag-problems]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] in ("--directive", "--role") and args[1] == NAME:
        try:
            data = received()
        except BadInput as bad:
            print(bad, file=sys.stderr)
            return 2
        if not isinstance(data, dict):
            print("textfrag-myst: what mystmd sent is not a JSON object", file=sys.stderr)
            return 2
        try:
            shown = json.dumps([placeholder(args[0][2:], data)], ensure_ascii=False)
        except (RecursionError, ValueError):  # (options nested too deeply to write, or not JSON's numbers)
            print("textfrag-myst: what mystmd sent is nested too deeply to be read", file=sys.stderr)
            return 2
        sys.stdout.write(shown)
        return 0
    from .plugin import run as run_plugin  # (the specification, the transform, and a wrong command line)

    return run_plugin(args)


def main() -> None:
    """Entry point of the ``textfrag-myst`` console script."""
    sys.exit(run())
