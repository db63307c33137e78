"""Whatever a scenario file says, loading it either succeeds or raises ScenarioError with JSON
paths; and whatever loads, computes and draws. Hypothesis mutates the bundled scenarios one
value at a time, with values a user might plausibly type (and some they might not)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import ScenarioError, bundled_scenarios, compute_all, loads_scenario

BUNDLED = [json.loads(p.read_text()) for p in bundled_scenarios()]

values = st.one_of(
    st.integers(-3, 3),
    st.integers(0, 70),
    st.sampled_from([127, 128, 129, 255, 256, 1023, 1024, 1025, 4096, 65535, 65536, 2**31, 2**40]),
    st.floats(-10, 1e6, allow_nan=False),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["lane", "lane * 2", "lane // 0", "31 - lane", "(", "row-major", "hilbert",
                     "stride", "column", "expression", "gto", "lrr", "128B", "none"]),
    st.lists(st.integers(-2, 40), max_size=40),
)


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list) and node and not all(isinstance(x, (int, float)) for x in node):
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def _set(node, path, value):
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_single_change_loads_with_a_clear_error_or_computes_and_draws(data):
    scenario = json.loads(json.dumps(data.draw(st.sampled_from(BUNDLED))))
    leaves = [p for p in _leaves(scenario) if p and p[0] not in ("title", "description")]
    path = data.draw(st.sampled_from(leaves))
    _set(scenario, path, data.draw(values))
    text = json.dumps(scenario)
    try:
        loaded = loads_scenario(text.encode(), "fuzz.json")
    except ScenarioError as err:
        assert err.lines() and all(line.startswith("fuzz.json: ") for line in err.lines())
        return
    for k in [-1, *range(len(loaded.steps))]:
        shown = loaded.at_step(k)
        compute_all(shown)
        for pid in shown.panels:
            figure_for(shown, pid, theme("screen"))
