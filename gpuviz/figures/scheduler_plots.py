"""The scheduler figure's two plots, drawn with the shared :func:`gpuviz.figures.plot.plot_block`:
issue-slot use over time (the ``utilisation`` part) and against the number of warps (the
``warps`` part).

Over time: the first loop periods in windows of an eighth of a period
(:func:`gpuviz.models.scheduler.windowed_utilisation`), so the loop's rhythm of bursts and gaps
shows, with the cycles the timeline shows marked along the top. Against warps: the simulated
steady state and Little's law, reaching the warps the law needs (saturation); where the model
describes an SM (``warps_per_sm``), against warps per SM with the H200's measured curve for the
same loop beside the model's (``gpuviz.measurements.series``), the law drawn on to where it
saturates, past the warps an SM holds where it must, and the difference at the chosen count
labelled.
"""

from __future__ import annotations

from gpuviz import keys
from gpuviz.figures.display import Canvas, Style
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    Target,
    format_number,
    format_percent,
    line_step,
    place,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, room_width, text_width
from gpuviz.figures.plot import DASHES, Mark, PlotFrame, Series, plot_block, series_style
from gpuviz.figures.theme import Theme
from gpuviz.measurements import Measured, series
from gpuviz.models.scheduler import (
    SchedulerResult,
    saturation_warps_per_sm,
    uncapped_sm_prediction,
    utilisation_span,
    windowed_utilisation,
)

#: each series' category: issue slots used, useful lane work, Little's law (the law dashed in
#: the gray category, which keeps it dark in print)
SERIES_CATEGORY = (0, 2, 4)
SERIES_LABELS = ("issue slots used (simulated)", "useful lane work",
                 "Little's law U = min(1, N·I/P)")
BAND_GRAY = 0.94  # the band of the timeline's cycles in a print theme (hatched as well)
PLOT_H = 36.0


def heading(c: BlockCanvas, text: str, theme: Theme, width: float, y: float = 0.0) -> float:
    """A bold section heading wrapped to ``width`` from ``y``; returns the y below it."""
    lines = wrap(text, theme.text_pt, width, bold=True)
    base = y + cap_height(theme.text_pt)
    for i, line in enumerate(lines):
        c.text(0.0, base + i * line_step(theme.text_pt), line, theme.text_pt, theme.foreground,
               bold=True)
    return base + (len(lines) - 1) * line_step(theme.text_pt) + descent(theme.text_pt) + 1.5


def _series(theme: Theme, i: int, x, y) -> Series:
    return Series(SERIES_LABELS[i], [float(v) for v in x], [float(v) * 100 for v in y],
                  SERIES_CATEGORY[i], style=line_style(theme, i) if i == 2 else None)


def line_style(theme: Theme, i: int) -> Style:
    """The line of the i-th of :data:`SERIES_LABELS`, as the plots draw it."""
    if i == 2:
        return Style(stroke=theme.category(SERIES_CATEGORY[2]), stroke_width=theme.line_mm * 1.3,
                     dash=DASHES[1])
    return series_style(theme, Series(SERIES_LABELS[i], (), (), SERIES_CATEGORY[i]))


def band_style(theme: Theme) -> Style:
    if theme.category_hatch(0) is not None:  # a print theme: gray and hatched
        return Style(fill=theme.at_gray(theme.accent, BAND_GRAY), stroke=None, hatch="dots",
                     hatch_color=theme.foreground)
    return Style(fill=theme.mix(theme.accent, 0.14), stroke=None)


def cap_style(theme: Theme) -> Style:
    return theme.stroke("warn", theme.line_mm, dash=(1.0, 0.7))


def measured_style(theme: Theme) -> Style:
    return Style(stroke=theme.foreground, stroke_width=theme.line_mm * 1.3)


def _framed(c: BlockCanvas, plot: Block, y: float, key: str, selection: frozenset[str],
            theme: Theme, width: float) -> float:
    place(c, plot, 0.0, y)
    if key in selection:
        theme.select(c, -0.3, y - 0.3, width + 0.6, plot.height + 0.6)
    return y + plot.height + 0.3


def utilisation(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
                width: float, shown: tuple[int, int], headed: bool = True) -> Block:
    c = BlockCanvas()
    span, b = utilisation_span(r)
    y = 0.0
    if headed:
        y = heading(c, f"Issue slots used in cycles 0–{span - 1:,} ({span / r.P:.3g} loop "
                       f"periods of {r.P:,}), in windows of {b:,} cycle{'s' if b != 1 else ''}",
                    theme, width)
    centres, busy, lanes = windowed_utilisation(r)
    data = [_series(theme, 0, centres, busy), _series(theme, 1, centres, lanes),
            _series(theme, 2, [0.0, float(span)], [r.predicted_utilization] * 2)]

    def band(cv: Canvas, f: PlotFrame) -> None:
        if shown[0] >= span:  # the timeline shows cycles past the plot
            return
        # a bar along the top of the data area and its two edges: a band over the whole height
        # would hide the curves where the timeline's window is a large part of the plot
        x_a, x_b = f.px(float(shown[0])), f.px(float(min(shown[1], span)))
        bar = min(1.6, (f.bottom - f.top) / 10)
        cv.rect(x_a, f.top, max(x_b - x_a, 0.4), bar, band_style(theme))
        edge = Style(stroke=band_style(theme).fill, stroke_width=theme.thin_mm * 2)
        cv.segments([(x_a, f.top, x_a, f.bottom), (x_b, f.top, x_b, f.bottom)], edge)

    key = keys.key("plot", "utilization")
    plot = plot_block(data, theme, width, PLOT_H, x_label="cycle", y_label="issue slots",
                      percent=True, x_range=(0.0, float(span)), key=key, under=band,
                      target=target, name="utilisation")
    return c.block(width, _framed(c, plot, y, key, selection, theme, width), "utilisation")


def note_block(text: str, theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    lines = wrap(text, theme.small_pt, width)
    base = cap_height(theme.small_pt)
    for i, line in enumerate(lines):
        c.text(0.0, base + i * line_step(theme.small_pt), line, theme.small_pt, theme.foreground)
    return c.block(width, base + (len(lines) - 1) * line_step(theme.small_pt)
                   + descent(theme.small_pt), "model-gap")


def _cap_text(r: SchedulerResult) -> str:
    if r.register_cap < r.params.warp_slots:
        return f"register cap {r.register_cap}"
    return f"{r.register_cap} warp slots"


def sweep(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target = NATURAL,
          width: float = 80.0, headed: bool = True) -> Block:
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
        return _sweep_sm(r, selection, theme, target, width, headed)
    top = max(r.sweep_warps)
    beyond = (f"; past {r.register_cap}, more warps than fit, for comparison"
              if r.register_cap < top else "")
    y = 0.0
    if headed:
        y = heading(c, f"Issue slots used against resident warps N, in steady state (cycles "
                       f"{start:,}–{end - 1:,} of a {end:,}-cycle run per N{beyond})", theme, width)
    data = [replace_markers(_series(theme, 0, r.sweep_warps, r.sweep_utilization)),
            _series(theme, 2, range(1, len(r.sweep_predicted) + 1), r.sweep_predicted)]
    if r.register_cap < top:  # a series, so that the mark's label keeps clear of it
        data.append(Series(_cap_text(r), [float(r.register_cap)] * 2, [0.0, 100.0],
                           style=cap_style(theme)))
    here = r.sweep_utilization[r.sweep_warps.index(r.resident_warps)]

    def extra(cv: Canvas, f: PlotFrame) -> None:
        if r.register_cap < top:
            x = f.px(float(r.register_cap))
            text = _cap_text(r)
            right = x + 0.8 + text_width(text, theme.small_pt) <= f.right
            # at the top of the plot, or at its foot where the kernel's mark is high
            ty = (f.bottom - descent(theme.small_pt) - 1.0 if here > 0.5
                  else f.top + cap_height(theme.small_pt) + 0.5)
            _label(cv, x + 0.8 if right else x - 0.8, ty, text, theme, theme.color("warn"),
                   "start" if right else "end")

    key = keys.key("plot", "sweep")
    plot = plot_block(data, theme, width, PLOT_H, x_label="resident warps N",
                      y_label="issue slots", percent=True, x_range=(0.0, float(top)),
                      marks=[Mark(float(r.resident_warps), here * 100,
                                  f"N = {r.resident_warps}: {format_percent(here)}")],
                      key=key, draw=extra, target=target, name="sweep", leaders=True)
    return c.block(width, _framed(c, plot, y, key, selection, theme, width), "sweep")


def replace_markers(s: Series) -> Series:
    from dataclasses import replace

    return replace(s, markers=True)


def _label(cv: Canvas, x: float, y: float, text: str, theme: Theme, color: str,
           anchor: str) -> None:
    if isinstance(cv, BlockCanvas):
        cv.label(x, y, text, theme.small_pt, color, knockout=theme.background,
                 anchor=anchor)
    else:
        cv.text(x, y, text, theme.small_pt, color, anchor=anchor)  # type: ignore[arg-type]


def measured_curve(r: SchedulerResult) -> list[tuple[float, Measured]]:
    """The H200's measurements of this loop at every measured warps-per-SM count."""
    if r.warps_per_sm is None:
        return []
    return series("scheduler", r.params, "warps_per_sm")


def model_gap_note(r: SchedulerResult) -> str | None:
    """Where the H200's curve and the model's differ by more than the measurement's tolerance:
    at which counts, and why at the worst of them (the measurement file's explanation, from the
    chunk clocks); None where they agree everywhere."""
    model_at = dict(zip(r.sm_sweep_warps, r.sm_sweep_utilization, strict=True))
    off = [(w, m) for w, m in measured_curve(r)
           if int(w) in model_at and not m.agrees_with(model_at[int(w)])]
    if not off:
        return None
    worst_w, worst = max(off, key=lambda v: abs(model_at[int(v[0])] - v[1].measured)
                         / v[1].measured)
    counts = ", ".join(f"{int(w)}" for w, _ in off)
    why = worst.known or "why is not known."
    return (f"Model and H200 differ by more than {worst.tolerance:.0%} at W = {counts}. At "
            f"W = {int(worst_w)}, {why}").replace("%", " %")


def _sweep_sm(r: SchedulerResult, selection: frozenset[str], theme: Theme, target: Target,
              width: float, headed: bool) -> Block:
    """The SM's issue utilisation against warps per SM: the model (simulated, and Little's law
    on to where it saturates) beside the H200's measured curve of the same loop, the difference
    at the chosen count labelled."""
    c = BlockCanvas()
    start, end = r.sweep_cycles
    measured = measured_curve(r)
    y = 0.0
    if headed:
        y = heading(c, "Issue slots used against warps per SM W (four schedulers share them), "
                       f"steady state (cycles {start:,}–{end - 1:,} of a {end:,}-cycle run per count)"
                       + (", beside the H200" if measured else ""), theme, width)
    held = max(r.sm_sweep_warps)  # the most warps an SM holds here (slots, registers)
    saturation = saturation_warps_per_sm(r.params)
    law_to = max(held, saturation)
    data = [_series(theme, 0, r.sm_sweep_warps, r.sm_sweep_utilization),
            _series(theme, 2, *zip(*_law(r, held, law_to), strict=True))]
    mx = [w for w, _ in measured]
    my = [m.measured * 100 for _, m in measured]
    if measured:
        data.append(Series("H200 measured", mx, my, style=measured_style(theme)))
    model_at = dict(zip(r.sm_sweep_warps, r.sm_sweep_utilization, strict=True))
    w = r.warps_per_sm or 1
    here = model_at.get(w, r.sm_issue_utilization)
    at = next((m for mw, m in measured if mw == w), None)
    if at is not None:
        off = (here - at.measured) / at.measured
        # a relative difference beside percentages says it is relative (a gap of 21.2 points
        # is the model "28 % higher", not "+28 %")
        diff = " (agree)" if at.agrees_with(here) else \
            f" (model {abs(off):.0%} {'higher' if off > 0 else 'lower'})".replace("%", " %")
        labels = [f"W = {w}: H200 {format_percent(at.measured)}, model {format_percent(here)}"
                  + diff, f"H200 {format_percent(at.measured)}, model {format_percent(here)}"
                  + diff, f"H200 {format_percent(at.measured)}" + diff]
    else:
        labels = [f"W = {w}: model {format_percent(here)}", format_percent(here)]
    right = float(max(law_to, max(mx, default=0.0)))
    # the longest label that fits beside the mark inside the data area (about the plot less its
    # axis); a narrow column takes a shorter one
    room = max(w / right, 1 - w / right) * (width - 20.0) - 3.0
    label = next((t for t in labels if room_width(t, theme.small_pt, bold=True) <= room),
                 labels[-1])

    def extra(cv: Canvas, f: PlotFrame) -> None:
        rad = theme.line_mm * 1.6
        dot = Style(fill=theme.category(SERIES_CATEGORY[0]))
        for xv in (1, 2, *range(4, held + 1, 4)):
            if xv in model_at:
                cv.circle(f.px(float(xv)), f.py(model_at[xv] * 100), rad, dot)
        square = Style(fill=theme.foreground)
        for xv, yv in zip(mx, my, strict=True):
            cv.rect(f.px(xv) - rad, f.py(yv) - rad, 2 * rad, 2 * rad, square)
        if law_to > held:
            _label(cv, f.right - 0.8, f.bottom - descent(theme.small_pt) - 1.0,
                   f"more than the SM's {held} warps", theme, theme.muted, "end")
            _label(cv, f.right - 0.8, f.top + cap_height(theme.small_pt) + 0.8,
                   f"saturates at W = {saturation}", theme, theme.foreground, "end")

    def beyond(cv: Canvas, f: PlotFrame) -> None:
        if law_to > held:  # past the warps an SM holds: where the law alone goes on
            x = f.px(float(held))
            cv.rect(x, f.top, f.right - x, f.bottom - f.top,
                    Style(fill=theme.mix(theme.muted, 0.14), stroke=None))

    key = keys.key("plot", "sweep")
    ticks = [v for v in range(0, int(right) + 1, 16 if right > 64 else 8)]
    plot = plot_block(data, theme, width, PLOT_H + (4.0 if width >= 100 else 0.0),
                      x_label="warps per SM W",
                      y_label="issue slots", percent=True, x_range=(0.0, right),
                      x_ticks=ticks, marks=[Mark(float(w), here * 100, label)], key=key,
                      draw=extra, under=beyond, target=target, name="sweep", leaders=True)
    return c.block(width, _framed(c, plot, y, key, selection, theme, width), "sweep")


def _law(r: SchedulerResult, held: int, to: int) -> list[tuple[float, float]]:
    """Little's law against warps per SM: the model's bound at the counts the SM holds, then
    as if every warp were resident, on to ``to``."""
    known = list(zip(r.sm_sweep_warps, r.sm_sweep_predicted, strict=True))
    return [(float(w), v) for w, v in known] + [
        (float(w), uncapped_sm_prediction(r.params, w)) for w in range(held + 1, to + 1)]
