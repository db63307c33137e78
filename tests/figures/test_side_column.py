"""A side column when there is room (``composition.side_column``): the one rule by which a
figure's notes, legend or table stand beside its drawing instead of below it."""

from __future__ import annotations

from gpuviz.figures.composition import GAP, side_column
from gpuviz.figures.display import Group
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import NATURAL, SINGLE, SLIDE, view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_beside_on_a_page_where_the_least_width_is_left():
    for page in (SLIDE, view_target(160.0, 1.6)):
        assert side_column(page, 200.0, 120.0, 60.0) == 200.0 - 120.0 - GAP
        assert side_column(page, 200.0, 120.0, 200.0 - 120.0 - GAP) is not None
        assert side_column(page, 200.0, 120.0, 80.0) is None  # the gap takes the rest


def test_below_at_a_width_unless_the_kind_is_named():
    for target in (NATURAL, SINGLE):
        assert side_column(target, 200.0, 50.0, 10.0) is None
    assert side_column(SINGLE, 81.0, 30.0, 20.0, kinds=("column",)) == 81.0 - 30.0 - GAP
    assert side_column(SLIDE, 81.0, 30.0, 20.0, kinds=("column",)) is None


def _groups(figure) -> set[str]:
    """The names of the figure's blocks (each is a named group at the top)."""
    return {item.name for item in figure.items if isinstance(item, Group) and item.name}


def test_the_banks_receipt_stands_beside_the_rack_on_a_slide_and_below_in_a_column():
    scenario = load_scenario(scenario_dir() / "banks-column32.json")
    th = theme("print")
    slide = figure_for(scenario, "banks", th, target=SLIDE)
    column = figure_for(scenario, "banks", th, target=SINGLE)
    assert "side" in _groups(slide)
    assert "side" not in _groups(column)
