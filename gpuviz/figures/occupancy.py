"""The occupancy figure: which resource limits the resident blocks, the SM's warp slots, and three
cliff plots (resident warps vs registers per thread, vs threads per block, vs shared memory per
block) with the current point marked, as in the vendors' occupancy calculators.

Keys: ``limit:<resource>`` (``warps``, ``registers``, ``shared_memory``, ``blocks``; a bar of the
limits chart), ``block:<b>`` (a resident block's warp slots), ``slot:<s>`` (an empty warp slot),
``plot:registers``, ``plot:threads``, ``plot:shared_memory`` (a cliff plot).
"""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, paragraph, text_width
from gpuviz.figures.plot import Mark, Series, line_plot
from gpuviz.figures.theme import Theme
from gpuviz.models.occupancy import RESOURCES, OccupancyResult

WIDTH = 172.0
MARGIN = 5.0


def _paragraph(c: Canvas, x: float, y: float, text: str, size: float, color: str,
               font: str = "sans", bold: bool = False) -> float:
    return paragraph(c, x, y, text, size, color, WIDTH - 2 * MARGIN, font, bold)
LABELS = {"warps": "warp slots", "registers": "registers", "shared_memory": "shared memory",
          "blocks": "block limit"}


def build(result: OccupancyResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    y = MARGIN + theme.title_pt * PT_TO_MM
    y = _paragraph(c, MARGIN, y, f"Occupancy on {r.arch_title}: "
                   f"{_count(r.active_blocks_per_sm, 'block')} × "
                   f"{_count(r.warps_per_block, 'warp')} = {r.active_warps_per_sm} of "
                   f"{r.max_warps_per_sm} warps ({percent(r.occupancy)})", theme.title_pt,
                   theme.foreground, bold=True)
    y += em * 0.3
    y = _paragraph(c, MARGIN, y, f"{r.threads_per_block} threads per block, "
                   f"{r.registers_per_thread} registers per thread "
                   f"({r.registers_per_warp_allocated:,} allocated per warp), "
                   f"{r.shared_memory_per_block_allocated:,} B of shared memory allocated per "
                   f"block. Limited by {', '.join(LABELS[k] for k in r.limiters)}.",
                   theme.small_pt, theme.muted)
    y -= em * 0.5
    y = _limits(c, r, selection, theme, y)
    y = _slots(c, r, selection, theme, y)
    y = _cliffs(c, r, selection, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz occupancy",
                    description=f"{r.active_blocks_per_sm} blocks, {r.active_warps_per_sm} warps, "
                                f"occupancy {r.occupancy:.4f}, limiter {r.limiter}")


def percent(fraction: float) -> str:
    """A share as a percentage, with a decimal only where it is not whole (12.5%, 50%)."""
    value = fraction * 100
    return f"{value:.0f}%" if abs(value - round(value)) < 1e-9 else f"{value:.1f}%"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _limits(c: Canvas, r: OccupancyResult, selection: frozenset[str], theme: Theme,
            y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.6
    c.text(MARGIN, y, "Blocks per SM each resource allows", theme.text_pt, theme.foreground,
           bold=True)
    y += em * 0.8
    bar_x = MARGIN + text_width("shared memory", theme.small_pt) + 2.0
    bar_w = 55.0
    value_w = text_width("228 blocks", theme.small_pt) + 2.0
    # bars share one scale up to the block limit; larger limits are drawn cut, with their value
    scale_max = max(r.limits["blocks"], r.active_blocks_per_sm, 1)
    row = em * 1.55
    notes = _limit_notes(r)
    for i, name in enumerate(RESOURCES):
        value = r.limits[name]
        ry = y + i * row
        key = f"limit:{name}"
        binding = name in r.limiters
        with c.group(key):
            c.text(MARGIN, ry + row * 0.55, LABELS[name], theme.small_pt,
                   theme.foreground, baseline="middle", bold=binding)
            c.rect(bar_x, ry + row * 0.12, bar_w, row * 0.76, Style(fill=theme.surface))
            shown = scale_max if value is None else value
            w = bar_w * min(shown, scale_max) / scale_max
            fill = theme.fill("warn" if binding else "valid")
            if w > 0:
                c.rect(bar_x, ry + row * 0.12, w, row * 0.76, fill)
            if shown > scale_max:
                cut = bar_x + bar_w - 2.0
                c.line(cut, ry + row * 0.05, cut + 1.0, ry + row * 0.95,
                       theme.stroke("background", theme.line_mm * 2))
            text = "no limit" if value is None else f"{value:,} block{'s' if value != 1 else ''}"
            c.text(bar_x + bar_w + 1.5, ry + row * 0.55, text, theme.small_pt, theme.foreground,
                   baseline="middle", bold=binding)
            c.text(bar_x + bar_w + 1.5 + value_w, ry + row * 0.55, notes[name],
                   theme.small_pt * 0.9, theme.muted, baseline="middle")
        if key in selection:
            c.rect(bar_x - 0.4, ry + row * 0.12 - 0.4, bar_w + 0.8, row * 0.76 + 0.8,
                   theme.highlight())
    # the resident count as a vertical rule across the bars
    x = bar_x + bar_w * r.active_blocks_per_sm / scale_max
    c.line(x, y, x, y + 4 * row, theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.6)))
    y += 4 * row + em * 0.4
    c.text(bar_x, y + em * 0.6, f"dashed: resident blocks = minimum = {r.active_blocks_per_sm}; "
           "highlighted: the limiter", theme.small_pt, theme.muted)
    return y + em * 0.6


def _limit_notes(r: OccupancyResult) -> dict[str, str]:
    w = r.warps_per_block
    return {
        "warps": f"⌊{r.max_warps_per_sm} slots / {_count(w, 'warp')} per block⌋",
        "registers": f"{r.registers_per_thread} × 32 → {r.registers_per_warp_allocated:,} "
                     "per warp, in 4 partitions",
        "shared_memory": f"{r.shared_memory_per_block_allocated:,} B per block",
        "blocks": "limit per SM",
    }


def _slots(c: Canvas, r: OccupancyResult, selection: frozenset[str], theme: Theme,
           y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.8
    c.text(MARGIN, y, f"The SM's {r.max_warps_per_sm} warp slots", theme.text_pt,
           theme.foreground, bold=True)
    y += em * 0.8
    cell = min(2.5, (WIDTH - 2 * MARGIN) / r.max_warps_per_sm)
    h = 5.0
    used = r.active_warps_per_sm
    for b in range(r.active_blocks_per_sm):
        x0 = MARGIN + b * r.warps_per_block * cell
        key = f"block:{b}"
        with c.group(key):
            c.rects([(x0 + i * cell, y, cell - 0.3, h) for i in range(r.warps_per_block)],
                    Style(fill=theme.category(b % 2 * 4), stroke=None))
            c.rect(x0, y, r.warps_per_block * cell - 0.3, h,
                   Style(stroke=theme.outline, stroke_width=theme.thin_mm))
            if r.warps_per_block * cell > 9:
                c.text(x0 + r.warps_per_block * cell / 2, y + h / 2, f"block {b}",
                       theme.small_pt, theme.ink_on(theme.category(b % 2 * 4)), anchor="middle",
                       baseline="middle")
        if key in selection:
            c.rect(x0 - 0.3, y - 0.3, r.warps_per_block * cell + 0.3, h + 0.6, theme.highlight())
    free = list(range(used, r.max_warps_per_sm))
    if free:
        c.rects([(MARGIN + s * cell, y, cell - 0.3, h) for s in free], theme.fill("masked"),
                keys=[f"slot:{s}" for s in free])
    y += h + em * 1.1
    c.text(MARGIN, y, f"{used} of {r.max_warps_per_sm} slots hold warps of resident blocks; "
           f"{r.max_warps_per_sm - used} stay empty.", theme.small_pt, theme.muted)
    return y


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


def _cliffs(c: Canvas, r: OccupancyResult, selection: frozenset[str], theme: Theme,
            y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.8
    c.text(MARGIN, y, "Resident warps as one input changes (the others held): the cliffs",
           theme.text_pt, theme.foreground, bold=True)
    y += em * 0.6
    gap = 3.0
    pw = (WIDTH - 2 * MARGIN - 2 * gap) / 3
    ph = 42.0
    y_range = (0.0, float(r.max_warps_per_sm))
    shared_kib = r._shared_axis / 1024.0
    plots = (
        ("registers", "registers per thread", r._registers_axis, r._warps_vs_registers,
         r.registers_per_thread, f"{r.registers_per_thread} regs"),
        ("threads", "threads per block", r._threads_axis, r._warps_vs_threads,
         r.threads_per_block, f"{r.threads_per_block} threads"),
        ("shared_memory", "shared memory (KiB)", shared_kib, r._warps_vs_shared,
         None, ""),
    )
    for i, (name, label, xs, ws, current, mark_label) in enumerate(plots):
        x0 = MARGIN + i * (pw + gap)
        sx, sy = _steps(np.asarray(xs, dtype=float), np.asarray(ws))
        if name == "shared_memory":
            current = r.dynamic_shared_memory / 1024.0
            mark_label = f"{current:.1f} KiB"
            sx, sy = _corners(np.asarray(xs, dtype=float), np.asarray(ws))
        mark_y = float(r.active_warps_per_sm)
        key = f"plot:{name}"
        step = name != "shared_memory"
        lo, hi = float(sx[0]), float(sx[-1])
        if float(current) > lo + 0.75 * (hi - lo):
            hi += 0.3 * (hi - lo)  # room on the right for the mark's label
        line_plot(c, x0, y, pw, ph, [Series("resident warps", sx, sy, 0, step=step)], theme,
                  x_label=label, y_label="resident warps", y_range=y_range, x_range=(lo, hi),
                  marks=[Mark(float(current), mark_y, mark_label)], key=key, legend=False)
        if key in selection:
            c.rect(x0, y, pw, ph, theme.highlight())
    return y + ph
