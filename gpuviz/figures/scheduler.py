"""The scheduler figure: the issue timeline of one warp scheduler, warp states, and issue-slot
utilisation over time beside Little's law's prediction.

Top to bottom: the issue-slot strip (one cell per cycle: a load, a math instruction, or an empty
slot) and one row per resident warp with its state in every cycle (issued, ready but not chosen,
waiting on memory, waiting on math), drawn as images, one pixel per cycle and warp; then the
utilisation of the whole run, averaged over windows of whole loop periods, with the cycles the
timeline shows marked on it; issue-slot use against resident warps; a receipt of the numbers.

The timeline shows a window of cycles at a readable width per cycle (at least
:data:`MIN_CYCLE_MM`): the selection's ``cycles:<a>-<b>`` (a … b inclusive) where it carries
one, else the first cycles that fit the width. The plots cover every simulated cycle.

Keys: ``warp:<w>`` (a warp's row), ``slots`` (the issue-slot strip), ``warps`` (the state image),
``plot:utilization``, ``plot:sweep``.
"""

from __future__ import annotations

import itertools

import numpy as np

from gpuviz import keys
from gpuviz.figures.display import Figure, Style
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    format_number,
    format_percent,
    legend_block,
    line_step,
    receipt_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.occupancy import PlotFrame, plot_block
from gpuviz.figures.plot import DASHES, nice_ticks
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

WINDOW_LOOPS = 3
MAX_WINDOW = 1500
MIN_CYCLE_MM = 0.35  # the narrowest a cycle is drawn: single issues stay visible
ROW_H = 2.2
POLICY_NAMES = {"gto": "greedy-then-oldest", "lrr": "loose round-robin"}
STATE_LABELS = (("load", "issued: load"), ("math", "issued: math"),
                ("ready", "ready, not chosen"), ("memory", "waiting on memory"),
                ("wait_math", "waiting on math"), ("empty", "empty issue slot"))


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


#: Gray levels (0 black – 1 paper) of the timeline's states and of the plot's window band in a
#: theme that must survive a grayscale print: 0.12 apart, so no two meanings meet in gray. The
#: timeline is a pixel image, which cannot be hatched: gray steps alone tell its states apart.
#: Issued instructions are the darkest, waiting on memory the paper.
PRINT_GRAY = {"memory": 1.0, "band": 0.88, "wait_math": 0.76, "ready": 0.64, "empty": 0.52,
              "math": 0.40, "load": 0.28}


def _grayscale_safe(theme: Theme) -> bool:
    """Whether ``theme`` must keep its meanings apart in a grayscale print (it hatches categories)."""
    return theme.category_hatch(0) is not None


def state_colors(theme: Theme) -> dict[str, str]:
    """Colours of the timeline's states, from theme roles; in a print theme each moved to its own
    gray step (:data:`PRINT_GRAY`), keeping its hue."""
    colors = {
        "load": theme.color("load"),
        "math": theme.color("compute"),
        "ready": theme.color("ok"),
        "memory": theme.background,
        "wait_math": theme.color("faded"),
        "empty": theme.color("warn"),
    }
    if _grayscale_safe(theme):
        colors = {name: theme.at_gray(c, PRINT_GRAY[name]) for name, c in colors.items()}
    return colors


def window_cycles(r: SchedulerResult) -> int:
    """The default window's length at most: a few loop periods, capped."""
    return int(min(r.cycles, MAX_WINDOW, max(WINDOW_LOOPS * r.P, 200)))


def visible_cycles(r: SchedulerResult, selection: frozenset[str],
                   fit: int | None = None) -> tuple[int, int]:
    """The timeline's cycles [start, end): the selection's ``cycles:<a>-<b>`` (a … b inclusive,
    clamped to the run), else the first window, no longer than ``fit`` cycles (what the width
    holds at a readable width per cycle), in round numbers."""
    window = keys.cycle_window(selection)
    if window is not None:
        start = min(window[0], r.cycles - 1)
        return start, max(start + 1, min(window[1] + 1, r.cycles))
    n = window_cycles(r)
    if fit is not None and fit < n:
        step = 100 if fit >= 200 else (50 if fit >= 50 else 10)
        n = max(10, fit // step * step)
    return 0, min(n, r.cycles)


def build(result: SchedulerResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    div = ", divergent" if r.divergence else ""
    title = (f"One warp scheduler, {POLICY_NAMES[r.policy]}: {r.resident_warps} warps, "
             f"{format_percent(r.issue_utilization)} of issue slots used{div}")
    cap = (f"; registers cap residency at {r.register_cap}" if r.register_cap < 16 else "")
    subtitle = (f"Each loop: P = {format_number(r.P)} cycles, I = {r.I} instructions → "
                f"⌈P/I⌉ = {r.warps_needed} warps needed{cap}. Little's law predicts "
                f"U = min(1, N·I/P) = {format_percent(r.predicted_utilization)}."
                + (" Divergent: the math block runs twice at 16 lanes." if r.divergence else ""))
    shown: list[tuple[int, int]] = []

    def body(width: float) -> list[Block]:
        timeline = _timeline(r, selection, theme, width)
        shown[:] = [timeline[1]]
        # The two plots side by side where each still gets a readable width.
        pw = (width - 3.5) / 2 if (width - 3.5) / 2 >= 70.0 * theme.text_pt / 8.0 else width
        return [as_part("timeline", timeline[0]),
                as_part("utilisation", _utilisation(r, selection, theme, target, pw,
                                                    timeline[1])),
                as_part("warps", _sweep(r, selection, theme, target, pw))]

    def side(width: float) -> list[Block]:
        colors = state_colors(theme)
        plots, warps = ("utilisation", "warps"), ("warps",)
        entries = [LegendEntry(label, Style(fill=colors[name], stroke=theme.outline,
                                            stroke_width=theme.thin_mm), parts=("timeline",))
                   for name, label in STATE_LABELS]
        entries += [LegendEntry("issue slots used (simulated)", _series_style(theme, 0), "line",
                                parts=plots),
                    LegendEntry("useful lane work", _series_style(theme, 1), "line",
                                parts=plots),
                    LegendEntry("Little's law U = min(1, N·I/P)", _series_style(theme, 2),
                                "line", parts=plots),
                    LegendEntry("cycles the timeline shows", _band_style(theme),
                                parts=("utilisation",)),
                    LegendEntry("this kernel's N", _dot_style(theme), "dot", parts=warps)]
        if r.sweep_warps and r.register_cap < max(r.sweep_warps):
            entries.append(LegendEntry("register cap on N", _cap_style(theme), "line",
                                       parts=warps))
        if any(k == "slots" or k.startswith(("warp:", "plot:")) for k in selection):
            entries.append(LegendEntry("selected", theme.highlight()))
        rows: list[str | tuple[str, str]] = [
            ("resident warps N", f"{r.resident_warps} (register cap {r.register_cap})"),
            ("run", f"{format_number(r.loops_completed)} loops, "
                    f"{format_number(r.issued_instructions)} instructions in "
                    f"{format_number(r.cycles)} cycles"),
            ("issue slots used", format_percent(r.issue_utilization)),
            ("Little's law", format_percent(r.predicted_utilization)),
            ("useful lane work", format_percent(r.lane_utilization))]
        return [legend_block(entries, theme, width, target=target),
                receipt_block(rows, theme, width)]

    return compose(target, theme, title=title, subtitle=subtitle, body=body, side=side,
                   natural_width=172.0, figure_title="gpuviz scheduler",
                   description=f"{r.policy}, {r.resident_warps} warps, issue utilisation "
                               f"{r.issue_utilization:.4f}, lane utilisation "
                               f"{r.lane_utilization:.4f}, predicted "
                               f"{r.predicted_utilization:.4f}")


def _series_style(theme: Theme, i: int) -> Style:
    colour = theme.category((0, 2, 5)[i])
    return Style(stroke=colour, stroke_width=theme.line_mm * 1.3, dash=DASHES[i])


def _band_style(theme: Theme) -> Style:
    if _grayscale_safe(theme):
        return Style(fill=theme.at_gray(theme.accent, PRINT_GRAY["band"]), stroke=None)
    return Style(fill=theme.mix(theme.accent, 0.18), stroke=None)


def _dot_style(theme: Theme) -> Style:
    return Style(fill=theme.accent, stroke=theme.background, stroke_width=theme.thin_mm)


def _cap_style(theme: Theme) -> Style:
    return theme.stroke("warn", theme.line_mm, dash=(1.0, 0.7))


def _heading(c: BlockCanvas, text: str, theme: Theme, width: float, y: float = 0.0) -> float:
    """A bold section heading wrapped to ``width`` from ``y``; returns the y below it."""
    lines = wrap(text, theme.text_pt, width, bold=True)
    base = y + cap_height(theme.text_pt)
    for i, line in enumerate(lines):
        c.text(0.0, base + i * line_step(theme.text_pt), line, theme.text_pt, theme.foreground,
               bold=True)
    return base + (len(lines) - 1) * line_step(theme.text_pt) + descent(theme.text_pt) + 1.5


def _timeline(r: SchedulerResult, selection: frozenset[str], theme: Theme,
              width: float) -> tuple[Block, tuple[int, int]]:
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    label_w = max(text_width("issue slot", pt), text_width(f"warp {r.resident_warps - 1}", pt)) \
        + 1.5
    x0 = label_w
    # Room on the right for half of the last cycle number under the axis.
    avail = width - x0 - text_width(format_number(r.cycles), pt) / 2
    start, end = visible_cycles(r, selection, int(avail / MIN_CYCLE_MM))
    win = end - start
    w = avail
    head = (f"Issue timeline, cycles {start:,}–{end - 1:,}"
            + (f" of {r.cycles:,}" if win < r.cycles else ""))
    y = _heading(c, head, theme, width)
    colors = state_colors(theme)

    # issue-slot strip
    kind = r._issued_kind[start:end]
    strip = np.empty((1, win, 3), dtype=np.uint8)
    strip[0, kind == LOAD] = _rgb(colors["load"])
    strip[0, kind == MATH] = _rgb(colors["math"])
    strip[0, kind == 0] = _rgb(colors["empty"])
    slot_h = max(3.0, ink_height(pt) + 0.8)
    c.text(0.0, y + slot_h / 2, "issue slot", pt, fg, baseline="middle")
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
    need = ink_height(pt) + 0.5
    label_every = 1
    while label_every * row_h < need:
        label_every *= 2
    c.image(x0, y, w, h, img, key="warps")
    c.rect(x0, y, w, h, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
    for i in range(n):
        key = f"warp:{i}"
        ry = y + i * row_h
        with c.group(key):
            c.rect(x0, ry, w, row_h, Style(fill=None, stroke=None))
            if i % label_every == 0:
                c.text(0.0, ry + row_h / 2, f"warp {i}", pt, fg, baseline="middle")
        if key in selection:
            c.rect(x0 - 0.3, ry - 0.1, w + 0.6, row_h + 0.2, theme.highlight())
    grid = Style(stroke=theme.grid, stroke_width=theme.thin_mm)
    if row_h >= 1.5:
        c.segments([(x0, y + i * row_h, x0 + w, y + i * row_h) for i in range(1, n)], grid)
    y += h
    # cycle axis
    axis = theme.stroke("foreground", theme.thin_mm * 1.5)
    c.line(x0, y, x0 + w, y, axis)
    ticks = [t for t in nice_ticks(start, end, target=8) if start <= t <= end]
    while len(ticks) > 2 and min(b - a for a, b in itertools.pairwise(ticks)) * w \
            / win < max(text_width(format_number(t), pt) for t in ticks) + 2.0:
        ticks = ticks[::2]
    for t in ticks:
        tx = x0 + w * (t - start) / win
        c.line(tx, y, tx, y + 0.8, axis)
        c.text(tx, y + 1.2 + cap_height(pt), format_number(t), pt, fg, anchor="middle")
    y += 1.2 + cap_height(pt) + line_step(pt)
    c.text(x0 + w / 2, y, f"cycle ({w / win:.2f} mm per cycle)", pt, fg, anchor="middle")
    return c.block(width, y + descent(pt), "timeline"), (start, end)


def _bin(r: SchedulerResult) -> int:
    """Whole loop periods per window, so the loop's own rhythm does not alias into the curve."""
    return min(r.cycles, r.P * max(1, round(r.cycles / (r.P * 60))))


def _utilisation(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
                 width: float, shown: tuple[int, int]) -> Block:
    c = BlockCanvas()
    b = _bin(r)
    y = _heading(c, f"Utilisation over the whole run of {r.cycles:,} cycles, averaged over "
                    f"windows of {b:,} cycles ({b // r.P} loop period{'s' if b // r.P != 1 else ''})",
                 theme, width)
    bins = r.cycles // b
    busy = (r._issued_kind[: bins * b] > 0).reshape(bins, b).mean(axis=1)
    lanes = r._issued_lanes[: bins * b].reshape(bins, b).sum(axis=1, dtype=np.int64) / (32 * b)
    centres = [float(v) for v in (np.arange(bins) + 0.5) * b]
    series = [(centres, [float(v) * 100 for v in busy], _series_style(theme, 0), False),
              (centres, [float(v) * 100 for v in lanes], _series_style(theme, 1), False),
              ([0.0, float(r.cycles)], [r.predicted_utilization * 100] * 2,
               _series_style(theme, 2), False)]

    def band(cv: BlockCanvas, f: PlotFrame) -> None:
        x_a, x_b = f.px(float(shown[0])), f.px(float(shown[1]))
        cv.rect(x_a, f.top, max(x_b - x_a, 0.4), f.bottom - f.top, _band_style(theme))

    key = "plot:utilization"
    ph = 36.0
    plot = plot_block(theme, target, width, ph, series, x_label="cycle",
                      y_label="% of cycles", x_range=(0.0, float(r.cycles)),
                      y_range=(0.0, 100.0), y_ticks=(0, 25, 50, 75, 100),
                      y_fmt=lambda v: f"{v:.0f} %", key=key, draw=band, name="utilisation")
    _place_under(c, plot, y)
    if key in selection:
        c.rect(-0.3, y - 0.3, width + 0.6, ph + 0.6, theme.highlight())
    return c.block(width, y + ph + 0.3, "utilisation")


def _place_under(c: BlockCanvas, block: Block, y: float) -> None:
    from gpuviz.figures.layout import place

    place(c, block, 0.0, y)


def _sweep(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
           width: float) -> Block:
    c = BlockCanvas()
    start, end = r.sweep_cycles
    if not r.sweep_warps:
        lines = wrap(f"(No warp sweep: a loop of {format_number(r.P)} cycles is too long to "
                     "simulate for every warp count interactively.)", theme.small_pt, width)
        for i, line in enumerate(lines):
            c.text(0.0, cap_height(theme.small_pt) + i * line_step(theme.small_pt), line,
                   theme.small_pt, theme.muted)
        return c.block(width, len(lines) * line_step(theme.small_pt), "sweep")
    y = _heading(c, f"Issue slots used against resident warps N, in steady state (cycles "
                    f"{start:,}–{end - 1:,} of a run per N)", theme, width)
    top = max(r.sweep_warps)
    little_n = list(range(1, top + 1))
    little = [min(1.0, m * r.I / r.P) * 100 for m in little_n]
    sim_x = [float(m) for m in r.sweep_warps]
    sim_y = [u * 100 for u in r.sweep_utilization]
    series = [(sim_x, sim_y, _series_style(theme, 0), False),
              ([float(m) for m in little_n], little, _series_style(theme, 2), False)]
    here = r.sweep_utilization[r.sweep_warps.index(r.resident_warps)]

    def extra(cv: BlockCanvas, f: PlotFrame) -> None:
        dot = Style(fill=theme.category(0))
        rad = theme.line_mm * 1.6
        for xv, yv in zip(sim_x, sim_y, strict=True):
            cv.circle(f.px(xv), f.py(yv), rad, dot)
        if r.register_cap < top:
            x = f.px(float(r.register_cap))
            cv.line(x, f.top, x, f.bottom, _cap_style(theme))
            text = f"register cap {r.register_cap}"
            right = x + 0.8 + text_width(text, theme.small_pt) <= f.right
            # At the top of the plot, or at its foot where the kernel's mark is high.
            ty = (f.bottom - descent(theme.small_pt) - 1.0 if here > 0.5
                  else f.top + cap_height(theme.small_pt) + 0.5)
            cv.label(x + 0.8 if right else x - 0.8, ty,
                     text, theme.small_pt, theme.color("warn"), knockout=theme.background,
                     anchor="start" if right else "end")

    key = "plot:sweep"
    ph = 36.0
    plot = plot_block(theme, target, width, ph, series, x_label="resident warps N",
                      y_label="% of cycles", x_range=(0.0, float(top)),
                      y_range=(0.0, 100.0), y_ticks=(0, 25, 50, 75, 100),
                      y_fmt=lambda v: f"{v:.0f} %",
                      marks=[(float(r.resident_warps), here * 100,
                              f"N = {r.resident_warps}: {format_percent(here)}",
                              _dot_style(theme))],
                      key=key, draw=extra, name="sweep")
    _place_under(c, plot, y)
    if key in selection:
        c.rect(-0.3, y - 0.3, width + 0.6, ph + 0.6, theme.highlight())
    return c.block(width, y + ph + 0.3, "sweep")
