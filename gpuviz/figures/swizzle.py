"""Figure of the XOR swizzle grid.

Left, the logical 1024-byte region: 8 rows × 8 chunks of 16 bytes, each chunk tinted by its
logical chunk column. Right (below, in a narrow column), the physical region: each cell shows
which logical chunk is stored there, so the XOR pattern appears as the tints move. Arrows take the
chosen logical column's chunk of every row to where it is stored. Below, one reader per row reads
a word of that chunk: the 32 banks twice, linear and swizzled, with the readers each bank serves,
and a table of each reader's byte address and bank.

Keys: ``chunk:<row>,<col>`` (a logical chunk, in both grids, and its arrow), ``row:<r>`` (the
reader of row r), ``bank:<b>`` (a bank cell in either strip).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gpuviz import keys
from gpuviz.figures.display import PT_TO_MM, Figure, Style, selected_numbers
from gpuviz.figures.layout import (
    GAP,
    MARGIN,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    formula_block,
    legend_block,
    line_step,
    place,
    side_column,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, room_width, text_width
from gpuviz.figures.theme import RoleName, Theme, gray_level
from gpuviz.models.swizzle import (
    BANKS,
    CHUNKS_PER_ROW,
    ROWS,
    SwizzleResult,
    chunk_column_of_bank,
    reader_of_lane,
)

NATURAL_WIDTH = 172.0
CELL = 7.0
ARROW_W = 26.0  # the gap between the grids that holds the arrows
ROW_GAP = 1.2  # mm between a row of bank cells and the next row's bank numbers
#: Each chunk column's lightness (0 black – 1 paper), none near paper: eight steps 0.06 apart,
#: ordered so that two columns that can stand side by side in either grid (their numbers differ
#: by XOR 1, 3 or 7, in a row or a column of the physical grid) and columns c and c XOR 4 are at
#: least 0.12 apart; with its category hue this keeps the eight columns apart in colour and in a
#: grayscale print.
COLUMN_GRAY = (0.46, 0.64, 0.52, 0.82, 0.58, 0.76, 0.88, 0.70)


def column_fill(theme: Theme, column: int) -> str:
    """Chunk column ``column``'s fill: its category's hue (the palette in turn, the eighth
    repeating the first much darker) at its own lightness, mirrored on a dark ground."""
    level = COLUMN_GRAY[column % len(COLUMN_GRAY)]
    if gray_level(theme.background) < 0.5:
        level = 0.24 + (1.0 - level) * 0.75  # none near the dark ground either
    return theme.at_gray(theme.category(column), level)


GRIDS = ("logical", "physical")  # the parts the two chunk grids draw (logical: with arrows)
BANK_PART = ("banks",)


def build(result: SwizzleResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    floor = min(target.min_pt, theme.small_pt)
    name = f"Swizzle⟨{r.bits},{r.base},{r.shift}⟩"
    laws = ["keeps the row and the low 4 byte bits" if r.keeps_row_and_low_bits
            else "moves bytes across rows or inside chunks",
            "applied twice restores the offset" if r.involution else "not an involution"]

    def body(width: float) -> list[Block]:
        shown = tuple(p for p in GRIDS if target.shows(p)) or GRIDS
        formula = as_part(shown, formula_block(r.formula, theme, width, size=theme.text_pt))
        grids = as_part(shown, _grids(r, selection, theme, width, shown))
        right = side_column(target, width, grids.width, 80.0)
        if right is not None and target.whole:
            # slides and views: the readers' banks in a column beside the grids
            return [_stack([formula, grids], "left"),
                    _stack([as_part("banks", _banks(r, selection, theme, right, floor)),
                            as_part("readers", _readers(r, selection, theme, right))],
                           "right")]
        return [formula, grids, as_part("banks", _banks(r, selection, theme, width, floor)),
                as_part("readers", _readers(r, selection, theme, width))]

    def side(width: float) -> list[Block]:
        styles = _strip_styles(theme)
        single = {label for label, banks in (("linear", r.linear_banks),
                                             ("swizzled", r.swizzled_banks))
                  if any(banks.count(b) == 1 for b in banks)}
        shared = any(banks.count(b) > 1 for banks in (r.linear_banks, r.swizzled_banks)
                     for b in banks)
        entries = []
        if "linear" in single:
            entries.append(LegendEntry("bank read by one reader, linear layout",
                                       styles["linear"], parts=BANK_PART))
        if "swizzled" in single:
            entries.append(LegendEntry("bank read by one reader, swizzled", styles["swizzled"],
                                       parts=BANK_PART))
        if shared:
            entries.append(LegendEntry("bank read by several readers (conflict)",
                                       styles["conflict"], parts=BANK_PART))
        entries.append(LegendEntry(f"logical column {r.column}, the one read", _chosen(theme),
                                   parts=GRIDS))
        lanes = sorted(lane for lane in selected_numbers(selection, "lane") if lane >= 0)
        banks = sorted(b for b in selected_numbers(selection, "bank") if 0 <= b < BANKS)
        readers = (*BANK_PART, "readers")
        pointed: list[Note] = [  # what a selection made in a panel that follows this one means
            *[(f"Lane {lane}: the reader of row {reader_of_lane(lane)} (lane l reads row l mod "
               f"{ROWS}).", (*GRIDS, *readers)) for lane in lanes[:2]],
            *[(f"Bank {b}: physical chunk column {chunk_column_of_bank(b)} of every row.",
               (*GRIDS, *BANK_PART)) for b in banks[:2]]]
        tints = "Chunks are tinted by their logical column (headings above the left grid)."
        shows = ("A bank shows rN for the one reader of row N, or how many readers it serves "
                 "in turn.")
        notes: list[Note] = [  # one paragraph in the whole figure, one per part in parts
            *([f"{tints} {shows}"] if target.whole else
              [("Chunks are tinted by their logical column.", GRIDS), (shows, BANK_PART)]),
            ("One reader per row illustrates the address mapping, not a Tensor Core "
             "instruction's lanes.", readers), *pointed]
        return [legend_block(entries, theme, width, notes=notes, target=target)]

    natural = NATURAL_WIDTH
    grow = max(1.0, theme.text_pt / 8.0)
    if target.paged and target.whole:
        # a slide or view offers its whole width: grids and banks side by side
        natural = max(natural, target.page[0] - 2 * MARGIN) / grow
    elif target.paged and not target.shows(*GRIDS):
        # the banks alone on a page: designed from a strip of 16 banks, its label above (the
        # grids' width started the designs at 129 mm, wider than half a 720p screen's 124)
        natural = (BANKS // 2) * _bank_col(theme.small_pt) / grow
    return compose(
        target, theme, title=f"XOR swizzle {name}: where each 16-byte chunk is stored",
        column_title=f"XOR swizzle {name}",
        subtitle="1024-byte region: 8 rows × 128 bytes, eight 16-byte chunks per row · "
                 + " · ".join(laws),
        body=body, side=side, natural_width=natural, figure_title="gpuviz swizzle grid",
        description=f"The XOR swizzle {name} of a 1024-byte region ({r.formula}): logical "
                    f"column {r.column} read by one reader per row hits "
                    f"{counted(len(set(r.linear_banks)), 'bank')} laid out linearly and "
                    f"{counted(len(set(r.swizzled_banks)), 'bank')} swizzled.")


def _selected_rows(selection: frozenset[str]) -> set[int]:
    """The readers a selection points at: ``row:<r>``, and ``lane:<l>`` of a panel that follows
    this one (the bank rack's lanes), each the reader of its row."""
    rows = selected_numbers(selection, "row")
    rows |= {reader_of_lane(lane) for lane in selected_numbers(selection, "lane") if lane >= 0}
    return {row for row in rows if 0 <= row < ROWS}


def _stack(blocks: list[Block], name: str) -> Block:
    """``blocks`` one under another, as one block."""
    c = BlockCanvas()
    y = 0.0
    for b in blocks:
        place(c, b, 0.0, y)
        y += b.height + GAP
    return c.block(max(b.width for b in blocks), y - GAP, name)


def _chosen(theme: Theme) -> Style:
    return Style(fill=theme.foreground, stroke=theme.outline, stroke_width=theme.thin_mm)


def _strip_styles(theme: Theme) -> dict[RoleName, Style]:
    """Bank cell styles by role (hatched where the theme hatches the role, as in print)."""
    return {role: theme.fill(role) for role in ("linear", "swizzled", "conflict")}


def _centre_shift(size: float, font: str = "mono") -> float:
    return 0.36 * size * PT_TO_MM + (descent(size, font) - cap_height(size, font)) / 2  # type: ignore[arg-type]


def _grids(r: SwizzleResult, selection: frozenset[str], theme: Theme, width: float,
           draw: tuple[str, ...] = GRIDS) -> Block:
    """The logical grid with its arrows (part "logical") and the physical grid (part
    "physical"), side by side where they fit, else stacked; or one of them alone."""
    c = BlockCanvas()
    pt, fg, muted = theme.small_pt, theme.foreground, theme.muted
    label_w = text_width("row 7", pt) + 1.2
    both = len(draw) == 2
    side_by_side = both and 2 * (label_w + CHUNKS_PER_ROW * CELL) + ARROW_W + 2.5 <= width + 1e-6
    room = width - label_w - (ARROW_W if "logical" in draw else 0.0)
    cell = CELL if side_by_side else min(CELL, room / CHUNKS_PER_ROW)
    grid_w = CHUNKS_PER_ROW * cell
    head_h = cap_height(theme.text_pt) + 1.2 + ink_height(pt) + 1.0
    lx = label_w
    if side_by_side:
        px, ptop = lx + grid_w + ARROW_W + 2.5 + label_w, head_h
    elif both:
        px, ptop = lx, head_h + ROWS * cell + 4.0 + head_h
    else:  # one grid alone, at the top
        px, ptop = lx, head_h
    top = head_h

    sel_chunks = set(keys.of_kind(selection, "chunk", 2))
    sel_rows = _selected_rows(selection)
    inverse = [[0] * CHUNKS_PER_ROW for _ in range(ROWS)]
    for row in range(ROWS):
        for col in range(CHUNKS_PER_ROW):
            inverse[row][r.mapping[row][col]] = col
    lit = {(row, col) for row, col in sel_chunks if 0 <= row < ROWS and 0 <= col < CHUNKS_PER_ROW}
    lit |= {(row, r.column) for row in sel_rows if 0 <= row < ROWS}

    headings = [(text, x, y) for text, x, y, part in (
        ("logical chunk columns", lx, 0.0, "logical"),
        ("physical: the logical chunk stored here", px, ptop - head_h, "physical"))
        if part in draw]
    for text, x, y in headings:
        c.text(x - label_w, y + cap_height(theme.text_pt), text, theme.text_pt, fg, bold=True)
        for col in range(CHUNKS_PER_ROW):
            c.text(x + (col + 0.5) * cell, y + cap_height(theme.text_pt) + 1.2 + cap_height(pt),
                   str(col), pt, muted, anchor="middle", font="mono")
    for x, gtop, physical in ((lx, top, False), (px, ptop, True)):
        if ("physical" if physical else "logical") not in draw:
            continue
        with c.group(name="physical" if physical else "logical"):
            boxes: dict[int, list[tuple[float, float, float, float]]] = {}
            chunk_keys: dict[int, list[str]] = {}
            for row in range(ROWS):
                c.text(x - 1.0, gtop + (row + 0.5) * cell - _centre_shift(pt, "sans"),
                       f"row {row}", pt, muted, anchor="end", baseline="middle")
                for col in range(CHUNKS_PER_ROW):
                    logical = inverse[row][col] if physical else col
                    boxes.setdefault(logical, []).append(
                        (x + col * cell + 0.2, gtop + row * cell + 0.2, cell - 0.4, cell - 0.4))
                    chunk_keys.setdefault(logical, []).append(keys.key("chunk", row, logical))
            for logical in sorted(boxes):
                if logical == r.column:
                    style = _chosen(theme)
                else:
                    style = Style(fill=column_fill(theme, logical), stroke=theme.outline,
                                  stroke_width=theme.thin_mm)
                c.rects(boxes[logical], style, chunk_keys[logical])
            size = min(theme.text_pt, max(pt, (cell - 1.0) / (0.6 * PT_TO_MM)))
            for row in range(ROWS):
                for col in range(CHUNKS_PER_ROW):
                    logical = inverse[row][col] if physical else col
                    chosen = logical == r.column
                    if physical or chosen:  # a logical cell's column is its column heading
                        c.text(x + (col + 0.5) * cell, gtop + (row + 0.5) * cell
                               - _centre_shift(size), str(logical), size,
                               theme.background if chosen
                               else theme.ink_on(column_fill(theme, logical)), anchor="middle",
                               baseline="middle", font="mono", bold=chosen,
                               key=keys.key("chunk", row, logical))
    # the arrows: row r's chunk of the chosen column goes to column dest of the same row
    ax = lx + grid_w + 1.0
    if "logical" in draw:
        with c.group(name="arrows"):
            heading = f"column {r.column} goes to"
            if room_width(heading, pt) <= ARROW_W - 0.5:
                c.text(ax, top - 1.0, heading, pt, muted)
            else:  # where a wider face would not fit the arrows' width: on two lines
                c.text(ax, top - 1.0 - line_step(pt), f"column {r.column}", pt, muted)
                c.text(ax, top - 1.0, "goes to", pt, muted)
            for row in range(ROWS):
                dest = r.mapping[row][r.column]
                yy = top + (row + 0.5) * cell
                on = (row, r.column) in lit
                label = f"col {dest}"
                lw = text_width(label, pt, "mono", bold=on)
                end = ax + ARROW_W - 2.0 - lw - 1.0
                c.line(ax, yy, end, yy, Style(stroke=theme.foreground if on else theme.muted,
                                              stroke_width=theme.thick_mm if on
                                              else theme.line_mm),
                       key=keys.key("chunk", row, r.column), arrow=True)
                c.text(end + 0.8, yy - _centre_shift(pt), label, pt, fg if on else muted,
                       baseline="middle", font="mono", bold=on)
    # a selected bank: the physical chunk column that holds it in every row, and the logical
    # chunks stored there
    for b in sorted(selected_numbers(selection, "bank")):
        if not 0 <= b < BANKS:
            continue
        pc = chunk_column_of_bank(b)
        for row in range(ROWS):
            if "physical" in draw:
                theme.select(c, px + pc * cell, ptop + row * cell, cell, cell)
            if "logical" in draw:
                theme.select(c, lx + inverse[row][pc] * cell, top + row * cell, cell, cell)
    # a selected chunk: outlined in both grids, its row's arrow between them lit (a route
    # drawn along the row's top edge ran over the row above and set its arrowhead on the
    # physical cell above the target, hiding its number)
    for row, col in sorted(lit):
        pc = r.mapping[row][col]
        y1, y2 = top + row * cell, ptop + row * cell
        with c.group(keys.key("chunk", row, col)):
            if "logical" in draw:
                theme.select(c, lx + col * cell, y1, cell, cell)
            if "physical" in draw:
                theme.select(c, px + pc * cell, y2, cell, cell)
    if side_by_side:
        right = px + grid_w
    elif both:
        right = max(lx + grid_w + ARROW_W, text_width("physical: the logical chunk stored here",
                                                      theme.text_pt, bold=True))
    else:
        right = max(lx + grid_w + (ARROW_W if "logical" in draw else 0.0),
                    *(text_width(h, theme.text_pt, bold=True) for h, _, _ in headings))
    return c.block(min(width, right), ptop + ROWS * cell, "grids")


def _bank_col(pt: float) -> float:
    """The width of a bank's cell in a strip, where the width allows it."""
    return max(6.0, text_width("31 ", pt, "mono") + 0.3)


def _banks(r: SwizzleResult, selection: frozenset[str], theme: Theme, width: float,
           floor: float) -> Block:
    c = BlockCanvas()
    pt, fg, muted = theme.small_pt, theme.foreground, theme.muted
    sel_rows, sel_banks = _selected_rows(selection), selected_numbers(selection, "bank")
    word = "first word" if r.word == 0 else f"word {r.word}"
    head = text_block(f"One reader per row reads the {word} of logical chunk column {r.column}",
                      theme, width, size=theme.text_pt, bold=True)
    place(c, head, 0.0, 0.0)
    note = text_block("bank = (byte address / 4) mod 32", theme, width, color=muted)
    place(c, note, 0.0, head.height + 1.0)
    y = head.height + 1.0 + note.height + 1.5
    strips: tuple[tuple[RoleName, Any, int], ...] = (
              ("linear", r.linear_banks, r.distinct_linear),
              ("swizzled", r.swizzled_banks, r.distinct_swizzled))
    gutter = max(text_width("swizzled", theme.text_pt, bold=True),
                 max(text_width(_summary(banks, distinct), pt) for _, banks, distinct in strips)
                 ) + 1.5
    need = text_width("r7", pt, "mono") + 0.9
    per_row = next((n for n in (BANKS, BANKS // 2) if gutter + n * need <= width), BANKS // 4)
    # too narrow for the labels beside the strips and 16 banks a row: each strip's label goes on
    # a line above it, and its banks take the whole width
    above = per_row < BANKS // 2 and (BANKS // 2) * need <= width
    if above:
        gutter, per_row = 0.0, BANKS // 2
    col = min((width - gutter) / per_row, _bank_col(pt))
    h = ink_height(pt, "mono") + 2.0
    styles = _strip_styles(theme)
    for label, banks, distinct in strips:
        readers: dict[int, list[int]] = {}
        for row, b in enumerate(banks):
            readers.setdefault(b, []).append(row)
        if above:
            c.text(0.0, y + cap_height(theme.text_pt), label, theme.text_pt, fg, bold=True)
            c.text(room_width(f"{label}  ", theme.text_pt, bold=True), y + cap_height(theme.text_pt),
                   _summary(banks, distinct), pt, muted)
            y += line_step(theme.text_pt) + 0.4
        else:
            c.text(0.0, y + cap_height(pt) + 0.2, "bank", pt, muted)
        for part in range(BANKS // per_row):
            first = part * per_row
            hy = y + part * (h + ink_height(pt) + ROW_GAP)
            # every bank's number where two digits and a space fit its column, else every
            # other one (so that "10 11 12" never reads as "101112")
            every = 1 if text_width("31 ", pt, "mono") <= col else 2
            for b in range(first, first + per_row, every):
                c.text(gutter + (b - first + 0.5) * col, hy + cap_height(pt), str(b), pt, muted,
                       anchor="middle", font="mono")
            sy = hy + ink_height(pt) + 0.8
            if part == 0 and not above:
                c.text(0.0, sy + cap_height(theme.text_pt), label, theme.text_pt, fg, bold=True)
                c.text(0.0, sy + cap_height(theme.text_pt) + theme.text_pt * PT_TO_MM * 1.1
                       + 0.2, _summary(banks, distinct), pt, muted)
            with c.group(name=f"{label} banks"):
                span = range(first, first + per_row)
                c.rects([(gutter + (b - first) * col + 0.15, sy, col - 0.3, h) for b in span],
                        Style(fill=theme.surface, stroke=theme.outline,
                              stroke_width=theme.thin_mm), [keys.key("bank", b) for b in span])
                for b, rows in sorted(readers.items()):
                    if b not in span:
                        continue
                    role: RoleName = "conflict" if len(rows) > 1 else label
                    x = gutter + (b - first) * col + 0.15
                    c.rect(x, sy, col - 0.3, h, styles[role], key=keys.key("bank", b))
                    text = str(len(rows)) if len(rows) > 1 else f"r{rows[0]}"
                    fill = theme.color(role)
                    if styles[role].hatch:  # print: a hatched frame, the count on clear ground
                        c.rect(x + 0.4, sy + 0.4, col - 1.1, h - 0.8, Style(fill=fill))
                    t = c.value(x, sy - _centre_shift(pt), col - 0.3, h, text, pt,
                                theme.ink_on(fill), floor=floor, key=keys.key("bank", b), pad=0.1)
                    if styles[role].hatch:
                        c.replace_last(replace(t, knockout=fill))
                    if any(row in sel_rows for row in rows):
                        theme.select(c, x, sy, col - 0.3, h)
                for b in sorted(sel_banks & set(span)):
                    theme.select(c, gutter + (b - first) * col + 0.15, sy, col - 0.3, h)
        label_bottom = y if above else (y + ink_height(pt) + 0.8 + cap_height(theme.text_pt)
                                        + theme.text_pt * PT_TO_MM * 1.1 + 0.2 + descent(pt))
        y = max(y + (BANKS // per_row) * (h + ink_height(pt) + ROW_GAP),
                label_bottom + 1.0) + 1.5
    return c.block(min(width, gutter + per_row * col), y - 1.5, "banks")


def _summary(banks: tuple[int, ...], distinct: int) -> str:
    worst = max(banks.count(b) for b in set(banks))
    return f"{format_number(distinct)} bank{'s' if distinct != 1 else ''}" + (
        f", {worst}-way" if worst > 1 else "")


def _readers(r: SwizzleResult, selection: frozenset[str], theme: Theme, width: float) -> Block:
    """Each reader's byte address and bank, linear → swizzled, one monospaced line per row."""
    c = BlockCanvas()
    pt, fg = theme.small_pt, theme.foreground
    sel_rows = _selected_rows(selection)
    head = text_block("Readers: byte address and bank, linear → swizzled", theme, width,
                      size=theme.text_pt, bold=True)
    place(c, head, 0.0, 0.0)
    y = head.height + 1.2
    step = pt * PT_TO_MM * 1.3
    used = head.width
    bw = max(len(str(v)) for v in (*r.linear_offsets, *r.swizzled_offsets))
    for row in range(ROWS):
        line = (f"row {row}   byte {r.linear_offsets[row]:>{bw}} → {r.swizzled_offsets[row]:<{bw}}"
                f"   bank {r.linear_banks[row]:>2} → {r.swizzled_banks[row]}")
        c.text(0.0, y + cap_height(pt, "mono"), line, pt, fg, font="mono", bold=row in sel_rows,
               key=keys.key("row", row))
        used = max(used, text_width(line, pt, "mono", bold=row in sel_rows))
        y += step
    # as wide as its lines (monospaced, never wrapped), so nothing is set beside them
    return c.block(used, y - step + cap_height(pt, "mono") + descent(pt, "mono"), "readers")
