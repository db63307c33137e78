"""SPEC.md ✔ values of the sectors panel, computed from the bundled scenarios that show them."""


import pytest

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def sectors_of(name, step=-1):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("sectors",))["sectors"]


@pytest.mark.parametrize(
    ("scenario", "sector_count"),
    [
        ("sectors-aligned.json", 4),  # aligned consecutive floats
        ("sectors-shifted.json", 5),  # base shifted by one float
        ("sectors-stride8.json", 32),  # stride of 8 floats
        ("sectors-reversed.json", 4),  # reversed lane order
    ],
)
def test_seed_presets_touch_the_seed_sector_counts(scenario, sector_count):
    r = sectors_of(scenario)
    assert len(r.active_lanes) == 32
    assert r.element_bytes == 4
    assert r.sector_count == sector_count


def test_aligned_and_reversed_touch_the_same_sectors():
    assert sectors_of("sectors-aligned.json").sectors == sectors_of("sectors-reversed.json").sectors


def test_linked_tail_warp_has_two_valid_lanes_in_one_sector():
    r = sectors_of("linked-launch-sectors.json", step=1)
    assert r.active_lanes == (0, 1)
    assert r.lane_ranges[0] == (128 * 4, 129 * 4)
    assert r.sector_count == 1


def test_linked_fully_masked_warp_touches_no_sector():
    r = sectors_of("linked-launch-sectors.json", step=2)
    assert r.active_lanes == ()
    assert r.sector_count == 0


def test_linked_wavefront_of_64_lanes_reads_with_all_its_lanes():
    scenario = load_scenario(SCENARIOS / "linked-launch-sectors-wave64.json")
    lp = scenario.section("launch")
    n, block = lp.n, lp.block[0]
    assert (n, block, lp.warp_size) == (130, 64, 64)
    r = sectors_of("linked-launch-sectors-wave64.json", step=0)
    assert r.warp_size == 64
    assert r.active_lanes == tuple(range(64))
    size = r.element_bytes
    want = {b // 32 for i in range(64) for b in range(i * size, (i + 1) * size)}
    assert r.sectors == tuple(sorted(want))
    assert r.sector_count == 8  # a[0] … a[63]: 256 bytes
    assert (r.line_count, r.requested_bytes, r.fetched_bytes) == (2, 64 * size, 8 * 32)


def test_linked_tail_wavefront_has_the_lanes_inside_n_in_one_sector():
    scenario = load_scenario(SCENARIOS / "linked-launch-sectors-wave64.json").at_step(1)
    block = scenario.section("launch").selected_block
    first = block * 64
    valid = tuple(lane for lane in range(64) if first + lane < 130)
    assert valid == (0, 1)
    r = sectors_of("linked-launch-sectors-wave64.json", step=1)
    assert r.active_lanes == valid
    assert r.lane_ranges[1] == ((first + 1) * 4, (first + 2) * 4)
    assert r.lane_addresses[2:] == (None,) * 62
    want = {(first + lane) * 4 // 32 for lane in valid}
    assert r.sectors == tuple(sorted(want)) == (16,)
    assert (r.sector_count, r.requested_bytes, r.fetched_bytes) == (1, 8, 32)


def test_every_wavefront_step_has_a_caption():
    steps = load_scenario(SCENARIOS / "linked-launch-sectors-wave64.json").steps
    assert len(steps) == 2
    assert all(step.caption for step in steps)
