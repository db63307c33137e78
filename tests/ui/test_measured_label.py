"""Each panel with a measured counterpart shows the model's value beside the H200's, and says
"not measured" where no measurement of the section ships."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from gpuviz.measurements import lookup
from gpuviz.scenario.compute import effective_params


def _measured(w, pid):
    QApplication.processEvents()
    QApplication.processEvents()
    return w.docks[pid].measured


def test_a_measured_section_shows_the_h200_value_beside_the_model(make_main_window, scenario_path):
    w = make_main_window(scenario_path("banks-padded33.json"))
    label = _measured(w, "banks")
    m = lookup("banks", effective_params(w.document.shown, "banks"))
    assert m is not None, "banks-padded33 is among the shipped measurements"
    assert label.isVisibleTo(w.docks["banks"])
    assert label.text() == f"Model: 1 shared-memory wavefronts · {m.label(1.0)}"
    assert "(agrees)" in label.text()


def test_an_unmeasured_section_says_so_and_other_panels_show_nothing(make_main_window,
                                                                      scenario_path):
    w = make_main_window(scenario_path("launch-n130.json"))
    assert _measured(w, "launch").text() == ""
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    text = _measured(w, "sectors").text()
    assert text.startswith("Model: ") and ("measured" in text)
