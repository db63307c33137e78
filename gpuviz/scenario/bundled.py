"""The scenarios that ship with gpuviz (``gpuviz/scenarios/*.json``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEFAULT_SCENARIO = "launch-n130.json"


def scenario_dir() -> Path:
    return Path(str(resources.files("gpuviz") / "scenarios"))


def bundled_scenarios() -> list[Path]:
    return sorted(scenario_dir().glob("*.json"))


def default_scenario_path() -> Path:
    return scenario_dir() / DEFAULT_SCENARIO
