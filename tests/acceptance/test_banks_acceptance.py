"""SPEC.md ✔ values of the banks panel, computed from the bundled scenarios that show them."""


from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def banks_of(name, step=-1):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("banks",))["banks"]


def test_word_stride_1_is_one_round():
    assert banks_of("banks-stride1.json").rounds == 1


def test_column_of_a_32_wide_array_is_32_rounds_all_in_bank_0():
    r = banks_of("banks-column32.json")
    assert r.rounds == 32
    assert set(r.bank_of_lane) == {0}
    assert len(r.active_lanes) == 32


def test_row_width_padded_to_33_is_one_round():
    assert banks_of("banks-padded33.json").rounds == 1


def test_32_readers_of_one_word_are_one_round_broadcast_not_a_conflict():
    r = banks_of("banks-broadcast.json")
    assert r.rounds == 1
    assert r.conflict_degree == 1
    [group] = r.broadcast_groups
    assert len(group.lanes) == 32


def test_swizzled_banks_agree_with_the_swizzle_panel():
    scenario = load_scenario(SCENARIOS / "banks-swizzled-columns.json").at_step(1)
    results = compute_all(scenario, ("swizzle", "banks"))
    assert results["banks"].bank_of_lane[:8] == results["swizzle"].swizzled_banks


def test_banks_following_the_swizzle_panel_change_with_it():
    scenario = load_scenario(SCENARIOS / "banks-swizzled-columns.json")
    followed = compute_all(scenario.at_step(3), ("swizzle", "banks"))
    assert followed["banks"].phase_rounds == (1, 1, 1, 1)
    switched = compute_all(scenario.at_step(4), ("swizzle", "banks"))
    assert switched["banks"].bank_of_lane[:8] == switched["swizzle"].swizzled_banks
    assert switched["banks"].phase_rounds == (4, 4, 4, 4)
