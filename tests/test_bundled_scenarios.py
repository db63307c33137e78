"""Every bundled scenario is loaded, computed, built in every theme and exported, at every step."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import THEMES
from gpuviz.models.jsonable import to_jsonable
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

SCENARIOS = bundled_scenarios()


def test_there_is_a_default_scenario_and_it_is_the_n130_launch():
    from gpuviz.scenario import default_scenario_path

    s = load_scenario(default_scenario_path())
    assert s.section("launch").n == 130 and s.section("launch").block == (64,)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_bundled_scenario_computes_builds_and_exports(path):
    scenario = load_scenario(path)
    assert scenario.title and scenario.description, "a bundled scenario explains itself"
    states = [-1, *range(len(scenario.steps))]
    for k in states:
        shown = scenario.at_step(k)
        results = compute_all(shown)
        json.dumps({pid: to_jsonable(r) for pid, r in results.items()})
        for pid in shown.panels:
            for name, theme in THEMES.items():
                fig = figure_for(shown, pid, theme, scenario.step_selection(k))
                assert fig.width > 0 and fig.height > 0, (pid, name)
            ET.fromstring(figure_to_svg(figure_for(shown, pid, THEMES["print"])))


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.stem)
def test_a_step_that_asks_for_a_prediction_is_a_question_step(path):
    """A step titled "Predict: …" (or whose caption asks the room to predict first) veils its
    answer until the reveal only as a question step: mma-wgmma-warpgroup's "Predict:
    wait_group 1, then read D?" was a plain step whose caption gave the answer at once."""
    for k, step in enumerate(load_scenario(path).steps):
        asks = step.title.lower().startswith("predict") or "predict first" in step.caption.lower()
        assert step.predict or not asks, f"step {k + 1} “{step.title}” asks but is no question"
