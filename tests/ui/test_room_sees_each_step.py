"""Every bundled lecture in presentation mode (F5) on a 1280×720 projector shows, at each step,
what the step points at: its selection shows on the page the room sees, and the parts it names
are drawn there.

A figure too large for the room's 18 px is shown a page of parts at a time; a step that names
no parts sees the view's page. gemm-walkthrough's steps 4–6 select a naive, shared and register
owner, and the room saw the walkthrough matrices and the counts, never the owners. The room's
views are worked out as presentation mode works them out (``room_plan``: each panel in each
view it is shown in, over the steps it is seen at, laid out by ``lay_out_view``), without Qt.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.display import PT_TO_MM
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import NATURAL, view_target
from gpuviz.figures.theme import theme
from gpuviz.scenario import load_scenario
from gpuviz.scenario.bundled import bundled_scenarios
from gpuviz.scenario.compute import compute_cached, effective_params
from gpuviz.ui.presentation import PRESENT_BODY_PX, PRESENT_MIN_PX, room_plan
from gpuviz.ui.view_layout import lay_out_view

ROOM = theme("presentation")
SCREEN = (1280, 659)  # the room's figures on a 1280×720 projector, above the caption


def shows(build, result, target, key: str) -> bool:
    """Whether the figure of ``result`` laid out for ``target`` shows the selection ``key``:
    drawn with it, it is not the figure drawn without it (a selected lane outlines its words
    in the bank rack, which carry no lane key)."""
    return figure_to_svg(build((result, frozenset({key})), target)) != \
        figure_to_svg(build((result, frozenset()), target))


@pytest.mark.parametrize("path", bundled_scenarios(), ids=lambda p: p.stem)
def test_the_room_sees_what_each_step_points_at(path):
    scenario = load_scenario(path)
    plan = room_plan(scenario, scenario.panels[:1])
    px_per_mm = PRESENT_BODY_PX / (ROOM.text_pt * PT_TO_MM)
    missed = []
    for pid, views in plan.items():
        for n, parts, ks in views:
            states, distinct = {}, []  # each step's state; each (parameters, selection) once
            for k in ks:
                try:
                    params = effective_params(scenario.at_step(k), pid)
                except Exception:  # a panel this state cannot draw (a linked one, say)
                    continue
                states[k] = (compute_cached(pid, params), scenario.step_selection(k))
                if (params, states[k][1]) not in distinct:
                    distinct.append((params, states[k][1]))
            if not states:
                continue

            def build(state, target, pid=pid):
                return build_figure(pid, state[0], state[1], ROOM, target)

            view_px = (SCREEN[0] // n, SCREEN[1])
            target = view_target(round(view_px[0] / px_per_mm),
                                 round(view_px[0] / view_px[1], 2))
            layout = lay_out_view(build, [(compute_cached(pid, p), sel) for p, sel in distinct],
                                  target,
                                  view_px, PRESENT_MIN_PX, ROOM.title_pt, parts)
            shown = target.showing(layout.parts) if layout.parts else target
            for k, state in states.items():
                if k < 0:
                    continue
                page = replace(shown, design=layout.design)
                figure = build(state, page)
                for key in sorted(scenario.step_selection(k)):
                    if shows(build, state[0], NATURAL, key) and \
                            not shows(build, state[0], page, key):
                        missed.append(f"step {k + 1} {pid}: selects {key}, the room sees "
                                      f"{figure.parts}")
                for part in parts or ():
                    if part not in figure.parts:
                        missed.append(f"step {k + 1} {pid}: names '{part}', not drawn there")
    assert not missed, "\n".join(missed)
