"""The project: a build's configuration (Sphinx ``conf.py``, ``mkdocs.yml``, ``zensical.toml``,
``myst.yml``) read without running it, found as every command finds it, and the set of documents the
build reads.

May import: the layers below it (``textfrag.verdict`` and under).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._surface import exported

if TYPE_CHECKING:  # (the surface, imported when first used: a command imports only the modules it runs)
    from .buildset import read_by_build
    from .config import (
        BuildConfig,
        forms_of,
        html_blocks_of,
        read_config,
        snippet_bases,
        snippet_settings,
    )
    from .discovery import CONFIG_NAMES, LAYOUTS, find_projects, nearest_config
    from .myst_conf import myst_environment
    from .setting_table import SETTINGS, checked, from_environment, setting, settings_of
    from .settings import lets_pass
    from .sphinx_project import SphinxProject, sphinx_project_of
    from .switch import guard_switched_on

__all__ = [
    "SETTINGS",
    "checked",
    "from_environment",
    "settings_of",
    "myst_environment",
    "guard_switched_on",
    "lets_pass",
    "setting",
    "BuildConfig",
    "CONFIG_NAMES",
    "LAYOUTS",
    "SphinxProject",
    "find_projects",
    "forms_of",
    "html_blocks_of",
    "nearest_config",
    "read_by_build",
    "read_config",
    "snippet_bases",
    "snippet_settings",
    "sphinx_project_of",
]

_WHERE = {
    "SETTINGS": "setting_table",
    "checked": "setting_table",
    "from_environment": "setting_table",
    "settings_of": "setting_table",
    "myst_environment": "myst_conf",
    "setting": "setting_table",
    "lets_pass": "settings",
    "guard_switched_on": "switch",
    "BuildConfig": "config",
    "CONFIG_NAMES": "discovery",
    "LAYOUTS": "discovery",
    "SphinxProject": "sphinx_project",
    "find_projects": "discovery",
    "forms_of": "config",
    "html_blocks_of": "config",
    "nearest_config": "discovery",
    "read_by_build": "buildset",
    "read_config": "config",
    "snippet_bases": "config",
    "snippet_settings": "config",
    "sphinx_project_of": "sphinx_project",
}


def __getattr__(name: str) -> object:
    return exported(__name__, _WHERE, name)
