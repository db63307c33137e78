"""Line plots in the display list: axes, nice ticks, several series, a legend and a marked point.

Plots are figures like any other, so they are painted on screen and exported to SVG by the same
code. Series are told apart by colour *and* dash pattern, so a grayscale print keeps them apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gpuviz.figures.display import PT_TO_MM, Canvas, Style, text_width
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


@dataclass(frozen=True)
class Mark:
    """A highlighted point, e.g. the current parameter value on a cliff plot."""

    x: float
    y: float
    label: str


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


def format_tick(v: float) -> str:
    if abs(v - round(v)) < 1e-9:
        return f"{round(v):,}".replace(",", "\u2009")
    return f"{v:.3g}"


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
) -> tuple[float, float, float, float]:
    """Draw a plot whose outer box is (x0, y0, width, height) mm. Returns the data area
    (left, top, width, height) in mm so callers can add annotations."""
    size = theme.small_pt
    em = size * PT_TO_MM
    xs = [float(v) for s in series for v in s.x]
    ys = [float(v) for s in series for v in s.y if v is not None and math.isfinite(v)]
    xlo, xhi = x_range or ((min(xs), max(xs)) if xs else (0.0, 1.0))
    ylo, yhi = y_range or ((min(0.0, min(ys)), max(ys)) if ys else (0.0, 1.0))
    if yhi <= ylo:
        yhi = ylo + 1.0
    if xhi <= xlo:
        xhi = xlo + 1.0
    yt = nice_ticks(ylo, yhi)
    yhi = max(yhi, yt[-1])
    xt = nice_ticks(xlo, xhi, target=6)
    label_w = max(text_width(format_tick(v), size) for v in yt)
    left = x0 + label_w + em * 2.2
    top = y0 + em * 0.8
    bottom = y0 + height - em * 3.2
    right = x0 + width - em * 0.5
    pw, ph = right - left, bottom - top

    def px(v: float) -> float:
        return left + (v - xlo) / (xhi - xlo) * pw

    def py(v: float) -> float:
        return bottom - (v - ylo) / (yhi - ylo) * ph

    with c.group(key, name="plot"):
        grid = Style(stroke=theme.grid, stroke_width=theme.thin_mm)
        c.segments([(left, py(v), right, py(v)) for v in yt if ylo <= v <= yhi], grid)
        axis = theme.stroke("foreground", theme.thin_mm * 1.5)
        c.line(left, bottom, right, bottom, axis)
        c.line(left, top, left, bottom, axis)
        for v in yt:
            if ylo <= v <= yhi:
                c.text(left - em * 0.4, py(v), format_tick(v), size, theme.foreground,
                       anchor="end", baseline="middle")
        for v in xt:
            if xlo - 1e-9 <= v <= xhi + 1e-9:
                c.line(px(v), bottom, px(v), bottom + em * 0.35, axis)
                c.text(px(v), bottom + em * 1.3, format_tick(v), size, theme.foreground,
                       anchor="middle")
        c.text((left + right) / 2, y0 + height - em * 0.2, x_label, size, theme.foreground,
               anchor="middle")
        c.text(x0 + em * 0.9, (top + bottom) / 2, y_label, size, theme.foreground,
               anchor="middle", rotate=-90)
        for i, s in enumerate(series):
            color = theme.category(s.color_index)
            style = Style(stroke=color, stroke_width=theme.line_mm * 1.3,
                          dash=DASHES[i % len(DASHES)])
            pts = []
            prev = None
            for xv, yv in zip(s.x, s.y, strict=True):
                if yv is None or not math.isfinite(float(yv)):
                    continue
                if s.step and prev is not None:
                    pts.append((px(float(xv)), py(prev)))
                pts.append((px(float(xv)), py(float(yv))))
                prev = float(yv)
            if len(pts) >= 2:
                c.polyline(pts, style, key=f"series:{s.label}")
            if s.markers:
                dot = Style(fill=color)
                for xv, yv in zip(s.x, s.y, strict=True):
                    if yv is not None and math.isfinite(float(yv)):
                        c.circle(px(float(xv)), py(float(yv)), theme.line_mm * 1.6, dot)
        for m in marks:
            c.circle(px(m.x), py(m.y), em * 0.45,
                     Style(fill=theme.accent, stroke=theme.background, stroke_width=theme.thin_mm))
            c.text(px(m.x) + em * 0.7, py(m.y) - em * 0.5, m.label, size, theme.foreground,
                   bold=True)
        if legend and len(series) > 1:
            ly = top + em * 0.6
            lx = right - max(text_width(s.label, size) for s in series) - em * 3.2
            for i, s in enumerate(series):
                style = Style(stroke=theme.category(s.color_index),
                              stroke_width=theme.line_mm * 1.3, dash=DASHES[i % len(DASHES)])
                c.line(lx, ly - em * 0.3, lx + em * 2.2, ly - em * 0.3, style)
                c.text(lx + em * 2.6, ly, s.label, size, theme.foreground)
                ly += em * 1.3
    return left, top, pw, ph
