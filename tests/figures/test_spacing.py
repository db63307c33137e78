"""The spacing record of each kind of target (``figures.spacing``): one place for the margins,
gaps and row paddings that several figures share, read through the theme."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuviz.figures import composition
from gpuviz.figures.scene import figure_for
from gpuviz.figures.spacing import SPACINGS
from gpuviz.figures.targets import KINDS, NATURAL, SINGLE, SLIDE, view_target
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir


def test_every_kind_has_a_record_in_every_theme():
    for th in THEMES.values():
        for target in (NATURAL, SINGLE, SLIDE, view_target(120.0, 1.5)):
            assert th.spacing(target) is th.spacings[target.kind]
    assert set(SPACINGS) == set(KINDS)


def test_a_column_packs_timeline_rows_to_cell_height():
    column, natural = SPACINGS["column"], SPACINGS["natural"]
    assert column.row_pad == column.cell_pad < natural.row_pad


def test_the_composer_spaces_by_the_record():
    for kind in KINDS:
        sp = SPACINGS[kind]
        assert (
            sp.margin, sp.gap, sp.heading_gap) == (composition.MARGIN, composition.GAP, composition.PART_GAP)


@pytest.mark.parametrize("name, panel", [("barrier-two-barriers", "barrier"),
                                         ("pipeline-double-buffer", "pipeline")])
def test_a_timeline_reads_its_row_pad_from_the_theme(name, panel):
    """Changing the column's record changes the column's figure, and only the column's."""
    scenario = load_scenario(scenario_dir() / f"{name}.json")
    th = theme("print")
    roomier = replace(th, spacings={**th.spacings,
                                    "column": replace(th.spacings["column"], row_pad=3.0)})
    assert figure_for(scenario, panel, roomier, target=SINGLE).height > \
        figure_for(scenario, panel, th, target=SINGLE).height
    assert figure_for(scenario, panel, roomier, target=NATURAL).height == \
        figure_for(scenario, panel, th, target=NATURAL).height
