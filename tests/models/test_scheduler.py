"""One warp scheduler: the source text's loop arithmetic, the register cap, and the simulation's laws."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models.scheduler import (
    ISSUED,
    LOAD,
    LOOP,
    MATH,
    MEMORY,
    READY,
    SchedulerParams,
    canonical,
    compute,
    level_load,
    loaded_latency,
    problems,
    register_cap,
    scheduler_warps,
    sm_issue_utilization,
    steady_utilization,
)


def test_v100_c8_loop_is_407_cycles_for_9_instructions_needing_46_warps():
    r = compute(SchedulerParams(load_latency=375, math_latency=4, math_per_load=8, cycles=1000))
    assert (r.P, r.I, r.warps_needed) == (407, 9, 46)


def test_v100_c32_loop_is_503_cycles_for_33_instructions_needing_16_warps():
    r = compute(SchedulerParams(load_latency=375, math_latency=4, math_per_load=32, cycles=1000))
    assert (r.P, r.I, r.warps_needed) == (503, 33, 16)


def test_latency_200_math_16_needs_16_warps():
    r = compute(SchedulerParams(load_latency=200, math_per_load=16, cycles=1000))
    assert (r.P, r.I, r.warps_needed) == (264, 17, 16)


@pytest.mark.parametrize(("registers", "cap"), [(32, 16), (33, 15), (40, 12), (64, 8), (128, 4)])
def test_registers_cap_resident_warps(registers, cap):
    p = SchedulerParams(registers_per_thread=registers, cycles=100)
    assert register_cap(p) == cap
    assert compute(p).resident_warps == cap


def test_too_many_registers_is_a_problem():
    p = SchedulerParams(registers_per_thread=255, registers_per_scheduler=4096)
    assert problems(p)[0][0] == "registers_per_thread"


def test_k_independent_loads_pay_the_latency_once():
    r = compute(SchedulerParams(load_latency=375, math_per_load=8, loads_per_warp=4, cycles=100))
    assert (r.P, r.I) == (375 + 4 * 4 * 8, 4 * 9)


def test_divergence_doubles_the_math_at_half_the_lanes():
    r = compute(SchedulerParams(divergence=True, warps=1, cycles=600))
    assert (r.P, r.I) == (200 + 2 * 4 * 16, 1 + 32)
    kinds = r.issued_kind[r.issued_kind > 0]
    lanes = r.issued_lanes[r.issued_kind > 0]
    assert set(lanes[kinds == MATH]) == {16}
    assert set(lanes[kinds == LOAD]) == {32}


def test_all_warps_start_in_order_and_lrr_keeps_turns():
    r = compute(SchedulerParams(policy="lrr", cycles=40))
    assert list(r.issued_warp[:16]) == list(range(16))


def test_gto_issues_a_warps_independent_loads_back_to_back():
    r = compute(SchedulerParams(policy="gto", loads_per_warp=3, cycles=10))
    assert list(r.issued_warp[:6]) == [0, 0, 0, 1, 1, 1]


def test_simulation_is_deterministic():
    p = SchedulerParams(policy="lrr", cycles=3000)
    a, b = compute(p), compute(p)
    assert np.array_equal(a.issued_warp, b.issued_warp)
    assert np.array_equal(a.states, b.states)


loops = st.builds(
    SchedulerParams,
    load_latency=st.integers(1, 400),
    math_latency=st.integers(1, 12),
    math_per_load=st.integers(0, 24),
    loads_per_warp=st.integers(1, 4),
    divergence=st.booleans(),
    policy=st.sampled_from(["gto", "lrr"]),
    loop_instructions=st.sampled_from([0, 0, 3, 8]),
)


@settings(max_examples=60, deadline=None)
@given(loops, st.integers(1, 5))
def test_one_warp_runs_the_uncontended_loop(p, m):
    p = dataclasses.replace(p, warps=1, cycles=m * loop_period(p))
    r = compute(p)
    assert r.issued_instructions == m * r.I
    assert r.loops_completed == m


def loop_period(p):
    from gpuviz.models.scheduler import loop_shape

    return loop_shape(p)[0]  # P, without simulating a run and its sweeps


@settings(max_examples=60, deadline=None)
@given(loops, st.integers(1, 16), st.integers(50, 3000))
def test_little_bounds_the_simulated_utilisation(p, warps, cycles):
    r = compute(dataclasses.replace(p, warps=warps, cycles=cycles))
    # each warp issues at most I instructions per P cycles (plus one loop's worth in progress)
    bound = r.resident_warps * r.I * (cycles // r.P + 1)
    assert r.issued_instructions <= min(cycles, bound)
    assert 0.0 <= r.lane_utilization <= r.issue_utilization <= 1.0


@settings(max_examples=40, deadline=None)
@given(loops, st.integers(1, 16))
def test_states_show_one_issue_per_busy_cycle(p, warps):
    r = compute(dataclasses.replace(p, warps=warps, cycles=800))
    issued = (r.states == ISSUED).sum(axis=0)
    assert np.array_equal(issued, (r.issued_kind > 0).astype(issued.dtype))
    # a cycle with a ready warp left unissued is never an idle cycle
    idle = r.issued_kind == 0
    assert not (r.states[:, idle] == READY).any()


def test_printed_timeline_is_the_start_of_the_issue_record():
    r = compute(SchedulerParams(cycles=3000))
    assert len(r.timeline) == 2000
    assert list(r.timeline) == list(r.issued_warp[:2000])
    assert r.timeline[:16] == tuple(range(16))


@settings(max_examples=30, deadline=None)
@given(loops)
def test_warp_sweep_starts_at_one_warps_rate_and_respects_littles_law(p):
    r = compute(dataclasses.replace(p, cycles=50))
    assert r.sweep_warps[0] == 1
    assert r.sweep_utilization[0] == pytest.approx(r.I / r.P)
    assert r.resident_warps in r.sweep_warps
    start, end = r.sweep_cycles
    loops = (end - start) // r.P
    for n, u in zip(r.sweep_warps, r.sweep_utilization, strict=True):
        assert u <= min(1.0, n * r.I * (loops + 1) / (loops * r.P)) + 1e-12


def test_warp_sweep_shows_the_knee_of_the_source_texts_example():
    r = compute(SchedulerParams(cycles=50))
    u = dict(zip(r.sweep_warps, r.sweep_utilization, strict=True))
    assert u[8] == pytest.approx(8 * 17 / 264, abs=0.01)  # latency-bound: on Little's line
    assert 0.85 <= u[16] < 1.0  # at the knee the simulation falls short of the prediction


def test_a_loop_too_long_for_the_sweep_budget_gives_an_empty_sweep():
    r = compute(SchedulerParams(load_latency=5000, math_per_load=512, math_latency=64,
                                loads_per_warp=16, cycles=100))
    assert r.sweep_warps == () and r.sweep_utilization == ()


# --- beyond the source text: the loop's own instructions, an SM's four schedulers, memory levels ------

def test_loop_instructions_follow_the_math_and_lengthen_the_loop():
    p = SchedulerParams(warps=1, load_latency=50, math_latency=4, math_per_load=4,
                        loop_instructions=8, cycles=200)
    r = compute(p)
    assert (r.P, r.I) == (50 + 4 * 4 + 8, 1 + 4 + 8)
    kinds = r.issued_kind[:r.P][r.issued_kind[:r.P] > 0].tolist()
    assert kinds == [LOAD] + [MATH] * 4 + [LOOP] * 8
    # the first loop instruction waits A after the last math, then one a cycle
    t = np.flatnonzero(r.issued_kind == LOOP)[:8]
    last_math = np.flatnonzero(r.issued_kind == MATH)[3]
    assert t[0] == last_math + 4 and list(np.diff(t)) == [1] * 7
    assert r.issued_kind[r.P] == LOAD  # the next loop's load, the cycle after the last


def test_four_schedulers_share_the_warps_per_sm():
    assert scheduler_warps(SchedulerParams(warps_per_sm=6)) == (2, 2, 1, 1)
    assert scheduler_warps(SchedulerParams(warps_per_sm=2)) == (1, 1)  # idle ones left out
    p = SchedulerParams(warps_per_sm=6, load_latency=100, math_per_load=8, cycles=500)
    r = compute(p)
    assert r.resident_warps == 2 and r.scheduler_warps == (2, 2, 1, 1)
    period = r.P
    two, one = steady_utilization(p, 2, period), steady_utilization(p, 1, period)
    assert r.sm_issue_utilization == pytest.approx((2 * two + 2 * one) / 4)
    assert sm_issue_utilization(p) == r.sm_issue_utilization
    assert dict(zip(r.sm_sweep_warps, r.sm_sweep_utilization, strict=True))[6] == \
        pytest.approx(r.sm_issue_utilization)


def test_memory_levels_take_the_h200_latency_and_ignore_the_custom_one():
    for level, m in MEMORY.items():
        a = compute(SchedulerParams(memory=level, load_latency=7, cycles=100))
        assert a.unloaded_latency == m.latency and a.bandwidth_per_sm == m.bandwidth_per_sm
        assert a.load_latency >= m.latency
        assert canonical(SchedulerParams(memory=level, load_latency=7, cycles=99)) == \
            SchedulerParams(memory=level)
    assert compute(SchedulerParams(cycles=100)).bandwidth_per_sm is None


def test_the_loaded_latency_grows_with_the_levels_load_and_custom_keeps_its_own():
    """L = L0·(1 + q·ρ/(1 − ρ)), ρ the bytes a cycle the SM's loads move over the level's
    bandwidth, each warp at Little's law's rate at that latency (at most one loop per I
    cycles): ρ is the fixed point of the two."""
    dram = MEMORY["dram"]
    p = SchedulerParams(memory="dram", math_per_load=16, loop_instructions=8, warps_per_sm=64)
    p0, i0 = 693 + 4 * 16 + 8, 1 + 16 + 8
    rho = level_load(p, 16)
    period = p0 + 693 * dram.queueing * rho / (1 - rho)
    assert rho == pytest.approx(4 * min(16 / period, 1 / i0) * 128 / dram.bandwidth_per_sm)
    assert 4 * 16 / p0 * 128 / dram.bandwidth_per_sm > rho > 0.5  # below what L0 would ask
    r = compute(p)
    assert r.load_latency == loaded_latency(p, 16) == \
        round(dram.latency * (1 + dram.queueing * rho / (1 - rho)))
    assert r.unloaded_latency == 693 and p0 + r.load_latency - 693 == r.P
    # more warps load more, up to the issue bound (one loop per I cycles): then it stays
    rising = [loaded_latency(p, n) for n in range(1, 17)]
    assert rising == sorted(rising) and rising[0] < rising[-1]
    c64 = dataclasses.replace(p, math_per_load=64)
    assert loaded_latency(c64, 14) == loaded_latency(c64, 16)  # 14 warps reach I = 73 a loop
    # the source text's custom latency is the same in every cycle, whatever the load
    custom = SchedulerParams(warps=16, load_latency=200, bandwidth_per_sm=8.0)
    assert all(loaded_latency(custom, n) == 200 for n in (1, 8, 16))
    assert compute(custom).load_latency == compute(custom).unloaded_latency == 200


def test_the_bandwidth_ceiling_binds_and_bends_the_simulated_curve():
    # 16 warps with little math each ask for more bytes than the level returns
    free = SchedulerParams(warps=16, load_latency=400, math_per_load=2, cycles=100)
    capped = dataclasses.replace(free, bandwidth_per_sm=8.0)  # 2 bytes a cycle per scheduler
    f, c = compute(free), compute(capped)
    assert f.limit == "latency" and f.bandwidth_bound is None
    assert c.limit == "bandwidth"
    assert c.bandwidth_bound == pytest.approx(c.I * 2.0 / 128)
    assert c.predicted_utilization == pytest.approx(c.bandwidth_bound)
    # Little's law for memory: the simulation cannot beat the bytes the level delivers
    assert c.sm_issue_utilization <= c.bandwidth_bound * 1.01
    assert c.sm_issue_utilization < 0.8 * f.sm_issue_utilization


def test_limit_names_issue_when_warps_cover_the_latency():
    r = compute(SchedulerParams(memory="l1", math_per_load=16, loop_instructions=8,
                                warps_per_sm=64, cycles=100))
    assert r.limit == "issue" and r.predicted_utilization == 1.0


def test_the_windowed_utilisation_adds_up_to_the_issue_record():
    from gpuviz.models.scheduler import utilisation_span, windowed_utilisation

    r = compute(SchedulerParams(warps=16, load_latency=200, math_per_load=16, cycles=4000))
    span, window = utilisation_span(r)
    centres, busy, lanes = windowed_utilisation(r)
    assert window == r.P // 8 and len(busy) == span // window
    assert busy.mean() * span == np.count_nonzero(r.issued_kind[:span])  # every window
    assert centres[0] == window / 2 and (lanes <= busy + 1e-12).all()  # lanes within issue


def test_saturation_is_where_every_scheduler_holds_its_share_of_the_plateau():
    from gpuviz.models.scheduler import saturation_warps_per_sm, uncapped_sm_prediction

    p = SchedulerParams(warps_per_sm=64, memory="dram", math_per_load=16, loop_instructions=8)
    w = saturation_warps_per_sm(p)
    assert w > 64  # more warps than the SM's slots hold
    top = uncapped_sm_prediction(p, w)
    assert uncapped_sm_prediction(p, w - 4) < top == uncapped_sm_prediction(p, w + 4)


def test_a_loop_too_long_for_a_steady_state_is_measured_over_the_run_within_the_budget(
        monkeypatch):
    """A loop of a million cycles (16 loads at L = 5000 and 16 × 512 dependent math at A = 64,
    divergent) has no steady state within the simulation's budget: the SM's utilisation is
    the run's own, said so, and nothing simulates more than the budget (it simulated three
    loop periods, 3.2 million cycles and 630 MB, before)."""
    from gpuviz.figures.scheduler import steady_words
    from gpuviz.models import scheduler as model

    ran = []
    simulate = model.simulate
    monkeypatch.setattr(model, "simulate",
                        lambda p, n, cycles=None: ran.append(cycles or p.cycles)
                        or simulate(p, n, cycles))
    p = SchedulerParams(warps=64, load_latency=5000, math_latency=64, math_per_load=512,
                        loads_per_warp=16, warp_slots=64, registers_per_thread=1,
                        registers_per_scheduler=1048576, divergence=True, cycles=3000,
                        warps_per_sm=8)
    r = model.compute(p)
    assert r.P > model.SWEEP_BUDGET and not r.sm_steady
    assert max(ran) <= model.SWEEP_BUDGET
    assert 0.0 < r.sm_issue_utilization <= 1.0
    assert "no steady state" in steady_words(r) and "3,000 cycles" in steady_words(r)
    short = model.compute(SchedulerParams(warps_per_sm=8))
    assert short.sm_steady and steady_words(short) == "in steady state (cycles 1,056–3,167)"
    assert short.steady_cycles == (4 * short.P, 12 * short.P)


def test_a_run_shorter_than_a_utilisation_window_is_one_window():
    """The shortest run a section accepts (10 cycles) against a loop period of hundreds: the
    utilisation over time is one window of the whole run, as the figure draws it."""
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import theme
    from gpuviz.models.scheduler import SchedulerParams, compute, windowed_utilisation
    from gpuviz.scenario import Scenario

    r = compute(SchedulerParams(cycles=10, load_latency=375))
    centres, busy, _ = windowed_utilisation(r)
    assert centres.tolist() == [5.0]
    assert busy.tolist() == [float((r.issued_kind[:10] > 0).mean())]
    scenario = Scenario(panels=("scheduler",)).with_section("scheduler", r.params)
    assert figure_for(scenario, "scheduler", theme("print"), frozenset()).keys()
