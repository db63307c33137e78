"""A step's ``parts``: checked against the panels' parts, kept through a save, and read per
panel."""

from __future__ import annotations

import pytest

from gpuviz.scenario import ScenarioError, loads_scenario
from gpuviz.scenario.encode import dumps_scenario

TWO_PANELS = ('{"version": 1, "panels": ["launch", "sectors"], "steps": [%s]}')


def _load(step: str):
    return loads_scenario((TWO_PANELS % step).encode("utf-8"), "s.json")


def test_a_part_no_panel_has_names_the_path_and_the_parts():
    with pytest.raises(ScenarioError) as info:
        _load('{"title": "a", "parts": ["map", "mapp"]}')
    (line,) = info.value.lines()
    assert line.startswith("s.json: steps[0].parts[1]: 'mapp' is not a part of launch or sectors")
    assert "did you mean 'map'?" in line


def test_a_focused_step_names_parts_of_its_focus_only():
    with pytest.raises(ScenarioError) as info:
        _load('{"title": "a", "focus": "launch", "parts": ["map"]}')
    assert "steps[0].parts[0]: 'map' is not a part of launch" in info.value.lines()[0]


def test_each_panel_shows_the_steps_parts_it_has_and_a_save_keeps_them():
    scenario = _load('{"title": "a", "parts": ["sweep", "grid", "map"]}')
    assert scenario.step_parts(0, "sectors") == ("sweep", "map")
    assert scenario.step_parts(0, "launch") == ("grid",)
    again = loads_scenario(dumps_scenario(scenario).encode("utf-8"), "again.json")
    assert again.steps[0].parts == ("sweep", "grid", "map")
