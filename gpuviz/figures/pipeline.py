"""The buffer-ownership timeline: a load lane, a compute lane and one ownership row per slot.

Each slot row holds a pale band per tile from its load's start to the end of the compute that
reads it (seed: "Each pale buffer-ownership band extends from the load's start to the end of the
corresponding compute read"). Waits are hatched where the idle time falls and labelled with what
is waited for. A playback cursor marks the current instant; what lies after it is faded.

Keys: ``tile:<i>`` (the tile's load bar, compute bar and ownership band), ``buffer:<s>`` (a slot
row), ``wait:<j>`` (a wait, in the order of the result's ``waits``). Selection may carry
``frame:<n>``: the cursor stands at the n-th event time (absent: the end, nothing faded).
"""

from __future__ import annotations

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, text_width
from gpuviz.figures.plot import format_tick, nice_ticks
from gpuviz.figures.theme import Theme
from gpuviz.models.pipeline import PipelineResult

WIDTH = 170.0
LEFT = 24.0
RIGHT = 6.0
LANE_H = 6.5
SLOT_H = 5.0
FUTURE_OPACITY = 0.28

WAIT_LABELS = {
    "compute_waits_for_data": "no data",
    "tile_waits_for_compute": "ready",
    "load_waits_for_slot": "slot",
    "load_waits_for_prefetch": "limit",
}
WAIT_LEGEND = {
    "compute_waits_for_data": "compute waits for data",
    "tile_waits_for_compute": "loaded tile waits",
    "load_waits_for_slot": "load waits for slot",
    "load_waits_for_prefetch": "load waits: prefetch limit",
}
WAIT_HATCH = {
    "compute_waits_for_data": "diagonal",
    "tile_waits_for_compute": "horizontal",
    "load_waits_for_slot": "cross",
    "load_waits_for_prefetch": "dots",
}


def frame_count(result: PipelineResult) -> int:
    return len(result.event_times)


def frame_of(selection: frozenset[str]) -> int | None:
    """The playback frame carried by the selection; the earliest if several are present."""
    frames = [int(k[6:]) for k in selection if k.startswith("frame:") and k[6:].isdigit()]
    return min(frames) if frames else None


def build(result: PipelineResult, selection: frozenset[str], theme: Theme) -> Figure:
    c = Canvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    total = max(result.total_time, 1e-9)
    plot_w = WIDTH - LEFT - RIGHT
    scale = plot_w / total
    frame = frame_of(selection)
    times = result.event_times
    cursor = None
    if frame is not None and times:
        cursor = times[max(0, min(frame, len(times) - 1))]

    def x(t: float) -> float:
        return LEFT + t * scale

    title_y = 2.0 + theme.title_pt * PT_TO_MM
    c.text(1.0, title_y, "Pipeline: who owns each buffer slot, and when", theme.title_pt, fg,
           bold=True)
    caption_y = title_y + theme.small_pt * PT_TO_MM + 1.5
    c.text(1.0, caption_y,
           f"{len(result.tiles)} tiles, {result.buffers} slot{'s' * (result.buffers != 1)}: a "
           f"load may reuse a slot only after its previous tile's compute has read it",
           theme.small_pt, muted)

    top = caption_y + 6.0
    load_y = top
    comp_y = load_y + LANE_H + 3.0
    slot_y0 = comp_y + LANE_H + 3.0
    slot_rows = [slot_y0 + s * (SLOT_H + 1.0) for s in range(result.buffers)]
    axis_y = (slot_rows[-1] + SLOT_H if slot_rows else slot_y0) + 1.5

    label_pt, small = theme.text_pt, theme.small_pt
    mid = LANE_H / 2
    with c.group(name="lanes"):
        c.rects([(LEFT, load_y, plot_w, LANE_H), (LEFT, comp_y, plot_w, LANE_H)],
                Style(fill=theme.surface))
        c.text(1.0, load_y + mid, "load", label_pt, fg, baseline="middle")
        c.text(1.0, comp_y + mid, "compute", label_pt, fg, baseline="middle")
    for s, y in enumerate(slot_rows):
        with c.group(f"buffer:{s}", name=f"slot {s}"):
            c.rect(LEFT, y, plot_w, SLOT_H, Style(fill=theme.surface))
            c.text(1.0, y + SLOT_H / 2, f"slot {s}", theme.small_pt, fg, baseline="middle")

    def split(a: float, b: float) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
        """The part of [a, b] up to the cursor, and the part after it."""
        if cursor is None or b <= cursor:
            return (a, b), None
        if a >= cursor:
            return None, (a, b)
        return (a, cursor), (cursor, b)

    def bars(spans: list[tuple[float, float, float, float, str]], style: Style, name: str) -> None:
        past, future, past_keys, future_keys = [], [], [], []
        for a, b, y, h, key in spans:
            p, f = split(a, b)
            if p and p[1] > p[0]:
                past.append((x(p[0]), y, (p[1] - p[0]) * scale, h))
                past_keys.append(key)
            if f and f[1] > f[0]:
                future.append((x(f[0]), y, (f[1] - f[0]) * scale, h))
                future_keys.append(key)
        with c.group(name=name):
            c.rects(past, style, past_keys)
            c.rects(future, theme.faded(style, FUTURE_OPACITY), future_keys)

    tiles = result.tiles
    bars([(t.load_start, t.compute_end, slot_rows[t.slot] + 0.6, SLOT_H - 1.2, f"tile:{t.tile}")
          for t in tiles], theme.fill("owned"), "ownership bands")
    bars([(t.load_start, t.load_end, load_y, LANE_H, f"tile:{t.tile}") for t in tiles],
         theme.fill("load"), "loads")
    bars([(t.compute_start, t.compute_end, comp_y, LANE_H, f"tile:{t.tile}") for t in tiles],
         theme.fill("compute"), "computes")

    # Waits: hatched where the idle time falls.
    wait_kinds_seen: list[str] = []
    with c.group(name="waits"):
        for j, w in enumerate(result.waits):
            if w.kind not in wait_kinds_seen:
                wait_kinds_seen.append(w.kind)
            if w.kind == "compute_waits_for_data":
                y, h = comp_y + 1.0, LANE_H - 2.0
            elif w.kind == "tile_waits_for_compute":
                y, h = slot_rows[w.slot] + 0.6, SLOT_H - 1.2
            else:
                y, h = load_y + 1.0, LANE_H - 2.0
            style = _wait_style(theme, w.kind)
            if cursor is not None and w.start >= cursor:
                style = theme.faded(style, FUTURE_OPACITY)
            c.rect(x(w.start), y, (w.end - w.start) * scale, h, style, key=f"wait:{j}")
            label = WAIT_LABELS[w.kind]
            if (w.end - w.start) * scale >= text_width(label, small * 0.85) + 1.0 and \
                    w.kind != "tile_waits_for_compute":
                c.text((x(w.start) + x(w.end)) / 2, y - 0.4, label, small * 0.85, fg,
                       anchor="middle", baseline="alphabetic", key=f"wait:{j}")

    # Tile numbers on bars wide enough to hold them.
    for t in tiles:
        label = str(t.tile)
        faded = cursor is not None and t.load_start >= cursor
        color = muted if faded else fg
        for a, b, y in ((t.load_start, t.load_end, load_y),
                        (t.compute_start, t.compute_end, comp_y)):
            if (b - a) * scale >= text_width(label, small) + 1.0:
                c.text((x(a) + x(b)) / 2, y + LANE_H / 2, label, small, color,
                       anchor="middle", baseline="middle", key=f"tile:{t.tile}")
        band_label = f"tile {t.tile}"
        if (t.load_end - t.load_start) * scale >= text_width(band_label, small) + 1.5:
            c.text(x(t.load_start) + 0.8, slot_rows[t.slot] + SLOT_H / 2, band_label, small,
                   color, baseline="middle", key=f"tile:{t.tile}")

    # Time axis.
    ticks = nice_ticks(0.0, total, 8)
    tick_segs = [(x(v), axis_y, x(v), axis_y + 1.0) for v in ticks if v <= total + 1e-9]
    with c.group(name="time axis"):
        c.line(LEFT, axis_y, LEFT + plot_w, axis_y, theme.stroke("muted", theme.thin_mm))
        c.segments(tick_segs, theme.stroke("muted", theme.thin_mm))
        for v in ticks:
            if v <= total + 1e-9:
                c.text(x(v), axis_y + 1.3 + small * PT_TO_MM, format_tick(v), small, muted,
                       anchor="middle")
        c.text(1.0, axis_y + 1.3 + small * PT_TO_MM, "time", small, muted)

    # Selection outlines.
    hl = theme.highlight()
    for key in sorted(selection):
        kind, _, value = key.partition(":")
        if kind == "tile" and value.isdigit() and int(value) < len(tiles):
            t = tiles[int(value)]
            for a, b, y, h in ((t.load_start, t.load_end, load_y, LANE_H),
                               (t.compute_start, t.compute_end, comp_y, LANE_H),
                               (t.load_start, t.compute_end, slot_rows[t.slot] + 0.6,
                                SLOT_H - 1.2)):
                c.rect(x(a), y, (b - a) * scale, h, hl, key=key)
        elif kind == "buffer" and value.isdigit() and int(value) < len(slot_rows):
            c.rect(LEFT, slot_rows[int(value)], plot_w, SLOT_H, hl, key=key)
        elif kind == "wait" and value.isdigit() and int(value) < len(result.waits):
            w = result.waits[int(value)]
            c.text(LEFT + plot_w, title_y, w.text, small, theme.accent, anchor="end", key=key)

    # Playback cursor.
    if cursor is not None:
        with c.group(name="cursor"):
            c.line(x(cursor), top - 1.5, x(cursor), axis_y, theme.stroke("accent", theme.line_mm))
            label = f"t = {format_tick(cursor)}"
            if x(cursor) + 0.8 + text_width(label, small) > WIDTH - 1.0:  # keep it on the page
                c.text(x(cursor) - 0.8, top - 1.8, label, small, theme.accent, anchor="end")
            else:
                c.text(x(cursor) + 0.8, top - 1.8, label, small, theme.accent)

    # Legend and receipt.
    y = axis_y + 5.0 + small * PT_TO_MM
    lx = LEFT
    entries = [("load", theme.fill("load")), ("compute", theme.fill("compute")),
               ("slot owned", theme.fill("owned"))]
    entries += [(WAIT_LEGEND[k], _wait_style(theme, k)) for k in
                sorted(wait_kinds_seen, key=list(WAIT_LEGEND).index)]
    with c.group(name="legend"):
        sw = 3.2
        for label, style in entries:
            need = sw + 1.0 + text_width(label, small) + 3.0
            if lx + need > WIDTH - RIGHT:
                lx = LEFT
                y += small * PT_TO_MM + 2.0
            c.rect(lx, y - sw + 0.5, sw, sw, style)
            c.text(lx + sw + 1.0, y, label, small, fg)
            lx += need
    y += small * PT_TO_MM + 3.0
    receipt = [f"total {format_tick(result.total_time)}",
               f"load busy {format_tick(result.load_busy)} ({result.load_utilization:.0%})",
               f"compute busy {format_tick(result.compute_busy)} "
               f"({result.compute_utilization:.0%})",
               f"waits {len(result.waits)}",
               f"lower bound {format_tick(result.lower_bound_time)}"]
    line = ""
    for part in receipt:
        candidate = f"{line}   {part}" if line else part
        if line and text_width(candidate, small, "mono") > WIDTH - LEFT - RIGHT:
            c.text(LEFT, y, line, small, fg, font="mono")
            y += small * PT_TO_MM + 1.2
            candidate = part
        line = candidate
    c.text(LEFT, y, line, small, fg, font="mono")
    height = y + 3.0
    return c.figure(WIDTH, height, theme.background,
                    title="Pipeline: buffer ownership over time",
                    description=f"total time {format_tick(result.total_time)}")


def _wait_style(theme: Theme, kind: str) -> Style:
    return Style(fill=theme.color("wait"), stroke=theme.outline, stroke_width=theme.thin_mm,
                 hatch=WAIT_HATCH[kind], hatch_color=theme.foreground)
