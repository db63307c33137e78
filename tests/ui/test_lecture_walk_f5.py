"""The walk of every bundled lecture (tests/ui/lecture_walk.py) in F5: every step shows what
the lecture model gives it, on every path to it."""

from __future__ import annotations

import pytest
from lecture_walk import NAMES, walk_lecture


@pytest.mark.parametrize("name", NAMES)
def test_every_step_shows_in_f5_what_the_lecture_model_says(name, make_main_window,
                                                            scenario_path, qtbot):
    w = make_main_window(scenario_path(f"{name}.json"))
    w.enter_presentation()
    qtbot.waitUntil(lambda: not w.presentation.waiting, timeout=20000)
    _, bad = walk_lecture(w, qtbot, "present")
    w.leave_presentation()
    assert not bad, "\n".join(bad[:20])
