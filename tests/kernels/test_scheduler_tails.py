"""The scheduler loops' chunk clocks: what each disagreement between the model's steady state
and the H200's whole-run utilisation says is measured, not inferred."""
from __future__ import annotations

import json
from importlib import resources

from gpuviz.kernels.scheduler import TOLERANCE, remodel, tails


def _shipped():
    path = resources.files("gpuviz.resources") / "measurements" / "h200-scheduler.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _key(case):
    s = case["section"]
    return case["form"], s["memory"], s["math_per_load"], s["warps_per_sm"]


def test_every_profiled_loop_has_its_chunk_clocks():
    t = tails()
    data = _shipped()
    assert {_key(c) for c in data["cases"]} == set(t)
    for v in t.values():
        assert v["sms_measured"] == 132 and v["sms_without_window"] == 0
        assert 0 < v["window_share"] <= 1 and v["ratio_low"] <= v["ratio_mean"] <= v["ratio_high"]


def test_each_disagreement_quotes_the_measured_steady_state_and_says_which_cause():
    data = remodel(_shipped())
    t = tails()
    assert data["known_disagreements"], "the H200 still differs from the model somewhere"
    by_id = {c["id"]: c for c in data["cases"]}
    for cid, why in data["known_disagreements"].items():
        c = by_id[cid]
        share = t[_key(c)]["window_share"]
        assert f"ran together for {share:.0%} of the run" in why, why
        steady = c["measured"] * t[_key(c)]["ratio_mean"]
        explained = abs(c["model"] / steady - 1) <= TOLERANCE
        assert ("finishing apart is the difference" in why) == explained, why
        assert ("a stall the model leaves out" in why) == (not explained), why


def test_in_steady_state_all_but_four_loops_agree_within_the_tolerance():
    t = tails()
    out = [c["id"] for c in _shipped()["cases"]
           if abs(c["model"] / (c["measured"] * t[_key(c)]["ratio_mean"]) - 1) > TOLERANCE]
    # the C = 64 loop at 64 warps from DRAM (+10.3 %) and through L2 at 32 warps (+22 %),
    # in both operand forms: over the whole run, 11 of 144 were outside
    assert sorted(out) == ["sched-imm-dram-c64-w64", "sched-imm-l2-c64-w32",
                           "sched-reg-dram-c64-w64", "sched-reg-l2-c64-w32"]
