"""The ``textfrag-myst`` command: what mystmd starts for every use of the directive and the role, kept to
what Python's start costs.

mystmd starts an executable plugin once for every use of a directive or role of it (a book of 500
references is 500 processes). A use here is only read and set aside: the directive and the role become a
placeholder node holding what mystmd sent, with nothing imported (:mod:`myst_textfrag.uses`). The transform, which
mystmd runs once per page, replaces each placeholder with the core's verdict
(:func:`myst_textfrag.plugin.resolve_pending`), with one cache of the quoted files for the page. Anything
else (the specification, the transform) is :func:`myst_textfrag.plugin.run`'s.
"""

from __future__ import annotations

import sys

from .uses import NAME, placeholder, refused


def run(argv: list[str] | None = None) -> int:
    """``textfrag-myst [--directive txtfrag | --role txtfrag | --transform txtfrag-problems]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] in ("--directive", "--role") and args[1] == NAME:
        sent = sys.stdin.read()
        why = refused(sent)
        if why is not None:
            print(why, file=sys.stderr)
            return 2
        sys.stdout.write(placeholder(args[0][2:], sent))
        return 0
    from .plugin import run as run_plugin  # (the specification, the transform, and a wrong command line)

    return run_plugin(args)


def main() -> None:
    """Entry point of the ``textfrag-myst`` console script."""
    sys.exit(run())
