"""Rank-3 box loads on the hardware (resources/measurements/tma/h100-tma-interleave.json, made by
tools/tma_interleave_sweep.py): the driver's answer as the model's, and every slot of every box,
interleaved or not, where the model places it: the model computes, the file holds what the H100
wrote."""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from gpuviz.models.tma_map import box_rows, box_start, global_element, run_starts

PATH = resources.files("gpuviz.resources") / "measurements" / "tma" / "h100-tma-interleave.json"
DATA = json.loads(PATH.read_text(encoding="utf-8"))
LOADS = [c for c in DATA["cases"] if "slots" in c]
PLAIN = [c for c in LOADS if c["section"]["interleave"] == "none"]
INTERLEAVED = [c for c in LOADS if c["section"]["interleave"] != "none"]


def model(case: dict[str, Any]):
    from gpuviz.scenario import compute_all, loads_scenario

    scenario = loads_scenario(json.dumps({"version": 1, "title": "case", "panels": ["tma"],
                                          "tma": case["section"]}))
    return compute_all(scenario)["tma"]


def expected_slots(case: dict[str, Any], r: Any) -> list[int]:
    s = case["section"]
    eb = s["element_bytes"]
    d0, d1, d2 = s["global_dims"]
    x0, y0, z0 = s["box_start"]
    out = [-1] * len(case["slots"])
    rows = box_rows(r.params)
    assert box_start(r.params) == (x0, y0, z0)
    for (dy, dz), offsets, zeros in zip(rows, r.placement, r.zero_filled, strict=True):
        for dx, (offset, zero) in enumerate(zip(offsets, zeros, strict=True)):
            x, y, z = x0 + dx, y0 + dy, z0 + dz
            inside = 0 <= x < d0 and 0 <= y < d1 and 0 <= z < d2
            assert bool(zero) == (not inside), (case["id"], dx, dy, dz)
            out[offset // eb] = (z * d1 + y) * d0 + x + 1 if inside else 0
    return out


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["id"])
def test_the_model_accepts_or_refuses_each_map_as_the_driver_did(case):
    r = model(case)
    assert bool(r.tensor_map_valid) == (case["cu_result"] == 0), (case["id"], r.tensor_map_problems)


def test_the_cases_cover_both_kinds():
    assert len(PLAIN) == 2 and len(INTERLEAVED) == 12
    assert all(c["completed"] for c in PLAIN)


@pytest.mark.parametrize("case", PLAIN, ids=lambda c: c["id"])
def test_every_slot_of_a_rank_3_box_is_where_the_model_places_it(case):
    r = model(case)
    assert r.tensor_map_valid and case["completed"]
    assert r.box_bytes == case["box_bytes"]
    want, got = expected_slots(case, r), case["slots"]
    wrong = [(k, want[k], got[k]) for k in range(len(got)) if want[k] != got[k]]
    assert not wrong, (f"{case['id']}: {len(wrong)} of {len(got)} slots differ (slot, model, "
                       f"hardware), first {wrong[:6]}")


def interleaved_slots(case: dict[str, Any], r: Any) -> list[int]:
    """Each slot as the model fills it: the run's global bytes, read back as the probe wrote
    them (element (x, y, z) holds (z · d1 + y) · d0 + x + 1, padding bytes 0xEE), or zeros."""
    s = case["section"]
    eb = s["element_bytes"]
    d0, d1, _ = s["global_dims"]
    out = [-1] * len(case["slots"])
    pad = int.from_bytes(b"\xee" * min(eb, 4), "little")
    for start, offsets, zeros in zip(run_starts(r.params), r.placement, r.zero_filled,
                                     strict=True):
        for j, (offset, zero) in enumerate(zip(offsets, zeros, strict=True)):
            at = global_element(r.params, start + j * eb)
            value = pad if at is None else (at[2] * d1 + at[1]) * d0 + at[0] + 1
            out[offset // eb] = 0 if zero else value
    return out


@pytest.mark.parametrize("case", INTERLEAVED, ids=lambda c: c["id"])
def test_every_slot_of_an_interleaved_box_is_where_the_model_places_it(case):
    r = model(case)
    assert r.tensor_map_valid and r.placement
    want, got = interleaved_slots(case, r), case["slots"]
    wrong = [(k, want[k], got[k]) for k in range(len(got)) if want[k] != got[k]]
    assert not wrong, (f"{case['id']}: {len(wrong)} of {len(got)} slots differ (slot, model, "
                       f"hardware), first {wrong[:6]}")


def _written(case) -> int:
    return sum(v != -1 for v in case["slots"]) * case["section"]["element_bytes"]


@pytest.mark.parametrize("case", INTERLEAVED, ids=lambda c: c["id"])
def test_an_interleaved_copy_writes_the_bytes_the_model_counts(case):
    r = model(case)
    assert r.transaction_bytes == _written(case), case["id"]
    # with 2-byte elements the runs are more than the box's bytes, with 4-byte ones the same
    eb = case["section"]["element_bytes"]
    assert (r.transaction_bytes > r.box_bytes) == (eb == 2), case["id"]


def probe_script(case: dict[str, Any]) -> dict[str, Any]:
    """The probe's barrier script: one arrival expected, arrive with expect-tx of the box's
    bytes, the copy, a wait on parity 0."""
    return {"count": 1, "events": [{"op": "arrive_expect_tx", "bytes": case["box_bytes"]},
                                   {"op": "copy"}, {"op": "test_wait", "parity": 0}]}


@pytest.mark.parametrize("case", LOADS, ids=lambda c: c["id"])
def test_the_probes_wait_ends_as_the_model_says_or_the_model_says_either(case):
    r = model({**case, "section": {**case["section"], "barrier": probe_script(case)}})
    wait = r.barrier_trace[-1]
    if r.transaction_bytes == case["box_bytes"]:
        # the copy signals exactly what the phase expects: it completes
        assert not wait.uncertain and wait.wait and case["completed"], case["id"]
    else:
        # fewer bytes expected than the copy writes: its parts pass the count; the H100
        # completed some such phases early and left others open
        assert r.transaction_bytes > case["box_bytes"] and wait.uncertain, case["id"]


def test_loads_expecting_fewer_bytes_than_they_write_did_either():
    passed = [c["completed"] for c in INTERLEAVED
              if model(c).transaction_bytes > c["box_bytes"]]
    assert len(passed) == 10 and 0 < sum(passed) < len(passed)


def _sweep_tool():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "tma_interleave_sweep.py"
    spec = importlib.util.spec_from_file_location("tma_interleave_sweep", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_settling_cases_are_maps_the_model_accepts_and_places(tmp_path):
    tool = _sweep_tool()
    settle = tool.settle_cases()
    for name, section in settle:
        r = model({"section": section})
        assert r.tensor_map_valid and r.placement, (name, r.tensor_map_problems)
    tool.write_cases_x(tmp_path)
    lines = (tmp_path / "casesx.txt").read_text().splitlines()
    assert len(lines) == len(tool.cases()) + len(settle)
    # the probe reads M's 16 numbers after the kind and the name; padded strides travel
    assert all(ln.startswith("X ") and len(ln.split()) == 18 for ln in lines)
    assert "X x-il16-e2-pad 2 8 12 6 32 384 " in "\n".join(lines)
