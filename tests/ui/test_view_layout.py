"""A view's layout for a whole lecture, without Qt: one design and one type for every state
(the pages of parts are driven through the app in test_dock_layouts.py)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.view_layout import (
    MEASURED_STATES,
    lay_out_view,
    layout_scale,
    measured_states,
    type_px,
)

SCREEN = theme("screen")
VIEW = (986, 558)  # one panel's figure in a 1280×720 window


def lecture(scenario_path, name: str, pid: str):
    s = load_scenario(scenario_path(name))
    states = []
    for k in range(-1, len(s.steps)):
        p = effective_params(s.at_step(k), pid)
        if p not in states:
            states.append(p)
    results = [compute_cached(pid, p) for p in states]

    def build(result, target):
        return build_figure(pid, result, frozenset(), SCREEN, target)

    return results, build, view_target(240, round(VIEW[0] / VIEW[1], 2))


def test_one_round_and_32_rounds_are_drawn_with_one_design_at_one_type(scenario_path):
    results, build, target = lecture(scenario_path, "banks-padded33.json", "banks")
    whole = tuple(build(results[0], target).parts)  # the rack with them: 1 to 32 rounds
    layout = lay_out_view(build, results, target, VIEW, 12.0, SCREEN.title_pt, parts=whole)
    shown = target.showing(layout.parts)
    types = []
    for result in results:
        figure = build(result, replace(shown, design=layout.design))
        assert figure.design == layout.design
        zoom = layout.zoom(layout_scale(figure, SCREEN.title_pt))
        types.append(type_px(figure, VIEW, zoom))
    assert max(types) - min(types) <= 0.5, types
    # laid out alone, the one-round state would come out far larger
    alone = build(results[0], shown)
    assert type_px(alone, VIEW) > max(types) + 3


def test_a_long_lecture_is_measured_on_a_dozen_states_with_the_first_and_the_last():
    # each state measured costs a build per design tried: 250 steps over 2^20 blocks never
    # settled; the overview (first) and what is shown (last) are always measured
    assert measured_states(5) == [0, 1, 2, 3, 4]
    picked = measured_states(252)
    assert len(picked) == MEASURED_STATES and picked[0] == 0 and picked[-1] == 251
    assert picked == sorted(set(picked))
    gaps = [b - a for a, b in itertools.pairwise(picked)]
    assert max(gaps) - min(gaps) <= 1  # spread evenly
