"""The veil keeps a question's answer out of the whole window, not only out of the figure:
the strip under the scheduler's figure, the Measurements dock's model line, the lecture's
description (the lecture model's ``hides``)."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QWidget

from gpuviz.lecture import Lecture, show
from gpuviz.scenario import load_scenario


def _strip(dock) -> list[QWidget]:
    from PySide6.QtCore import Qt

    return dock.companion.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)


def test_the_strip_under_the_scheduler_figure_is_veiled(make_main_window, scenario_path, qtbot):
    for name in ("scheduler-h200-l1.json", "scheduler-h200-dram.json"):
        w = make_main_window(scenario_path(name))
        dock = w.docks["scheduler"]
        assert any(c.isVisible() for c in _strip(dock))  # the overview shows the whole run
        height = dock.companion.height()
        w.document.go_to_step(1)
        assert w.document.veiled and w.step_show().hidden("strips")
        assert not any(c.isVisible() for c in _strip(dock)), name
        assert dock.companion.height() == height, "its place is kept: the figure does not move"
        w.next_step()  # the reveal
        assert not w.document.veiled and any(c.isVisible() for c in _strip(dock))


def test_the_measurements_dock_says_no_model_value_while_veiled(make_main_window,
                                                                scenario_path, qtbot):
    w = make_main_window(scenario_path("banks-padded33.json"))
    w.complete()
    dock = w.measurements_dock
    dock.show()
    w.document.go_to_step(2)
    assert w.document.veiled
    assert "wavefront" not in dock.current.text() and "measured" not in dock.current.text()
    w.next_step()
    assert "wavefront" in dock.current.text()


def test_the_register_cliff_description_does_not_state_step_2s_answer(scenario_path):
    path = scenario_path("occupancy-register-cliff.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    scenario = load_scenario(path)
    asked = show(Lecture(scenario), 1)
    assert asked.veiled and "blocks fit" in asked.question
    overview = show(Lecture(scenario), -1).caption
    assert overview == data["description"]
    for answer in ("only one block", "16 warps", "half the occupancy", "25%"):
        assert answer not in overview, answer


def test_the_lecture_steps_window_keeps_a_veiled_title_back_until_the_reveal(
        make_main_window, scenario_path, qtbot):
    """The Lecture Steps window listed every step's title, a veiled question's too (in
    banks-padded33 step 3 the title names the answer), while the step bar kept it back."""
    from gpuviz.lecture import VEILED_TITLE
    from gpuviz.ui.step_editor import StepListDialog

    w = make_main_window(scenario_path("banks-padded33.json"))
    doc = w.document
    asked = next(k for k in range(len(doc.scenario.steps)) if doc.lecture.asks(k))
    title = doc.scenario.steps[asked].title
    lst = StepListDialog(w.step_authoring, w)
    lst.list.setCurrentRow(asked)
    assert doc.step == asked and doc.veiled
    listed = lst.list.item(asked).text()
    assert title not in listed and VEILED_TITLE in listed
    assert title not in w.step_bar_widget.steps.itemText(asked + 1)
    w.next_step()  # the reveal
    assert not doc.veiled and title in lst.list.item(asked).text()
    assert title in w.step_bar_widget.steps.itemText(asked + 1)
    lst.close()
    lst.deleteLater()


def test_the_overview_keeps_the_picture_a_later_question_asks_about(make_main_window,
                                                                    scenario_path, qtbot):
    """sectors-shifted's overview showed the figure step 1 asks about ("how many sectors?"),
    five sectors and "Model: 5 32-byte sectors · H200 measured: 5", before the question."""
    w = make_main_window(scenario_path("sectors-shifted.json"))
    w.complete()
    dock = w.docks["sectors"]
    qtbot.waitUntil(lambda: dock.settled(), timeout=10000)
    assert w.document.step == -1 and not w.document.veiled
    assert dock.view.veil(), "the overview's figure is veiled"
    assert "reveal it (Next" not in dock.view.veil(), "Next goes to the question, no reveal"
    assert not dock.measured.isVisible() and not dock.summary.isVisible()
    assert "sectors" not in w.caption_label.text() and "Step 1" in w.caption_label.text()
    w.next_step()  # to the question, not a reveal
    assert w.document.step == 0 and w.document.veiled
    assert "reveal it (Next" in dock.view.veil()
    w.next_step()  # the reveal
    assert not w.document.veiled
    w.previous_step()
    assert w.document.step == -1 and not dock.view.veil()
    qtbot.waitUntil(lambda: dock.measured.isVisible(), timeout=5000)
    assert "5 32-byte sectors" in dock.measured.text()
