"""Warp shuffle reduction: levels, contributor sets, and the variants the source text warns about."""

from dataclasses import replace

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.reduction import OFFSETS, ReductionParams, compute, problems

ONE_TO_32 = ReductionParams()


def test_sum_of_1_to_32_is_528_in_lane_0():
    r = compute(ONE_TO_32)
    assert r.result == 528.0 and r.correct
    assert r.levels[1][:3] == (18.0, 20.0, 22.0)


def test_active_prefix_halves_and_the_suffix_keeps_historic_values():
    r = compute(ONE_TO_32)
    assert r.active_prefix == (32, 16, 8, 4, 2, 1)
    for k in range(1, len(r.levels)):
        prefix = r.active_prefix[k]
        assert r.levels[k][prefix:] == r.levels[k - 1][prefix:]


def test_contributor_sets_at_each_level_are_disjoint_and_cover_the_input():
    r = compute(ONE_TO_32)
    for k, prefix in enumerate(r.active_prefix):
        sets = [set(s) for s in r.contributors[k][:prefix]]
        assert sum(len(s) for s in sets) == 32
        assert set().union(*sets) == set(range(32))
        assert all(r.levels[k][lane] == sum(i + 1 for i in sets[lane]) for lane in range(prefix))


def test_xor_butterfly_leaves_528_in_every_lane():
    r = compute(replace(ONE_TO_32, pattern="xor"))
    assert r.levels[-1] == (528.0,) * 32
    for k in range(len(r.levels)):
        distinct = {tuple(s) for s in r.contributors[k]}
        assert sum(len(s) for s in distinct) == 32
        assert set().union(*map(set, distinct)) == set(range(32))
        assert all(len(r.contributors[k][lane]) == 2 ** k for lane in range(32))


def test_partial_warp_with_neutral_zeros_is_correct():
    r = compute(replace(ONE_TO_32, values=tuple(float(v) for v in range(1, 21))))
    assert r.result == 210.0 and r.correct and not r.undefined_reads


def test_partial_warp_with_a_shrunk_mask_reads_outside_the_mask():
    r = compute(replace(ONE_TO_32, values=tuple(float(v) for v in range(1, 21)),
                        partial_warp="active_mask"))
    assert r.result is None and not r.correct
    first = [(u.lane, u.source) for u in r.undefined_reads if u.level == 1]
    assert first == [(lane, lane + 16) for lane in range(4, 16)]
    assert r.flags


def test_block_reduction_reads_only_initialised_partials():
    r = compute(replace(ONE_TO_32, values=tuple(float(v) for v in range(1, 101)), scope="block"))
    assert r.warps == 4
    assert r.warp_partials == (528.0, 1552.0, 2576.0, 394.0)
    assert r.result == 5050.0 and r.correct
    assert r.shared_partials[4:] == (0.0,) * 28


def test_fixed_32_entry_read_is_flagged_with_the_uninitialised_entries():
    r = compute(replace(ONE_TO_32, values=tuple(float(v) for v in range(1, 101)), scope="block",
                        final_read="fixed_32"))
    assert r.result is None and not r.correct
    assert [u.lane for u in r.undefined_reads] == list(range(4, 32))
    assert r.shared_partials[4:] == (None,) * 28


def test_fixed_32_read_is_fine_when_32_warps_wrote_partials():
    r = compute(replace(ONE_TO_32, values=(1.0,) * 1024, scope="block", final_read="fixed_32"))
    assert r.result == 1024.0 and r.correct


def test_float32_tree_and_left_to_right_orders_give_different_sums():
    values = (16777216.0,) + (1.0,) * 31
    r = compute(replace(ONE_TO_32, values=values, arithmetic="float32"))
    assert r.exact_sum == 16777247.0
    assert r.float32_sequential_sum == float(np.float32(16777216))
    assert r.float32_tree_sum == 16777246.0 == r.result
    assert r.order_dependent
    # Checked independently: left to right in float32 loses every one.
    acc = np.float32(0)
    for v in np.asarray(values, dtype=np.float32):
        acc = np.float32(acc + v)
    assert float(acc) == r.float32_sequential_sum


@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=32),
       st.sampled_from(["shfl_down", "xor"]))
def test_any_integers_sum_exactly_in_lane_0(values, pattern):
    r = compute(ReductionParams(values=tuple(map(float, values)), pattern=pattern))
    assert r.result == sum(values)
    assert set(r.contributors[-1][0]) == set(range(32))


@given(st.lists(st.integers(-50, 50), min_size=33, max_size=300))
def test_block_scope_sums_any_integers(values):
    r = compute(ReductionParams(values=tuple(map(float, values)), scope="block"))
    assert r.result == sum(values)
    assert r.offsets == OFFSETS


def test_more_than_32_values_at_warp_scope_is_a_problem():
    assert [p for p, _ in problems(ReductionParams(values=(1.0,) * 33))] == ["values"]
