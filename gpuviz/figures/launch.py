"""Figure of the launch explorer.

Rows, top to bottom: the grid of blocks coloured by dispatch wave (an illustration, not a
scheduling guarantee) with the synthetic SMs beside it; the warps of the selected block with their
valid-lane counts; the lanes of the selected warp, valid or masked, with linear thread id and
global index; for a multi-dimensional block, its threads in their drawn shape coloured by warp
(x fastest); and tile and wave quantization.

Keys: ``block:<b>``, ``sm:<s>``, ``warp:<b>,<w>``, ``lane:<l>``, ``thread:<tid>``, ``tile:<i>,<j>``,
``wave:<k>``.
"""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.launch import LaunchResult

WIDTH = 172.0
MARGIN = 5.0
DENSE_BLOCKS = 512  # past this the block grid is drawn as one pixel per block


def build(result: LaunchResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    y = MARGIN + theme.title_pt * PT_TO_MM
    dims = _dims(r.grid)
    c.text(MARGIN, y, f"Launch: grid {dims} × block {_dims(r.block)} = "
           f"{r.threads_launched:,} threads for {r.valid_threads:,} valid outputs", theme.title_pt, fg,
           bold=True)
    y += em * 1.5
    c.text(MARGIN, y, f"{r.blocks:,} blocks · {r.warps_per_block} warps of {r.warp_size} lanes per block · "
           f"masked threads {r.threads_launched - r.valid_threads:,}", theme.small_pt, muted)
    y += em * 1.2

    y = _grid_and_sms(c, r, selection, theme, y)
    y = _warps(c, r, selection, theme, y)
    y = _lanes(c, r, selection, theme, y)
    if r.block[1] > 1 or r.block[2] > 1:
        y = _block_shape(c, r, selection, theme, y)
    y = _quantization(c, r, selection, theme, y)
    y = _legend(c, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background,
                    title="gpuviz launch explorer",
                    description=f"{r.blocks} blocks, {r.threads_launched} threads, "
                                f"{r.valid_threads} valid; selected block {r.selected_block}, "
                                f"warp {r.selected_warp}: active lanes {list(r.active_lanes)}")


def _dims(v: tuple[int, int, int]) -> str:
    trimmed = list(v)
    while len(trimmed) > 1 and trimmed[-1] == 1:
        trimmed.pop()
    return "(" + ", ".join(f"{x:,}" for x in trimmed) + ")"


def _heading(c: Canvas, theme: Theme, x: float, y: float, text: str, note: str = "") -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.4
    c.text(x, y, text, theme.text_pt, theme.foreground, bold=True)
    if note:
        c.text(x, y + em * 1.15, note, theme.small_pt, theme.muted)
        y += em * 1.15
    return y + em * 0.6


def _grid_and_sms(c: Canvas, r: LaunchResult, selection: frozenset[str], theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    top = _heading(c, theme, MARGIN, y, "Blocks, coloured by dispatch wave",
                   f"{r.waves} wave{'s' if r.waves != 1 else ''} of {r.slots_per_wave} slots "
                   "(an illustration, not a CUDA scheduling guarantee)")
    left_w = 100.0
    bottom = top
    full = r._block_valid == r.threads_per_block
    if r.blocks <= DENSE_BLOCKS:
        per_row = min(r.blocks, 16)
        cell = min(6.0, left_w / per_row)
        rows = -(-r.blocks // per_row)
        show_text = cell >= 5.0
        for b in range(r.blocks):
            x0 = MARGIN + (b % per_row) * cell
            y0 = top + (b // per_row) * cell
            wave = b // r.slots_per_wave
            key = f"block:{b}"
            with c.group(key):
                frac = r._block_valid[b] / r.threads_per_block
                c.rect(x0, y0, cell - 0.6, cell - 0.6, theme.fill("masked"))
                if frac > 0:
                    fill = Style(fill=theme.category(wave), stroke=None)
                    c.rect(x0, y0, (cell - 0.6) * frac, cell - 0.6, fill)
                c.rect(x0, y0, cell - 0.6, cell - 0.6, Style(stroke=theme.outline,
                                                              stroke_width=theme.thin_mm))
                if show_text:
                    c.text(x0 + (cell - 0.6) / 2, y0 + (cell - 0.6) / 2, str(b), theme.small_pt,
                           theme.ink_on(theme.category(wave)) if frac > 0.5 else theme.foreground,
                           anchor="middle", baseline="middle")
            if b == r.selected_block or key in selection:
                c.rect(x0 - 0.3, y0 - 0.3, cell, cell, theme.highlight())
        bottom = top + rows * cell
    else:
        cols = int(np.ceil(np.sqrt(r.blocks * 2)))
        rows = -(-r.blocks // cols)
        wave = np.arange(r.blocks) // r.slots_per_wave
        rgb = np.zeros((rows * cols, 3), dtype=np.uint8)
        palette = np.array([_rgb(theme.category(i)) for i in range(8)], dtype=np.uint8)
        rgb[: r.blocks] = palette[wave % 8]
        rgb[: r.blocks][~full] = _rgb(theme.color("masked"))
        rgb[r.blocks:] = _rgb(theme.background)
        h = min(32.0, left_w * rows / cols)
        c.image(MARGIN, top, left_w, h, rgb.reshape(rows, cols, 3), key="blocks")
        c.text(MARGIN, top + h + em, f"{r.blocks:,} blocks, one pixel each (grey: partly masked)",
               theme.small_pt, theme.muted)
        bottom = top + h + em
    # synthetic SMs, showing the selected block's wave
    sx = MARGIN + left_w + 6
    n_sm, n_slots = r.sm_count, r.slots_per_sm
    c.text(sx, top - em * 0.3, f"wave {r.selected_block_wave} on {n_sm} synthetic SMs",
           theme.small_pt, theme.muted)
    small = theme.small_pt * PT_TO_MM
    slot_w, slot_h = max(9.0, text_width("B00", theme.small_pt) + 2), max(5.0, small * 1.7)
    label_w = text_width("SM00", theme.small_pt) + 1.5
    first = r.selected_block_wave * r.slots_per_wave
    sy = top + em * 0.4
    for s in range(min(n_sm, 8)):
        with c.group(f"sm:{s}"):
            c.rect(sx, sy, label_w + n_slots * (slot_w + 1), slot_h + 2, Style(
                fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm), radius=0.8)
            c.text(sx + 1, sy + 1 + slot_h / 2, f"SM{s}", theme.small_pt, theme.foreground,
                   baseline="middle")
            for k in range(n_slots):
                b = first + k * n_sm + s
                bx = sx + label_w + k * (slot_w + 1)
                if b < r.blocks:
                    c.rect(bx, sy + 1, slot_w, slot_h, Style(fill=theme.category(r.selected_block_wave)),
                           key=f"block:{b}")
                    c.text(bx + slot_w / 2, sy + 1 + slot_h / 2, f"B{b}", theme.small_pt,
                           theme.ink_on(theme.category(r.selected_block_wave)), anchor="middle", baseline="middle")
                    if b == r.selected_block:
                        c.rect(bx, sy + 1, slot_w, slot_h, theme.highlight())
                else:
                    c.rect(bx, sy + 1, slot_w, slot_h, theme.fill("absent"))
                    c.text(bx + slot_w / 2, sy + 1 + slot_h / 2, "idle", theme.small_pt, theme.muted,
                           anchor="middle", baseline="middle")
        sy += slot_h + 3
    if n_sm > 8:
        c.text(sx, sy + em * 0.5, f"… {n_sm - 8} more SMs", theme.small_pt, theme.muted)
        sy += em
    return max(bottom, sy)


def _warps(c: Canvas, r: LaunchResult, selection: frozenset[str], theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    b = r.selected_block
    top = _heading(c, theme, MARGIN, y, f"Block {b} {_dims(r.selected_block_idx)}: "
                   f"{r.warps_per_block} warps, {r.selected_block_valid} of {r.threads_per_block} "
                   "threads valid")
    n = r.warps_per_block
    shown = min(n, 32)
    w = min(20.0, (WIDTH - 2 * MARGIN) / shown)
    for i in range(shown):
        x0 = MARGIN + i * w
        key = f"warp:{b},{i}"
        valid = r.warp_valid_lanes[i]
        lanes_in_warp = min(r.warp_size, r.threads_per_block - i * r.warp_size)
        with c.group(key):
            c.rect(x0, top, w - 1, 6, theme.fill("masked"))
            if valid:
                c.rect(x0, top, (w - 1) * valid / r.warp_size, 6, Style(fill=theme.color("valid")))
            c.rect(x0, top, w - 1, 6, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
            if w >= 9:
                c.text(x0 + (w - 1) / 2, top + 3, f"warp {i}", theme.small_pt,
                       theme.ink_on("valid") if valid > r.warp_size / 2 else theme.foreground,
                       anchor="middle", baseline="middle")
                c.text(x0 + (w - 1) / 2, top + 6 + em, f"{valid}/{lanes_in_warp} valid",
                       theme.small_pt, theme.muted, anchor="middle")
        if i == r.selected_warp or key in selection:
            c.rect(x0 - 0.3, top - 0.3, w - 0.4, 6.6, theme.highlight())
    if n > shown:
        c.text(MARGIN, top + 6 + em * 2.2, f"showing 32 of {n} warps", theme.small_pt, theme.muted)
    return top + 6 + em * 1.6


def _lanes(c: Canvas, r: LaunchResult, selection: frozenset[str], theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    active = len(r.active_lanes)
    top = _heading(c, theme, MARGIN, y,
                   f"Warp {r.selected_warp} of block {r.selected_block}: {active} lanes valid, "
                   f"{r.warp_size - active} masked",
                   "lane · linear thread id (x fastest) · global index (– when masked)")
    per_row = 16
    cell = (WIDTH - 2 * MARGIN) / per_row
    small = theme.small_pt * PT_TO_MM
    ch = max(9.5, small * 3.6)
    for lane in r.lanes:
        row, col = divmod(lane.lane, per_row)
        x0 = MARGIN + col * cell
        y0 = top + row * (ch + 2)
        key = f"lane:{lane.lane}"
        role = "valid" if lane.valid else ("masked" if lane.exists else "absent")
        with c.group(key):
            c.rect(x0, y0, cell - 0.5, ch, theme.fill(role))
            ink = theme.ink_on(role)
            c.text(x0 + (cell - 0.5) / 2, y0 + ch * 0.22, str(lane.lane), theme.small_pt, ink,
                   anchor="middle", baseline="middle", bold=True)
            c.text(x0 + (cell - 0.5) / 2, y0 + ch * 0.5, str(lane.tid), theme.small_pt, ink,
                   anchor="middle", baseline="middle", font="mono")
            gi = "–" if lane.global_index is None else _short(lane.global_index)
            c.text(x0 + (cell - 0.5) / 2, y0 + ch * 0.78, gi, theme.small_pt, ink,
                   anchor="middle", baseline="middle", font="mono")
        if key in selection:
            c.rect(x0 - 0.3, y0 - 0.3, cell + 0.1, ch + 0.6, theme.highlight())
    rows = -(-r.warp_size // per_row)
    return top + rows * (ch + 2) + em * 0.2


def _short(v: int) -> str:
    if v < 10_000:
        return str(v)
    if v < 1_000_000:
        return f"{v / 1000:.0f}k"
    return f"{v / 1e6:.1f}M"


def _block_shape(c: Canvas, r: LaunchResult, selection: frozenset[str], theme: Theme, y: float) -> float:
    bx, by, bz = r.block
    top = _heading(c, theme, MARGIN, y, f"Block {_dims(r.block)} drawn in 2-D, coloured by warp",
                   "consecutive linear ids (x fastest) form a warp, whatever the drawing")
    rows = by * bz
    cell = min(4.0, (WIDTH - 2 * MARGIN) / bx, 40.0 / rows)
    tids = np.arange(bx * rows)
    warp = tids // r.warp_size
    palette = [theme.category(i) for i in range(8)]
    xywh = np.column_stack([MARGIN + (tids % bx) * cell, top + (tids // bx) * cell,
                            np.full(len(tids), cell * 0.9), np.full(len(tids), cell * 0.9)])
    for w in range(int(warp.max()) + 1):
        sel = warp == w
        style = Style(fill=palette[w % 8], stroke=theme.accent if w == r.selected_warp else None,
                      stroke_width=theme.line_mm if w == r.selected_warp else 0)
        c.rects(xywh[sel], style, keys=[f"warp:{r.selected_block},{w}"] * int(sel.sum()))
    # threads outside the problem extent keep their lanes but are masked
    b = r.selected_block_idx
    gx = b[0] * bx + tids % bx
    gy = b[1] * by + (tids // bx) % by
    gz = b[2] * bz + tids // (bx * by)
    masked = (gx >= r.extent[0]) | (gy >= r.extent[1]) | (gz >= r.extent[2])
    if masked.any():
        c.rects(xywh[masked], theme.fill("masked", outline=False).with_opacity(0.75))
        c.text(MARGIN + bx * cell + 3, top + 3, f"{int(masked.sum())} of {len(tids)} threads "
               "masked (outside the extent)", theme.small_pt, theme.muted)
    return top + rows * cell


def _quantization(c: Canvas, r: LaunchResult, selection: frozenset[str], theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    pct = 100 * r.tile_valid / r.tile_slots
    top = _heading(c, theme, MARGIN, y, "Tile quantization and wave quantization")
    line = theme.small_pt * PT_TO_MM * 1.35
    c.text(MARGIN, top + em * 0.5, f"{r.matrix[0]:,} × {r.matrix[1]:,} output in {r.tile[0]} × "
           f"{r.tile[1]} tiles: {r.tiles_m} × {r.tiles_n} = {r.tiles:,} tiles", theme.small_pt,
           theme.foreground)
    c.text(MARGIN, top + em * 0.5 + line, f"{r.tile_slots:,} output slots · {r.tile_valid:,} valid "
           f"({pct:.1f}%)", theme.small_pt, theme.foreground)
    box = 30.0
    gy = top + em * 0.5 + line * 3.4
    tm, tn = r.tiles_m, r.tiles_n
    cw, chh = box / tn, box / tm
    # draw tiles (at most 32 × 32 tiles; beyond, the grid is only outlined)
    if tm * tn <= 1024:
        xywh = [(MARGIN + j * cw, gy + i * chh, cw, chh) for i in range(tm) for j in range(tn)]
        keys = [f"tile:{i},{j}" for i in range(tm) for j in range(tn)]
        c.rects(xywh, theme.fill("masked"), keys=keys)
    else:
        c.rect(MARGIN, gy, box, box, theme.fill("masked"))
    # valid region: the matrix occupies m/M_slots of the tiled rows and n/N_slots of the columns
    vm = box * r.matrix[0] / (tm * r.tile[0])
    vn = box * r.matrix[1] / (tn * r.tile[1])
    c.rect(MARGIN, gy, vn, vm, Style(fill=theme.color("valid")))
    c.rect(MARGIN, gy, box, box, Style(stroke=theme.foreground, stroke_width=theme.line_mm))
    for i in range(1, min(tm, 64)):
        c.line(MARGIN, gy + i * chh, MARGIN + box, gy + i * chh, theme.stroke("outline", theme.thin_mm))
    for j in range(1, min(tn, 64)):
        c.line(MARGIN + j * cw, gy, MARGIN + j * cw, gy + box, theme.stroke("outline", theme.thin_mm))
    c.rect(MARGIN + box + 2, gy + em * 0.2, 3, 2, Style(fill=theme.color("valid")))
    c.text(MARGIN + box + 6, gy + em * 0.2 + 1.8, "valid outputs", theme.small_pt, theme.foreground)
    c.rect(MARGIN + box + 2, gy + em * 0.2 + line * 1.5, 3, 2, theme.fill("masked"))
    c.text(MARGIN + box + 6, gy + em * 0.2 + line * 1.5 + 1.8, "masked slots", theme.small_pt,
           theme.foreground)
    # waves
    wx = MARGIN + box + 10 + text_width("valid outputs", theme.small_pt)
    c.text(wx, gy - line * 0.8, f"{r.tiles:,} tiles on {r.tile_slots_per_wave} slots "
           f"→ {r.wave_count} wave{'s' if r.wave_count != 1 else ''}, last wave "
           f"{100 * r.last_wave_fill:.0f}% full", theme.small_pt, theme.foreground)
    bar_w = WIDTH - MARGIN - wx
    shown = min(r.wave_count, 12)
    seg = bar_w / shown
    for k in range(shown):
        wave_no = k if k < shown - 1 or shown == r.wave_count else r.wave_count - 1
        fill = 1.0 if wave_no < r.wave_count - 1 else r.last_wave_fill
        with c.group(f"wave:{wave_no}"):
            c.rect(wx + k * seg, gy, seg - 1, 6, theme.fill("masked"))
            c.rect(wx + k * seg, gy, (seg - 1) * fill, 6, Style(fill=theme.color("valid")))
            c.rect(wx + k * seg, gy, seg - 1, 6, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
            c.text(wx + k * seg + (seg - 1) / 2, gy + 6 + em, f"wave {wave_no}", theme.small_pt,
                   theme.muted, anchor="middle")
    c.text(wx, gy + 6 + em * 2.6, "Neither effect predicts elapsed time without",
           theme.small_pt, theme.muted)
    c.text(wx, gy + 6 + em * 2.6 + line, "assumptions about block duration.", theme.small_pt,
           theme.muted)
    return gy + box


def _legend(c: Canvas, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    y += em * 1.6
    x = MARGIN
    for role, label in (("valid", "valid thread"), ("masked", "masked by the bounds guard"),
                        ("absent", "lane past the end of the block")):
        c.rect(x, y - 2.2, 3, 2.6, theme.fill(role))
        c.text(x + 4, y, label, theme.small_pt, theme.foreground)
        x += 4 + text_width(label, theme.small_pt) + 4
    c.rect(x, y - 2.4, 3, 3, theme.highlight())
    c.text(x + 4, y, "selected", theme.small_pt, theme.foreground)
    return y + em * 0.5


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
