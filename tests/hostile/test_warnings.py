"""The warning channel: what is computed exactly but likely not meant is accepted and said,
named by path, capped and escaped as problems are."""

from __future__ import annotations

import json

from gpuviz.registry import panel
from gpuviz.scenario import compute_all, loads_scenario
from gpuviz.scenario.problems import MAX_REPORTED, warning_lines
from gpuviz.scenario.warnings import scenario_warnings, state_warnings


def _short(grid: int, steps: list[dict] | None = None):
    return loads_scenario(json.dumps({"version": 1, "panels": ["launch"], "launch": {
        "n": 100_000, "grid": [grid], "block": [32]}, "steps": steps or []}))


def test_a_grid_covering_32_of_100000_elements_is_computed_and_warned():
    scenario = _short(1)
    assert compute_all(scenario)["launch"].valid_threads == 32
    assert not panel("launch").problems(scenario.section("launch"))
    [said] = scenario_warnings(scenario)
    assert said.path == "launch.grid" and "99,968 are never processed" in said.message


def test_warnings_are_capped_and_escaped_like_problems():
    steps = [{"title": f"s{k}", "changes": {"launch": {"grid": [k + 2]}}} for k in range(250)]
    scenario = _short(1, steps)
    found = scenario_warnings(scenario)
    assert len(found) == 251  # every step's grid covers a different share
    assert found[1].path == "steps[0].changes.launch.grid"
    lines = warning_lines("a\x1b[31m.json", found)
    assert len(lines) == MAX_REPORTED + 1
    assert lines[-1] == "a\\x1b[31m.json: $: warning: and 201 more warnings"
    assert all(line.isprintable() for line in lines)


def test_a_state_that_covers_every_element_says_nothing():
    scenario = _short(1, [{"title": "fixed", "changes": {"launch": {"grid": [3125]}}}])
    assert [p.path for p in scenario_warnings(scenario)] == ["launch.grid"]  # the fix is silent
    assert state_warnings(scenario.at_step(0)) == ()
