"""The bank queues drawn alone (the banks figure's "rack" part), and the queue cells both
arrangements share.

A queue of many rounds does not fit a journal column or a slide as one tall rack, so the rack
alone is cut into blocks of rounds placed side by side and wrapped: one block per phase (8-
and 16-byte accesses), or blocks of 8 rounds. Where at most 16 banks queue anything, only those
banks are drawn, in bank order, and a note names the banks left out (they queue nothing). Each
block has its own bank header and round numbers (rounds counted over the whole request, as the
receipt counts them), so no dashed phase line runs through a row of words.

Keys as in :mod:`gpuviz.figures.banks`: ``bank:<b>``, ``word:<w>``, ``round:<k>``,
``phase:<p>``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpuviz.figures.display import PT_TO_MM, Style, selected_numbers
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import GAP, Block, BlockCanvas, knock_out, line_step, place, wrap
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.theme import RoleName, Theme
from gpuviz.keys import key
from gpuviz.models.banks import BANKS, BanksResult

CELL_PAD = 0.3  # mm between neighbouring cells
INSET = 0.2  # mm between a queue slot and its bank column
VALUE_PAD = 0.12  # mm between a value and the sides of its cell
ROUNDS_PER_BLOCK = 8  # a single-phase queue's rounds per block
FEW_BANKS = 16  # at most this many busy banks: only they are drawn (the rest named)
ROW_GAP = 2.0  # mm between lines of blocks
PHASE_GAP = 1.0  # mm between phases one under another, under one bank header


def value(c: BlockCanvas, x: float, y: float, w: float, h: float, text: str, size: float,
          color: str, *, floor: float, key: str, knockout: str | None = None,
          bold: bool = False) -> None:
    """A value cell whose ink (not its "middle" baseline) is centred in the cell, so a cell
    just taller than the ink holds it."""
    shift = (0.36 * size * PT_TO_MM) + (descent(size, "mono") - cap_height(size, "mono")) / 2
    t = c.value(x, y - shift, w, h, text, size, color, floor=floor, key=key, pad=VALUE_PAD,
                bold=bold)
    if knockout:
        knock_out(c, t, knockout)


def conflict_bold(theme: Theme) -> bool:
    """Whether a conflict's word is set bold: where the theme hatches the conflict (print),
    so that the class survives a slot too narrow for its hatch's bands."""
    return theme.fill("conflict").hatch is not None


def slot_styles(theme: Theme) -> dict[str, Style]:
    """Queue slot styles by role (hatched where the theme hatches the role, as in print)."""
    return {"used": theme.fill("owned"), "conflict": theme.fill("conflict"),
            "broadcast": theme.fill("broadcast")}


def depths(r: BanksResult) -> dict[tuple[int, int], int]:
    """Distinct words per (phase, bank): a queue deeper than 1 is a conflict."""
    depth: dict[tuple[int, int], int] = {}
    for s in r.slots:
        depth[(s.phase, s.bank)] = depth.get((s.phase, s.bank), 0) + 1
    return depth


def role(s, depth: dict[tuple[int, int], int]) -> RoleName:
    if len(s.lanes) > 1:
        return "broadcast"
    return "conflict" if depth[(s.phase, s.bank)] > 1 else "used"


def fill_of(theme: Theme, slot_role: RoleName) -> str:
    return theme.color("owned" if slot_role == "used" else slot_role)


def runs(banks: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive banks as (first, last) runs."""
    out: list[tuple[int, int]] = []
    for b in banks:
        if out and out[-1][1] == b - 1:
            out[-1] = (out[-1][0], b)
        else:
            out.append((b, b))
    return out


def run_text(banks: Sequence[int]) -> str:
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs(banks))


def queue_slots(c: BlockCanvas, r: BanksResult, selection: frozenset[str], theme: Theme,
                slots: Sequence, box: Callable, pt: float, floor: float,
                depth: dict[tuple[int, int], int]) -> None:
    """The slots of one stretch of the rack, batched by role, each labelled with its word;
    ``box(slot)`` places a slot."""
    style = slot_styles(theme)
    by_role: dict[str, tuple[list, list]] = {k: ([], []) for k in style}
    for s in slots:
        by_role[role(s, depth)][0].append(box(s))
        by_role[role(s, depth)][1].append(key("word", s.word))
    for name, (boxes, keys) in by_role.items():
        if boxes:
            c.rects(boxes, style[name], keys)
    for s in slots:
        x, y, w, h = box(s)
        name = role(s, depth)
        fill = fill_of(theme, name)
        knockout = fill if style[name].hatch else None  # print: the word on the hatch
        # where the theme hatches (print), a conflict's word is bold too: a mark in the text
        # itself, kept where the slot leaves its hatch no band (a slide's three-digit words)
        value(c, x, y, w, h, str(s.word), pt, theme.ink_on(fill), floor=floor,
              key=key("word", s.word), knockout=knockout,
              bold=name == "conflict" and conflict_bold(theme))
    lanes, words = selected_numbers(selection, "lane"), selected_numbers(selection, "word")
    for s in slots:
        if lanes & set(s.lanes) or s.word in words:
            theme.select(c, *box(s))


@dataclass(frozen=True)
class Stretch:
    """One block of the rack drawn alone: rounds ``first``–``last`` of some banks."""

    first: int  # 1-based round
    last: int
    banks: tuple[int, ...]
    label: str
    phase: int | None  # the phase it shows, if one


def deep(r: BanksResult) -> bool:
    """Whether the queues drawn alone are cut into blocks of rounds (more than 8 rounds)."""
    return r.rounds > ROUNDS_PER_BLOCK


def shown_banks(r: BanksResult) -> tuple[tuple[int, ...], bool]:
    """The banks the rack alone draws, and whether it leaves any out (then they queue
    nothing): where few banks are busy, only those."""
    busy = sorted({s.bank for s in r.slots})
    if 0 < len(busy) <= FEW_BANKS:
        return tuple(busy), True
    return tuple(range(BANKS)), False


def stretches(r: BanksResult, banks: tuple[int, ...], per_row: int) -> list[Stretch]:
    """The blocks of rounds: a phase each, or 8 rounds each, times rows of ``per_row`` banks."""
    spans: list[tuple[int, int, str, int | None]] = []
    if r.phases > 1:
        start = 0
        for ph, m in enumerate(r.phase_rounds):
            if m:
                spans.append((start + 1, start + m, f"phase {ph + 1}", ph))
            start += m
    else:
        for a in range(1, max(r.rounds, 1) + 1, ROUNDS_PER_BLOCK):
            b = min(r.rounds, a + ROUNDS_PER_BLOCK - 1)
            spans.append((a, max(a, b), "", None))
    groups = [banks[i:i + per_row] for i in range(0, len(banks), per_row)]
    return [Stretch(a, b, g, label, ph) for a, b, label, ph in spans for g in groups]


def round_w(r: BanksResult, pt: float) -> float:
    """The width of the round numbers' column."""
    return text_width(str(max(r.rounds, 1)), pt, "mono") + 1.0


def rack_alone(r: BanksResult, selection: frozenset[str], theme: Theme, width: float,
               pt: float, floor: float, row_h: float, column: Callable[[float], float],
               fixed: bool = False, page: bool = False) -> Block | None:
    """:func:`queues_alone`, kept by everything it reads (``column`` at ``floor`` and ``pt``):
    a layout search asks for it at the same widths in several designs and builds."""
    return _ALONE.get((r, theme), (selection, width, pt, floor, row_h, column(floor),
                                   column(pt), fixed, page),
                      lambda: queues_alone(r, selection, theme, width, pt, floor, row_h, column,
                                           fixed, page))


def queues_alone(r: BanksResult, selection: frozenset[str], theme: Theme, width: float,
                 pt: float, floor: float, row_h: float, column: Callable[[float], float],
                 fixed: bool = False, page: bool = False) -> Block | None:
    """The queues in blocks of rounds, flowed to ``width``; ``column(pt)`` is a bank column's
    width at a type size. For a fixed width (a journal column), banks down and rounds across
    instead, where that fits and is shorter. None where the queues are not deep (8 rounds or
    fewer) and banks down do not fit: the whole rack's arrangement serves them better. On a
    ``page`` (a slide or a view) a note under the queues keeps to their width where two lines
    hold it, leaving the room beside them to the legend."""
    banks, elided = shown_banks(r)
    label_w = max(text_width("bank", pt), round_w(r, pt)) + 1.0
    col = column(floor)
    per_row = max(1, min(len(banks), int((width - label_w + 1e-6) // col)))
    if not elided:  # all 32 banks: in rows of 32, 16 or 8
        per_row = next((n for n in (32, 16, 8) if n <= per_row), per_row)
    groups = -(-len(banks) // per_row)
    per_row = -(-len(banks) // groups)  # rows of banks of equal length: 8 + 8, not 13 + 3
    col = min(column(pt) + 0.6, (width - label_w) / min(per_row, len(banks)))
    col = max(col, column(floor))
    depth = depths(r)
    parts = stretches(r, banks, per_row)
    chosen: tuple[bool, float, int] | None = None
    for beside in (True, False):  # phase names beside the rounds, or above where that fits more
        wide = max(_frame(r, (s,), pt, row_h, col, beside).width for s in parts)
        fit = max(1, int((width + GAP + 1e-6) // (wide + GAP)))
        if chosen is None or fit > chosen[2]:  # above only where more blocks share a line
            chosen = (beside, wide, fit)
        if fit > 1 or len(parts) == 1:
            break
    assert chosen is not None
    beside, wide, fit = chosen
    if fit == 1 and len(parts) > 1 and groups == 1 and r.phases > 1:
        # one phase a line: the phases one under another under one bank header, not a header
        # each (a 16-round quarter-warp rack 80 → 65 mm tall)
        blocks = [_kept_stretch(r, selection, theme, tuple(parts), pt, floor, row_h, col,
                                depth, True)]
        parts, wide = parts[:1], blocks[0].width
    else:
        blocks = [_kept_stretch(r, selection, theme, (s,), pt, floor, row_h, col, depth, beside)
                  for s in parts]
    per_line = -(-len(parts) // -(-len(parts) // fit))  # balanced lines: 2 + 2, not 3 + 1
    spots = []  # where each block goes: lines of per_line blocks
    x = y = line_h = 0.0
    for i, block in enumerate(blocks):
        if i and i % per_line == 0:
            x, y, line_h = 0.0, y + line_h + ROW_GAP, 0.0
        spots.append((block, x, y))
        x += wide + GAP
        line_h = max(line_h, block.height)
    height = y + line_h
    used = min(width, min(per_line, len(parts)) * (wide + GAP) - GAP)
    out = BlockCanvas()
    if fixed:
        across = _TRANSPOSED.get(
            (r, theme), (selection, banks, pt, floor, row_h, max(column(floor), column(pt))),
            lambda: transposed(r, selection, theme, banks, pt, floor, row_h,
                               max(column(floor), column(pt))))
        if across.width <= width + 1e-6 and across.height < height:
            spots = [(across, 0.0, 0.0)]
            height, used = across.height, across.width
        elif not deep(r):
            return None
    for block, x, y in spots:
        place(out, block, x, y)
    notes = []
    if not r.slots:
        notes.append("no active lane: nothing to serve")
    if elided:
        notes.append(f"banks {run_text([b for b in range(BANKS) if b not in banks])}: no word "
                     "queued (not drawn)")
    for note in notes:
        lines = wrap(note, pt, used if page else width)
        for i, line in enumerate(lines if len(lines) <= 2 else wrap(note, pt, width)):
            height += (1.2 if i == 0 else line_step(pt) - cap_height(pt) - descent(pt))
            out.text(0.0, height + cap_height(pt), line, pt, theme.muted)
            height += cap_height(pt) + descent(pt)
            used = max(used, min(width, text_width(line, pt)))
    return out.block(used, height, "rack")


# a layout search asks for the same blocks of rounds at many widths (a bank column's width
# stops growing at its type's room) and in many designs: each built once, for the last few
_STRETCHES: Kept[Block] = Kept(512)
_TRANSPOSED: Kept[Block] = Kept(32)
_ALONE: Kept[Block | None] = Kept(128)


def _kept_stretch(r: BanksResult, selection: frozenset[str], theme: Theme,
                  spans: tuple[Stretch, ...], pt: float, floor: float, row_h: float, col: float,
                  depth: dict[tuple[int, int], int], beside: bool) -> Block:
    """:func:`_stretch`, kept by everything it reads (``depth`` is ``r``'s)."""
    return _STRETCHES.get((r, theme), (selection, spans, pt, floor, row_h, col, beside),
                          lambda: _stretch(r, selection, theme, spans, pt, floor, row_h, col,
                                           depth, beside))


@dataclass(frozen=True)
class _Frame:
    """Where a block of rounds puts its phase names and round numbers, and its width."""

    sides: tuple[bool, ...]  # per span: its phase's name runs up beside its rounds
    top: float  # the height of a phase name set above a single span
    label_w: float  # the round numbers' column, the phase names' beside them included
    width: float


def _frame(r: BanksResult, spans: Sequence[Stretch], pt: float, row_h: float, col: float,
           beside: bool) -> _Frame:
    """:func:`_stretch`'s frame: what a layout search needs to know of a block of rounds
    without drawing it."""
    # a phase's name runs up beside its rounds where they are tall enough, else above them
    # (a single phase's blocks need none: their round numbers say which rounds they hold)
    sides = tuple(beside and s.phase is not None
                  and text_width(s.label, pt) + 1.0 <= (s.last - s.first + 1) * row_h
                  for s in spans)
    above_h = cap_height(pt) + descent(pt) + 0.8
    left = above_h if any(sides) else 0.0
    top = above_h if len(spans) == 1 and spans[0].phase is not None and not sides[0] else 0.0
    # the header's "bank" may reach over the phase name's column, which starts below it
    label_w = max(left + round_w(r, pt), text_width("bank", pt)) + 1.0
    above = max((text_width(s.label, pt) + 1.0 for s, side in zip(spans, sides, strict=True)
                 if s.phase is not None and not side), default=0.0)
    return _Frame(sides, top, label_w, max(label_w + len(spans[0].banks) * col, above))


def _stretch(r: BanksResult, selection: frozenset[str], theme: Theme,
             spans: Sequence[Stretch], pt: float, floor: float, row_h: float, col: float,
             depth: dict[tuple[int, int], int], beside: bool = True) -> Block:
    """Rounds of some banks under one bank header: one block of rounds, or (``spans`` of
    several phases over the same banks) the phases one under another, apart by a gap."""
    c = BlockCanvas()
    fg, muted = theme.foreground, theme.muted
    banks = spans[0].banks
    one = len(spans) == 1

    def rows(s: Stretch) -> int:
        return s.last - s.first + 1

    frame = _frame(r, spans, pt, row_h, col, beside)
    sides, top, label_w = frame.sides, frame.top, frame.label_w
    above_h = cap_height(pt) + descent(pt) + 0.8
    xcol = {b: label_w + i * col for i, b in enumerate(banks)}
    y = top + row_h + 0.6
    tops = []  # (span, the top of its rounds)
    for s, side in zip(spans, sides, strict=True):
        phase_key = None if s.phase is None else key("phase", s.phase)
        if side:
            c.text(cap_height(pt), y + rows(s) * row_h / 2, s.label, pt, fg, anchor="middle",
                   rotate=-90, key=phase_key)
        elif s.phase is not None:
            c.text(0.0, cap_height(pt) + (0.0 if one else y), s.label, pt, fg, key=phase_key)
            y += 0.0 if one else above_h
        tops.append((s, y))
        y += rows(s) * row_h + PHASE_GAP
    bottom = y - PHASE_GAP
    with c.group(name="banks"):
        c.text(0.0, top + row_h / 2, "bank", pt, muted, baseline="middle")
        c.rects([(xcol[b] + CELL_PAD / 2, top, col - CELL_PAD, row_h) for b in banks],
                Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm),
                [key("bank", b) for b in banks])
        for b in banks:
            value(c, xcol[b] + CELL_PAD / 2, top, col - CELL_PAD, row_h, str(b), pt, fg,
                  floor=floor, key=key("bank", b))
    c.rects([(xcol[b] + CELL_PAD / 2, t, col - CELL_PAD, rows(s) * row_h)
             for s, t in tops for b in banks],
            Style(fill=theme.surface, stroke=theme.grid, stroke_width=theme.thin_mm),
            [key("bank", b) for _ in tops for b in banks])
    with c.group(name="rounds"):
        for s, t in tops:
            for k in range(s.first, s.last + 1):
                c.text(label_w - 1.0, t + (k - s.first + 0.5) * row_h, str(k), pt, fg,
                       anchor="end", baseline="middle", font="mono", key=key("round", k))
    first_of = {k: (s, t) for s, t in tops for k in range(s.first, s.last + 1)}
    mine = [sl for sl in r.slots if sl.bank in xcol and sl.round in first_of]

    def box(sl) -> tuple[float, float, float, float]:
        s, t = first_of[sl.round]
        return (xcol[sl.bank] + CELL_PAD / 2 + INSET, t + (sl.round - s.first) * row_h + INSET,
                col - CELL_PAD - 2 * INSET, row_h - 2 * INSET)

    with c.group(name="queues"):
        queue_slots(c, r, selection, theme, mine, box, pt, floor, depth)
        for b in sorted(selected_numbers(selection, "bank") & set(banks)):
            theme.select(c, xcol[b] + CELL_PAD / 2, top, col - CELL_PAD, bottom - top)
    return c.block(frame.width, bottom, "queues")


def links(r: BanksResult, selection: frozenset[str]) -> tuple[list[tuple[int, int, int]], str]:
    """The lane → bank connections drawn, as (lane, word, bank), and what they show: those of
    the selected lanes, banks or words; else those into the deepest queue (a conflict); else,
    where each lane's words reach 32 banks or fewer in all, every one; else those of the first
    phase. Every connection drawn would merge into a moiré band where 32 lanes reach a few
    banks or each lane reaches several."""
    every = [(lane, w, w % BANKS) for lane in r.active_lanes for w in r.words_of_lane[lane] or ()]
    lanes, banks = selected_numbers(selection, "lane"), selected_numbers(selection, "bank")
    words = selected_numbers(selection, "word")
    chosen = [x for x in every if x[0] in lanes or x[2] in banks or x[1] in words]
    if chosen:
        return chosen, "Lines: the selected lanes, banks or words."
    if r.slots and r.conflict_degree > 1:
        depth = depths(r)
        (_, bank), _ = max(depth.items(), key=lambda kv: (kv[1], -kv[0][1]))
        chosen = [x for x in every if x[2] == bank]
        return chosen, (f"Lines: the {len({x[0] for x in chosen})} lanes into bank {bank}, the "
                        "deepest queue.")
    if len(every) <= BANKS:
        return every, ""
    first, last = r.phase_lanes[0]
    chosen = [x for x in every if first <= x[0] <= last]
    return chosen, f"Lines: the lanes of phase 1 ({first}–{last})."


def lanes_per_bank(r: BanksResult) -> list[int]:
    """How many active lanes read (or write) a word in each bank."""
    reach: list[set[int]] = [set() for _ in range(BANKS)]
    for lane in r.active_lanes:
        for w in r.words_of_lane[lane] or ():
            reach[w % BANKS].add(lane)
    return [len(s) for s in reach]


def transposed(r: BanksResult, selection: frozenset[str], theme: Theme, banks: Sequence[int],
               pt: float, floor: float, row_h: float, col: float) -> Block:
    """The queues with banks down and rounds across, grouped by phase (a small gap between
    phases): for a journal column, where a few rounds of many banks are shorter this way.
    More than 16 banks are drawn as two halves side by side."""
    halves = [tuple(banks)] if len(banks) <= 16 else [tuple(banks[:len(banks) // 2 + len(banks) % 2]),
                                                       tuple(banks[len(banks) // 2 + len(banks) % 2:])]
    blocks = [_transposed_half(r, selection, theme, h, pt, floor, row_h, col) for h in halves]
    out = BlockCanvas()
    x = 0.0
    for b in blocks:
        place(out, b, x, 0.0)
        x += b.width + GAP
    return out.block(x - GAP, max(b.height for b in blocks), "rack")


def _transposed_half(r: BanksResult, selection: frozenset[str], theme: Theme,
                     banks: tuple[int, ...], pt: float, floor: float, row_h: float,
                     col: float) -> Block:
    c = BlockCanvas()
    fg, muted = theme.foreground, theme.muted
    # the banks' numbers under one "bank", not "bank 31" on every row: two halves of 16 banks
    # then fit a journal column in the largest type. "bank" runs up beside the numbers, inside
    # the column "round" makes wide, where their rows are tall enough; else it heads them
    numbers_w = max(text_width(str(b), pt) for b in banks)
    up = cap_height(pt) + descent(pt) + 0.8  # "bank" running up, with its gap to the numbers
    beside = text_width("bank", pt) + 1.0 <= len(banks) * row_h
    label_w = max([text_width(w, pt) for w in ("round", "phase")]
                  + [numbers_w + up if beside else max(numbers_w, text_width("bank", pt))]) + 1.0
    phase_gap = 0.6
    start, x = 0, label_w
    round_x: dict[int, float] = {}
    spans = []  # (label, key, x0, x1)
    for ph, m in enumerate(r.phase_rounds if r.phases > 1 else (r.rounds,)):
        x0 = x
        for k in range(start + 1, start + m + 1):
            round_x[k] = x
            x += col
        if m:
            spans.append((ph, x0, x))
        start += m
        x += phase_gap
    right = x - phase_gap
    head1 = cap_height(pt)
    head2 = (head1 + descent(pt) + 0.6 if r.phases > 1 else 0.0) + row_h / 2
    head3 = head2 + row_h / 2 + 0.4 + cap_height(pt)
    top = head3 + descent(pt) + 0.4 if not beside else head2 + row_h / 2 + 0.4
    if r.phases > 1:
        c.text(0.0, head1, "phase", pt, muted)
        for ph, x0, x1 in spans:
            name = f"phase {ph + 1}" if text_width(f"phase {ph + 1}", pt) <= x1 - x0 else str(ph + 1)
            c.text((x0 + x1) / 2, head1, name, pt, fg, anchor="middle", key=key("phase", ph))
    c.text(0.0, head2, "round", pt, muted, baseline="middle")
    with c.group(name="rounds"):
        for k, rx in round_x.items():
            c.text(rx + col / 2, head2, str(k), pt, fg, anchor="middle", baseline="middle",
                   font="mono", key=key("round", k))
    row_y = {b: top + i * row_h for i, b in enumerate(banks)}
    with c.group(name="banks"):
        if beside:
            c.text(cap_height(pt), top + len(banks) * row_h / 2, "bank", pt, muted,
                   anchor="middle", rotate=-90)
        else:
            c.text(0.0, head3, "bank", pt, muted)
        chosen = selected_numbers(selection, "bank")
        for b, y in row_y.items():
            c.text(label_w - 1.0 if beside else 0.0, y + row_h / 2, str(b), pt, fg,
                   anchor="end" if beside else "start", baseline="middle", key=key("bank", b),
                   bold=b in chosen)
        c.rects([(label_w, y + CELL_PAD / 2, right - label_w, row_h - CELL_PAD)
                 for y in row_y.values()],
                Style(fill=theme.surface, stroke=theme.grid, stroke_width=theme.thin_mm),
                [key("bank", b) for b in banks])
    mine = [s for s in r.slots if s.bank in row_y]

    def box(s) -> tuple[float, float, float, float]:
        # as tall as a slot across (row_h less its insets), inside its bank's row: less the
        # pad between rows too, it came out shorter than its word's ink
        return (round_x[s.round] + INSET, row_y[s.bank] + INSET,
                col - 2 * INSET, row_h - 2 * INSET)

    with c.group(name="queues"):
        queue_slots(c, r, selection, theme, mine, box, pt, floor, depths(r))
        # a selected bank: its queue outlined from its first slot (its number set bold), so
        # the outline's thick edges run between the rows' slots, not through the numbers of
        # the banks above and below (banks-swizzled-columns' bank 12 crossed "11" and "12")
        for b in sorted(selected_numbers(selection, "bank") & set(banks)):
            theme.select(c, label_w, row_y[b], right - label_w, row_h)
    return c.block(right, top + len(banks) * row_h, "queues")
