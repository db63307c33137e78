"""The traversal figure's capacity fit (an LRU pass at a dozen capacities) is worked out once
per measured state, not at every redraw."""

from __future__ import annotations

from gpuviz.models.traversal_fit import _kept_fit, capacity_fit
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_a_redraw_reuses_the_capacity_fit():
    state = load_scenario(scenario_dir() / "traversal-h200-l2.json").at_step(1)
    params = compute_all(state, ("traversal",))["traversal"].params
    first = capacity_fit(params, 1.0e6, 0.1)
    before = _kept_fit.cache_info()
    again = capacity_fit(params, 1.0e6, 0.1)
    assert _kept_fit.cache_info().hits == before.hits + 1
    assert again == first
