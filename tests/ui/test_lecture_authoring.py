"""A lecturer builds a lecture in the window: explore, add a step from the current state with a
caption, question and notes, reorder, edit, delete, undo, save; no JSON is edited."""

from __future__ import annotations

import json
from dataclasses import replace

from PySide6.QtWidgets import QDialog, QFileDialog

from gpuviz.scenario import load_scenario


def menu_texts(window, name):
    for a in window.menuBar().actions():
        if a.text().replace("&", "") == name:
            return [x.text().replace("&", "") for x in a.menu().actions()]
    raise KeyError(name)


def test_menus_offer_authoring_gallery_and_help(make_main_window):
    w = make_main_window()
    assert "Add Step from Current State…" in menu_texts(w, "Steps")
    assert "Lecture Steps…" in menu_texts(w, "Steps")
    file = menu_texts(w, "File")
    assert file[file.index("Open…") + 1] == "Gallery…"
    assert "About This Panel" in menu_texts(w, "Help")


def test_add_a_step_from_the_explored_state_then_undo_redo_and_save(
        make_main_window, scenario_path, qtbot, tmp_path, monkeypatch):
    w = make_main_window(scenario_path("launch-n130.json"))
    doc, authoring = w.document, w.step_authoring
    before = doc.scenario
    doc.go_to_step(1)  # "The tail block"
    doc.edit_section("launch", replace(doc.shown.section("launch"), n=1000))  # exploring leaves step mode
    assert doc.step == -1 and doc.shown.section("launch").n == 1000

    dialog = authoring.add_dialog(w)
    changes = [dialog.changes_list.item(i).text() for i in range(dialog.changes_list.count())]
    assert changes == ["launch.n = 1000"]
    assert dialog.focus.currentData() == "launch"
    dialog.title.setText("A thousand outputs")
    dialog.caption.setPlainText("Sixteen blocks now.")
    dialog.predict.setText("How many blocks?")
    dialog.notes.setPlainText("Ask the back row first.")
    index = authoring.add(dialog.values())
    dialog.deleteLater()

    assert index == 2 and doc.step == 2
    assert [s.title for s in doc.scenario.steps] == \
        [s.title for s in before.steps[:2]] + ["A thousand outputs"] + [s.title for s in before.steps[2:]]
    new = doc.scenario.steps[2]
    assert dict(new.changes["launch"]) == {"n": 1000}
    assert (new.caption, new.predict, new.notes) == ("Sixteen blocks now.", "How many blocks?",
                                                     "Ask the back row first.")
    # the overview of the lecture is the one it had before exploring
    assert doc.scenario.section("launch") == before.section("launch")
    assert doc.shown.section("launch").n == 1000
    assert doc.shown.section("launch").selected_block == before.at_step(1).section("launch").selected_block
    assert w.isWindowModified()

    doc.undo_stack.undo()
    assert len(doc.scenario.steps) == len(before.steps)
    assert doc.shown.section("launch").n == 1000  # back to the explored state
    doc.undo_stack.redo()
    assert doc.scenario.steps[2].title == "A thousand outputs"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "talk"), ""))
    assert w.save()
    raw = json.loads((tmp_path / "talk.json").read_text())
    assert raw["steps"][2] == {"title": "A thousand outputs", "caption": "Sixteen blocks now.",
                               "predict": "How many blocks?", "notes": "Ask the back row first.",
                               "changes": {"launch": {"n": 1000}}, "focus": "launch"}
    assert raw["launch"]["n"] == 130
    again = load_scenario(tmp_path / "talk.json")
    assert again.at_step(2).section("launch").n == 1000


def test_the_menu_entry_asks_then_adds(make_main_window, scenario_path, monkeypatch):
    w = make_main_window(scenario_path("launch-n130.json"))
    w.docks["launch"].form.editor("sm_count").setValue(4)

    def accept(dialog):
        dialog.title.setText("Four SMs")
        return QDialog.DialogCode.Accepted

    from gpuviz.ui import step_editor

    monkeypatch.setattr(step_editor.StepDialog, "exec", accept)
    w.action("add-step").trigger()
    assert w.document.scenario.steps[0].title == "Four SMs"
    assert dict(w.document.scenario.steps[0].changes["launch"]) == {"sm_count": 4}
    assert w.document.step == 0


def test_the_editor_refuses_a_step_without_title_or_with_bad_keys(make_main_window):
    w = make_main_window()
    d = w.step_authoring.add_dialog(w)
    d.title.setText("")
    assert not d.is_valid() and "title" in d.error.text()
    d.title.setText("t")
    d.select.setText("lane:3 Block")
    assert not d.is_valid() and "Block" in d.error.text()
    d.select.setText("lane:3 warp:2,0")
    assert d.is_valid() and d.values()["select"] == ["lane:3", "warp:2,0"]
    d.deleteLater()


def test_step_list_moves_edits_and_deletes_with_undo(make_main_window, scenario_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from gpuviz.ui.step_editor import StepListDialog

    def fail(_parent, title, text):
        raise AssertionError(f"{title}: {text}")

    monkeypatch.setattr(QMessageBox, "warning", fail)
    w = make_main_window(scenario_path("launch-n130.json"))
    doc = w.document
    titles = [s.title for s in doc.scenario.steps]
    lst = StepListDialog(w.step_authoring, w)
    assert lst.list.count() == len(titles)
    lst.list.setCurrentRow(1)
    assert doc.step == 1  # choosing a row shows that step
    lst.buttons["Move Up"].click()
    assert [s.title for s in doc.scenario.steps][:2] == [titles[1], titles[0]]
    assert lst.list.currentRow() == 0 and lst.list.item(0).text().startswith("1. " + titles[1])
    doc.undo_stack.undo()
    assert [s.title for s in doc.scenario.steps] == titles

    def retitle(dialog):
        dialog.title.setText("Renamed")
        dialog.notes.setPlainText("a note")
        return QDialog.DialogCode.Accepted

    from gpuviz.ui import step_editor

    monkeypatch.setattr(step_editor.StepDialog, "exec", retitle)
    lst.list.setCurrentRow(2)
    lst.buttons["Edit…"].click()
    assert doc.scenario.steps[2].title == "Renamed" and doc.scenario.steps[2].notes == "a note"
    assert doc.scenario.steps[2].changes == load_scenario(scenario_path("launch-n130.json")).steps[2].changes

    lst.buttons["Delete"].click()
    assert len(doc.scenario.steps) == len(titles) - 1 and "Renamed" not in \
        [s.title for s in doc.scenario.steps]
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert [s.title for s in doc.scenario.steps] == titles
    lst.close()
    lst.deleteLater()


def test_a_step_names_the_parts_it_shows_in_the_editor(make_main_window, scenario_path,
                                                       monkeypatch):
    """A lecture made in the window can give a slide one idea: the step editor offers the
    parts of the step's panels (its focus, else the lecture's), and the step then shows the
    ticked ones; none ticked, the whole figure again."""
    from PySide6.QtCore import Qt

    from gpuviz.ui import step_editor

    w = make_main_window(scenario_path("banks-swizzled-columns.json"))
    doc = w.document
    d = w.step_authoring.edit_dialog(3, w)  # "Follow the swizzle panel": banks and rack
    offered = [d.parts.item(i) for i in range(d.parts.count())]
    assert [i.data(Qt.ItemDataRole.UserRole) for i in offered] == \
        ["logical", "physical", "banks", "readers", "lanes", "rack", "receipt"]
    assert offered[5].text() == "rack (Banks)" and d.chosen_parts() == ["banks", "rack"]
    d.focus.setCurrentIndex(d.focus.findData("swizzle"))  # a focus offers its panel's parts
    assert [d.parts.item(i).text() for i in range(d.parts.count())] == \
        ["logical", "physical", "banks", "readers"]
    assert d.chosen_parts() == ["banks"]
    d.deleteLater()

    def tick(names):
        def exec_(dialog):
            for i in range(dialog.parts.count()):
                item = dialog.parts.item(i)
                on = item.data(Qt.ItemDataRole.UserRole) in names
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            return QDialog.DialogCode.Accepted
        return exec_

    monkeypatch.setattr(step_editor.StepDialog, "exec", tick({"rack"}))
    doc.go_to_step(0)
    w.step_authoring.edit_current(w)
    assert doc.scenario.steps[0].parts == ("rack",)
    assert w.docks["banks"].parts == ("rack",)
    monkeypatch.setattr(step_editor.StepDialog, "exec", tick(set()))
    w.step_authoring.edit_current(w)
    assert doc.scenario.steps[0].parts == () and w.docks["banks"].parts is None
    doc.undo_stack.undo()
    assert doc.scenario.steps[0].parts == ("rack",)

    monkeypatch.setattr(step_editor.StepDialog, "exec", tick({"owners", "counts"}))
    w.docks["banks"].view.setFocus()
    w.step_authoring.add_from_current(w)  # no gemm panel here: its parts are not offered
    assert doc.scenario.steps[doc.step].parts == ()


def test_an_edit_refused_in_the_step_list_keeps_what_was_typed(make_main_window,
                                                              scenario_path, monkeypatch):
    """Edit… in Lecture Steps: a caption naming a field that does not exist is refused with
    the reason in the dialog, which stays open with the text typed (it closed, text lost)."""
    from gpuviz.ui.step_editor import StepDialog, StepListDialog

    w = make_main_window(scenario_path("launch-n130.json"))
    seen = []

    def exec_(dialog):
        seen.append((dialog.caption.toPlainText(), dialog.error.text()))
        if len(seen) == 1:
            dialog.caption.setPlainText("N is {launch.nope}.")
            return StepDialog.DialogCode.Accepted
        return StepDialog.DialogCode.Rejected

    monkeypatch.setattr(StepDialog, "exec", exec_)
    before = w.document.scenario
    lst = StepListDialog(w.step_authoring, w)
    lst.list.setCurrentRow(1)
    lst.buttons["Edit…"].click()
    assert len(seen) == 2, "the refused dialog was gone with its text"
    assert seen[1][0] == "N is {launch.nope}." and "nope" in seen[1][1]
    assert w.document.scenario == before
    lst.close()
    lst.deleteLater()
