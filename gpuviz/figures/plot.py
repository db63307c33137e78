"""Line plots in the display list: axes, nice ticks, several series, a legend and a marked point.

Plots are figures like any other, so they are painted on screen and exported to SVG by the same
code. Series are told apart by colour *and* dash pattern, so a grayscale print keeps them apart.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import unquote

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import (
    PT_TO_MM,
    Canvas,
    Circle,
    Polyline,
    Style,
    Text,
    text_box,
    text_width,
    walk,
)
from gpuviz.figures.geometry import segment_hits_box
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Target,
    format_number,
    legend_for,
    line_step,
    place,
    text_block,
    wrap,
)
from gpuviz.figures.legend import draw_entry
from gpuviz.figures.metrics import cap_height, descent, ink_height, room_width
from gpuviz.figures.theme import Theme

DASHES: tuple[tuple[float, ...] | None, ...] = (None, (1.6, 0.8), (0.5, 0.6), (2.2, 0.6, 0.5, 0.6))


@dataclass(frozen=True)
class Series:
    label: str
    x: Sequence[float]
    y: Sequence[float]
    color_index: int = 0
    step: bool = False  # draw as a step function (value holds until the next x)
    markers: bool = False
    style: Style | None = None  # the line, where it is not the category's (colour and dash)


@dataclass(frozen=True)
class Mark:
    """A highlighted point, e.g. the current parameter value on a cliff plot."""

    x: float
    y: float
    label: str
    style: Style | None = None  # the dot, where it is not the plot's mark style


@dataclass(frozen=True)
class PlotFrame:
    """Where a plot's data area lies on its canvas, and its value-to-mm maps, for what a
    figure adds to the data area (bands, dots, labelled rules)."""

    left: float
    top: float
    right: float
    bottom: float
    px: Callable[[float], float]
    py: Callable[[float], float]


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]: steps of 1, 2 or 5 × 10^k."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(target, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    return ticks


def format_tick_number(v: float) -> str:
    """A tick in the figures' one number format: ``1,024``, ``0.25``."""
    return format_number(round(v) if abs(v - round(v)) < 1e-9 else v)


format_tick = format_tick_number  # the one tick format, under the name line_plot's callers use


def format_tick_percent(v: float) -> str:
    """A tick of a percentage axis (values in percent, 0–100)."""
    return f"{format_tick_number(v)} %"


def line_plot(
    c: Canvas,
    x0: float,
    y0: float,
    width: float,
    height: float,
    series: Sequence[Series],
    theme: Theme,
    *,
    x_label: str,
    y_label: str,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    marks: Sequence[Mark] = (),
    key: str | None = None,
    legend: bool = True,
    tick_format: Callable[[float], str] = format_tick,
    style_of: Callable[[int, Series], Style] | None = None,
    size: float | None = None,
    mark_style: Style | None = None,
    x_ticks: Sequence[float] | None = None,
    x_tick_format: Callable[[float], str] | None = None,
    y_ticks: Sequence[float] | None = None,
    draw: Callable[[Canvas, PlotFrame], None] | None = None,
    leaders: bool = False,
    under: Callable[[Canvas, PlotFrame], None] | None = None,
) -> tuple[float, float, float, float]:
    """Draw a plot whose outer box is (x0, y0, width, height) mm. Returns the data area
    (left, top, width, height) in mm so callers can add annotations.

    ``tick_format`` spells the tick values; ``style_of(i, series)`` the i-th series' line (by
    default colour from the series, dash from its position); ``size`` the type size (default
    the theme's small size); ``mark_style`` the marks' dots (default: the accent colour). A mark
    with an empty label is drawn as a dot alone. ``draw(c, frame)`` adds to the data area
    (``under(c, frame)`` beneath the series);
    with ``leaders`` a mark's label sits where no curve crosses it, tied to its dot by a leader
    where it sits apart."""
    size = size or theme.small_pt
    em = size * PT_TO_MM
    xs = [float(v) for s in series for v in s.x]
    ys = [float(v) for s in series for v in s.y if v is not None and math.isfinite(v)]
    xlo, xhi = x_range or ((min(xs), max(xs)) if xs else (0.0, 1.0))
    ylo, yhi = y_range or ((min(0.0, min(ys)), max(ys)) if ys else (0.0, 1.0))
    if yhi <= ylo:
        yhi = ylo + 1.0
    if xhi <= xlo:
        xhi = xlo + 1.0
    yt = list(y_ticks) if y_ticks is not None else nice_ticks(ylo, yhi)
    yhi = max(yhi, yt[-1])
    xt = list(x_ticks) if x_ticks is not None else nice_ticks(xlo, xhi, target=6)
    label_w = max(text_width(tick_format(v), size) for v in yt)
    left = x0 + label_w + em * 2.2
    top = y0 + em * 0.8
    right = x0 + width - em * 0.5
    x_lines = wrap(x_label, size, right - left)  # a long axis title wraps under the axis
    bottom = y0 + height - em * (3.2 + 1.3 * (len(x_lines) - 1))
    pw, ph = right - left, bottom - top

    def px(v: float) -> float:
        return left + (v - xlo) / (xhi - xlo) * pw

    def py(v: float) -> float:
        return bottom - (v - ylo) / (yhi - ylo) * ph

    fmt_x = x_tick_format or tick_format
    need = max((text_width(fmt_x(v), size) for v in xt), default=0.0) + 1.5
    if x_ticks is not None:  # given ticks (a hardware's values): the last kept, then those
        xt = _spaced([v for v in xt if xlo - 1e-9 <= v <= xhi + 1e-9] or xt, px,
                     lambda v: text_width(fmt_x(v), size))
        need = 0.0  # kept apart pair by pair
    while len(xt) > 2 and min(px(b) - px(a) for a, b in itertools.pairwise(xt)) < need:
        xt = xt[::2]  # fewer x ticks where their labels would touch
    with c.group(key, name="plot"):
        grid = Style(stroke=theme.grid, stroke_width=theme.thin_mm)
        drawn: list[tuple[float, float, float, float]] = [
            (left, py(v), right, py(v)) for v in yt if ylo <= v <= yhi]
        c.segments(drawn, grid)
        if under is not None:
            under(c, PlotFrame(left, top, right, bottom, px, py))
        axis = theme.stroke("foreground", theme.thin_mm * 1.5)
        c.line(left, bottom, right, bottom, axis)
        c.line(left, top, left, bottom, axis)
        for v in yt:
            if ylo <= v <= yhi:
                c.text(left - em * 0.4, py(v), tick_format(v), size, theme.foreground,
                       anchor="end", baseline="middle")
        for v in xt:
            if xlo - 1e-9 <= v <= xhi + 1e-9:
                c.line(px(v), bottom, px(v), bottom + em * 0.35, axis)
                c.text(px(v), bottom + em * 1.3, fmt_x(v), size, theme.foreground,
                       anchor="middle")
        for i, line in enumerate(reversed(x_lines)):
            c.text((left + right) / 2, y0 + height - em * (0.2 + 1.3 * i), line, size,
                   theme.foreground, anchor="middle")
        c.text(x0 + em * 0.9, (top + bottom) / 2, y_label, size, theme.foreground,
               anchor="middle", rotate=-90)
        for i, s in enumerate(series):
            color = theme.category(s.color_index)
            style = style_of(i, s) if style_of else Style(
                stroke=color, stroke_width=theme.line_mm * 1.3, dash=DASHES[i % len(DASHES)])
            pts: list[tuple[float, float]] = []
            prev = None
            for xv, yv in zip(s.x, s.y, strict=True):
                if yv is None or not math.isfinite(float(yv)):
                    continue
                if s.step and prev is not None:
                    pts.append((px(float(xv)), py(prev)))
                pts.append((px(float(xv)), py(float(yv))))
                prev = float(yv)
            if len(pts) >= 2:
                c.polyline(pts, style, key=keys.key("series", s.label))
                drawn += [(*a, *b) for a, b in itertools.pairwise(pts)]
            if s.markers:
                dot = Style(fill=color)
                for xv, yv in zip(s.x, s.y, strict=True):
                    if yv is not None and math.isfinite(float(yv)):
                        c.circle(px(float(xv)), py(float(yv)), theme.line_mm * 1.6, dot)
        if draw is not None:
            draw(c, PlotFrame(left, top, right, bottom, px, py))
        legend_w = max((text_width(s.label, size) for s in series), default=0.0) + em * 3.2
        if legend and len(series) > 1:  # drawn last, top right: kept clear of marks' labels
            drawn += _box_edges((right - legend_w, top, right, top + em * 1.3 * len(series)))
        for item in walk(c.drawn()):  # what ``draw`` and the markers put in the data area
            if isinstance(item, Text):
                drawn += _box_edges(text_box(item, 0.3))
            elif isinstance(item, Circle):
                drawn += _box_edges((item.cx - item.r, item.cy - item.r, item.cx + item.r,
                                     item.cy + item.r))
        segs = np.asarray(drawn, dtype=float).reshape(-1, 4)
        for m in marks:
            c.circle(px(m.x), py(m.y), em * 0.45, m.style or mark_style or Style(
                fill=theme.accent, stroke=theme.background, stroke_width=theme.thin_mm))
            if m.label and leaders:
                box = _mark_label(c, px(m.x), py(m.y), em * 0.45, m.label, size, theme, segs,
                                  (left, top, right, bottom))
                segs = np.vstack([segs, np.asarray(_box_edges(box), dtype=float)])
            elif m.label:
                c.text(px(m.x) + em * 0.7, py(m.y) - em * 0.5, m.label, size, theme.foreground,
                       bold=True)
        if legend and len(series) > 1:
            ly = top + em * 0.6
            lx = right - legend_w
            for i, s in enumerate(series):
                style = Style(stroke=theme.category(s.color_index),
                              stroke_width=theme.line_mm * 1.3, dash=DASHES[i % len(DASHES)])
                c.line(lx, ly - em * 0.3, lx + em * 2.2, ly - em * 0.3, style)
                c.text(lx + em * 2.6, ly, s.label, size, theme.foreground)
                ly += em * 1.3
    return left, top, pw, ph


# --------------------------------------------------------------------------------------------
# Plots as layout blocks: units on both axes, bounded percentages, the legend outside the data


def series_style(theme: Theme, s: Series) -> Style:
    """A series' line in :func:`plot_block`: its own ``style`` where it has one, else colour
    *and* dash follow its ``color_index``, so one meaning keeps one mark in every plot of a
    figure (and in its legend)."""
    if s.style is not None:
        return s.style
    return Style(stroke=theme.category(s.color_index), stroke_width=theme.line_mm * 1.3,
                 dash=DASHES[s.color_index % len(DASHES)])


def series_legend(series: Sequence[Series], theme: Theme) -> list[LegendEntry]:
    """One legend entry per series label, with the line :func:`plot_block` draws it with."""
    out: list[LegendEntry] = []
    seen: set[str] = set()
    for s in series:
        if s.label not in seen:
            seen.add(s.label)
            out.append(LegendEntry(s.label, series_style(theme, s), "line"))
    return out


def mark_style(theme: Theme) -> Style:
    """The dot :func:`plot_block` puts at a marked point: the foreground colour, which no series
    uses, ringed with the background."""
    return Style(fill=theme.foreground, stroke=theme.background, stroke_width=theme.thin_mm)


def with_unit(label: str, unit: str | None) -> str:
    """An axis title with its unit: ``misses (tile loads)``."""
    return f"{label} ({unit})" if unit else label


def plot_block(series: Sequence[Series], theme: Theme, width: float, height: float, *,
               x_label: str, y_label: str, x_unit: str | None = None,
               y_unit: str | None = None, percent: bool = False,
               x_range: tuple[float, float] | None = None,
               y_range: tuple[float, float] | None = None, marks: Sequence[Mark] = (),
               key: str | None = None, title: str | None = None,
               target: Target = NATURAL, name: str = "plot", x_log: bool = False,
               x_ticks: Sequence[float] | None = None,
               y_ticks: Sequence[float] | None = None,
               draw: Callable[[Canvas, PlotFrame], None] | None = None,
               leaders: bool = False,
               under: Callable[[Canvas, PlotFrame], None] | None = None) -> Block:
    """A line plot as a layout block of ``width`` × ``height`` mm (plus its title).

    Both axes carry their unit (``x_unit``, ``y_unit``; with ``percent`` the y axis is a share in
    percent, fixed to 0–100 % and values are clamped into it). Ticks use the figures' one number
    format. ``x_log`` spaces the x axis by decades (x values must be positive; ticks at the
    values given, else at the data's own where they double, else at 1, 10, 100 … and, over
    fewer than three decades, at 2 and 5 of each). No legend is drawn on the
    data: put :func:`series_legend` in the figure's legend. ``x_ticks``/``y_ticks`` place the
    ticks (else round values), ``draw(c, frame)`` adds to the data area (:class:`PlotFrame`;
    ``under`` beneath the series),
    and ``leaders`` places each mark's label where no curve crosses it, with a leader line
    where it sits apart from its dot."""
    c = BlockCanvas()
    tick_x: Callable[[float], str] = format_tick_number
    if x_log:
        series, marks, x_range, x_ticks = _log_x(series, marks, x_range, x_ticks)
        tick_x = _log_tick
        # fewer ticks where the labels would crowd the axis: a tick's neighbours are at least
        # the widest label (and a gap) away, in a data area of about 3/4 of the block's width
        size0 = max(theme.small_pt, target.min_pt)
        span = max(x_range[1] - x_range[0], 1e-12)
        widest = max((text_width(tick_x(v), size0) for v in x_ticks), default=0.0) + 1.5
        while len(x_ticks) > 2 and min(b - a for a, b in itertools.pairwise(x_ticks)) \
                / span * width * 0.75 < widest:
            x_ticks = x_ticks[::2] if len(x_ticks) > 3 else [x_ticks[0], x_ticks[-1]]
    size = max(theme.small_pt, target.min_pt)
    top = 0.0
    if title:
        tsize = max(theme.text_pt, target.min_pt)
        lines = wrap(title, tsize, width, bold=True)
        for i, line in enumerate(lines):
            c.text(0.0, cap_height(tsize) + i * line_step(tsize), line, tsize, theme.foreground,
                   bold=True)
        top = line_step(tsize, 1.35) + (len(lines) - 1) * line_step(tsize)
    if y_range is not None and y_ticks is None:  # the top on a round tick, so the highest
        # point has a grid line
        ticks = nice_ticks(*y_range)
        if len(ticks) > 1 and ticks[-1] < y_range[1] - 1e-9:
            y_range = (y_range[0], ticks[-1] + (ticks[1] - ticks[0]))
    if percent:
        y_range = (0.0, 100.0)
        series = [replace(s, y=[None if v is None else max(0.0, min(100.0, float(v)))
                                for v in s.y]) for s in series]
        marks = [replace(m, y=max(0.0, min(100.0, m.y))) for m in marks]
    # Room on the right for half of the last x tick's label (it is centred on its tick).
    xs = [float(v) for s in series for v in s.x]
    xlo, xhi = x_range or ((min(xs), max(xs)) if xs else (0.0, 1.0))
    if xhi <= xlo:  # one x value (a single step): the axis line_plot draws, one unit long
        xhi = xlo + 1.0
    xt = x_ticks if x_ticks is not None else nice_ticks(xlo, xhi, target=6)
    # a label centred on a tick near the right end reaches past it by half its width (with
    # room for a wider fallback face where the layout leaves it), less what lies between its
    # tick and the end (about, in a plot nearly as wide as the block)
    span = xhi - xlo
    spill = max(0.0, max((room_width(tick_x(v), size) / 2 - (xhi - v) / span * width * 0.8
                          for v in xt if xlo <= v <= xhi + 1e-9), default=0.0))
    # without chrome the legend is not drawn: two or more series are named at their lines'
    # ends, in a column right of the data (labels wrapped to a third of the block)
    names = list(dict.fromkeys(s.label for s in series))
    ends = [(name, wrap(name, size, width / 3)) for name in names] \
        if target.chrome == "none" and len(names) > 1 else []
    room = max((room_width(ln, size) for _, lines in ends for ln in lines), default=-1.0) + 1.0
    spill = max(spill, room) if ends else spill
    area = line_plot(c, 0.0, top, width - spill, height, series, theme,
              x_label=with_unit(x_label, x_unit),
              y_label=with_unit(y_label, "%" if percent else y_unit),
              x_range=x_range, y_range=y_range, marks=marks, key=key, legend=False,
              tick_format=format_tick_percent if percent else format_tick_number,
              style_of=lambda _i, s: series_style(theme, s), size=size,
              mark_style=mark_style(theme), x_ticks=x_ticks,
              x_tick_format=tick_x, y_ticks=y_ticks, draw=draw,
              leaders=leaders, under=under)
    if ends:
        _end_labels(c, ends, size, theme, area[1], area[1] + area[3])
    return c.block(width, top + height, name)


def _end_labels(c: BlockCanvas, ends: list[tuple[str, list[str]]], size: float,
                theme: Theme, top_y: float, bottom_y: float) -> None:
    """Each series named at its line's end (the rightmost point of its drawn lines, a line
    that ``draw`` added under a series key too), just right of it on a knockout; a label that
    would overlap one placed before it is nudged down, and one moved off its end is tied to
    it by a leader."""
    last: dict[str, tuple[float, float]] = {}
    for item in walk(c.drawn()):
        if isinstance(item, Polyline) and item.key and item.points \
                and item.key.startswith(keys.prefix("series")):
            end = max(item.points, key=lambda p: p[0])
            if item.key not in last or end[0] > last[item.key][0]:
                last[item.key] = end
    wrapped = {keys.key("series", label): lines for label, lines in ends}
    step, ch = line_step(size), cap_height(size)
    # the plot's own texts (ticks, marks' labels) are kept clear of, as the labels placed
    placed: list[tuple[float, float, float, float]] = [
        text_box(t, 0.3) for t in walk(c.drawn()) if isinstance(t, Text)]
    for k, (ex, ey) in sorted(last.items(), key=lambda kv: kv[1][1]):
        lines = wrapped.get(k) or [unquote(k[len(keys.prefix("series")):])]
        w = max(room_width(ln, size) for ln in lines)
        x, h = ex + 1.2, len(lines) * step
        at = ey - ch / 2 - 0.3

        def clear(y: float, x: float = x, w: float = w, h: float = h) -> bool:
            return top_y - 0.5 <= y and y + h <= bottom_y + 0.5 and not any(
                x < bx1 and x + w > bx0 and y < by1 and y + h > by0
                for bx0, by0, bx1, by1 in placed)

        # nearest its end first, down then up, half a line at a time
        tries = [at + d * step / 2 for n in range(40) for d in ((n // 2 + 1) * (-1) ** n,)]
        top = next((y for y in [at, *tries] if clear(y)), at)
        placed.append((x, top, x + w, top + h))
        mid = top + 0.3 + ch / 2
        if abs(mid - ey) > 0.8:  # moved off its end: a leader to it
            c.line(ex + 0.3, ey, x - 0.4, mid, theme.stroke("muted", theme.thin_mm))
        for n, line in enumerate(lines):
            c.label(x, top + 0.3 + ch + n * step, line, size, theme.foreground,
                    knockout=theme.background, key=k)


TICK_GAP = 1.0  # mm between two x tick labels


def _spaced(ticks: list[float], px: Callable[[float], float],
            label_w: Callable[[float], float]) -> list[float]:
    """``ticks`` (uneven: 32, 64, 128, 255) less those whose label would come within
    :data:`TICK_GAP` of the one before, the first and the last always kept (the last in place
    of a neighbour it would touch): the values stay where they are, not every other one."""
    def apart(a: float, b: float) -> bool:
        return px(b) - px(a) >= (label_w(a) + label_w(b)) / 2 + TICK_GAP

    kept = [ticks[0]]
    for v in ticks[1:]:
        if apart(kept[-1], v):
            kept.append(v)
        elif v == ticks[-1] and len(kept) > 1 and apart(kept[-2], v):
            kept[-1] = v
    return kept


def _log_x(series: Sequence[Series], marks: Sequence[Mark],
           x_range: tuple[float, float] | None, given: Sequence[float] | None = None):
    """Series, marks and range with x as log10(x), and the ticks inside the range: those
    ``given``, else the data's own values where they double (tile sizes 16, 32, 64 …, read at
    the values a kernel uses, not at 10, 20, 50), else the decades (1, 2, 5 where they span
    under three)."""
    def lg(v: float) -> float:
        return math.log10(max(float(v), 1e-300))

    xs0 = sorted({float(v) for s in series for v in s.x if v > 0})
    series = [replace(s, x=[lg(v) for v in s.x]) for s in series]
    marks = [replace(m, x=lg(m.x)) for m in marks]
    xs = [v for s in series for v in s.x]
    lo, hi = (lg(x_range[0]), lg(x_range[1])) if x_range else (
        (min(xs), max(xs)) if xs else (0.0, 1.0))
    if given is not None:
        return series, marks, (lo, hi), [lg(v) for v in given if v > 0]
    if doubling(xs0):
        return series, marks, (lo, hi), [lg(v) for v in xs0
                                         if lo - 1e-9 <= lg(v) <= hi + 1e-9]
    decades = range(math.floor(lo + 1e-9), math.ceil(hi - 1e-9) + 1)
    steps = (1, 2, 5) if hi - lo < 3 else (1,)
    ticks = [d + math.log10(m) for d in decades for m in steps
             if lo - 1e-9 <= d + math.log10(m) <= hi + 1e-9]
    return series, marks, (lo, hi), ticks


def doubling(values: Sequence[float]) -> bool:
    """Whether sorted distinct ``values`` (three or more) each double the one before."""
    return len(values) >= 3 and all(abs(b - 2 * a) < 1e-9 * b
                                    for a, b in itertools.pairwise(values))


def _log_tick(v: float) -> str:
    return format_number(round(10.0 ** v))


def _box_edges(box: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """The four edges of an (x0, y0, x1, y1) box, as segments: something a label keeps off."""
    x0, y0, x1, y1 = box
    return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]


def _mark_label(c: Canvas, cx: float, cy: float, rad: float, label: str, pt: float,
                theme: Theme, segs: np.ndarray, area: tuple[float, float, float, float]
                ) -> tuple[float, float, float, float]:
    """A mark's label beside its dot, at the first place inside the data area where no curve,
    marker or other label crosses it; where none is clear near the dot, the clear place in
    the data area nearest it (an empty corner under saturated curves); a knockout where there
    is none at all. A leader ties it to its dot where it sits apart. Returns its box."""
    w = room_width(label, pt, bold=True)  # with room for a wider face where the layout leaves it
    ch, de = cap_height(pt), descent(pt)
    left, top, right, bottom = area
    d = rad + 0.8
    candidates = [(cx + d, cy - d, "start"), (cx - d, cy - d, "end"),
                  (cx + d, cy + d + ch, "start"), (cx - d, cy + d + ch, "end"),
                  (cx - w / 2, cy - d - 1.0, "start"), (cx - w / 2, cy + d + ch + 1.0, "start")]
    for k in (2.5, 4.0, 6.0):  # further out, where the curves are busy near the mark
        candidates += [(cx + d, cy + k * d + ch, "start"), (cx - d, cy + k * d + ch, "end"),
                       (cx + d, cy - k * d, "start"), (cx - d, cy - k * d, "end")]

    def box_of(x: float, y: float, anchor: str) -> tuple[float, float, float, float]:
        x0 = x - w if anchor == "end" else x
        return x0 - 0.3, y - ch - 0.3, x0 + w + 0.3, y + de + 0.3

    def within(v: tuple[float, float, str]) -> bool:
        b = box_of(*v)
        return b[0] >= left + 0.3 and b[2] <= right and b[1] >= top - 0.5 and b[3] <= bottom - 0.3

    def free(v: tuple[float, float, str]) -> bool:
        return not len(segs) or not segment_hits_box(segs, box_of(*v)).any()

    inside = [v for v in candidates if within(v)]
    clear = next((v for v in inside if free(v)), None)
    if clear is None:  # nothing clear beside the dot: the clear place nearest it, if any
        step_y = (ch + de) * 0.5
        rows = np.arange(top + ch + 0.8, bottom - de - 0.6, step_y)
        cols = np.arange(left + 0.6, right - w - 0.3, max(1.0, w / 8))
        far = [(float(x), float(y), "start") for y in rows for x in cols]
        far.sort(key=lambda v: math.hypot(v[0] + w / 2 - cx, v[1] - ch / 2 - cy))
        clear = next((v for v in far if within(v) and free(v)), None)
    if clear is not None or inside:
        x, y, anchor = clear or inside[0]
    else:  # no place inside the data area: the one that leaves it least, moved into it
        def overflow(v: tuple[float, float, str]) -> float:
            b = box_of(*v)
            return (max(0.0, left + 0.3 - b[0]) + max(0.0, b[2] - right)
                    + max(0.0, top - 0.5 - b[1]) + max(0.0, b[3] - bottom + 0.3))

        x, y, anchor = min(candidates, key=overflow)
        b = box_of(x, y, anchor)
        x += max(0.0, left + 0.3 - b[0]) - max(0.0, b[2] - right)
    box = box_of(x, y, anchor)
    lx, ly = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    dist = math.hypot(lx - cx, ly - cy)
    if dist - rad > 1.0:  # apart from its dot: a leader, so the label never floats
        ux, uy = (lx - cx) / dist, (ly - cy) / dist
        c.line(cx + ux * rad, cy + uy * rad, lx - ux * 0.2, ly - uy * 0.2,
               theme.stroke("foreground", theme.thin_mm))
    if clear is None and isinstance(c, BlockCanvas):
        c.label(x, y, label, pt, theme.foreground, knockout=theme.background,
                anchor=anchor, bold=True)
    else:
        c.text(x, y, label, pt, theme.foreground, anchor=anchor, bold=True,  # type: ignore[arg-type]
               knockout=None if clear is not None else theme.background)
    return box


def plot_legend_block(entries: Sequence[LegendEntry], theme: Theme, width: float, *,
                      line_len: float = 7.0, notes: Sequence[Note] = (),
                      target: Target = NATURAL) -> Block:
    """Like :func:`gpuviz.figures.layout.legend_block`, but a line entry's swatch is a stretch
    of ``line_len`` mm, long enough to show its dash pattern (a series' mark, as drawn). A
    label wider than the block wraps, and its entry has a row to itself."""
    entries, notes = legend_for(entries, notes, target)
    c = BlockCanvas()
    size = max(theme.small_pt, target.min_pt)
    sw = max(2.6, cap_height(size) * 1.25)
    row = max(sw, ink_height(size)) + 1.4
    x = y = used = 0.0
    seen: set[str] = set()
    for entry in entries:
        if entry.label in seen:
            continue
        seen.add(entry.label)
        mark_w = line_len if entry.kind == "line" else sw
        lines = wrap(entry.label, size, max(width - mark_w - 1.0, 1.0))
        need = mark_w + 1.0 + max(room_width(line, size) for line in lines) + 3.0
        if x > 0 and (x + need - 3.0 > width or len(lines) > 1):
            x, y = 0.0, y + row
        draw_entry(c, entry, lines, x, y + (row - 1.4 - sw) / 2, sw, mark_w, size, theme)
        used = max(used, x + need - 3.0)
        x += need
        if len(lines) > 1:  # a wrapped entry has its rows to itself: the next starts anew
            y += (len(lines) - 1) * line_step(size)
            x = width + 1.0
    height = y + row - 1.4 if entries else 0.0
    for note in notes:
        if not note:
            continue
        block = text_block(note, theme, width, color=theme.muted)
        place(c, block, 0.0, height + (1.2 if height else 0.0))
        height += block.height + (1.2 if height else 0.0)
        used = max(used, block.width)
    return c.block(min(width, max(used, 1.0)), height, "legend", role="legend")


def with_selection(block: Block, selection: frozenset[str], theme: Theme,
                   plot_key: str | None = None) -> Block:
    """A plot ``block`` marked for ``selection``: a selected series' line (key
    ``keys.key("series", label)``) drawn over a halo of the selection's ink, and the selection's double
    outline around the whole plot where ``plot_key`` is selected. ``block`` itself when neither
    is."""
    chosen = [i for i in walk(block.items) if isinstance(i, Polyline) and i.key in selection]
    if not chosen and (plot_key is None or plot_key not in selection):
        return block
    c = BlockCanvas()
    halo = theme.highlight()
    for line in chosen:
        width = (line.style.stroke_width or theme.line_mm) + halo.stroke_width
        c.polyline(list(line.points), Style(stroke=halo.stroke, stroke_width=width),
                   key=line.key)
    place(c, block, 0.0, 0.0)
    if plot_key is not None and plot_key in selection:
        theme.select(c, -0.8, -0.8, block.width + 1.6, block.height + 1.6)
    return replace(c.block(block.width, block.height, block.name), parts=block.parts,
                   role=block.role)
