"""The print theme survives a grayscale printer: in every bundled figure, the marks of any two
legend meanings differ in gray level, in hatching, in dash or in shape, never in hue alone."""

from __future__ import annotations

import itertools

import pytest

from gpuviz.figures.display import Group, Polyline, Rect, Rects, walk
from gpuviz.figures.scene import build_figure
from gpuviz.figures.theme import PRINT
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

MIN_GRAY_STEP = 0.1  # of the 0–1 gray scale: a step a laser printer keeps apart


def gray(color: str | None) -> float:
    if not color:
        return 1.0  # unfilled: the paper
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def legend_marks(figure):
    marks = {}
    for item in walk(figure.items):
        if isinstance(item, Group) and item.name and item.name.startswith("legend:"):
            for child in item.items:
                style = getattr(child, "style", None)
                if style is not None and not isinstance(child, Group):
                    kind = "line" if isinstance(child, Polyline) else (
                        "cell" if isinstance(child, (Rect, Rects)) else "dot")
                    marks[item.name[7:]] = (kind, gray(style.fill if kind != "line"
                                                       else style.stroke),
                                            style.hatch, style.dash)
                    break
    return marks


def distinguishable(a, b) -> bool:
    return a[0] != b[0] or a[2] != b[2] or a[3] != b[3] or abs(a[1] - b[1]) >= MIN_GRAY_STEP


CASES = [(p, pid) for p in bundled_scenarios() for pid in load_scenario(p).panels]


@pytest.mark.parametrize(("path", "panel_id"), CASES, ids=[f"{p.stem}-{i}" for p, i in CASES])
def test_print_legend_meanings_stay_apart_in_gray(path, panel_id):
    scenario = load_scenario(path)
    states = [scenario] + [scenario.at_step(k) for k in range(len(scenario.steps))]
    for state in states:
        result = compute_all(state, (panel_id,))[panel_id]
        marks = legend_marks(build_figure(panel_id, result, frozenset(), PRINT))
        clashes = [(a, b) for (a, ma), (b, mb) in itertools.combinations(marks.items(), 2)
                   if not distinguishable(ma, mb)]
        assert not clashes, f"{path.stem}/{panel_id}: in gray these look alike: {clashes}"


def test_the_check_tells_hue_alone_from_gray_or_hatch():
    blue, orange = ("cell", gray("#7FA9CF"), None, None), ("cell", gray("#E8A27A"), None, None)
    assert not distinguishable(blue, orange)  # different hues, nearly one gray
    assert distinguishable(blue, ("cell", gray("#E8A27A"), "cross", None))
    assert distinguishable(("cell", gray("#FFFFFF"), None, None), blue)
