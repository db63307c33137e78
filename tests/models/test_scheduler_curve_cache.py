"""The scheduler figure's uncapped-prediction curve is computed once per state, not at every
redraw (92 points of the bandwidth model: 13 ms of each redraw of scheduler-h200-dram)."""

from __future__ import annotations

from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import view_target
from gpuviz.figures.theme import theme
from gpuviz.models.scheduler import uncapped_sm_prediction
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_a_redraw_reuses_the_uncapped_curve():
    state = load_scenario(scenario_dir() / "scheduler-h200-dram.json")
    result = compute_all(state, ("scheduler",))["scheduler"]
    target = view_target(290, 1.4)
    first = build_figure("scheduler", result, frozenset(), theme("screen"), target)
    before = uncapped_sm_prediction.cache_info()
    again = build_figure("scheduler", result, frozenset(), theme("screen"), target)
    after = uncapped_sm_prediction.cache_info()
    assert after.misses == before.misses and after.hits > before.hits
    assert again.design == first.design
