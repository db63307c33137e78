"""What a dock says besides its figure: the model's value beside the H200's where a measured
counterpart exists ("not measured" where none ships), and why a panel cannot be shown."""

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


def test_a_panel_opened_under_an_architecture_its_model_declines_says_why(make_main_window,
                                                                          tmp_path):
    import json

    path = tmp_path / "amd.json"
    path.write_text(json.dumps({"version": 1, "arch": "mi300x", "panels": ["launch"]}))
    w = make_main_window(path)
    w.show_panel("occupancy", True)
    for _ in range(4):
        QApplication.processEvents()
    texts = " ".join(w.docks["occupancy"].current_figure().texts())
    assert "follows the scenario's architecture" in texts
    assert "TypeError" not in texts
