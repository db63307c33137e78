"""The document announces each kind of change on its own signal, in a fixed order: the panel
sections that changed first, then what caused it, then ``shown_changed`` for plain views."""

from __future__ import annotations

import dataclasses

from gpuviz.scenario import default_scenario_path, load_scenario
from gpuviz.ui.document import Document

TOPICS = ("section_changed", "scenario_changed", "scenario_replaced", "step_changed", "revealed",
          "selection_changed", "frame_changed", "shown_changed", "path_changed", "clean_changed")


def recorder(doc: Document) -> list[tuple]:
    heard: list[tuple] = []
    for name in TOPICS:
        getattr(doc, name).connect(lambda *args, n=name: heard.append((n, *args)))
    return heard


def test_an_edit_names_its_section_then_the_edit(qapp):
    scenario = load_scenario(default_scenario_path())
    doc = Document(scenario)
    heard = recorder(doc)
    launch = scenario.section("launch")
    doc.edit_section("launch", dataclasses.replace(launch, n=launch.n + 1))
    assert heard == [("section_changed", "launch"), ("scenario_changed",), ("shown_changed",),
                     ("clean_changed", False)]
    heard.clear()
    doc.undo_stack.undo()
    assert heard[:3] == [("section_changed", "launch"), ("scenario_changed",), ("shown_changed",)]
    assert doc.scenario.section("launch") == launch


def test_steps_selection_frames_and_files_each_have_their_signal(qapp, tmp_path):
    scenario = load_scenario(default_scenario_path())
    assert len(scenario.steps) >= 2
    doc = Document(scenario)
    heard = recorder(doc)
    doc.go_to_step(1)
    changed = [pid for pid in scenario.sections
               if scenario.at_step(-1).section(pid) != scenario.at_step(1).section(pid)]
    assert heard == [("section_changed", pid) for pid in sorted(changed)] + [
        ("step_changed",), ("shown_changed",)]
    heard.clear()
    doc.go_to_step(1)  # no change, no signal
    doc.select({"block:1"})
    doc.set_frame(2)
    assert heard == [("selection_changed",), ("frame_changed",)]
    heard.clear()
    doc.save(tmp_path / "saved.json")
    assert heard == [("path_changed",)]
    heard.clear()
    doc.replace_scenario(scenario, None)
    assert heard == [("scenario_replaced",), ("shown_changed",)]
    assert doc.step == -1 and doc.frame is None


def test_a_document_with_unsaved_edits_goes_away_quietly(qapp, capfd):
    import gc

    doc = Document(load_scenario(default_scenario_path()))
    launch = doc.scenario.section("launch")
    doc.edit_section("launch", dataclasses.replace(launch, n=launch.n + 1))
    del doc
    gc.collect()
    assert "Signal source has been deleted" not in capfd.readouterr().err
