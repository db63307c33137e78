"""The launch figure's block drawn in its shape (a multi-dimensional block's threads, coloured
by warp, x fastest): a piece of the warps part, beside the block's warp cells."""

from __future__ import annotations

import itertools

from gpuviz import keys
from gpuviz.figures.display import Style
from gpuviz.figures.launch_quantization import centre_shift, count, dims, heading
from gpuviz.figures.layout import (
    GAP,
    Block,
    BlockCanvas,
    LegendEntry,
    format_number,
    legend_block,
    place,
    text_block,
)
from gpuviz.figures.lint_distinct import MIN_DELTA_E, delta_e
from gpuviz.figures.metrics import ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.launch import LaunchResult


def block_shape(r: LaunchResult, theme: Theme, width: float,
                selection: frozenset[str] = frozenset(), *, noted: bool = True) -> Block:
    """The block in its shape, headed; ``noted``: with the heading's note (chrome drawn: without
    it the caption says what the note does)."""
    c = BlockCanvas()
    bx, by, bz = r.block
    top, head_w = heading(c, theme, width, f"Block {dims(r.block)} drawn in 2-D, coloured "
                           "by warp",
                   "consecutive linear ids (x fastest) form a warp, whatever the drawing; "
                   f"block {r.selected_block}'s threads outside the problem are masked"
                   if noted else "")
    rows = by * bz
    warps = -(-bx * rows // r.warp_size)
    legend_w = min(width * 0.4, 40.0) if warps <= 14 else 0.0
    cell = min(4.0, (width - legend_w - GAP) / bx, 40.0 / rows)
    import numpy as np  # a multi-dimensional block only (the default 1-D launch paints without)

    tids = np.arange(bx * rows)
    warp = tids // r.warp_size
    b = r.selected_block_idx
    gx = b[0] * bx + tids % bx
    gy = b[1] * by + (tids // bx) % by
    gz = b[2] * bz + tids // (bx * by)
    masked = (gx >= r.extent[0]) | (gy >= r.extent[1]) | (gz >= r.extent[2])
    xywh = np.column_stack([(tids % bx) * cell, top + (tids // bx) * cell,
                            np.full(len(tids), cell * 0.9), np.full(len(tids), cell * 0.9)])
    # the palette without the colours the figure's legend gives a meaning ("valid", the busy
    # slots' "compute", the "detail" of the block drawn in detail: a warp in one of them read
    # as that meaning), in turn; past its end, the same hues lighter (then lighter again), so
    # no two warps of a block share a swatch
    roles = [theme.color(role) for role in ("valid", "compute", "detail")] \
        + [theme.fill("masked").fill or theme.surface]

    def apart(col: str) -> bool:
        return all(col != role and delta_e(col, role) >= MIN_DELTA_E for role in roles)

    base = [col for col in theme.palette if apart(col)]
    levels = 3  # lighter steps from 1 to 0.2, as many as the warps need
    while True:
        colours = [m for k in range(levels) for col in base
                   if apart(m := theme.mix(col, 1.0 - 0.8 * k / (levels - 1)))]
        if len(colours) > warp.max() or levels >= 8:
            break
        levels += 1
    by_colour: dict[str, list[int]] = {}
    for w in range(int(warp.max()) + 1):
        colour = colours[w % len(colours)]
        by_colour.setdefault(colour, []).append(w)
        sel = (warp == w) & ~masked
        if sel.any():
            c.rects(xywh[sel], Style(fill=colour),
                    keys=[keys.key("warp", r.selected_block, w)] * int(sel.sum()))
        chosen = keys.key("warp", r.selected_block, w) in selection
        if w == r.selected_warp or chosen:
            ends = xywh[warp == w]
            x0, y0 = ends[:, 0].min(), ends[:, 1].min()
            x1, y1 = (ends[:, 0] + ends[:, 2]).max(), (ends[:, 1] + ends[:, 3]).max()
            if (warp == w).sum() % bx == 0 or (warp == w).sum() < bx:
                box = (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4)
                if chosen:  # a selection: the double outline
                    theme.select(c, *box)
                else:  # the warp the lanes part draws: the muted ink of "shown in detail"
                    c.rect(*box, Style(stroke=theme.muted, stroke_width=theme.thick_mm))
    entries = [LegendEntry("warp " + ", ".join(str(w) for w in ws), Style(fill=colour))
               for colour, ws in by_colour.items()]
    if masked.any():
        c.rects(xywh[masked], theme.fill("masked"),
                keys=[keys.key("warp", r.selected_block, int(w)) for w in warp[masked]])
    right = bx * cell
    bottom = top + rows * cell
    # name each warp beside its rows where the names fit one above another (they then carry
    # the meaning, not the hue: a grayscale print keeps them apart); else a colour legend
    pt = theme.small_pt
    centres = [float((xywh[warp == w, 1].min() + xywh[warp == w, 1].max() + cell * 0.9) / 2)
               for w in range(warps)]
    fits = all(b - a >= ink_height(pt) + 0.4 for a, b in itertools.pairwise(centres))
    label_w = text_width(f"warp {warps - 1}", pt) + 1.5
    if fits and right + label_w <= width:
        for w, yc in enumerate(centres):
            c.text(right + 1.5, yc - centre_shift(pt, "sans"), f"warp {w}", pt,
                   theme.foreground, baseline="middle", key=keys.key("warp", r.selected_block, w))
        right += label_w
        legend_w = min(width - right - GAP, 40.0) if masked.any() else 0.0
        entries = []
    if entries and theme.hatches:
        # a grayscale print cannot keep a handful of hues apart: where one warp ends and the
        # next begins is drawn in the ink instead (the cells' edges, never over a glyph) and
        # the warps are named by their order, not by a swatch each
        _warp_edges(c, theme, warp, bx, top, cell)
        entries = [LegendEntry(f"warps 0–{warps - 1} in turn from the top left, x fastest; "
                               "the ink line: where one warp ends", Style(
                                   stroke=theme.foreground, stroke_width=theme.thick_mm),
                               kind="line")]
    if legend_w > 0:
        leg = legend_block(entries, theme, legend_w,
                           notes=[f"{format_number(int(masked.sum()))} of "
                                  f"{format_number(len(tids))} threads masked"]
                           if masked.any() or entries else [])
        place(c, leg, right + GAP, top)
        right += GAP + leg.width
        bottom = max(bottom, top + leg.height)
    elif entries or masked.any():  # warps named beside their rows and none masked: no note
        note = text_block(f"{count(warps, 'warp')}, coloured in turn from the palette; "
                          f"{format_number(int(masked.sum()))} of {format_number(len(tids))} "
                          "threads masked", theme, width, color=theme.muted)
        place(c, note, 0.0, bottom + 1.0)
        bottom += 1.0 + note.height
    return c.block(min(width, max(right, head_w)), bottom, "block-shape")


def _warp_edges(c: BlockCanvas, theme: Theme, warp, bx: int, top: float, cell: float) -> None:
    """The edges between consecutive warps of a block drawn ``bx`` threads a row: a line in the
    cells' gap where a thread's left or upper neighbour is of another warp."""
    segs = []
    for t in range(len(warp)):
        row, col = divmod(t, bx)
        x, y = col * cell, top + row * cell
        if col and warp[t - 1] != warp[t]:
            segs.append((x - 0.05 * cell, y - 0.05 * cell, x - 0.05 * cell, y + 0.95 * cell))
        if row and warp[t - bx] != warp[t]:
            segs.append((x - 0.05 * cell, y - 0.05 * cell, x + 0.95 * cell, y - 0.05 * cell))
    if segs:
        c.segments(segs, Style(stroke=theme.foreground,
                               stroke_width=min(theme.thick_mm, 0.3 * cell)))
