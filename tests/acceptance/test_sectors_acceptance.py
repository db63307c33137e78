"""SPEC.md ✔ values of the sectors panel, computed from the bundled scenarios that show them."""

from pathlib import Path

import pytest

from gpuviz.scenario import compute_all, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "gpuviz" / "scenarios"


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
