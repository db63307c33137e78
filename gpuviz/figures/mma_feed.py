"""The tensor-core figure's ``feed`` part: ``ldmatrix``/``stmatrix`` per 8 × 8 matrix, the lanes
giving row addresses and the 16-byte bank groups those rows hit: the wavefronts."""

from __future__ import annotations

from gpuviz import keys
from gpuviz.figures.display import Style, selected_numbers
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    format_bytes,
    format_number,
    legend_block,
    receipt_block,
)
from gpuviz.figures.metrics import cap_height, text_width
from gpuviz.figures.mma_cells import (
    PAD,
    MergedBad,
    bad_entries,
    cell_text,
    edge_banded,
    edge_room,
    heading,
    tagged,
)
from gpuviz.figures.theme import Theme
from gpuviz.models.mma import FeedResult, MmaResult


def feed_conflicts(fr: FeedResult) -> bool:
    """Whether some bank group serves several rows of one matrix (the feed draws a conflict)."""
    return any(sum(1 for row in fr.rows if row.matrix == j and (row.address // 16) % 8 == g) > 1
               for j in range(fr.matrices) for g in range(8))


def feed(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
         target: Target, merged: MergedBad | None = None) -> list[Block]:
    fr = r.feed
    floor = min(target.min_pt, theme.small_pt)
    pt = theme.small_pt
    layout = {"row-major": "row-major", "padded": "padded rows",
              "swizzled": f"{fr.swizzle} swizzle"}[fr.layout]
    title = (f"Feed: {fr.operand.upper()} loaded with {fr.op}.x{fr.matrices}"
             f"{'.trans' if fr.trans else ''} from a {layout} tile ({fr.row_bytes}-byte rows) — "
             f"{format_number(fr.wavefronts)} wavefront{'s' if fr.wavefronts != 1 else ''}")
    c = BlockCanvas()
    label_w = text_width("matrix 3", pt) + 1.5
    lane_w = min(max(text_width("00000", pt, "mono") + 0.8, 7.0), (width - label_w) / 8)
    chunk_w = min(max(text_width("8", pt, "mono") + 1.6, 4.6),
                  (width - label_w - text_width("8 wavefronts", pt) - 2.0) / 8)
    row_h = max(3.0, cap_height(pt, "mono") * 1.6)
    beside = label_w + 8 * lane_w + 3.0 + max(8 * chunk_w + 3.0 + text_width("8 wavefronts", pt),
                                              text_width("rows per bank group g", pt)) <= width
    sel_lanes = selected_numbers(selection, "lane")
    sel_chunks = set(keys.of_kind(selection, "chunk", 2))
    y = cap_height(pt)
    c.text(label_w, y, "lane and row address", pt, theme.muted)
    chunk_x = label_w + 8 * lane_w + 3.0 if beside else label_w
    if beside:
        c.text(chunk_x, y, "rows per bank group g", pt, theme.muted)
    y += 1.5
    used = theme.fill("owned")
    conflict = theme.fill("conflict")
    for j in range(fr.matrices):
        rows = [row for row in fr.rows if row.matrix == j]
        top = y
        c.text(0.0, top + row_h, f"matrix {j}", pt, theme.foreground, baseline="middle")
        with c.group(name=f"matrix-{j}"):
            for i, row in enumerate(rows):
                x = label_w + i * lane_w
                c.rect(x + PAD / 2, top, lane_w - PAD, row_h, theme.fill("valid"),
                       key=keys.key("lane", row.lane))
                cell_text(c, x + PAD / 2, top, lane_w - PAD, row_h, str(row.lane), pt,
                           theme.ink_on("valid"), floor, keys.key("lane", row.lane))
                c.rect(x + PAD / 2, top + row_h, lane_w - PAD, row_h,
                       Style(fill=theme.surface, stroke=theme.outline,
                             stroke_width=theme.thin_mm), key=keys.key("lane", row.lane))
                cell_text(c, x + PAD / 2, top + row_h, lane_w - PAD, row_h, str(row.address),
                           pt, theme.foreground, floor, keys.key("lane", row.lane))
                if row.lane in sel_lanes:
                    c.rect(x + PAD / 2, top, lane_w - PAD, 2 * row_h, theme.highlight())
            counts = [0] * 8
            for row in rows:
                counts[(row.address // 16) % 8] += 1
            ctop = top if beside else top + 2 * row_h + 1.0
            # a conflict's hatch keeps to a band along its cell's bottom edge, the count above
            # it (mma_cells.edge_banded): the row leaves it room where the theme hatches, but
            # not on a slide, whose height is fixed (there bands.clear_glyphs keeps the hatch
            # beside the count)
            room = edge_room(conflict) if not target.paged else 0.0
            ch = row_h + room
            if not beside:  # under the matrix: how many of its rows each bank group g serves
                c.text(0.0, ctop + ch / 2, "rows", pt, theme.muted, baseline="middle")
                if j == fr.matrices - 1:
                    c.text(0.0, ctop + ch + cap_height(pt) + 0.6, "group g", pt,
                           theme.muted)
            for g in range(8):
                style = conflict if counts[g] > 1 else used if counts[g] else Style(
                    fill=theme.surface, stroke=theme.grid, stroke_width=theme.thin_mm)
                x = chunk_x + g * chunk_w
                if room:
                    edge_banded(c, x + PAD / 2, ctop, chunk_w - PAD, ch, style,
                                key=keys.key("chunk", j, g))
                else:
                    c.rect(x + PAD / 2, ctop, chunk_w - PAD, ch, style,
                           key=keys.key("chunk", j, g))
                cell_text(c, x + PAD / 2, ctop, chunk_w - PAD, ch - room, str(counts[g]), pt,
                           theme.ink_on(style.fill or theme.surface), floor, keys.key("chunk", j, g),
                           knockout=style.fill if style.hatch and not room else None)
                if (j, g) in sel_chunks:
                    theme.select(c, x + PAD / 2, ctop, chunk_w - PAD, ch)
                if j == fr.matrices - 1 or beside:
                    c.text(x + chunk_w / 2, ctop + ch + cap_height(pt) + 0.6, str(g), pt,
                           theme.muted, anchor="middle", font="mono")
            n = fr.matrix_wavefronts[j]
            c.text(chunk_x + 8 * chunk_w + 2.0, ctop + ch / 2,
                   f"{n} wavefront{'s' if n != 1 else ''}", pt, theme.foreground,
                   baseline="middle")
        y = (ctop + ch + 1.6) if not beside else \
            top + 2 * row_h + 2.0 + (ch - row_h)
    grid_w = max(label_w + 8 * lane_w, text_width("lane and row address", pt) + label_w,
                 chunk_x + 8 * chunk_w + 2.0 + text_width("8 wavefronts", pt),
                 chunk_x + text_width("rows per bank group g", pt) if beside else 0.0)
    drawing = c.block(min(width, grid_w), y, "feed-rows")
    # (each matrix's count stands beside it, so the receipt gives the sum)
    receipt = receipt_block([
        ("wavefronts", f"{format_number(fr.wavefronts)} (at best {fr.ideal_wavefronts}: one "
                       "per matrix)"),
        ("row pitch", format_bytes(fr.row_bytes)),
    ], theme, width)
    served = [sum(1 for row in fr.rows if row.matrix == j and (row.address // 16) % 8 == g)
              for j in range(fr.matrices) for g in range(8)]
    entries = [LegendEntry("bank group read by one row", used)] if 1 in served else []
    if any(n > 1 for n in served):
        entries += bad_entries("feed", conflict, merged)
    legend = legend_block(entries, theme, width, notes=[
        "Bank group g: banks 4g … 4g + 3, bytes 16g … 16g + 15 of every 128. A wavefront "
        "serves one 8 × 8 matrix whose eight 16-byte rows fall in eight distinct groups; rows "
        "sharing a group are served in turn."])
    return tagged("feed", heading(title, theme, width, "feed-title"), drawing, receipt, legend)

