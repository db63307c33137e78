"""The tma model against what the GPU did, case by case (resources/measurements/tma/h100-tma.json,
made by tools/tma_probe.cu): the driver's accept or refuse of each tensor map, every byte of
each box load (placement, zero fill, bytes left alone), each copy that faulted, the phase
parity and parity waits after every mbarrier event, and cudaOccupancyMaxActiveClusters.

Each case is a ``tma`` section in the fields of shared/SPEC.md; the model computes it through
the scenario loader, as ``gpuviz compute`` does. A case on which the model differs from the
hardware fails with the case id, the model's answer and the hardware's."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import pytest

from gpuviz.models.jsonable import to_jsonable
from gpuviz.registry import PANEL_IDS

pytestmark = pytest.mark.skipif("tma" not in PANEL_IDS, reason="no tma panel registered")

PATH = resources.files("gpuviz.resources") / "measurements" / "tma" / "h100-tma.json"
DATA = json.loads(PATH.read_text())
CASES = DATA["cases"]


def _of(check: str) -> list[dict[str, Any]]:
    return [c for c in CASES if c["check"] == check]


@cache
def _model(section_json: str) -> Any:
    from gpuviz.scenario import compute_all, loads_scenario

    section = json.loads(section_json)
    scenario = loads_scenario(json.dumps({"version": 1, "title": "case", "panels": ["tma"],
                                          "tma": section}), "case")
    return compute_all(scenario, ("tma",))["tma"]


def model(case: dict[str, Any]) -> Any:
    return _model(json.dumps(case["section"], sort_keys=True))


def test_the_file_records_its_device_versions_and_every_kind_of_case():
    for key in ("device", "driver", "toolkit", "date", "tool", "build", "command"):
        assert DATA[key], key
    assert DATA["compute_capability"] == "9.0"
    assert {c["check"] for c in CASES} == {"encode", "load", "barrier", "clusters"}
    assert len(PATH.read_bytes()) < 1_000_000


@pytest.mark.parametrize("case", _of("encode") + _of("load"), ids=lambda c: c["id"])
def test_the_model_accepts_or_refuses_each_tensor_map_as_the_driver_did(case):
    r = model(case)
    driver = case["cu_result"] == 0
    assert bool(r.tensor_map_valid) == driver, (
        f"{case['id']}: model {'accepts' if r.tensor_map_valid else 'refuses'} "
        f"({list(r.tensor_map_problems)}), driver {'accepts' if driver else 'refuses'} "
        f"(CUresult {case['cu_result']})")
    assert bool(r.tensor_map_problems) == (not r.tensor_map_valid)


def expected_slots(case: dict[str, Any], r: Any) -> list[int]:
    """What the probe read back in each element-sized slot, by the model: element (x, y) holds
    y * d0 + x + 1, zero fill 0, a slot no element lands in keeps -1."""
    s = case["section"]
    eb = s["element_bytes"]
    d0, d1 = s["global_dims"]
    x0, y0 = s["box_start"]
    out = [-1] * len(case["slots"])
    for row, (offsets, zeros) in enumerate(zip(r.placement, r.zero_filled, strict=True)):
        for e, (offset, zero) in enumerate(zip(offsets, zeros, strict=True)):
            x, y = x0 + e, y0 + row
            inside = 0 <= x < d0 and 0 <= y < d1
            assert bool(zero) == (not inside), (case["id"], row, e)
            assert offset % eb == 0, (case["id"], row, e, offset)
            out[offset // eb] = y * d0 + x + 1 if inside else 0
    return out


LOADS = [c for c in _of("load") if "slots" in c]


@pytest.mark.parametrize("case", LOADS, ids=lambda c: c["id"])
def test_every_byte_of_each_box_lands_where_the_model_places_it(case):
    r = model(case)
    assert case["completed"], case["id"]
    assert r.box_bytes == case["box_bytes"]
    want, got = expected_slots(case, r), case["slots"]
    wrong = [(k, want[k], got[k]) for k in range(len(got)) if want[k] != got[k]]
    assert not wrong, (f"{case['id']}: {len(wrong)} slots differ (slot, model, hardware), "
                       f"first {wrong[:4]}")


FAULTS = [c for c in _of("load") if "fault" in c]


@pytest.mark.parametrize("case", FAULTS, ids=lambda c: c["id"])
def test_a_copy_that_faulted_is_a_copy_fault_in_the_model(case):
    r = model(case)
    assert r.tensor_map_valid and r.copy_faults, (
        f"{case['id']}: the driver encoded the map and the copy faulted ({case['fault']}); "
        f"the model accepts it")


@pytest.mark.parametrize("case", _of("barrier"), ids=lambda c: c["id"])
def test_the_barrier_trace_follows_the_hardware_event_by_event(case):
    r = model(case)
    events = case["section"]["barrier"]["events"]
    assert len(r.barrier_trace) == len(events) == len(case["trace"])
    parity = 0
    trace = [to_jsonable(step) for step in r.barrier_trace]
    for i, (event, m, hw) in enumerate(zip(events, trace, case["trace"], strict=True)):
        assert hw["wait0"] != hw["wait1"], (case["id"], i)  # one phase open, the other done
        now = int(hw["wait0"])  # parity of the open phase: test_wait(0) true once phase 0 is done
        where = f"{case['id']} event {i} {event}"
        assert m["phase"] % 2 == now, f"{where}: model phase {m['phase']}, hardware parity {now}"
        assert bool(m["completed"]) == (now != parity), (
            f"{where}: model completed={m['completed']}, hardware {'did' if now != parity else 'did not'}")
        if event["op"] == "test_wait":
            hw_wait = hw["wait0"] if event["parity"] == 0 else hw["wait1"]
            assert m["wait"] == hw_wait, f"{where}: model wait {m['wait']}, hardware {hw_wait}"
        parity = now


CLUSTERS = _of("clusters")
# blocks of one kernel resident per SM as size-1 clusters reach them on the device: the per-SM
# residency is the occupancy panel's model; here the packing of clusters into GPCs is checked
_PER_SM = {(c["section"]["threads_per_block"], c["section"]["dynamic_shared_memory"]):
           c["max_active_clusters"] for c in CLUSTERS if c["section"]["cluster"]["dims"] == [1, 1, 1]}
@pytest.mark.parametrize("case", CLUSTERS, ids=lambda c: c["id"])
def test_max_active_clusters_is_the_occupancy_apis(case):
    s = case["section"]
    blocks = _PER_SM[(s["threads_per_block"], s["dynamic_shared_memory"])] // 132
    r = model({"section": {"cluster": {"dims": s["cluster"]["dims"], "blocks_per_sm": blocks}}})
    assert r.max_active_clusters == case["max_active_clusters"], (
        f"{case['id']}: model {r.max_active_clusters}, "
        f"cudaOccupancyMaxActiveClusters {case['max_active_clusters']}")


def _resident_cases():
    path = resources.files("gpuviz.resources") / "measurements" / "tma" / "h100-clusters.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return data, data["cases"]


RESIDENT_FILE, RESIDENT = _resident_cases()


@pytest.mark.parametrize("case", RESIDENT, ids=lambda c: f"s{c['shared']}-c{c['cluster']}")
def test_resident_clusters_are_what_the_hardware_held(case):
    # blocks per SM from the occupancy API for the launch's shared memory; the measured cap on
    # a cluster launch's CTAs an SM is the model's, not this test's
    r = model({"section": {"cluster": {"dims": [case["cluster"], 1, 1],
                                       "blocks_per_sm": case["blocks_per_sm_api"]}}})
    assert r.max_active_clusters == case["max_active_clusters_api"] == case["most_resident"]


def test_the_models_gpcs_are_the_groups_the_probe_found():
    r = model({"section": {}})
    assert r.cluster_groups_measured
    assert sorted(r.cluster_groups) == sorted(len(g) for g in RESIDENT_FILE["groups"])
    assert sum(r.cluster_groups) == RESIDENT_FILE["sms"] == 132
    # every SM in exactly one group
    sms = [sm for g in RESIDENT_FILE["groups"] for sm in g]
    assert sorted(sms) == list(range(132))
