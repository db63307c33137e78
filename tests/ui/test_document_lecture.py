"""The document holds the lecture model's state (``gpuviz.lecture.Lecture``), its one copy:
the step, the selection, the frame, the questions revealed, the step an edit left and the
lecture as saved are read from it, and what the window, the export dialog and a dock's
layout show of a step is asked of ``show``."""

from __future__ import annotations

import dataclasses

from gpuviz.lecture import Lecture, show, shown_parts
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui.document import Document


def _doc(name: str) -> Document:
    return Document(load_scenario(scenario_dir() / f"{name}.json"))


def test_the_document_keeps_one_lecture_and_no_copy_of_its_state(qapp):
    doc = _doc("banks-padded33")
    assert isinstance(doc.lecture, Lecture) and doc.lecture is doc.lecture
    doc.go_to_step(1)
    doc.select({"bank:3"})
    doc.reveal()
    lecture = doc.lecture
    assert (lecture.step, lecture.selection, lecture.revealed) == (1, {"bank:3"}, {1})
    assert lecture.saved is doc.saved and lecture.scenario is doc.scenario
    # nothing beside the lecture holds a scenario, a step, a selection or a frame
    copies = {name for name, value in vars(doc).items()
              if name != "_lecture" and isinstance(value, (Lecture, type(doc.scenario), set,
                                                           frozenset, int))}
    assert copies == set(), copies


def test_an_edit_at_a_step_is_the_lectures_and_marks_the_caption_it_leaves(qapp):
    doc = _doc("barrier-early-return")
    doc.go_to_step(1)
    barrier = doc.shown.section("barrier")
    doc.edit_section("barrier", dataclasses.replace(barrier, threads=5))
    assert doc.step == -1 and doc.lecture.edited_from == 1
    shown = show(doc.lecture)
    assert shown.stale == "edited since step 2" and shown.edited_from == 1
    assert shown.caption and shown.title == doc.scenario.steps[1].title
    doc.edit_section("barrier", dataclasses.replace(barrier, threads=6))  # still that step's
    assert doc.lecture.edited_from == 1
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert (doc.step, doc.lecture.edited_from) == (1, None)
    assert show(doc.lecture).stale == ""


def test_an_edit_at_the_overview_is_marked_by_the_lecture_model(qapp, tmp_path):
    doc = _doc("barrier-early-return")
    barrier = doc.shown.section("barrier")
    doc.edit_section("barrier", dataclasses.replace(barrier, threads=5))
    assert show(doc.lecture).stale == "edited since the overview"
    assert show(doc.lecture, -1, "export").stale == ""  # an export shows the file as written
    doc.save(tmp_path / "saved.json")
    assert show(doc.lecture).stale == ""  # what the description is written for now


def test_shown_parts_is_shows_answer_for_every_bundled_step():
    from gpuviz.scenario import bundled_scenarios

    for path in bundled_scenarios():
        lecture = Lecture(load_scenario(path))
        for surface in ("window", "export"):
            for k in range(-1, lecture.steps):
                shown = show(lecture, k, surface)
                for pid in {*lecture.scenario.panels, *shown.panel_ids}:
                    want = shown.parts(pid) if pid in shown.panel_ids else None
                    assert shown_parts(lecture, k, pid, surface) == want, (path.stem, k, pid)


def test_a_dock_lays_out_the_edited_overview_with_the_parts_it_shows(make_main_window,
                                                                    scenario_path):
    w = make_main_window(scenario_path("banks-padded33.json"))
    doc = w.document
    doc.go_to_step(1)
    doc.reveal()
    dock = w.docks["banks"]
    parts = doc.scenario.step_parts(1, "banks")
    assert parts and dock.parts == parts
    section = doc.shown.section("banks")
    doc.edit_section("banks", dataclasses.replace(section, access_bytes=8))
    assert doc.step == -1 and dock.parts == parts  # the step's parts, kept through the edit
    # the overview, showing those parts now, is among the states they are laid out over
    assert -1 in dock._steps_showing(parts)
