"""The shuffle reduction tree: one track per level, one cell per lane.

Each level's active prefix (the lanes that hold current partial sums) is drawn solid, the
suffix that only keeps historic values is faded, and the shuffles feeding a level are drawn as
lines from the source lane. Values that are undefined (a read from outside the mask, or of an
uninitialised shared entry) are hatched and shown as "?". Selecting a partial outlines its
contributor set: the input cells and every partial beneath it in the tree. At block scope the
warp partials and the 32 shared entries the final warp reads are drawn before its tree.

Layout: where the 32 lanes fit the width side by side (each lane's column as wide as the values
it holds), levels run down the page; where they do not (a journal column, a narrow view), the
grid is transposed: lanes run down, levels across. Values are never dropped: a value too long
for its cell is shortened by the stated rule and listed with its exact value.

Keys: ``lane:<l>`` (a lane's label), ``partial:<level>,<lane>`` (one cell of the tree),
``warp:<w>`` (a warp's partial at block scope), ``shared:<i>`` (a shared-memory entry).
Selection may carry ``frame:<n>``: levels after n are faded (warp scope: n = level shown;
block scope: 0 inputs, 1 warp partials stored, 2 + k final level k).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from gpuviz.figures.display import Figure, Style
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    format_number,
    legend_block,
    line_step,
    receipt_block,
    short_forms,
    shortened_note,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.reduction import WARP, ReductionResult

FUTURE_OPACITY = 0.22
PAD = 0.35  # mm between a value and its cell's edge
LINE_GAP = 4.5  # mm between tracks, where the shuffle lines run


def frame_count(result: ReductionResult) -> int:
    levels = len(result.levels)
    return levels + 2 if result.contributor_unit == "warp" else levels


def frame_of(selection: frozenset[str]) -> int | None:
    """The playback frame carried by the selection; the earliest if several are present."""
    frames = [int(k[6:]) for k in selection if k.startswith("frame:") and k[6:].isdigit()]
    return min(frames) if frames else None


@lru_cache(maxsize=4096, typed=True)
def _fmt(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "?"
    return format_number(v, 7)


@dataclass
class _State:
    """What one build shares between its blocks."""

    result: ReductionResult
    selection: frozenset[str]
    theme: Theme
    target: Target
    block: bool
    frame: int
    level_shown: int
    # each lane's width at a type size: the build asks for it several times per layout
    widths: dict[float, list[float]] = field(default_factory=dict)


def build(result: ReductionResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    block = result.contributor_unit == "warp"
    frame = frame_of(selection)
    last = frame_count(result) - 1
    frame = last if frame is None else max(0, min(frame, last))
    st = _State(result, selection, theme, target, block, frame, frame - 2 if block else frame)

    pattern = ("__shfl_xor_sync butterfly" if result.active_prefix[-1] == WARP
               else "__shfl_down_sync")
    scope = f"block of {result.warps} warps" if block else "one warp"
    caption = ("lanes below the offset add the value of lane + offset; the faded suffix keeps "
               "historic values" if pattern == "__shfl_down_sync" else
               "lanes l and l xor offset exchange and add; every lane stays active")
    shortened: list[tuple[str, str]] = []

    def body(width: float) -> list[Block]:
        blocks = []
        if block:
            blocks.append(as_part("block", _warp_partials(st, width)))
        blocks.append(as_part("tree", _tree(st, width)))
        shortened[:] = [p for b in blocks if target.shows(*b.parts) for p in b.shortened]
        return blocks

    def side(width: float) -> list[Block]:
        return [_legend(st, width, shortened), *_receipt(st, width)]

    need = _wide_need(st, theme.small_pt)
    return compose(target, theme, title=f"Reduction: {pattern}, {scope}",
                   subtitle=f"Offsets 16, 8, 4, 2, 1: {caption}.", body=body, side=side,
                   natural_width=min(200.0, max(150.0, need)), figure_title="Reduction tree",
                   description=f"A {pattern} reduction over {'a ' * block}{scope}, partial sums level by "
                               f"level, with the result {_fmt(result.result)}.")


# --------------------------------------------------------------------------------------------
# The grid: tracks (the shared entries at block scope, then the levels) × lanes


def _tracks(st: _State) -> list[tuple[str, str, tuple[float | None, ...]]]:
    """(label, key prefix, values) per track, top (or left) first."""
    r = st.result
    out = []
    if st.block:
        out.append(("shared entries", "shared:", tuple(r.shared_partials)))
    for k, row in enumerate(r.levels):
        label = "input" if k == 0 else f"+ offset {r.offsets[k - 1]}"
        if st.block and k == 0:
            label = "shared read"
        out.append((label, f"partial:{k},", tuple(row)))
    return out


def _shown(st: _State, t: int, lane: int) -> bool:
    """Whether track ``t``'s value in ``lane`` is printed in this frame."""
    return not (st.block and t == 0 and st.frame < 1)


def _value_w(text: str, pt: float) -> float:
    return text_width(text, pt, "mono") + 2 * PAD + 0.3


def _lane_widths(st: _State, pt: float) -> list[float]:
    known = st.widths.get(pt)
    if known is None:
        known = st.widths[pt] = _measure_lanes(st, pt)
    return known


def _measure_lanes(st: _State, pt: float, shortest: bool = False) -> list[float]:
    """Every lane as wide as the widest value of any lane: an even lane axis (lane 0 of a
    float32 sum took four times the width of the others); with ``shortest``, each value in its
    narrowest exact spelling (grouping dropped, 2ⁿ + a remainder), as value cells shorten."""
    widest = _value_w("00", pt)
    for t, (_, _, values) in enumerate(_tracks(st)):
        for lane, v in enumerate(values[:WARP]):
            if _shown(st, t, lane):
                text = _fmt(v)
                forms = [text, *_exact_forms(text)] if shortest else [text]
                widest = max(widest, min(_value_w(f, pt) for f in forms))
    return [widest] * WARP


def _label_w(st: _State, pt: float) -> float:
    labels = [label for label, _, _ in _tracks(st)] + ["lane"]
    return max(text_width(s, pt) for s in labels) + 1.5


def _wide_need(st: _State, pt: float) -> float:
    return _label_w(st, pt) + sum(_lane_widths(st, pt))


def _cell_h(pt: float) -> float:
    return max(4.2, ink_height(pt, "mono") + 1.6)


def _tree(st: _State, width: float) -> Block:
    theme, target = st.theme, st.target
    pt = theme.small_pt
    floor = min(pt, target.min_pt)
    tracks = _tracks(st)
    n = len(tracks)
    first_level = 1 if st.block else 0
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    cell_h = _cell_h(pt)
    # lanes across while every lane's column holds its widest value at the type size, or at
    # the floor in its exact short form (the values shrink to it): even columns either way
    widths = _lane_widths(st, pt)
    if _label_w(st, pt) + sum(widths) > width + 1e-6:  # at the floor, in exact short forms
        widths = _measure_lanes(st, floor, shortest=True)
    wide = _label_w(st, pt) + sum(widths) <= width + 1e-6
    if wide:
        label_w = _label_w(st, pt)
        lane_x = [label_w + sum(widths[:i]) for i in range(WARP)]
        head = cap_height(pt) + 1.2
        track_y = []
        y = head
        for t in range(n):
            track_y.append(y)
            y += cell_h + (LINE_GAP + 1.5 if st.block and t == 0 else LINE_GAP)
        height = track_y[-1] + cell_h

        def cell(t: int, lane: int) -> tuple[float, float, float, float]:
            return lane_x[lane], track_y[t], widths[lane], cell_h

        for lane in range(WARP):
            c.text(lane_x[lane] + widths[lane] / 2, cap_height(pt), str(lane), pt, muted,
                   anchor="middle", key=f"lane:{lane}")
        c.text(0.0, cap_height(pt), "lane", pt, muted)
        for t, (label, _, _) in enumerate(tracks):
            c.text(0.0, track_y[t] + cell_h / 2, label, pt, fg, baseline="middle")
    else:
        # Transposed: lanes down, tracks across, each track's column as wide as it needs (or
        # an equal share of the width, shortening what does not fit).
        lane_label_w = max(text_width("31", pt), text_width("lane", pt)) + 1.5
        cell_h = max(3.6, ink_height(pt, "mono") + 1.2)
        gap = 3.5
        avail = width - lane_label_w - gap * (n - 1)
        full, least = [], []
        for t, (_, _, values) in enumerate(tracks):
            f = m = _value_w("000", floor)
            for lane, v in enumerate(values[:WARP]):
                if _shown(st, t, lane):
                    text = _fmt(v)
                    f = max(f, _value_w(text, pt))
                    m = max(m, min(_value_w(s, floor) for s in [text, *_exact_forms(text)]))
            full.append(f)
            least.append(min(m, f))
        if sum(full) <= avail:
            need = full
        elif sum(least) <= avail:
            # Every column shows its values exactly (grouping dropped, or 2ⁿ ± a remainder);
            # the room left goes to the columns in proportion to what they lack.
            spare = (avail - sum(least)) / (sum(full) - sum(least))
            need = [m + (f - m) * spare for f, m in zip(full, least, strict=True)]
        else:
            need = [f * avail / sum(full) for f in full]
        col_x = []
        x = lane_label_w
        for t in range(n):
            col_x.append(x)
            x += need[t] + gap
        head_lines = [_header(label) for label, _, _ in tracks]
        # Headers at the largest size (down to the floor) whose words fit their column's pitch.
        hpt = pt
        for t, lines in enumerate(head_lines):
            for line in lines:
                hpt = min(hpt, pt * (need[t] + gap * 0.6) / text_width(line, pt))
        hpt = max(floor, hpt)
        step = line_step(hpt, 1.2)
        head = cap_height(hpt) + step * (max(len(h) for h in head_lines) - 1) + 1.5
        lane_y = [head + lane * cell_h for lane in range(WARP)]
        height = lane_y[-1] + cell_h

        def cell(t: int, lane: int) -> tuple[float, float, float, float]:
            return col_x[t], lane_y[lane], need[t], cell_h

        for t, lines in enumerate(head_lines):
            for i, line in enumerate(lines):
                c.text(col_x[t] + need[t] / 2, cap_height(hpt) + i * step, line, hpt, fg,
                       anchor="middle")
        c.text(lane_label_w - 1.2, head - 1.5, "lane", hpt, muted, anchor="end")
        for lane in range(WARP):
            c.text(lane_label_w - 1.2, lane_y[lane] + cell_h / 2, str(lane), pt, muted,
                   anchor="end", baseline="middle", key=f"lane:{lane}")

    # Cells, grouped by role and whether they are still to come.
    r = st.result
    buckets: dict[tuple[str, bool], tuple[list, list]] = {}
    roles: dict[tuple[int, int], tuple[str, bool]] = {}
    for t, (_, prefix, values) in enumerate(tracks):
        k = t - first_level
        for lane in range(WARP):
            v = values[lane] if lane < len(values) else None
            if k < 0:
                role = "warn" if v is None else ("active" if lane < r.warps else "absent")
                future = st.frame < 1
            else:
                if v is None:
                    role = "warn"
                elif lane < r.active_prefix[k]:
                    role = "owned" if k == 0 else "active"
                else:
                    role = "faded"
                future = k > st.level_shown
            x, y, w, h = cell(t, lane)
            roles[(t, lane)] = (role, future)
            bucket = buckets.setdefault((role, future), ([], []))
            bucket[0].append((x + 0.15, y, w - 0.3, h))
            bucket[1].append(f"{prefix}{lane}")
    with c.group(name="tree"):
        for (role, future), (xywh, keys) in sorted(buckets.items()):
            style = _cell_style(theme, role)
            c.rects(xywh, theme.faded(style, FUTURE_OPACITY) if future else style, keys)
        # Shuffle lines from the source lane.
        for k in range(1, len(r.levels)):
            off = r.offsets[k - 1]
            t = k + first_level
            segs = []
            for lane in range(r.active_prefix[k]):
                src = lane ^ off if r.active_prefix[k] == WARP else lane + off
                sx, sy, sw, sh = cell(t - 1, src)
                dx, dy, dw, dh = cell(t, lane)
                if wide:
                    segs.append((sx + sw / 2, sy + sh + 0.2, dx + dw / 2, dy - 0.2))
                else:
                    segs.append((sx + sw + 0.2, sy + sh / 2, dx - 0.2, dy + dh / 2))
            style = theme.stroke("muted", theme.thin_mm)
            c.segments(segs, theme.faded(style, FUTURE_OPACITY) if k > st.level_shown else style)
            # the other operand of the add: the lane's own value, straight down (or across)
            own = []
            for lane in range(r.active_prefix[k]):
                sx, sy, sw, sh = cell(t - 1, lane)
                dx, dy, dw, dh = cell(t, lane)
                if wide:
                    own.append((sx + sw / 2, sy + sh + 0.2, dx + dw / 2, dy - 0.2))
                else:
                    own.append((sx + sw + 0.2, sy + sh / 2, dx - 0.2, dy + dh / 2))
            style = _own_style(theme)
            c.segments(own, theme.faded(style, FUTURE_OPACITY) if k > st.level_shown else style)
        if st.block:
            style = theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5))
            if st.frame < 2:
                style = theme.faded(style, FUTURE_OPACITY)
            x0, y0, w0, h0 = cell(0, 0)
            x1, y1, _, _ = cell(1, WARP - 1)
            if wide:
                by = (y0 + h0 + y1) / 2
                c.line(x0, by, x1 + cell(1, WARP - 1)[2], by, style)
            else:
                bx = (x0 + w0 + x1) / 2
                c.line(bx, y0, bx, cell(1, WARP - 1)[1] + cell_h, style)
    with c.group(name="values"):
        inks: dict[str, str] = {}  # the ink on each role's cells
        for t, (_, prefix, values) in enumerate(tracks):
            k = t - first_level
            for lane in range(WARP):
                if not _shown(st, t, lane):
                    continue
                v = values[lane] if lane < len(values) else None
                if k < 0:
                    historic = lane >= r.warps
                else:
                    historic = lane >= r.active_prefix[k] or k > st.level_shown
                x, y, w, h = cell(t, lane)
                role, future = roles[(t, lane)]
                if historic:
                    ink = muted
                else:
                    if role not in inks:
                        inks[role] = theme.ink_on(_cell_style(theme, role).fill or fg)
                    ink = inks[role]
                drawn = c.value(x + 0.15, y, w - 0.3, h, _fmt(v), pt, ink,
                                floor=floor, key=f"{prefix}{lane}", pad=PAD)
                if v is None and theme.hatches.get("warn"):
                    # The "?" of an undefined value sits on the hatching: a clear spot for it.
                    c._items.pop()  # the value just drawn
                    c.add(replace(drawn, knockout=theme.mix(theme.color("warn"), 0.7)))

    # Selection: a partial's contributor set outlined through the tree, a lane, an entry.
    for key in sorted(st.selection):
        kind, _, value = key.partition(":")
        if kind == "partial":
            try:
                k, lane = (int(p) for p in value.split(","))
            except ValueError:
                continue
            if not (0 <= k < len(r.levels) and 0 <= lane < WARP):
                continue
            # the partials that flow into this one: at each level up, its own lane and the
            # lane it shuffled in from (lane ^ offset in a butterfly, lane + offset going down)
            feeding = {lane}
            cells = []
            for j in range(k, -1, -1):
                for m in sorted(feeding):
                    x, y, w, h = cell(j + first_level, m)
                    cells.append((x, y - 0.2, w, h + 0.4))
                if j:
                    off = r.offsets[j - 1]
                    xor = r.active_prefix[j] == WARP
                    feeding = {v for m in feeding for v in (m, m ^ off if xor else m + off)
                               if v < WARP}
            c.rects(cells, _contributor_style(theme), None)
            x, y, w, h = cell(k + first_level, lane)
            theme.select(c, x, y - 0.2, w, h + 0.4, key=key)
        elif kind == "lane" and value.isdigit() and int(value) < WARP:
            lane = int(value)
            x0, y0, w0, h0 = cell(first_level, lane)
            x1, y1, w1, h1 = cell(n - 1, lane)
            theme.select(c, x0, y0 - 0.2, x1 + w1 - x0, y1 + h1 + 0.4 - y0, key=key)
        elif kind == "shared" and value.isdigit() and st.block and int(value) < WARP:
            x, y, w, h = cell(0, int(value))
            theme.select(c, x, y - 0.2, w, h + 0.4, key=key)
    full_w = (lane_x[-1] + widths[-1]) if wide else (col_x[-1] + need[-1])
    return c.block(full_w, height + 0.2, "tree")


def _exact_forms(text: str) -> list[str]:
    """The shortened spellings of ``text`` that keep its exact value (no k, M, G rounding)."""
    if not text.replace(",", "").lstrip("-").isdigit():
        return []
    return [f for f in short_forms(text) if f[-1] not in "kMG"]


def _header(label: str) -> list[str]:
    """A track's column header in the transposed grid, on two lines where it has two words."""
    words = label.removeprefix("+ ").split(" ")  # a column's "+" is in the legend's words
    return [" ".join(words[:-1]), words[-1]] if len(words) > 1 else words


def _warp_partials(st: _State, width: float) -> Block:
    """Each warp's partial (lane 0 of its tree), flowed in rows, before the shared entries."""
    theme, r = st.theme, st.result
    pt = theme.small_pt
    fg, muted = theme.color("foreground"), theme.color("muted")
    c = BlockCanvas()
    title = wrap("warp partials (lane 0 of each warp, stored to shared memory)", pt, width)
    for i, line in enumerate(title):
        c.text(0.0, cap_height(pt) + i * line_step(pt), line, pt, fg)
    cell_h = _cell_h(pt)
    texts = [f"w{w}: {_fmt(v)}" if st.frame >= 1 else f"warp {w}"
             for w, v in enumerate(r.warp_partials)]
    box_w = max(_value_w(t, pt) for t in texts) + 1.0
    box_w = min(box_w, width)
    per_row = max(1, int((width + 0.4) // (box_w + 0.4)))
    top = cap_height(pt) + (len(title) - 1) * line_step(pt) + 1.5
    style = _cell_style(theme, "active")
    if st.frame < 1:
        style = theme.faded(style, FUTURE_OPACITY)
    chosen = {int(k[5:]) for k in st.selection if k.startswith("warp:") and k[5:].isdigit()}
    bottom = top
    for w, text in enumerate(texts):
        x = (w % per_row) * (box_w + 0.4)
        y = top + (w // per_row) * (cell_h + 0.6)
        c.rect(x, y, box_w, cell_h, style, key=f"warp:{w}")
        c.value(x, y, box_w, cell_h, text, pt, fg if st.frame >= 1 else muted,
                floor=min(pt, st.target.min_pt), key=f"warp:{w}", pad=PAD)
        if w in chosen:
            theme.select(c, x - 0.2, y - 0.2, box_w + 0.4, cell_h + 0.4, key=f"warp:{w}")
        bottom = y + cell_h
    used = min(width, max(max(text_width(t, pt) for t in title),
                          min(len(texts), per_row) * (box_w + 0.4) - 0.4))
    return c.block(used, bottom + 0.2, "warp partials")


def _dark(theme: Theme) -> bool:
    return sum(int(theme.background[i:i + 2], 16) for i in (1, 3, 5)) < 3 * 0x80


def _contributor_style(theme: Theme) -> Style:
    """The outline of a selected partial's contributors: dashed in the ink, unlike the
    selection's double outline."""
    return Style(stroke=theme.foreground, stroke_width=theme.line_mm, dash=(0.7, 0.45))


def _own_style(theme: Theme) -> Style:
    """A lane's own value carried into its add: dotted, beside the shuffle's solid line."""
    return Style(stroke=theme.muted, stroke_width=theme.thin_mm, dash=(0.3, 0.4))


#: Gray levels (0 black – 1 paper) of the tree's cells in a theme that must survive a grayscale
#: print, 0.12 apart or more: the current partials darkest, the inputs lighter, historic values
#: nearly paper, and shared entries no warp stores to the paper itself. Values sit on them in black
#: (in muted gray on historic cells), so they are flat steps, not hatching.
PRINT_GRAY = {"active": 0.62, "owned": 0.76, "faded": 0.88, "absent": 1.0}


def _cell_style(theme: Theme, role: str) -> Style:
    base = theme.fill(role)
    if theme.category_hatch(0) is not None and role in PRINT_GRAY:
        # A grayscale-safe theme (print): each meaning on its own gray step, keeping its hue
        # (the current partials take the hue of valid data).
        hue = theme.color("valid") if role == "active" else base.fill or theme.background
        return replace(base, fill=theme.at_gray(hue, PRINT_GRAY[role]))
    if role == "active":
        # Lighter than the input on a light page, brighter than it on a dark one.
        return theme.faded(base, 0.75 if _dark(theme) else 0.45)
    if role == "warn":
        # Hatched where the theme hatches warnings (print); the "?" marks it everywhere.
        return Style(fill=theme.mix(theme.color("warn"), 0.7), stroke=theme.outline,
                     stroke_width=theme.thin_mm, hatch=base.hatch, hatch_color=base.hatch_color)
    return base


def _legend(st: _State, width: float, shortened: list[tuple[str, str]]) -> Block:
    theme, r = st.theme, st.result
    tree = ("tree",)  # the warp partials (part "block") are current partials only
    every = all(prefix == WARP for prefix in r.active_prefix[1:])  # a butterfly
    entries = [LegendEntry("input", _cell_style(theme, "owned"), parts=tree),
               LegendEntry("current partial" + ("" if every else " (active prefix)"),
                           _cell_style(theme, "active"))]
    if any(prefix < WARP for prefix in r.active_prefix[1:]):  # a butterfly keeps every lane
        entries.append(LegendEntry("historic value (faded suffix)", _cell_style(theme, "faded"),
                                   parts=tree))
    if st.block:
        entries.append(LegendEntry("shared entry no warp stores to", _cell_style(theme,
                                                                                  "absent"),
                                   parts=tree))
    if any(v is None for row in r.levels for v in row) or any(
            v is None for v in r.shared_partials):
        entries.append(LegendEntry("undefined value (?)", _cell_style(theme, "warn"), parts=tree))
    entries.append(LegendEntry("shuffle: source lane → lane, added",
                               theme.stroke("muted", theme.thin_mm), "line", parts=tree))
    entries.append(LegendEntry("+ the lane's own value",
                               _own_style(theme), "line", parts=tree))
    if st.block:
        entries.append(LegendEntry("block barrier (__syncthreads)",
                                   theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5)),
                                   "line", parts=tree))
    if any(k.split(":")[0] in ("partial", "lane", "shared", "warp") for k in st.selection):
        entries.append(LegendEntry("selected", theme.highlight(), "selection"))
    if any(k.startswith("partial:") for k in st.selection):
        entries.append(LegendEntry("its contributors", _contributor_style(theme)))
    notes = []
    if st.frame < frame_count(r) - 1:
        notes.append("Faded tracks are still to come in this step.")
    note = shortened_note(shortened)
    if note:
        notes.append(note)
    return legend_block(entries, theme, width, notes=notes, target=st.target)


def _receipt(st: _State, width: float) -> list[Block]:
    theme, r = st.theme, st.result
    head = (f"{_fmt(r.result)}" if r.result is not None else "undefined")
    order = "differ" if r.order_dependent else "agree"
    rows: list[str | tuple[str, str]] = [
        ("lane 0 holds", head + ("" if r.correct or r.result is None else "  ≠ exact sum")),
        ("exact sum", _fmt(r.exact_sum)),
        ("float32, tree order", _fmt(r.float32_tree_sum)),
        ("float32, left to right", _fmt(r.float32_sequential_sum)),
        ("the two orders", order),
    ]
    out = [receipt_block(rows, theme, width, title="Result")]
    for flag in r.flags:
        out.append(text_block(_grouped(flag), theme, width, name="flag"))
    for key in sorted(st.selection):
        kind, _, value = key.partition(":")
        if kind != "partial":
            continue
        try:
            k, lane = (int(p) for p in value.split(","))
        except ValueError:
            continue
        if 0 <= k < len(r.levels) and 0 <= lane < WARP:
            members = sorted(r.contributors[k][lane])
            unit = "warp partials" if st.block else "inputs"
            out.append(text_block(
                f"partial at level {k}, lane {lane} = {_fmt(r.levels[k][lane])}: "
                f"{len(members)} {unit} {_ranges(members)}", theme, width,
                color=theme.foreground, name="detail"))
    return out


def _grouped(text: str) -> str:
    """The model's sentence with its long integers in the figure's one number format."""
    return re.sub(r"(?<![\d.,x])\d{4,}(?![\d.])", lambda m: format_number(int(m.group())), text)


def _ranges(values: list[int]) -> str:
    """{0–15, 17} style listing of sorted integers."""
    if not values:
        return "{}"
    parts, start, prev = [], values[0], values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else
                     (f"{start}, {prev}" if prev == start + 1 else f"{start}–{prev}"))
        if v is not None:
            start = prev = v
    return "{" + ", ".join(parts) + "}"
