"""The occupancy figure: which resource limits the resident blocks, the SM's warp slots, and three
cliff plots (resident warps vs registers per thread, vs threads per block, vs shared memory per
block) with the current point marked, as in the vendors' occupancy calculators.

The limits are bars on one axis (resident blocks per SM): each bar is as long as the blocks its
resource allows, the limiter is marked, and a dashed rule marks the resident count (their
minimum). Bytes are written with one rule throughout (``format_bytes``: 1 KiB, 57 KiB, 768 B).

Keys: ``limit:<resource>`` (``warps``, ``registers``, ``shared_memory``, ``blocks``; a bar of the
limits chart), ``block:<b>`` (a resident block's warp slots), ``slot:<s>`` (an empty warp slot),
``plot:registers``, ``plot:threads``, ``plot:shared_memory`` (a cliff plot).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

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
    format_bytes,
    format_number,
    format_percent,
    legend_block,
    line_step,
    place,
    receipt_block,
    text_block,
    wrap,
)
from gpuviz.figures.lint import _segment_hits_box
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.plot import nice_ticks
from gpuviz.figures.theme import Theme
from gpuviz.models.occupancy import RESOURCES, OccupancyResult

LABELS = {"warps": "warp slots", "registers": "registers", "shared_memory": "shared memory",
          "blocks": "block limit"}


def percent(fraction: float) -> str:
    """A share as a percentage, bounded to 0–100 % (12.5 %, 50 %)."""
    return format_percent(fraction)


def _count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}{'' if n == 1 else 's'}"


def build(result: OccupancyResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    title = (f"Occupancy on {r.arch_title}: {_count(r.active_blocks_per_sm, 'block')} × "
             f"{_count(r.warps_per_block, 'warp')} = {r.active_warps_per_sm} of "
             f"{r.max_warps_per_sm} warps ({percent(r.occupancy)})")
    subtitle = (f"{format_number(r.threads_per_block)} threads per block, "
                f"{r.registers_per_thread} registers per thread "
                f"({format_number(r.registers_per_warp_allocated)} allocated per warp), "
                f"{_shared_sum(r)} of shared memory allocated per block. Limited by "
                f"{', '.join(LABELS[k] for k in r.limiters)}.")

    def body(width: float) -> list[Block]:
        return [as_part("limits", _limits(r, selection, theme, target, width)),
                as_part("slots", _slots(r, selection, theme, target, width)),
                *(as_part("cliffs", b) for b in _cliffs(r, selection, theme, target, width))]

    def side(width: float) -> list[Block]:
        limits, slots, cliffs = ("limits",), ("slots",), ("cliffs",)
        entries = [LegendEntry("limiting resource", theme.fill("limiter"), parts=limits),
                   LegendEntry("other resource", theme.fill("valid"), parts=limits),
                   LegendEntry(f"resident blocks = the minimum = {r.active_blocks_per_sm}",
                               _resident_style(theme), "line", parts=limits),
                   LegendEntry("warp slot of a resident block", theme.fill("owned"),
                               parts=slots),
                   LegendEntry("empty warp slot", theme.fill("masked"), parts=slots),
                   LegendEntry("resident warps (cliff)", _curve_style(theme), "line",
                               parts=cliffs),
                   LegendEntry("this kernel", _dot_style(theme), "dot", parts=cliffs)]
        if any(k.split(":")[0] in ("limit", "block", "plot") for k in selection):
            entries.append(LegendEntry("selected", theme.highlight(), "selection"))
        notes = _limit_notes(r)
        rows: list[str | tuple[str, str]] = [
            (f"{LABELS[name]}:", f"{notes[name]} → {_limit_text(r.limits[name])}")
            for name in RESOURCES]
        blocks = [legend_block(entries, theme, width, target=target),
                  as_part("limits", receipt_block(rows, theme, width,
                                                  title="How each limit is computed"), "notes")]
        if r.shared_memory_carveout is not None:
            blocks.append(as_part("limits", text_block(carveout_note(r), theme, width,
                                                       color=theme.muted), "notes"))
        return blocks

    return compose(target, theme, title=title, subtitle=subtitle, body=body, side=side,
                   natural_width=172.0, figure_title="gpuviz occupancy",
                   description=f"Occupancy on {r.arch_title}: "
                               f"{counted(r.active_blocks_per_sm, 'block')} of "
                               f"{counted(r.warps_per_block, 'warp')} per SM, "
                               f"{r.active_warps_per_sm} of {r.max_warps_per_sm} warps "
                               f"({percent(r.occupancy)}), limited by the "
                               f"{', '.join(LABELS[k] for k in r.limiters)}.")


CARVEOUT_MEASURED = (
    "on an H200 the driver configured more than the preference asks for small blocks: at 0 % "
    "32 blocks of 32 threads (16 of 128) were resident where the API reports 8, at 10 % with "
    "1 KiB per block 32 where it reports 16 (resources/measurements/"
    "h200-occupancy-residency.json)")


def carveout_note(r: OccupancyResult) -> str:
    """The carveout preference is a hint: what the model (= the occupancy API) assumes, and
    where the H200 kept more blocks resident than the API reports."""
    return (f"The carveout of {r.shared_memory_carveout} % is a preference "
            "(cudaFuncAttributePreferredSharedMemoryCarveout, a hint the driver may override; "
            "CUDA C++ Programming Guide): these numbers are the occupancy API's, which take it "
            f"as given; {CARVEOUT_MEASURED}.")


def _resident_style(theme: Theme) -> Style:
    return theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.6))


def _curve_style(theme: Theme) -> Style:
    return Style(stroke=theme.category(0), stroke_width=theme.line_mm * 1.3)


def _dot_style(theme: Theme) -> Style:
    return Style(fill=theme.accent, stroke=theme.background, stroke_width=theme.thin_mm)


def _shared_sum(r: OccupancyResult) -> str:
    """The shared memory a block is allocated, as the sum it is: static + dynamic + the
    architecture's per-block reservation, rounded up to the allocation unit."""
    parts = []
    if r.static_shared_memory:
        parts.append(f"{format_bytes(r.static_shared_memory)} static")
    if r.dynamic_shared_memory or not parts:
        parts.append(f"{format_bytes(r.dynamic_shared_memory)} dynamic")
    if r.shared_memory_reserved_per_block:
        parts.append(f"{format_bytes(r.shared_memory_reserved_per_block)} reserved")
    total = format_bytes(r.shared_memory_per_block_allocated)
    if len(parts) == 1 and parts[0].startswith(total + " "):
        return total
    return " + ".join(parts) + f" = {total}"


def _limit_text(value: int | None) -> str:
    return "no limit" if value is None else _count(value, "block")


def _limit_notes(r: OccupancyResult) -> dict[str, str]:
    w = r.warps_per_block
    return {
        "warps": f"⌊{r.max_warps_per_sm} slots / {_count(w, 'warp')} per block⌋",
        "registers": f"{r.registers_per_thread} × 32 → "
                     f"{format_number(r.registers_per_warp_allocated)} per warp, in 4 partitions",
        "shared_memory": f"{_shared_sum(r)} per block",
        "blocks": "the architecture's limit per SM",
    }


def _heading(c: BlockCanvas, text: str, theme: Theme, width: float) -> float:
    """A bold section heading wrapped to ``width``; returns the y below it."""
    y = cap_height(theme.text_pt)
    for i, line in enumerate(wrap(text, theme.text_pt, width, bold=True)):
        c.text(0.0, y + i * line_step(theme.text_pt), line, theme.text_pt, theme.foreground,
               bold=True)
        y_last = y + i * line_step(theme.text_pt)
    return y_last + descent(theme.text_pt) + 1.5


def _limits(r: OccupancyResult, selection: frozenset[str], theme: Theme, target: Target,
            width: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    top = _heading(c, "Blocks per SM each resource allows", theme, width)
    label_w = max(text_width(LABELS[n], pt, bold=True) for n in RESOURCES) + 2.0
    values = {n: r.limits[n] for n in RESOURCES}
    # The axis runs to the larger of the warp-slot and block limits (no SM holds more blocks
    # than those allow); a resource that allows more is drawn past the axis end, cut.
    hi = max(values["warps"] or 0, values["blocks"] or 0, r.active_blocks_per_sm, 1)
    ticks = nice_ticks(0.0, float(hi), target=5)
    if ticks[-1] < hi:
        ticks.append(ticks[-1] + (ticks[1] - ticks[0] if len(ticks) > 1 else hi))
    axis_max = ticks[-1]
    cut = {n for n, v in values.items() if v is None or v > axis_max}
    texts = {n: _limit_text(v) + (" (limiter)" if n in r.limiters else "")
             + (", axis cut" if n in cut else "") for n, v in values.items()}
    text_w = max(text_width(t, pt, bold=True) for t in texts.values()) + 1.5
    over = 3.0  # mm a cut bar runs past the axis end
    bar_w = max(20.0, width - label_w - text_w - over)
    row = max(4.2, line_step(pt) * 1.45)
    bar_h = row * 0.7

    def x_of(v: float) -> float:
        return label_w + bar_w * v / axis_max

    for i, name in enumerate(RESOURCES):
        value = values[name]
        ry = top + i * row
        key = f"limit:{name}"
        binding = name in r.limiters
        with c.group(key):
            c.text(0.0, ry + row / 2, LABELS[name], pt, fg, baseline="middle", bold=binding)
            w = bar_w + over if name in cut else x_of(value or 0) - label_w
            by = ry + (row - bar_h) / 2
            c.rect(label_w, by, max(w, 0.0), bar_h,
                   theme.fill("limiter" if binding else "valid"))
            if name in cut:
                # A break across the bar just past the axis end.
                bx = label_w + bar_w + over * 0.35
                c.polyline([(bx, by - 0.3), (bx + 0.9, by - 0.3), (bx + 0.3, by + bar_h + 0.3),
                            (bx - 0.6, by + bar_h + 0.3)], Style(fill=theme.background),
                           closed=True)
            c.text(label_w + w + 1.2, ry + row / 2, texts[name], pt, fg, baseline="middle",
                   bold=binding)
        if key in selection:
            theme.select(c, label_w - 0.4, ry + (row - bar_h) / 2 - 0.4, max(w, 0.0) + 0.8, bar_h + 0.8)
    bottom = top + 4 * row
    # The axis: resident blocks per SM, with ticks.
    axis = theme.stroke("foreground", theme.thin_mm * 1.5)
    c.line(label_w, bottom + 0.6, label_w + bar_w, bottom + 0.6, axis)
    used_right = 0.0
    for v in ticks:
        x = x_of(v)
        c.line(x, bottom + 0.6, x, bottom + 1.4, axis)
        tw = text_width(format_number(v), pt)
        if x - tw / 2 > used_right + 0.8 or v == 0:
            c.text(x, bottom + 1.6 + cap_height(pt), format_number(v), pt, fg, anchor="middle")
            used_right = x + tw / 2
    ay = bottom + 1.6 + cap_height(pt) + line_step(pt)
    c.text(label_w + bar_w / 2, ay, "resident blocks per SM", pt, fg, anchor="middle")
    # The resident count, their minimum, as a dashed rule across the bars.
    x = x_of(r.active_blocks_per_sm)
    c.line(x, top, x, bottom + 0.6, _resident_style(theme))
    return c.block(width, ay + descent(pt), "limits")


def _slots(r: OccupancyResult, selection: frozenset[str], theme: Theme, target: Target,
           width: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    used = r.active_warps_per_sm
    n = r.max_warps_per_sm
    top = _heading(c, f"The SM's {n} warp slots: {used} hold warps of resident blocks, "
                      f"{n - used} stay empty", theme, width)
    cell = min(2.6, width / n)
    h = 5.0
    wpb = r.warps_per_block
    fill = theme.fill("owned")
    edge = Style(stroke=theme.foreground, stroke_width=theme.line_mm)
    # Block numbers under the strip, every k-th block where they do not all fit.
    blocks = r.active_blocks_per_sm
    widest = text_width(f"block {max(blocks - 1, 0)}", pt)
    named = widest + 0.8 <= wpb * cell
    step = 1
    if not named:
        while text_width(str(max(blocks - 1, 0)), pt) + 0.8 > wpb * cell * step:
            step *= 2
    ly = top + h + 1.0 + cap_height(pt)
    for b in range(blocks):
        x0 = b * wpb * cell
        key = f"block:{b}"
        with c.group(key):
            c.rects([(x0 + i * cell + 0.15, top, cell - 0.3, h) for i in range(wpb)], fill)
            c.rect(x0, top, wpb * cell, h, edge)
            if b % step == 0:
                c.text(x0 + wpb * cell / 2, ly, f"block {b}" if named else str(b), pt,
                       theme.foreground, anchor="middle")
        if key in selection:
            theme.select(c, x0 - 0.3, top - 0.3, wpb * cell + 0.6, h + 0.6)
    free = list(range(used, n))
    if free:
        c.rects([(s * cell + 0.15, top, cell - 0.3, h) for s in free], theme.fill("masked"),
                keys=[f"slot:{s}" for s in free])
    bottom = ly + descent(pt)
    if not named and blocks:
        note = "resident blocks, numbered" + (
            f" (0, {step}, {2 * step}, … labelled)" if step > 1 else "")
        bottom += line_step(pt)
        c.text(0.0, bottom - descent(pt), note, pt, theme.muted)
    return c.block(min(width, max(n * cell, 1.0)), bottom, "warp slots")


# --------------------------------------------------------------------------------------------
# The cliff plots


def _steps(x: np.ndarray, y: np.ndarray) -> tuple[list[float], list[float]]:
    """Only the points where a step function changes (and both ends)."""
    if len(x) <= 2:
        return [float(v) for v in x], [float(v) for v in y]
    change = np.flatnonzero(np.diff(y)) + 1
    idx = np.unique(np.concatenate(([0], change, [len(x) - 1])))
    return [float(v) for v in x[idx]], [float(v) for v in y[idx]]


def _corners(x: np.ndarray, y: np.ndarray) -> tuple[list[float], list[float]]:
    """A densely sampled curve reduced to the samples on both sides of every change."""
    change = np.flatnonzero(np.diff(y))
    idx = np.unique(np.concatenate(([0], change, change + 1, [len(x) - 1])))
    return [float(v) for v in x[idx]], [float(v) for v in y[idx]]


def _cliffs(r: OccupancyResult, selection: frozenset[str], theme: Theme, target: Target,
            width: float) -> list[Block]:
    c = BlockCanvas()
    top = _heading(c, "Resident warps as one input changes (the others held): the cliffs",
                   theme, width)
    shared_kib = np.asarray(r._shared_axis, dtype=float) / 1024.0
    plots = (
        ("registers", "registers per thread", r._registers_axis, r._warps_vs_registers,
         float(r.registers_per_thread), f"{r.registers_per_thread} registers"),
        ("threads", "threads per block", r._threads_axis, r._warps_vs_threads,
         float(r.threads_per_block), f"{format_number(r.threads_per_block)} threads"),
        ("shared_memory", "dynamic shared memory per block (KiB)", shared_kib,
         r._warps_vs_shared, r.dynamic_shared_memory / 1024.0,
         f"{format_bytes(r.dynamic_shared_memory)} dynamic"),
    )
    gap = 4.0
    # two to a row down to 36 mm a plot: a single column holds the three cliffs in two rows
    two = 36.0 * max(1.0, theme.text_pt / 8.0)  # larger type needs wider plots
    per_row = 3 if width >= 3 * 48.0 + 2 * gap else (2 if width >= 2 * two + gap else 1)
    pw = (width - (per_row - 1) * gap) / per_row
    ph = min(42.0, max(32.0, pw * 0.62))
    y = top
    for i, (name, label, xs, ws, current, mark_label) in enumerate(plots):
        col = i % per_row
        if i and col == 0:
            y += ph + gap
        if name == "shared_memory":
            sx, sy = _corners(np.asarray(xs, dtype=float), np.asarray(ws))
        else:
            sx, sy = _steps(np.asarray(xs, dtype=float), np.asarray(ws))
        key = f"plot:{name}"
        block = plot_block(
            theme, target, pw, ph, [(sx, sy, _curve_style(theme), name != "shared_memory")],
            x_label=label, y_label="warps per SM",
            x_range=(0.0, float(sx[-1])), y_range=(0.0, float(r.max_warps_per_sm)),
            marks=[(current, float(r.active_warps_per_sm), mark_label, _dot_style(theme))],
            key=key)
        x0 = col * (pw + gap)
        place(c, block, x0, y)
        if key in selection:
            theme.select(c, x0 - 0.5, y - 0.5, pw + 1.0, ph + 1.0)
    return [c.block(width, y + ph + 0.5, "cliffs")]


# --------------------------------------------------------------------------------------------
# A line plot as a block: units on both axes, one number format, the mark's label off the curve

PlotSeries = tuple[Sequence[float], Sequence[float], Style, bool]  # x, y, style, step
PlotMark = tuple[float, float, str, Style]  # x, y, label, dot style


@dataclass(frozen=True)
class PlotFrame:
    """Where a plot's data area lies in its block, and its value-to-mm maps."""

    left: float
    top: float
    right: float
    bottom: float
    px: Callable[[float], float]
    py: Callable[[float], float]


def plot_block(theme: Theme, target: Target, width: float, height: float,
               series: Sequence[PlotSeries], *, x_label: str, y_label: str,
               x_range: tuple[float, float], y_range: tuple[float, float],
               marks: Sequence[PlotMark] = (), key: str | None = None,
               x_fmt: Callable[[float], str] = format_number,
               y_fmt: Callable[[float], str] = format_number,
               x_ticks: Sequence[float] | None = None, y_ticks: Sequence[float] | None = None,
               draw: Callable[[BlockCanvas, PlotFrame], None] | None = None,
               name: str = "plot") -> Block:
    """A plot ``width`` × ``height`` mm in its own block: ticks in the figure's number format,
    labelled axes (with units), series as polylines, marked points whose labels are placed
    where no curve crosses them (else knocked out). ``draw`` adds to the data area."""
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    xlo, xhi = x_range
    ylo, yhi = y_range
    if xhi <= xlo:
        xhi = xlo + 1.0
    if yhi <= ylo:
        yhi = ylo + 1.0
    yt = list(y_ticks) if y_ticks is not None else [v for v in nice_ticks(ylo, yhi, 4)
                                                     if ylo - 1e-9 <= v <= yhi + 1e-9]
    tick_w = max(text_width(y_fmt(v), pt) for v in yt)
    left = cap_height(pt) + descent(pt) + 1.2 + tick_w + 1.0
    top = cap_height(pt) / 2 + 0.4
    right = width - max(1.0, text_width(x_fmt(xhi), pt) / 2 + 0.3)
    x_lines = wrap(x_label, pt, right - left)
    bottom = height - (cap_height(pt) + 1.4 + len(x_lines) * line_step(pt) + descent(pt))

    def px(v: float) -> float:
        return left + (v - xlo) / (xhi - xlo) * (right - left)

    def py(v: float) -> float:
        return bottom - (v - ylo) / (yhi - ylo) * (bottom - top)

    xt = list(x_ticks) if x_ticks is not None else [v for v in nice_ticks(xlo, xhi, 5)
                                                     if xlo - 1e-9 <= v <= xhi + 1e-9]
    # Fewer x ticks where their labels would touch.
    while len(xt) > 2:
        widths = [text_width(x_fmt(v), pt) for v in xt]
        pitch = min(px(b) - px(a) for a, b in itertools.pairwise(xt))
        if pitch >= max(widths) + 1.5:
            break
        xt = xt[::2]
    with c.group(key, name=name):
        grid = Style(stroke=theme.grid, stroke_width=theme.thin_mm)
        segs: list[tuple[float, float, float, float]] = [
            (left, py(v), right, py(v)) for v in yt if v > ylo]
        c.segments(segs, grid)
        axis = theme.stroke("foreground", theme.thin_mm * 1.5)
        c.line(left, bottom, right, bottom, axis)
        c.line(left, top, left, bottom, axis)
        for v in yt:
            c.text(left - 1.0, py(v), y_fmt(v), pt, fg, anchor="end", baseline="middle")
        for v in xt:
            c.line(px(v), bottom, px(v), bottom + 0.8, axis)
            c.text(px(v), bottom + 1.2 + cap_height(pt), x_fmt(v), pt, fg, anchor="middle")
        for i, line in enumerate(reversed(x_lines)):
            c.text((left + right) / 2, height - descent(pt) - i * line_step(pt), line, pt, fg,
                   anchor="middle")
        c.text(cap_height(pt), (top + bottom) / 2, y_label, pt, fg, anchor="middle",
               rotate=-90)
        for xs, ys, style, step in series:
            pts: list[tuple[float, float]] = []
            prev = None
            for xv, yv in zip(xs, ys, strict=True):
                if yv is None or not math.isfinite(float(yv)):
                    continue
                if step and prev is not None:
                    pts.append((px(float(xv)), py(prev)))
                pts.append((px(float(xv)), py(float(yv))))
                prev = float(yv)
            if len(pts) >= 2:
                c.polyline(pts, style)
                segs += [(*a, *b) for a, b in itertools.pairwise(pts)]
        frame = PlotFrame(left, top, right, bottom, px, py)
        if draw is not None:
            draw(c, frame)
        s = np.asarray(segs, dtype=float).reshape(-1, 4)
        for mx, my, label, style in marks:
            cx, cy = px(mx), py(my)
            rad = pt * 0.3528 * 0.45
            c.circle(cx, cy, rad, style)
            _mark_label(c, cx, cy, rad, label, pt, theme, s, (left, top, right, bottom))
    return c.block(width, height, name)


def _mark_label(c: BlockCanvas, cx: float, cy: float, rad: float, label: str, pt: float,
                theme: Theme, segs: np.ndarray, area: tuple[float, float, float, float]) -> None:
    """The mark's label beside its dot, at the first place inside the data area where no curve
    crosses it; a knockout where there is none."""
    w = text_width(label, pt, bold=True)
    ch, de = cap_height(pt), descent(pt)
    left, top, right, bottom = area
    d = rad + 0.8
    candidates = [(cx + d, cy - d, "start"), (cx - d, cy - d, "end"), (cx + d, cy + d + ch,
                  "start"), (cx - d, cy + d + ch, "end"), (cx - w / 2, cy - d - 1.0, "start"),
                  (cx - w / 2, cy + d + ch + 1.0, "start")]
    for k in (2.5, 4.0):  # further out, where the curve is busy near the mark
        candidates += [(cx + d, cy + k * d + ch, "start"), (cx - d, cy + k * d + ch, "end"),
                       (cx + d, cy - k * d, "start"), (cx - d, cy - k * d, "end")]
    best = None
    for x, y, anchor in candidates:
        x0 = x - w if anchor == "end" else x
        box = (x0 - 0.3, y - ch - 0.3, x0 + w + 0.3, y + de + 0.3)
        if box[0] < left + 0.3 or box[2] > right or box[1] < top - 0.5 or box[3] > bottom - 0.3:
            continue
        if best is None:
            best = (x, y, anchor)
        if not len(segs) or not _segment_hits_box(segs, box).any():
            _leader(c, cx, cy, rad, box, theme)
            c.text(x, y, label, pt, theme.foreground, anchor=anchor, bold=True)  # type: ignore[arg-type]
            return
    x, y, anchor = best or candidates[0]
    x0 = x - w if anchor == "end" else x
    _leader(c, cx, cy, rad, (x0 - 0.3, y - ch - 0.3, x0 + w + 0.3, y + de + 0.3), theme)
    c.label(x, y, label, pt, theme.foreground, knockout=theme.background, anchor=anchor,
            bold=True)


def _leader(c: BlockCanvas, cx: float, cy: float, rad: float,
            box: tuple[float, float, float, float], theme: Theme) -> None:
    """A thin line from the mark's dot to its label's box, where the label sits apart from it
    (more than a millimetre away), so the label never floats."""
    px, py = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    dx, dy = px - cx, py - cy
    dist = (dx * dx + dy * dy) ** 0.5
    if dist - rad <= 1.0:
        return
    ux, uy = dx / dist, dy / dist
    c.line(cx + ux * rad, cy + uy * rad, px - ux * 0.2, py - uy * 0.2,
           theme.stroke("foreground", theme.thin_mm))
