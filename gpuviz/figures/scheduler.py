"""The scheduler figure: the issue timeline of one warp scheduler, warp states, and issue-slot
utilisation over time beside Little's law's prediction.

Top to bottom: the issue-slot strip (one cell per cycle: a load, a math instruction, or an empty
slot); one row per resident warp with its state in every cycle (issued, ready but not chosen,
waiting on memory, waiting on math), drawn as an image, one pixel per cycle and warp, because a
timeline has thousands of cycles; a plot of issue and lane utilisation over the whole run with the
prediction ``U = min(1, N·I/P)``; a receipt of the numbers.

The timeline shows the first :data:`WINDOW_LOOPS` loop periods (at most :data:`MAX_WINDOW`
cycles) so single issues stay visible; the plot covers every simulated cycle.

Keys: ``warp:<w>`` (a warp's row), ``slots`` (the issue-slot strip), ``plot:utilization``. A
``cycles:<a>-<b>`` key in the selection shows cycles a … b in the timeline instead of the first
window (the dock's zoomable timeline exports its visible range this way).
"""

from __future__ import annotations

import math

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, paragraph, text_width
from gpuviz.figures.plot import Mark, Series, format_tick, line_plot, nice_ticks
from gpuviz.figures.theme import Theme
from gpuviz.models.scheduler import (
    ISSUED,
    LOAD,
    MATH,
    READY,
    WAIT_MATH,
    WAIT_MEMORY,
    SchedulerResult,
)

WIDTH = 172.0
MARGIN = 5.0


def _paragraph(c: Canvas, x: float, y: float, text: str, size: float, color: str,
               font: str = "sans", bold: bool = False) -> float:
    return paragraph(c, x, y, text, size, color, WIDTH - 2 * MARGIN, font, bold)
WINDOW_LOOPS = 3
MAX_WINDOW = 1500
ROW_H = 2.2
POLICY_NAMES = {"gto": "greedy-then-oldest", "lrr": "loose round-robin"}


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def state_colors(theme: Theme) -> dict[str, str]:
    """Colours of the timeline's states, from theme roles."""
    return {
        "load": theme.color("load"),
        "math": theme.color("compute"),
        "ready": theme.color("ok"),
        "memory": theme.background,
        "wait_math": theme.color("faded"),
        "empty": theme.color("warn"),
    }


def build(result: SchedulerResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    y = MARGIN + theme.title_pt * PT_TO_MM
    div = ", divergent" if r.divergence else ""
    y = _paragraph(c, MARGIN, y, f"One warp scheduler, {POLICY_NAMES[r.policy]}: "
                   f"{r.resident_warps} warps, {r.issue_utilization:.1%} of issue slots used{div}",
                   theme.title_pt, theme.foreground, bold=True)
    y += em * 0.3
    cap = (f"; registers cap residency at {r.register_cap}" if r.register_cap < 16 else "")
    y = _paragraph(c, MARGIN, y, f"Each loop: P = {r.P:,} cycles, I = {r.I} instructions → "
                   f"⌈P/I⌉ = {r.warps_needed} warps needed{cap}. Little's law predicts "
                   f"U = min(1, N·I/P) = {r.predicted_utilization:.1%}."
                   + (" Divergent: the math block runs twice at 16 lanes." if r.divergence
                      else ""), theme.small_pt, theme.muted)
    y -= em * 0.5
    y = _timeline(c, r, selection, theme, y)
    y = _legend(c, theme, y)
    y = _utilisation(c, r, selection, theme, y)
    y = _sweep(c, r, selection, theme, y)
    y = _receipt(c, r, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz scheduler",
                    description=f"{r.policy}, {r.resident_warps} warps, issue utilisation "
                                f"{r.issue_utilization:.4f}, lane utilisation "
                                f"{r.lane_utilization:.4f}, predicted "
                                f"{r.predicted_utilization:.4f}")


def window_cycles(r: SchedulerResult) -> int:
    return int(min(r.cycles, MAX_WINDOW, max(WINDOW_LOOPS * r.P, 200)))


def visible_cycles(r: SchedulerResult, selection: frozenset[str]) -> tuple[int, int]:
    """The timeline's cycles [start, end): the selection's ``cycles:<a>-<b>`` (a … b inclusive,
    clamped to the run), else the first window."""
    window = keys.cycle_window(selection)
    if window is None:
        return 0, window_cycles(r)
    start = min(window[0], r.cycles - 1)
    return start, max(start + 1, min(window[1] + 1, r.cycles))


def _timeline(c: Canvas, r: SchedulerResult, selection: frozenset[str], theme: Theme,
              y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    start, end = visible_cycles(r, selection)
    win = end - start
    y += em * 1.6
    c.text(MARGIN, y, f"Issue timeline, cycles {start:,}–{end - 1:,}" +
           (f" of {r.cycles:,}" if win < r.cycles else ""), theme.text_pt, theme.foreground,
           bold=True)
    y += em * 0.8
    x0 = MARGIN + _label_width(theme)
    w = WIDTH - MARGIN - x0
    colors = state_colors(theme)

    # issue-slot strip
    kind = r._issued_kind[start:end]
    strip = np.empty((1, win, 3), dtype=np.uint8)
    strip[0, kind == LOAD] = _rgb(colors["load"])
    strip[0, kind == MATH] = _rgb(colors["math"])
    strip[0, kind == 0] = _rgb(colors["empty"])
    slot_h = 3.0
    c.text(MARGIN, y + slot_h * 0.5, "issue slot", theme.small_pt, theme.foreground,
           baseline="middle")
    c.image(x0, y, w, slot_h, strip, key="slots")
    c.rect(x0, y, w, slot_h, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
    if "slots" in selection:
        c.rect(x0 - 0.3, y - 0.3, w + 0.6, slot_h + 0.6, theme.highlight())
    y += slot_h + 1.5

    # warp rows
    n = r.resident_warps
    states = r._states[:, start:end]
    issued_kind = np.broadcast_to(kind, states.shape)
    img = np.empty((n, win, 3), dtype=np.uint8)
    img[states == READY] = _rgb(colors["ready"])
    img[states == WAIT_MEMORY] = _rgb(colors["memory"])
    img[states == WAIT_MATH] = _rgb(colors["wait_math"])
    img[(states == ISSUED) & (issued_kind == LOAD)] = _rgb(colors["load"])
    img[(states == ISSUED) & (issued_kind == MATH)] = _rgb(colors["math"])
    row_h = ROW_H if n <= 16 else max(0.6, ROW_H * 16 / n)
    h = row_h * n
    label_size = theme.small_pt * 0.9
    label_every = max(1, math.ceil(label_size * PT_TO_MM * 1.05 / row_h))
    if label_every > 1:
        label_every = next(k for k in (2, 4, 8, 16, 32, 64) if k >= label_every)
    c.image(x0, y, w, h, np.repeat(img, 1, axis=0), key="warps")
    c.rect(x0, y, w, h, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
    for i in range(n):
        key = f"warp:{i}"
        ry = y + i * row_h
        with c.group(key):
            c.rect(x0, ry, w, row_h, Style(fill=None, stroke=None))
            if i % label_every == 0:
                c.text(MARGIN, ry + row_h * 0.5, f"warp {i}", label_size,
                       theme.foreground, baseline="middle")
        if key in selection:
            c.rect(x0 - 0.3, ry - 0.1, w + 0.6, row_h + 0.2, theme.highlight())
    grid = Style(stroke=theme.grid, stroke_width=theme.thin_mm)
    if row_h >= 1.5:
        c.segments([(x0, y + i * row_h, x0 + w, y + i * row_h) for i in range(1, n)], grid)
    y += h
    # cycle axis
    ticks = [t for t in nice_ticks(start, end, target=8) if start <= t <= end]
    axis = theme.stroke("foreground", theme.thin_mm * 1.5)
    c.line(x0, y, x0 + w, y, axis)
    for t in ticks:
        tx = x0 + w * (t - start) / win
        c.line(tx, y, tx, y + em * 0.35, axis)
        c.text(tx, y + em * 1.3, format_tick(t), theme.small_pt, theme.foreground,
               anchor="middle")
    c.text(x0 + w, y + em * 2.5, "cycle", theme.small_pt, theme.muted, anchor="end")
    return y + em * 2.5


def _label_width(theme: Theme) -> float:
    return text_width("issue slot", theme.small_pt) + 1.5


def _legend(c: Canvas, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    colors = state_colors(theme)
    items = (("load", "issued: load"), ("math", "issued: math"),
             ("ready", "ready, not chosen"), ("memory", "waiting on memory"),
             ("wait_math", "waiting on math"), ("empty", "empty issue slot"))
    left = MARGIN + _label_width(theme)
    x = left
    y += em * 0.8
    for name, label in items:
        width = em * 1.5 + text_width(label, theme.small_pt) + em * 0.6
        if x + width > WIDTH - MARGIN and x > left:
            x = left
            y += em * 1.3
        c.rect(x, y - em * 0.75, em * 1.1, em * 0.9,
               Style(fill=colors[name], stroke=theme.outline, stroke_width=theme.thin_mm))
        c.text(x + em * 1.5, y, label, theme.small_pt, theme.foreground)
        x += width
    return y + em * 0.4


def _utilisation(c: Canvas, r: SchedulerResult, selection: frozenset[str], theme: Theme,
                 y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.6
    c.text(MARGIN, y, "Utilisation over the run, in windows of "
           f"{_bin(r):,} cycles", theme.text_pt, theme.foreground, bold=True)
    y += em * 0.4
    b = _bin(r)
    bins = r.cycles // b
    busy = (r._issued_kind[: bins * b] > 0).reshape(bins, b).mean(axis=1)
    lanes = r._issued_lanes[: bins * b].reshape(bins, b).sum(axis=1, dtype=np.int64) / (32 * b)
    centres = (np.arange(bins) + 0.5) * b
    xs = [float(v) for v in centres]
    predicted = [r.predicted_utilization * 100] * 2
    series = [Series(f"issue slots used ({r.issue_utilization:.1%} overall)", xs,
                     [float(v) * 100 for v in busy], 0),
              Series(f"useful lane work ({r.lane_utilization:.1%})", xs,
                     [float(v) * 100 for v in lanes], 2),
              Series(f"Little's law ({r.predicted_utilization:.1%})", [0.0, float(r.cycles)],
                     predicted, 3)]
    key = "plot:utilization"
    ph = 38.0
    line_plot(c, MARGIN, y, WIDTH - 2 * MARGIN, ph, series, theme, x_label="cycle",
              y_label="% of cycles", x_range=(0.0, float(r.cycles)), y_range=(0.0, 135.0),
              key=key)
    if key in selection:
        c.rect(MARGIN, y, WIDTH - 2 * MARGIN, ph, theme.highlight())
    return y + ph


def _sweep(c: Canvas, r: SchedulerResult, selection: frozenset[str], theme: Theme,
           y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.6
    start, end = r.sweep_cycles
    if not r.sweep_warps:
        return _paragraph(c, MARGIN, y, f"(No warp sweep: a loop of {r.P:,} cycles is too long "
                          "to simulate for every warp count interactively.)", theme.small_pt,
                          theme.muted)
    y = _paragraph(c, MARGIN, y, "Issue slots used against resident warps, in steady state",
                   theme.text_pt, theme.foreground, bold=True)
    y -= em * 0.8
    top = max(r.sweep_warps)
    little_n = list(range(1, top + 1))
    little = [min(1.0, m * r.I / r.P) * 100 for m in little_n]
    series = [Series(f"simulated, cycles {start:,}–{end:,} of a run per N",
                     [float(m) for m in r.sweep_warps],
                     [u * 100 for u in r.sweep_utilization], 0, markers=True),
              Series("Little's law min(1, N·I/P)", [float(m) for m in little_n], little, 3)]
    here = r.sweep_utilization[r.sweep_warps.index(r.resident_warps)] * 100
    key = "plot:sweep"
    ph = 38.0
    left, ptop, pw, pph = line_plot(
        c, MARGIN, y, WIDTH - 2 * MARGIN, ph, series, theme, x_label="resident warps N",
        y_label="% of cycles", x_range=(0.0, _room_for_label(r.resident_warps, 0.0, top)),
        y_range=(0.0, 135.0),
        marks=[Mark(float(r.resident_warps), here, f"N = {r.resident_warps}: {here:.0f}%")],
        key=key)
    if r.register_cap < top:
        x = left + pw * r.register_cap / top
        c.line(x, ptop, x, ptop + pph, theme.stroke("warn", theme.line_mm, dash=(1.0, 0.7)))
        c.text(x + 0.8, ptop + em * 1.0, f"register cap {r.register_cap}", theme.small_pt,
               theme.color("warn"))
    if key in selection:
        c.rect(MARGIN, y, WIDTH - 2 * MARGIN, ph, theme.highlight())
    return y + ph


def _room_for_label(current: float, lo: float, hi: float) -> float:
    """The upper end of an x range, widened when the marked point sits so far right that its
    label (drawn to the right of the point) would leave the plot."""
    return float(hi + 0.25 * (hi - lo)) if current > lo + 0.75 * (hi - lo) else float(hi)


def _bin(r: SchedulerResult) -> int:
    """Whole loop periods per window, so the loop's own rhythm does not alias into the curve."""
    return min(r.cycles, r.P * max(1, round(r.cycles / (r.P * 60))))


def _receipt(c: Canvas, r: SchedulerResult, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.6
    lines = (
        f"resident warps N = {r.resident_warps} (register cap {r.register_cap}); "
        f"{r.loops_completed:,} loops, {r.issued_instructions:,} instructions in "
        f"{r.cycles:,} cycles",
        f"issue slots used {r.issue_utilization:.1%} (Little's law "
        f"{r.predicted_utilization:.1%}); useful lane work {r.lane_utilization:.1%}",
    )
    for line in lines:
        y = _paragraph(c, MARGIN, y, line, theme.small_pt, theme.foreground, font="mono")
    return y
