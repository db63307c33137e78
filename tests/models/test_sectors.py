"""The sector map model: sectors, lines, bytes and the launch link."""

import dataclasses

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.models import launch, sectors
from gpuviz.models.sectors import SectorPattern, SectorsParams, compute, link, problems


def params(**kw):
    pattern = kw.pop("pattern", SectorPattern())
    return SectorsParams(pattern=pattern, follow_launch=False, **kw)


def test_defaults_compute_without_a_launch():
    r = compute(SectorsParams())
    assert r.active_lanes == tuple(range(32))
    assert r.sector_count == 4
    assert r.error is None


def test_aligned_consecutive_floats_touch_4_sectors_in_one_line():
    r = compute(params())
    assert r.sectors == (0, 1, 2, 3)
    assert (r.line_count, r.requested_bytes, r.fetched_bytes, r.efficiency) == (1, 128, 128, 1.0)


def test_shift_by_one_float_touches_5_sectors_in_two_lines():
    r = compute(params(base_offset=4))
    assert r.sectors == (0, 1, 2, 3, 4)
    assert r.line_count == 2
    assert r.efficiency == 128 / 160


def test_stride_8_floats_touches_32_sectors():
    r = compute(params(pattern=SectorPattern(stride=8)))
    assert r.sectors == tuple(range(32))  # lane i alone in sector i
    assert r.fetched_bytes == 1024


def test_broadcast_requests_4_distinct_bytes_from_one_sector():
    r = compute(params(pattern=SectorPattern(kind="broadcast", index=9)))
    assert r.sectors == (1,)
    assert (r.requested_bytes, r.lane_bytes) == (4, 128)


def test_lane_ranges_are_byte_ranges_of_each_active_lane():
    r = compute(params(element_bytes=8, base_offset=16, active_lanes=(0, 5)))
    assert r.lane_ranges[0] == (16, 24)
    assert r.lane_ranges[5] == (56, 64)
    assert r.lane_ranges[1] is None
    assert r.sector_of_lane[5] == 1


def test_masked_lanes_request_nothing():
    r = compute(params(active_lanes=()))
    assert (r.sector_count, r.fetched_bytes, r.efficiency) == (0, 0, 0.0)


def test_expression_pattern_uses_launch_coordinates():
    p = params(pattern=SectorPattern(kind="expression",
                                     expression="blockIdx.x * blockDim.x + threadIdx.x"),
               block_idx=(2, 0, 0), block_dim=(64, 1, 1), warp=1)
    r = compute(p)
    assert r.lane_addresses[0] == (2 * 64 + 32) * 4


def test_stride_sweep_counts_sectors_for_strides_1_to_32():
    r = compute(params())
    assert r.sweep_strides == tuple(range(1, 33))
    assert r.stride_sweep[:8] == (4, 8, 12, 16, 20, 24, 28, 32)
    assert set(r.stride_sweep[7:]) == {32}
    for s, count in zip(r.sweep_strides, r.stride_sweep, strict=True):
        assert count == compute(params(pattern=SectorPattern(stride=s))).sector_count


def test_problems_name_the_field_and_position():
    bad = params(pattern=SectorPattern(kind="expression", expression="lane + nope"))
    [(path, message)] = problems(bad)
    assert path == "pattern.expression"
    assert "at character 8" in message
    [(path, message)] = problems(params(base_offset=2))
    assert path == "base_offset" and "multiple of the element size 4" in message
    missing = SectorPattern(kind="permutation")
    assert problems(params(pattern=missing))[0][0] == "pattern.permutation"
    dup = SectorPattern(kind="permutation", permutation=(0,) * 32)
    assert problems(params(pattern=dup))[0][0] == "pattern.permutation"
    assert problems(params(pattern=SectorPattern(kind="explicit")))[0][0] == "pattern.addresses"
    neg = SectorPattern(kind="expression", expression="lane - 4")
    assert "lane 0" in problems(params(pattern=neg))[0][1]


def test_link_follows_the_selected_launch_warp():
    lp = launch.LaunchParams(n=130, block=(64,), selected_block=2, selected_warp=0)
    linked = link(SectorsParams(), {"launch": launch.compute(lp)})
    assert linked.active_lanes == (0, 1)
    assert linked.block_idx == (2, 0, 0)
    assert linked.block_dim == (64, 1, 1)


def test_link_leaves_params_alone_when_not_following():
    p = params(active_lanes=(3,))
    lr = launch.compute(launch.LaunchParams())
    assert link(p, {"launch": lr}) is p


def test_an_expression_failing_after_linking_is_reported_not_raised():
    p = dataclasses.replace(
        params(pattern=SectorPattern(kind="expression", expression="lane // (blockIdx.x - 2)")),
        block_idx=(2, 0, 0))
    r = compute(p)
    assert r.error is not None and "division by zero" in r.error
    assert r.sector_count == 0


def test_module_declares_its_launch_dependency():
    assert sectors.DEPENDS_ON == ("launch",)


@given(st.permutations(range(32)), st.sampled_from([1, 2, 4, 8, 16]),
       st.lists(st.integers(0, 4096), min_size=32, max_size=32))
def test_sector_count_is_invariant_under_any_permutation_of_the_lanes(perm, size, elements):
    addresses = tuple(e * size for e in elements)
    shuffled = tuple(addresses[i] for i in perm)
    a = compute(params(element_bytes=size, pattern=SectorPattern(kind="explicit",
                                                                  addresses=addresses)))
    b = compute(params(element_bytes=size, pattern=SectorPattern(kind="explicit",
                                                                  addresses=shuffled)))
    assert a.sectors == b.sectors
    assert a.requested_bytes == b.requested_bytes


@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 64), st.integers(0, 40),
       st.sets(st.integers(0, 31)))
def test_sectors_cover_exactly_the_bytes_requested(size, base_elems, stride, lanes):
    r = compute(params(element_bytes=size, base_offset=base_elems * size,
                       pattern=SectorPattern(stride=stride), active_lanes=tuple(sorted(lanes))))
    want = set()
    for lane in lanes:
        start = base_elems * size + lane * stride * size
        want.update(b // 32 for b in range(start, start + size))
    assert set(r.sectors) == want
    assert r.requested_bytes <= r.fetched_bytes == 32 * len(want)
    assert r.line_count == len({s // 4 for s in want})
    assert np.all(np.diff(r.sectors) > 0)
