"""A deck slide shows the step as the room reads it: the figure fills the slide's body and its
body type meets the slide budget (20 px at 1280 × 720) at the size it is placed: the figure
is laid out for the slide's grid and its body box placed where the grid puts it."""

from __future__ import annotations

import io

import pytest

from gpuviz.export.deck import body_of, lecture_deck, step_figures
from gpuviz.export.lecture import lecture_pages
from gpuviz.figures.budget import over_budget
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import theme
from gpuviz.scenario import loads_scenario
from gpuviz.scenario.bundled import scenario_dir


@pytest.mark.parametrize("name", ["gemm-walkthrough", "mma-fragments"])
def test_every_slide_figure_fills_the_body_with_type_the_room_reads(name):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    scenario = loads_scenario((scenario_dir() / f"{name}.json").read_text(encoding="utf-8"))
    steps = lecture_pages(scenario)[1:]
    whole = [p for p in steps if p.target(p.panels[0], "slide").parts is None]
    if whole:  # the lecture shows a whole figure the slide's own budget refuses
        p = whole[0]
        fig = figure_for(p.state, p.panels[0], theme("screen"), p.selection_for(p.panels[0]),
                         TARGETS["slide"])
        assert [r for r, _ in over_budget(fig, TARGETS["slide"])]
    deck = Presentation(io.BytesIO(lecture_deck(scenario, "0" * 64)))
    figures = [f for p in steps for f in step_figures(p)]
    pictures = [[s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
                for slide in list(deck.slides)[1:]]
    placed = [pics[0] for pics in pictures if pics]
    assert all(len(pics) <= 1 for pics in pictures)
    assert len(placed) == len(figures) >= len(steps)
    body_w = 0.9 * deck.slide_width  # inside margins of 5 % of the width
    for figure, pic in zip(figures, placed, strict=True):
        if figure.body_box is None:
            # laid out off the grid (its body type misses 20 px in the body box: gemm's
            # intensity plot, whose receipt column does not wrap), within the page's budget
            assert over_budget(figure, TARGETS["slide"]) == [] and figure.parts == ("intensity",)
            continue
        body = body_of(figure)
        assert abs(pic.width / pic.height - body.width / body.height) < 0.01
        assert over_budget(figure, TARGETS["slide"]) == [], figure.parts
        assert pic.width >= 0.85 * body_w, "the figure fills the body, not 65 % of it"
        assert pic.top + pic.height <= deck.slide_height
