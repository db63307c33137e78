"""No tooltip, status tip or hover text gives a question's answer while its step is veiled:
every bundled question step is walked with every panel of its lecture, the measurements dock
and the lecture's step list open, and each text the window shows is checked against the
answer as the lecture model gives it (``lecture.answer.veiled_answer``)."""

from __future__ import annotations

import pytest
from tip_texts import texts

from gpuviz.lecture import Lecture
from gpuviz.lecture.answer import carries_answer, veiled_answer
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

QUESTIONS = sorted(
    (path.name, k) for path in scenario_dir().glob("*.json")
    for k, step in enumerate(load_scenario(path).steps) if step.predict)


def test_every_bundled_question_is_walked():
    assert len(QUESTIONS) >= 29


def _open_everything(w, qtbot):
    w.complete()
    w.measurements_dock.show()
    w.action("step-list").trigger()
    qtbot.waitUntil(lambda: w.step_list_dialog is not None and w.step_list_dialog.isVisible())


def leaks(w) -> list[tuple[str, str, str]]:
    answer = veiled_answer(w.document.lecture)
    assert answer, "a veiled step has an answer to keep back"
    return [(where, said, text) for where, text in texts(w)
            if (said := carries_answer(text, answer))]


@pytest.mark.parametrize("name", sorted({n for n, _ in QUESTIONS}))
def test_no_tip_gives_a_veiled_answer(name, make_main_window, scenario_path, qtbot):
    w = make_main_window(scenario_path(name))
    _open_everything(w, qtbot)
    for n, k in QUESTIONS:
        if n != name:
            continue
        w.document.go_to_step(k)
        qtbot.waitUntil(lambda: all(d.settled() for d in w.docks.values()), timeout=10000)
        assert w.document.veiled, (name, k)
        assert not leaks(w), (name, k + 1, leaks(w))


def test_the_walk_sees_a_tip_that_states_the_answer(make_main_window, scenario_path, qtbot):
    """A deliberately unveiled path: a result's tooltip set by hand on the veiled figure.
    With the window's veil filter out of the way the walk reports it; with it, Qt never shows
    it."""
    w = make_main_window(scenario_path("banks-padded33.json"))
    w.complete()
    w.document.go_to_step(2)
    assert w.document.veiled
    answer = veiled_answer(w.document.lecture)
    dock = w.docks["banks"]
    model = next(a for a in answer if "shared-memory" in a)  # "2 shared-memory wavefronts"
    dock.view.setToolTip(f"Model: {model}")
    assert not leaks(w)
    w.veil_tips.remove()
    assert [where for where, _said, _text in leaks(w)] == [dock.view.objectName() or "FigureView"]
    w.veil_tips = type(w.veil_tips)(w)
    assert not leaks(w) and w.veil_tips.kept_back >= 1
    w.next_step()  # revealed: the same tooltip is the room's to read
    assert not w.document.veiled and any("2 shared-memory" in t for _, t in texts(w))


def test_a_revealed_step_has_no_answer_to_keep_back(scenario_path):
    lecture = Lecture(load_scenario(scenario_path("sectors-stride8.json"))).at(1)
    answer = veiled_answer(lecture)
    assert "32 32-byte sectors" in answer and "Stride 8" in answer
    assert veiled_answer(lecture.reveal()) == ()
    assert veiled_answer(lecture.at(-1)) == ()
