"""Whatever a click selects in the divergence, mma, sectors or swizzle figure is drawn as
selected: for every kind of key a part emits, selecting one key of it adds the selection's mark
(a line in the ink colour at least as heavy as the double outline's outer line) to that part."""

from __future__ import annotations

import pytest

from gpuviz.figures.display import walk
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import SINGLE
from gpuviz.figures.theme import theme
from gpuviz.registry import panel
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCREEN = theme("screen")
#: (scenario, panel): together they draw every part of the four panels
CASES = [("divergence-nested", "divergence"), ("mma-fragments", "mma"),
         ("mma-wgmma-warpgroup", "mma"), ("mma-hierarchy", "mma"),
         ("sectors-reversed", "sectors"), ("banks-swizzled-columns", "swizzle")]
#: kinds drawn another way: a reader's line of the swizzle table turns bold
OTHERWISE = {("swizzle", "row")}


def marks(figure):
    heavy = SCREEN.highlight().stroke_width - 1e-9
    return sorted(repr((type(i).__name__, getattr(i, "x", None), getattr(i, "y", None),
                        getattr(i, "points", None))) for i in walk(figure.items)
                  if getattr(i, "style", None) is not None and i.style.fill is None
                  and i.style.stroke == SCREEN.foreground and not i.style.dash
                  and (i.style.stroke_width or 0.0) >= heavy)


@pytest.mark.parametrize(("name", "panel_id"), CASES, ids=[n for n, _ in CASES])
def test_every_key_kind_a_part_emits_is_drawn_when_selected(name, panel_id):
    scenario = load_scenario(scenario_dir() / f"{name}.json")
    seen = 0
    for part in panel(panel_id).parts:
        target = SINGLE.showing([part])
        plain = figure_for(scenario, panel_id, SCREEN, frozenset(), target)
        if plain.parts != (part,):
            continue
        first: dict[str, str] = {}
        emitted = plain.keys()  # the figure's keys, in drawing order
        for key in emitted:
            first.setdefault(key.partition(":")[0], key)
        for kind, key in sorted(first.items()):
            if (panel_id, kind) in OTHERWISE:
                continue
            chosen = figure_for(scenario, panel_id, SCREEN, frozenset({key}), target)
            assert marks(chosen) != marks(plain), (part, key)
            seen += 1
    assert seen >= 3
