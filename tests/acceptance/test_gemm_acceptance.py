"""SPEC.md ✔ values of the gemm panel, computed from the bundled scenarios that show them."""


import numpy as np
import pytest

from gpuviz.models.gemm import STRATEGIES
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def gemm_of(name, step=-1):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("gemm",))["gemm"]


def test_c00_shows_1_after_k_positions_0_and_1_then_11_after_all_four():
    assert gemm_of("gemm-walkthrough.json", 0).c_partial[0, 0] == 0
    assert gemm_of("gemm-walkthrough.json", 1).c_partial[0, 0] == 1
    assert gemm_of("gemm-walkthrough.json", 2).c_partial[0, 0] == 11
    assert gemm_of("gemm-walkthrough.json").c00_by_step == (0, 1, 11)


def test_all_strategies_perform_the_same_64_macs_and_produce_the_same_16_values():
    r = gemm_of("gemm-walkthrough.json")
    values = [r.strategies[name].c for name in STRATEGIES]
    assert all(r.strategies[name].macs == 64 for name in STRATEGIES)
    assert all(np.array_equal(v, r.c) for v in values)
    assert r.c.size == 16 and r.same_values


def test_naive_fp32_loads_two_floats_per_mac():
    r = gemm_of("gemm-walkthrough.json")
    assert r.naive_loads_per_mac == 2
    assert r.strategies["naive"].global_loads == 2 * r.macs


def test_16x16_tile_approaches_4_flops_per_requested_byte_for_large_k():
    r = gemm_of("gemm-requested-bytes.json", 2)
    assert r.tile == 16
    assert r.tile_flops_per_byte_limit == 4
    assert r.tile_flops_per_byte == pytest.approx(4, rel=0.01)


def test_small_k_keeps_the_tile_below_t_over_4():
    r = gemm_of("gemm-requested-bytes.json", 4)
    assert r.tile == 16 and r.k_dim == 16
    assert r.tile_flops_per_byte < 3


def test_the_naive_count_approaches_a_quarter_flop_per_byte():
    r = gemm_of("gemm-requested-bytes.json", 0)
    assert r.naive_flops_per_byte == pytest.approx(0.25, rel=1e-3)
    assert r.tile == 1 and r.tile_flops_per_byte == pytest.approx(r.naive_flops_per_byte)
