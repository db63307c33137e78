"""SPEC.md ✔ values of the scheduler panel, computed from the bundled scenarios that show them.

The source text gives "about" values for the simulation (about 90% busy, roughly 40% empty); the model
counts every simulated cycle from cycle 0, and the tests hold it to those words with a tolerance
of five percentage points."""

import math

import pytest

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def scheduler_of(name, step):
    scenario = load_scenario(SCENARIOS / name).at_step(step)
    return compute_all(scenario, ("scheduler",))["scheduler"]


def test_c8_needs_about_46_warps():
    r = scheduler_of("scheduler-v100-arithmetic-intensity.json", 0)
    assert (r.P, r.I) == (407, 9)
    assert r.warps_needed == 46
    assert r.resident_warps == 16
    assert r.predicted_utilization == pytest.approx(16 * 9 / 407)


def test_c32_needs_16_warps():
    r = scheduler_of("scheduler-v100-arithmetic-intensity.json", 1)
    assert (r.P, r.I) == (503, 33)
    assert r.warps_needed == 16
    assert r.predicted_utilization == 1.0


def test_16_warps_latency_200_math_16_should_hide_latency():
    r = scheduler_of("scheduler-try-round-robin.json", 0)
    assert (r.resident_warps, r.P, r.I) == (16, 264, 17)
    assert r.warps_needed == math.ceil(264 / 17) == 16


def test_gto_is_about_90_percent_busy():
    r = scheduler_of("scheduler-try-round-robin.json", 0)
    assert r.policy == "gto"
    assert r.issue_utilization == pytest.approx(0.90, abs=0.05)


def test_lrr_leaves_roughly_40_percent_of_slots_empty():
    r = scheduler_of("scheduler-try-round-robin.json", 1)
    assert r.policy == "lrr"
    assert 1 - r.issue_utilization == pytest.approx(0.40, abs=0.05)


def test_divergence_raises_issue_and_lowers_lane_utilisation():
    off = scheduler_of("scheduler-try-divergence.json", 0)
    on = scheduler_of("scheduler-try-divergence.json", 1)
    assert on.divergence and not off.divergence
    assert on.issue_utilization > off.issue_utilization
    assert on.lane_utilization < off.lane_utilization


@pytest.mark.parametrize(("step", "registers", "cap"),
                         [(0, 32, 16), (1, 33, 15), (2, 40, 12), (3, 64, 8), (4, 128, 4)])
def test_register_cap_and_its_cost(step, registers, cap):
    r = scheduler_of("scheduler-try-registers.json", step)
    full = scheduler_of("scheduler-try-registers.json", 0)
    assert r.resident_warps == cap
    assert r.register_cap == min(16, 16384 // (32 * registers))
    if cap < 16:
        assert r.issue_utilization < full.issue_utilization
        assert r.predicted_utilization == pytest.approx(cap * 17 / 264)


def test_independent_loads_cut_the_warps_needed_about_k_fold():
    one = scheduler_of("scheduler-memory-parallelism.json", 0)
    four = scheduler_of("scheduler-memory-parallelism.json", 1)
    assert (four.P, four.I) == (375 + 4 * 4 * 8, 36)
    assert one.warps_needed / four.warps_needed > 3
    assert four.issue_utilization > 2 * one.issue_utilization
