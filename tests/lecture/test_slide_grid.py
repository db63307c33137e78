"""Slides on one title-safe grid (``figures.slide_grid``): a lecture's titles at one place on
every slide, content inside margins of 5 % of the slide's width (height at the top and
bottom), the drawing at the top of the body box whatever the caption says, and the deck's
pictures where the ``--size slide`` files have their bodies, with body type of 20 px at
1280 × 720 as placed."""

from __future__ import annotations

import io
import statistics

import pytest

from gpuviz.export.deck import GRID, body_of, lecture_deck, step_figures
from gpuviz.export.files import budget_pages, export_figure_of
from gpuviz.export.lecture import lecture_pages, step_heading
from gpuviz.figures.budget import content_box, over_budget
from gpuviz.figures.display import PT_TO_MM, Group, Text, walk
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SLIDE
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def _scenario(name: str):
    return load_scenario(scenario_dir() / f"{name}.json")


def _group(figure, name: str) -> Group:
    return next(g for g in figure.items if isinstance(g, Group) and g.name == name)


def _first_text(group: Group) -> Text:
    return next(t for t in walk(group.items) if isinstance(t, Text))


@pytest.mark.parametrize("name", ["banks-padded33", "scheduler-h200-l1"])
def test_the_deck_sets_titles_pictures_and_captions_on_the_grid(name):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    scenario = _scenario(name)
    deck = Presentation(io.BytesIO(lecture_deck(scenario, "0" * 64)))
    w, h = deck.slide_width, deck.slide_height
    figures = [f for p in lecture_pages(scenario)[1:] for f in step_figures(p)]
    slides = list(deck.slides)[1:]
    titles = {(s.shapes.title.left, s.shapes.title.top, s.shapes.title.width) for s in slides}
    assert len(titles) == 1, "the title sits at one place on every slide"
    left, top, _ = titles.pop()
    assert left >= 0.05 * w - 1 and top >= 0.05 * h - 1
    pictures = [p for s in slides for p in s.shapes if p.shape_type == MSO_SHAPE_TYPE.PICTURE]
    assert len(pictures) == len(figures)
    for figure, pic in zip(figures, pictures, strict=True):
        assert figure.body_box is not None, "laid out on the grid"
        assert pic.left >= 0.05 * w - 1 and pic.left + pic.width <= 0.95 * w + 1
        assert pic.top + pic.height <= 0.95 * h + 1
        assert abs(pic.top - GRID.body.y / GRID.height * h) <= 0.001 * h, "at the body's top"
        body = body_of(figure)
        # the body's type as placed: its size on a slide shown 1280 pixels wide
        px_per_mm = pic.width / w * 1280.0 / body.width
        sizes = [t.size for t in walk(body.items) if isinstance(t, Text)]
        assert statistics.median(sizes) * PT_TO_MM * px_per_mm >= 20.0 - 1e-6


@pytest.mark.parametrize("name", ["banks-padded33", "traversal-grouped"])
def test_every_slide_step_file_carries_its_title_at_one_place_and_its_caption(name):
    scenario = _scenario(name)
    places = set()
    for k in range(len(scenario.steps)):
        state, selection = scenario.at_step(k), scenario.step_selection(k)
        heading, caption = step_heading(scenario, k)
        for pid in scenario.panels:
            named = scenario.step_parts(k, pid)
            for parts in budget_pages(state, pid, "screen", "slide", selection, "full",
                                      named, (heading, caption)) or (named,):
                figure, note = export_figure_of(state, pid, size="slide", selection=selection,
                                                parts=parts, step=(heading, caption))
                assert "left out" not in note, (k, pid, parts)
                title = _first_text(_group(figure, "step-title"))
                places.add((round(title.x, 6), round(title.y, 6), title.size))
                text = " ".join(figure.texts())
                assert heading in text
                assert all(word in text for word in caption.split()[:3])
                assert over_budget(figure, SLIDE.showing(parts)) == []
                assert title.x >= 0.05 * figure.width - 1e-9
    assert len(places) == 1, places


def test_a_drawing_keeps_its_place_and_scale_whatever_the_caption_says():
    scenario = _scenario("banks-padded33")
    th = theme("screen")
    rack = SLIDE.showing(["rack"])
    short = rack.titled("Step 1 · Short", "One line.")
    long = rack.titled("Step 2 · A heading of some more words than the other one has",
                        "A caption of two lines: " + "every word here only takes room " * 6)
    a, b = (figure_for(scenario, "banks", th, frozenset(), t) for t in (short, long))
    assert a.body_box == b.body_box and a.body_box is not None
    def body(figure):  # each block of the body: its name, ink box and type sizes
        return [(g.name, content_box((g,)), [t.size for t in walk(g.items)
                                            if isinstance(t, Text)])
                for g in figure.items if g.name not in ("step-title", "step-caption")]

    for (name, box, sizes), (other, box_b, sizes_b) in zip(body(a), body(b), strict=True):
        assert name == other
        assert box == pytest.approx(box_b, abs=1e-9), name
        assert sizes == pytest.approx(sizes_b, abs=1e-9), name
    assert _first_text(_group(a, "step-title")).y == _first_text(_group(b, "step-title")).y
