"""The shared line plot: units on both axes, bounded percentage axes, one number format, the
legend outside the data, and the old ``line_plot`` unchanged for the figures that use it."""

from gpuviz.figures.display import Canvas, Circle, Polyline, Text, walk
from gpuviz.figures.legend import LegendEntry
from gpuviz.figures.lint import lint
from gpuviz.figures.plot import (
    Mark,
    Series,
    format_tick,
    line_plot,
    mark_style,
    plot_block,
    plot_legend_block,
    series_legend,
    series_style,
)
from gpuviz.figures.theme import DARK, SCREEN
from gpuviz.keys import key

SERIES = [Series("row-major", [1, 2, 3], [1000, 2048, 4096], 0),
          Series("hilbert", [1, 2, 3], [10, 20, 30], 2)]


def texts(block):
    return [i.text for i in walk(block.items) if isinstance(i, Text)]


def test_axes_carry_their_units_and_ticks_use_comma_grouping():
    b = plot_block(SERIES, SCREEN, 80, 50, x_label="step", x_unit="1 tile each",
                   y_label="loads so far", y_unit="tiles")
    t = texts(b)
    assert "step (1 tile each)" in t and "loads so far (tiles)" in t
    assert "4,000" in t and not any("\u2009" in s for s in t)


def test_a_percentage_axis_is_fixed_to_0_100_and_values_are_clamped():
    s = [Series("busy", [0, 1, 2], [50, 130, -5], 0)]
    b = plot_block(s, SCREEN, 80, 50, x_label="cycle", x_unit="cycles", y_label="busy",
                   percent=True, marks=[Mark(1, 130, "")])
    t = texts(b)
    assert "100 %" in t and "0 %" in t and "busy (%)" in t
    assert not any(v.startswith(("120", "140")) for v in t)
    line = next(i for i in walk(b.items) if isinstance(i, Polyline) and i.key == "series:busy")
    dot = next(i for i in walk(b.items) if isinstance(i, Circle))
    top = min(y for _, y in line.points)
    assert abs(dot.cy - top) < 1e-9  # 130 % drawn at the 100 % line, as the series' point


def test_no_legend_on_the_data_and_the_series_legend_matches_the_lines():
    b = plot_block(SERIES, SCREEN, 80, 50, x_label="step", x_unit="steps", y_label="loads",
                   y_unit="tiles")
    assert not [s for s in texts(b) if s in ("row-major", "hilbert")]
    drawn = {i.key: i.style for i in walk(b.items) if isinstance(i, Polyline)}
    entries = series_legend(SERIES, SCREEN)
    assert [e.label for e in entries] == ["row-major", "hilbert"]
    for e, s in zip(entries, SERIES, strict=True):
        assert drawn[key("series", s.label)] == e.style == series_style(SCREEN, s)


def test_a_series_keeps_its_mark_whatever_its_position_in_a_plot():
    a = plot_block(SERIES, SCREEN, 80, 50, x_label="x", x_unit="u", y_label="y", y_unit="u")
    b = plot_block(SERIES[::-1], SCREEN, 80, 50, x_label="x", x_unit="u", y_label="y",
                   y_unit="u")
    styles: dict[str, set] = {}
    for blk in (a, b):
        for i in walk(blk.items):
            if isinstance(i, Polyline) and (i.key or "").startswith("series:"):
                styles.setdefault(i.key, set()).add(i.style)
    assert sorted(styles) == ["series:hilbert", "series:row-major"]
    assert all(len(v) == 1 for v in styles.values())  # one mark per series in both plots


def test_the_legend_block_passes_the_lint_and_lines_show_their_dashes():
    entries = [*series_legend(SERIES, DARK), LegendEntry("now", mark_style(DARK), "dot")]
    block = plot_legend_block(entries, DARK, 60)
    from gpuviz.figures.display import Figure

    fig = Figure(block.width + 1, block.height + 1, DARK.background, block.items)
    assert lint(fig) == []
    assert block.width <= 60


def test_line_plot_keeps_its_old_spelling_by_default():
    c = Canvas()
    line_plot(c, 0, 0, 80, 50, SERIES, SCREEN, x_label="x", y_label="y")
    t = [i.text for i in walk(c.figure(80, 50, "#FFFFFF").items) if isinstance(i, Text)]
    assert format_tick(4000) in t and "row-major" in t  # thin-space grouping, legend inside


def test_a_given_top_is_rounded_up_to_a_tick_so_the_highest_point_has_a_grid_line():
    s = [Series("t", [0, 1], [0, 5.3], 0)]
    t = texts(plot_block(s, SCREEN, 80, 50, x_label="x", x_unit="u", y_label="y", y_unit="u",
                         y_range=(0.0, 5.3)))
    assert "6" in t  # 0, 2, 4, 6: the top tick lies above the highest value


def test_a_marks_label_sits_clear_of_the_curves_tied_by_a_leader():
    # a staircase through the marked point and lines across the places beside it: the label
    # goes further out, where no line crosses it, and a thin leader ties it to its dot
    s = [Series("cliff", [0, 32, 64, 96, 128], [64, 64, 32, 32, 16], 0, step=True),
         *(Series(f"across {y}", [0, 128], [y, y], 2) for y in (40, 32, 44, 28))]
    b = plot_block(s, SCREEN, 60, 40, x_label="registers", y_label="warps",
                   marks=[Mark(64, 36, "64 registers")], leaders=True)
    from gpuviz.figures.display import Figure, text_box

    fig = Figure(b.width + 2, b.height + 2, SCREEN.background, b.items)
    assert not [f for f in lint(fig) if f.rule in ("crossing", "overlap")]
    label = next(i for i in walk(b.items) if isinstance(i, Text) and i.text == "64 registers")
    dot = next(i for i in walk(b.items) if isinstance(i, Circle))
    x0, y0, x1, y1 = text_box(label)
    gap = max(x0 - dot.cx, dot.cx - x1, y0 - dot.cy, dot.cy - y1) - dot.r
    leaders = [i for i in walk(b.items) if isinstance(i, Polyline) and len(i.points) == 2
               and abs(((i.points[0][0] - dot.cx) ** 2 + (i.points[0][1] - dot.cy) ** 2) ** 0.5
                       - dot.r) < 1e-6]
    assert gap > 1.0 and len(leaders) == 1  # apart from its dot, and tied to it


def test_a_percentage_plots_x_ticks_are_plain_numbers():
    s = [Series("busy", [0, 3000, 6000], [10, 80, 20], 0)]
    t = texts(plot_block(s, SCREEN, 80, 40, x_label="cycle", y_label="issue slots",
                         percent=True))
    assert "6,000" in t and not any(v.endswith(" %") and "," in v for v in t)


def test_a_long_label_over_saturated_curves_goes_to_the_clear_place_nearest_its_dot():
    """scheduler-h200-l1's warps plot at W = 48: three curves run flat across the top, and no
    place beside the dot held 'W = 48: H200 88 %, model 100 % (+14 %)', so the label sat on the
    curves (a halo through three lines). The empty area under them takes it, tied by a leader;
    nothing drawn in the data area (markers, notes, other labels) is covered."""
    import numpy as np

    from gpuviz.figures.display import Figure, text_box
    from gpuviz.figures.geometry import segment_hits_box

    top = [Series(name, [0, 16, 24, 32, 48, 64], ys, i, markers=True) for i, (name, ys) in
           enumerate((("simulated", [18, 66, 88, 100, 100, 100]),
                      ("Little's law", [18, 70, 100, 100, 100, 100]),
                      ("measured", [18, 68, 86, 91, 88, 93])))]
    label = "W = 48: H200 88 %, model 100 % (+14 %)"
    b = plot_block(top, SCREEN, 90, 45, x_label="warps per SM W", y_label="issue slots",
                   percent=True, marks=[Mark(48, 100, label)], leaders=True)
    fig = Figure(b.width + 2, b.height + 2, SCREEN.background, b.items)
    assert not [f for f in lint(fig) if f.rule in ("crossing", "overlap")]
    text = next(i for i in walk(b.items) if isinstance(i, Text) and i.text == label)
    assert text.knockout is None  # clear of every line, not drawn over them with a halo
    x0, y0, x1, y1 = text_box(text)
    curves = [i for i in walk(b.items) if isinstance(i, Polyline) and len(i.points) > 2]
    for c in curves:
        pts = np.asarray(c.points, dtype=float)
        assert not segment_hits_box(np.hstack([pts[:-1], pts[1:]]), (x0, y0, x1, y1)).any()
    markers = [i for i in walk(b.items) if isinstance(i, Circle)]
    assert all(not (x0 < m.cx + m.r and m.cx - m.r < x1 and y0 < m.cy + m.r and m.cy - m.r < y1)
               for m in markers)


def test_doubling_values_on_a_log_axis_are_ticked_at_themselves():
    """Tile sides 1, 2, 4 … 64 on a log axis are read at those values, not at 1, 2, 5, 10, 20,
    50 (which the decades gave before)."""
    from gpuviz.figures.display import Text, walk
    from gpuviz.figures.plot import Series, plot_block
    from gpuviz.figures.theme import THEMES

    xs = [1, 2, 4, 8, 16, 32, 64]
    block = plot_block([Series("T", xs, [x / 4 for x in xs], 0)], THEMES["print"], 120.0, 50.0,
                       x_label="tile side", y_label="FLOPs/byte", x_log=True)
    ticks = {t.text for t in walk(block.items) if isinstance(t, Text) and t.anchor == "middle"}
    assert {"1", "4", "16", "64"} <= ticks and not ticks & {"5", "10", "20", "50"}


def test_uneven_given_ticks_keep_their_values_and_the_last():
    from gpuviz.figures.plot import _spaced

    def px(v):
        return v * 0.1  # mm

    def width(_v):
        return 2.0

    # 32 and 64 are 3.2 mm apart (room for them), 255 sits 2.3 mm past 232: it replaces it
    assert _spaced([32.0, 64.0, 128.0, 232.0, 255.0], px, width) == [32.0, 64.0, 128.0, 255.0]
