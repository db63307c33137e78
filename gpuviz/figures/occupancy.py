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
    format_bytes,
    format_number,
    format_percent,
    legend_block,
    line_step,
    place,
    table_block,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, room_width, text_width
from gpuviz.figures.plot import Mark, Series, mark_style, nice_ticks, plot_block
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
    if r.resident_blocks_per_sm != r.active_blocks_per_sm:  # the carveout note says why
        subtitle += (f" Measured: the SM keeps {r.resident_blocks_per_sm} under the driver's "
                     "own carveout choice.")
    if target.parts == ("limits",):  # the receipt beside the bars spells the inputs out
        title = title.replace(f" on {r.arch_title}", "")
        subtitle = (f"{r.arch_title}. Limited by "
                    f"{', '.join(LABELS[k] for k in r.limiters)}.")
    if target.parts == ("cliffs",) and target.chrome == "full" and not target.part_title:
        # the cliffs alone: their title says what the section heading would
        title = (f"Occupancy cliffs: {r.active_warps_per_sm} of {r.max_warps_per_sm} warps "
                 "per SM resident")
        subtitle = (f"{r.arch_title}. Each plot changes one input and holds the others: "
                    f"{format_number(r.threads_per_block)} threads per block, "
                    f"{r.registers_per_thread} registers per thread, "
                    f"{format_bytes(r.dynamic_shared_memory)} dynamic shared memory per block.")

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
                   LegendEntry("this kernel", mark_style(theme), "dot", parts=cliffs)]
        if any(k.startswith(tuple(keys.prefix(kind) for kind in ("limit", "block", "plot")))
               for k in selection):
            entries.append(LegendEntry("selected", theme.highlight(), "selection"))
        blocks = [legend_block(entries, theme, width, target=target),
                  as_part("limits", limits_table(r, theme, width), "notes")]
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


def carveout_note(r: OccupancyResult) -> str:
    """The carveout preference is a hint: what the occupancy API (these bars) assumes, and,
    where they differ, what the driver configures and the SM keeps (measured on an H200 and an
    H100, resources/measurements/h200-occupancy-residency.json, h100-carveout-choice.json)."""
    note = (f"The carveout of {r.shared_memory_carveout} % is a preference "
            "(cudaFuncAttributePreferredSharedMemoryCarveout, a hint the driver may override; "
            "CUDA C++ Programming Guide): these numbers are the occupancy API's, which count the "
            f"{format_bytes(r.shared_memory_reserved_per_block)} reserved per block inside it. "
            "The driver reads it as shared memory for the blocks' own data and adds the "
            "reservation on top")
    if r.resident_blocks_per_sm == r.active_blocks_per_sm:
        return note + f": here the SM keeps the same {_count(r.active_blocks_per_sm, 'block')}."
    return (note + f": it configures {format_bytes(r.driver_shared_memory_config)}, not "
            f"{format_bytes(r.shared_memory_config)}, and the SM keeps "
            f"{_count(r.resident_blocks_per_sm, 'block')} where the API reports "
            f"{r.active_blocks_per_sm}. Rely on the API's {r.active_blocks_per_sm}: the driver "
            "never configured less in any of the 744 cases measured, but the extra blocks are its "
            "undocumented choice (driver 580.159.04), not a promise.")


def _resident_style(theme: Theme) -> Style:
    return theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.6))


def _curve_style(theme: Theme) -> Style:
    return Style(stroke=theme.category(0), stroke_width=theme.line_mm * 1.3)


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


def limits_table(r: OccupancyResult, theme: Theme, width: float) -> Block:
    """How each resource's limit is computed, as a table: the resource, the arithmetic, and the
    blocks it allows in a column of their own (aligned right), the limiters' rows in the
    foreground and the others muted; a column too narrow wraps its arithmetic at words, never a
    count from its unit (a receipt in the monospaced face wrapped "→ 2 blocks" under its row)."""
    notes = _limit_notes(r)
    rows = [[LABELS[name], notes[name], _limit_text(r.limits[name])] for name in RESOURCES]
    inks = [theme.foreground if name in r.limiters else theme.muted for name in RESOURCES]
    return table_block(["resource", "how its limit is computed", "allows"], rows, theme, width,
                       right=[False, False, True], colors=inks, name="limits-table",
                       keys=[keys.key("limit", name) for name in RESOURCES])


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
    # room for a wider face before the bars (an SVG with text as text)
    label_w = max(room_width(LABELS[n], pt, bold=True) for n in RESOURCES) + 2.0
    values = {n: r.limits[n] for n in RESOURCES}
    # The axis runs to the larger of the warp-slot and block limits (no SM holds more blocks
    # than those allow); a resource that allows more is drawn past the axis end, cut.
    hi = max(values["warps"] or 0, values["blocks"] or 0, r.active_blocks_per_sm, 1)
    ticks = nice_ticks(0.0, float(hi), target=5)
    if ticks[-1] < hi:
        ticks.append(ticks[-1] + (ticks[1] - ticks[0] if len(ticks) > 1 else hi))
    axis_max = ticks[-1]
    cut = {n for n, v in values.items() if v is None or v > axis_max}
    over = 3.0  # mm a cut bar runs past the axis end
    for unit in (True, False):  # "228 blocks, axis cut", or "228, axis cut" (the axis says blocks)
        texts = {n: (_limit_text(v) if unit or v is None else format_number(v))
                 + (" (limiter)" if n in r.limiters else "") + (", axis cut" if n in cut else "")
                 for n, v in values.items()}
        text_w = max(room_width(t, pt, bold=True) for t in texts.values()) + 1.5
        if width - label_w - text_w - over >= 20.0:
            break
    bar_w = max(20.0, width - label_w - text_w - over)
    row = max(4.2, line_step(pt) * 1.45)
    bar_h = row * 0.7

    def x_of(v: float) -> float:
        return label_w + bar_w * v / axis_max

    for i, name in enumerate(RESOURCES):
        value = values[name]
        ry = top + i * row
        key = keys.key("limit", name)
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
    # narrow slots (64 in a column) are one fill a block between thin block edges: a heavy
    # edge and a gap around every 1.3 mm slot read as a dark barcode, not as the legend's tint
    narrow = cell < 2.0
    inset = 0.0 if narrow else 0.15
    edge = Style(stroke=theme.foreground,
                 stroke_width=theme.thin_mm if wpb * cell < 3.0 else theme.line_mm)
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
        key = keys.key("block", b)
        with c.group(key):
            c.rects([(x0 + i * cell + inset, top, cell - 2 * inset, h) for i in range(wpb)],
                    fill)
            c.rect(x0, top, wpb * cell, h, edge)
            if b % step == 0:
                c.text(x0 + wpb * cell / 2, ly, f"block {b}" if named else str(b), pt,
                       theme.foreground, anchor="middle")
        if key in selection:
            theme.select(c, x0 - 0.3, top - 0.3, wpb * cell + 0.6, h + 0.6)
    free = list(range(used, n))
    if free:
        c.rects([(s * cell + 0.15, top, cell - 0.3, h) for s in free], theme.fill("masked"),
                keys=[keys.key("slot", s) for s in free])
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


#: x ticks at the values a kernel is written with, not at round tens
HARDWARE_TICKS = {"registers": (32, 64, 128, 255), "threads": (256, 512, 768, 1024)}


def hardware_ticks(name: str, right: float) -> list[float]:
    """A cliff plot's x ticks up to ``right``: registers per thread 32, 64, 128, 255 (the
    powers of two a launch bound asks for and the ISA's most), threads per block 256 … 1024 (a
    warp's multiples a kernel is written with), dynamic shared memory from 0 KiB in steps of
    32 KiB (64 KiB past 128)."""
    if name in HARDWARE_TICKS:
        ticks = [float(v) for v in HARDWARE_TICKS[name] if v <= right + 1e-9]
        if len(ticks) >= 2:
            return ticks
    step = 64.0 if right > 128 else 32.0 if right > 32 else 8.0
    return [k * step for k in range(int(right // step) + 1)]


def _cliffs(r: OccupancyResult, selection: frozenset[str], theme: Theme, target: Target,
            width: float) -> list[Block]:
    c = BlockCanvas()
    top = 0.0
    if target.parts != ("cliffs",) or target.chrome != "full" or target.part_title:
        top = _heading(c, "Resident warps as one input changes (the others held): the cliffs",
                       theme, width)
    shared_kib = np.asarray(r.shared_axis, dtype=float) / 1024.0
    reserved = r.shared_memory_reserved_per_block
    plots = (
        ("registers", "registers per thread", r.registers_axis, r.warps_vs_registers,
         float(r.registers_per_thread), f"{r.registers_per_thread} registers"),
        ("threads", "threads per block", r.threads_axis, r.warps_vs_threads,
         float(r.threads_per_block), f"{format_number(r.threads_per_block)} threads"),
        ("shared_memory", "dynamic shared memory per block (KiB)", shared_kib, r.warps_vs_shared,
         r.dynamic_shared_memory / 1024.0, f"{format_bytes(r.dynamic_shared_memory)} dynamic"),
    )
    gap = 4.0
    # three in a row from 42 mm a plot (a slide's design width), two to a row down to 36 mm
    # (a single column holds the three in two rows)
    grow = max(1.0, theme.text_pt / 8.0)  # larger type needs wider plots
    per_row = 3 if width >= 3 * 42.0 * grow + 2 * gap else (2 if width >= 2 * 36.0 + gap else 1)
    pw = (width - (per_row - 1) * gap) / per_row
    ph = min(42.0, max(32.0, pw * 0.62))
    y = top
    for i, (name, label, xs, ws, current, mark_label) in enumerate(plots):
        col = i % per_row
        if i and col == 0:
            y += ph + gap
        if name == "shared_memory":
            sx, sy = _corners(np.asarray(xs, dtype=float), np.asarray(ws))
            if current > sx[-1]:  # a request past the opt-in limit the axis ends at: the
                # curve is carried on to it at what the SM holds there (no block fits)
                held = float(r.active_warps_per_sm)
                sx, sy = [*sx, sx[-1], current], [*sy, held, held]
        else:
            sx, sy = _steps(np.asarray(xs, dtype=float), np.asarray(ws))
        key = keys.key("plot", name)
        block = plot_block(
            [Series("resident warps", sx, sy, 0, step=name != "shared_memory",
                    style=_curve_style(theme))], theme, pw, ph,
            x_label=label, y_label="warps per SM", x_range=(0.0, float(sx[-1])),
            x_ticks=hardware_ticks(name, float(sx[-1])),
            y_range=(0.0, float(r.max_warps_per_sm)),
            y_ticks=[v for v in nice_ticks(0.0, float(r.max_warps_per_sm), 4)
                     if v <= r.max_warps_per_sm + 1e-9],
            marks=[Mark(current, float(r.active_warps_per_sm), mark_label)], key=key,
            target=target, name=name, leaders=True)
        x0 = col * (pw + gap)
        place(c, block, x0, y)
        if key in selection:
            theme.select(c, x0 - 0.5, y - 0.5, pw + 1.0, block.height + 1.0)
    y += ph + 0.5
    if reserved or r.static_shared_memory:
        # the chart's x is what the kernel asks for (dynamic shared memory); what a block is
        # allocated adds the static bytes and the architecture's reservation, as the text says
        note = table_block(["", ""], [["allocated a block", _shared_sum(r)]],
                           theme, width, colors=[theme.muted], name="shared allocated")
        place(c, note, 0.0, y + 1.0)
        y += 1.0 + note.height
    return [c.block(width, y, "cliffs")]
