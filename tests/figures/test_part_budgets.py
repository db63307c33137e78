"""Every part of every panel, alone, in every bundled scenario's overview: at most 120 mm tall at
85 mm with type of at least 7 pt, and at 1280 × 720 body type of at least 20 px and titles of at
least 28 px, by layout; in print and in the presentation theme (the largest type) at a column,
and in print on a slide. (``benchmarks/bench_parts.py --lint --steps`` runs every theme, size
and step.)"""

from __future__ import annotations

import pytest

from gpuviz.figures.lint import lint
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import THEMES
from gpuviz.registry import PANELS
from gpuviz.scenario import bundled_scenarios, load_scenario

SCENARIOS = [(p.stem, load_scenario(p)) for p in bundled_scenarios()]


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.id)
def test_each_part_meets_its_budget_in_a_column_and_on_a_slide(panel):
    checked = 0
    for name, scenario in SCENARIOS:
        if panel.id not in scenario.panels:
            continue
        for part in panel.parts:
            for theme_name, target in (("print", SINGLE), ("presentation", SINGLE),
                                       ("print", SLIDE)):
                shown = target.showing([part])
                figure = figure_for(scenario, panel.id, THEMES[theme_name], frozenset(), shown)
                if figure.parts != (part,):
                    continue  # a part this scenario does not draw
                checked += 1
                found = lint(figure, shown, theme=THEMES[theme_name], budget=True)
                assert not found, (name, part, theme_name, target.name,
                                   [str(f) for f in found[:3]])
    assert checked, f"no bundled scenario draws a part of {panel.id}"
