"""The tensor-core figure's warpgroup parts: ``warpgroup`` (the four warps and the rows of D
each owns), ``descriptor`` (the matrix descriptor and the core matrices it selects) and
``completion`` (fence, commit, wait, and whether D may be read)."""

from __future__ import annotations

from dataclasses import replace

from gpuviz import keys
from gpuviz.figures.display import PT_TO_MM, Style, Text, selected_numbers, text_box, walk
from gpuviz.figures.layout import (
    GAP,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    legend_block,
    place,
    receipt_block,
    text_block,
    wrap,
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
    register_style,
    tagged,
)
from gpuviz.figures.swizzle import column_fill
from gpuviz.figures.theme import Theme, gray_of_lightness
from gpuviz.models.mma import MmaResult

SAFE_READ_L = 40.0  # CIE L* of a safe read of D in print: 18 below the darkest register tint


def warpgroup(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target, merged: MergedBad | None = None) -> list[Block]:
    g = r.warpgroup
    pt = theme.small_pt
    floor = min(target.min_pt, pt)
    c = BlockCanvas()
    warps = max(g.block_warps, g.first_warp + 4)
    groups = (warps + 3) // 4
    # the warps in lines of whole warpgroups, as many a line as keep a warp's number inside
    # its box (32 warps in a column: 2.3 mm boxes, "10" ran over its edges and "warpgroup 5"
    # past the figure's)
    least = text_width(str(warps - 1), pt) + PAD + 0.6  # at the type size: never shrunk
    per_line = max(1, min(groups, int((width - 2.0) // (4 * least))))
    box = min(7.0, (width - 2.0) / (warps if per_line == groups else 4 * per_line))
    row_h = max(3.4, cap_height(pt) * 2.0)  # just taller than a warp's label
    chosen = set(g.warps)
    sel = selected_numbers(selection, "warp")
    # wgmma on warps that are not a warpgroup is undefined: a broken contract, the one
    # vermillion of the figure's other bad states
    ok, bad = theme.fill("valid"), theme.fill("warn")
    box_h = row_h + (0.0 if g.valid else edge_room(bad))  # a bad warp's pattern in a band
    line_h = cap_height(pt) + 2.0 + box_h + 1.5
    for grp in range(groups):
        line, at = divmod(grp, per_line)
        x0, y = 4 * at * box, cap_height(pt) + line * line_h
        span = min(4, warps - 4 * grp) * box  # the group's warps drawn (the last may be short)
        # one spelling for every group (the first that fits four boxes); a short last group's
        # label runs on over the boxes it lacks, never past the figure's edge
        for label in (f"warpgroup {grp}", f"group {grp}", str(grp)):
            half = text_width(label, pt) / 2
            centre = min(x0 + 2 * box, width - half - 0.2)
            if half * 2 <= 4 * box - 0.5 and centre - half >= x0 + 0.1:
                break
        c.text(centre, y, label, pt, theme.muted, anchor="middle")
        c.line(x0 + 0.5, y + 1.0, x0 + span - 0.5, y + 1.0, theme.stroke("muted", theme.line_mm))
    for w in range(warps):
        line, at = divmod(w // 4, per_line)
        x, top = (4 * at + w % 4) * box, cap_height(pt) + line * line_h + 2.0
        exists = w < g.block_warps
        style = (ok if g.valid else bad) if w in chosen else (
            theme.fill("absent") if not exists else Style(fill=theme.surface,
                                                          stroke=theme.outline,
                                                          stroke_width=theme.thin_mm))
        text_h = edge_banded(c, x + PAD / 2, top, box - PAD, box_h, style,
                             key=keys.key("warp", w))
        cell_text(c, x + PAD / 2, top, box - PAD, text_h, str(w), pt,
                   theme.ink_on(style.fill or theme.surface), floor, keys.key("warp", w))
        if w in sel:
            c.rect(x + PAD / 2, top, box - PAD, box_h, theme.highlight())
    top = cap_height(pt) + ((groups - 1) // per_line) * line_h + 2.0
    y = top + box_h + 2.0
    # D: four bands of 16 rows, one per warp of the warpgroup, N columns
    rows_x = 1.0 + text_width(f"warp {max(g.warps)}", pt) + 1.5 * pt * PT_TO_MM
    band_w = min(width, max(rows_x + text_width("rows 48–63", pt) + 1.0, g.n * 0.45))
    band_h = row_h
    c.text(0.0, y + cap_height(pt), f"D (64 × {g.n}): rows by warp", pt, theme.muted)
    y += cap_height(pt) + 1.2
    for i, w in enumerate(g.warps):
        yy = y + i * band_h
        style = register_style(theme, i)
        c.rect(0.0, yy + PAD / 2, band_w, band_h - PAD, style, key=keys.key("warp", w))
        # the warp and its rows in two columns, as a table's row
        for x, text in ((1.0, f"warp {w}"), (rows_x, f"rows {16 * i}–{16 * i + 15}")):
            c.text(x, yy + band_h / 2, text, pt, theme.ink_on(style.fill or theme.surface),
                   baseline="middle", key=keys.key("warp", w),
                   knockout=style.fill if style.hatch else None)
    y += 4 * band_h
    drawing = c.block(max(min(warps, 4 * per_line) * box, band_w,
                          text_width(f"D (64 × {g.n}): rows by warp", pt)),
                      y, "warpgroup-warps")
    rows = receipt_block([
        ("warps", f"{g.warps[0]}–{g.warps[-1]} of {g.block_warps}"),
        ("warpgroup", "valid" if g.valid else "not a warpgroup"),
        ("accumulators", f"{g.d_registers_per_thread} f32 registers per thread"),
        ("A from", "registers (4 per thread)" if g.a_source == "registers" else
         "shared memory, through a descriptor"),
    ], theme, width)
    # why, as a sentence: set in the text face, which takes fewer lines than the receipt's
    why = text_block(g.reason[:1].upper() + g.reason[1:] + ".", theme, width, name="reason")
    receipt = rows
    legend = legend_block([
        LegendEntry("the four warps: an aligned warpgroup", ok)] if g.valid else
        bad_entries("warpgroup", bad, merged), theme, width, notes=[
        "Lane l of each warp holds d_i at row l / 4 (+ 8 when i mod 4 ≥ 2), column "
        "8·(i / 4) + 2·(l mod 4) + (i mod 2) of its 16 rows (the m16n8 C fragment, N / 8 "
        "times)."])
    title = (f"Warpgroup: wgmma.mma_async m64n{g.n}k16 on warps {g.warps[0]}–{g.warps[-1]} — "
             + ("an aligned warpgroup" if g.valid else "not a warpgroup"))
    return tagged("warpgroup", heading(title, theme, width, "warpgroup-title"), drawing,
                   receipt, legend, why)


# --------------------------------------------------------------------------------------------
# descriptor


def descriptor(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
                target: Target) -> list[Block]:
    g = r.warpgroup
    pt = theme.small_pt
    floor = min(target.min_pt, pt)
    c = BlockCanvas()
    groups = min(2, max(1, g.n // 8))
    cell_w = max(text_width("000000", pt, "mono") + 1.0, 9.0)
    row_h = max(3.0, cap_height(pt, "mono") * 1.6)
    label_w = text_width("n 15", pt) + 1.5
    y = cap_height(pt)
    c.text(label_w, y, "k 0–7", pt, theme.muted)
    c.text(label_w + cell_w + 1.0, y, "k 8–15", pt, theme.muted)
    top = y + 1.2
    for cm in g.b_core_matrices:
        if cm.group >= groups:
            continue
        x = label_w + cm.chunk * (cell_w + 1.0)
        for i, addr in enumerate(cm.row_addresses):
            row = 8 * cm.group + i
            yy = top + row * row_h + cm.group * 1.0
            # the row's 16-byte bank group, tinted as the swizzle panel tints a 16-byte chunk
            # column of a 128-byte row (the same thing): eight tints apart in print gray too
            fill = column_fill(theme, (addr // 16) % 8)
            style = Style(fill=fill, stroke=theme.outline, stroke_width=theme.thin_mm)
            key = keys.key("core", row, cm.chunk)
            c.rect(x + PAD / 2, yy + PAD / 2, cell_w - PAD, row_h - PAD, style, key=key)
            cell_text(c, x + PAD / 2, yy + PAD / 2, cell_w - PAD, row_h - PAD, str(addr), pt,
                       theme.ink_on(style.fill or theme.surface), floor, key,
                       knockout=style.fill if style.hatch else None)
            if key in selection:
                theme.select(c, x + PAD / 2, yy + PAD / 2, cell_w - PAD, row_h - PAD)
            if cm.chunk == 0:
                c.text(label_w - 1.0, yy + row_h / 2, f"n {row}", pt, theme.muted,
                       anchor="end", baseline="middle")
        c.rect(x, top + 8 * cm.group * row_h + cm.group * 1.0, cell_w, 8 * row_h,
               Style(stroke=theme.foreground, stroke_width=theme.line_mm))
    height = top + groups * 8 * row_h + groups * 1.0
    cores_w = label_w + 2 * cell_w + 1.0
    d = g.descriptor
    rows: list[str | tuple[str, str]] = [
        ("descriptor", g.descriptor_hex),
        ("start address", f"{g.start_address} B (bits 0–13: {(d & 0x3FFF)})"),
        ("leading offset", f"{g.leading_byte_offset} B (bits 16–29: {(d >> 16) & 0x3FFF})"
         + (" — unused with a swizzle" if g.swizzle != "none" else "")),
        ("stride offset", f"{g.stride_byte_offset} B (bits 32–45: {(d >> 32) & 0x3FFF})"),
        ("swizzle", f"{g.swizzle} (bits 62–63: {d >> 62})"),
    ]
    room = width - cores_w - GAP
    receipt: Block | None
    fields = receipt_block(rows, theme, room) if room >= 40.0 else None
    # the fields beside the core matrices, wrapped to the room there, where their longest
    # unbreakable value (the descriptor in hexadecimal) fits it: past it, it ran into the note
    if fields is not None and _reach(fields) <= room + 1e-6:
        place(c, fields, cores_w + GAP, top)
        drawing = c.block(cores_w + GAP + fields.width, max(height, top + fields.height),
                          "descriptor-cores")
        receipt = None
    else:
        drawing = c.block(cores_w, height, "descriptor-cores")
        # with the drawing, never beside it as a side block: the side is built at another
        # width, where the fields may already stand beside the core matrices
        receipt = replace(receipt_block(rows, theme, width), name="descriptor-fields")
    apart = all(len({(a // 16) % 8 for a in cm.row_addresses}) == len(cm.row_addresses)
                for cm in g.b_core_matrices)
    legend = legend_block([], theme, width, notes=[
        "Each cell is one 16-byte row of a core matrix (8 rows × 16 bytes) of B at K step 0, "
        "printing its shared-memory byte address, tinted by its 16-byte bank group in 128 "
        "bytes: " + ("eight tints, no bank conflict." if apart else
                     "rows of one core matrix in one tint share a bank group (a conflict).")])
    title = (f"Descriptor: B's core matrices through a {g.swizzle} descriptor (first "
             f"{8 * groups} rows of N)")
    return tagged("descriptor", heading(title, theme, width, "descriptor-title"), drawing,
                   receipt, legend)


def _reach(block: Block) -> float:
    """How far right ``block``'s texts reach (a receipt's block is no wider than its width,
    though a value that cannot wrap runs past it)."""
    return max((text_box(t)[2] for t in walk(block.items) if isinstance(t, Text)), default=0.0)


# --------------------------------------------------------------------------------------------
# completion


def completion(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
                target: Target, merged: MergedBad | None = None) -> list[Block]:
    steps = r.warpgroup.async_steps
    pt = theme.small_pt
    c = BlockCanvas()
    row_h = max(3.6, cap_height(pt) * 2.0)
    event_w = max(text_width(s.event, pt, "mono") for s in steps) + 2.0
    state_w = max(text_width("pending 0, 1, 2, 3", pt) + 2.0, 24.0)
    beside = width - event_w - state_w >= 30.0
    note_x = event_w + state_w if beside else 2.0
    note_w = width - note_x - 1.0
    sel = selected_numbers(selection, "step")
    y = 0.0
    ok, bad = theme.fill("ok"), theme.fill("conflict")
    if theme.hatches:  # print: a safe read's green at its own gray, darker than the register
        # tints (L* 58–96) it shares the figure's legend with (it printed 6 L* from register 2)
        ok = replace(ok, fill=theme.at_gray(theme.color("ok"), gray_of_lightness(SAFE_READ_L)))
    step = pt * PT_TO_MM * 1.3
    for i, s in enumerate(steps):
        hazard = s.event == "read D" and not s.d_readable
        safe = s.event == "read D" and s.d_readable
        lines = wrap(s.note, pt, note_w)
        style = bad if hazard else ok if safe else Style(fill=theme.surface,
                                                         stroke=theme.outline,
                                                         stroke_width=theme.thin_mm)
        rh = row_h + edge_room(style)  # a hazard's pattern in a band under its event
        h = max(rh, len(lines) * step + 1.0) if beside else rh
        edge_banded(c, 0.0, y, event_w - 0.5, rh - PAD, style, key=keys.key("step", i))
        c.text(1.0, y + row_h / 2, s.event, pt, theme.ink_on(style.fill or theme.surface),
               baseline="middle", font="mono", key=keys.key("step", i))
        state = (f"pending {', '.join(map(str, s.pending))}" if s.pending else "none pending")
        c.text(event_w + 1.0, y + row_h / 2, state, pt, theme.foreground, baseline="middle")
        if i in sel:
            c.rect(0.0, y, event_w - 0.5, rh - PAD, theme.highlight())
        if beside:  # the note's first line on the row's baseline: a table's third column
            for k, line in enumerate(lines):
                c.text(note_x, y + row_h / 2 + k * step, line, pt, theme.muted,
                       baseline="middle")
        else:
            ny = y + rh + cap_height(pt) + 0.3
            for k, line in enumerate(lines):
                c.text(note_x, ny + k * step, line, pt, theme.muted)
        y += h if beside else rh + len(lines) * step + 0.8
    drawing = c.block(min(width, note_x + note_w), y, "completion-steps")
    readable = steps[-1].d_readable
    entries = ([LegendEntry("D read after its groups completed", ok)] if readable
               else bad_entries("completion", bad, merged))
    legend = legend_block(entries, theme, width) if entries else None
    wait = steps[-2].event
    title = f"Completion: fence, commit, {wait}, then read D"
    return tagged("completion", heading(title, theme, width, "completion-title"), drawing,
                   None, legend)
