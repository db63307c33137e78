"""A deck slide shows the step as the room reads it: the figure fills the slide's body and its
body type meets the slide budget (20 px at 1280 × 720) at the size it is placed."""

from __future__ import annotations

import io

import pytest

from gpuviz.export.deck import lecture_deck, placed_over_budget, step_figures
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
    margin = placed[0].left
    body_w = deck.slide_width - 2 * margin
    for figure, pic in zip(figures, placed, strict=True):
        assert abs(pic.width / pic.height - figure.width / figure.height) < 0.01
        share = pic.width / deck.slide_width
        assert placed_over_budget(figure, share) == [], (figure.parts, share)
        assert pic.width >= 0.85 * body_w, "the figure fills the body, not 65 % of it"
        assert pic.top + pic.height <= deck.slide_height
