"""The launch figure's quantization part (this launch in blocks and waves; a matrix output in
tiles and the tiles in waves) and the text helpers every launch part shares: section headings,
counted nouns and shapes.

Keys: ``tile:<i>,<j>``, ``wave:<k>``.
"""

from __future__ import annotations

from gpuviz import keys
from gpuviz.figures.display import PT_TO_MM, Style
from gpuviz.figures.layout import (
    GAP,
    Block,
    BlockCanvas,
    LegendEntry,
    format_number,
    format_percent,
    legend_block,
    place,
    table_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, room_width, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.launch import LaunchResult, QuantizationParams


def plural_s(n: int) -> str:
    return "" if n == 1 else "s"


def count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}{plural_s(n)}"


def dims(v: tuple[int, int, int]) -> str:
    trimmed = list(v)
    while len(trimmed) > 1 and trimmed[-1] == 1:
        trimmed.pop()
    return "(" + ", ".join(format_number(x) for x in trimmed) + ")"


def times(v: tuple[int, int, int]) -> str:
    """A shape as ``40 × 40`` (trailing 1s dropped)."""
    return dims(v)[1:-1].replace(", ", " × ")


def heading(c: BlockCanvas, theme: Theme, width: float, text: str,
             note: str = "") -> tuple[float, float]:
    """A bold section heading and an optional muted note, wrapped; the y below them and the
    width they take."""
    y, used = 0.0, 0.0
    for i, line in enumerate(wrap(text, theme.text_pt, width, bold=True) if text else ()):
        y += (cap_height(theme.text_pt) if i == 0 else theme.text_pt * PT_TO_MM * 1.3)
        c.text(0.0, y, line, theme.text_pt, theme.foreground, bold=True)
        used = max(used, text_width(line, theme.text_pt, bold=True))
    if note:
        for i, line in enumerate(wrap(note, theme.small_pt, width)):
            y += cap_height(theme.small_pt) if not text and not i else \
                theme.small_pt * PT_TO_MM * 1.3
            c.text(0.0, y, line, theme.small_pt, theme.muted)
            used = max(used, text_width(line, theme.small_pt))
    return y + descent(theme.small_pt) + 1.2, used


def centre_shift(size: float, font: str = "mono") -> float:
    """How far above a cell's centre to put a 'middle' baseline so the ink is centred."""
    return 0.36 * size * PT_TO_MM + (descent(size, font) - cap_height(size, font)) / 2  # type: ignore[arg-type]


def quantization(r: LaunchResult, theme: Theme, width: float, floor: float,
                 headed: bool = True) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    share = r.valid_threads / r.threads_launched
    last = r.blocks - (r.waves - 1) * r.slots_per_wave
    # this launch's own problem as a table: each quantity in its column, not a sentence
    rows = [
        ["blocks", (f"{times(r.grid)} = " if "×" in times(r.grid) else "")
         + f"{format_number(r.blocks)} of {times(r.block)} threads for {times(r.extent)} "
           "outputs"],
        ["thread slots", f"{format_number(r.threads_launched)}, "
                         f"{format_number(r.valid_threads)} valid ({format_percent(share)})"],
        ["waves", f"{format_number(r.blocks)} blocks on {format_number(r.slots_per_wave)} "
                  f"slots → {format_number(r.waves)}, last "
                  f"{format_percent(last / r.slots_per_wave)} full"],
    ]
    show_matrix = scenario_sets_matrix(r)
    top = heading(c, theme, width, "Tile and wave quantization")[0] if headed \
        else 0.0
    matrix_rows = _matrix_rows(r) if show_matrix else []
    # the two tables stacked share their first column: their values start on one line
    labels = [room_width(row[0], pt) for row in rows + matrix_rows]
    table = table_block(["", ""], rows, theme, width, name="this launch", least=[max(labels)])
    place(c, table, 0.0, top + (0.6 if headed else 0.0))
    y = top + (0.6 if headed else 0.0) + table.height
    if not show_matrix:
        return c.block(width, y, "quantization")
    matrix = table_block(["", ""], matrix_rows, theme, width, name="matrix output",
                         least=[max(labels)])
    place(c, matrix, 0.0, y + 1.0)
    y += 1.0 + matrix.height
    y += 1.5
    box = 30.0
    tm, tn = r.tiles_m, r.tiles_n
    grid_h = _tile_grid(c, r, theme, 0.0, y, box)
    # the edge of the grid as a table: the valid region, the spill, what is masked
    # a shape never splits across lines (no-break spaces): the row wraps before "of" alone
    edge = [["valid", f"{format_number(r.matrix[0])}\u00a0×\u00a0{format_number(r.matrix[1])} "
                      f"of {format_number(tm * r.tile[0])}\u00a0×\u00a0"
                      f"{format_number(tn * r.tile[1])}"]]
    # the spill, in numbers: the last row and column of tiles hold only what is left over
    spill_m = r.matrix[0] - (tm - 1) * r.tile[0]
    spill_n = r.matrix[1] - (tn - 1) * r.tile[1]
    if spill_m < r.tile[0] or spill_n < r.tile[1]:
        edge += [["last tiles", f"{format_number(spill_m)} of {format_number(r.tile[0])} rows"],
                 ["", f"{format_number(spill_n)} of {format_number(r.tile[1])} columns"],
                 ["masked", f"{format_number(r.tile_slots - r.tile_valid)} slots"]]
    else:  # no ragged edge to zoom into: say so
        edge += [["masked", "none"]]
    if not _grid_size(r, box)[2]:
        edge += [["drawn", "short side longer than to scale"]]
    edge_table = _edge_table(edge, theme, width, box + GAP)
    place(c, edge_table, 0.0, y + grid_h + 0.6)
    y_edge = y + grid_h + 0.6 + edge_table.height
    # the tiles in waves, beside the grid and its edge table (clear of the widest of them)
    wx = waves_x(box, edge_table)
    bar_w = width - wx
    waves = [["tiles", f"{count(r.tiles, 'tile')} on {format_number(r.tile_slots_per_wave)} "
                       f"slots ({count(r.tile_sms, 'SM')} × {count(r.tiles_per_sm, 'tile')} at a "
                       "time)"],
             ["waves", f"{format_number(r.wave_count)}, last "
                       f"{format_percent(r.last_wave_fill)} full"]]
    if bar_w < WAVES_LEAST:  # too narrow beside the tiles: below them
        wx, wy, bar_w = 0.0, y_edge + 2.0, width
    else:
        wy = y
    wave_table = table_block(["", ""], waves, theme, bar_w, name="tiles in waves")
    place(c, wave_table, wx, wy)
    ty = wy + wave_table.height
    by = ty + 1.5
    label_pt = pt
    # at most 12 waves, the first and the last, and no more than their numbers fit beside one
    # another (1,440 waves in a 46 mm bar: "1439" ran into "10")
    fits = int(bar_w // (text_width(str(r.wave_count - 1), label_pt) + 1.6))
    shown = min(r.wave_count, 12, max(2, fits))
    seg = bar_w / shown
    # "wave k" where the last one fits its segment, else the numbers alone
    named = seg >= 10 and text_width(f"wave {r.wave_count - 1}", label_pt) + 1.6 <= seg
    # busy slots: a second channel where the theme hatches categories (print: compute and valid
    # are one gray)
    hatch = theme.category_hatch(0)
    busy = Style(fill=theme.color("compute"), stroke=None, hatch=hatch,
                 hatch_color=theme.foreground if hatch else None)
    for k in range(shown):
        wave_no = k if k < shown - 1 or shown == r.wave_count else r.wave_count - 1
        fill = 1.0 if wave_no < r.wave_count - 1 else r.last_wave_fill
        with c.group(keys.key("wave", wave_no)):
            c.rect(wx + k * seg, by, seg - 1, 5, Style(fill=theme.background))
            c.rect(wx + k * seg, by, (seg - 1) * fill, 5, busy)
            c.rect(wx + k * seg, by, seg - 1, 5, Style(stroke=theme.outline,
                                                        stroke_width=theme.thin_mm))
            c.value(wx + k * seg, by + 5.4, seg - 1, ink_height(label_pt) + 0.4,
                    f"wave {wave_no}" if named else str(wave_no), label_pt, theme.muted,
                    floor=floor, font="sans", key=keys.key("wave", wave_no))
    ny = by + 5.4 + ink_height(label_pt) + 1.2
    leg = legend_block([LegendEntry("slots busy in a wave", busy)], theme, bar_w,
                       notes=["Neither effect predicts elapsed time without assumptions about "
                              "block duration."])
    place(c, leg, wx, ny)
    bottom = max(y_edge, ny + leg.height)
    # a spill of a few rows is a sliver at the tiles' scale: the valid region's far corner
    # again, an element a cell, so that the spilled row shows (where the grid has CORNER rows
    # and columns to show)
    if min(tm * r.tile[0], tn * r.tile[1]) >= CORNER \
            and max(r.tile[0] / max(spill_m, 1), r.tile[1] / max(spill_n, 1)) >= 8:
        if wx > 0:  # beside the tiles, under the waves
            bottom = max(y_edge, _corner(c, r, theme, wx, ny + leg.height + 2.0, width - wx))
        else:
            bottom = _corner(c, r, theme, 0.0, bottom + 2.0, width)
    return c.block(width, bottom, "quantization")


WAVES_LEAST = 40.0  # mm: the tiles in waves beside the grid take at least this much
SLACK = 0.5  # mm an edge table under the grid may pass its column by (1.5 mm from the waves)


def _edge_table(edge: list[list[str]], theme: Theme, width: float, beside: float) -> Block:
    """The grid's edge table, the waves beside it (2 mm clear of it, :func:`waves_x`) where
    they keep :data:`WAVES_LEAST`: ``beside`` wide under the grid where it fits that; else as
    wide as its values need, where the waves keep their room (a shape never splits across
    lines: a 30 mm column ran "6,369 × 12,219" into the waves' note); else ``beside`` wide,
    its longest shape past it; else the whole width (the waves go under it)."""
    narrow = table_block(["", ""], edge, theme, beside, name="edge")
    room = width - 2.0 - WAVES_LEAST
    if narrow.width <= beside + SLACK and room >= beside - GAP:
        return narrow
    wide = table_block(["", ""], edge, theme, max(room, beside), name="edge")
    if wide.width <= room + 1e-6:
        return wide
    if narrow.width <= room + 1e-6:
        return narrow
    return table_block(["", ""], edge, theme, width, name="edge")


def waves_x(box: float, edge_table: Block) -> float:
    """Where the tiles in waves start beside the grid (``box`` wide) and its edge table: the
    gap between blocks past the grid, or 2 mm past a table wider than the grid's column."""
    if edge_table.width <= box + GAP + SLACK:
        return box + GAP + 2.0
    return edge_table.width + 2.0


def _matrix_rows(r: LaunchResult) -> list[list[str]]:
    """The matrix output's quantization as table rows."""
    pct = r.tile_valid / r.tile_slots
    return [
        ["matrix output", f"{format_number(r.matrix[0])} × {format_number(r.matrix[1])} in "
                          f"{format_number(r.tile[0])} × {format_number(r.tile[1])} tiles"],
        ["tiles", f"{format_number(r.tiles_m)} × {format_number(r.tiles_n)} = "
                  f"{count(r.tiles, 'tile')}, {format_number(r.tile_slots)} output slots"],
        ["valid", f"{format_number(r.tile_valid)} ({format_percent(pct)})"]]


MIN_SIDE = 3.0  # mm: a grid's short side at least this, so that a row of tiles shows


def _grid_size(r: LaunchResult, box: float) -> tuple[float, float, bool]:
    """The tile grid's width and height within a ``box`` square, and whether they are to
    scale: an element is as wide as it is tall, so a wide matrix draws a wide grid of tiles of
    their own shape (not a square squeezing 22 tile columns into the width of 13 rows). A short
    side under MIN_SIDE is drawn MIN_SIDE (then not to scale)."""
    rows, cols = r.tiles_m * r.tile[0], r.tiles_n * r.tile[1]
    mm = box / max(rows, cols)
    w, h = max(cols * mm, MIN_SIDE), max(rows * mm, MIN_SIDE)
    return w, h, (w, h) == (cols * mm, rows * mm)


def _tile_grid(c: BlockCanvas, r: LaunchResult, theme: Theme, x: float, y: float,
               box: float) -> float:
    """The matrix output in tiles, within a ``box`` square at (x, y): every tile (masked where
    no element of it is valid) and the valid elements over them. Returns the height it
    takes. The strokes keep off the tiles: the frame goes outside the grid and the valid
    region's ink edge is thin beside a tile, so a last row of tiles with one valid row of 128
    is a whole row of tiles, masked but for its sliver."""
    frame = theme.line_mm
    x, y = x + frame / 2, y + frame / 2
    w, h, _ = _grid_size(r, box)
    tm, tn = r.tiles_m, r.tiles_n
    cw, ch = w / tn, h / tm
    if tm * tn <= 1024:
        xywh = [(x + j * cw, y + i * ch, cw, ch) for i in range(tm) for j in range(tn)]
        c.rects(xywh, theme.fill("masked", outline=False),
                keys=[keys.key("tile", i, j) for i in range(tm) for j in range(tn)])
    else:
        c.rect(x, y, w, h, theme.fill("masked", outline=False))
    vm = h * r.matrix[0] / (tm * r.tile[0])
    vn = w * r.matrix[1] / (tn * r.tile[1])
    c.rect(x, y, vn, vm, Style(fill=theme.color("valid")))
    if tm <= 64 and tn <= 64:
        segs = [(x, y + i * ch, x + w, y + i * ch) for i in range(1, tm)]
        segs += [(x + j * cw, y, x + j * cw, y + h) for j in range(1, tn)]
        if segs:
            c.segments(segs, theme.stroke("outline", theme.thin_mm))
    c.rect(x - frame / 2, y - frame / 2, w + frame, h + frame,
           Style(stroke=theme.foreground, stroke_width=frame))
    _valid_edge(c, theme, x, y, vn, vm, w, h, min(cw, ch))
    return h + frame


def _valid_edge(c: BlockCanvas, theme: Theme, x: float, y: float, vn: float, vm: float,
                w: float, h: float, cell: float) -> None:
    """The valid region's edge in the ink, where it runs inside the grid (the frame is its edge
    elsewhere): a spill of one row past a tile's edge is a sliver at the tiles' scale. Its
    weight is at most a fifth of a tile, so the tiles on either side keep nine tenths of their
    size (a 0.9 mm edge and the frame, both centred, took 30 % of a 2.3 mm row of tiles)."""
    weight = min(theme.thick_mm, 0.2 * cell)
    corner = (x + vn, y + vm)
    points = ([(x, y + vm)] if vm < h else []) + [corner] + ([(x + vn, y)] if vn < w else [])
    if len(points) > 1:
        c.polyline(points, Style(stroke=theme.foreground, stroke_width=weight))


CORNER = 8  # elements a side of the corner drawn an element a cell


def _window(tile: int, tiles: int, extent: int) -> range:
    """CORNER consecutive rows (or columns) of a ``tiles`` × ``tile`` grid around the ragged
    edge of an ``extent`` long matrix: from the last tile's edge, half a window back, on as far
    as the first masked element (never off the grid). Where the matrix fits its tiles, its
    last CORNER rows: the edge there is the grid's own."""
    last = (tiles - 1) * tile  # where the last tile begins
    start = max(0, min(max(last - CORNER // 2, extent - (CORNER - 1)), tiles * tile - CORNER))
    return range(start, start + CORNER)


def _corner(c: BlockCanvas, r: LaunchResult, theme: Theme, x: float, y: float,
            width: float) -> float:
    """The elements around the valid region's far corner, each a cell: where the valid ones
    stop inside the last tiles, at a scale where one row shows. Returns the y below it."""
    pt = theme.small_pt
    cell = 2.2
    rows = _window(r.tile[0], r.tiles_m, r.matrix[0])
    cols = _window(r.tile[1], r.tiles_n, r.matrix[1])
    marks = _row_marks(rows, r.tile[0])
    label_w = max(text_width(format_number(rows[i]), pt) for i in marks) + 1.0
    x0 = x + label_w
    inside = [(i, j, m < r.matrix[0] and n < r.matrix[1])
              for i, m in enumerate(rows) for j, n in enumerate(cols)]
    masked = [(x0 + j * cell, y + i * cell, cell, cell) for i, j, ok in inside if not ok]
    valid = [(x0 + j * cell, y + i * cell, cell, cell) for i, j, ok in inside if ok]
    if masked:
        c.rects(masked, theme.fill("masked", outline=False))
    if valid:
        c.rects(valid, Style(fill=theme.color("valid")))
    side = CORNER * cell
    segs = [(x0, y + i * cell, x0 + side, y + i * cell) for i in range(1, CORNER)]
    segs += [(x0 + j * cell, y, x0 + j * cell, y + side) for j in range(1, CORNER)]
    c.segments(segs, theme.stroke("outline", theme.thin_mm))
    c.rect(x0, y, side, side, Style(stroke=theme.foreground, stroke_width=theme.line_mm))
    # the tiles' edges through the window, in the ink (its own sides too, where a tile ends
    # there: the matrix's last column of a matrix that fits its tiles across)
    edges = [(x0, y + i * cell, x0 + side, y + i * cell)
             for i in range(CORNER + 1) if (rows.start + i) % r.tile[0] == 0]
    edges += [(x0 + j * cell, y, x0 + j * cell, y + side)
              for j in range(CORNER + 1) if (cols.start + j) % r.tile[1] == 0]
    if edges:
        c.segments(edges, theme.stroke("foreground", theme.thick_mm))
    for i in marks:  # row numbers at the start, the tile's edge and the end
        c.text(x0 - 0.8, y + (i + 0.5) * cell, format_number(rows[i]), pt, theme.muted,
               anchor="end", baseline="middle")
    note_x = x0 + side + GAP
    where = (f"rows and columns {_span(rows)}" if rows == cols
             else f"rows {_span(rows)}, columns {_span(cols)}")
    text = f"{where}, an element a cell; thick: the tiles' edges"
    top = y
    if x + width - note_x < 30.0:  # too narrow beside the corner: the note under it
        note_x, top = x, y + side + 0.8
    ty = top
    for line in wrap(text, pt, x + width - note_x):
        ty += cap_height(pt) if ty == top else pt * PT_TO_MM * 1.3
        c.text(note_x, ty, line, pt, theme.muted)
    return max(y + side, ty + descent(pt))


def _row_marks(rows: range, tile: int) -> list[int]:
    """Which of a window's rows to number: the first row of a tile inside it, then the first
    and last rows where they stand clear of it (two cells apart, so the numbers do not touch)."""
    edges = [i for i in range(1, len(rows)) if rows[i] % tile == 0][:1]
    return sorted(edges + [i for i in (0, len(rows) - 1) if all(abs(i - e) >= 2 for e in edges)])


def _span(v: range) -> str:
    return f"{format_number(v[0])}–{format_number(v[-1])}"


def scenario_sets_matrix(r: LaunchResult) -> bool:
    """Whether the matrix quantization belongs to this scenario: its matrix is this launch's own
    problem (as many outputs as valid threads) or was set away from the model's default."""
    d = QuantizationParams()
    default = (r.matrix == (d.matrix_m, d.matrix_n) and r.tile == (d.tile_m, d.tile_n)
               and r.tile_slots_per_wave == d.sm_count * d.blocks_per_sm)
    return r.matrix[0] * r.matrix[1] == r.valid_threads or not default
