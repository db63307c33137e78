"""The buffer-ownership timeline: a load lane, a compute lane and one ownership row per slot.

Each slot row holds a pale band per tile from its load's start to the end of the compute that
reads it (CUDA C++ Programming Guide, "Asynchronous Data Copies": a buffer is reused only after
its consumer has finished with it). Waits are hatched where the idle time falls; the hatch says
what is waited for. A playback cursor marks the current instant; what lies after it is faded.

Time runs left to right in the model's abstract time units. A schedule too long for the width to
number every bar is wrapped into bands of time (each with its own axis) instead of being shrunk.

Keys: ``tile:<i>`` (the tile's load bar, compute bar and ownership band), ``buffer:<s>`` (a slot
row), ``wait:<j>`` (a wait, in the order of the result's ``waits``). Selection may carry
``frame:<n>``: the cursor stands at the n-th event time (absent: the end, nothing faded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpuviz.figures.display import Figure, Hatch, Row, Style
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    format_percent,
    legend_block,
    line_step,
    receipt_block,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.plot import nice_ticks
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.keys import frame_of, key
from gpuviz.models.pipeline import PipelineResult

NATURAL_WIDTH = 170.0
FUTURE_OPACITY = 0.28
MAX_BANDS = 4
TIME_UNIT = "time units"
AXIS_LABEL = "time (abstract time units)"

WAIT_LEGEND = {
    "compute_waits_for_data": "compute waits for data",
    "tile_waits_for_compute": "loaded tile waits",
    "load_waits_for_slot": "load waits for slot",
    "load_waits_for_prefetch": "load waits: prefetch limit",
}
WAIT_HATCH: dict[str, Hatch] = {
    "compute_waits_for_data": "diagonal",
    "tile_waits_for_compute": "horizontal",
    "load_waits_for_slot": "cross",
    "load_waits_for_prefetch": "dots",
}


def frame_count(result: PipelineResult) -> int:
    return len(result.event_times)


def cursor_time(result: PipelineResult, selection: frozenset[str]) -> float | None:
    frame = frame_of(selection)
    times = result.event_times
    if frame is None or not times:
        return None
    return times[max(0, min(frame, len(times) - 1))]


#: Each kind of wait is a bad state of its own: a role (a swatch of vermillion's family) and a
#: hatch, so the kinds differ by fill in every theme and by hatch as well.
WAIT_ROLE: dict[str, RoleName] = {
    "compute_waits_for_data": "wait",
    "tile_waits_for_compute": "wait_ready",
    "load_waits_for_slot": "wait_slot",
    "load_waits_for_prefetch": "wait_prefetch",
}


def wait_style(theme: Theme, kind: str) -> Style:
    fill = theme.color(WAIT_ROLE[kind])
    return Style(fill=fill, stroke=theme.outline, stroke_width=theme.thin_mm,
                 hatch=WAIT_HATCH[kind], hatch_color=theme.ink_on(fill))


@dataclass(frozen=True)
class Bands:
    """Time cut into ``count`` bands of ``span`` time units, drawn at ``scale`` mm per unit."""

    count: int
    span: float
    scale: float

    def pieces(self, a: float, b: float) -> list[tuple[int, float, float]]:
        """(band, start, end) of the parts of [a, b] in each band."""
        out: list[tuple[int, float, float]] = []
        if b <= a:
            return out
        first = min(self.count - 1, int(a // self.span))
        for k in range(first, self.count):
            lo, hi = k * self.span, (k + 1) * self.span
            if lo >= b:
                break
            s, e = max(a, lo), min(b, hi) if k < self.count - 1 else b
            if e > s:
                out.append((k, s, e))
        return out


def _bands(result: PipelineResult, plot_w: float, size: float) -> tuple[Bands, bool]:
    """The fewest bands at which every tile's number fits its load and compute bars (and
    whether it does at all); at most MAX_BANDS."""
    total = _axis_end(result)
    for count in range(1, MAX_BANDS + 1):
        spans = [total]
        if count > 1:  # band edges on round times: multiples of the tick step, a half or a fifth
            step = nice_ticks(0.0, total / count, 4)
            unit = step[1] - step[0] if len(step) > 1 else total / count
            spans = [(math.ceil(total / count / u - 1e-9) + j) * u
                     for u in (unit, unit / 2, unit / 5) for j in range(4)]
        for span in dict.fromkeys(spans):
            if count > 1 and (count - 1) * span >= total:
                continue
            bands = Bands(count, span, plot_w / span)
            if all(_fits(bands, a, b, str(t.tile), size) for t in result.tiles
                   for a, b in ((t.load_start, t.load_end), (t.compute_start, t.compute_end))):
                return bands, True
    return Bands(1, total, plot_w / total), False


def _axis_end(result: PipelineResult) -> float:
    """Where the time axis ends: the schedule's end, or one time unit for a schedule of
    instant loads and computes (an axis of no length would draw nothing, its label off the
    page)."""
    return result.total_time if result.total_time > 0 else 1.0


def plan(result: PipelineResult, theme: Theme, width: float,
         target: Target = NATURAL) -> tuple[float, Bands, bool]:
    """The label column's width, the bands of time, and whether every bar is numbered."""
    small = max(theme.small_pt, target.min_pt)
    label_pt = max(theme.text_pt, target.min_pt)
    label_w = max([text_width("load", label_pt), text_width("compute", label_pt)]
                  + [text_width(f"slot {s}", small) for s in range(result.buffers)]) + 2.0
    bands, numbered = _bands(result, max(20.0, width - label_w - 1.0), small)
    return label_w, bands, numbered


def _fits(bands: Bands, a: float, b: float, label: str, size: float) -> bool:
    longest = max((e - s for _, s, e in bands.pieces(a, b)), default=0.0)
    return longest * bands.scale >= text_width(label, size) + 1.0


def timeline_block(result: PipelineResult, selection: frozenset[str], theme: Theme,
                   width: float, target: Target = NATURAL) -> Block:
    """Load and compute lanes, one ownership row per slot and a time axis with its unit,
    in as many bands of time as it takes to number every bar."""
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = max(theme.small_pt, target.min_pt)
    label_pt = max(theme.text_pt, target.min_pt)
    tiles = result.tiles
    cursor = cursor_time(result, selection)

    slot_labels = [f"slot {s}" for s in range(result.buffers)]
    label_w, bands, numbered = plan(result, theme, width, target)
    # Each ownership band names its tile: "tile 3" where every band has room for that, else
    # the bare number, as on the load and compute bars (numbered: every bar has room for it).
    band_form = "tile {}" if numbered and all(
        _fits(bands, t.load_start, t.load_end, f"tile {t.tile}", small) for t in tiles) else "{}"
    band_labels = numbered

    # a journal column is short of height: rows just taller than their labels, tighter gaps
    column = target.kind == "column"
    lane_h = ink_height(small) + 1.4 if column else max(6.5, ink_height(small) + 2.6)
    pad = theme.spacing(target).row_pad
    slot_h = ink_height(small) + pad if column else max(5.0, ink_height(small) + pad)
    inset = 0.3 if column else 0.6  # an ownership band inside its slot's row
    lane_gap = 2.2 if column else 3.0  # room for the prefetch dots between load and compute
    row_gap = 0.3 if column else 1.0
    band_gap = 2.0 if column else 3.0
    cursor_h = line_step(small, 1.2) + 0.6
    axis_h = 1.0 + line_step(small, 1.1) + 0.4
    axis_label_h = line_step(small, 1.3)

    def split(a: float, b: float) -> list[tuple[int, float, float, bool]]:
        """Pieces of [a, b] per band, each split at the cursor (future: True)."""
        out = []
        for k, s, e in bands.pieces(a, b):
            if cursor is None or e <= cursor:
                out.append((k, s, e, False))
            elif s >= cursor:
                out.append((k, s, e, True))
            else:
                out += [(k, s, cursor, False), (k, cursor, e, True)]
        return out

    # Band geometry.
    tops: list[float] = []
    y = 0.0
    for k in range(bands.count):
        tops.append(y)
        has_cursor = cursor is not None and _band_of(bands, cursor) == k
        lanes = (cursor_h if has_cursor else 0.0) + 2 * lane_h + 2 * lane_gap \
            + result.buffers * (slot_h + row_gap) + 0.5
        y += lanes + axis_h + (axis_label_h if k == bands.count - 1 else 0.0) + band_gap
    height = y - band_gap

    def geometry(k: int) -> tuple[float, float, list[float], float]:
        top = tops[k]
        if cursor is not None and _band_of(bands, cursor) == k:
            top += cursor_h
        load_y = top
        comp_y = load_y + lane_h + lane_gap
        slots = [comp_y + lane_h + lane_gap + s * (slot_h + row_gap)
                 for s in range(result.buffers)]
        axis_y = (slots[-1] + slot_h if slots else comp_y + lane_h) + row_gap
        return load_y, comp_y, slots, axis_y

    def row_span(k: int, row: str | int) -> tuple[float, float]:
        """The top and height in band ``k`` of a lane ("load", "compute") or a slot's row."""
        load_y, comp_y, slots, _ = geometry(k)
        if row == "load":
            return load_y, lane_h
        if row == "compute":
            return comp_y, lane_h
        return (slots[row] if isinstance(row, int) else 0.0), slot_h

    def x(k: int, t: float) -> float:
        return label_w + (t - k * bands.span) * bands.scale

    def band_w(k: int) -> float:
        end = min(_axis_end(result), (k + 1) * bands.span) if k < bands.count - 1 \
            else _axis_end(result)
        return (end - k * bands.span) * bands.scale

    for k in range(bands.count):
        load_y, comp_y, slots, axis_y = geometry(k)
        w = band_w(k)
        with c.group(name="lanes"):
            c.rects([(label_w, load_y, w, lane_h), (label_w, comp_y, w, lane_h)],
                    Style(fill=theme.surface))
            c.text(0.0, load_y + lane_h / 2, "load", label_pt, fg, baseline="middle")
            c.text(0.0, comp_y + lane_h / 2, "compute", label_pt, fg, baseline="middle")
        for slot, sy in enumerate(slots):
            with c.group(key("buffer", slot), name=f"slot {slot}"):
                c.rect(label_w, sy, w, slot_h, Style(fill=theme.surface))
                c.text(0.0, sy + slot_h / 2, slot_labels[slot], small, fg, baseline="middle")
        # Time axis of this band, with its unit on the last band.
        lo = k * bands.span
        hi = lo + w / bands.scale
        ticks = [v for v in nice_ticks(lo, hi, max(2, int(w // 18))) if lo - 1e-9 <= v <= hi + 1e-9]
        if k and (not ticks or ticks[0] > lo + 1e-9):  # where a band starts, its time
            ticks.insert(0, lo)
        axis = theme.stroke("muted", theme.thin_mm)
        with c.group(name="time axis"):
            c.line(label_w, axis_y, label_w + w, axis_y, axis)
            c.segments([(x(k, v), axis_y, x(k, v), axis_y + 1.0) for v in ticks], axis)
            last = -1e9
            for v in ticks:
                label = format_number(v)
                tw = text_width(label, small)
                tx = min(max(x(k, v), label_w + tw / 2), label_w + w - tw / 2) \
                    if w > tw else x(k, v)
                if tx - tw / 2 < last + 1.5:
                    continue
                c.text(tx, axis_y + 1.0 + cap_height(small) + 0.3, label, small, muted,
                       anchor="middle")
                last = tx + tw / 2
            if k == bands.count - 1:
                c.text(label_w + w, axis_y + axis_h + cap_height(small), AXIS_LABEL, small,
                       muted, anchor="end")

    def bars(spans, style: Style, name: str) -> None:
        past: list[Row] = []
        future: list[Row] = []
        past_keys: list[str] = []
        future_keys: list[str] = []
        for a, b, row, pad, span_key in spans:
            for k, s, e, fut in split(a, b):
                top, h = row_span(k, row)
                rect = (x(k, s), top + pad, (e - s) * bands.scale, h - 2 * pad)
                (future if fut else past).append(rect)
                (future_keys if fut else past_keys).append(span_key)
        with c.group(name=name):
            c.rects(past, style, past_keys)
            c.rects(future, theme.faded(style, FUTURE_OPACITY), future_keys)

    bars([(t.load_start, t.compute_end, t.slot, inset, key("tile", t.tile)) for t in tiles],
         theme.fill("owned"), "ownership bands")
    bars([(t.load_start, t.load_end, "load", 0.0, key("tile", t.tile)) for t in tiles],
         theme.fill("load"), "loads")
    bars([(t.compute_start, t.compute_end, "compute", 0.0, key("tile", t.tile)) for t in tiles],
         theme.fill("compute"), "computes")

    # Waits: hatched where the idle time falls (the hatch, not a label, names the wait).
    with c.group(name="waits"):
        for j, wt in enumerate(result.waits):
            for k, s, e, fut in split(wt.start, wt.end):
                load_y, comp_y, slots, _ = geometry(k)
                if wt.kind == "compute_waits_for_data":
                    wy, wh = comp_y + 1.0, lane_h - 2.0
                elif wt.kind == "tile_waits_for_compute":
                    wy, wh = slots[wt.slot] + inset, slot_h - 2 * inset
                else:
                    wy, wh = load_y + 1.0, lane_h - 2.0
                style = wait_style(theme, wt.kind)
                if fut:
                    style = theme.faded(style, FUTURE_OPACITY)
                c.rect(x(k, s), wy, (e - s) * bands.scale, wh, style, key=key("wait", j))

    # Where the prefetch distance would let a load start that starts later (it waits for its
    # slot or the engine): a dot between the lanes, so that two prefetch distances differ
    with c.group(name="prefetch"):
        for t in early_loads(result):
            k = _band_of(bands, t.prefetch_allows)
            load_y, _, _, _ = geometry(k)
            c.circle(x(k, t.prefetch_allows), load_y + lane_h + lane_gap / 2, 0.7, prefetch_style(theme),
                     key=key("tile", t.tile))

    # Tile numbers: on every bar (in its longest piece), or on none.
    if numbered:
        for t in tiles:
            faded = cursor is not None and t.load_start >= cursor
            color = muted if faded else fg
            for a, b, lane in ((t.load_start, t.load_end, "load"),
                               (t.compute_start, t.compute_end, "compute")):
                k, s, e = max(bands.pieces(a, b), key=lambda p: p[2] - p[1])
                load_y, comp_y, _, _ = geometry(k)
                yy = load_y if lane == "load" else comp_y
                c.text((x(k, s) + x(k, e)) / 2, yy + lane_h / 2, format_number(t.tile), small,
                       color, anchor="middle", baseline="middle", key=key("tile", t.tile))
            if band_labels:
                k, s, e = max(bands.pieces(t.load_start, t.load_end), key=lambda p: p[2] - p[1])
                sy = geometry(k)[2][t.slot]
                c.text(x(k, s) + 0.8, sy + slot_h / 2, band_form.format(t.tile), small, color,
                       baseline="middle", key=key("tile", t.tile))

    # Selection outlines.
    for picked in sorted(selection):
        kind, _, value = picked.partition(":")
        if not value.isdigit():
            continue
        i = int(value)
        if kind == "tile" and i < len(tiles):
            t = tiles[i]
            for a, b, row, pad in ((t.load_start, t.load_end, "load", 0.0),
                                   (t.compute_start, t.compute_end, "compute", 0.0),
                                   (t.load_start, t.compute_end, t.slot, inset)):
                for k, s, e in bands.pieces(a, b):
                    top, h = row_span(k, row)
                    theme.select(c, x(k, s), top + pad, (e - s) * bands.scale,
                                 h - 2 * pad, key=picked)
        elif kind == "buffer" and i < result.buffers:
            for k in range(bands.count):
                theme.select(c, label_w, geometry(k)[2][i], band_w(k), slot_h, key=picked)
        elif kind == "wait" and i < len(result.waits):
            wt = result.waits[i]
            for k, s, e in bands.pieces(wt.start, wt.end):
                load_y, comp_y, slots, _ = geometry(k)
                if wt.kind == "compute_waits_for_data":
                    wy, wh = comp_y + 1.0, lane_h - 2.0
                elif wt.kind == "tile_waits_for_compute":
                    wy, wh = slots[wt.slot] + inset, slot_h - 2 * inset
                else:
                    wy, wh = load_y + 1.0, lane_h - 2.0
                theme.select(c, x(k, s), wy, (e - s) * bands.scale, wh, key=picked)

    # Playback cursor: a line through its band, the time above it.
    if cursor is not None:
        k = _band_of(bands, cursor)
        load_y, _, _, axis_y = geometry(k)
        xc = x(k, cursor)
        with c.group(name="cursor"):
            c.line(xc, load_y - 0.8, xc, axis_y, theme.stroke("accent", theme.line_mm))
            label = f"t = {format_number(cursor)}"
            lw = text_width(label, small)
            if xc + 0.8 + lw <= width:
                c.text(xc + 0.8, load_y - 1.0, label, small, theme.accent)
            else:
                c.text(xc - 0.8, load_y - 1.0, label, small, theme.accent, anchor="end")
    used = label_w + max(band_w(k) for k in range(bands.count))
    used = max(used, text_width(AXIS_LABEL, small))
    return c.block(min(width, used), height + descent(small), "timeline")


def early_loads(result: PipelineResult) -> list:
    """The tiles whose load the prefetch distance allows before it starts."""
    return [t for t in result.tiles if 0.0 < t.prefetch_allows < t.load_start - 1e-9]


def prefetch_style(theme: Theme) -> Style:
    return Style(fill=theme.foreground)


def _band_of(bands: Bands, t: float) -> int:
    return max(0, min(bands.count - 1, int(t // bands.span) if bands.span > 0 else 0))


def receipt_rows(result: PipelineResult) -> list[tuple[str, str]]:
    """The schedule's totals, each with its unit; the lower bound with its derivation in
    numbers (the time with no wait at all: the busier unit's total plus the other unit's
    first load or last compute), so the receipt needs no footnote."""
    rows = [("total", f"{format_number(result.total_time)} {TIME_UNIT}"),
            ("lower bound", f"{format_number(result.lower_bound_time)} {TIME_UNIT}")]
    if result.tiles:
        first, last = result.tiles[0], result.tiles[-1]
        rows.append(("  no wait", f"max({format_number(result.load_busy)} + "
                                  f"{format_number(last.compute_end - last.compute_start)}, "
                                  f"{format_number(first.load_end - first.load_start)} + "
                                  f"{format_number(result.compute_busy)})"))
    return [
        *rows,
        ("load busy", f"{format_number(result.load_busy)} "
                      f"({format_percent(result.load_utilization)})"),
        ("compute busy", f"{format_number(result.compute_busy)} "
                         f"({format_percent(result.compute_utilization)})"),
        ("waits", f"{format_number(len(result.waits))} "
                  f"interval{'s' * (len(result.waits) != 1)} of idle time"),
    ]


LOWER_BOUND_NOTE = ("The lower bound is the time with no wait at all: all loads then the last "
                    "compute, or the first load then all computes, whichever is longer.")


def legend_entries(result: PipelineResult, theme: Theme) -> list[LegendEntry]:
    # the timeline draws the lanes and the slots' ownership rows on one time axis
    timeline = ("timeline",)
    entries = [LegendEntry("load", theme.fill("load"), parts=timeline),
               LegendEntry("compute", theme.fill("compute"), parts=timeline),
               LegendEntry("slot owned", theme.fill("owned"), parts=timeline)]
    seen = {w.kind for w in result.waits}
    entries += [LegendEntry(WAIT_LEGEND[k], wait_style(theme, k), parts=timeline)
                for k in WAIT_LEGEND if k in seen]
    if early_loads(result):
        entries.append(LegendEntry("the prefetch distance would let this load start here",
                                   prefetch_style(theme), "dot", parts=timeline))
    return entries


def notes(result: PipelineResult, selection: frozenset[str], numbered: bool) -> list[str]:
    out = []
    if not numbered:
        out.append(f"Bars are too short at this width to carry tile numbers: tiles run in "
                   f"order 0–{len(result.tiles) - 1}, tile i in slot i mod "
                   f"{result.buffers}.")
    if cursor_time(result, selection) is not None:
        out.append("What happens after the cursor is drawn faded.")
    return out


def build(result: PipelineResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    state = {"numbered": True}

    def body(width: float) -> list[Block]:
        state["numbered"] = plan(result, theme, width, target)[2]
        blocks = [as_part("timeline", timeline_block(result, selection, theme, width, target)),
                  as_part("receipt", receipt_block(receipt_rows(result), theme, width)),
                  as_part("receipt", text_block(LOWER_BOUND_NOTE, theme, width,
                                                color=theme.muted, name="lower bound"),
                          "notes")]
        for picked in sorted(selection):
            kind, _, value = picked.partition(":")
            if kind == "wait" and value.isdigit() and int(value) < len(result.waits):
                blocks.append(text_block(result.waits[int(value)].text, theme, width,
                                         color=theme.foreground, name="selected wait"))
        return blocks

    def side(width: float) -> list[Block]:
        return [legend_block(legend_entries(result, theme), theme, width,
                             notes=notes(result, selection, state["numbered"]), target=target)]

    n = len(result.tiles)
    return compose(target, theme,
                   title="Pipeline: who owns each buffer slot, and when",
                   subtitle=f"{n} tile{'s' * (n != 1)}, {result.buffers} "
                            f"slot{'s' * (result.buffers != 1)}: a load may reuse a slot only "
                            f"after its previous tile's compute has read it",
                   body=body, side=side, natural_width=NATURAL_WIDTH,
                   figure_title="Pipeline: buffer ownership over time",
                   description=f"A pipeline of {counted(n, 'tile')} through "
                               f"{counted(result.buffers, 'buffer slot')}, who owns each slot "
                               f"and when, finishing at {format_number(result.total_time)} "
                               f"{TIME_UNIT}.")
