"""The scenario format: load, validate, save, schema, and computing a scenario's panels."""

from gpuviz.atomic import write_atomic
from gpuviz.scenario.bundled import bundled_scenarios, default_scenario_path
from gpuviz.scenario.compute import compute_all, effective_params
from gpuviz.scenario.document import FORMAT_VERSION, Scenario, Step
from gpuviz.scenario.encode import dumps_scenario, save_scenario, to_json
from gpuviz.scenario.io import load_scenario, loads_scenario
from gpuviz.scenario.problems import Problem, ScenarioError
from gpuviz.scenario.schema import scenario_schema

__all__ = [
    "FORMAT_VERSION", "Problem", "Scenario", "ScenarioError", "Step", "bundled_scenarios",
    "compute_all", "default_scenario_path", "dumps_scenario", "effective_params", "load_scenario",
    "loads_scenario", "save_scenario", "scenario_schema", "to_json", "write_atomic",
]
