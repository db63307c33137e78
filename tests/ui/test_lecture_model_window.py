"""The window renders the lecture model's answer for a step (``gpuviz.lecture.show``): the
step's playback frame, the same panels from any path, the lecture's panels as chosen in
View ▸ Panels, the step's parts kept through an edit, a layout that belongs to its lecture."""

from __future__ import annotations

import json
from dataclasses import replace

from gpuviz.keys import frame_of
from gpuviz.scenario import dumps_scenario, load_scenario


def _visible(w) -> set[str]:
    return {pid for pid, d in w.docks.items() if d.isVisible()}


def test_the_window_shows_the_frame_each_step_names_from_any_path(make_main_window,
                                                                  scenario_path, qtbot):
    for name, steps in (("traversal-grouped.json", [0, 1]),
                        ("reduction-warp-shfl-down.json", [0, 1, 2])):
        w = make_main_window(scenario_path(name))
        named = {k: frame_of(w.document.scenario.steps[k].select) for k in steps}
        assert None not in named.values()
        for k in [*steps, *reversed(steps), len(w.document.scenario.steps) - 1, *steps]:
            w.document.go_to_step(k)
            if k in named:
                assert frame_of(w.document.selection) == named[k], (name, k + 1)
                assert w.clock.frame == named[k]
                assert w.step_show().panels[0].frame == named[k]


def test_a_step_shows_the_same_panels_whichever_step_came_before(make_main_window,
                                                                 scenario_path, tmp_path):
    # a lecture of one panel whose steps focus another
    one = replace(load_scenario(scenario_path("linked-launch-sectors.json")), panels=("launch",))
    path = tmp_path / "one-panel.json"
    path.write_text(dumps_scenario(one), encoding="utf-8")
    w = make_main_window(path)
    assert _visible(w) == {"launch"}
    w.document.go_to_step(0)  # focus: sectors
    assert "sectors" in _visible(w)
    w.document.go_to_step(-1)
    assert _visible(w) == {"launch"}, "the overview shows the lecture's panels only"
    w.document.go_to_step(2)
    w.document.go_to_step(0)
    assert _visible(w) == set(w.step_show().panel_ids)


def test_view_panels_while_authoring_changes_the_lectures_panels(make_main_window,
                                                                 scenario_path, tmp_path):
    path = tmp_path / "stride1.json"
    path.write_text(scenario_path("banks-stride1.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    w = make_main_window(path)
    before = w.document.scenario.panels
    w.panel_actions["sectors"].setChecked(True)
    assert w.document.scenario.panels == (*before, "sectors")
    assert "sectors" in _visible(w)
    w.document.undo_stack.undo()
    assert w.document.scenario.panels == before and "sectors" not in _visible(w)
    assert not w.panel_actions["sectors"].isChecked()
    w.document.undo_stack.redo()
    assert "sectors" in _visible(w)
    w.reset_layout()
    assert {"sectors", *before} <= _visible(w)
    w.save()
    assert json.loads(path.read_text(encoding="utf-8"))["panels"] == [*before, "sectors"]


def test_an_edit_at_a_step_keeps_the_steps_parts(make_main_window, scenario_path):
    w = make_main_window(scenario_path("banks-padded33.json"))
    w.document.go_to_step(1)
    dock = w.docks["banks"]
    assert dock.parts == ("rack", "receipt")
    params = w.document.shown.section("banks")
    w.document.edit_section("banks", replace(params, access_bytes=8))
    assert w.document.step == -1  # the edit leaves the steps, shown on the overview
    assert dock.parts == ("rack", "receipt"), "the edit keeps what the step showed"
    assert w.step_show().stale == "edited since step 2"


def test_a_layout_remembered_from_another_lecture_is_not_restored(make_main_window,
                                                                  scenario_path, qtbot):
    first = make_main_window(scenario_path("banks-stride1.json"))
    first.docks["banks"].setFloating(True)
    first.close()
    w = make_main_window(scenario_path("linked-launch-sectors.json"))
    launch, sectors = w.docks["launch"], w.docks["sectors"]
    assert not launch.isFloating() and not sectors.isFloating()
    assert launch.view.height() > 100 and sectors.view.height() > 100
    assert launch.geometry().top() == sectors.geometry().top(), "side by side"


def test_closing_a_dock_with_its_x_while_authoring_edits_the_lectures_panels(
        make_main_window, scenario_path, tmp_path, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractButton

    path = tmp_path / "linked.json"
    path.write_text(scenario_path("linked-launch-sectors.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    w = make_main_window(path)
    before = w.document.scenario.panels
    assert len(before) == 2 and set(before) <= _visible(w)
    closing, kept = before[1], before[0]
    x = w.docks[closing].findChild(QAbstractButton, "qt_dockwidget_closebutton")
    assert x is not None and x.isVisible()
    qtbot.mouseClick(x, Qt.MouseButton.LeftButton)
    assert w.document.scenario.panels == (kept,)
    assert closing not in _visible(w) and not w.panel_actions[closing].isChecked()
    assert w.document.undo_stack.undoText() == "Change shown panels"
    w.document.undo_stack.undo()
    assert w.document.scenario.panels == before and closing in _visible(w)
    w.document.undo_stack.redo()
    w.reset_layout()
    assert closing not in _visible(w), "Reset Layout keeps the lecture's panels"
    w.save()
    assert json.loads(path.read_text(encoding="utf-8"))["panels"] == [kept]
    # a dock hidden by the window (a step's panels, F5) is not a choice of the author
    w.show_panel(kept, False)
    assert w.document.scenario.panels == (kept,)
