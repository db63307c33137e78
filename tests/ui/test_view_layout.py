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


ROOM = theme("presentation")
ROOM_VIEW = (1280, 659)  # one panel in F5 on a 1280×720 projector, under the caption


def room_page(scenario_path, name: str, pid: str):
    """The page the room opens on for a panel of a bundled lecture, no page chosen: the
    layout presentation mode asks for one panel's view (18 px body type, 18 px least)."""
    from gpuviz.figures.display import PT_TO_MM
    from gpuviz.ui.presentation import PRESENT_BODY_PX, PRESENT_MIN_PX

    s = load_scenario(scenario_path(name))
    results = [compute_cached(pid, effective_params(s.at_step(k), pid))
               for k in range(-1, len(s.steps))]

    def build(result, target):
        return build_figure(pid, result, frozenset(), ROOM, target)

    px_per_mm = PRESENT_BODY_PX / (ROOM.text_pt * PT_TO_MM)
    target = view_target(round(ROOM_VIEW[0] / px_per_mm), round(ROOM_VIEW[0] / ROOM_VIEW[1], 2))
    return lay_out_view(build, results, target, ROOM_VIEW, PRESENT_MIN_PX, ROOM.title_pt)


def test_the_room_opens_on_the_figures_first_page(scenario_path):
    """No page chosen, the room showed the page of most parts: the scheduler's utilisation and
    warps plots, never the issue timeline the lecture is about (and the window, whose pages
    are one part each, opened on the timeline: F5 changed the picture). Now the first page,
    in the figure's reading order, in the window and in the room."""
    layout = room_page(scenario_path, "scheduler-try-round-robin.json", "scheduler")
    assert len(layout.pages) > 1 and layout.parts == layout.pages[0]
    assert layout.parts[0] == "timeline", layout.pages


def test_a_figure_whose_parts_change_opens_on_what_every_state_draws(scenario_path):
    """mma-wgmma-warpgroup draws the descriptor beside the warpgroup at two steps and the
    completion at two others. Paged from its largest state the descriptor comes first: the
    first page alone would open the room on it at every step, an empty page at the six
    states that draw none."""
    layout = room_page(scenario_path, "mma-wgmma-warpgroup.json", "mma")
    assert "descriptor" in {p for page in layout.pages for p in page}
    assert layout.parts is not None and "warpgroup" in layout.parts, layout.pages
