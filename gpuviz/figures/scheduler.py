"""The scheduler figure: the issue timeline of one warp scheduler, warp states, and issue-slot
utilisation over time beside Little's law's prediction.

Top to bottom: the issue-slot strip (one cell per cycle: a load, a math instruction, or an empty
slot) and one row per resident warp with its state in every cycle (issued, ready but not chosen,
waiting on memory, waiting on math), drawn as images, one pixel per cycle and warp; then the
utilisation over the first loop periods, with the cycles the timeline shows marked on it, and
issue-slot use against resident warps (both in :mod:`gpuviz.figures.scheduler_plots`); a receipt
of the numbers. :func:`timeline_rgb` is the timeline's one raster (the dock's zoomable timeline
draws it too).

The timeline shows a window of cycles at a readable width per cycle (at least
:data:`MIN_CYCLE_MM`): the selection's ``cycles:<a>-<b>`` (a … b inclusive) where it carries
one, else the first cycles that fit the width, or, where those hold less than a loop period,
the window that begins just before the first math instruction issues (cycles 0–149 of a loop
whose loads take 200 cycles would show nothing but waiting). The utilisation plot shows the
first loop periods in windows of an eighth of a period, so the loop's rhythm of bursts and gaps
shows; the warps plot reaches the warps Little's law needs (saturation), past the warps an SM
holds where it must. A part drawn alone with its title says in its subtitle what that part
needs, instead of a section heading.

Keys: ``warp:<w>`` (a warp's row), ``slots`` (the issue-slot strip), ``warps`` (the state image),
``plot:utilization``, ``plot:sweep``.
"""

from __future__ import annotations

import itertools

import numpy as np

from gpuviz import keys
from gpuviz.figures import scheduler_plots as plots
from gpuviz.figures.display import Figure, Style
from gpuviz.figures.kept import Kept
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
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.plot import mark_style, nice_ticks
from gpuviz.figures.scheduler_plots import measured_curve, model_gap_note
from gpuviz.figures.theme import Theme, gray_of_lightness
from gpuviz.models.scheduler import (
    ISSUED,
    LOAD,
    LOOP,
    MATH,
    READY,
    WAIT_MATH,
    WAIT_MEMORY,
    SchedulerResult,
    utilisation_span,
)

__all__ = ["MATH", "MIN_CYCLE_MM", "build", "measured_curve", "model_gap_note", "state_colors",
           "timeline_rgb", "utilisation_span", "visible_cycles", "window_cycles"]

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


_WINDOWS: Kept[np.ndarray] = Kept(8)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)  # shared by the figures drawn with it
    return a


def timeline_rgb(r: SchedulerResult, theme: Theme, start: int = 0,
                 end: int | None = None) -> np.ndarray:
    """The timeline of cycles [start, end) as (1 + resident warps, cycles, 3) RGB: row 0 the
    issue slot (a load, math, a loop instruction or empty), then each warp's state; the one
    raster the figure and the dock's zoomable timeline both draw."""
    end = r.cycles if end is None else end
    colors = {k: _rgb(v) for k, v in state_colors(theme).items()}
    kind = r.issued_kind[start:end]
    states = r.states[:, start:end]
    # one palette index a pixel, then one look-up: the issue slot's (and an issuing warp's)
    # colour is its instruction's (none: empty), a waiting or ready warp's its state's
    palette = np.zeros((8, 3), dtype=np.uint8)
    for i, name in enumerate(("empty", "load", "math", "loop", "ready", "memory", "wait_math")):
        palette[i] = colors[name]
    by_kind = np.zeros(8, dtype=np.uint8)
    by_kind[[LOAD, MATH, LOOP]] = (1, 2, 3)
    by_state = np.zeros(8, dtype=np.uint8)
    by_state[[READY, WAIT_MEMORY, WAIT_MATH]] = (4, 5, 6)
    slot = by_kind[kind]
    index = np.empty((r.resident_warps + 1, end - start), dtype=np.uint8)
    index[0] = slot
    index[1:] = by_state[states]
    np.copyto(index[1:], slot[None, :], where=states == ISSUED)
    return palette[index]


#: Printed lightness (CIE L* of the gray, 0 black – 100 paper) of the timeline's states in a
#: theme that must survive a grayscale print: 12.3 apart (the lint's ``lightness`` rule asks 12
#: of legend cells), so no two meanings meet in gray (at the
#: gray levels' own 0.105 steps, math and loop, ready and empty, the two waits read as one
#: gray in a copy). The timeline is a pixel image, which cannot be hatched: lightness alone
#: tells its states apart. Issued instructions are the darkest (a load the darkest, where its
#: hue still shows; the loop's own instructions between it and math), waiting on memory the
#: lightest, but not the paper (a white swatch on white paper reads as nothing). The plot's
#: band of the timeline's cycles is hatched in print instead of taking a step of its own.
PRINT_LIGHTNESS = {"load": 24.0, "loop": 36.3, "math": 48.6, "empty": 60.9, "ready": 73.2,
                   "wait_math": 85.5, "memory": 97.8}
PRINT_GRAY = {**{name: gray_of_lightness(v) for name, v in PRINT_LIGHTNESS.items()},
              "band": 0.94}


def _grayscale_safe(theme: Theme) -> bool:
    """Whether ``theme`` must keep its meanings apart in a grayscale print (it hatches categories)."""
    return theme.category_hatch(0) is not None


def state_colors(theme: Theme) -> dict[str, str]:
    """Colours of the timeline's states, from theme roles; in a print theme each moved to its own
    gray step (:data:`PRINT_GRAY`), keeping its hue."""
    colors = {
        "load": theme.color("load"),
        "math": theme.color("compute"),
        "loop": theme.color("overhead"),
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
        first = np.flatnonzero(r.issued_kind == MATH)
        if len(first):
            start = max(0, min(int(first[0]) - n // 8, r.cycles - n)) // 10 * 10
    return start, min(start + n, r.cycles)


def build(result: SchedulerResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    div = ", divergent" if r.divergence else ""
    column_title = ""
    if r.warps_per_sm is None:
        title = (f"One warp scheduler, {POLICY_NAMES[r.policy]}: {r.resident_warps} warps, "
                 f"{format_percent(r.sm_issue_utilization)} of issue slots used "
                 f"{steady_words(r)}{div}")
    else:
        here = next((m for w, m in measured_curve(r) if w == r.warps_per_sm), None)
        title = (f"An SM's four schedulers, {POLICY_NAMES[r.policy]}: {r.warps_per_sm} warps "
                 f"per SM, {format_percent(r.sm_issue_utilization)} of issue slots used "
                 f"{steady_words(r)}{div}"
                 + (f" (H200: {format_percent(here.measured)})" if here is not None else ""))
        # a column's: the same numbers, without the scheduler's policy and the SM's count
        column_title = (f"{r.warps_per_sm} warps per SM: "
                        f"{format_percent(r.sm_issue_utilization)} of issue slots used "
                        f"{steady_words(r)}{div}"
                        + (f" (H200: {format_percent(here.measured)})" if here is not None
                           else ""))
    cap = (f"; registers cap residency at {r.register_cap}" if r.register_cap < 16 else "")
    subtitle = (f"Each loop: {_loop_words(r)}P = {format_number(r.P)} cycles, I = {r.I} "
                f"instructions → ⌈P/I⌉ = {r.warps_needed} warps needed{cap}. Little's law "
                f"predicts U = {_bound_words(r)} = {format_percent(r.predicted_utilization)}: "
                f"at N = {r.resident_warps} the {LIMIT_WORDS[r.limit]}."
                + (" Divergent: the math block runs twice at 16 lanes." if r.divergence else ""))
    law = (f"Little's law predicts U = {_bound_words(r)} = "
           f"{format_percent(r.predicted_utilization)}: at N = {r.resident_warps} the "
           f"{LIMIT_WORDS[r.limit]}.")
    # a part alone with its title: the subtitle says what that part needs, and carries the
    # part's section heading, so a single column or a slide spends no line twice
    alone = target.parts[0] if target.parts and len(target.parts) == 1 \
        and target.chrome == "full" and not target.part_title else None
    if alone == "timeline":
        subtitle = (f"Each loop: {_loop_words(r)}P = {format_number(r.P)} cycles, I = {r.I} "
                    f"instructions → ⌈P/I⌉ = {r.warps_needed} warps needed{cap}.")
    elif alone == "utilisation":
        title = (f"Issue slots used over time, {POLICY_NAMES[r.policy]}: "
                 f"{format_percent(r.sm_issue_utilization)} {steady_words(r)}{div}")
        span, b = utilisation_span(r)
        subtitle = (f"Cycles 0–{span - 1:,} ({span / r.P:.3g} loop periods of P = {r.P:,}) "
                    f"in windows of {b:,} cycle{'s' if b != 1 else ''}. " + law)
    elif alone == "warps":
        title = (f"Warps to hide the latency, {POLICY_NAMES[r.policy]}: ⌈P/I⌉ = "
                 f"{r.warps_needed} per scheduler{div}")
        start, end = r.sweep_cycles
        subtitle = (f"Steady state (cycles {start:,}–{end - 1:,}, a run per count), "
                    f"P = {format_number(r.P)} cycles, I = {r.I} instructions{cap}; Little's "
                    f"law: U = {_bound_words(r)}.")
    shown: list[tuple[int, int]] = []

    def body(width: float) -> list[Block]:
        timeline = _timeline(r, selection, theme, width)
        shown[:] = [timeline[1]]
        # The two plots side by side where both are drawn and each still gets a readable width.
        pair = target.shows("utilisation") and target.shows("warps")
        pw = (width - 3.5) / 2 if pair and (width - 3.5) / 2 >= 70.0 * theme.text_pt / 8.0 \
            else width
        return [as_part("timeline", timeline[0]),
                as_part("utilisation", plots.utilisation(r, selection, theme, target, pw,
                                                         timeline[1], alone != "utilisation")),
                as_part("warps", plots.sweep(r, selection, theme, target, pw,
                                             alone != "warps"))]

    def side(width: float) -> list[Block]:
        colors = state_colors(theme)
        over_time, warps = ("utilisation",), ("warps",)
        entries = [LegendEntry(label, Style(fill=colors[name], stroke=theme.outline,
                                            stroke_width=theme.thin_mm), parts=("timeline",))
                   for name, label in STATE_LABELS
                   if name != "loop" or r.params.loop_instructions]
        law_parts = ("utilisation", "warps")
        entries += [LegendEntry(plots.SERIES_LABELS[0], plots.line_style(theme, 0), "line",
                                parts=law_parts),
                    LegendEntry(plots.SERIES_LABELS[1], plots.line_style(theme, 1), "line",
                                parts=over_time),
                    LegendEntry(plots.SERIES_LABELS[2], plots.line_style(theme, 2), "line",
                                parts=law_parts),
                    LegendEntry("cycles the timeline shows", plots.band_style(theme),
                                parts=over_time),
                    LegendEntry("this kernel's N", mark_style(theme), "dot", parts=warps)]
        if r.sweep_warps and r.register_cap < max(r.sweep_warps) and r.warps_per_sm is None:
            entries.append(LegendEntry("residency cap on N", plots.cap_style(theme), "line",
                                       parts=warps))
        if measured_curve(r):
            entries.append(LegendEntry("H200 measured (Nsight Compute, issue active)",
                                       plots.measured_style(theme), "line", parts=warps))
        if any(k == "slots" or k.startswith((keys.prefix("warp"), keys.prefix("plot")))
               for k in selection):
            entries.append(LegendEntry("selected", theme.highlight(), "selection"))
        # the whole figure's receipt
        rows: list[str | tuple[str, str]] = [
            ("resident warps N", f"{r.resident_warps} (register cap {r.register_cap})"),
            ("run", f"{format_number(r.loops_completed)} loops, "
                    f"{format_number(r.issued_instructions)} instructions in "
                    f"{format_number(r.cycles)} cycles"),
            ("issue slots used", f"{format_percent(r.sm_issue_utilization)} "
                                 f"{steady_words(r)}"),
            ("Little's law", format_percent(r.predicted_utilization)),
            *(_memory_rows(r) if target.whole else []),
            ("useful lane work", f"{format_percent(r.sm_lane_utilization)} over the same "
                                 "cycles")]
        if alone == "utilisation":  # its title and subtitle give the issue use and the law
            rows = [row for row in rows if row[0] in ("run", "useful lane work")]
        blocks = [legend_block(entries, theme, width, target=target),
                  as_part("utilisation", receipt_block(rows, theme, width), "notes")]
        note = model_gap_note(r)
        if note is not None:  # what the warps part's H200 curve shows the model leaves out
            blocks.append(as_part("warps", plots.note_block(note, theme, width), "notes"))
        return blocks

    return compose(target, theme, title=title, subtitle=subtitle, body=body, side=side,
                   natural_width=172.0, figure_title="gpuviz scheduler",
                   column_title=column_title if alone is None or alone == "timeline" else "",
                   description=f"One warp scheduler under {POLICY_NAMES[r.policy]} with "
                               f"{counted(r.resident_warps, 'resident warp')}, cycle by cycle: "
                               f"{format_percent(r.sm_issue_utilization)} of issue slots used "
                               f"{steady_words(r)} (Little's law predicts "
                               f"{format_percent(r.predicted_utilization)}), "
                               f"{format_percent(r.sm_lane_utilization)} useful lane work.")


MEMORY_NAMES = {"l1": "L1", "l2": "L2", "dram": "DRAM"}


def steady_words(r: SchedulerResult) -> str:
    """Where every utilisation the figure quotes was measured: in steady state, its cycles
    named (the warps part's runs measure over the same cycles), or over the run for a loop too
    long to reach one within the simulation's budget."""
    start, end = r.steady_cycles
    if r.sm_steady:
        return f"in steady state (cycles {start:,}–{end - 1:,})"
    return f"over the first {end:,} cycles (one loop takes {r.P:,}: no steady state)"


def _loop_words(r: SchedulerResult) -> str:
    """How P and I are made where the loop has instructions of its own."""
    x = r.params.loop_instructions
    if not x:
        return ""
    k = r.params.loads_per_warp
    return (f"P = L + A·{'k·' if k > 1 else ''}C + X, I = {'k·' if k > 1 else ''}(1 + C) + X "
            f"(X = {x} loop instructions): ")


def _memory_rows(r: SchedulerResult) -> list[tuple[str, str]]:
    p = r.params
    rows = []
    if r.warps_per_sm is not None:
        rows.append(("warps per SM", f"{r.warps_per_sm} over 4 schedulers: "
                                     + ", ".join(str(m) for m in r.scheduler_warps)))
    if p.memory != "custom":
        loaded = (f" under load ({r.unloaded_latency} alone)"
                  if r.load_latency != r.unloaded_latency else "")
        rows.append(("loads hit", f"H200 {MEMORY_NAMES[p.memory]}: L = {r.load_latency} cycles"
                                  f"{loaded}, {r.bandwidth_per_sm:g} bytes per SM cycle"))
    return rows


def _bound_words(r: SchedulerResult) -> str:
    if r.bandwidth_bound is None:
        return "min(1, N·I/P)"
    return f"min(1, N·I/P, bandwidth bound {r.bandwidth_bound:.0%})".replace("%", " %")


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
    y = plots.heading(c, head, theme, width)
    # the window's raster, made once for every design a layout search tries
    image = _WINDOWS.get((r, theme), (start, end), lambda: _frozen(timeline_rgb(r, theme, start,
                                                                               end)))

    # issue-slot strip
    slot_h = max(3.0, ink_height(pt) + 0.8)
    c.text(0.0, y + slot_h / 2, "issue slot", pt, fg, baseline="middle")
    c.image(x0, y, w, slot_h, image[:1], key="slots")
    c.rect(x0, y, w, slot_h, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
    if "slots" in selection:
        theme.select(c, x0 - 0.3, y - 0.3, w + 0.6, slot_h + 0.6)
    y += slot_h + 1.5

    # warp rows
    n = r.resident_warps
    row_h = ROW_H if n <= 16 else max(0.6, ROW_H * 16 / n)
    h = row_h * n
    need = ink_height(pt) + 0.5
    label_every = 1
    while label_every * row_h < need:
        label_every *= 2
    c.image(x0, y, w, h, image[1:], key="warps")
    c.rect(x0, y, w, h, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
    for i in range(n):
        key = keys.key("warp", i)
        ry = y + i * row_h
        with c.group(key):
            c.rect(x0, ry, w, row_h, Style(fill=None, stroke=None))
            if i % label_every == 0:
                c.text(0.0, ry + row_h / 2, f"warp {i}", pt, fg, baseline="middle")
        if key in selection:
            theme.select(c, x0 - 0.3, ry - 0.1, w + 0.6, row_h + 0.2)
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
