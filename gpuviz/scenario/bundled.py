"""The scenarios that ship with gpuviz: the top-level ``scenarios/`` folder, installed as the
package ``gpuviz.scenarios``.

Looked up as that package (``files("gpuviz.scenarios")``), never as a folder inside the
``gpuviz`` package: it is mapped into the package at build time, so it is not under ``gpuviz/`` in
a source tree or an editable install. It is a regular package (it has an ``__init__.py``), so
``files`` gives one real folder, never a namespace package's ``MultiplexedPath``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEFAULT_SCENARIO = "launch-n130.json"


def scenario_dir() -> Path:
    return Path(str(resources.files("gpuviz.scenarios")))


def bundled_scenarios() -> list[Path]:
    return sorted(scenario_dir().glob("*.json"))


def default_scenario_path() -> Path:
    return scenario_dir() / DEFAULT_SCENARIO
