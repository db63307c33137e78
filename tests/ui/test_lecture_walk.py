"""Every bundled lecture walked step by step as a lecturer walks it, with the keys and the step
list: forwards from the overview with PageDown (a question takes a second press to reveal),
backwards from the last step with PageUp (every question veiled again), and by jumping from
the step list, in the window (in F5: test_lecture_walk_f5.py; the walk itself:
lecture_walk.py). At every step the window shows what the lecture
model (``gpuviz.lecture.show``) gives the lecture the keys made, computed here from the keys
alone: the panels shown, each figure's sections, parts, frame and selection, the veil, the
caption, the step bar and the window's title; a veiled step's answer is nowhere in the
window's texts (``lecture.answer.veiled_answer``). Past both ends: see
test_lecture_keys_at_ends.py."""

from __future__ import annotations

import pytest
from lecture_walk import NAMES, Walk, check, control_fields, focus_on, settle_docks, walk_lecture

from gpuviz.lecture.answer import veiled_answer


@pytest.mark.parametrize("name", NAMES)
def test_every_step_shows_what_the_lecture_model_says(name, make_main_window, scenario_path,
                                                      qtbot):
    w = make_main_window(scenario_path(f"{name}.json"))
    w.set_controls_visible(True)
    fields = control_fields(w)
    assert fields, "the controls have a field to leave the focus in"
    focus_on(qtbot, fields[0])
    checked, bad = walk_lecture(w, qtbot, "window")
    n = len(w.document.scenario.steps)
    assert checked == 3 * n + 3 + sum(w.document.lecture.asks(k) for k in range(n))
    assert not bad, "\n".join(bad[:20])


def test_the_walk_sees_what_it_checks(make_main_window, scenario_path, qtbot):
    """The check reports a window that shows another step's frame, a panel the step does not
    show, a title given away under the veil, and a lecture marked modified."""
    w = make_main_window(scenario_path("traversal-grouped.json"))
    walk = Walk(w.document.lecture)
    w.document.go_to_step(0)
    walk.jump(0)
    settle_docks(w, qtbot)
    assert check(w, walk, "window") == []
    w.clock.last()
    settle_docks(w, qtbot)
    assert any("frame" in b for b in check(w, walk, "window"))

    w = make_main_window(scenario_path("banks-padded33.json"))
    walk = Walk(w.document.lecture)
    asked = next(k for k in range(walk.lecture.steps) if walk.lecture.asks(k))
    w.document.go_to_step(asked)
    walk.jump(asked)
    settle_docks(w, qtbot)
    assert check(w, walk, "window") == []
    w.step_bar_widget.show_message(veiled_answer(walk.lecture)[0])
    assert any("step-bar-message gives the answer" in b for b in check(w, walk, "window"))
    w.step_bar_widget.show_message("")
    w.show_panel("sectors")
    assert any("panels" in b for b in check(w, walk, "window"))
