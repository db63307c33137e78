"""Past both ends of every bundled lecture, with the focus in a spin box, a text field, a
combo box or a table of the controls, the step keys and the arrows change nothing: no step,
no edit, nothing marked modified."""

from __future__ import annotations

import pytest
from lecture_walk import CTRL, NAMES, control_fields, field_text, focus_on
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


@pytest.mark.parametrize("name", NAMES)
def test_keys_past_both_ends_with_a_control_focused_change_nothing(name, make_main_window,
                                                                   scenario_path, qtbot):
    w = make_main_window(scenario_path(f"{name}.json"))
    w.set_controls_visible(True)
    doc = w.document
    last = len(doc.scenario.steps) - 1
    keys = {"last": [(Qt.Key.Key_PageDown, Qt.KeyboardModifier.NoModifier),
                     (Qt.Key.Key_Right, CTRL), (Qt.Key.Key_Right, Qt.KeyboardModifier.NoModifier)],
            "overview": [(Qt.Key.Key_PageUp, Qt.KeyboardModifier.NoModifier),
                         (Qt.Key.Key_Left, CTRL), (Qt.Key.Key_Left, Qt.KeyboardModifier.NoModifier)]}
    bad = []
    for end, k in (("last", last), ("overview", -1)):
        doc.go_to_step(k)
        doc.reveal()
        shown, scenario = doc.shown, doc.scenario
        fields = control_fields(w)  # in the docks the step shows
        assert fields, end
        for field in fields:
            focus_on(qtbot, field)
            before = field_text(field)
            for key, mods in keys[end] * 2:
                qtbot.keyClick(field, key, mods)
            QApplication.processEvents()
            where = f"{name} at the {end}, {type(field).__name__} {field.objectName()!r}"
            if doc.step != k:
                bad.append(f"{where}: the keys moved to step {doc.step + 1}")
            if doc.shown != shown or doc.scenario != scenario or field_text(field) != before:
                bad.append(f"{where}: the keys edited the lecture ({before!r} → {field_text(field)!r})")
            if doc.is_modified() or w.isWindowModified() or doc.undo_stack.count():
                bad.append(f"{where}: the lecture is marked modified")
    assert not bad, "\n".join(bad)
