"""SPEC.md ✔ values of the mma panel, from the bundled scenarios that show them, and the H200's
word on every bundled state's fragment load."""

from __future__ import annotations

from gpuviz.measurements import lookup
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.scenario.compute import effective_params

SCENARIOS = scenario_dir()


def states(name):
    sc = load_scenario(SCENARIOS / name)
    return [sc.at_step(k) for k in range(-1, len(sc.steps))]


def result(state):
    return compute_all(state, ("mma",))["mma"]


def test_predict_then_reveal_c_9_3_is_lane_5_c3():
    s = states("mma-fragments.json")
    predict, reveal = s[1], s[2]
    assert "c:9,3" in predict.steps[0].select and "lane 4·1 + 1 = 5" in predict.steps[0].caption
    r = result(reveal)
    assert r.lane == 5 and (r.c.lane_of(9, 3), r.c.element_of(9, 3)) == (5, 3)


def test_fragment_steps_walk_every_shape():
    shapes = [(r.shape, r.dtype, r.accumulator, r.registers_per_thread["a"])
              for r in map(result, states("mma-fragments.json"))]
    assert shapes[-3:] == [("m16n8k8", "tf32", "f32", 4), ("m16n8k32", "s8", "s32", 4),
                           ("m8n8k4", "f64", "f64", 2)]


def test_ldmatrix_wavefronts_row_major_padded_swizzled():
    got = [result(s).ldmatrix_wavefronts for s in states("mma-ldmatrix-swizzle.json")]
    # before the steps, predict (row-major), padded, 128B, 64B, B .x2.trans (128B)
    assert got == [32, 32, 4, 4, 8, 2]


def test_unaligned_warps_are_no_warpgroup():
    valid = [result(s).warpgroup_valid for s in states("mma-wgmma-warpgroup.json")]
    assert valid[:4] == [True, True, False, True]  # warps 0–3, 0–3, 1–4, 4–7
    r = result(states("mma-wgmma-warpgroup.json")[6])
    assert not r.warpgroup.async_steps[-1].d_readable  # wait_group 1, then read D


def test_hierarchy_captions_match_the_model():
    sc = load_scenario(SCENARIOS / "mma-hierarchy.json")
    wants = [(128, 200, 2), (64, 128, 2), (128, 200, 1)]
    for k, want in enumerate(wants):
        h = result(sc.at_step(k)).hierarchy
        assert (h.accumulator_registers, h.registers_per_thread, h.blocks_per_sm) == want
        caption = sc.steps[k].caption
        assert f"{want[0]} accumulator" in caption or f"Accumulators: {want[0]}" in caption
        assert f"{want[1]} registers" in caption or f"{want[1]} in all" in caption


def test_every_bundled_fragment_load_was_measured_and_agrees():
    for name in ("mma-fragments.json", "mma-ldmatrix-swizzle.json",
                 "mma-wgmma-warpgroup.json", "mma-hierarchy.json"):
        for state in states(name):
            params = effective_params(state, "mma")
            m = lookup("mma", params)
            assert m is not None, f"{name}: {params.feed} not measured"
            assert m.agrees_with(result(state).ldmatrix_wavefronts)
