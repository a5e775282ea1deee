"""``python -m textfrag``: the command line."""

from .cli import run

run()
