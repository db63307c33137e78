"""The scheduler figure: the issue timeline of one warp scheduler, warp states, and issue-slot
utilisation over time beside Little's law's prediction.

Top to bottom: the issue-slot strip (one cell per cycle: a load, a math instruction, or an empty
slot) and one row per resident warp with its state in every cycle (issued, ready but not chosen,
waiting on memory, waiting on math), drawn as images, one pixel per cycle and warp; then the
utilisation of the whole run, averaged over windows of whole loop periods, with the cycles the
timeline shows marked on it; issue-slot use against resident warps; a receipt of the numbers.

The timeline shows a window of cycles at a readable width per cycle (at least
:data:`MIN_CYCLE_MM`): the selection's ``cycles:<a>-<b>`` (a … b inclusive) where it carries
one, else the first cycles that fit the width, or, where those hold less than a loop period,
the window that begins just before the first math instruction issues (cycles 0–149 of a loop
whose loads take 200 cycles would show nothing but waiting). The utilisation plot shows the
first loop periods in windows of an eighth of a period, so the loop's rhythm of bursts and gaps
shows; the warps plot reaches the warps Little's law needs. Where the model describes an SM
(``warps_per_sm``), the warps plot is against warps per SM and draws the H200's measured curve
for the same loop beside the model's (``gpuviz.measurements.series``), with the difference at
the chosen count labelled; the subtitle says which limit binds there.

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
    counted,
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
from gpuviz.measurements import Measured, series
from gpuviz.models.scheduler import (
    ISSUED,
    LOAD,
    LOOP,
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
                ("loop", "issued: loop instruction"),
                ("ready", "ready, not chosen"), ("memory", "waiting on memory"),
                ("wait_math", "waiting on math"), ("empty", "empty issue slot"))
LIMIT_WORDS = {"latency": "latency limit binds (too few warps)",
               "issue": "issue limit binds (one instruction a cycle)",
               "bandwidth": "bandwidth limit binds (bytes per cycle)"}


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


#: Gray levels (0 black – 1 paper) of the timeline's states in a theme that must survive a
#: grayscale print: 0.105 apart, so no two meanings meet in gray. The timeline is a pixel image,
#: which cannot be hatched: gray steps alone tell its states apart. Issued instructions are the
#: darkest (a load no darker than 0.25, where its hue still shows), waiting on memory the
#: lightest, but not the paper (a white swatch on white paper reads as nothing). The plot's band
#: of the timeline's cycles is hatched in print instead of taking a step of its own.
PRINT_GRAY = {"memory": 0.88, "band": 0.94, "wait_math": 0.775, "ready": 0.67, "empty": 0.565,
              "loop": 0.46, "math": 0.355, "load": 0.25}


def _grayscale_safe(theme: Theme) -> bool:
    """Whether ``theme`` must keep its meanings apart in a grayscale print (it hatches categories)."""
    return theme.category_hatch(0) is not None


def state_colors(theme: Theme) -> dict[str, str]:
    """Colours of the timeline's states, from theme roles; in a print theme each moved to its own
    gray step (:data:`PRINT_GRAY`), keeping its hue."""
    colors = {
        "load": theme.color("load"),
        "math": theme.color("compute"),
        "loop": theme.mix(theme.color("compute"), 0.45),
        "ready": theme.color("ok"),
        "memory": theme.mix(theme.color("load"), 0.3),
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
    step = 100
    if fit is not None and fit < n:
        step = 100 if fit >= 200 else (50 if fit >= 50 else 10)
        n = max(10, fit // step * step)
    start = 0
    if n < r.P:  # too short for a whole loop: begin just before the first math instruction
        first = np.flatnonzero(r._issued_kind == MATH)
        if len(first):
            start = max(0, min(int(first[0]) - n // 8, r.cycles - n)) // 10 * 10
    return start, min(start + n, r.cycles)


def build(result: SchedulerResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    div = ", divergent" if r.divergence else ""
    if r.warps_per_sm is None:
        title = (f"One warp scheduler, {POLICY_NAMES[r.policy]}: {r.resident_warps} warps, "
                 f"{format_percent(r.issue_utilization)} of issue slots used{div}")
    else:
        here = next((m for w, m in measured_curve(r) if w == r.warps_per_sm), None)
        title = (f"An SM's four schedulers, {POLICY_NAMES[r.policy]}: {r.warps_per_sm} warps "
                 f"per SM, {format_percent(r.sm_issue_utilization)} of issue slots used in "
                 f"steady state{div}"
                 + (f" (H200: {format_percent(here.measured)})" if here is not None else ""))
    cap = (f"; registers cap residency at {r.register_cap}" if r.register_cap < 16 else "")
    subtitle = (f"Each loop: {_loop_words(r)}P = {format_number(r.P)} cycles, I = {r.I} "
                f"instructions → ⌈P/I⌉ = {r.warps_needed} warps needed{cap}. Little's law "
                f"predicts U = {_bound_words(r)} = {format_percent(r.predicted_utilization)}: "
                f"at N = {r.resident_warps} the {LIMIT_WORDS[r.limit]}."
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
                   for name, label in STATE_LABELS
                   if name != "loop" or r._params.loop_instructions]
        entries += [LegendEntry("issue slots used (simulated)", _series_style(theme, 0), "line",
                                parts=plots),
                    LegendEntry("useful lane work", _series_style(theme, 1), "line",
                                parts=plots),
                    LegendEntry("Little's law U = min(1, N·I/P)", _series_style(theme, 2),
                                "line", parts=plots),
                    LegendEntry("cycles the timeline shows", _band_style(theme),
                                parts=("utilisation",)),
                    LegendEntry("this kernel's N", _dot_style(theme), "dot", parts=warps)]
        if r.sweep_warps and r.register_cap < max(r.sweep_warps) and r.warps_per_sm is None:
            entries.append(LegendEntry("residency cap on N", _cap_style(theme), "line",
                                       parts=warps))
        if measured_curve(r):
            entries.append(LegendEntry("H200 measured (Nsight Compute, issue active)",
                                       _measured_style(theme), "line", parts=warps))
        if any(k == "slots" or k.startswith(("warp:", "plot:")) for k in selection):
            entries.append(LegendEntry("selected", theme.highlight()))
        rows: list[str | tuple[str, str]] = [
            ("resident warps N", f"{r.resident_warps} (register cap {r.register_cap})"),
            ("run", f"{format_number(r.loops_completed)} loops, "
                    f"{format_number(r.issued_instructions)} instructions in "
                    f"{format_number(r.cycles)} cycles"),
            ("issue slots used", format_percent(r.issue_utilization)
             + (" from cycle 0" if r.warps_per_sm is not None else "")),
            ("Little's law", format_percent(r.predicted_utilization)),
            *_memory_rows(r),
            ("useful lane work", format_percent(r.lane_utilization))]
        blocks = [legend_block(entries, theme, width, target=target),
                  receipt_block(rows, theme, width)]
        note = model_gap_note(r)
        if note is not None:  # what the warps part's H200 curve shows the model leaves out
            blocks.append(as_part("warps", _note_block(note, theme, width), role="notes"))
        return blocks

    return compose(target, theme, title=title, subtitle=subtitle, body=body, side=side,
                   natural_width=172.0, figure_title="gpuviz scheduler",
                   description=f"One warp scheduler under {POLICY_NAMES[r.policy]} with "
                               f"{counted(r.resident_warps, 'resident warp')}, cycle by cycle: "
                               f"{format_percent(r.issue_utilization)} of issue slots used "
                               f"(Little's law predicts "
                               f"{format_percent(r.predicted_utilization)}), "
                               f"{format_percent(r.lane_utilization)} useful lane work.")


MEMORY_NAMES = {"l1": "L1", "l2": "L2", "dram": "DRAM"}


def _loop_words(r: SchedulerResult) -> str:
    """How P and I are made where the loop has instructions of its own."""
    x = r._params.loop_instructions
    if not x:
        return ""
    k = r._params.loads_per_warp
    return (f"P = L + A·{'k·' if k > 1 else ''}C + X, I = {'k·' if k > 1 else ''}(1 + C) + X "
            f"(X = {x} loop instructions): ")


def _memory_rows(r: SchedulerResult) -> list[tuple[str, str]]:
    p = r._params
    rows = []
    if r.warps_per_sm is not None:
        rows.append(("warps per SM", f"{r.warps_per_sm} over 4 schedulers: "
                                     + ", ".join(str(m) for m in r.scheduler_warps)))
    if p.memory != "custom":
        rows.append(("loads hit", f"H200 {MEMORY_NAMES[p.memory]}: L = {r.load_latency} cycles, "
                                  f"{r.bandwidth_per_sm:g} bytes per SM cycle"))
    return rows


def _bound_words(r: SchedulerResult) -> str:
    if r.bandwidth_bound is None:
        return "min(1, N·I/P)"
    return f"min(1, N·I/P, bandwidth bound {r.bandwidth_bound:.0%})".replace("%", " %")


def _series_style(theme: Theme, i: int) -> Style:
    colour = theme.category((0, 2, 5)[i])
    return Style(stroke=colour, stroke_width=theme.line_mm * 1.3, dash=DASHES[i])


def _band_style(theme: Theme) -> Style:
    if _grayscale_safe(theme):
        return Style(fill=theme.at_gray(theme.accent, PRINT_GRAY["band"]), stroke=None,
                     hatch="dots", hatch_color=theme.foreground)
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
    strip[0, kind == LOOP] = _rgb(colors["loop"])
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
    img[(states == ISSUED) & (issued_kind == LOOP)] = _rgb(colors["loop"])
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
    c.text(x0 + w / 2, y, "cycle", pt, fg, anchor="middle")
    return c.block(width, y + descent(pt), "timeline"), (start, end)


UTILISATION_PERIODS = 8  # loop periods the utilisation plot shows
BINS_PER_PERIOD = 8


def utilisation_span(r: SchedulerResult) -> tuple[int, int]:
    """(cycles shown, cycles per window) of the utilisation plot: the first
    :data:`UTILISATION_PERIODS` loop periods (warm-up and steady state), in windows of an eighth
    of a period (at least one cycle), so the bursts and gaps of the loop's rhythm show; a run
    averaged over whole periods is a flat line."""
    b = max(1, r.P // BINS_PER_PERIOD)
    span = min(r.cycles, UTILISATION_PERIODS * r.P) // b * b
    return max(span, b), b


def _utilisation(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
                 width: float, shown: tuple[int, int]) -> Block:
    c = BlockCanvas()
    span, b = utilisation_span(r)
    periods = span / r.P
    y = _heading(c, f"Issue slots used in cycles 0–{span - 1:,} ({periods:.3g} loop periods of "
                    f"{r.P:,}), in windows of {b:,} cycle{'s' if b != 1 else ''}",
                 theme, width)
    bins = span // b
    busy = (r._issued_kind[: bins * b] > 0).reshape(bins, b).mean(axis=1)
    lanes = r._issued_lanes[: bins * b].reshape(bins, b).sum(axis=1, dtype=np.int64) / (32 * b)
    centres = [float(v) for v in (np.arange(bins) + 0.5) * b]
    series = [(centres, [float(v) * 100 for v in busy], _series_style(theme, 0), False),
              (centres, [float(v) * 100 for v in lanes], _series_style(theme, 1), False),
              ([0.0, float(span)], [r.predicted_utilization * 100] * 2,
               _series_style(theme, 2), False)]

    def band(cv: BlockCanvas, f: PlotFrame) -> None:
        if shown[0] >= span:  # the timeline shows cycles past the plot
            return
        # a bar along the top of the data area and its two edges: a band over the whole height
        # would hide the curves where the timeline's window is a large part of the plot
        x_a, x_b = f.px(float(shown[0])), f.px(float(min(shown[1], span)))
        bar = min(1.6, (f.bottom - f.top) / 10)
        cv.rect(x_a, f.top, max(x_b - x_a, 0.4), bar, _band_style(theme))
        edge = Style(stroke=_band_style(theme).fill, stroke_width=theme.thin_mm * 2)
        cv.segments([(x_a, f.top, x_a, f.bottom), (x_b, f.top, x_b, f.bottom)], edge)

    key = "plot:utilization"
    ph = 36.0
    plot = plot_block(theme, target, width, ph, series, x_label="cycle",
                      y_label="% of cycles", x_range=(0.0, float(span)),
                      y_range=(0.0, 100.0), y_ticks=(0, 25, 50, 75, 100),
                      y_fmt=lambda v: f"{v:.0f} %", key=key, draw=band, name="utilisation")
    _place_under(c, plot, y)
    if key in selection:
        c.rect(-0.3, y - 0.3, width + 0.6, ph + 0.6, theme.highlight())
    return c.block(width, y + ph + 0.3, "utilisation")


def _place_under(c: BlockCanvas, block: Block, y: float) -> None:
    from gpuviz.figures.layout import place

    place(c, block, 0.0, y)


def _note_block(text: str, theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    lines = wrap(text, theme.small_pt, width)
    base = cap_height(theme.small_pt)
    for i, line in enumerate(lines):
        c.text(0.0, base + i * line_step(theme.small_pt), line, theme.small_pt, theme.foreground)
    return c.block(width, base + (len(lines) - 1) * line_step(theme.small_pt)
                   + descent(theme.small_pt), "model-gap")


def _cap_text(r: SchedulerResult) -> str:
    if r.register_cap < r._params.warp_slots:
        return f"register cap {r.register_cap}"
    return f"{r.register_cap} warp slots"


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
    if r.warps_per_sm is not None and r.sm_sweep_warps:
        return _sweep_sm(r, selection, theme, target, width)
    top = max(r.sweep_warps)
    beyond = (f"; past {r.register_cap}, more warps than fit, for comparison"
              if r.register_cap < top else "")
    y = _heading(c, f"Issue slots used against resident warps N, in steady state (cycles "
                    f"{start:,}–{end - 1:,} of a run per N{beyond})", theme, width)
    little_n = list(range(1, len(r.sweep_predicted) + 1))
    little = [v * 100 for v in r.sweep_predicted]
    sim_x = [float(m) for m in r.sweep_warps]
    sim_y = [u * 100 for u in r.sweep_utilization]
    series = [(sim_x, sim_y, _series_style(theme, 0), False),
              ([float(m) for m in little_n], little, _series_style(theme, 2), False)]
    if r.register_cap < top:  # a series, so that the mark's label keeps clear of it
        series.append(([float(r.register_cap)] * 2, [0.0, 100.0], _cap_style(theme), False))
    here = r.sweep_utilization[r.sweep_warps.index(r.resident_warps)]

    def extra(cv: BlockCanvas, f: PlotFrame) -> None:
        dot = Style(fill=theme.category(0))
        rad = theme.line_mm * 1.6
        for xv, yv in zip(sim_x, sim_y, strict=True):
            cv.circle(f.px(xv), f.py(yv), rad, dot)
        if r.register_cap < top:
            x = f.px(float(r.register_cap))
            text = _cap_text(r)
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


def measured_curve(r: SchedulerResult) -> list[tuple[float, Measured]]:
    """The H200's measurements of this loop at every measured warps-per-SM count."""
    if r.warps_per_sm is None:
        return []
    return series("scheduler", r._params, "warps_per_sm")


def model_gap_note(r: SchedulerResult) -> str | None:
    """Where the H200's curve and the model's differ by more than the measurement's tolerance:
    at which counts, and what the model leaves out at the worst of them (the measurement file's
    explanation); None where they agree everywhere."""
    model_at = dict(zip(r.sm_sweep_warps, r.sm_sweep_utilization, strict=True))
    off = [(w, m) for w, m in measured_curve(r)
           if int(w) in model_at and not m.agrees_with(model_at[int(w)])]
    if not off:
        return None
    worst_w, worst = max(off, key=lambda v: abs(model_at[int(v[0])] - v[1].measured)
                         / v[1].measured)
    counts = ", ".join(f"{int(w)}" for w, _ in off)
    return (f"Model and H200 differ by more than {worst.tolerance:.0%} at W = {counts}. Left out "
            f"of the model (at W = {int(worst_w)}): "
            + (worst.known or "not known.")).replace("%", " %")


def _measured_style(theme: Theme) -> Style:
    return Style(stroke=theme.foreground, stroke_width=theme.line_mm * 1.3)


def _sweep_sm(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
              width: float) -> Block:
    """The SM's issue utilisation against warps per SM: the model (simulated, and its
    prediction's bound) beside the H200's measured curve of the same loop, the difference at the
    chosen count labelled, and what the model leaves out where they differ."""
    c = BlockCanvas()
    start, end = r.sweep_cycles
    measured = measured_curve(r)
    y = _heading(c, "Issue slots used against warps per SM W (four schedulers share them), "
                    f"steady state (cycles {start:,}–{end - 1:,} of a run per count)"
                    + (", beside the H200" if measured else ""), theme, width)
    w_model = [float(w) for w in r.sm_sweep_warps]
    series = [(w_model, [u * 100 for u in r.sm_sweep_utilization], _series_style(theme, 0),
               False),
              (w_model, [u * 100 for u in r.sm_sweep_predicted], _series_style(theme, 2), False)]
    mx = [w for w, _ in measured]
    my = [m.measured * 100 for _, m in measured]
    if measured:
        series.append((mx, my, _measured_style(theme), False))
    model_at = dict(zip(r.sm_sweep_warps, r.sm_sweep_utilization, strict=True))
    w = r.warps_per_sm or 1
    here = model_at.get(w, r.sm_issue_utilization)
    at = next((m for mw, m in measured if mw == w), None)
    if at is not None:
        off = (here - at.measured) / at.measured
        diff = " (agree)" if at.agrees_with(here) else f" ({off:+.0%})".replace("%", " %")
        labels = [f"W = {w}: H200 {format_percent(at.measured)}, model {format_percent(here)}"
                  + diff, f"H200 {format_percent(at.measured)}, model {format_percent(here)}"
                  + diff, f"H200 {format_percent(at.measured)}" + diff]
    else:
        labels = [f"W = {w}: model {format_percent(here)}", format_percent(here)]
    top = float(max(max(r.sm_sweep_warps), max(mx, default=0.0)))
    # the longest label that fits beside the mark, left or right of it, inside the data area
    # (about the plot less its axis); a narrow column takes a shorter one
    room = max(w / top, 1 - w / top) * (width - 14.0) - 2.0
    label = next((t for t in labels if text_width(t, theme.small_pt, bold=True) <= room),
                 labels[-1])

    def extra(cv: BlockCanvas, f: PlotFrame) -> None:
        rad = theme.line_mm * 1.6
        dot = Style(fill=theme.category(0))
        for xv in (1, 2, *range(4, int(top) + 1, 4)):
            if xv in model_at:
                cv.circle(f.px(float(xv)), f.py(model_at[xv] * 100), rad, dot)
        square = Style(fill=theme.foreground)
        for xv, yv in zip(mx, my, strict=True):
            cv.rect(f.px(xv) - rad, f.py(yv) - rad, 2 * rad, 2 * rad, square)

    key = "plot:sweep"
    ph = 40.0
    plot = plot_block(theme, target, width, ph, series, x_label="warps per SM W",
                      y_label="% of issue slots", x_range=(0.0, top),
                      y_range=(0.0, 100.0), y_ticks=(0, 25, 50, 75, 100),
                      y_fmt=lambda v: f"{v:.0f} %",
                      x_ticks=[v for v in (0, 8, 16, 24, 32, 40, 48, 56, 64) if v <= top],
                      marks=[(float(w), here * 100, label, _dot_style(theme))],
                      key=key, draw=extra, name="sweep")
    _place_under(c, plot, y)
    if key in selection:
        c.rect(-0.3, y - 0.3, width + 0.6, ph + 0.6, theme.highlight())
    y += ph
    return c.block(width, y + 0.3, "sweep")
