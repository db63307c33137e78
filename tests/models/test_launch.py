"""The launch model: ownership, warps and masked lanes, waves, quantization."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models.launch import LaunchParams, QuantizationParams, compute, problems


def test_n130_with_64_threads_launches_three_blocks_of_192_threads():
    r = compute(LaunchParams(n=130, block=(64,)))
    assert (r.blocks, r.threads_launched, r.valid_threads) == (3, 192, 130)
    assert r.warps_per_block == 2


def test_global_index_is_block_times_dim_plus_thread_in_1d():
    r = compute(LaunchParams(n=130, block=(64,), selected_block=1, selected_warp=1))
    for lane in r.lanes:
        assert lane.global_index == 1 * 64 + lane.tid


def test_lanes_past_the_end_of_a_short_block_do_not_exist():
    r = compute(LaunchParams(n=48, block=(48,), selected_warp=1))
    assert [ln.exists for ln in r.lanes] == [True] * 16 + [False] * 16
    assert r.active_lanes == tuple(range(16))


def test_two_dimensional_block_forms_warps_from_consecutive_linear_ids():
    r = compute(LaunchParams(n=None, extent=(64, 64), block=(16, 8), selected_warp=1))
    # warp 1 holds linear ids 32..63 = rows y=2,3 of a 16-wide block (x fastest)
    assert [ln.tid for ln in r.lanes] == list(range(32, 64))
    assert [ln.thread for ln in r.lanes[:17]][::16] == [(0, 2, 0), (0, 3, 0)]


def test_wave_assignment_fills_all_slots_before_the_next_wave():
    r = compute(LaunchParams(n=64 * 9, block=(64,), sm_count=2, slots_per_sm=2, selected_block=4))
    assert r.waves == 3
    assert r.selected_block_wave == 1


def test_warp_size_64_puts_a_64_thread_block_in_one_wavefront():
    r = compute(LaunchParams(n=130, block=(64,), warp_size=64, selected_block=2))
    assert r.warps_per_block == 1
    assert len(r.lanes) == 64
    assert r.active_lanes == (0, 1)


def test_block_over_1024_threads_is_a_problem():
    assert problems(LaunchParams(block=(64, 32)))[0][0] == "block"


def test_a_grid_that_would_need_millions_of_items_is_a_problem():
    found = problems(LaunchParams(n=1 << 34, block=(32,)))
    assert found and "millions" in found[0][1]


def test_selected_block_out_of_range_is_a_problem():
    assert problems(LaunchParams(n=130, block=(64,), selected_block=3)) == [
        ("selected_block", "block 3 does not exist; this launch has blocks 0 … 2")]


def test_quantization_of_a_matrix_that_divides_evenly_has_no_masked_slots():
    r = compute(LaunchParams(quantization=QuantizationParams(matrix_m=64, matrix_n=96)))
    assert (r.tiles, r.tile_slots, r.tile_valid) == (6, 6 * 1024, 64 * 96)


def test_wave_quantization_last_wave_fill():
    q = QuantizationParams(matrix_m=128 * 12, matrix_n=128 * 22 + 1, tile_m=128, tile_n=128,
                           sm_count=132, blocks_per_sm=1)
    r = compute(LaunchParams(quantization=q))
    assert r.tiles == 12 * 23
    assert r.wave_count == 3
    assert abs(r.last_wave_fill - (276 - 264) / 132) < 1e-12


@given(n=st.integers(1, 100_000), bx=st.integers(1, 1024))
def test_1d_counts_match_the_ceiling_rule(n, bx):
    r = compute(LaunchParams(n=n, block=(bx,)))
    assert r.blocks == -(-n // bx)
    assert r.valid_threads == n
    assert r.threads_launched - r.valid_threads < bx
    assert sum(r.block_valid_all()) == n
    assert sum(r.block_valid(b) for b in range(r.blocks)) == n


@given(ex=st.integers(1, 200), ey=st.integers(1, 200), bx=st.integers(1, 32), by=st.integers(1, 32),
       b=st.integers(0, 10_000), w=st.integers(0, 40))
def test_valid_lanes_are_exactly_those_inside_the_extent(ex, ey, bx, by, b, w):
    base = LaunchParams(n=None, extent=(ex, ey), block=(bx, by))
    r0 = compute(base)
    p = replace(base, selected_block=b % r0.blocks, selected_warp=w % r0.warps_per_block)
    r = compute(p)
    for lane in r.lanes:
        inside = lane.exists and lane.global_coord[0] < ex and lane.global_coord[1] < ey
        assert lane.valid == inside
        if inside:
            assert lane.global_index == lane.global_coord[0] + lane.global_coord[1] * ex
    assert sum(r.warp_valid_lanes) == r.selected_block_valid


@given(ex=st.integers(1, 60), ey=st.integers(1, 9), ez=st.integers(1, 5), bx=st.integers(1, 16),
       by=st.integers(1, 4), bz=st.integers(1, 3), gx=st.integers(0, 3), gy=st.integers(0, 2))
def test_per_block_valid_threads_and_counts_match_thread_by_thread(ex, ey, ez, bx, by, bz, gx, gy):
    base = compute(LaunchParams(n=None, extent=(ex, ey, ez), block=(bx, by, bz)))
    grid = (base.grid[0] + gx, base.grid[1] + gy, base.grid[2])  # whole blocks past the extent
    r = compute(LaunchParams(n=None, extent=(ex, ey, ez), block=(bx, by, bz), grid=grid))
    counted = []
    for b in range(r.blocks):
        i, j, k = b % grid[0], (b // grid[0]) % grid[1], b // (grid[0] * grid[1])
        counted.append(sum(1 for t in range(bx * by * bz)
                           if i * bx + t % bx < ex and j * by + (t // bx) % by < ey
                           and k * bz + t // (bx * by) < ez))
    assert [r.block_valid(b) for b in range(r.blocks)] == counted == r.block_valid_all().tolist()
    full = sum(1 for v in counted if v == bx * by * bz)
    empty = sum(1 for v in counted if v == 0)
    assert r.block_counts() == (full, r.blocks - full - empty, empty)


def test_valid_threads_of_every_block_are_counted_once_per_result():
    # a figure laid out for a view reads them once per design it tries (12 for a dock); for
    # 2^20 blocks each count cost 0.17 s as a list
    r = compute(LaunchParams(n=None, grid=(1 << 20,), block=(1024,)))
    counts = r.block_valid_all()
    assert counts is compute(LaunchParams(n=None, grid=(1 << 20,), block=(1024,))).block_valid_all()
    assert not counts.flags.writeable and counts.dtype.kind == "i"
    assert int(counts.sum()) == r.valid_threads == (1 << 30)
