"""SPEC.md ✔ values of the traversal panel, computed from the bundled scenarios that show them."""

import re

import numpy as np
import pytest

from gpuviz.models.traversal import multiply_in_order, tile_order
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()
TRAVERSALS = sorted(p.name for p in SCENARIOS.glob("traversal-*.json"))


def traversal_of(name, step=-1):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("traversal",))["traversal"]


def test_the_sweep_shows_a_capacity_where_hilbert_or_grouped_beats_row_major():
    r = traversal_of("traversal-sweep.json")
    row = np.array(r.misses_by_order["row-major"])
    better = np.minimum(r.misses_by_order["hilbert"], r.misses_by_order["grouped"])
    assert np.any(better < row)


def test_the_sweep_shows_a_capacity_where_hilbert_and_row_major_tie():
    r = traversal_of("traversal-sweep.json")
    row = np.array(r.misses_by_order["row-major"])
    hilbert = np.array(r.misses_by_order["hilbert"])
    tied = [c for c, a, b in zip(r.capacities, row, hilbert, strict=True) if a == b]
    assert tied, "no capacity where the two orders tie"
    # once every A and B tile fits, both load each tile exactly once
    assert r.distinct_tiles in tied


def test_the_scenario_states_what_its_sweep_computes():
    scenario = load_scenario(SCENARIOS / "traversal-sweep.json")
    r = traversal_of("traversal-sweep.json")
    stated = re.search(r"Hilbert loads (\d+) tiles and row-major (\d+)", scenario.description)
    assert r.capacity == 8 and r.compare.order_name == "hilbert"
    assert (r.compare.misses, r.misses) == (int(stated[1]), int(stated[2]))
    assert r.compare.misses < r.misses
    everything = traversal_of("traversal-sweep.json", 2)
    assert everything.capacity == everything.distinct_tiles
    assert everything.misses == everything.compare.misses == everything.distinct_tiles


@pytest.mark.parametrize("name", TRAVERSALS)
def test_the_product_is_unchanged_by_the_order(name):
    r = traversal_of(name)
    rng = np.random.default_rng(11)
    tm, tn, tk = 2, 3, 2
    # the orders visit output tiles; K's depth does not enter them, so a real-size scenario
    # (128 × 128 tiles, 512 deep) is multiplied with K cut to 2 tiles
    depth = min(r.k_tiles, 2) if r.rows * r.cols > 1024 else r.k_tiles
    a = rng.standard_normal((r.rows * tm, depth * tk))
    b = rng.standard_normal((depth * tk, r.cols * tn))
    reference = multiply_in_order(a, b, tm, tn, tk, tile_order("row-major", r.rows, r.cols))
    orders = [r.order] + ([r.compare.order] if r.compare is not None else [])
    orders += [tile_order(o, r.rows, r.cols, r.group_m) for o in r.misses_by_order
               if o != "explicit"]
    for order in orders:
        assert np.array_equal(multiply_in_order(a, b, tm, tn, tk, order), reference)
    assert np.allclose(reference, a @ b)


def test_grouped_wins_with_a_moderate_cache_and_loses_with_a_tiny_one():
    scenario = load_scenario(SCENARIOS / "traversal-grouped.json")
    moderate = traversal_of("traversal-grouped.json", 2)
    tiny = traversal_of("traversal-grouped.json", 3)
    everything = traversal_of("traversal-grouped.json", 4)
    assert moderate.order_name == "grouped" and moderate.compare.order_name == "row-major"
    assert moderate.misses < moderate.compare.misses
    assert tiny.misses > tiny.compare.misses
    assert everything.misses == everything.compare.misses == everything.distinct_tiles
    stated = re.search(r"loads (\d+) tiles against row-major's (\d+); .* only 4 it loses "
                       r"\((\d+) against (\d+)\)", scenario.description)
    assert (moderate.misses, moderate.compare.misses) == (int(stated[1]), int(stated[2]))
    assert (tiny.misses, tiny.compare.misses) == (int(stated[3]), int(stated[4]))


def test_the_whole_l2_step_draws_the_orders_its_caption_names():
    """traversal-h200-l2 step 3 speaks of grouped and row-major at 1.00 ×, but kept step 2's
    Hilbert order, so the dot and the loads stood on Hilbert (1.12 ×)."""
    r = traversal_of("traversal-h200-l2.json", 2)
    whole = r.distinct_tiles  # 1.00 ×: every A and B tile loaded once
    assert r.order_name == "grouped" and r.cumulative_loads[-1] == whole
    assert r.cumulative_loads_by_order["row-major"][-1] == whole
    assert r.cumulative_loads_by_order["hilbert"][-1] > whole
