"""The scenario format: load, validate, save, schema, and computing a scenario's panels."""

from gpuviz.scenario.bundled import bundled_scenarios, default_scenario_path
from gpuviz.scenario.compute import compute_all, effective_params
from gpuviz.scenario.document import FORMAT_VERSION, Scenario, Step
from gpuviz.scenario.io import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    save_scenario,
    to_json,
    write_atomic,
)
from gpuviz.scenario.problems import Problem, ScenarioError
from gpuviz.scenario.schema import scenario_schema

__all__ = [
    "FORMAT_VERSION", "Problem", "Scenario", "ScenarioError", "Step", "bundled_scenarios",
    "compute_all", "default_scenario_path", "dumps_scenario", "effective_params", "load_scenario",
    "loads_scenario", "save_scenario", "scenario_schema", "to_json", "write_atomic",
]
