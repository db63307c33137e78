"""SPEC.md ✔ values of the divergence panel, computed from the bundled scenarios that show them."""


import pytest

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def divergence_of(name, step):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("divergence",))["divergence"]


@pytest.mark.parametrize("step", [0, 1, 2])
def test_equal_paths_give_50_percent_whatever_the_split(step):
    r = divergence_of("divergence-if-else.json", step)
    assert r.ipdom["entry"] == "join"
    assert r.lane_efficiency == 0.5
    assert r.regions[0].lane_efficiency == 0.5
    assert r.issued == 8


def test_the_splits_really_differ():
    masks = {divergence_of("divergence-if-else.json", k).regions[0].taken_mask for k in range(3)}
    assert len(masks) == 3


def test_warp_uniform_branch_does_not_diverge():
    r = divergence_of("divergence-if-else.json", 3)
    assert r.lane_efficiency == 1.0
    assert not any(e.op == "push" for e in r.trace)


def test_nested_divergence_compounds_multiplicatively():
    r = divergence_of("divergence-nested.json", 0)
    regions = {g.branch: g.lane_efficiency for g in r.regions}
    assert regions["x"] == regions["y"] == 0.5
    assert regions["outer"] == pytest.approx(0.5 * 0.5)
    assert r.lane_efficiency == pytest.approx(0.25)
    assert r.ipdom["outer"] == "join"
    assert (r.ipdom["x"], r.ipdom["y"]) == ("x_join", "y_join")


def test_the_nested_stack_grows_as_the_lecture_says():
    """divergence-nested's description said "three entries on top of the base"; the stack it
    draws holds the base and four: both outer paths, then both inner paths of the first."""
    scenario = load_scenario(SCENARIOS / "divergence-nested.json")
    r = divergence_of("divergence-nested.json", -1)
    assert r.max_depth - 1 == 4
    assert "four entries on top of the base" in scenario.description
    deepest = next(e for e in r.trace if e.depth == r.max_depth)
    assert deepest.op == "push" and deepest.reconverge == "x_join"
