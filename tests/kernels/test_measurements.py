"""Shipped measurements: every case measured on the H200 agrees with its model, or is a known,
explained disagreement; the profiler's CSV is read as it comes."""

from __future__ import annotations

import pytest

from gpuviz.kernels import measure
from gpuviz.kernels.ncu_csv import read_rows

FILES = measure.shipped()
# the LRU model of a whole 8192² problem takes minutes; those cases are checked by
# tools/build_measurements.py and `gpuviz measure compare`, not on every test run
SLOW_TILES = 48 * 48


def test_measurements_are_shipped_with_their_provenance():
    names = {f.name for f in FILES}
    assert {"h200-banks.json", "h200-sectors.json", "h200-occupancy-carveout.json",
            "h200-traversal.json", "h200-exported-kernels.json"} <= names
    for f in FILES:
        m = measure.load(f)
        for key in ("device", "driver", "toolkit", "profiler", "date", "tool", "cases"):
            assert m.get(key), f"{f.name}: no {key}"
        assert m["device"] == "NVIDIA H200"


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_every_measurement_agrees_with_the_model(path):
    m = measure.load(path)
    m["cases"] = [c for c in m["cases"] if c["panel"] != "traversal"
                  or c["section"].get("rows", 8) * c["section"].get("cols", 12) < SLOW_TILES]
    rows = measure.compare(m, path.name)
    assert rows
    # the model value stored for the app (Measurements dock) is still what the model says
    stored = [c["model"] for c in m["cases"]]
    assert stored == pytest.approx([r.model for r in rows])
    unexplained = [(r.id, r.model, r.measured) for r in rows if not r.agrees and not r.known]
    assert not unexplained
    for r in rows:
        if r.known:
            assert not r.agrees, f"{r.id} is listed as a disagreement but agrees"


def test_merged_phases_were_seen_on_the_hardware():
    """The shipped banks measurements include loads the fixed phases overcount."""
    from gpuviz.models import banks
    from gpuviz.scenario.io import decode_section

    merged = 0
    for name in ("h200-banks.json", "h200-banks-merge.json"):
        for c in measure.load(next(f for f in FILES if f.name == name))["cases"]:
            p, _ = decode_section("banks", c["section"])
            r = banks.compute(p)
            if r.merged_by is not None and r.fixed_phase_rounds > r.rounds:
                assert c["measured"] == r.rounds < r.fixed_phase_rounds
                merged += 1
    assert merged >= 30


CSV = '''==PROF== Connected to process 1 (probe)
case 0 a
"ID","Kernel Name","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","smsp__inst_executed_op_global_ld.sum"
"","","sector",""
"1","ldg_probe<4>","5","1"
"0","ldg_probe<4>","4","1"
==PROF== Disconnected from process 1
'''


def test_ncu_csv_is_read_past_the_profiler_notes_in_launch_order():
    rows = read_rows(CSV)
    assert [r["ID"] for r in rows] == ["0", "1"]
    assert rows[1]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == "5"


def test_import_joins_launches_to_cases_and_compares():
    cases = [{"id": "aligned", "panel": "sectors", "op": "ldg",
              "section": {"follow_launch": False}},
             {"id": "shifted", "panel": "sectors", "op": "ldg",
              "section": {"follow_launch": False, "base_offset": 4}}]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "p.csv"
        p.write_text(CSV)
        m = measure.from_ncu([p], cases, {"date": "today"})
        with pytest.raises(ValueError, match="2 profiled launches for 1 cases"):
            measure.from_ncu([p], cases[:1], {})
    assert [c["measured"] for c in m["cases"]] == [4.0, 5.0]
    assert [r.agrees for r in measure.compare(m)] == [True, True]
    m["cases"][0]["measured"] = 5
    assert [r.agrees for r in measure.compare(m)] == [False, True]
