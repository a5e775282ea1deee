"""The version of textfrag: one place, read by the package, the build (pyproject.toml) and the Makefile."""

__version__ = "0.1.0"
