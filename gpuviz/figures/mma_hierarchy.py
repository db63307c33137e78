"""The tensor-core figure's ``hierarchy`` part: block tile → warp tiles → m16n8 tiles, and what
the accumulators cost in registers and resident blocks."""

from __future__ import annotations

from dataclasses import replace

from gpuviz import keys
from gpuviz.figures.display import Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    Target,
    format_number,
    format_percent,
    receipt_block,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.mma_cells import heading, register_style, tagged
from gpuviz.figures.theme import Theme
from gpuviz.models.mma import MmaResult


def hierarchy(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target) -> list[Block]:
    h = r.hierarchy
    pt = theme.small_pt
    c = BlockCanvas()
    side = min(60.0, width * 0.42)
    scale = side / max(h.block_m, h.block_n)
    bw, bh = h.block_n * scale, h.block_m * scale
    wm, wn = h.block_m // h.warp_m, h.block_n // h.warp_n
    sel = set(keys.of_kind(selection, "tile", 2))
    top = cap_height(pt) + 1.0
    c.text(0.0, cap_height(pt), f"block tile {h.block_m} × {h.block_n}", pt, theme.muted)
    c.rect(0.0, top, bw, bh, Style(fill=theme.surface, stroke=theme.foreground,
                                  stroke_width=theme.line_mm))
    tw, th = h.warp_n * scale, h.warp_m * scale
    for i in range(wm):
        for j in range(wn):
            # a warp's tile in its own tint, unhatched: warp 0's m16n8 tile lines are drawn on
            # it, and a print hatch ran through them (the tiles stand apart by place)
            style = replace(register_style(theme, (i * wn + j) % 8), hatch=None,
                            hatch_color=None)
            c.rect(j * tw + 0.3, top + i * th + 0.3, tw - 0.6, th - 0.6, style,
                   key=keys.key("tile", i, j))
            if (i, j) in sel:
                c.rect(j * tw + 0.3, top + i * th + 0.3, tw - 0.6, th - 0.6, theme.highlight())
    # warp 0's m16n8 tiles
    mt, nt = h.warp_m // 16, h.warp_n // 8
    if mt * nt <= 256:
        segs = [(j * 8 * scale, top, j * 8 * scale, top + th) for j in range(1, nt)]
        segs += [(0.0, top + i * 16 * scale, tw, top + i * 16 * scale) for i in range(1, mt)]
        c.segments(segs, Style(stroke=theme.foreground, stroke_width=theme.thin_mm))
    label = f"warp 0: {h.warp_m} × {h.warp_n} = {mt} × {nt} m16n8 tiles"
    c.text(0.0, top + bh + cap_height(pt) + 1.0, label, pt, theme.foreground)
    drawing = c.block(max(bw, text_width(label, pt)), top + bh + cap_height(pt) + 1.0
                      + descent(pt), "hierarchy-tiles")
    rows: list[str | tuple[str, str]] = [
        ("warps", f"{h.warps} ({wm} × {wn}), {h.threads_per_block} threads"),
        ("accumulators", f"{h.mma_tiles} tiles × 4 = {h.accumulator_registers} "
                         f"({format_percent(h.accumulator_share)})"),
        ("A and B", f"{h.fragment_registers} registers (one k16 step)"),
        ("other (estimate)", f"{h.other_registers} registers"),
        ("total", f"{h.registers_per_thread} registers per thread"),
        ("blocks per SM", f"{h.blocks_per_sm} ({h.warps_per_sm} warps), limited by "
         f"{h.limiter.replace('_', ' ')}"),
    ]
    receipt = receipt_block(rows, theme, width)
    note = text_block(f"Blocks per SM by the occupancy model's rule for {h.arch}: the register "
                      "file allows " + format_number(h.register_limit) + " block"
                      f"{'s' if h.register_limit != 1 else ''} of this size.", theme, width,
                      color=theme.muted, name="hierarchy-note")
    title = (f"Hierarchy: {h.block_m} × {h.block_n} block → {h.warp_m} × {h.warp_n} warp "
             f"tiles → m16n8 tiles: {h.accumulator_registers} accumulator registers per thread")
    return tagged("hierarchy", heading(title, theme, width, "hierarchy-title"), drawing,
                   receipt, None, note)

