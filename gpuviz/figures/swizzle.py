"""Figure of the XOR swizzle grid.

Left, the logical 1024-byte region: 8 rows × 8 chunks of 16 bytes, each chunk labelled and tinted
by its logical chunk column. Right, the physical region: each cell shows which logical chunk is
stored there, so the XOR pattern appears as the tints move. Arrows take the chosen logical column's
chunk of every row to where it is stored. Below, one reader per row reads a word of that chunk:
the 32 banks twice, linear and swizzled, with the readers each bank serves.

Keys: ``chunk:<row>,<col>`` (a logical chunk, in both grids, and its arrow), ``row:<r>`` (the
reader of row r), ``bank:<b>`` (a bank cell in either strip).
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
from gpuviz.models.swizzle import BANKS, CHUNKS_PER_ROW, ROWS, SwizzleResult

WIDTH = 172.0
MARGIN = 5.0
CELL = 7.0
LABEL_W = 11.0
ARROW_GAP = 32.0
TINT = 0.3  # how much of a column's category colour shows in its tinted cells


def _chunks(selection: frozenset[str]) -> set[tuple[int, int]]:
    out = set()
    for key in selection:
        head, _, tail = key.partition(":")
        if head == "chunk":
            try:
                r, c = (int(v) for v in tail.split(","))
            except ValueError:
                continue
            out.add((r, c))
    return out


def build(result: SwizzleResult, selection: frozenset[str], theme: Theme) -> Figure:
    r = result
    c = Canvas()
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    y = MARGIN + theme.title_pt * PT_TO_MM
    name = f"Swizzle⟨{r.bits},{r.base},{r.shift}⟩"
    c.text(MARGIN, y, f"XOR swizzle {name}: where each 16-byte chunk is stored",
           theme.title_pt, fg, bold=True)
    y += em * 1.6
    c.text(MARGIN, y, r.formula, theme.text_pt, fg, font="mono")
    y += em * 1.3
    laws = ["keeps the row and the low 4 byte bits" if r.keeps_row_and_low_bits
            else "moves bytes across rows or inside chunks",
            "applied twice restores the offset" if r.involution else "not an involution"]
    c.text(MARGIN, y, "1024-byte region: 8 rows × 128 bytes, eight 16-byte chunks per row · "
           + " · ".join(laws), theme.small_pt, muted)
    y += em * 2.4

    grid_w = CHUNKS_PER_ROW * CELL
    lx = MARGIN + LABEL_W
    px = lx + grid_w + ARROW_GAP
    c.text(lx, y, "logical chunk columns", theme.text_pt, fg, bold=True)
    c.text(px, y, "physical: the logical chunk stored here", theme.text_pt, fg, bold=True)
    y += em * 1.1
    for x in (lx, px):
        for col in range(CHUNKS_PER_ROW):
            c.text(x + (col + 0.5) * CELL, y + em * 0.2, str(col), theme.small_pt, muted,
                   anchor="middle", font="mono")
    top = y + em * 0.8

    sel_chunks = _chunks(selection)
    sel_rows = selected_numbers(selection, "row")
    sel_banks = selected_numbers(selection, "bank")
    inverse = [[0] * CHUNKS_PER_ROW for _ in range(ROWS)]
    for row in range(ROWS):
        for col in range(CHUNKS_PER_ROW):
            inverse[row][r.mapping[row][col]] = col
    lit = {(row, col) for row, col in sel_chunks if 0 <= row < ROWS and 0 <= col < CHUNKS_PER_ROW}
    lit |= {(row, r.column) for row in sel_rows if 0 <= row < ROWS}

    # Cells are batched per logical column (one tinted Rects each), so a grid is a few items.
    for x, physical in ((lx, False), (px, True)):
        with c.group(name="physical" if physical else "logical"):
            boxes: dict[int, list[tuple[float, float, float, float]]] = {}
            keys: dict[int, list[str]] = {}
            for row in range(ROWS):
                label = f"row {row}"
                c.text(x - 1.2 - text_width(label, theme.small_pt), top + (row + 0.5) * CELL,
                       label, theme.small_pt, muted, baseline="middle")
                for col in range(CHUNKS_PER_ROW):
                    logical = inverse[row][col] if physical else col
                    boxes.setdefault(logical, []).append(
                        (x + col * CELL + 0.2, top + row * CELL + 0.2, CELL - 0.4, CELL - 0.4))
                    keys.setdefault(logical, []).append(f"chunk:{row},{logical}")
            for logical in sorted(boxes):
                if logical == r.column:
                    style = Style(fill=fg, stroke=theme.outline, stroke_width=theme.thin_mm)
                else:
                    style = Style(fill=theme.mix(theme.category(logical), TINT))
                c.rects(boxes[logical], style, keys[logical])
            c.rects([b for lg in sorted(boxes) if lg != r.column for b in boxes[lg]],
                    Style(stroke=theme.outline, stroke_width=theme.thin_mm))
            for row in range(ROWS):
                for col in range(CHUNKS_PER_ROW):
                    logical = inverse[row][col] if physical else col
                    chosen = logical == r.column
                    if physical or chosen:  # a logical cell's column is its column heading
                        c.text(x + (col + 0.5) * CELL, top + (row + 0.5) * CELL, str(logical),
                               theme.text_pt, theme.background if chosen else fg,
                               anchor="middle", baseline="middle", font="mono", bold=chosen)
    # the gap between the grids: one arrow per row of the chosen column, row to row
    with c.group(name="arrows"):
        for row in range(ROWS):
            dest = r.mapping[row][r.column]
            yy = top + (row + 0.5) * CELL
            on = (row, r.column) in lit
            c.line(lx + grid_w + 1.0, yy, px - 21.0, yy,
                   Style(stroke=theme.accent if on else theme.muted,
                         stroke_width=theme.thick_mm if on else theme.line_mm),
                   key=f"chunk:{row},{r.column}", arrow=True)
            c.text(px - 20.0, yy, f"col {dest}", theme.small_pt, fg if on else muted,
                   baseline="middle", font="mono", bold=on)
        c.text(lx + grid_w + 1.0, top - em * 0.6, f"column {r.column} goes to",
               theme.small_pt, muted)
    halo = Style(stroke=theme.background, stroke_width=theme.thick_mm * 2.6)
    for row, col in sorted(lit):
        pc = r.mapping[row][col]
        x1, x2 = lx + (col + 0.5) * CELL, px + (pc + 0.5) * CELL
        yy = top + (row + 0.5) * CELL
        with c.group(f"chunk:{row},{col}"):
            c.polyline([(x1, yy - CELL * 0.32), (x1, yy - CELL * 0.5),
                        (x2, yy - CELL * 0.5), (x2, yy - CELL * 0.32)], halo)
            c.polyline([(x1, yy - CELL * 0.32), (x1, yy - CELL * 0.5),
                        (x2, yy - CELL * 0.5), (x2, yy - CELL * 0.32)],
                       Style(stroke=theme.accent, stroke_width=theme.thick_mm), arrow_end=True)
            c.rect(lx + col * CELL, top + row * CELL, CELL, CELL, theme.highlight())
            c.rect(px + pc * CELL, top + row * CELL, CELL, CELL, theme.highlight())
    y = top + ROWS * CELL + em * 2.2
    y = _banks(c, r, theme, y, sel_rows, sel_banks)
    return c.figure(WIDTH, y + MARGIN, theme.background, title="gpuviz swizzle grid",
                    description=f"{name}: {r.formula}; logical column {r.column}, word {r.word}: "
                                f"linear banks {list(r.linear_banks)}, swizzled banks "
                                f"{list(r.swizzled_banks)}")


def _banks(c: Canvas, r: SwizzleResult, theme: Theme, y: float, sel_rows: set[int],
           sel_banks: set[int]) -> float:
    em = theme.text_pt * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    word = "first word" if r.word == 0 else f"word {r.word}"
    c.text(MARGIN, y, f"One reader per row reads the {word} of logical chunk column {r.column}",
           theme.text_pt, fg, bold=True)
    y += em * 1.2
    c.text(MARGIN, y, "bank = (byte address / 4) mod 32; the number in a bank is how many "
           "readers it must serve, one after another", theme.small_pt, muted)
    y += em * 1.2
    x0 = MARGIN + 22.0
    col = (WIDTH - MARGIN - x0) / BANKS
    h = 6.0
    for b in range(BANKS):
        c.text(x0 + (b + 0.5) * col, y + em * 0.5, str(b), fit_pt(2, col, theme.small_pt * 0.85),
               muted,
               anchor="middle", font="mono")
    y += em * 0.9
    strips = (
        ("linear", r.linear_banks, r.linear_offsets, r.distinct_linear),
        ("swizzled", r.swizzled_banks, r.swizzled_offsets, r.distinct_swizzled),
    )
    for label, banks, _offsets, distinct in strips:
        readers: dict[int, list[int]] = {}
        for row, b in enumerate(banks):
            readers.setdefault(b, []).append(row)
        worst = max(len(v) for v in readers.values())
        c.text(MARGIN, y + h / 2 - em * 0.3, label, theme.text_pt, fg, bold=True,
               baseline="middle")
        c.text(MARGIN, y + h / 2 + em * 0.75, f"{distinct} bank{'s' if distinct != 1 else ''}"
               + (f", {worst}-way" if worst > 1 else ""), theme.small_pt, muted,
               baseline="middle")
        with c.group(name=f"{label} banks"):
            c.rects([(x0 + b * col + 0.15, y, col - 0.3, h) for b in range(BANKS)],
                    Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm),
                    [f"bank:{b}" for b in range(BANKS)])
            for b, rows in sorted(readers.items()):
                role = "conflict" if len(rows) > 1 else label
                c.rect(x0 + b * col + 0.15, y, col - 0.3, h, theme.fill(role), key=f"bank:{b}")
                text = str(len(rows)) if len(rows) > 1 else f"r{rows[0]}"
                size = fit_pt(2, col - 0.6, theme.small_pt * 0.85)
                if text_width(text, size, "mono") * 1.15 <= col - 0.3:
                    c.text(x0 + (b + 0.5) * col, y + h / 2, text, size,
                           theme.ink_on(role),
                           anchor="middle", baseline="middle", font="mono")
                for row in rows:
                    if row in sel_rows:
                        c.rect(x0 + b * col + 0.15, y, col - 0.3, h, theme.highlight())
            for b in sorted(sel_banks):
                if 0 <= b < BANKS:
                    c.rect(x0 + b * col + 0.15, y, col - 0.3, h, theme.highlight())
        y += h + em * 1.6
    # the readers as a small table
    c.text(MARGIN, y, "reader", theme.small_pt, muted)
    table_x = MARGIN + 22.0
    step = (WIDTH - MARGIN - table_x) / ROWS
    for row in range(ROWS):
        x = table_x + row * step
        with c.group(f"row:{row}"):
            c.text(x, y, f"row {row}", theme.small_pt, fg, bold=row in sel_rows)
            c.text(x, y + em * 1.15, f"{r.linear_offsets[row]} → {r.swizzled_offsets[row]}",
                   theme.small_pt * 0.9, fg, font="mono")
            c.text(x, y + em * 2.2, f"{r.linear_banks[row]} → {r.swizzled_banks[row]}",
                   theme.small_pt * 0.9, muted, font="mono")
    c.text(MARGIN, y + em * 1.15, "byte", theme.small_pt, muted)
    c.text(MARGIN, y + em * 2.2, "bank", theme.small_pt, muted)
    y += em * 3.4
    c.text(MARGIN, y, "Eight readers, one per row, illustrate the address mapping; this is not "
           "a simulation of a Tensor Core instruction's lanes or transactions.",
           theme.small_pt, muted)
    return y + em * 0.4
