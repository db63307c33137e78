"""SPEC.md ✔ values of the swizzle panel, computed from the bundled scenario that shows them."""


import numpy as np

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def swizzle_result():
    scenario = load_scenario(SCENARIOS / "swizzle-column3.json")
    return compute_all(scenario, ("swizzle",))["swizzle"]


def test_mapping_keeps_the_row_and_the_low_four_bits():
    r = swizzle_result()
    assert r.keeps_row_and_low_bits
    offsets = np.arange(1024)
    assert np.array_equal(r.byte_map >> 7, offsets >> 7)
    assert np.array_equal(r.byte_map & 15, offsets & 15)


def test_applying_the_mapping_twice_restores_the_offset():
    r = swizzle_result()
    assert r.involution
    assert np.array_equal(r.byte_map[r.byte_map], np.arange(1024))


def test_first_word_of_column_3_is_bank_12_in_every_row_linear():
    r = swizzle_result()
    assert r.column == 3 and r.word == 0
    assert r.linear_banks == (12,) * 8
    assert r.distinct_linear == 1


def test_eight_distinct_banks_after_swizzling():
    r = swizzle_result()
    assert r.distinct_swizzled == 8
    assert len(set(r.swizzled_banks)) == 8
