"""The Measurements dock: the shown scenario's model beside the H200, and the shipped cases."""

from __future__ import annotations

from gpuviz import measurements
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui.document import Document
from gpuviz.ui.measurements_dock import MeasurementsDock


def test_lookup_matches_a_bundled_state_and_says_not_measured_otherwise():
    from dataclasses import replace

    from gpuviz.scenario.compute import effective_params

    sc = load_scenario(scenario_dir() / "banks-column32.json")
    p = effective_params(sc, "banks")
    m = measurements.lookup("banks", p)
    assert m is not None and m.measured == 32 and m.device == "NVIDIA H200"
    assert measurements.label("banks", p, 32) == "H200 measured: 32 (agrees)"
    assert measurements.label("banks", p, 31) == "H200 measured: 32 (model 31 differs)"
    odd = replace(p, pattern=replace(p.pattern, padding=7, column=3))
    assert measurements.label("banks", odd, 1) == measurements.NOT_MEASURED


def test_dock_shows_the_current_scenario_and_filters_disagreements(qtbot):
    doc = Document(load_scenario(scenario_dir() / "sectors-shifted.json"))
    dock = MeasurementsDock(doc)
    qtbot.addWidget(dock)
    assert dock.current_lines() == ["sectors: model 5 32-byte sectors — "
                                    "H200 measured: 5 (agrees)"]
    dock.show()
    rows = dock.rows()
    assert len(rows) > 4000 and dock.table.rowCount() == len(rows)
    dock.only_disagreements.setChecked(True)
    bad = [r for r in rows if not r["agrees"]]
    assert dock.table.rowCount() == len(bad)
    assert all(r["known"] for r in bad)  # every disagreement shipped is explained
    assert "unexplained" in dock.summary.text()
