"""Figure of the shared-memory bank queue rack.

Top to bottom: the 32 lanes (active or masked; for 8- and 16-byte accesses bracketed into the
half- or quarter-warp phases the hardware serves one after another); a connection from each
active lane to every bank its element covers; the 32 bank columns; below each bank its queue,
one slot per distinct word, at the row of the round that serves it. Readers of one identical word
share one slot (a broadcast); a second or later word in one bank within a phase is a conflict.
A receipt gives rounds, conflict degree, distinct words and broadcasts.

Keys: ``lane:<l>`` (lane box and its connections), ``bank:<b>`` (bank header and column),
``word:<w>`` (a queue slot), ``round:<k>`` (a row label).
"""

from __future__ import annotations

from gpuviz.figures.display import (
    PT_TO_MM,
    Canvas,
    Figure,
    Style,
    fit_pt,
    selected_numbers,
    text_width,
)
from gpuviz.figures.theme import Theme
from gpuviz.models.banks import BANKS, WARP_LANES, BanksResult

WIDTH = 172.0
MARGIN = 5.0
LANE_H = 5.0
LINK_H = 16.0
HEADER_H = 4.6
RACK_MAX_H = 84.0
PHASE_NAMES = {1: "warp", 2: "half-warp", 4: "quarter-warp"}


def build(result: BanksResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    # the gutter holds the "bank" and "round" labels side by side, by their width budgets
    gutter = max(16.0, text_width("bank", theme.small_pt) + text_width("round", theme.small_pt)
                 + 2.5)
    x0 = MARGIN + gutter
    col = (WIDTH - MARGIN - x0) / BANKS
    active = set(r.active_lanes)
    sel_lanes, sel_banks = selected_numbers(selection, "lane"), selected_numbers(selection, "bank")
    sel_words = selected_numbers(selection, "word")

    y = MARGIN + theme.title_pt * PT_TO_MM
    rounds_text = f"{r.rounds} round{'s' if r.rounds != 1 else ''}"
    c.text(MARGIN, y, f"Banks: {len(active)} lanes read {r.access_bytes}-byte elements — "
           f"{rounds_text}", theme.title_pt, fg, bold=True)
    y += em * 1.5
    c.text(MARGIN, y, f"{r.pattern} · 32 banks × 4 bytes, bank = word mod 32"
           + (f" · swizzled: {r.swizzle_formula}" if r.swizzle_formula else ""),
           theme.small_pt, muted)
    if r.phases > 1:
        y += em * 1.15
        size = WARP_LANES // r.phases
        c.text(MARGIN, y, f"{r.access_bytes}-byte accesses are served as {r.phases} "
               f"{PHASE_NAMES[r.phases]}s of {size} lanes ({size} × {r.access_bytes} B = 128 B "
               "per phase), one phase after another", theme.small_pt, muted)
    y += em * 1.8

    # lanes, aligned with the bank columns
    lanes_top = y
    c.text(MARGIN, lanes_top + LANE_H / 2, "lane", theme.small_pt, muted, baseline="middle")
    num_pt = fit_pt(2, col - 0.6, theme.small_pt * 0.9)
    boxes_a, keys_a, boxes_m, keys_m = [], [], [], []
    for lane in range(WARP_LANES):
        box = (x0 + lane * col + 0.15, lanes_top, col - 0.3, LANE_H)
        if lane in active:
            boxes_a.append(box)
            keys_a.append(f"lane:{lane}")
        else:
            boxes_m.append(box)
            keys_m.append(f"lane:{lane}")
    with c.group(name="lanes"):
        c.rects(boxes_a, theme.fill("valid"), keys_a)
        c.rects(boxes_m, theme.fill("masked"), keys_m)
        for lane in range(WARP_LANES):
            c.text(x0 + (lane + 0.5) * col, lanes_top + LANE_H / 2, str(lane),
                   num_pt, theme.ink_on("valid") if lane in active else muted,
                   anchor="middle", baseline="middle", font="mono")
        for lane in sorted(sel_lanes):
            if 0 <= lane < WARP_LANES:
                c.rect(x0 + lane * col + 0.15, lanes_top, col - 0.3, LANE_H, theme.highlight())
    link_top = lanes_top + LANE_H
    if r.phases > 1:
        size = WARP_LANES // r.phases
        by = link_top + 1.2
        with c.group(name="phases"):
            for ph in range(r.phases):
                xa, xb = x0 + ph * size * col + 0.6, x0 + (ph + 1) * size * col - 0.6
                c.polyline([(xa, by - 0.8), (xa, by), (xb, by), (xb, by - 0.8)],
                           theme.stroke("foreground", theme.line_mm))
                c.text((xa + xb) / 2, by + em * 0.95, f"phase {ph + 1}", theme.small_pt, fg,
                       anchor="middle", key=f"phase:{ph}")
        link_top = by + em * 1.3

    # connections: lane → each bank its element covers
    header_top = link_top + LINK_H
    segs, keys, hi = [], [], []
    for lane in sorted(active):
        words = r.words_of_lane[lane] or ()
        for w in words:
            bank = w % BANKS
            seg = (x0 + (lane + 0.5) * col, link_top, x0 + (bank + 0.5) * col, header_top)
            segs.append(seg)
            keys.append(f"lane:{lane}")
            if lane in sel_lanes or bank in sel_banks or w in sel_words:
                hi.append(seg)
    with c.group(name="connections"):
        c.segments(segs, Style(stroke=theme.outline, stroke_width=theme.thin_mm * 1.5), keys)
        if hi:
            c.segments(hi, Style(stroke=theme.accent, stroke_width=theme.thick_mm))

    # bank headers
    with c.group(name="banks"):
        c.text(MARGIN, header_top + HEADER_H / 2, "bank", theme.small_pt, muted,
               baseline="middle")
        c.rects([(x0 + b * col + 0.15, header_top, col - 0.3, HEADER_H) for b in range(BANKS)],
                Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm),
                [f"bank:{b}" for b in range(BANKS)])
        for b in range(BANKS):
            c.text(x0 + (b + 0.5) * col, header_top + HEADER_H / 2, str(b), num_pt, fg,
                   anchor="middle", baseline="middle", font="mono")

    # the rack: one row per round
    rack_top = header_top + HEADER_H + 1.2
    rounds = max(r.rounds, 1)
    row_h = max(2.0, min(5.0, RACK_MAX_H / rounds))
    rack_h = rounds * row_h
    column_bg = [(x0 + b * col + 0.15, rack_top, col - 0.3, rack_h) for b in range(BANKS)]
    c.rects(column_bg, Style(fill=theme.surface), [f"bank:{b}" for b in range(BANKS)])
    label_every = 1 if row_h >= 3.2 else (2 if row_h >= 2.4 else 4)
    with c.group(name="rounds"):
        c.text(x0 - 1.2 - text_width("round", theme.small_pt), header_top + HEADER_H / 2,
               "round", theme.small_pt, muted, baseline="middle")
        for k in range(1, r.rounds + 1):
            if k == 1 or k % label_every == 0:
                c.text(x0 - 1.2 - text_width(str(k), theme.small_pt * 0.9, "mono"),
                       rack_top + (k - 0.5) * row_h, str(k), theme.small_pt * 0.9, fg,
                       baseline="middle", font="mono", key=f"round:{k}")

    depth_in_phase: dict[tuple[int, int], int] = {}
    for s in r.slots:
        depth_in_phase[(s.phase, s.bank)] = depth_in_phase.get((s.phase, s.bank), 0) + 1
    plain, conflict, broadcast = [], [], []
    plain_k, conflict_k, broadcast_k = [], [], []
    for s in r.slots:
        box = (x0 + s.bank * col + 0.45, rack_top + (s.round - 1) * row_h + 0.25, col - 0.9,
               row_h - 0.5)
        key = f"word:{s.word}"
        if len(s.lanes) > 1:
            broadcast.append(box)
            broadcast_k.append(key)
        elif depth_in_phase[(s.phase, s.bank)] > 1:
            conflict.append(box)
            conflict_k.append(key)
        else:
            plain.append(box)
            plain_k.append(key)
    show_words = row_h >= 3.2
    mono_w = text_width("0", theme.small_pt * 0.8, "mono")
    with c.group(name="queues"):
        c.rects(plain, theme.fill("used"), plain_k)
        c.rects(conflict, theme.fill("conflict"), conflict_k)
        c.rects(broadcast, theme.fill("broadcast"), broadcast_k)
        if show_words:
            for s in r.slots:
                if len(s.lanes) > 1:
                    role = "broadcast"
                else:
                    role = "conflict" if depth_in_phase[(s.phase, s.bank)] > 1 else "used"
                label = f"×{len(s.lanes)}" if len(s.lanes) > 1 else str(s.word)
                if mono_w * len(label) * 1.2 > col - 0.9 and len(s.lanes) > 1:
                    label = str(len(s.lanes))
                if mono_w * len(label) * 1.2 <= col - 0.9:
                    c.text(x0 + (s.bank + 0.5) * col, rack_top + (s.round - 0.5) * row_h, label,
                           theme.small_pt * 0.8, theme.ink_on(role), anchor="middle",
                           baseline="middle", font="mono")
        for s in r.slots:
            if sel_lanes & set(s.lanes) or s.word in sel_words:
                c.rect(x0 + s.bank * col + 0.45, rack_top + (s.round - 1) * row_h + 0.25,
                       col - 0.9, row_h - 0.5, theme.highlight())
        for b in sorted(sel_banks):
            if 0 <= b < BANKS:
                c.rect(x0 + b * col + 0.15, header_top, col - 0.3,
                       rack_top - header_top + rack_h, theme.highlight())
    # phase separators
    if r.phases > 1:
        start = 0
        for ph, n in enumerate(r.phase_rounds):
            if n:
                if start:
                    yy = rack_top + start * row_h
                    c.line(MARGIN, yy, WIDTH - MARGIN, yy,
                           theme.stroke("foreground", theme.line_mm, dash=(1.2, 0.8)))
                c.text(MARGIN, rack_top + (start + n / 2) * row_h,
                       f"ph {ph + 1}", theme.small_pt * 0.9, muted, baseline="middle")
                start += n
    if not r.slots:
        c.text(WIDTH / 2, rack_top + row_h / 2, "no active lane: nothing to serve",
               theme.text_pt, muted, anchor="middle", baseline="middle")
    y = rack_top + rack_h + em * 1.6
    y = _receipt(c, r, theme, y)
    y = _legend(c, theme, y)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz bank queues",
                    description=f"{len(active)} lanes, {r.access_bytes}-byte accesses, "
                                f"{r.pattern}: {r.rounds} rounds, conflict degree "
                                f"{r.conflict_degree}, {r.distinct_words} distinct words")


def _receipt(c: Canvas, r: BanksResult, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    worst = ""
    if r.slots:
        counts: dict[tuple[int, int], int] = {}
        for s in r.slots:
            counts[(s.phase, s.bank)] = counts.get((s.phase, s.bank), 0) + 1
        (_, bank), _ = max(counts.items(), key=lambda kv: (kv[1], -kv[0][1]))
        worst = f" (bank {bank})"
    groups = len(r.broadcast_groups)
    largest = max((len(g.lanes) for g in r.broadcast_groups), default=0)
    items = [
        ("rounds", str(r.rounds)),
        ("conflict degree", f"{r.conflict_degree}{worst}"),
        ("distinct words", str(r.distinct_words)),
        ("broadcasts", f"{groups}" + (f" (largest: {largest} readers)" if groups else "")),
    ]
    if r.phases > 1:
        items.append(("rounds per phase", " + ".join(str(n) for n in r.phase_rounds)))
    with c.group("receipt", name="receipt"):
        x = MARGIN
        for label, value in items:
            c.text(x, y, label, theme.small_pt, muted)
            c.text(x, y + em * 1.25, value, theme.text_pt, fg, bold=label == "rounds",
                   font="mono")
            x += max(text_width(label, theme.small_pt),
                     text_width(value, theme.text_pt, "mono")) + em * 1.6
        c.text(MARGIN, y + em * 2.6, "Rounds count distinct words one bank must deliver in "
               "turn; they are not measured cycles.", theme.small_pt, muted)
    return y + em * 4.4


def _legend(c: Canvas, theme: Theme, y: float) -> float:
    em = theme.text_pt * PT_TO_MM
    entries = (
        (theme.fill("valid"), "active lane"),
        (theme.fill("masked"), "masked lane"),
        (theme.fill("used"), "word, alone in its bank"),
        (theme.fill("conflict"), "one of several words in a bank (conflict)"),
        (theme.fill("broadcast"), "one word, several readers (broadcast)"),
    )
    x = MARGIN
    with c.group(name="legend"):
        for style, label in entries:
            need = em * 2.6 + text_width(label, theme.small_pt)
            if x + need > WIDTH - MARGIN:
                x = MARGIN
                y += em * 1.3
            c.rect(x, y - em * 0.75, em, em, style)
            c.text(x + em * 1.4, y, label, theme.small_pt, theme.foreground)
            x += need
    return y + em * 0.4
