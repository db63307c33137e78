"""The reduction tree's grid: one track per level (and the shared entries at block scope), one
cell per lane, every add drawn with both operands meeting at a "+".

Where the 32 lanes fit the width side by side (each lane's column as wide as the widest value
of any lane: an even lane axis), levels run down the page. Where they do not, the grid is
transposed: lanes run down, levels across. In a sized target (a journal column, a slide, a
view) the transposed grid is folded to 16 rows (:mod:`gpuviz.figures.reduction_fold`: what it
leaves out repeats what is drawn, and a note says so), with a "+" between the two operands of
the first add in one row. Values are never dropped: a value too long for its cell is
shortened by the stated rule and listed with its exact value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from gpuviz.figures.display import BASELINE_SHIFT_EM, PT_TO_MM
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    Target,
    fit_value,
    format_number,
    knock_out,
    line_step,
    short_forms,
    shortened_place,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, room_width, text_width
from gpuviz.figures.reduction_fold import HALF, fold_plan
from gpuviz.figures.reduction_styles import cell_style, contributor_style, own_style
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.keys import key, numbers, of_kind
from gpuviz.models.reduction import WARP, ReductionResult

FUTURE_OPACITY = 0.22
PAD = 0.35  # mm between a value and its cell's edge
LINE_GAP = 4.5  # mm between tracks, where the shuffle lines run
BAND_GAP = 4.0  # mm between bands of tracks, one under another
PLUS = "+"


@lru_cache(maxsize=4096, typed=True)
def fmt(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "?"
    return format_number(v, 7)


@dataclass
class State:
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
    folded: list[int] = field(default_factory=list)  # the folded tree's rows (empty: not folded)
    roles: list[str] = field(default_factory=list)  # the cell roles the last tree drew


@dataclass(frozen=True)
class Track:
    label: str
    level: int | None  # None: the shared entries (block scope)
    values: tuple[float | None, ...]

    def key(self, lane: int) -> str:
        return key("shared", lane) if self.level is None else key("partial", self.level, lane)


def tracks(st: State) -> list[Track]:
    """The tracks, top (or left) first."""
    r = st.result
    out = []
    if st.block:
        out.append(Track("shared entries", None, tuple(r.shared_partials)))
    for k, row in enumerate(r.levels):
        label = "input" if k == 0 else f"+ offset {r.offsets[k - 1]}"
        if st.block and k == 0:
            label = "shared read"
        out.append(Track(label, k, tuple(row)))
    return out


def shown(st: State, t: int) -> bool:
    """Whether track ``t``'s values are printed in this frame."""
    return not (st.block and t == 0 and st.frame < 1)


def value_w(text: str, pt: float) -> float:
    return text_width(text, pt, "mono") + 2 * PAD + 0.3


def cell_h(pt: float) -> float:
    return max(4.2, ink_height(pt, "mono") + 1.6)


def lane_widths(st: State, pt: float) -> list[float]:
    known = st.widths.get(pt)
    if known is None:
        known = st.widths[pt] = measure_lanes(st, pt)
    return known


def measure_lanes(st: State, pt: float, shortest: bool = False) -> list[float]:
    """Every lane as wide as the widest value of any lane: an even lane axis (lane 0 of a
    float32 sum took four times the width of the others); with ``shortest``, each value in its
    narrowest exact spelling (grouping dropped, 2ⁿ + a remainder), as value cells shorten."""
    widest = value_w("00", pt)
    for t, track in enumerate(tracks(st)):
        if shown(st, t):
            for v in track.values[:WARP]:
                text = fmt(v)
                forms = [text, *exact_forms(text)] if shortest else [text]
                widest = max(widest, min(value_w(f, pt) for f in forms))
    return [widest] * WARP


def label_w(st: State, pt: float) -> float:
    labels = [t.label for t in tracks(st)] + ["lane"]
    return max(text_width(s, pt) for s in labels) + 1.5


def wide_need(st: State, pt: float) -> float:
    return label_w(st, pt) + sum(lane_widths(st, pt))


def spellings(text: str) -> list[str]:
    """The shorter spellings of a value, most exact first (:func:`short_forms`), and for a
    whole number of more than six digits its powers of ten too (-18,688,608,066,884 as
    -1.87e13 and -2e13, where k, M and G stop at -18689G)."""
    forms = short_forms(text)
    raw = text.replace(",", "").replace("−", "-")
    if raw.lstrip("-").isdigit() and len(raw.lstrip("-")) > 6:
        value = int(raw)
        forms += [_exponent(f"{value:.{d}e}") for d in (2, 1, 0)]
    # an exponent without its "+" and leading zeros (8e+15 as 8e15): one character less
    return [f for f in dict.fromkeys(_exponent(f) if "e" in f else f for f in forms)
            if f != text]


def _exponent(form: str) -> str:
    """``1.9e+13`` as ``1.9e13``."""
    mantissa, _, exponent = form.partition("e")
    sign = "-" if exponent.startswith("-") else ""
    return f"{mantissa}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"


def shortest_w(text: str, pt: float) -> float:
    """The width of the narrowest cell that holds ``text`` at ``pt`` in some spelling."""
    return value_w(min([text, *spellings(text)], key=len), pt)


def exact_forms(text: str) -> list[str]:
    """The shortened spellings of ``text`` that keep its exact value (no k, M, G rounding)."""
    if not text.replace(",", "").lstrip("-").isdigit():
        return []
    return [f for f in short_forms(text) if f[-1] not in "kMG"]


def header(label: str) -> list[str]:
    """A track's column header in the transposed grid, on two lines where it has two words."""
    words = label.removeprefix("+ ").split(" ")  # a column's "+" is in the legend's words
    return [" ".join(words[:-1]), words[-1]] if len(words) > 1 else words


def _spans(head_lines: list[list[str]]) -> list[tuple[int, int, str]]:
    """The runs of side-by-side columns whose headers share their first line, as (first,
    last, line); that line is blanked in each header of the run (``head_lines`` changes)."""
    spans, i = [], 0
    while i < len(head_lines):
        j = i
        while (len(head_lines[i]) > 1 and j + 1 < len(head_lines)
               and len(head_lines[j + 1]) > 1 and head_lines[j + 1][0] == head_lines[i][0]):
            j += 1
        if j > i:
            spans.append((i, j, head_lines[i][0]))
            for k in range(i, j + 1):
                head_lines[k] = ["", *head_lines[k][1:]]
        i = j + 1
    return spans


Box = tuple[float, float, float, float]


def tree(st: State, width: float) -> Block:
    theme, target = st.theme, st.target
    pt = theme.small_pt
    floor = min(pt, target.min_pt)
    tr = tracks(st)
    n = len(tr)
    first_level = 1 if st.block else 0
    c = BlockCanvas()
    fg, muted = theme.color("foreground"), theme.color("muted")
    ch = cell_h(pt)
    plus_w = text_width(PLUS, pt) + 0.8  # the room a "+" takes before a cell
    # lanes across while every lane's column holds its widest value at the type size, or at
    # the floor in its exact short form (the values shrink to it): even columns either way
    widths = lane_widths(st, pt)
    if label_w(st, pt) + sum(widths) > width + 1e-6:  # at the floor, in exact short forms
        widths = measure_lanes(st, floor, shortest=True)
    wide = label_w(st, pt) + sum(widths) <= width + 1e-6
    plan = None if wide or target.kind == "natural" else fold_plan(st, tr)
    folded = plan is not None
    rows = HALF if folded else WARP
    if folded and st.block:
        # at block scope, lanes past the warps' partials only add zeros: as few rows as hold
        # every partial (8 or 4), the rest stated
        for fewer in (8, 4):
            if st.result.warps <= fewer and all(
                    v == 0.0 for track in tr for v in track.values[fewer:WARP]):
                rows = fewer
    st.folded[:] = [rows] if folded else []
    cells: dict[tuple[int, int], Box] = {}
    ghost: dict[tuple[int, int], Box] = {}  # a band's repeat of the track its first adds read
    ghost_band: dict[int, int] = {}  # the track whose adds read the repeat, and its band
    if wide:
        lw = label_w(st, pt)
        lane_x = [lw + sum(widths[:i]) for i in range(WARP)]
        head = cap_height(pt) + 1.2
        y = head
        for t in range(n):
            for lane in range(WARP):
                cells[(t, lane)] = (lane_x[lane], y, widths[lane], ch)
            # the lines into the next level run sideways by its offset: height to keep them
            # apart (a tenth of their run), or they merge into one band
            k = t + 1 - first_level
            run = st.result.offsets[k - 1] * widths[0] if 1 <= k <= len(st.result.offsets) else 0
            gap = max(LINE_GAP, min(12.0, 0.1 * run))
            y += ch + (gap + 1.5 if st.block and t == 0 else gap)
        height = y - gap
        for lane in range(WARP):
            c.text(lane_x[lane] + widths[lane] / 2, cap_height(pt), str(lane), pt, muted,
                   anchor="middle", key=key("lane", lane))
        c.text(0.0, cap_height(pt), "lane", pt, muted)
        for t, track in enumerate(tr):
            c.text(0.0, cells[(t, 0)][1] + ch / 2, track.label, pt, fg, baseline="middle")
        full_w = lane_x[-1] + widths[-1]
    else:
        # Transposed: lanes down, tracks across, each column as wide as it needs (or an equal
        # share of the width, shortening what does not fit). Folded: two columns for a track
        # whose lanes 16–31 are drawn, lanes l and l + 16 in one row.
        columns = [(t, base) for t in range(n)
                   for base in ((0, HALF) if plan is not None and plan[t] else (0,))]
        lane_label_w = max(text_width("31", pt), text_width("lane", pt)) + 1.5
        # a journal column: rows just taller than the values
        column = target.kind == "column"
        ch = ink_height(pt, "mono") + 1.0 if column else max(3.6, ink_height(pt, "mono") + 1.2)
        gap = 3.5
        avail = width - lane_label_w - gap * (len(columns) - 1)
        full, least, short = [], [], []
        for t, base in columns:
            f = m = value_w("000", floor)
            q = value_w("0", floor)  # the least a column of "?" or single digits takes
            if shown(st, t):
                for v in tr[t].values[base:base + rows]:
                    text = fmt(v)
                    f = max(f, value_w(text, pt))
                    m = max(m, min(value_w(s, floor) for s in [text, *exact_forms(text)]))
                    q = max(q, shortest_w(text, floor))
            full.append(f)
            least.append(min(m, f))
            short.append(min(q, m, f))
        if sum(least) > avail and len(columns) > 1:
            # narrower gaps, down to the room a "+" takes, before any value loses exactness
            narrow = max(plus_w + 0.6, gap - (sum(least) - avail) / (len(columns) - 1))
            avail += (gap - narrow) * (len(columns) - 1)
            gap = narrow
        if sum(full) <= avail:
            need = full
        else:
            # Every column shows its values exactly where it can (grouping dropped, or 2ⁿ ± a
            # remainder), else in its shortest spelling (-4e16, 1e-242; each listed exactly):
            # the room left goes to the columns in proportion to what they lack. Where even
            # the shortest spellings do not fit, the columns keep their room for them (a
            # value never runs over its cell and the "+" before it).
            low = least if sum(least) <= avail else short
            spare = max(0.0, min(1.0, (avail - sum(low)) / max(sum(full) - sum(low), 1e-9)))
            need = [m + (f - m) * spare for f, m in zip(full, low, strict=True)]
        head_lines = []
        for t, base in columns:
            lines = header(tr[t].label)
            if plan is not None and plan[t]:
                lines = [*lines, f"{base}–{base + rows - 1}"]
            head_lines.append(lines)
        # room to spare: first for headers that would not fit their column's pitch at the
        # floor (the first also clear of the lane numbers' label), then wider gaps for lines
        wants = [max(room_width(line, floor) for line in lines) - gap * 0.6
                 for lines in head_lines]
        if wants:
            wants[0] += gap * 0.3
        widened = [max(w, h) for w, h in zip(need, wants, strict=True)]
        spans: list[tuple[int, int, str]] = []
        if sum(widened) <= avail:
            need = widened
        else:  # no room to widen: a first line that columns side by side share ("offset" over
            # 16, 8, 4, 2, 1) is set once over them all, as a table's spanning header
            spans = _spans(head_lines)
        if sum(need) < avail and len(columns) > 1:  # room to spare: wider gaps for the lines
            gap = min(8.0, gap + (avail - sum(need)) / (len(columns) - 1))
        # Bands of tracks, one under another, where the columns at their shortest spellings
        # are wider than the page (values with three-digit exponents): each band after the
        # first repeats, without keys, the track its first adds read ("again").
        bands = _bands(columns, need, gap, lane_label_w, width, 2 if st.block else 1)
        own_head = [list(h) for h in head_lines]
        drawn: list[tuple[int, int, bool]] = []  # (band, column, a repeat)
        for b, band in enumerate(bands):
            if b:
                before = columns[band[0]][0] - 1
                drawn += [(b, i, True) for i, (t, _) in enumerate(columns) if t == before]
            drawn += [(b, i, False) for i in band]
        again = {i: [*header(tr[columns[i][0]].label)[:-1],
                     header(tr[columns[i][0]].label)[-1] + " (again)"]
                 + ([f"{columns[i][1]}–{columns[i][1] + rows - 1}"]
                    if plan is not None and plan[columns[i][0]] else [])
                 for _, i, repeat in drawn if repeat}
        col_x: dict[tuple[int, int, bool], float] = {}
        x, band_of = lane_label_w, -1
        for spot in drawn:
            if spot[0] != band_of:
                x, band_of = lane_label_w, spot[0]
            col_x[spot] = x
            x += need[spot[1]] + gap
        first = {i: col_x[(b, i, False)] for b, i, repeat in drawn if not repeat}
        # Headers at the largest size (down to the floor) whose words fit their column's pitch.
        hpt = pt
        for i, lines in [*enumerate(head_lines), *again.items()]:
            for line in lines:
                if line:
                    hpt = min(hpt, pt * (need[i] + gap * 0.6) / room_width(line, pt))
        pieces = [(a, z, line) for i, j, line in spans for band in bands
                  for a, z in [(max(i, band[0]), min(j, band[-1]))] if a <= z]
        for i, j, line in pieces:
            hpt = min(hpt, pt * (first[j] + need[j] - first[i] + gap * 0.6) / room_width(line, pt))
        hpt = max(floor, hpt)
        step = line_step(hpt, 1.2)
        lines_n = max(len(h) for h in [*head_lines, *again.values()])
        head = cap_height(hpt) + step * (lines_n - 1) + 1.5
        band_h = head + rows * ch + BAND_GAP
        # "lane" stands on the headers' last line: a band's first column, whose header on that
        # line is wider than it ("entries" of "shared entries"), moves right clear of it
        for b in range(len(bands)):
            spots = [spot for spot in col_x if spot[0] == b]
            _, i, repeat = spots[0]
            lines = again[i] if repeat else own_head[i]
            if len(lines) == lines_n and lines[-1]:
                left = col_x[spots[0]] + (need[i] - room_width(lines[-1], hpt)) / 2
                shift = lane_label_w - left  # 1.2 mm clear of "lane", as of its numbers
                # as far as the band's right edge, its headers' included, stays on the page
                reach = max(max(col_x[spot] + need[spot[1]], col_x[spot] + need[spot[1]] / 2
                                + max(room_width(h, hpt) for h in
                                      (again[spot[1]] if spot[2] else own_head[spot[1]]) or [""])
                                / 2) for spot in spots)
                shift = min(shift, width - reach)
                if shift > 0:
                    for spot in spots:
                        col_x[spot] += shift
                    first.update({i: col_x[(b, i, False)] for (bb, i, rep) in spots
                                  if bb == b and not rep})
        for (b, i, repeat), cx in col_x.items():
            t, base = columns[i]
            for lane in range(base, base + rows):
                box = (cx, b * band_h + head + (lane - base) * ch, need[i], ch)
                (ghost if repeat else cells)[(t, lane)] = box
            if repeat:
                ghost_band[t + 1] = b
        height = (len(bands) - 1) * band_h + head + rows * ch
        for (b, i, repeat), cx in col_x.items():
            for j, line in enumerate(again[i] if repeat else own_head[i]):
                if line:
                    c.text(cx + need[i] / 2, b * band_h + cap_height(hpt) + j * step, line, hpt,
                           muted if repeat else fg, anchor="middle")
        for i, j, line in pieces:
            b = next(k for k, band in enumerate(bands) if i in band)
            c.text((first[i] + first[j] + need[j]) / 2, b * band_h + cap_height(hpt), line, hpt,
                   fg, anchor="middle")
        for b in range(len(bands)):
            y0 = b * band_h
            c.text(lane_label_w - 1.2, y0 + head - 1.5, "lane", hpt, muted, anchor="end")
            for lane in range(rows):
                c.text(lane_label_w - 1.2, y0 + head + lane * ch + ch / 2, str(lane), pt, muted,
                       anchor="end", baseline="middle", key=key("lane", lane) if not b else None)
        full_w = max(cx + need[i] for (_, i, _), cx in col_x.items())

    r = st.result
    _cells(c, st, tr, cells, first_level)
    if ghost:
        _cells(c, st, tr, ghost, first_level, keyed=False)
    with c.group(name="tree"):
        _adds(c, st, cells, first_level, wide, folded, plus_w, ghost, set(ghost_band))
        if st.block:
            style = theme.stroke("foreground", theme.line_mm, dash=(0.8, 0.5))
            if st.frame < 2:
                style = theme.faded(style, FUTURE_OPACITY)
            x0, y0, _, h0 = cells[(0, 0)]
            last = max(lane for (t, lane) in cells if t == 1)
            x1, y1, w1, h1 = cells[(1, last)]
            if wide:
                by = (y0 + h0 + y1) / 2
                c.line(x0, by, x1 + w1, by, style)
            else:
                x1 = min(x for (t, _), (x, _, _, _) in cells.items() if t == 1)
                right = max(x + w for (t, _), (x, _, w, _) in cells.items() if t == 0)
                bx = (right + x1) / 2
                c.line(bx, y0, bx, y1 + h1, style)
    _values(c, st, tr, cells, first_level, floor)
    if ghost:
        _values(c, st, tr, ghost, first_level, floor, keyed=False)
    _selection(c, st, cells, first_level, r, wide)
    return c.block(full_w, height + 0.2, "tree")


def _bands(columns: list[tuple[int, int]], need: list[float], gap: float, left: float,
           width: float, first_break: int) -> list[list[int]]:
    """The columns in bands that each fit ``width`` after the lane numbers (``left``), broken
    only between tracks from track ``first_break`` on; each band after the first holds a
    repeat of the track before it too. One band where the columns fit, or no break helps."""
    if left + sum(need) + gap * (len(columns) - 1) <= width + 1e-6:
        return [list(range(len(columns)))]
    bands: list[list[int]] = [[]]
    x = left
    for i, (t, _) in enumerate(columns):
        breaks = t >= first_break and bands[-1] and columns[i - 1][0] != t
        if breaks and x + need[i] > width + 1e-6:
            before = [j for j, (u, _) in enumerate(columns) if u == t - 1]
            bands.append([])
            x = left + sum(need[j] + gap for j in before)
        bands[-1].append(i)
        x += need[i] + gap
    return bands


def _role(st: State, t: int, lane: int, v: float | None, first_level: int) -> tuple[RoleName, bool]:
    r = st.result
    k = t - first_level
    if k < 0:
        return ("warn" if v is None else ("active" if lane < r.warps else "absent")), st.frame < 1
    if v is None:
        return "warn", k > st.level_shown
    if lane < r.active_prefix[k]:
        return ("owned" if k == 0 else "active"), k > st.level_shown
    return "faded", k > st.level_shown


def _cells(c: BlockCanvas, st: State, tr: list[Track], cells: dict[tuple[int, int], Box],
           first_level: int, keyed: bool = True) -> None:
    """The cells, grouped by role and whether they are still to come (a band's repeat of a
    track: not ``keyed``, nothing to point at twice)."""
    theme = st.theme
    buckets: dict[tuple[RoleName, bool], tuple[list, list]] = {}
    for (t, lane), (x, y, w, h) in sorted(cells.items()):
        values = tr[t].values
        v = values[lane] if lane < len(values) else None
        bucket = buckets.setdefault(_role(st, t, lane, v, first_level), ([], []))
        bucket[0].append((x + 0.15, y, w - 0.3, h))
        bucket[1].append(tr[t].key(lane))
    if keyed:
        st.roles[:] = sorted({role for role, _ in buckets})
    with c.group(name="cells"):
        for (role, future), (xywh, keys) in sorted(buckets.items()):
            style = cell_style(theme, role)
            # a cell still to come holds no value yet: nothing to point at or hover
            c.rects(xywh, theme.faded(style, FUTURE_OPACITY) if future else style,
                    None if future or not keyed else keys)


def _adds(c: BlockCanvas, st: State, cells: dict[tuple[int, int], Box], first_level: int,
          wide: bool, folded: bool, plus_w: float,
          ghost: dict[tuple[int, int], Box] | None = None,
          from_ghost: set[int] | None = None) -> None:
    """Each add of each level: the shuffled operand (a solid line from its source lane) and the
    lane's own value (dotted) meet at a "+" before the sum's cell. In the folded grid the first
    add reads both operands from one row: lane l's input "+" lane l + 16's, beside each other."""
    theme, r = st.theme, st.result
    pt = theme.small_pt
    # a "+" above a cell (levels down the page): its ink clear of the cell, the lines ending
    # on top of it
    below = BASELINE_SHIFT_EM["middle"] * pt * PT_TO_MM + descent(pt)  # ink under its middle
    plus_y = -0.3 - below  # from the cell's top
    plus_top = plus_y - (cap_height(pt) + descent(pt)) + below - 0.2
    # a "+" beside a cell (lanes down the page): its ink centred on the row
    lift = (cap_height(pt) - descent(pt)) / 2 - BASELINE_SHIFT_EM["middle"] * pt * PT_TO_MM
    for k in range(1, len(r.levels)):
        off = r.offsets[k - 1]
        t = k + first_level
        future = k > st.level_shown
        # the first track of a band reads the band's repeat of the track before it
        source = {**cells, **(ghost or {})} if t in (from_ghost or ()) else cells
        shuffled, own, pluses = [], [], []
        for lane in range(r.active_prefix[k]):
            if (t, lane) not in cells:
                continue
            src = lane ^ off if r.active_prefix[k] == WARP else lane + off
            dx, dy, dw, dh = cells[(t, lane)]
            # a source lane not drawn (the folded grid's lanes 16–31 holding 0): the own value
            # alone comes in
            drawn = (t - 1, src) in source
            if folded and k == 1 and drawn:
                # one row: own input, "+", the input of lane + 16, then the sum
                ox, oy, ow, oh = source[(t - 1, lane)]
                sx, sy, sw, sh = source[(t - 1, src)]
                pluses.append(((ox + ow + sx) / 2, oy + oh / 2 + lift))
                shuffled.append((sx + sw + 0.2, sy + sh / 2, dx - 0.2, dy + dh / 2))
                continue
            sx, sy, sw, sh = source[(t - 1, src)] if drawn else source[(t - 1, lane)]
            ox, oy, ow, oh = source[(t - 1, lane)]
            if wide:
                end = (dx + dw / 2, dy + plus_top)
                if drawn:
                    shuffled.append((sx + sw / 2, sy + sh + 0.2, *end))
                own.append((ox + ow / 2, oy + oh + 0.2, *end))
                pluses.append((dx + dw / 2, dy + plus_y))
            else:
                end = (dx - plus_w, dy + dh / 2)
                if drawn:
                    shuffled.append((sx + sw + 0.2, sy + sh / 2, *end))
                own.append((ox + ow + 0.2, oy + oh / 2, *end))
                pluses.append((dx - plus_w / 2, dy + dh / 2 + lift))
        style = theme.stroke("muted", theme.thin_mm)
        c.segments(shuffled, theme.faded(style, FUTURE_OPACITY) if future else style)
        if own:
            style = own_style(theme)
            c.segments(own, theme.faded(style, FUTURE_OPACITY) if future else style)
        color = theme.mix(theme.muted, 0.5) if future else theme.foreground
        for px, py in pluses:
            c.text(px, py, PLUS, pt, color, anchor="middle", baseline="middle")


def _values(c: BlockCanvas, st: State, tr: list[Track], cells: dict[tuple[int, int], Box],
            first_level: int, floor: float, keyed: bool = True) -> None:
    theme, r = st.theme, st.result
    pt = theme.small_pt
    fg, muted = theme.color("foreground"), theme.color("muted")
    with c.group(name="values"):
        inks: dict[str, str] = {}  # the ink on each role's cells
        for (t, lane), (x, y, w, h) in sorted(cells.items()):
            k = t - first_level
            if not shown(st, t) or k > st.level_shown:
                # a level still to come keeps its cell (the layout holds from frame to
                # frame) and prints no value: the frame shows what has been computed so far
                continue
            values = tr[t].values
            v = values[lane] if lane < len(values) else None
            historic = lane >= (r.warps if k < 0 else r.active_prefix[k])
            role, _ = _role(st, t, lane, v, first_level)
            if historic:
                ink = muted
            else:
                if role not in inks:
                    inks[role] = theme.ink_on(cell_style(theme, role).fill or fg)
                ink = inks[role]
            text = shown_text = fmt(v)
            room = w - 0.3 - 2 * PAD
            if fit_value(text, room, h, pt, floor)[0] != text:
                # an exact short form (2²⁴+30) before any rounded one (17M): the sums differ
                # in their last digits; else the first spelling that fits (the columns hold
                # the shortest: -2e13, 1e-242)
                fits = [f for f in exact_forms(text) + spellings(text)
                        if text_width(f, floor, "mono") <= room + 1e-9]
                shown_text = fits[0] if fits else min([text, *spellings(text)], key=len)
            cell_key = tr[t].key(lane) if keyed else None
            drawn = c.value(x + 0.15, y, w - 0.3, h, shown_text, pt, ink, floor=floor,
                            key=cell_key, pad=PAD)
            if shown_text != text:
                c.shortened[shortened_place(cell_key, x, y)] = (shown_text, text)
            if v is None and theme.hatches.get("warn"):
                # The "?" of an undefined value sits on the hatching: a clear spot for it.
                knock_out(c, drawn, theme.mix(theme.color("warn"), 0.7))


def _selection(c: BlockCanvas, st: State, cells: dict[tuple[int, int], Box], first_level: int,
               r: ReductionResult, wide: bool) -> None:
    """A partial's contributor set outlined through the tree, a lane, a shared entry; each
    outline just outside its cells along the lane axis (across, where lanes run down)."""
    theme = st.theme

    def grown(x: float, y: float, w: float, h: float) -> Box:
        return (x, y - 0.2, w, h + 0.4) if wide else (x - 0.2, y, w + 0.4, h)

    for k, lane in of_kind(st.selection, "partial", 2):
        if not (0 <= k < len(r.levels) and 0 <= lane < WARP):
            continue
        # the partials that flow into this one: at each level up, its own lane and the lane
        # it shuffled in from (lane ^ offset in a butterfly, lane + offset going down)
        feeding = {lane}
        boxes = []
        for j in range(k, -1, -1):
            for m in sorted(feeding):
                if (j + first_level, m) in cells:
                    x, y, w, h = cells[(j + first_level, m)]
                    boxes.append(grown(x, y, w, h))
            if j:
                off = r.offsets[j - 1]
                xor = r.active_prefix[j] == WARP
                feeding = {v for m in feeding for v in (m, m ^ off if xor else m + off)
                           if v < WARP}
        c.rects(boxes, contributor_style(theme), None)
        if (k + first_level, lane) in cells:
            x, y, w, h = cells[(k + first_level, lane)]
            theme.select(c, *grown(x, y, w, h), key=key("partial", k, lane))
    for lane in sorted(numbers(st.selection, "lane")):
        mine = sorted((t, box) for (t, m), box in cells.items() if m == lane and t >= first_level)
        if not mine:
            continue
        # one outline a band (lanes down, tracks in bands one under another): a lane's row
        runs: dict[float, list[Box]] = {}
        for _, box in mine:
            runs.setdefault(0.0 if wide else round(box[1], 6), []).append(box)
        for k, boxes in enumerate(runs.values()):
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
            theme.select(c, *grown(x0, y0, x1 - x0, y1 - y0),
                         key=key("lane", lane) if k == 0 else None)
    for entry in sorted(numbers(st.selection, "shared")):
        if st.block and (0, entry) in cells:
            x, y, w, h = cells[(0, entry)]
            theme.select(c, *grown(x, y, w, h), key=key("shared", entry))
