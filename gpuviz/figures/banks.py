"""Figure of the shared-memory bank queue rack.

Top to bottom: the 32 lanes (active or masked) with the word each reads (its first word, for 8-
and 16-byte accesses that cover two or four); where the width allows all 32 banks in one row,
connections from lanes to the banks their elements cover (those of the selection, else of the
deepest queue, else all where there are at most 32, else phase 1's: every connection at once
merges into a band) and under the bank numbers a row counting each bank's lanes; the 32 bank
columns; below each bank its queue, one slot per distinct word, in the row of the round that
serves it, labelled with its word. The rack part drawn alone is arranged by
:mod:`gpuviz.figures.banks_rack` (blocks of rounds, or banks down and rounds across). Readers of one identical word share one slot (a broadcast); a second or later word
in one bank within a phase is a conflict. 8- and 16-byte accesses are served in half- or
quarter-warp phases, one after another; the rack's rows are grouped by phase. In a narrow column
the banks are laid out in two (or four) rows of 16 (or 8), each with its own queues, and the
lanes likewise. A receipt gives rounds, conflict degree, distinct words and broadcasts; where the
model merged the phases of an 8- or 16-byte load (lanes i and i XOR 1 or 2 on one address), the
subtitle, the receipt and a note say so, with the lane pairs and the fixed-phase round count.

Keys: ``lane:<l>`` (lane box, its word and its connections), ``bank:<b>`` (bank header and
column), ``word:<w>`` (a queue slot), ``round:<k>`` (a row label), ``phase:<p>`` (a phase name).
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuviz.figures.bands import BAND_ROOM
from gpuviz.figures.banks_rack import (
    CELL_PAD,
    INSET,
    VALUE_PAD,
    conflict_bold,
    deep,
    depths,
    lanes_per_bank,
    links,
    queue_slots,
    rack_alone,
    role,
    runs,
    shown_banks,
    slot_styles,
    transposed,
    value,
)
from gpuviz.figures.display import Figure, Style, selected_numbers
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import (
    GAP,
    MARGIN,
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
    formula_block,
    legend_block,
    place,
    receipt_block,
    shortened_note,
    side_column,
    text_block,
)
from gpuviz.figures.metrics import cap_height, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.keys import key
from gpuviz.models.banks import BANKS, WARP_LANES, BanksResult

PHASE_NAMES = {1: "warp", 2: "half-warp", 4: "quarter-warp"}
ROW_GAP = 1.0  # mm between the rows of the figure's parts
LEGEND_BESIDE = 26.0  # mm: the least width the rack alone's legend is set beside it in
FEW_LINKS = 4  # at most this many selected lane → bank lines are drawn in the selection's ink


RACK = ("lanes", "rack")  # the parts drawn by the rack
ROWS_OF = (32, 16, 8, 4, 2, 1)  # lanes and banks a row: whole rows of the warp's 32


def build(result: BanksResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    geo = _Geometry(r, theme, target)
    # the deep queues alone: blocks of rounds side by side
    fixed = target.kind == "column"  # a journal column
    alone = (target.shows("rack") and not target.shows("lanes")
             and (deep(r) or (target.kind != "natural" and r.phases > 1)))

    def body(width: float) -> list[Block]:
        blocks: list[Block] = []
        if r.swizzle_formula:
            # monospaced: the sans face would set "0x380" as "0×380"
            # the parts of the rack shown: the rack alone is one part, not the lanes too
            drawn = tuple(p for p in RACK if target.shows(p)) or RACK
            blocks.append(as_part(drawn, formula_block(f"swizzled: {r.swizzle_formula}", theme,
                                                      width, color=theme.muted,
                                                      name="swizzle")))
        n = geo.per_row(width)
        room = width - geo.gutter
        if target.paged:  # leave room for the side column if the rack can
            room = max(n * geo.column(geo.pt), room - geo.side_min - GAP)
        col = max(geo.column(geo.floor), min(room / n, geo.column(geo.pt) + 0.6))
        queues = rack_alone(r, selection, theme, width, geo.pt, geo.floor, geo.row_h,
                            geo.column, target.kind != "natural",
                            target.paged) if alone else None
        if queues is not None:  # the queues alone: blocks of rounds, or banks down
            rack = as_part("rack", queues)
            n = BANKS  # its blocks say what they show: no note on rows of banks
        else:
            rack = _kept_rack(r, selection, theme, geo, n, col,
                              tuple(p for p in RACK if target.shows(p)) or RACK,
                              not fixed and not target.shows("rack"))
        if target.shows(*RACK):
            blocks.append(rack)
        legend_w = side_column(target, width, rack.width, LEGEND_BESIDE)
        beside = side_column(target, width, rack.width, geo.side_min)
        if queues is not None and not target.shows("receipt") and legend_w is not None:
            # a page, the queues alone and narrow (phases one under another): their legend
            # beside them, not under them (flowed there by the layout)
            blocks += _side(r, theme, legend_w, rack.shortened, False, target, selection)
        elif target.whole and beside is not None:
            # slides and views: receipt and legend in a column beside the rack
            c = BlockCanvas()
            y = 0.0
            for b in _side(r, theme, beside, rack.shortened, n < BANKS, selection=selection,
                           per_row=n, digits=geo.digits):
                place(c, b, 0.0, y)
                y += b.height + GAP
            blocks.append(c.block(beside, y - GAP, "side"))
        else:
            blocks += _side(r, theme, width, rack.shortened, n < BANKS, target, selection,
                            n, geo.digits)
        return blocks

    rounds_text = f"{format_number(r.rounds)} round{'s' if r.rounds != 1 else ''}"
    active = len(r.active_lanes)
    subtitle = f"{r.pattern} · 32 banks × 4 bytes, bank = word mod 32"
    size = WARP_LANES // r.phases
    what = "16-byte rows" if r.op == "ldmatrix" else f"{r.access_bytes}-byte accesses"
    if r.merged_by is not None:
        subtitle += (f" · merged phases: lanes i and i XOR {r.merged_by} read one address and "
                     f"share a slot, so the {what} are served as {r.phases} "
                     f"{PHASE_NAMES[r.phases]}{'s' if r.phases != 1 else ''} of {size} lanes "
                     f"(measured on an H200; fixed phases would take "
                     f"{_count(r.fixed_phase_rounds, 'round')})")
    elif r.phases > 1:
        subtitle += (f" · {what}: {r.phases} {PHASE_NAMES[r.phases]}s of {size} lanes "
                     f"({size} × {r.access_bytes} B = 128 B each), one after another")
    grow = max(1.0, theme.text_pt / 8.0)
    # a slide or view offers its whole width; the rack and the side column share it
    natural = geo.natural
    if target.paged and target.whole:
        natural = max(natural, target.page[0] - 2 * MARGIN)
    elif alone:  # the queues alone: their blocks of rounds in one line, or banks down
        fixed_width = target.kind != "natural"
        line_w, line_h = _RACK_SIZES.get((r, theme), (fixed_width, target.min_pt),
                                         lambda: _rack_size(r, theme, geo, fixed_width))
        natural = line_w
        if target.paged:  # a page: the width of the rack's area in its shape
            natural = min(natural, (line_w * line_h * target.shape) ** 0.5)
    return compose(
        target, theme,
        title=_title(r, active, rounds_text),
        # the instruction after the count, never first: a sans face sets "ldmatrix" after the
        # colon as "Idmatrix"
        column_title=f"Banks: {_count(active, 'lane')}"
                     f"{' (ldmatrix)' if r.op == 'ldmatrix' else ''}, {rounds_text}",
        subtitle=subtitle, body=body, natural_width=natural / grow,
        figure_title="gpuviz bank queues",
        description=f"The shared-memory banks serving {counted(active, 'lane')} with "
                    f"{r.access_bytes}-byte accesses ({r.pattern}) in {rounds_text}: conflict "
                    f"degree {r.conflict_degree}, {counted(r.distinct_words, 'distinct word')}.")


# the queues alone at their natural size: a view's layout search builds a state in a dozen designs
_RACK_SIZES: Kept[tuple[float, float]] = Kept(16)


def _rack_size(r: BanksResult, theme: Theme, geo: _Geometry, fixed: bool) -> tuple[float, float]:
    """Width and height of the queues drawn alone with no width to keep to: their blocks of
    rounds in one line, or (a few rounds, a width held) banks down, not 32 across."""
    line = rack_alone(r, frozenset(), theme, 1e6, geo.pt, geo.floor, geo.row_h, geo.column,
                      fixed)
    if line is None:
        banks, _ = shown_banks(r)
        line = transposed(r, frozenset(), theme, banks, geo.pt, geo.floor, geo.row_h,
                          max(geo.column(geo.floor), geo.column(geo.pt)))
    return line.width, line.height


def _count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}{'s' if n != 1 else ''}"


def _title(r: BanksResult, active: int, rounds_text: str) -> str:
    lanes = _count(active, "lane")
    if r.op == "ldmatrix":
        return f"Banks: {lanes} give ldmatrix 16-byte row addresses — {rounds_text}"
    verb = "write" if r.op == "store" else "read"
    return f"Banks: {lanes} {verb} {r.access_bytes}-byte elements — {rounds_text}"


class _Geometry:
    """Sizes that do not depend on the width: type, rows, the gutter and the natural width."""

    def __init__(self, r: BanksResult, theme: Theme, target: Target) -> None:
        self.pt = theme.small_pt
        self.floor = min(target.min_pt, self.pt)
        words = [s.word for s in r.slots] + [w for w in r.word_of_lane if w is not None]
        self.digits = max([2] + [len(str(w)) for w in words])
        # a lane, word, header or queue row; where the theme hatches a slot, room for the
        # hatch in bands above and below its word (bands.clear_glyphs), but on a slide, whose
        # height is fixed, a 32-round queue would then shrink the type below 7 pt (the slot is
        # told by its tint there)
        room = BAND_ROOM if theme.hatches and not target.paged else 0.0
        self.row_h = ink_height(self.pt, "mono") + 2 * INSET + 0.25 + room
        self.round_digits = len(str(max(r.rounds, 1)))
        labels = ["lane", "word" if r.words_per_lane == 1 else "1st word", "bank"]
        if r.phases > 1:
            labels.append(f"phase {r.phases}")
        left = max(text_width(s, self.pt) for s in labels)
        right = max(text_width("round", self.pt), text_width("9" * self.round_digits, self.pt,
                                                              "mono"))
        self.gutter = left + 1.5 + right + 1.2
        self.round_x = left + 1.5 + right  # right edge of the round numbers
        self.natural = self.gutter + BANKS * (self.column(self.pt) + 0.6)
        self.side_min = 34 * text_width("0", self.pt, "mono")  # the receipt's longest row

    def column(self, pt: float) -> float:
        """The width of a bank column whose longest number fits at ``pt``."""
        return text_width("0" * self.digits, pt, "mono") + 2 * VALUE_PAD + CELL_PAD + 2 * INSET

    def per_row(self, width: float) -> int:
        """Banks (and lanes) per row for ``width``: 32 if they fit at the floor, else 16 or 8,
        and, for long words (an explicit index list's seven or eight digits), as few as fit."""
        for n in ROWS_OF:
            if self.gutter + n * self.column(self.floor) <= width + 1e-6:
                return n
        return ROWS_OF[-1]


# the whole rack at a layout search's widths: one width's bank columns serve many (they stop
# growing at their type's room), in several designs and builds
_RACKS: Kept[Block] = Kept(64)


def _kept_rack(r: BanksResult, selection: frozenset[str], theme: Theme, geo: _Geometry, n: int,
               col: float, draw: tuple[str, ...], counts: bool) -> Block:
    """:func:`_rack`, kept by everything it reads (of ``geo``: its type, rows and gutter)."""
    return _RACKS.get((r, theme), (selection, n, col, draw, counts, geo.pt, geo.floor, geo.row_h,
                                   geo.gutter, geo.round_x),
                      lambda: _rack(r, selection, theme, geo, n, col, draw, counts))


def _rack(r: BanksResult, selection: frozenset[str], theme: Theme, geo: _Geometry, n: int,
          col: float, draw: tuple[str, ...] = ("lanes", "rack"), counts: bool = True) -> Block:
    """The lanes and their words, the lane → bank connections and the bank queues, one row per
    round: the parts "lanes" (down to the bank numbers) and "rack" (from them), or both. With
    ``counts`` (the lanes part alone, not in a journal column, which is short of height) the
    lanes per bank are counted under banks in several rows too, where no connection is drawn."""
    c = BlockCanvas()
    pt, floor, row_h = geo.pt, geo.floor, geo.row_h
    fg, muted = theme.foreground, theme.muted
    x0 = geo.gutter
    active = set(r.active_lanes)
    sel_lanes, sel_banks = selected_numbers(selection, "lane"), selected_numbers(selection, "bank")
    sel_words = selected_numbers(selection, "word")
    sections = WARP_LANES // n

    def xcol(i: int) -> float:
        return x0 + (i % n) * col

    def mid(y: float) -> float:
        return y + row_h / 2

    # lanes, each with the word it reads, in rows of n
    header_top = 0.0
    if "lanes" in draw:
        y = 0.0
        lane_top: dict[int, float] = {}
        word_bottom = 0.0
        word_label = "word" if r.words_per_lane == 1 else "1st word"
        for sec in range(sections):
            lanes = range(sec * n, (sec + 1) * n)
            c.text(0.0, mid(y), "lane", pt, muted, baseline="middle")
            c.text(0.0, mid(y + row_h), word_label, pt, muted, baseline="middle")
            a_boxes, a_keys, m_boxes, m_keys, w_boxes, w_keys = [], [], [], [], [], []
            for lane in lanes:
                box = (xcol(lane) + CELL_PAD / 2, y, col - CELL_PAD, row_h)
                lane_top[lane] = y
                if lane in active:
                    a_boxes.append(box)
                    a_keys.append(key("lane", lane))
                    w_boxes.append((xcol(lane) + CELL_PAD / 2, y + row_h, col - CELL_PAD, row_h))
                    w_keys.append(key("lane", lane))
                else:
                    m_boxes.append(box)
                    m_keys.append(key("lane", lane))
            with c.group(name="lanes"):
                c.rects(a_boxes, theme.fill("valid"), a_keys)
                c.rects(m_boxes, theme.fill("masked"), m_keys)
                c.rects(w_boxes, Style(fill=theme.surface, stroke=theme.outline,
                                       stroke_width=theme.thin_mm), w_keys)
                masked_style = theme.fill("masked")
                for lane in lanes:
                    x = xcol(lane) + CELL_PAD / 2
                    if lane in active:
                        value(c, x, y, col - CELL_PAD, row_h, str(lane), pt, theme.ink_on("valid"),
                                floor=floor, key=key("lane", lane))
                        word = r.word_of_lane[lane]
                        value(c, x, y + row_h, col - CELL_PAD, row_h, str(word), pt, fg,
                               floor=floor, key=key("lane", lane))
                    elif masked_style.hatch:
                        c.label(x + (col - CELL_PAD) / 2, mid(y), str(lane), pt, muted,
                                knockout=theme.background, anchor="middle", baseline="middle",
                                font="mono", key=key("lane", lane))
                    else:
                        value(c, x, y, col - CELL_PAD, row_h, str(lane), pt,
                                theme.ink_on("masked"), floor=floor, key=key("lane", lane))
                if sections > 1:  # no lines reach the banks from a second row of lanes: each
                    # lane's bank (its first word's) is written under its word instead
                    c.text(0.0, mid(y + 2 * row_h), "bank", pt, muted, baseline="middle")
                    for lane in lanes:
                        first = r.word_of_lane[lane]
                        if lane not in active or first is None:
                            continue
                        value(c, xcol(lane) + CELL_PAD / 2, y + 2 * row_h, col - CELL_PAD,
                              row_h, str(first % BANKS), pt, fg, floor=floor,
                              key=key("lane", lane))
                for lane in sorted(sel_lanes & set(lanes)):
                    theme.select(c, xcol(lane) + CELL_PAD / 2, y, col - CELL_PAD, row_h)
            y += (3 if sections > 1 else 2) * row_h + ROW_GAP
            word_bottom = y - ROW_GAP

        # phase brackets under the lanes, and connections lane → bank (banks in one row only)
        header_top = y
        if sections == 1:
            link_top = word_bottom + 0.4
            if r.phases > 1:
                size = WARP_LANES // r.phases
                by = word_bottom + 1.2
                with c.group(name="phases"):
                    for ph in range(r.phases):
                        xa, xb = x0 + ph * size * col + 0.6, x0 + (ph + 1) * size * col - 0.6
                        c.polyline([(xa, by - 0.8), (xa, by), (xb, by), (xb, by - 0.8)],
                                   theme.stroke("foreground", theme.line_mm))
                        c.text((xa + xb) / 2, by + 0.6 + cap_height(pt), f"phase {ph + 1}", pt, fg,
                               anchor="middle", key=key("phase", ph))
                link_top = by + 0.6 + ink_height(pt) + 0.6
            link_h = 14.0 if r.rounds <= 8 else (9.0 if r.rounds <= 16 else 6.0)
            # links that run far sideways (many lanes to few banks) need height to stay apart:
            # at least 0.18 of the longest run (up to 16 mm), or they merge into a moiré band
            reach = max((abs(lane - w % BANKS) for lane in active
                         for w in r.words_of_lane[lane] or ()), default=0) * col
            link_h = min(max(link_h, 0.18 * reach), 16.0)
            link_h = max(6.0, link_h - row_h)  # the lanes-per-bank row below takes its room
            header_top = link_top + link_h
            segs, keys, hi = [], [], []
            for lane, word, bank in links(r, selection)[0]:
                seg = (x0 + (lane + 0.5) * col, link_top, x0 + (bank + 0.5) * col, header_top)
                segs.append(seg)
                keys.append(key("lane", lane))
                if lane in sel_lanes or bank in sel_banks or word in sel_words:
                    hi.append(seg)
            with c.group(name="connections"):
                c.segments(segs, Style(stroke=theme.outline, stroke_width=theme.thin_mm * 1.5), keys)
                if hi:  # a few selected lines in the selection's thick ink; a fan of them
                    # (32 lanes into one bank) thinner, or they merge into one black wedge
                    c.segments(hi, theme.highlight() if len(hi) <= FEW_LINKS else
                               Style(stroke=theme.foreground, stroke_width=theme.line_mm * 1.5))
        else:
            header_top += 1.5

    # per section of banks: the header, then the queues, one row per round
    rounds = r.rounds
    depth = depths(r)
    per_bank = lanes_per_bank(r)
    column_style = Style(fill=theme.surface, stroke=theme.grid, stroke_width=theme.thin_mm)
    y = header_top
    for sec in range(sections):
        banks = range(sec * n, (sec + 1) * n)
        rack_top = y + row_h + 0.6
        head = y  # a selected bank is outlined from its number down, over its lanes count
        # a row of banks shows its rounds as far as its deepest queue (all of them in one row)
        shown = rounds if sections == 1 else max(
            (sl.round for sl in r.slots if sl.bank in banks), default=0)
        rack_h = max(shown, 1) * row_h
        with c.group(name="banks"):
            c.text(0.0, mid(y), "bank", pt, muted, baseline="middle")
            if "rack" in draw:
                c.text(geo.round_x, mid(y), "round", pt, muted, anchor="end",
                       baseline="middle")
            c.rects([(xcol(b) + CELL_PAD / 2, y, col - CELL_PAD, row_h) for b in banks],
                    Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm),
                    [key("bank", b) for b in banks])
            for b in banks:
                value(c, xcol(b) + CELL_PAD / 2, y, col - CELL_PAD, row_h, str(b), pt, fg,
                      floor=floor, key=key("bank", b))
        if "lanes" in draw and (sections == 1 or counts):  # how many lanes reach each bank
            with c.group(name="lanes per bank"):
                c.text(0.0, mid(y + row_h), "lanes", pt, muted, baseline="middle")
                for b in banks:
                    value(c, xcol(b) + CELL_PAD / 2, y + row_h, col - CELL_PAD, row_h,
                          str(per_bank[b]), pt, fg if per_bank[b] else muted, floor=floor,
                          key=key("bank", b))
            y += row_h
            rack_top += row_h
        if "rack" not in draw:  # the lanes part ends at the banks its lanes reach
            y += row_h + 2.5
            continue
        c.rects([(xcol(b) + CELL_PAD / 2, rack_top, col - CELL_PAD, rack_h) for b in banks],
                column_style, [key("bank", b) for b in banks])
        if sections > 1 and shown == 0 and r.slots:
            c.text(0.0, mid(rack_top), "empty", pt, muted, baseline="middle")
        with c.group(name="rounds"):
            for k in range(1, shown + 1):
                c.text(geo.round_x, rack_top + (k - 0.5) * row_h, str(k), pt, fg, anchor="end",
                       baseline="middle", font="mono", key=key("round", k))
        if r.phases > 1:
            start = 0
            dash = theme.stroke("foreground", theme.line_mm, dash=(1.2, 0.8))
            with c.group(name="phase-rows"):
                for ph, m in enumerate(r.phase_rounds):
                    if not m:
                        continue
                    if start >= shown:
                        break
                    m = min(m, shown - start)
                    if start:
                        # across the rack only, clear of the phase names and round numbers, and
                        # broken where a slot's word sits just below or above the line
                        yy = rack_top + start * row_h
                        busy = {sl.bank for sl in r.slots
                                if sl.bank in banks and sl.round in (start, start + 1)}
                        for first, last in runs([b for b in banks if b not in busy]):
                            c.line(xcol(first), yy, xcol(last) + col, yy, dash)
                    c.text(0.0, rack_top + (start + m / 2) * row_h, f"phase {ph + 1}", pt,
                           muted, baseline="middle", key=key("phase", ph))
                    start += m
        with c.group(name="queues"):
            mine = [s for s in r.slots if s.bank in banks]
            queue_slots(c, r, selection, theme, mine,
                        lambda s, top=rack_top: _slot_box(s, xcol, col, top, row_h), pt, floor, depth)
            for b in sorted(sel_banks & set(banks)):
                theme.select(c, xcol(b) + CELL_PAD / 2, head, col - CELL_PAD,
                             rack_top - head + rack_h)
        if not r.slots:
            # across the empty columns' edges: on a halo of their fill
            c.text(x0 + n * col / 2, rack_top + row_h / 2, "no active lane: nothing to serve",
                   pt, muted, anchor="middle", baseline="middle", knockout=theme.surface)
        y = rack_top + rack_h + 2.5
    width = x0 + n * col
    return as_part(draw, c.block(width, y - 2.5, "rack"))


def _slot_box(s, xcol, col: float, rack_top: float,
              row_h: float) -> tuple[float, float, float, float]:
    return (xcol(s.bank) + CELL_PAD / 2 + INSET, rack_top + (s.round - 1) * row_h + INSET,
            col - CELL_PAD - 2 * INSET, row_h - 2 * INSET)


def _side(r: BanksResult, theme: Theme, width: float, shortened: Sequence[Shortened],
          split: bool = False, target: Target | None = None,
          selection: frozenset[str] = frozenset(), per_row: int = BANKS,
          digits: int = 0) -> list[Block]:
    rows: list[tuple[str, str]] = [("rounds", format_number(r.rounds))]
    if r.slots and r.conflict_degree > 1:
        counts: dict[tuple[int, int], int] = {}
        for s in r.slots:
            counts[(s.phase, s.bank)] = counts.get((s.phase, s.bank), 0) + 1
        (_, bank), _ = max(counts.items(), key=lambda kv: (kv[1], -kv[0][1]))
        rows.append(("conflict degree", f"{format_number(r.conflict_degree)}-way (bank {bank})"))
    elif r.slots:
        rows.append(("conflict degree", "1: no conflict"))
    groups = len(r.broadcast_groups)
    largest = max((len(g.lanes) for g in r.broadcast_groups), default=0)
    rows.append(("distinct words", format_number(r.distinct_words)))
    rows.append(("broadcasts", format_number(groups)
                 + (f" (largest: {format_number(largest)} readers)" if groups else "")))
    if r.phases > 1:
        rows.append(("rounds per phase", " + ".join(format_number(n) for n in r.phase_rounds)))
    if r.merged_by is not None:
        rows.append(("merged phases", f"lanes i and i XOR {r.merged_by} share slots"))
        rows.append(("lane pairs", _merged_text(r.merged_lane_groups)))
        rows.append(("fixed phases would take", _count(r.fixed_phase_rounds, "round")))
    receipt = as_part("receipt", receipt_block(rows, theme, width))
    note = as_part("receipt", text_block("Rounds count distinct words one bank must deliver in "
                                         "turn; they are not measured cycles.", theme, width,
                                         color=theme.muted), "notes")
    active = set(r.active_lanes)
    depth = depths(r)  # once: per slot it made the side column quadratic in the slots
    roles = {role(s, depth) for s in r.slots}
    styles = slot_styles(theme)
    lanes, rack = ("lanes",), ("rack",)
    entries = [LegendEntry("active lane", theme.fill("valid"), parts=lanes)]
    if len(active) < WARP_LANES:
        entries.append(LegendEntry("masked lane", theme.fill("masked"), parts=lanes))
    if "used" in roles:
        entries.append(LegendEntry("the only word of its bank (no conflict)", styles["used"],
                                   parts=rack))
    if "conflict" in roles:
        entries.append(LegendEntry("several words in one bank (conflict)"
                                   + (", its word bold" if conflict_bold(theme) else ""),
                                   styles["conflict"], parts=rack))
    if "broadcast" in roles:
        entries.append(LegendEntry("one word, several lanes (broadcast)" if r.op != "store"
                                   else "one word, several lanes",
                                   styles["broadcast"], parts=rack))
    notes: list[Note] = [("Each queue slot shows the word it delivers.", ("rack",)),
                         ("The lanes reading a word show it under their number"
                          + (", and its bank (word mod 32) under it." if split else "."),
                          ("lanes",))]
    if not split and links(r, selection)[1]:  # the lines are drawn only with banks in one row
        notes.append((links(r, selection)[1] + " Row 'lanes': lanes per bank.",
                      ("lanes",)))
    if r.merge_reason:
        notes.append((f"Merged phases (measured on an H200, not in NVIDIA's documentation): "
                      f"{r.merge_reason}.", RACK))
    if split:
        notes.append(("The banks are drawn in rows; each row shows the rounds as far as its "
                      "deepest queue ('empty': none queued).", ("rack",)))
    if split and per_row < 8:  # fewer than a quarter of the warp a row: long words
        notes.append((f"Lanes and banks in rows of {per_row}, to fit words of up to "
                      f"{digits} digits at this size.", RACK))
    if shortened:
        notes.append((shortened_note(shortened), RACK))
    legend = legend_block(entries, theme, width, notes=notes, target=target)
    return [receipt, note, legend]


def _merged_text(groups: Sequence[Sequence[int]], shown: int = 4) -> str:
    """Lane groups that share one slot, as ``0+1, 2+3, …`` (the first ``shown`` of them)."""
    pairs = ["+".join(str(x) for x in g) for g in groups if len(g) > 1]
    if not pairs:
        return "none"
    return ", ".join(pairs[:shown]) + (", …" if len(pairs) > shown else "")
