"""The tma model's placement against every box load the GPU ran (resources/measurements/tma/
h100-tma.json), computed from the model's parameters directly: each element-sized slot of the
buffer holds what the model places there, zero fill included, and no other slot is written."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from gpuviz.models import tma

PATH = resources.files("gpuviz.resources") / "measurements" / "tma" / "h100-tma.json"
LOADS = [c for c in json.loads(PATH.read_text())["cases"] if c["check"] == "load" and "slots" in c]


def _params(section: dict) -> tma.TmaParams:
    return tma.TmaParams(**{k: tuple(v) if isinstance(v, list) else v for k, v in section.items()})


@pytest.mark.parametrize("case", LOADS, ids=lambda c: c["id"])
def test_every_slot_of_each_box_load_holds_what_the_model_places_there(case):
    from test_tma_hardware import expected_slots

    r = tma.compute(_params(case["section"]))
    assert r.tensor_map_valid and r.box_bytes == case["box_bytes"]
    want, got = expected_slots(case, r), case["slots"]
    wrong = [(k, want[k], got[k]) for k in range(len(got)) if want[k] != got[k]]
    assert not wrong, (f"{case['id']}: {len(wrong)} slots differ (slot, model, GPU), "
                       f"first {wrong[:4]}")
