"""An expression that fails only for the warp a linked panel follows (sectors follows the block
and warp selected in launch) is reported when the file is loaded, with its path, in the base or
in the step whose state makes it fail: never met later by compute."""

from __future__ import annotations

import json

import pytest

from gpuviz.scenario import ScenarioError, loads_scenario


def scenario(expression: str, steps=()) -> str:
    return json.dumps({"version": 1, "panels": ["launch", "sectors"],
                       "launch": {"n": 130, "block": [64]},
                       "sectors": {"pattern": {"kind": "expression", "expression": expression}},
                       "steps": list(steps)})


def test_a_step_that_selects_the_block_where_the_expression_divides_by_zero_is_refused():
    text = scenario("lane // (blockIdx.x - 2) * 0 + lane",
                    [{"title": "tail block", "changes": {"launch": {"selected_block": 2}}}])
    with pytest.raises(ScenarioError) as err:
        loads_scenario(text, "linked.json")
    (line,) = err.value.lines()
    assert line.startswith("linked.json: steps[0].changes.sectors.pattern.expression: ")
    assert "division by zero" in line and "follows from launch" in line


def test_the_same_expression_is_fine_while_the_followed_block_keeps_it_defined():
    s = loads_scenario(scenario("lane // (blockIdx.x - 2) * 0 + lane",
                                [{"title": "block 1", "changes": {"launch": {"selected_block": 1}}}]))
    assert [step.title for step in s.steps] == ["block 1"]
