"""A lecture's pages: what every lecture writer shows for each step."""

from __future__ import annotations

import json

from gpuviz.export.lecture import lecture_pages
from gpuviz.figures.scene import figure_for
from gpuviz.figures.theme import theme
from gpuviz.scenario import loads_scenario


def _lecture(scenario_path, **step0):
    raw = json.loads(scenario_path("banks-padded33.json").read_text(encoding="utf-8"))
    raw["steps"][0].update(step0)
    raw["steps"][1].pop("parts", None)  # a step that names none
    return loads_scenario(json.dumps(raw))


def test_pages_number_steps_from_one_and_fill_in_caption_values(scenario_path):
    scenario = _lecture(scenario_path, caption="{banks.access_bytes}-byte words")
    pages = lecture_pages(scenario)
    assert [p.number for p in pages] == list(range(len(scenario.steps) + 1))
    assert pages[0].label == "Overview" and pages[1].label == "Step 1"
    assert pages[1].caption == "4-byte words"
    assert pages[1].selection == scenario.step_selection(0)


def test_a_step_that_names_parts_shows_only_them(scenario_path):
    scenario = _lecture(scenario_path, parts=["rack"])
    page = lecture_pages(scenario)[1]
    figure = figure_for(page.state, "banks", theme("screen"), page.selection,
                        page.target("banks", "slide"))
    assert figure.parts == ("rack",)
    whole = lecture_pages(scenario)[2]
    assert whole.target("banks", "slide").parts is None, "a step without parts: the whole figure"
