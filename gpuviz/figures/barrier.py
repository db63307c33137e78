"""Block barriers under one interleaving: a swimlane per thread, the shared tile, the hazards.

Time runs left to right in steps of the interleaving: each thread's row shows its writes (W),
neighbour reads (R) and barrier arrivals (|1, |2); a barrier's release is a vertical line through
every row. Reads that expose a hazard are marked and listed with the threads and the slot. Below,
the shared tile's slots at the current step, coloured by the tile whose value they hold.

Keys: ``thread:<t>`` (a swimlane), ``event:<i>`` (one operation), ``slot:<a>`` (a shared slot),
``hazard:<j>`` (a hazard line). Selection may carry ``frame:<n>``: the state after the first n
operations (absent: after all of them).
"""

from __future__ import annotations

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, text_width, wrap_text
from gpuviz.figures.theme import Theme
from gpuviz.models.barrier import BarrierResult

WIDTH = 170.0
LEFT = 30.0
RIGHT = 4.0
ROW_H = 4.2
MAX_CELL = 5.0
FUTURE_OPACITY = 0.25
MAX_HAZARD_LINES = 6

GLYPH = {"write": "W", "read": "R", "arrive": "|", "return": "×", "finish": "·"}
STATE_TEXT = {"run": "running", "wait1": "waits at barrier 1", "wait2": "waits at barrier 2",
              "done": "finished", "returned": "returned early"}


def frame_count(result: BarrierResult) -> int:
    return len(result.events) + 1


def frame_of(selection: frozenset[str]) -> int | None:
    """The playback frame carried by the selection; the earliest if several are present."""
    frames = [int(k[6:]) for k in selection if k.startswith("frame:") and k[6:].isdigit()]
    return min(frames) if frames else None


def build(result: BarrierResult, selection: frozenset[str], theme: Theme) -> Figure:
    c = Canvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    small = theme.small_pt
    events = result.events
    n_threads = result.threads
    frame = frame_of(selection)
    shown = len(events) if frame is None else max(0, min(frame, len(events)))

    title_y = 2.0 + theme.title_pt * PT_TO_MM
    c.text(1.0, title_y, "Barriers: producers, consumers and one interleaving", theme.title_pt,
           fg, bold=True)
    caption_y = title_y + small * PT_TO_MM + 1.5
    c.text(1.0, caption_y,
           "Each thread writes its slot, reads its neighbour's slot, then writes the next tile "
           "into the same storage", small, muted)

    # Swimlanes.
    top = caption_y + 6.0
    plot_w = WIDTH - LEFT - RIGHT
    cell = min(MAX_CELL, plot_w / max(1, len(events)))
    row_y = [top + t * (ROW_H + 0.8) for t in range(n_threads)]
    bottom = row_y[-1] + ROW_H
    c.text(LEFT, top - 1.2, "step →", small, muted)
    states = result._states[shown - 1] if shown else ("run",) * n_threads
    for t, y in enumerate(row_y):
        with c.group(f"thread:{t}", name=f"thread {t}"):
            c.rect(LEFT, y, plot_w, ROW_H, Style(fill=theme.surface))
            c.text(1.0, y + ROW_H / 2, f"thread {t}", small, fg, baseline="middle")
    hazard_events = {h.event for h in result.hazards}
    by_style: dict[str, tuple[list, list]] = {}
    releases: list[tuple[float, float, float, float]] = []
    release_keys: list[str] = []
    glyph_pt = small * 0.85
    glyphs = cell >= text_width("W", glyph_pt) + 0.3
    for e in events:
        x = LEFT + e.index * cell
        if e.op == "release":
            releases.append((x + cell / 2, top - 0.6, x + cell / 2, bottom + 0.6))
            release_keys.append(f"event:{e.index}")
            continue
        role = {"write": "load", "read": "compute", "arrive": "wait"}.get(e.op, "inactive")
        if e.index in hazard_events:
            role = "conflict"
        bucket = by_style.setdefault((role, e.index >= shown), ([], []))
        bucket[0].append((x + 0.15, row_y[e.thread] + 0.5, cell - 0.3, ROW_H - 1.0))
        bucket[1].append(f"event:{e.index}")
    with c.group(name="operations"):
        for (role, future), (xywh, keys) in sorted(by_style.items()):
            style = theme.fill(role)
            if role == "conflict":  # told apart from reads by a heavy outline, not hue alone
                style = style.with_stroke(theme.foreground, theme.line_mm)
            c.rects(xywh, theme.faded(style, FUTURE_OPACITY) if future else style, keys)
        release_style = theme.stroke("accent", theme.line_mm, dash=(0.8, 0.5))
        past_rel = [(s, k) for s, k in zip(releases, release_keys, strict=True)
                    if int(k[6:]) < shown]
        future_rel = [(s, k) for s, k in zip(releases, release_keys, strict=True)
                      if int(k[6:]) >= shown]
        for group, style in ((past_rel, release_style),
                             (future_rel, theme.faded(release_style, FUTURE_OPACITY))):
            if group:
                c.segments([s for s, _ in group], style, [k for _, k in group])
    if glyphs:
        for e in events:
            if e.op == "release":
                continue
            glyph = GLYPH[e.op] + (str(e.barrier) if e.op == "arrive" else "")
            if e.op in ("write", "read"):
                glyph += str(e.address)
            if text_width(glyph, glyph_pt) > cell - 0.4:
                glyph = GLYPH[e.op]
            c.text(LEFT + e.index * cell + cell / 2, row_y[e.thread] + ROW_H / 2, glyph, glyph_pt,
                   muted if e.index >= shown else fg, anchor="middle", baseline="middle",
                   key=f"event:{e.index}")
    if frame is not None:
        xc = LEFT + shown * cell
        c.line(xc, top - 2.5, xc, bottom + 1.0, theme.stroke("accent", theme.line_mm))
        c.text(xc + 0.6, top - 2.8 + 0.0, f"after {shown} of {len(events)}", small,
               theme.accent)

    # Shared tile at the current step.
    mem_y = bottom + 7.0
    memory = result._memory[shown - 1] if shown else ((-1, 0.0),) * n_threads
    c.text(1.0, mem_y + 3.0, "shared tile", small, fg, baseline="middle")
    slot_w = min(14.0, plot_w / n_threads)
    with c.group(name="shared tile"):
        for a, (tile, value) in enumerate(memory):
            x = LEFT + a * slot_w
            if tile < 0:
                style, text = theme.fill("absent"), "—"
            else:
                style = Style(fill=theme.mix(theme.category(tile), 0.55),
                              stroke=theme.outline, stroke_width=theme.thin_mm)
                text = f"{value:g}"
            with c.group(f"slot:{a}"):
                c.rect(x, mem_y, slot_w - 0.6, 6.0, style)
                c.text(x + (slot_w - 0.6) / 2, mem_y + 3.0, text, theme.text_pt, fg,
                       anchor="middle", baseline="middle", font="mono")
                c.text(x + (slot_w - 0.6) / 2, mem_y + 6.0 + small * PT_TO_MM + 0.3,
                       f"slot {a}", small * 0.85, muted, anchor="middle")
    # Tile colour key next to the slots.
    kx = LEFT + n_threads * slot_w + 3.0
    for k in range(result.tiles):
        c.rect(kx, mem_y + k * 3.2, 2.6, 2.6,
               Style(fill=theme.mix(theme.category(k), 0.55), stroke=theme.outline,
                     stroke_width=theme.thin_mm))
        c.text(kx + 3.4, mem_y + k * 3.2 + 2.3, f"holds tile {k}'s value", small * 0.9, fg)

    # Thread states at the current step.
    sx = kx + 3.4 + text_width("holds tile 0's value", small * 0.9) + 4.0
    c.text(sx, mem_y + 0.5 + small * PT_TO_MM, "threads now", small, muted)
    for t in range(n_threads):
        col, row = divmod(t, 4)
        c.text(sx + col * 26.0, mem_y + (row + 2) * (small * PT_TO_MM + 0.8),
               f"{t}: {STATE_TEXT[states[t]]}", small * 0.9, fg, key=f"thread:{t}")

    # Verdict and hazards.
    y = mem_y + 6.0 + 2 * small * PT_TO_MM + 4.0
    rows_used = max(4, (min(n_threads, 4) + 1)) * (small * PT_TO_MM + 0.8) + 1.0
    y = max(y, mem_y + rows_used + 3.0)
    if result.safe:
        verdict = "Safe: no hazard in this interleaving; every thread reaches every barrier"
        role = "ok"
    else:
        parts = []
        if result.hazards:
            parts.append(f"{len(result.hazards)} hazard{'s' * (len(result.hazards) != 1)}")
        if result.contract_broken:
            parts.append("barrier contract broken")
        verdict, role = "Unsafe: " + ", ".join(parts), "warn"
    c.rect(1.0, y - 2.6, 2.6, 2.6, theme.fill(role))
    c.text(4.6, y, verdict, theme.text_pt, fg, bold=True)
    room = WIDTH - RIGHT - 4.6
    if result.contract_broken:
        y += theme.text_pt * PT_TO_MM - small * PT_TO_MM
        for line in wrap_text(result.contract_text, small, room):
            y += small * PT_TO_MM + 1.2
            c.text(4.6, y, line, small, fg)
    for j, h in enumerate(result.hazards[:MAX_HAZARD_LINES]):
        for line in wrap_text(f"{h.kind.replace('_', ' ')}: {h.text}", small, room):
            y += small * PT_TO_MM + 1.2
            c.text(4.6, y, line, small, muted if h.event >= shown else fg, key=f"hazard:{j}")
    if len(result.hazards) > MAX_HAZARD_LINES:
        y += small * PT_TO_MM + 1.2
        c.text(4.6, y, f"… and {len(result.hazards) - MAX_HAZARD_LINES} more", small, muted)

    # Legend.
    y += small * PT_TO_MM + 4.0
    lx = 4.6
    with c.group(name="legend"):
        for label, style in (("W: write own slot", theme.fill("load")),
                             ("R: read neighbour's slot", theme.fill("compute")),
                             ("|: arrive at barrier", theme.fill("wait")),
                             ("hazard", theme.fill("conflict").with_stroke(theme.foreground,
                                                                           theme.line_mm)),
                             ("barrier releases", None)):
            need = 3.4 + text_width(label, small) + 3.0
            if lx + need > WIDTH - RIGHT:
                lx, y = 4.6, y + small * PT_TO_MM + 2.0
            if style is None:
                c.line(lx + 1.3, y - 2.8, lx + 1.3, y + 0.2,
                       theme.stroke("accent", theme.line_mm, dash=(0.8, 0.5)))
            else:
                c.rect(lx, y - 2.6, 2.6, 2.6, style)
            c.text(lx + 3.4, y, label, small, fg)
            lx += need

    # Selection outlines.
    hl = theme.highlight()
    for key in sorted(selection):
        kind, _, value = key.partition(":")
        if not value.isdigit():
            continue
        i = int(value)
        if kind == "thread" and i < n_threads:
            c.rect(LEFT, row_y[i], plot_w, ROW_H, hl, key=key)
        elif kind == "slot" and i < n_threads:
            c.rect(LEFT + i * slot_w, mem_y, slot_w - 0.6, 6.0, hl, key=key)
            touching = [e for e in events if e.address == i and e.op in ("write", "read")]
            c.rects([(LEFT + e.index * cell, row_y[e.thread] + 0.3, cell, ROW_H - 0.6)
                     for e in touching], hl, [key] * len(touching))
        elif kind == "event" and i < len(events) and events[i].thread >= 0:
            e = events[i]
            c.rect(LEFT + e.index * cell, row_y[e.thread] + 0.3, cell, ROW_H - 0.6, hl, key=key)
        elif kind == "hazard" and i < len(result.hazards):
            e = events[result.hazards[i].event]
            c.rect(LEFT + e.index * cell, row_y[e.thread] + 0.3, cell, ROW_H - 0.6, hl, key=key)
    return c.figure(WIDTH, y + 3.0, theme.background, title="Barriers: one interleaving",
                    description="safe" if result.safe else "unsafe")
