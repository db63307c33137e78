"""The lint's ``lightness`` rule: in print, two flat legend cells of one figure print at least
12 L* apart in gray (CIE L* of the gray the colour prints as), shown firing on the colours the
figures drew before, then silent over every bundled figure; and the scheduler's timeline
states, which no hatch can tell apart, apart in lightness and hue in every theme."""

from __future__ import annotations

import colorsys
import itertools

from gpuviz.figures.display import Figure, Group, Rect, Style
from gpuviz.figures.lint import lint_colours
from gpuviz.figures.lint_distinct import MIN_LIGHTNESS_STEP
from gpuviz.figures.scheduler import state_colors
from gpuviz.figures.theme import PRINT, THEMES, gray_of_lightness, printed_lightness


def _legend(*cells):
    items = tuple(Group((Rect(2.0, 2.0 + 4 * i, 3.0, 3.0, Style(fill=c, stroke="#000000",
                                                                   stroke_width=0.1)),),
                        name=f"legend:{label}")
                  for i, (label, c) in enumerate(cells))
    return Figure(40.0, 40.0, "#FFFFFF", items)


def _lightness(figure):
    return [f for f in lint_colours(figure, PRINT) if f.rule == "lightness"]


def test_the_rule_fires_on_the_print_scheduler_states_as_they_were():
    """Gray levels 0.105 apart: issued math #7F5901 and loop #86744D printed 10.7 L* apart,
    ready #7DB9A5 and waiting on math #C6C6C6 10.0, the two waits 9.6."""
    before = _legend(("issued: math", "#7F5901"), ("issued: loop instruction", "#86744D"),
                     ("ready, not chosen", "#7DB9A5"), ("waiting on memory", "#D6E3EA"),
                     ("waiting on math", "#C6C6C6"))
    found = _lightness(before)
    assert len(found) == 3 and "10.7 L*" in found[0].message


def test_the_rule_fires_on_the_reduction_and_mma_grays_as_they_were():
    assert _lightness(_legend(("input", "#BCC3C9"), ("historic value", "#E0E0E0")))
    assert _lightness(_legend(("register 1", "#FAECCD"), ("register 3", "#E8CADA")))
    assert not _lightness(_legend(("a", "#000000"), ("b", "#FFFFFF")))


def test_lightness_and_gray_are_inverse():
    for v in (0.0, 12.5, 50.0, 97.8, 100.0):
        assert abs(printed_lightness(PRINT.at_gray("#0072B2", gray_of_lightness(v))) - v) < 0.5


def _hue(color):
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0]


def test_print_timeline_states_step_apart_in_lightness():
    levels = sorted(printed_lightness(c) for c in state_colors(PRINT).values())
    assert min(b - a for a, b in itertools.pairwise(levels)) >= MIN_LIGHTNESS_STEP


def test_issued_math_and_loop_differ_in_hue_and_lightness_in_every_theme():
    """Two browns before (the loop a tint of compute); now the loop is its own role."""
    for theme in THEMES.values():
        c = state_colors(theme)
        gap = abs(_hue(c["math"]) - _hue(c["loop"]))
        assert min(gap, 1 - gap) > 0.15, theme.name
        assert abs(printed_lightness(c["math"]) - printed_lightness(c["loop"])) >= 7, theme.name


def test_dark_loop_instruction_and_waiting_on_math_differ_in_lightness():
    """On the dark ground the loop's dark brown #674C17 and the gray #50555B of waiting on
    math printed 1.7 L* apart and read alike."""
    c = state_colors(THEMES["dark"])
    assert abs(printed_lightness(c["loop"]) - printed_lightness(c["wait_math"])) >= 20
