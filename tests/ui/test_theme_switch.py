"""A theme switch draws each figure once in the new theme, in its final layout: the picture in
the old theme stays up until the view's layouts in the new one are known (a figure searched
alone was drawn first, in another design at smaller type: 7.4 px where the layout gives 11)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("name", ["gemm-walkthrough.json", "mma-fragments.json"])
def test_a_theme_switch_draws_the_final_figure_first(name, make_main_window, scenario_path,
                                                     qtbot):
    w = make_main_window(scenario_path(name))
    w.resize(1280, 720)
    docks = [d for d in w.docks.values() if d.isVisible()]
    qtbot.waitUntil(lambda: all(d.settled() and d.view_layout() is not None for d in docks),
                    timeout=15000)
    shown: dict[str, list] = {d.objectName(): [] for d in docks}
    for d in docks:
        original = d.view.set_figure

        def record(figure, d=d, original=original):
            shown[d.objectName()].append(figure)
            original(figure)

        d.view.set_figure = record
    w.set_theme("dark")
    qtbot.waitUntil(lambda: all(d.settled() and d.view_layout() is not None for d in docks),
                    timeout=15000)
    qtbot.wait(100)
    for d in docks:
        dark = [f for f in shown[d.objectName()] if f.background == d.theme.background]
        assert dark, d.objectName()
        assert all(f == d.current_figure() for f in dark), \
            f"{d.objectName()}: {len(dark)} figures in the new theme, the first not the final"
        assert dark[0].design == d.view_layout().design
