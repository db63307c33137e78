"""The ``cramped-column`` rule (``figures.lint_slide_room``): a slide 35-60 % empty while a
column of text beside its drawing breaks a value over two lines ("min(1," / "N·I/P)"). Shown
firing on bundled slides as the slide composer laid them out before it gave such a column the
room (``composition._gridded``), quiet on them as it lays them out now, on a receipt of rows and off
the grid."""

from __future__ import annotations

import pytest

from gpuviz.export.lecture import lecture_pages
from gpuviz.figures.lint_slide_room import cramped_column
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import TARGETS
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def _slide(name: str, step: int, panel: str, parts: tuple[str, ...] | None,
           size: str = "slide"):
    page = lecture_pages(load_scenario(scenario_dir() / f"{name}.json"), [step])[1]
    target = TARGETS[size].showing(parts).titled(*page.heading())
    return figure_for(page.state, panel, theme("screen"), page.selection_for(panel), target)


@pytest.mark.parametrize(("name", "step", "panel", "parts", "wrapped"), [
    ("scheduler-try-divergence", 0, "scheduler", ("utilisation",), "min(1, / N·I/P)"),
    ("mma-hierarchy", 0, "mma", None, "32 registers (one k16 / step)"),
])
def test_a_slide_half_empty_beside_a_column_that_wraps_values_is_found(
        name, step, panel, parts, wrapped, monkeypatch):
    from gpuviz.figures import composition

    # the composer blind to the rule: the layout it chose before it gave the column the room
    monkeypatch.setattr(composition, "cramped_column", lambda figure: [])
    found = cramped_column(_slide(name, step, panel, parts))
    assert len(found) == 1 and wrapped in found[0], found
    assert "% empty" in found[0]
    monkeypatch.undo()
    assert cramped_column(_slide(name, step, panel, parts)) == []  # the drawing takes the room


def test_a_receipt_of_rows_beside_a_rack_is_no_wrap():
    """The banks receipt sets one row a line ("rounds 32", "conflict degree 32-way"): rows,
    not a value wrapped."""
    assert cramped_column(_slide("banks-column32", 0, "banks", ("rack", "receipt"))) == []


def test_a_figure_off_the_grid_is_not_judged():
    figure = _slide("scheduler-try-divergence", 0, "scheduler", ("utilisation",), "double")
    assert figure.body_box is None and cramped_column(figure) == []
