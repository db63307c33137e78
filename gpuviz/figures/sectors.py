"""Figure of the sector map: one warp's lanes connected to the memory they read.

Top to bottom: the warp's lanes, active or masked (``warp_size`` of them: 32, or for an AMD
wavefront 64); a connection from each active lane to the element it reads; every touched 128-byte
line drawn whole, its four 32-byte sectors side by side (touched sectors with used elements
filled and fetched-but-unused elements empty; sectors the access does not touch marked as not
fetched); a receipt (sectors, lines, requested and fetched bytes, efficiency) and a plot of
sectors per request for element strides 1…32.

Lines that touch in memory are drawn touching; a gap between two lines means untouched lines lie
between them. Keys: ``lane:<l>`` (l = 0 … warp_size − 1: lane box and its connection),
``sector:<s>`` (s = address // 32), ``line:<n>`` (n = address // 128), ``plot`` (the sweep).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from gpuviz import keys
from gpuviz.figures.display import (
    PT_TO_MM,
    Circle,
    Figure,
    Group,
    Row,
    Style,
    Text,
    selected_numbers,
    walk,
)
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Target,
    as_part,
    compose,
    counted,
    format_bytes,
    format_number,
    format_percent,
    legend_block,
    place,
    receipt_block,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.plot import Mark, Series, line_plot, mark_style, with_selection
from gpuviz.figures.theme import Theme
from gpuviz.models.sectors import LINE_BYTES, SECTOR_BYTES, SectorsResult

NATURAL_WIDTH = 172.0
SECTORS_PER_LINE = LINE_BYTES // SECTOR_BYTES
LINK_H = 20.0
SECTOR_H = 6.0
SECTOR_TICK = 1.2  # mm a sector boundary reaches above and below the memory row
LINE_GAP = 3.0  # between two lines with untouched memory between them
NUMBER_EVERY = 8  # lanes numbered when each lane's number does not fit its cell
MIN_MARK = 0.9  # mm: an element read is drawn at least this wide


def line_layout(r: SectorsResult, width: float) -> tuple[dict[int, float], float]:
    """Left edge (mm) of each touched 128-byte line, packed left to right: touching where the
    lines touch in memory, a gap where untouched lines lie between; and the sector width."""
    lines = r.lines
    if not lines:
        return {}, 0.0
    gaps = [0.0] + [0.0 if b == a + 1 else LINE_GAP for a, b in itertools.pairwise(lines)]
    sw = (width - sum(gaps)) / (len(lines) * SECTORS_PER_LINE)  # the lines fill the width
    out: dict[int, float] = {}
    x = 0.0
    for line, gap in zip(lines, gaps, strict=True):
        x += gap
        out[line] = x
        x += SECTORS_PER_LINE * sw
    return out, sw


MAP = ("map",)  # the parts that draw lanes, elements, sectors and lines


def build(result: SectorsResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    floor = min(target.min_pt, theme.small_pt)
    wide = r.warp_size > 32
    who = f"one {r.warp_size}-lane wavefront's" if wide else "one warp's"
    n_active = len(r.active_lanes)
    source = ""
    if r.follows_launch:
        bx, by, bz = r.block_idx
        block = f"{bx}" if by == bz == 0 else f"({bx}, {by}, {bz})"
        source = f" ({'wavefront' if wide else 'warp'} {r.warp} of block {block}, from launch)"
    subtitle = (f"{format_number(n_active)} active lane{'s' if n_active != 1 else ''}{source} · "
                f"{r.pattern} · base {format_bytes(r.base_offset)} · touched 128-byte lines are "
                "drawn whole")

    state = {"readers": False}

    def body(width: float) -> list[Block]:
        blocks = []
        if r.error:
            blocks.append(as_part("map", text_block(r.error, theme, width,
                                                    color=theme.color("warn"), bold=True,
                                                    name="error")))
        drawn = _map(r, selection, theme, width, floor)
        state["readers"] = any(isinstance(i, Text) and (i.key or "").startswith(keys.prefix("reader"))
                               for i in walk(drawn.items))
        blocks.append(as_part("map", drawn))
        receipt = receipt_block(_receipt_rows(r), theme, min(width, 56.0), title="Receipt")
        note = text_block("Sector requests of this access, not measured DRAM traffic or time.",
                          theme, min(width, 56.0), color=theme.muted)
        c = BlockCanvas()
        place(c, receipt, 0.0, 0.0)
        place(c, note, 0.0, receipt.height + 1.5)
        blocks.append(c.block(max(receipt.width, note.width), receipt.height + 1.5 + note.height,
                              "receipt", parts=("receipt",), role="drawing"))
        if n_active:  # with no lane active every stride requests nothing: no sweep to draw
            blocks.append(as_part("sweep", _sweep(r, selection, theme, min(width, 100.0))))
        return blocks

    def side(width: float) -> list[Block]:
        entries = [LegendEntry("active lane", theme.fill("valid"), parts=MAP)]
        if n_active < r.warp_size:
            entries.append(LegendEntry("masked lane", theme.fill("masked"), parts=MAP))
        entries += [LegendEntry("element read by a lane", _used(theme), parts=MAP),
                    LegendEntry("fetched, unused", _unused(theme), parts=MAP),
                    LegendEntry("sector not fetched", _not_fetched(theme), parts=MAP),
                    LegendEntry("128-byte line (heavy outline)", _line_style(theme), "line",
                                parts=MAP)]
        gap = any(b != a + 1 for a, b in itertools.pairwise(r.lines))
        notes: list[Note] = [("Under each sector its index (byte address / 32), under each "
                              "line its index (byte address / 128).", MAP)]
        if _knot(r):
            drawn = [str(lane) for lane in range(r.warp_size) if lane in r.active_lanes
                     and (lane % NUMBER_EVERY == 0 or lane == r.warp_size - 1)]
            listed = ", ".join(drawn[:-1]) + " and " + drawn[-1] if len(drawn) > 1 else drawn[0]
            notes.append((f"Every line would cross every other: only lanes {listed} are drawn "
                          "to their elements" + ("; under each element read, the lane that "
                                                 "reads it (n+: lane n and others)."
                                                 if state["readers"] else "."), MAP))
        if gap:
            notes.append(("A gap between two lines: untouched lines lie between them (not "
                          "drawn); lines without a gap are neighbours in memory.", MAP))
        return [legend_block(entries, theme, width, notes=notes, target=target)]

    return compose(
        target, theme,
        title=f"Sectors: {who} load of {r.element_bytes}-byte elements touches "
              f"{format_number(r.sector_count)} sector{'s' if r.sector_count != 1 else ''}",
        subtitle=subtitle, body=body, side=side, natural_width=_natural(r, theme),
        figure_title="gpuviz sector map",
        description=f"The global load of {counted(n_active, 'active lane')} reading "
                    f"{r.element_bytes}-byte elements ({r.pattern}, base "
                    f"{format_bytes(r.base_offset)}), which touches "
                    f"{counted(r.sector_count, 'sector')} of 32 bytes in "
                    f"{counted(r.line_count, 'line')} of 128 bytes: "
                    f"{format_bytes(r.requested_bytes)} requested, "
                    f"{format_bytes(r.fetched_bytes)} fetched.")


def _natural(r: SectorsResult, theme: Theme) -> float:
    """The natural width: wide enough for every lane's number (sideways for 64 lanes)."""
    pt = theme.small_pt
    need = (text_width(f"lanes 0–{r.warp_size - 1}", pt) + 1.5
            + r.warp_size * (ink_height(pt, "mono") + 0.35))
    return max(NATURAL_WIDTH, need + 0.5) / max(1.0, theme.text_pt / 8.0)


def _used(theme: Theme) -> Style:
    return theme.fill("read")


def _unused(theme: Theme) -> Style:
    return theme.fill("unused")


def _not_fetched(theme: Theme) -> Style:
    return Style(fill=theme.surface, stroke=theme.muted, stroke_width=theme.thin_mm,
                 dash=(0.6, 0.5))


def _line_style(theme: Theme) -> Style:
    return Style(stroke=theme.foreground, stroke_width=theme.line_mm * 1.6)


def _receipt_rows(r: SectorsResult) -> list[tuple[str, str]]:
    return [
        ("sectors (32 B)", format_number(r.sector_count)),
        ("lines (128 B)", format_number(r.line_count)),
        ("requested", format_bytes(r.requested_bytes)),
        ("fetched", format_bytes(r.fetched_bytes)),
        ("efficiency", format_percent(r.efficiency) if r.fetched_bytes else "–"),
    ]


def _centre_shift(size: float, font: str = "mono") -> float:
    return 0.36 * size * PT_TO_MM + (descent(size, font) - cap_height(size, font)) / 2  # type: ignore[arg-type]


def _map(r: SectorsResult, selection: frozenset[str], theme: Theme, width: float,
         floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    fg, muted = theme.foreground, theme.muted
    n = r.warp_size
    active = set(r.active_lanes)
    sel_lanes = selected_numbers(selection, "lane")
    sel_sectors = selected_numbers(selection, "sector")
    sel_lines = selected_numbers(selection, "line")
    addr = r.addresses

    # lanes: numbers upright if they fit, else sideways, else every NUMBER_EVERY-th above
    label = f"lanes 0–{n - 1}" if n > 32 else "lanes"
    x0 = max(text_width(label, pt), text_width("memory", pt)) + 1.5  # the memory's gutter

    def fit(lx: float) -> tuple[float, bool, bool, float]:
        lane_w = (width - lx) / n
        up = text_width(str(n - 1), pt, "mono") + 0.4 <= lane_w
        # sideways digits keep clear of the cell's outline on both sides
        room = lane_w - 0.2 - 2 * theme.thin_mm
        side_pt = max(floor, min(pt, room / ink_height(1.0, "mono")))
        sideways = not up and ink_height(side_pt, "mono") <= room + 1e-9
        return lane_w, up, sideways, side_pt

    lx = x0
    lane_w, up, sideways, side_pt = fit(lx)
    if not up:  # narrow: the lanes take the whole width, their label goes above them
        lx = 0.0
        lane_w, up, sideways, side_pt = fit(lx)
    ruler = not up and not sideways
    top = 0.0
    if lx == 0.0:
        c.text(0.0, cap_height(pt), label, pt, muted)
        top = ink_height(pt) + 1.0
    if ruler:
        top += ink_height(pt) + 1.0
    lane_h = 5.0 if up or ruler else text_width(str(n - 1), side_pt, "mono") + 1.6
    if lx > 0.0:
        c.text(0.0, top + lane_h / 2, label, pt, muted, baseline="middle")
    boxes_a: list[Row] = []
    boxes_m: list[Row] = []
    keys_a: list[str] = []
    keys_m: list[str] = []
    for lane in range(n):
        box = (lx + lane * lane_w + 0.1, top, lane_w - 0.2, lane_h)
        (boxes_a if lane in active else boxes_m).append(box)
        (keys_a if lane in active else keys_m).append(keys.key("lane", lane))
    masked_style = theme.fill("masked")
    with c.group(name="lanes"):
        c.rects(boxes_a, theme.fill("valid"), keys_a)
        c.rects(boxes_m, masked_style, keys_m)
        for lane in range(n):
            on = lane in active
            ink = theme.ink_on("valid") if on else (fg if masked_style.hatch else
                                                     theme.ink_on("masked"))
            knock = None if on or not masked_style.hatch else theme.background
            cx = lx + (lane + 0.5) * lane_w
            if up:
                c.text(cx, top + lane_h / 2 + _shift_up(pt), str(lane), pt, ink, anchor="middle",
                       baseline="middle", font="mono", key=keys.key("lane", lane), knockout=knock)
            elif sideways:
                c.text(cx + _shift_up(side_pt), top + lane_h / 2, str(lane), side_pt, ink,
                       anchor="middle", baseline="middle", font="mono", rotate=-90,
                       key=keys.key("lane", lane), knockout=knock)
            elif lane % NUMBER_EVERY == 0 or lane == n - 1:
                c.text(cx, top - 1.0, str(lane), pt, fg, anchor="middle", font="mono",
                       key=keys.key("lane", lane))
        for lane in sorted(sel_lanes):
            if lane < n:
                theme.select(c, lx + lane * lane_w + 0.1, top, lane_w - 0.2, lane_h)

    # memory: each touched line whole, four sectors
    mem_top = top + lane_h + LINK_H
    layout, sw = line_layout(r, width - x0)
    if r.lines:  # the last line's index, centred under a line narrower than it, stays on the
        # page: the lines give up that overhang (twice: a narrower line overhangs more)
        half = text_width(str(r.lines[-1]), theme.small_pt, "mono") / 2
        for _ in range(2):
            over = half - SECTORS_PER_LINE * sw / 2
            if over <= 0:
                break
            layout, sw = line_layout(r, width - x0 - over - 0.1)
    per_sector = max(1, SECTOR_BYTES // r.element_bytes)
    cell_w = sw / per_sector

    def sector_x(s: int) -> float:
        line = s * SECTOR_BYTES // LINE_BYTES
        return x0 + layout[line] + (s % SECTORS_PER_LINE) * sw

    def element_x(a: int) -> float:
        return sector_x(a // SECTOR_BYTES) + ((a % SECTOR_BYTES) // r.element_bytes + 0.5) * cell_w

    segs, seg_keys, hi = [], [], []
    for lane in sorted(active):
        a = int(addr[lane])
        seg = (lx + (lane + 0.5) * lane_w, top + lane_h, element_x(a), mem_top)
        segs.append(seg)
        seg_keys.append(keys.key("lane", lane))
        if lane in sel_lanes or a // SECTOR_BYTES in sel_sectors:
            hi.append(seg)
    # A knot of crossings (reversed lanes: every pair crosses) cannot be followed: only the
    # lanes numbered on the ruler (0, 8, 16, 24 and the last) are drawn to their elements, and
    # under each element read stands the lane that reads it.
    knot = _knot(r)
    if knot:
        guides = [i for i, lane in enumerate(sorted(active))
                  if lane % NUMBER_EVERY == 0 or lane == n - 1]
        segs, seg_keys = [segs[i] for i in guides], [seg_keys[i] for i in guides]
    link = Style(stroke=theme.outline, stroke_width=theme.line_mm)
    with c.group(name="connections"):
        c.segments(segs, link, seg_keys)
        if hi:
            c.segments(hi, theme.highlight())

    used = {(int(addr[lane]) // SECTOR_BYTES, (int(addr[lane]) % SECTOR_BYTES) // r.element_bytes)
            for lane in active}
    touched = set(r.sectors)
    all_sectors = [line * SECTORS_PER_LINE + k for line in r.lines
                   for k in range(SECTORS_PER_LINE)]
    used_cells: list[Row] = []
    unused_cells: list[Row] = []
    cold: list[Row] = []
    for s in all_sectors:
        if s not in touched:
            cold.append((sector_x(s), mem_top, sw, SECTOR_H))
            continue
        for k in range(per_sector):
            cell = (sector_x(s) + k * cell_w, mem_top, cell_w, SECTOR_H)
            if (s, k) in used and cell_w < MIN_MARK:
                # too narrow to see (a 1-2 px sliver in print): widened about its element,
                # inside its sector
                x = min(max(cell[0] + cell_w / 2 - MIN_MARK / 2, sector_x(s)),
                        sector_x(s) + sw - MIN_MARK)
                cell = (x, mem_top, MIN_MARK, SECTOR_H)
            (used_cells if (s, k) in used else unused_cells).append(cell)
    c.text(0.0, mem_top + SECTOR_H / 2, "memory", pt, muted, baseline="middle")
    with c.group(name="memory"):
        if cold:
            c.rects(cold, _not_fetched(theme))
        outlined = cell_w >= 1.0  # narrower element cells would be all outline
        c.rects(unused_cells, _unused(theme) if outlined else theme.fill("unused", outline=False))
        c.rects(used_cells, _used(theme) if outlined else theme.fill("read", outline=False))
        c.rects([(sector_x(s), mem_top, sw, SECTOR_H) for s in r.sectors],
                Style(stroke=theme.foreground, stroke_width=theme.line_mm),
                [keys.key("sector", s) for s in r.sectors])
        # Sector boundaries reach past the bar (element dividers do not), so "4 sectors" can
        # be counted in the memory row itself.
        ticks = sorted({x for s in all_sectors for x in (sector_x(s), sector_x(s) + sw)})
        c.segments([(x, mem_top - SECTOR_TICK, x, mem_top) for x in ticks]
                   + [(x, mem_top + SECTOR_H, x, mem_top + SECTOR_H + SECTOR_TICK)
                      for x in ticks], Style(stroke=theme.foreground, stroke_width=theme.line_mm))
        line_w = SECTORS_PER_LINE * sw
        for line in r.lines:
            c.rect(x0 + layout[line], mem_top, line_w, SECTOR_H, _line_style(theme),
                   key=keys.key("line", line))
        reader_h = 0.0
        if knot:  # each element read: the lane that reads it, in a row under the memory
            readers: dict[tuple[int, int], list[int]] = {}
            for lane in sorted(active):
                a = int(addr[lane])
                readers.setdefault((a // SECTOR_BYTES, (a % SECTOR_BYTES) // r.element_bytes),
                                   []).append(lane)
            labels = {k: str(v[0]) if len(v) == 1 else f"{v[0]}+" for k, v in readers.items()}
            room = cell_w - 0.25
            widest = max(text_width(t, 1.0, "mono") for t in labels.values())
            upright = min(pt, room / widest)
            turned = min(pt, room / ink_height(1.0, "mono"))
            turn = upright < floor <= turned
            size = turned if turn else upright
            if size >= floor:
                row_top = mem_top + SECTOR_H + SECTOR_TICK + 0.6
                reader_h = (widest * size if turn else ink_height(size, "mono")) + 0.8
                c.text(0.0, row_top + reader_h / 2, "lane", pt, muted, baseline="middle")
                for (sec, k), text in sorted(labels.items()):
                    cx = sector_x(sec) + (k + 0.5) * cell_w
                    cy = row_top + (reader_h - 0.8) / 2
                    if turn:
                        c.text(cx + _shift_up(size), cy, text, size, fg, anchor="middle",
                               baseline="middle", font="mono", rotate=-90,
                               key=keys.key("reader", sec, k))
                    else:
                        c.text(cx, cy + _shift_up(size), text, size, fg, anchor="middle",
                               baseline="middle", font="mono", key=keys.key("reader", sec, k))
        lit = {s for s in r.sectors if s in sel_sectors}
        lit |= {int(addr[lane]) // SECTOR_BYTES for lane in sel_lanes if lane in active}
        for s in sorted(lit):
            theme.select(c, sector_x(s), mem_top, sw, SECTOR_H)
        read = {(int(addr[lane]) // SECTOR_BYTES, (int(addr[lane]) % SECTOR_BYTES)
                 // r.element_bytes) for lane in sel_lanes & active}
        read |= {(s, k) for s, k in keys.of_kind(selection, "reader", 2) if s in touched
                 and 0 <= k < per_sector}  # an element's reader label, pointed at
        for s, k in sorted(read):
            theme.select(c, sector_x(s) + k * cell_w, mem_top, cell_w, SECTOR_H)
        for line in sorted(sel_lines & set(r.lines)):
            theme.select(c, x0 + layout[line] - 0.5, mem_top - 0.5, line_w + 1.0, SECTOR_H + 1.0)

    # labels: sector indices (touched ones, where they fit), then line indices
    y = mem_top + SECTOR_H + SECTOR_TICK + 0.6 + reader_h
    row = ink_height(pt) + 0.8
    sector_labels = [s for s in r.sectors if text_width(str(s), pt, "mono") + 0.3 <= sw]
    labelled = len(sector_labels) == len(r.sectors)
    if r.sectors:
        if labelled:
            c.text(0.0, y + cap_height(pt), "sector", pt, muted)
            for s in r.sectors:
                c.text(sector_x(s) + sw / 2, y + cap_height(pt), str(s), pt, fg,
                       anchor="middle", font="mono", key=keys.key("sector", s))
            y += row
        c.text(0.0, y + cap_height(pt), "line", pt, muted)
        # the indices in as many staggered rows as give each its room (two rows of 32
        # three-digit indices in a column ran into each other)
        widest = max(text_width(str(line), pt, "mono") for line in r.lines) + 0.6
        rows = next((k for k in range(1, 4) if widest <= k * line_w), 4)
        for i, line in enumerate(r.lines):
            yy = y + row * (i % rows) + cap_height(pt)
            c.text(x0 + layout[line] + line_w / 2, yy, str(line), pt, fg, anchor="middle",
                   font="mono", key=keys.key("line", line))
        y += row * rows
        if not labelled:
            # the sectors too narrow for their index: the rule that numbers them, as a label
            note = text_block("sector = 4 × line + place (0–3 from the left)", theme,
                              width - x0, color=muted)
            place(c, note, x0, y + 0.4)
            y += 0.4 + note.height
    else:
        nothing = "no active lane: nothing is requested"
        if text_width(nothing, theme.text_pt) <= width - x0:
            c.text(x0 + (width - x0) / 2, mem_top + SECTOR_H / 2, nothing, theme.text_pt,
                   muted, anchor="middle", baseline="middle")
            y = mem_top + SECTOR_H
        else:  # narrower than the sentence: wrapped beside the row's label, not over it
            note = text_block(nothing, theme, width - x0, color=muted)
            place(c, note, x0, mem_top)
            y = mem_top + max(SECTOR_H, note.height)
    return c.block(width, y, "map")


def _knot(r: SectorsResult) -> bool:
    """Whether the lanes' connections would cross more often than there are lanes (lanes and
    memory are both drawn in increasing order, so two connections cross where a later lane
    reads a lower address)."""
    addresses = [int(r.addresses[lane]) for lane in sorted(r.active_lanes)]
    crossings = sum(1 for a, b in itertools.combinations(addresses, 2) if a > b)
    return crossings > len(addresses)


def _shift_up(size: float) -> float:
    """How far above a cell's centre a 'middle' baseline goes so mono digits' ink is centred."""
    return -_centre_shift(size)


def _sweep(r: SectorsResult, selection: frozenset[str], theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    c.text(0.0, cap_height(theme.text_pt), "Stride sweep: sectors per request", theme.text_pt,
           theme.foreground, bold=True)
    marks = []
    if r.stride is not None and 1 <= r.stride <= len(r.stride_sweep):
        marks.append(Mark(r.stride, r.stride_sweep[r.stride - 1],
                          f"stride {r.stride}: {r.stride_sweep[r.stride - 1]}"))
    top = cap_height(theme.text_pt) + 1.5
    height = 44.0
    y_top = max(4, *r.stride_sweep) * 1.25
    left, dtop, dw, dh = line_plot(
        c, 0.0, top, width, height,
        [Series("sectors", list(r.sweep_strides), list(r.stride_sweep), 0, markers=True)],
        theme, x_label="stride s (elements): lane i reads element s·i",
        y_label="sectors per request", y_range=(0, y_top), marks=marks, key="plot",
        legend=False)
    on_plateau = bool(marks) and marks[0].y >= len(r.active_lanes)
    c.replace_last(_mark_label_clear(c.last(), theme, width,  # type: ignore[arg-type]
                                     below=on_plateau))
    # the ceiling: a request touches at most one sector per active lane (an element of at most
    # 32 bytes lies in one sector), where the sweep levels off
    lanes = len(r.active_lanes)
    yy = dtop + dh * (1.0 - lanes / y_top)
    c.line(left, yy, left + dw, yy, theme.stroke("muted", theme.thin_mm, dash=(1.0, 0.8)))
    # above the ceiling, where no point of the sweep can be (under it, the plateau's markers
    # touched the label's capitals); a marked stride on the plateau has its label under it
    c.text(left + dw - 1.0, yy - 1.6 - descent(theme.small_pt),
           f"ceiling: {counted(lanes, 'active lane')}, one sector each", theme.small_pt,
           theme.muted, anchor="end", knockout=theme.background)
    return with_selection(c.block(width, top + height, "sweep"), selection, theme, "plot")


def _mark_label_clear(plot: Group, theme: Theme, width: float, below: bool = False) -> Group:
    """The plot with its marked point's label above the point (``below``: under it, for a point
    on the plateau, whose ceiling label is above), on the page side of it, over a knockout (the
    plot puts it right of the point, where it can cross the curve or leave the page)."""
    dots = [i for i in plot.items if isinstance(i, Circle) and i.style == mark_style(theme)]
    if not dots:
        return plot
    dot = dots[-1]
    items = list(plot.items)
    for k, item in enumerate(items):
        if isinstance(item, Text) and item.bold and item.text.startswith("stride "):
            em = item.size * PT_TO_MM
            right = dot.cx > width / 2
            items[k] = replace(item, x=dot.cx + (-em * 0.6 if right else em * 0.6),
                               y=dot.cy + em * 1.3 if below else dot.cy - em * 0.8,
                               anchor="end" if right else "start",
                               knockout=theme.background)
    return replace(plot, items=tuple(items))


__all__: Sequence[str] = ("build", "line_layout")
