"""Figure of the sector map: one warp's lanes connected to the memory they read.

Top to bottom: the warp's lanes, active or masked (``warp_size`` of them: 32, or for an AMD
wavefront 64 narrower cells whose numbers run sideways); a connection from each active lane to the
element it reads; the touched 32-byte sectors, grouped by 128-byte line, with used elements filled and
fetched-but-unused elements empty; a receipt (sectors, lines, requested and fetched bytes,
efficiency) beside a plot of sectors per request for element strides 1…32.

Only touched sectors are drawn; a gap between two sectors means untouched memory lies between
them. Keys: ``lane:<l>`` (l = 0 … warp_size − 1: lane box and its connection), ``sector:<s>``
(s = address // 32), ``line:<n>`` (n = address // 128), ``plot`` (the stride sweep).
"""

from __future__ import annotations

import itertools

from gpuviz.figures.display import (
    PT_TO_MM,
    Canvas,
    Figure,
    Style,
    fit_pt,
    selected_numbers,
    text_width,
)
from gpuviz.figures.plot import Mark, Series, line_plot
from gpuviz.figures.theme import Theme
from gpuviz.models.sectors import LINE_BYTES, SECTOR_BYTES, WARP_LANES, SectorsResult

WIDTH = 172.0
MARGIN = 5.0
LANE_H = 5.0
WIDE_LANE_H = 6.0  # the taller lane cells of a 64-lane wavefront, numbered sideways
LINK_H = 24.0
SECTOR_H = 6.0
LINE_GAP = 2.6  # between sectors of different lines
HOLE_GAP = 1.2  # between non-adjacent sectors of one line


def sector_layout(r: SectorsResult, x0: float, width: float) -> dict[int, float]:
    """Left edge (mm) of each touched sector, packed left to right with a gap where memory is
    skipped (wider between lines); the sector width is returned under key −1."""
    sectors = r.sectors
    if not sectors:
        return {-1: 0.0}
    gaps = [0.0]
    for a, b in itertools.pairwise(sectors):
        if a * SECTOR_BYTES // LINE_BYTES != b * SECTOR_BYTES // LINE_BYTES:
            gaps.append(LINE_GAP)
        else:
            gaps.append(HOLE_GAP if b != a + 1 else 0.0)
    sw = min(width / WARP_LANES * 8, (width - sum(gaps)) / len(sectors))
    out: dict[int, float] = {-1: sw}
    x = x0
    for s, gap in zip(sectors, gaps, strict=True):
        x += gap
        out[s] = x
        x += sw
    return out


def build(result: SectorsResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    inner = WIDTH - 2 * MARGIN
    n_lanes = r.warp_size
    wide = n_lanes > WARP_LANES
    lane_w = inner / n_lanes
    lane_h = WIDE_LANE_H if wide else LANE_H
    y = MARGIN + theme.title_pt * PT_TO_MM
    n_active = len(r.active_lanes)
    who = f"one {n_lanes}-lane wavefront's" if wide else "one warp's"
    c.text(MARGIN, y, f"Sectors: {who} load of {r.element_bytes}-byte elements touches "
           f"{r.sector_count} sector{'s' if r.sector_count != 1 else ''}",
           theme.title_pt, fg, bold=True)
    y += em * 1.5
    source = ""
    if r.follows_launch:
        bx, by, bz = r.block_idx
        block = f"{bx}" if by == bz == 0 else f"({bx}, {by}, {bz})"
        unit = "wavefront" if wide else "warp"
        source = f" ({unit} {r.warp} of block {block}, from launch)"
    c.text(MARGIN, y, f"{n_active} active lane{'s' if n_active != 1 else ''}{source} · "
           f"{r.pattern} · base {r.base_offset} B · only touched sectors are drawn",
           theme.small_pt, muted)
    y += em * 0.9
    if r.error:
        y += em
        c.text(MARGIN, y, r.error, theme.small_pt, theme.color("warn"), bold=True)
    y += em * 0.8

    sel_lanes = selected_numbers(selection, "lane")
    sel_sectors = selected_numbers(selection, "sector")
    sel_lines = selected_numbers(selection, "line")
    addr = r._addresses
    active = set(r.active_lanes)

    # lanes
    lanes_top = y + em * 1.1
    c.text(MARGIN, lanes_top - em * 0.35, f"lanes 0–{n_lanes - 1}" if wide else "lanes",
           theme.small_pt, muted)
    act_boxes, masked_boxes, keys_a, keys_m = [], [], [], []
    for lane in range(n_lanes):
        box = (MARGIN + lane * lane_w + 0.15, lanes_top, lane_w - 0.3, lane_h)
        if lane in active:
            act_boxes.append(box)
            keys_a.append(f"lane:{lane}")
        else:
            masked_boxes.append(box)
            keys_m.append(f"lane:{lane}")
    if wide:
        # 64 cells are too narrow for two upright digits: the numbers run along the cell, and
        # the type is as large as the cell's width allows (its em across the cell)
        lane_pt = min(theme.small_pt * 0.92, (lane_w - 0.55) / PT_TO_MM,
                      fit_pt(2, lane_h - 0.8, theme.small_pt))
    else:
        lane_pt = fit_pt(2, lane_w - 0.6, theme.small_pt * 0.92)
    with c.group(name="lanes"):
        c.rects(act_boxes, theme.fill("valid"), keys_a)
        masked_style = theme.fill("masked")
        c.rects(masked_boxes, masked_style, keys_m)
        if wide and masked_style.hatch and masked_style.fill:
            # a narrow hatched cell leaves its number no clear ground: clear a patch under it
            patch_w = min(lane_w - 0.7, lane_pt * PT_TO_MM + 0.3)
            patches = []
            for lane in range(n_lanes):
                if lane not in active:
                    long = text_width(str(lane), lane_pt, "mono") + 0.5
                    patches.append((MARGIN + (lane + 0.5) * lane_w - patch_w / 2,
                                    lanes_top + (lane_h - long) / 2, patch_w, long))
            c.rects(patches, Style(fill=masked_style.fill))
        for lane in range(n_lanes):
            on = lane in active
            c.text(MARGIN + (lane + 0.5) * lane_w, lanes_top + lane_h / 2, str(lane),
                   lane_pt, theme.ink_on("valid") if on else muted,
                   anchor="middle",
                   baseline="middle", font="mono", rotate=-90 if wide else 0.0)

    mem_top = lanes_top + lane_h + LINK_H
    layout = sector_layout(r, MARGIN, inner)
    sw = layout[-1]
    per_sector = SECTOR_BYTES // r.element_bytes
    cell_w = sw / per_sector if per_sector else sw

    def element_x(a: int) -> float:
        s = a // SECTOR_BYTES
        return layout[s] + ((a % SECTOR_BYTES) // r.element_bytes + 0.5) * cell_w

    # connections
    segs, seg_keys, hi = [], [], []
    for lane in sorted(active):
        a = int(addr[lane])
        seg = (MARGIN + (lane + 0.5) * lane_w, lanes_top + lane_h, element_x(a), mem_top)
        segs.append(seg)
        seg_keys.append(f"lane:{lane}")
        if lane in sel_lanes or a // SECTOR_BYTES in sel_sectors:
            hi.append(seg)
    with c.group(name="connections"):
        c.segments(segs, Style(stroke=theme.color("outline"), stroke_width=theme.line_mm),
                   seg_keys)
        if hi:
            c.segments(hi, Style(stroke=theme.accent, stroke_width=theme.thick_mm))

    # sectors and lines
    used = set()
    for lane in active:
        a = int(addr[lane])
        used.add((a // SECTOR_BYTES, (a % SECTOR_BYTES) // r.element_bytes))
    used_cells, unused_cells = [], []
    for s in r.sectors:
        for k in range(per_sector):
            cell = (layout[s] + k * cell_w, mem_top, cell_w, SECTOR_H)
            (used_cells if (s, k) in used else unused_cells).append(cell)
    with c.group(name="memory"):
        c.rects(unused_cells, theme.fill("unused", outline=False))
        c.rects(used_cells, theme.fill("used", outline=False))
        if cell_w >= 1.2 and per_sector > 1:
            ticks = [(layout[s] + k * cell_w, mem_top, layout[s] + k * cell_w, mem_top + SECTOR_H)
                     for s in r.sectors for k in range(1, per_sector)]
            c.segments(ticks, Style(stroke=theme.grid, stroke_width=theme.thin_mm))
        c.rects([(layout[s], mem_top, sw, SECTOR_H) for s in r.sectors],
                Style(stroke=theme.outline, stroke_width=theme.line_mm),
                [f"sector:{s}" for s in r.sectors])
        # 128-byte lines: one outline around each line's touched sectors
        spans = []
        for line in r.lines:
            members = [s for s in r.sectors if s * SECTOR_BYTES // LINE_BYTES == line]
            spans.append((line, layout[members[0]], layout[members[-1]] + sw))
        short = any(text_width(f"line {line}", theme.small_pt) > x_last - x_first
                    for line, x_first, x_last in spans)
        for line, x_first, x_last in spans:
            c.rect(x_first - 0.6, mem_top - 0.6, x_last - x_first + 1.2, SECTOR_H + 1.2,
                   Style(stroke=fg, stroke_width=theme.line_mm * 1.6), key=f"line:{line}",
                   radius=0.6)
            label = f"L{line}" if short else f"line {line}"
            if text_width(label, theme.small_pt) <= x_last - x_first + LINE_GAP:
                c.text((x_first + x_last) / 2, mem_top + SECTOR_H + em * 2.25, label,
                       theme.small_pt, muted, anchor="middle")
            if line in sel_lines:
                c.rect(x_first - 1.1, mem_top - 1.1, x_last - x_first + 2.2, SECTOR_H + 2.2,
                       theme.highlight(), radius=0.8)
        for s in r.sectors:
            label = str(s)
            if text_width(label, theme.small_pt * 0.92, "mono") * 1.2 <= sw:
                c.text(layout[s] + sw / 2, mem_top + SECTOR_H + em * 1.05, label,
                       theme.small_pt * 0.92, fg, anchor="middle", font="mono")
        lit = {s for s in r.sectors if s in sel_sectors}
        lit |= {int(addr[lane]) // SECTOR_BYTES for lane in sel_lanes if lane in active}
        for s in sorted(lit):
            c.rect(layout[s], mem_top, sw, SECTOR_H, theme.highlight())
        for lane in sorted(sel_lanes & active):
            a = int(addr[lane])
            x = layout[a // SECTOR_BYTES] + ((a % SECTOR_BYTES) // r.element_bytes) * cell_w
            c.rect(x, mem_top, cell_w, SECTOR_H, Style(fill=theme.accent))
        for lane in sorted(sel_lanes):
            if lane >= n_lanes:
                continue
            c.rect(MARGIN + lane * lane_w + 0.15, lanes_top, lane_w - 0.3, lane_h,
                   theme.highlight())
    if not r.sectors:
        c.text(WIDTH / 2, mem_top + SECTOR_H / 2, "no active lane: nothing is requested",
               theme.text_pt, muted, anchor="middle", baseline="middle")

    y = mem_top + SECTOR_H + em * 4.6
    y = _receipt_and_sweep(c, r, theme, y)
    y = _legend(c, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz sector map",
                    description=f"{n_active} lanes, {r.element_bytes}-byte elements, "
                                f"{r.pattern}, base {r.base_offset}: {r.sector_count} sectors, "
                                f"{r.line_count} lines, {r.requested_bytes} B requested, "
                                f"{r.fetched_bytes} B fetched")


def _receipt_and_sweep(c: Canvas, r: SectorsResult, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    rows = (
        ("sectors (32 B)", f"{r.sector_count}"),
        ("lines (128 B)", f"{r.line_count}"),
        ("requested bytes", f"{r.requested_bytes}"),
        ("fetched bytes", f"{r.fetched_bytes}"),
        ("efficiency", f"{r.efficiency * 100:.1f} %" if r.fetched_bytes else "–"),
    )
    box_w, row_h = 52.0, em * 1.45
    top = y
    with c.group("receipt", name="receipt"):
        c.text(MARGIN, top, "Receipt", theme.text_pt, fg, bold=True)
        ry = top + em * 0.7
        c.rect(MARGIN, ry, box_w, row_h * len(rows) + em * 0.6,
               Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm),
               radius=0.8)
        for i, (label, value) in enumerate(rows):
            by = ry + em * 0.3 + row_h * (i + 0.72)
            c.text(MARGIN + 2, by, label, theme.text_pt, fg)
            c.text(MARGIN + box_w * 0.66, by, value, theme.text_pt, fg, font="mono",
                   bold=i == 0)
        note_y = ry + row_h * len(rows) + em * 1.7
        c.text(MARGIN, note_y, "sector requests of this access,", theme.small_pt, muted)
        c.text(MARGIN, note_y + em * 1.1, "not measured DRAM traffic or time", theme.small_pt,
               muted)
    receipt_bottom = note_y + em * 1.1

    px = MARGIN + box_w + 8
    pw = WIDTH - MARGIN - px
    ph = 44.0
    c.text(px, top, "Stride sweep: sectors per request", theme.text_pt, fg, bold=True)
    marks = []
    if r.stride is not None and 1 <= r.stride <= len(r.stride_sweep):
        marks.append(Mark(r.stride, r.stride_sweep[r.stride - 1],
                          f"stride {r.stride}: {r.stride_sweep[r.stride - 1]}"))
    line_plot(c, px, top + em * 0.5, pw, ph,
              [Series("sectors", list(r.sweep_strides), list(r.stride_sweep), 0, markers=True)],
              theme, x_label="stride s: lane i reads element s·i", y_label="sectors",
              y_range=(0, max(4, *r.stride_sweep) * 1.25), marks=marks,
              key="plot", legend=False)
    return max(receipt_bottom, top + em * 0.5 + ph) + em * 0.6


def _legend(c: Canvas, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    entries = (
        (theme.fill("valid"), "active lane"),
        (theme.fill("masked"), "masked lane"),
        (theme.fill("used"), "element read by a lane"),
        (theme.fill("unused"), "fetched, unused"),
    )
    x = MARGIN
    y += em * 0.6
    with c.group(name="legend"):
        for style, label in entries:
            c.rect(x, y - em * 0.75, em, em, style)
            c.text(x + em * 1.4, y, label, theme.small_pt, theme.foreground)
            x += em * 1.4 + text_width(label, theme.small_pt) + em * 1.2
        c.rect(x, y - em * 0.75, em * 2.2, em, Style(stroke=theme.foreground,
                                                      stroke_width=theme.line_mm * 1.6),
               radius=0.6)
        c.text(x + em * 2.6, y, "128-byte line", theme.small_pt, theme.foreground)
        c.text(MARGIN, y + em * 1.4, "Under each sector its index (byte address / 32), then "
               "its line (L n: byte address / 128); a gap means untouched memory in between.",
               theme.small_pt, theme.muted)
    return y + em * 1.8
