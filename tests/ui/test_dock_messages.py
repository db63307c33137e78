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
    w.document.go_to_step(1)  # step 2 asks about the overview's picture: answered first
    w.next_step()
    w.document.go_to_step(-1)
    label = _measured(w, "banks")
    m = lookup("banks", effective_params(w.document.shown, "banks"))
    assert m is not None, "banks-padded33 is among the shipped measurements"
    assert label.isVisibleTo(w.docks["banks"])
    assert label.text() == f"Model: 1 shared-memory wavefront · {m.label(1.0)}"
    assert "(agrees)" in label.text()


def test_the_scheduler_says_it_agrees_or_by_how_much_it_differs(make_main_window,
                                                                 scenario_path):
    w = make_main_window(scenario_path("scheduler-h200-l1.json"))
    text = _measured(w, "scheduler").text()
    assert text.startswith("Model: 72.6 % of the SM's issue slots used · H200 measured: 76.3 %")
    assert text.endswith("(agrees within 10 %)")
    w.document.go_to_step(1)  # C = 4 at 48 warps per SM: the model says 100 %, the H200 88 %
    assert _measured(w, "scheduler").text().endswith(
        "H200 measured: 88.0 % (model 100.0 %, 14 % higher)")


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


def test_override_fields_left_empty_show_the_architectures_values(make_main_window,
                                                                 scenario_path, qtbot):
    """Greyed out, they used to show their minimum (1 warp slot, 0 bytes of shared memory per
    SM) beside a figure built on 64 and 233,472."""
    from gpuviz.models.arch import preset_values

    w = make_main_window(scenario_path("occupancy-block-size.json"))
    dock = w.docks["occupancy"]
    qtbot.waitUntil(lambda: dock.current_figure() is not None, timeout=5000)
    preset = preset_values(w.document.shown.arch)
    shown = {name: dock.form._root.editors[name].inner.widget.value()
             for name in ("registers_per_sm", "shared_memory_per_sm", "max_warps_per_sm",
                          "max_blocks_per_sm")}
    assert shown == {name: preset[name] for name in shown}
    assert dock.form._root.editors["arch"].inner.widget.currentText() == w.document.shown.arch
    w = make_main_window(scenario_path("launch-n130.json"))
    dock = w.docks["launch"]
    qtbot.waitUntil(lambda: dock.current_figure() is not None, timeout=5000)
    grid = dock.form._root.editors["grid"]
    params = effective_params(w.document.shown, "launch")
    blocks = -(-params.n // params.block[0])  # just enough blocks to cover n
    assert not grid.check.isChecked() and grid.inner.widget.text() == f"{blocks}, 1, 1"


def test_the_occupancy_summary_names_the_limiter_and_counts_in_words(make_main_window,
                                                                    scenario_path, qtbot):
    w = make_main_window(scenario_path("occupancy-block-size.json"))  # 32-thread blocks
    dock = w.docks["occupancy"]
    qtbot.waitUntil(lambda: dock.summary.text() != "", timeout=5000)
    lines = dock.summary.text().splitlines()
    assert lines[0] == "32 blocks × 1 warp = 32 of 64 warps (50 %)"  # not "1 warps"
    assert lines[1] == "Limiter: block limit" and "block limit: 32 blocks" in lines


def test_an_arch_field_left_empty_shows_the_scenarios_architecture(make_main_window,
                                                                   scenario_path, qtbot):
    w = make_main_window(scenario_path("traversal-h200-l2.json"))
    dock = w.docks["traversal"]
    qtbot.waitUntil(lambda: dock.current_figure() is not None, timeout=5000)
    arch = dock.form._root.editors["arch"]  # the section names none
    assert not arch.check.isChecked() and w.document.shown.arch == "h200"
    assert arch.inner.widget.currentText() == "h200"  # showed the first preset, a100


def test_a_field_a_linked_panel_fills_in_shows_what_it_fills_in(make_main_window, scenario_path,
                                                               qtbot):
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    w.document.go_to_step(1)  # launch selects the partial warp: lanes 0 and 1 only
    dock = w.docks["sectors"]
    QApplication.processEvents()
    qtbot.waitUntil(lambda: dock.shown_key() is not None, timeout=5000)
    lanes = dock.form._root.editors["active_lanes"]
    assert w.document.shown.section("sectors").active_lanes is None
    linked = effective_params(w.document.shown, "sectors").active_lanes
    assert 0 < len(linked) < 32
    assert not lanes.check.isChecked() and lanes.inner.get() == list(linked)


def test_an_empty_scheduler_bandwidth_shows_the_memory_levels():
    from gpuviz.models.scheduler import MEMORY, SchedulerParams, compute
    from gpuviz.ui.panels.scheduler import automatic

    assert automatic(compute(SchedulerParams(memory="dram", cycles=50))) == \
        {"bandwidth_per_sm": MEMORY["dram"].bandwidth_per_sm}
    assert automatic(compute(SchedulerParams(cycles=50))) == {}


def test_the_traversal_dock_shows_the_h200s_dram_traffic_beside_the_models(make_main_window,
                                                                          scenario_path, qtbot):
    w = make_main_window(scenario_path("traversal-h200-l2.json"))
    dock = w.docks["traversal"]
    qtbot.waitUntil(lambda: dock.measured.text() != "", timeout=10000)
    assert dock.measured.text() == ("Model: 2.69 DRAM bytes read ÷ bytes of A and B · H200 "
                                    "measured: 2.71 (agrees)")
