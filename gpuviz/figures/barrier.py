"""Block barriers under one interleaving: a swimlane per thread, the shared tile, the hazards.

Time runs left to right in steps of the interleaving: each thread's row shows its writes (W),
neighbour reads (R) and barrier arrivals (B1, B2); a barrier's release is a vertical line through
every row. A timeline too long for the width is wrapped into bands of steps (never shrunk below
legible type). Reads that expose a hazard are marked and listed with the threads and the slot.
Below, the shared tile's slots at the current step, coloured by the tile whose value they hold.

Keys: ``thread:<t>`` (a swimlane), ``event:<i>`` (one operation), ``slot:<a>`` (a shared slot),
``hazard:<j>`` (a hazard line). Selection may carry ``frame:<n>``: the state after the first n
operations (absent: after all of them).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Literal

from gpuviz.figures.blocks import place
from gpuviz.figures.display import Anchor, Figure, Style
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Shortened,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    knock_out,
    legend_block,
    line_step,
    shortened_note,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.text_blocks import table_block
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.keys import frame_of, key
from gpuviz.models.barrier import BarrierResult

NATURAL_WIDTH = 170.0
MAX_CELL = 5.0
FUTURE_OPACITY = 0.25
MAX_HAZARD_LINES = 6
# on a slide, the timeline's bands take at most this many rows (a band's step numbers are one)
# of steps SLIDE_PLOT mm wide: a long interleaving of many threads draws a window of its bands
# (as many steps at any design width: a narrower one wraps them into more bands) and says which
# steps it shows
SLIDE_ROWS = 14
SLIDE_PLOT = 110.0
# palette entries for tiles 0–3: apart from the W and R colours, and from the arrivals' gray
# (entry 4, a gray, read as an arrival beside it on a slide and in the dark theme)
TILE_PALETTE = (2, 0, 5, 3)

GLYPH = {"write": "W", "read": "R", "arrive": "B", "return": "×", "finish": "F"}
STATE_TEXT = {"run": "running", "wait1": "waits at barrier 1", "wait2": "waits at barrier 2",
              "done": "finished", "returned": "returned early"}
EventRole = RoleName | Literal["arrive", "finish"]
ROLE: dict[str, EventRole] = {"write": "write", "read": "read", "arrive": "arrive", "finish": "finish",
        "return": "finish"}


def frame_count(result: BarrierResult) -> int:
    return len(result.events) + 1


def shown_count(result: BarrierResult, selection: frozenset[str]) -> int:
    """How many operations have run at the selection's frame (all of them without one)."""
    frame = frame_of(selection)
    return len(result.events) if frame is None else max(0, min(frame, len(result.events)))


def glyph(e, slots: bool = True) -> str:
    """The mark printed in an operation's cell: W3 (write slot 3), R0, B1 (arrive at barrier 1),
    × (returned early), F (finished). Without ``slots``, W and R alone (the slot follows from the
    thread: its own, and its neighbour's)."""
    g = GLYPH[e.op]
    if e.op == "arrive":
        g += str(e.barrier)
    elif e.op in ("write", "read") and slots:
        g += str(e.address)
    return g


def tile_style(theme: Theme, tile: int) -> Style:
    """A tint of the tile's palette colour, hatched where the theme tells categories by hatch
    too (in print the tints come out as grays near the W and R fills)."""
    color = theme.mix(theme.category(TILE_PALETTE[tile % len(TILE_PALETTE)]), 0.45)
    hatch = theme.category_hatch(tile % len(TILE_PALETTE))
    return Style(fill=color, stroke=theme.outline, stroke_width=theme.thin_mm, hatch=hatch,
                 hatch_color=theme.muted if hatch else None)


def hazard_style(theme: Theme) -> Style:
    """A hazard read: the conflict colour and a heavy outline (told apart without hue)."""
    return theme.fill("conflict").with_stroke(theme.foreground, theme.line_mm)


def cause_style(theme: Theme) -> Style:
    """The write behind a hazard: its write cell ringed in the hazard colour, dashed (told apart
    from the hazard read's solid ink outline in gray)."""
    return replace(theme.fill("write").with_stroke(theme.color("hazard"), theme.thick_mm),
                   dash=(0.6, 0.4))


def event_style(theme: Theme, role: EventRole) -> Style:
    """An operation's cell: a write or a read in its role's swatch; an arrival at a barrier and
    the end of a thread (finished, or returned early) as outlined cells of the ground."""
    if role == "arrive":  # in print a mid gray, below W's and R's grays
        fill = theme.at_gray(theme.grid, 0.48) if theme.hatches else theme.grid
        return Style(fill=fill, stroke=theme.foreground, stroke_width=theme.thin_mm)
    if role == "finish":
        return Style(fill=theme.background, stroke=theme.foreground, stroke_width=theme.line_mm,
                     dash=(0.6, 0.5))
    return theme.fill(role)


def hazard_writes(result: BarrierResult) -> dict[int, int]:
    """For each hazard with a writer, the write that caused it, as event index → hazard index:
    the writer's late write of the read's tile (read before write), or its write of a later tile
    to the slot before the read (overwrite)."""
    out: dict[int, int] = {}
    for j, h in enumerate(result.hazards):
        if len(h.threads) < 2:
            continue
        writer = h.threads[1]
        writes = [e for e in result.events if e.op == "write" and e.thread == writer
                  and e.address == h.address]
        if h.kind == "read_before_write":
            cause = [e for e in writes if e.tile == h.tile and e.index > h.event][:1]
        else:
            cause = [e for e in writes if e.tile > h.tile and e.index < h.event][-1:]
        for e in cause:
            out.setdefault(e.index, j)
    return out


def release_style(theme: Theme) -> Style:
    return theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5))


# --------------------------------------------------------------------------------------------
# Blocks


def timeline_block(result: BarrierResult, selection: frozenset[str], theme: Theme, width: float,
                   target: Target = NATURAL) -> Block:
    """The swimlanes, wrapped into bands of steps so that every cell keeps its mark legible."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = max(theme.small_pt, target.min_pt)
    events = result.events
    n = len(events)
    shown = shown_count(result, selection)
    frame = frame_of(selection)
    hazard_events = {h.event for h in result.hazards}
    causes = hazard_writes(result)

    column = target.kind == "column"  # a journal column
    label_pt = small if column else theme.text_pt
    label_w = max(text_width(f"thread {t}", label_pt) for t in range(result.threads)) + 2.0
    label_w = max(label_w, text_width("step", small) + 2.0)
    plot_w = max(10.0, width - label_w)

    def banding(slots: bool) -> tuple[float, int]:
        w = max((text_width(glyph(e, slots), small, "mono") for e in events
                 if e.op != "release"), default=1.0)
        # a journal column is short of height: cells closer to their marks' width (more steps
        # to a band, so fewer bands), rows just taller than the marks
        w += 0.6 if column else 0.9
        return w, max(1, math.ceil(n / max(1, int(plot_w // w))))

    min_cell, bands = banding(True)
    slots = True
    if bands > 2 and banding(False)[1] < bands:  # a long interleaving: W and R without slots
        (min_cell, bands), slots = banding(False), False
    per = max(1, math.ceil(n / bands))
    cell = min(max(MAX_CELL, min_cell), plot_w / per)
    pad = theme.spacing(target).row_pad  # a journal column: rows just taller than the marks
    row_h = ink_height(small, "mono") + pad if column else max(4.2, ink_height(small, "mono") + pad)
    row_gap = 0.4 if column else 0.8
    inset = 0.25 if column else 0.5  # a cell inside its row
    band_gap = 1.2 if column else 2.0
    head_h = line_step(small, 1.2)
    cursor_h = line_step(small, 1.3) + 1.0

    cursor_band = -1 if frame is None else min(shown // per, bands - 1)
    window = _window(result, bands, per, cursor_band, min_cell if target.gridded else None)

    def cell_xy(i: int, t: int, top: float) -> tuple[float, float]:
        return label_w + (i % per) * cell, top + head_h + t * (row_h + row_gap)

    y = 0.0
    band_tops: dict[int, float] = {}
    for b in window:
        top = y
        band_tops[b] = top
        lo, hi = b * per, min(n, (b + 1) * per)
        rows_top = top + head_h
        rows_bottom = rows_top + result.threads * (row_h + row_gap) - row_gap
        # Step numbers above the band: its first step and every tenth.
        c.text(0.0, top + cap_height(small), "step", small, muted)
        last_end = -1e9
        for i in range(lo, hi):
            if i != lo and (i + 1) % 10:
                continue
            label = format_number(i + 1)
            cx = label_w + (i - lo) * cell + cell / 2
            w = text_width(label, small)
            x0 = max(label_w, cx - w / 2)
            if x0 < last_end + 1.0 or x0 + w > width:
                continue
            c.text(x0, top + cap_height(small), label, small, muted)
            last_end = x0 + w
        for t in range(result.threads):
            ry = rows_top + t * (row_h + row_gap)
            with c.group(key("thread", t), name=f"thread {t}"):
                c.rect(label_w, ry, (hi - lo) * cell, row_h, Style(fill=theme.surface))
                c.text(0.0, ry + row_h / 2, f"thread {t}", label_pt, fg, baseline="middle")
        # Operations: one cell each; releases as a line through every row.
        by_style: dict[tuple[EventRole, bool], tuple[list, list]] = {}
        releases: dict[bool, tuple[list, list]] = {}
        with c.group(name="operations"):
            for e in events[lo:hi]:
                x, ry = cell_xy(e.index, max(e.thread, 0), top)
                future = e.index >= shown
                if e.op == "release":
                    seg, keys = releases.setdefault(future, ([], []))
                    seg.append((x + cell / 2, rows_top, x + cell / 2, rows_bottom))
                    keys.append(key("event", e.index))
                    continue
                if e.op not in ROLE:
                    continue
                role = "conflict" if e.index in hazard_events else ROLE[e.op]
                bucket = by_style.setdefault((role, future), ([], []))
                bucket[0].append((x + 0.15, ry + inset, cell - 0.3, row_h - 2 * inset))
                bucket[1].append(key("event", e.index))
            for (role, future), (xywh, keys) in sorted(by_style.items()):
                style = hazard_style(theme) if role == "conflict" else event_style(theme, role)
                c.rects(xywh, theme.faded(style, FUTURE_OPACITY) if future else style, keys)
            cause_cells = [(*cell_xy(e.index, e.thread, top), e) for e in events[lo:hi]
                           if e.index in causes]
            if cause_cells:
                c.rects([(x + 0.15, ry + inset, cell - 0.3, row_h - 2 * inset) for x, ry, e in cause_cells
                         if e.index < shown], cause_style(theme),
                        [key("hazard", causes[e.index]) for _, _, e in cause_cells
                         if e.index < shown])
            for future, (seg, keys) in sorted(releases.items()):
                style = release_style(theme)
                c.segments(seg, theme.faded(style, FUTURE_OPACITY) if future else style, keys)
            for e in events[lo:hi]:
                if e.op == "release":
                    continue
                x, ry = cell_xy(e.index, e.thread, top)
                future = e.index >= shown
                mark_role = "conflict" if e.index in hazard_events else ROLE.get(e.op)
                mark_style = None if mark_role is None else (
                    hazard_style(theme) if mark_role == "conflict"
                    else event_style(theme, mark_role))
                if mark_style is not None and future:
                    mark_style = theme.faded(mark_style, FUTURE_OPACITY)
                if future:
                    color = muted
                elif mark_style is not None and mark_style.fill:
                    color = theme.ink_on(mark_style.fill)
                else:
                    color = fg
                knock = None
                if mark_style is not None and mark_style.hatch:  # the mark sits on hatching
                    knock = mark_style.fill or theme.background
                c.text(x + cell / 2, ry + row_h / 2, glyph(e, slots), small, color,
                       anchor="middle", baseline="middle", font="mono", key=key("event", e.index),
                       knockout=knock)
        y = rows_bottom
        if b == cursor_band:
            xc = label_w + (shown - lo) * cell
            with c.group(name="cursor"):
                c.line(xc, rows_top - 0.4, xc, rows_bottom + 1.0,
                       theme.stroke("foreground", theme.line_mm))
                label = f"after {format_number(shown)} of {format_number(n)} operations"
                lw = text_width(label, small)
                anchor: Anchor = "start" if xc + 0.6 + lw <= width else "end"
                lx = xc + 0.6 if anchor == "start" else xc - 0.6
                c.text(lx, rows_bottom + 1.0 + cap_height(small), label, small, fg,
                       anchor=anchor)
            y = rows_bottom + cursor_h
        y += band_gap
    if len(window) < bands:  # a slide's window: which steps it draws, and of how many
        lo, hi = window.start * per + 1, min(n, window.stop * per)
        c.text(0.0, y + cap_height(small), f"steps {format_number(lo)}–{format_number(hi)} of "
               f"{format_number(n)} drawn", small, muted)
        y += line_step(small, 1.3) + band_gap

    # Selection outlines.
    for picked in sorted(selection):
        kind, _, value = picked.partition(":")
        if not value.isdigit():
            continue
        i = int(value)
        if kind == "thread" and i < result.threads:
            for b, top in band_tops.items():
                lo, hi = b * per, min(n, (b + 1) * per)
                theme.select(c, label_w, top + head_h + i * (row_h + row_gap),
                             (hi - lo) * cell, row_h, key=picked)
        elif kind == "slot" and i < result.threads:
            touching = [e for e in events if e.address == i and e.op in ("write", "read")
                        and e.index // per in band_tops]
            rects = []
            for e in touching:
                x, ry = cell_xy(e.index, e.thread, band_tops[e.index // per])
                rects.append((x - 0.35, ry + 0.1, cell + 0.7, row_h - 0.2))
            outer, inner = theme.selection()
            c.rects(rects, outer, [picked] * len(rects))
            c.rects(rects, inner)
        elif kind in ("event", "hazard"):
            if kind == "hazard":
                if i >= len(result.hazards):
                    continue
                i = result.hazards[i].event
            if i < n and events[i].thread >= 0 and events[i].op != "release" \
                    and i // per in band_tops:
                e = events[i]
                x, ry = cell_xy(e.index, e.thread, band_tops[e.index // per])
                # a ring just outside the cell: it shows on a hazard's own (accent-like) colour
                theme.select(c, x - 0.35, ry + 0.1, cell + 0.7, row_h - 0.2, key=picked)
    used = label_w + min(per, n) * cell
    return c.block(min(width, used), y - band_gap, "timeline")


def tile_block(result: BarrierResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target = NATURAL) -> Block:
    """The shared tile's slots at the current step: each slot's value, coloured by its tile."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = max(theme.small_pt, target.min_pt)
    n_slots = result.threads
    shown = shown_count(result, selection)
    memory = result.memory[shown - 1] if shown else ((-1, 0.0),) * n_slots
    head = "shared tile"
    label_w = max(text_width(head, theme.text_pt), text_width("slot", small)) + 2.0
    slot_w = max(4.0, min(14.0, (width - label_w) / n_slots))
    per_row = max(1, min(n_slots, int((width - label_w + 1e-6) // slot_w)))
    box_h = max(6.0, ink_height(theme.text_pt, "mono") + 2.4)
    index_h = line_step(small, 1.2) + 0.3
    row_h = box_h + index_h + 1.0
    with c.group(name="shared tile"):
        c.text(0.0, box_h / 2, head, theme.text_pt, fg, baseline="middle")
        c.text(0.0, box_h + 0.3 + cap_height(small), "slot", small, muted)
        for a, (tile, value) in enumerate(memory):
            r, col = divmod(a, per_row)
            x, y = label_w + col * slot_w, r * row_h
            if tile < 0:
                style, text = theme.fill("absent"), "—"
            else:
                style, text = tile_style(theme, tile), format_number(value)
            with c.group(key("slot", a)):
                c.rect(x, y, slot_w - 0.6, box_h, style)
                label = c.value(x, y, slot_w - 0.6, box_h, text, theme.text_pt,
                                theme.ink_on(style.fill) if style.fill else fg,
                                floor=target.min_pt, key=key("slot", a))
                if style.hatch:  # the value sits on hatching
                    knock_out(c, label, style.fill)
                c.text(x + (slot_w - 0.6) / 2, y + box_h + 0.3 + cap_height(small),
                       format_number(a), small, muted, anchor="middle")
            if key("slot", a) in selection:
                theme.select(c, x, y, slot_w - 0.6, box_h, key=key("slot", a))
    rows = math.ceil(n_slots / per_row)
    height = (rows - 1) * row_h + box_h + 0.3 + cap_height(small) + descent(small)
    return c.block(label_w + per_row * slot_w - 0.6, height, "shared tile")


def threads_block(result: BarrierResult, selection: frozenset[str], theme: Theme,
                  width: float, target: Target = NATURAL) -> Block:
    """Each thread's state at the current step, in columns of four."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = max(theme.small_pt, target.min_pt)
    shown = shown_count(result, selection)
    states = result.states[shown - 1] if shown else ("run",) * result.threads
    lines = [f"{t}: {STATE_TEXT[states[t]]}" for t in range(result.threads)]
    col_w = max(text_width(s, small) for s in lines) + 3.0
    rows = 4
    while math.ceil(len(lines) / rows) * col_w - 3.0 > width and rows < len(lines):
        rows += 1
    step = line_step(small, 1.25)
    c.text(0.0, cap_height(small), "threads now", small, muted)
    for t, line in enumerate(lines):
        col, row = divmod(t, rows)
        c.text(col * col_w, cap_height(small) + (row + 1) * step, line, small, fg,
               key=key("thread", t))
    cols = math.ceil(len(lines) / rows)
    height = cap_height(small) + min(rows, len(lines)) * step + descent(small)
    return c.block(min(width, cols * col_w - 3.0), height, "threads now")


def verdict_block(result: BarrierResult, selection: frozenset[str], theme: Theme,
                  width: float, target: Target = NATURAL) -> Block:
    """Safe, or unsafe with each hazard (threads and slot) and the broken contract."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = max(theme.small_pt, target.min_pt)
    shown = shown_count(result, selection)
    if result.safe:
        verdict = "Safe: no hazard in this interleaving; every thread reaches every barrier"
    else:
        parts = []
        if result.hazards:
            parts.append(f"{len(result.hazards)} hazard{'s' * (len(result.hazards) != 1)}")
        if result.contract_broken:
            parts.append("barrier contract broken")
        verdict = "Unsafe: " + ", ".join(parts)
    y = cap_height(theme.text_pt)
    used = 0.0
    for i, line in enumerate(wrap(verdict, theme.text_pt, width, bold=True)):
        if i:
            y += line_step(theme.text_pt)
        c.text(0.0, y, line, theme.text_pt, fg, bold=True)
        used = max(used, text_width(line, theme.text_pt, bold=True))
    bottom = y + descent(theme.text_pt)
    rows: list[tuple[str, str, str | None]] = []
    if result.contract_broken:  # a table's row: what broke it, its why left to the caption
        why = table_block(["", ""], [["contract broken", result.contract_text.split("; ")[0]]],
                          theme, width - 3.0, size=small, name="contract")
        place(c, why, 3.0, bottom + 1.2)
        y = bottom + 1.2 + why.height - descent(small)
        used = max(used, 3.0 + why.width)
        bottom = y + descent(small)
    if len(result.hazards) > MAX_HAZARD_LINES:
        rows.append((f"… and {len(result.hazards) - MAX_HAZARD_LINES} more", muted, None))
    indent = 3.0
    if result.hazards:  # each hazard a row: its step, kind, thread, slot and values
        table = hazard_table(result, theme, width, small, shown)
        place(c, table, 0.0, bottom + 1.2)
        y = bottom + 1.2 + table.height - descent(small)
        used = max(used, table.width)
        bottom = y + descent(small)
    for text, color, row_key in rows:
        for line in wrap(text, small, width - indent):
            y += line_step(small)
            c.text(indent, y, line, small, color, key=row_key)
            used = max(used, indent + text_width(line, small))
            bottom = y + descent(small)
    return c.block(min(width, used), bottom, "verdict")


def hazard_table(result: BarrierResult, theme: Theme, width: float, size: float,
                 shown: int) -> Block:
    """The hazards as a table: the step that exposed each, its kind, the reading thread and
    the writer (the thread whose own slot it read), the tile, what it read and what it should
    have (a hazard after the step shown muted)."""
    hazards = result.hazards[:MAX_HAZARD_LINES]
    rows = [(format_number(h.event + 1), h.kind.replace("_", " "), str(h.threads[0]),
             str(h.address), str(h.tile),
             "returned early" if h.kind == "uninitialised_read"
             else "never written" if h.seen is None else f"{h.seen:g}",
             "–" if h.expected is None else f"{h.expected:g}") for h in hazards]
    return table_block(("step", "hazard", "reader", "writer", "tile", "read", "wanted"), rows,
                       theme, width, size=size, floor=7.0,
                       right=(True, False, True, True, True, True, True),
                       keys=[key("hazard", j) for j in range(len(hazards))],
                       colors=[theme.color("muted") if h.event >= shown else None
                               for h in hazards], name="hazards")


def _window(result: BarrierResult, bands: int, per: int, cursor_band: int,
            slide_cell: float | None) -> range:
    """The timeline's bands drawn: all, but on a slide (``slide_cell``: its cells' least
    width) the bands that hold the steps :data:`SLIDE_ROWS` rows of :data:`SLIDE_PLOT` mm
    bands hold (one band at least): those up to the cursor's band where there is one, else
    from the first hazard's band, else from the first."""
    if slide_cell is None:
        return range(bands)
    steps = max(1, SLIDE_ROWS // (result.threads + 1)) * max(1, int(SLIDE_PLOT // slide_cell))
    most = max(1, math.ceil(steps / per))
    if bands <= most:
        return range(bands)
    if cursor_band >= 0:
        first = cursor_band - most + 1
    elif result.hazards:
        first = result.hazards[0].event // per
    else:
        first = 0
    first = max(0, min(first, bands - most))
    return range(first, first + most)


def legend_entries(result: BarrierResult, theme: Theme) -> list[LegendEntry]:
    lanes, slots = ("interleaving",), ("slots",)
    entries = [LegendEntry("W: write own slot", theme.fill("write"), parts=lanes),
               LegendEntry("R: read neighbour's slot", theme.fill("read"), parts=lanes),
               LegendEntry("B1, B2: arrive at barrier 1, 2", event_style(theme, "arrive"),
                           parts=lanes),
               # beside the arrivals it releases (one row of a column's legend)
               LegendEntry("barrier releases", release_style(theme), "line", parts=lanes),
               LegendEntry("F: finished" + (", ×: returned early" if result.returned_threads
                                             else ""), event_style(theme, "finish"),
                           parts=lanes)]
    if result.hazards:
        entries.append(LegendEntry("read that sees a wrong value (hazard)", hazard_style(theme),
                                   parts=lanes))
    if hazard_writes(result):
        entries.append(LegendEntry("write that caused a hazard", cause_style(theme),
                                   parts=lanes))
    entries += [LegendEntry(f"slot holds tile {k}'s value", tile_style(theme, k), parts=slots)
                for k in range(result.tiles)]
    entries.append(LegendEntry("slot not written yet (—)", theme.fill("absent"), parts=slots))
    return entries


def notes(result: BarrierResult, selection: frozenset[str]) -> list[Note]:
    out: list[Note] = []
    if frame_of(selection) is not None:
        out.append(("Operations after the cursor are drawn faded.", ("interleaving",)))
    return out


def build(result: BarrierResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    shortened: list[Shortened] = []

    def body(width: float) -> list[Block]:
        blocks = [as_part("interleaving", timeline_block(result, selection, theme, width, target)),
                  as_part("slots", tile_block(result, selection, theme, width, target)),
                  as_part("slots", threads_block(result, selection, theme, width, target)),
                  as_part("hazards", verdict_block(result, selection, theme, width, target))]
        shortened[:] = [p for b in blocks if target.shows(*b.parts) for p in b.shortened]
        return blocks

    def side(width: float) -> list[Block]:
        extra: list[Note] = [shortened_note(shortened)] if shortened else []
        return [legend_block(legend_entries(result, theme), theme, width,
                             notes=notes(result, selection) + extra, target=target)]

    return compose(target, theme,
                   title="Barriers: producers, consumers and one interleaving",
                   column_title="Barriers: one interleaving",
                   subtitle="Each thread writes its slot, reads its neighbour's slot, then writes "
                            "the next tile into the same storage; time runs left to right in "
                            "steps of the interleaving.",
                   body=body, side=side, natural_width=NATURAL_WIDTH,
                   figure_title="Barriers: one interleaving",
                   description=f"One interleaving of {counted(result.threads, 'thread')} that "
                               f"write, read and overwrite shared slots between two barriers: "
                               + ("safe." if result.safe else
                                  f"unsafe, with {counted(len(result.hazards), 'hazard')}."))
