"""Consecutive steps of a bundled lecture keep the drawing where it does not change: on the
slide's grid the body box is the same on every slide, and a body whose blocks set the same
words from one step to the next sets them at the same places and sizes, whatever the step's
heading, caption or selection say (a selection's outline moves nothing)."""

from __future__ import annotations

import pytest

from gpuviz.export.lecture import lecture_pages
from gpuviz.figures.display import Group, Text, walk
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SLIDE
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

BANDS = ("step-title", "step-caption")
# lectures whose steps change the caption or the selection while the drawing stays
LECTURES = ["banks-padded33", "gemm-walkthrough", "traversal-grouped", "divergence-nested"]


def _body(figure):
    """Each body block's words, and where and how large it sets them."""
    words, places = [], []
    for g in figure.items:
        if isinstance(g, Group) and g.name not in BANDS:
            texts = [t for t in walk(g.items) if isinstance(t, Text)]
            words.append((g.name, tuple(t.text for t in texts)))
            places.append([v for t in texts for v in (t.x, t.y, t.size)])
    return words, places


@pytest.mark.parametrize("name", LECTURES)
def test_a_drawing_that_does_not_change_keeps_its_place_and_scale_from_step_to_step(name):
    th = theme("screen")
    previous: dict = {}
    compared = 0
    boxes = set()
    for page in lecture_pages(load_scenario(scenario_dir() / f"{name}.json"))[1:]:
        shown = {}
        for pid in page.panels:
            parts = page.parts(pid)
            figure = figure_for(page.state, pid, th, page.selection_for(pid),
                                SLIDE.showing(parts).titled(*page.heading()))
            if figure.body_box is not None:
                boxes.add(figure.body_box)
            shown[(pid, parts)] = _body(figure)
            before = previous.get((pid, parts))
            if before is not None and before[0] == shown[(pid, parts)][0]:
                compared += 1
                for a, b in zip(before[1], shown[(pid, parts)][1], strict=True):
                    assert a == pytest.approx(b, abs=1e-9), (page.step, pid, parts)
        previous = shown
    assert len(boxes) <= 1, boxes
    if name == "gemm-walkthrough":  # steps 4 and 5: the same owners, another thread selected
        assert compared, "no two steps with the same drawing: the test compared nothing"
