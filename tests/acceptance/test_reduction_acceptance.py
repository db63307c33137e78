"""SPEC.md `reduction` ✔ values, computed from the bundled scenarios that show them."""


from gpuviz.models.jsonable import to_jsonable
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result(name, step=-1):
    s = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(s, ("reduction",))["reduction"]


def test_sum_of_1_to_32_is_528_in_lane_0():
    r = result("reduction-warp-shfl-down.json")
    assert r.levels[0] == tuple(float(v) for v in range(1, 33))
    assert r.result == 528.0 == r.levels[-1][0]


def test_contributor_sets_at_each_level_are_disjoint_and_cover_the_input():
    r = result("reduction-warp-shfl-down.json")
    for k, prefix in enumerate(r.active_prefix):
        sets = [set(s) for s in r.contributors[k][:prefix]]
        assert sum(map(len, sets)) == len(set().union(*sets)) == 32


def test_xor_butterfly_gives_528_in_every_lane():
    assert result("reduction-xor-butterfly.json").levels[-1] == (528.0,) * 32


def test_block_reduction_initialised_only_then_fixed_32_is_flagged():
    good = result("reduction-block.json", step=0)
    assert good.result == 5050.0 and good.correct
    bad = result("reduction-block.json", step=1)
    assert bad.result is None and not bad.correct and bad.flags
    assert [u.lane for u in bad.undefined_reads] == list(range(good.warps, 32))


def test_partial_warp_neutral_zeros_versus_a_shrunk_mask():
    assert result("reduction-partial-warp.json", step=0).result == 210.0
    shrunk = result("reduction-partial-warp.json", step=1)
    assert shrunk.result is None and shrunk.undefined_reads


def test_float32_reduction_order_changes_the_sum():
    r = result("reduction-float32-order.json")
    assert r.order_dependent
    assert r.float32_tree_sum != r.float32_sequential_sum
    assert r.exact_sum == 2 ** 24 + 31


def test_results_carry_the_documented_keys():
    data = to_jsonable(result("reduction-warp-shfl-down.json"))
    assert {"result", "levels", "contributors"} <= set(data)
    assert data["result"] == 528
