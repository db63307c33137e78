"""Every text reads against its ground (WCAG 2.1, 1.4.3: 4.5 : 1, 3 : 1 for large text): the
lint's ``contrast`` rule, shown firing on texts as figures drew them before the composer kept
them legible, and the composer's pass (``legible.keep_legible``), which gives a text the least
shade of its own colour that reads."""

from __future__ import annotations

import colorsys

from gpuviz.figures.display import Figure, Rect, Style, Text, walk
from gpuviz.figures.legible import keep_legible, legible_colour
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import build_figure
from gpuviz.figures.theme import DARK, PRINT, SCREEN, contrast_ratio
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario


def _page(*items, background="#FFFFFF"):
    return Figure(60.0, 20.0, background, tuple(items))


def _contrast(figure):
    return [f for f in lint(figure) if f.rule == "contrast"]


def _hue(color):
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0]


def test_the_rule_fires_on_a_label_in_the_print_bad_state_tint():
    """The scheduler's "16 warp slots" label was drawn in the print theme's vermillion tint
    #E8A27A on white paper: 2.13 : 1."""
    label = Text(5.0, 10.0, "16 warp slots", 7.0, PRINT.color("warn"))
    found = _contrast(_page(label))
    assert len(found) == 1 and "2.13 : 1" in found[0].message


def test_the_rule_reads_the_cell_under_a_text():
    """The reduction's "?" of an undefined entry in the muted ink on the undefined role's fill
    read 2.12 : 1 on the screen; the same text on the page reads (5.4 : 1)."""
    cell = Rect(4.0, 5.0, 10.0, 8.0, SCREEN.fill("undefined"))
    mark = Text(9.0, 10.0, "?", 7.0, SCREEN.muted, anchor="middle")
    assert len(_contrast(_page(cell, mark))) == 1
    assert not _contrast(_page(mark))
    assert not _contrast(_page(mark, cell))  # a cell drawn over a text is not its ground


def test_large_text_needs_three_to_one():
    grey = "#949494"  # 3.03 : 1 on white
    assert _contrast(_page(Text(5.0, 10.0, "x", 12.0, grey)))
    assert not _contrast(_page(Text(5.0, 10.0, "x", 18.0, grey)))
    assert not _contrast(_page(Text(5.0, 10.0, "x", 14.0, grey, bold=True)))


def test_a_knocked_out_text_is_read_against_its_knockout():
    cell = Rect(0.0, 0.0, 60.0, 20.0, Style(fill="#000000"))
    assert not _contrast(_page(cell, Text(5.0, 10.0, "x", 7.0, "#000000", knockout="#FFFFFF")))


def test_keep_legible_darkens_a_label_within_its_hue():
    tint = PRINT.color("warn")
    shade = legible_colour(tint, "#FFFFFF", 4.5, PRINT)
    assert 4.5 <= contrast_ratio(shade, "#FFFFFF") < 4.7  # the least shade that reads
    assert abs(_hue(shade) - _hue(tint)) < 0.02  # still vermillion


def test_a_value_in_one_ink_takes_the_other_whole():
    """The dark theme's light ink on its vermillion (2.27 : 1) becomes its dark ink, not a
    mid gray; the screen's ink on vermillion (4.28 : 1) becomes black (5.53 : 1)."""
    assert legible_colour(DARK.foreground, DARK.color("conflict"), 4.5, DARK) == DARK.background
    assert legible_colour(SCREEN.foreground, SCREEN.color("conflict"), 4.5,
                          SCREEN) == "#000000"


def test_keep_legible_leaves_a_legible_figure_alone():
    items = (Rect(4.0, 5.0, 10.0, 8.0, SCREEN.fill("load")),
             Text(9.0, 10.0, "3", 7.0, SCREEN.foreground))
    assert keep_legible(items, "#FFFFFF", SCREEN) is items


def test_the_scheduler_warp_slots_label_keeps_its_hue_and_reads_in_print():
    path = next(p for p in bundled_scenarios() if p.stem == "scheduler-memory-parallelism")
    scenario = load_scenario(path)
    result = compute_all(scenario, ("scheduler",))["scheduler"]
    figure = build_figure("scheduler", result, frozenset(), PRINT)
    labels = [t for t in walk(figure.items) if isinstance(t, Text) and "warp slots" in t.text]
    assert labels
    for t in labels:
        assert contrast_ratio(t.color, figure.background) >= 4.5
        assert abs(_hue(t.color) - _hue(PRINT.color("warn"))) < 0.02
    assert not _contrast(figure)
