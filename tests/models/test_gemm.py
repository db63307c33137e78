"""The GEMM walkthrough model: values, ownership and the requested-bytes arithmetic."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.gemm import (
    STRATEGIES,
    GemmParams,
    compute,
    naive_flops_per_byte,
    tile_flops_per_byte,
)


def test_a_holds_1_to_16_row_major():
    r = compute(GemmParams())
    assert r.a.tolist() == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]


def test_c00_is_1_after_k_positions_0_and_1_then_11_after_all_four():
    assert compute(GemmParams()).c00_by_step == (0, 1, 11)
    assert compute(GemmParams(k_revealed=2)).c_partial[0, 0] == 1
    assert compute(GemmParams(k_revealed=4)).c_partial[0, 0] == 11


def test_partial_c_sums_only_the_revealed_k_positions():
    r = compute(GemmParams(k_revealed=2))
    assert np.array_equal(r.c_partial, r.a[:, :2] @ r.b[:2, :])
    assert np.array_equal(compute(GemmParams(k_revealed=0)).c_partial, np.zeros((4, 4)))


def test_every_strategy_performs_64_macs_and_produces_the_same_16_values():
    r = compute(GemmParams())
    assert r.macs == 64 and r.outputs == 16
    for name in STRATEGIES:
        s = r.strategies[name]
        assert s.macs == 64
        assert np.array_equal(s.c, r.a @ r.b)
    assert r.same_values


def test_every_output_has_exactly_one_owner_and_owners_hold_their_share():
    r = compute(GemmParams())
    for name in STRATEGIES:
        s = r.strategies[name]
        counts = np.bincount(s.owner.ravel(), minlength=s.threads)
        assert counts.tolist() == [s.outputs_per_thread] * s.threads


def test_register_tiling_threads_own_2x2_regions_of_one_4x4_block():
    s = compute(GemmParams()).strategies["register"]
    assert s.threads == 4 and s.blocks == 1
    assert s.owner.tolist() == [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]


def test_naive_fp32_loads_two_floats_per_mac():
    r = compute(GemmParams())
    naive = r.strategies["naive"]
    assert naive.global_loads == 2 * naive.macs
    assert r.naive_loads_per_mac == 2
    assert naive.shared_reads == 0 and naive.register_reuse == 0


def test_shared_tiling_reuses_across_threads_and_register_tiling_inside_a_thread():
    r = compute(GemmParams())
    shared, register = r.strategies["shared"], r.strategies["register"]
    # A 2 x 2 block loads each A and B element it needs once: half the naive loads.
    assert shared.global_loads == 64 and shared.shared_reads == 128
    assert shared.register_reuse == 0
    # A 4 x 4 block loads A and B once each; two A and two B values update four accumulators.
    assert register.global_loads == 32 and register.shared_reads == 64
    assert register.register_reuse == 64


def test_fewer_requested_bytes_means_more_flops_per_byte():
    r = compute(GemmParams())
    fpb = [r.strategies[n].flops_per_byte for n in STRATEGIES]
    assert fpb == sorted(fpb)
    # 128 FLOPs against (128 loads + 16 stores) * 4 bytes.
    assert r.strategies["naive"].flops_per_byte == 128 / (4 * 144)


def test_16x16_tile_approaches_4_flops_per_byte_for_large_k():
    assert tile_flops_per_byte(16, 1 << 20) == pytest.approx(4.0, rel=1e-4)
    assert compute(GemmParams(tile=16)).tile_flops_per_byte_limit == 4.0


def test_seed_2_intensity_128x128_tile_is_64_macs_per_loaded_element():
    assert compute(GemmParams(tile=128)).tile_macs_per_loaded_element == 64


@given(st.integers(1, 512), st.integers(1, 1 << 20))
def test_tile_flops_per_byte_stays_below_t_over_4_and_grows_with_k(t, k):
    v = tile_flops_per_byte(t, k)
    assert 0 < v < t / 4
    assert tile_flops_per_byte(t, 2 * k) > v


@given(st.integers(1, 1 << 20))
def test_naive_flops_per_byte_stays_below_a_quarter(k):
    assert 0 < naive_flops_per_byte(k) < 0.25


@given(st.lists(st.integers(-9, 9), min_size=16, max_size=16))
def test_any_b_gives_the_same_values_for_every_strategy(b):
    r = compute(GemmParams(b=tuple(b)))
    for name in STRATEGIES:
        assert np.array_equal(r.strategies[name].c, r.a @ r.b)
    assert r.c00_by_step[-1] == int(r.c[0, 0])
