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


def wave64(**kw):
    kw.setdefault("active_lanes", tuple(range(64)))
    return params(warp_size=64, **kw)


def test_a_64_lane_wavefront_of_consecutive_floats_touches_8_sectors_in_2_lines():
    r = compute(wave64())
    assert r.warp_size == 64
    assert len(r.lane_addresses) == len(r.sector_of_lane) == len(r.lane_ranges) == 64
    assert r.lane_addresses[63] == 63 * 4
    assert r.sectors == tuple(range(8))
    assert (r.line_count, r.requested_bytes, r.fetched_bytes, r.efficiency) == (2, 256, 256, 1.0)


def test_64_lane_patterns_cover_all_64_lanes():
    rev = compute(wave64(pattern=SectorPattern(kind="reversed")))
    assert rev.lane_addresses[0] == 63 * 4 and rev.lane_addresses[63] == 0
    assert rev.pattern == "lane i reads element 63 − i"
    assert rev.sectors == compute(wave64()).sectors
    perm = tuple(reversed(range(64)))
    assert compute(wave64(pattern=SectorPattern(kind="permutation", permutation=perm))).sectors \
        == rev.sectors
    assert compute(wave64(pattern=SectorPattern(stride=8))).sector_count == 64
    bcast = compute(wave64(pattern=SectorPattern(kind="broadcast", index=9)))
    assert (bcast.sectors, bcast.requested_bytes, bcast.lane_bytes) == ((1,), 4, 256)
    explicit = compute(wave64(pattern=SectorPattern(kind="explicit",
                                                    addresses=tuple(128 * i for i in range(64)))))
    assert explicit.sector_count == 64 and explicit.lane_addresses[63] == 128 * 63
    expr = compute(wave64(pattern=SectorPattern(kind="expression", expression="lane * 2")))
    assert expr.lane_addresses[63] == 126 * 4 and expr.sector_count == 16


def test_32_lane_results_are_unchanged_by_the_wider_warp_support():
    assert compute(params()).warp_size == 32
    assert len(compute(params()).lane_addresses) == 32
    assert compute(params(pattern=SectorPattern(kind="reversed"))).pattern == \
        "lane i reads element 31 − i"
    assert [compute(p).sector_count for p in (
        params(), params(base_offset=4), params(pattern=SectorPattern(stride=8)),
        params(pattern=SectorPattern(kind="reversed")))] == [4, 5, 32, 4]


def test_the_stride_sweep_of_a_wavefront_counts_its_64_lanes():
    r = compute(wave64())
    assert r.sweep_strides == tuple(range(1, 33))
    assert r.stride_sweep[:8] == (8, 16, 24, 32, 40, 48, 56, 64)
    for s, count in zip(r.sweep_strides, r.stride_sweep, strict=True):
        assert count == compute(wave64(pattern=SectorPattern(stride=s))).sector_count


def test_problems_check_lane_lists_against_the_warp_size():
    short = SectorPattern(kind="permutation", permutation=tuple(range(32)))
    [(path, message)] = problems(wave64(pattern=short))
    assert path == "pattern.permutation"
    assert "32 entries" in message and "64 lanes" in message
    dup = SectorPattern(kind="permutation", permutation=(0,) * 64)
    [(path, message)] = problems(wave64(pattern=dup))
    assert path == "pattern.permutation" and "0 … 63" in message
    long = SectorPattern(kind="permutation", permutation=tuple(range(64)))
    [(path, message)] = problems(params(pattern=long))
    assert path == "pattern.permutation" and "64 entries" in message and "32 lanes" in message
    assert problems(wave64(pattern=long)) == []
    few = SectorPattern(kind="explicit", addresses=(0,) * 32)
    [(path, message)] = problems(wave64(pattern=few))
    assert path == "pattern.addresses" and "32 entries" in message and "64 lanes" in message
    missing = problems(wave64(pattern=SectorPattern(kind="explicit")))
    assert missing == [("pattern.addresses", "give one byte offset for each of the 64 lanes")]
    odd = SectorPattern(kind="explicit", addresses=(0,) * 40 + (6,) + (0,) * 23)
    [(path, message)] = problems(wave64(pattern=odd))
    assert path == "pattern.addresses[40]" and "multiple of the element size 4" in message
    [(path, message)] = problems(params(active_lanes=(0, 40)))
    assert path == "active_lanes[1]" and "lane 40" in message and "0 … 31" in message
    assert problems(wave64(active_lanes=(0, 40, 63))) == []


def test_the_param_ranges_allow_a_64_lane_wavefront():
    meta = {f.name: f.metadata for f in dataclasses.fields(SectorPattern)}
    assert meta["permutation"]["maximum"] == 63 and meta["permutation"]["length"] == (32, 64)
    assert meta["addresses"]["length"] == (32, 64)
    lanes = next(f for f in dataclasses.fields(SectorsParams) if f.name == "active_lanes")
    assert lanes.metadata["maximum"] == 63 and lanes.metadata["length"] == (0, 64)


def test_link_passes_all_64_lanes_of_a_wavefront():
    full = launch.compute(launch.LaunchParams(n=130, block=(64,), warp_size=64))
    linked = link(SectorsParams(), {"launch": full})
    assert linked.warp_size == 64
    assert linked.active_lanes == tuple(range(64))
    assert compute(linked).sector_count == 8
    tail = launch.compute(launch.LaunchParams(n=130, block=(64,), warp_size=64, selected_block=2))
    linked = link(SectorsParams(), {"launch": tail})
    assert linked.active_lanes == (0, 1)
    assert (linked.warp_size, linked.block_idx) == (64, (2, 0, 0))


def test_a_32_entry_list_under_a_linked_wavefront_is_reported_not_raised():
    perm = SectorPattern(kind="permutation", permutation=tuple(range(32)))
    lr = launch.compute(launch.LaunchParams(n=128, block=(64,), warp_size=64))
    r = compute(link(SectorsParams(pattern=perm), {"launch": lr}))
    assert r.error is not None and r.error.startswith("pattern.permutation: 32 entries")
    assert "lanes 32–63" in r.error
    assert r.active_lanes == tuple(range(32))
    assert r.sector_count == 4
    lr32 = launch.compute(launch.LaunchParams(n=128, block=(64,)))
    wide = SectorPattern(kind="explicit", addresses=tuple(4 * i for i in range(64)))
    r = compute(link(SectorsParams(warp_size=64, active_lanes=tuple(range(64)), pattern=wide),
                     {"launch": lr32}))
    assert r.error is not None and "ignored" in r.error
    assert r.sector_count == 4


@given(st.permutations(range(64)), st.sampled_from([1, 2, 4, 8, 16]),
       st.lists(st.integers(0, 4096), min_size=64, max_size=64),
       st.sets(st.integers(0, 63)))
def test_sector_count_is_invariant_under_any_permutation_of_64_lanes(perm, size, elements, lanes):
    addresses = tuple(e * size for e in elements)
    shuffled = tuple(addresses[i] for i in perm)
    moved = tuple(sorted(perm.index(lane) for lane in lanes))  # the same lanes, renumbered
    a = compute(params(element_bytes=size, warp_size=64, active_lanes=tuple(sorted(lanes)),
                       pattern=SectorPattern(kind="explicit", addresses=addresses)))
    b = compute(params(element_bytes=size, warp_size=64, active_lanes=moved,
                       pattern=SectorPattern(kind="explicit", addresses=shuffled)))
    assert a.sectors == b.sectors
    assert a.sector_count == b.sector_count
    assert a.requested_bytes == b.requested_bytes


@given(st.permutations(range(64)), st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 64))
def test_a_64_lane_permutation_touches_the_sectors_of_consecutive_elements(perm, size, base):
    r = compute(params(element_bytes=size, base_offset=base * size, warp_size=64,
                       active_lanes=tuple(range(64)),
                       pattern=SectorPattern(kind="permutation", permutation=tuple(perm))))
    assert r.sectors == compute(params(element_bytes=size, base_offset=base * size, warp_size=64,
                                       active_lanes=tuple(range(64)))).sectors


def test_without_a_lane_list_every_lane_of_a_64_lane_wavefront_is_active():
    r = compute(SectorsParams(follow_launch=False, warp_size=64))
    assert r.active_lanes == tuple(range(64))
    assert r.sector_count == 8  # 64 consecutive floats: 256 bytes
