"""The ``tma`` figure's ``box`` and ``placement`` parts, drawn: where a box's bytes come from in
global memory and where they land in shared memory.

- ``box``: the box as rows of its elements, grouped in 16-byte chunks (each chunk tinted by its
  logical chunk column, as the swizzle panel tints chunk columns), against the tensor's edge:
  an element outside the tensor (a negative or past-the-end coordinate) is zero-filled by the
  copy (CUDA C++ Programming Guide, "Tensor Memory Access"), drawn hatched; the start's
  coordinates label the first row and chunk. A large box is summarised: its first
  :data:`MAX_BOX_ROWS` rows and :data:`MAX_BOX_CHUNKS` chunks are drawn and the rest counted.
- ``placement``: shared memory, one row per 128-byte line, eight physical 16-byte chunk slots
  each printing the logical chunk stored there, tinted by its column. Each line is labelled
  with its address A past the 1024-byte-aligned base and its phase (A >> 7) & m: a buffer
  aligned to 128 bytes but not to the pattern's repeat (256, 512, 1024 bytes) starts in another
  phase, and a dashed line marks where the pattern restarts (PTX ISA, "Tensor swizzling
  modes"). A slot receiving a chunk of zeros has no tint and a dashed outline. The slots are
  read from the model's placement, not recomputed.

Keys: ``chunk:<row>,<col>``: logical chunk ``col`` (16 bytes) of box row ``row``, in both grids;
a selected one is outlined in both and its landing spelled out under the placement.
"""

from __future__ import annotations

from gpuviz import keys
from gpuviz.figures.display import Anchor, Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    format_number,
    legend_block,
    line_step,
    place,
    receipt_block,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, room_width, text_width
from gpuviz.figures.mma_cells import PAD, cell_text, heading, tagged
from gpuviz.figures.swizzle import column_fill
from gpuviz.figures.theme import Theme
from gpuviz.models.tma import TmaResult
from gpuviz.models.tma_map import (
    SWIZZLE_MASK,
    box_start,
    inner_coordinates,
    interleave_bytes,
    not_placed,
    row_coordinates,
    run_bytes,
)

CHUNK = 16  # bytes of a chunk
LINE = 128  # bytes of a shared-memory line: eight chunk slots
SLOTS = LINE // CHUNK
MAX_BOX_ROWS = 8  # rows of the box drawn; the rest are counted
MAX_BOX_CHUNKS = 8  # chunks of a box row drawn (one 128-byte span); the rest are counted
MAX_LINES = 8  # 128-byte lines drawn (a 128B pattern's repeat); the rest are counted
MAX_CELL = 8.0  # mm: the widest chunk slot
MAX_CHUNK_W = 16.0  # mm: the widest chunk of the box
#: One meaning, one mark in both parts: a chunk's tint is its logical chunk column, each tint
#: drawn numbered in the legend (:func:`column_key`)
CHUNK_LABEL = "logical chunk column of a 16-byte chunk"



def placement_title(p) -> str:
    """The placement part's title: the swizzle mode and the buffer's offset."""
    mode = f"{p.swizzle} swizzle" if p.swizzle != "none" else "no swizzle,"
    return f"Placement, {mode} at offset {p.smem_offset}"

def chunk_elements(r: TmaResult) -> int:
    """Elements of a 16-byte chunk."""
    return max(1, CHUNK // r.params.element_bytes)


def slots(r: TmaResult) -> dict[tuple[int, int], tuple[int, int]]:
    """``(line, slot)`` → ``(box row, logical chunk)``: where the model's placement puts the first
    byte of each logical 16-byte chunk of each row."""
    step = chunk_elements(r)
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for row, offsets in enumerate(r.placement):
        for chunk, j in enumerate(range(0, len(offsets), step)):
            physical = offsets[j] // CHUNK
            out[(physical // SLOTS, physical % SLOTS)] = (row, chunk)
    return out


def zero_style(theme: Theme) -> Style:
    """A zero-filled element: the ground, hatched in every theme (a pattern, not a tint, so it
    reads apart from every chunk column's tint in colour, in print and in a grayscale copy)."""
    return Style(fill=theme.background, stroke=theme.outline, stroke_width=theme.thin_mm,
                 hatch="diagonal", hatch_color=theme.muted)


#: The slots holding a chunk of zeros, beside the chunk columns 0–7 of the others.
ZEROS = SLOTS


def zeros_style(theme: Theme) -> Style:
    """A slot holding a chunk of zeros: no chunk's tint, a dashed outline (its number stays on a
    clear ground; a hatch under it would read as part of the digit)."""
    return Style(fill=theme.background, stroke=theme.foreground, stroke_width=theme.line_mm,
                 dash=(0.8, 0.4))


def _chunk_style(theme: Theme, chunk: int) -> Style:
    return Style(fill=column_fill(theme, chunk % SLOTS), stroke=theme.outline,
                 stroke_width=theme.thin_mm)


def _selected(selection: frozenset[str]) -> list[tuple[int, int]]:
    return [(row, col) for row, col in keys.of_kind(selection, "chunk", 2)]


def _refused(r: TmaResult, part: str, theme: Theme, width: float) -> Block:
    """What stands where a refused map's box or placement would be: the rules it breaks."""
    if r.tensor_map_valid:
        why = not_placed(r.params) or "the model lists none"
        return text_block(f"No {part}: {why}.", theme, width, name=f"{part}-none")
    return receipt_block([f"No {part}: cuTensorMapEncodeTiled refuses the tensor map.",
                          *(f"refused: {m}" for m in r.tensor_map_problems)], theme, width)


def _outer_label(coords: tuple[int, ...]) -> str:
    return ", ".join(map(str, coords))


AXES = ("x", "y", "z", "w", "v")


def _span(inside: list[bool], origin: float, step: float) -> tuple[float, float]:
    """From the first to past the last of the places ``inside`` (origin, origin if none)."""
    if not any(inside):
        return origin, origin
    return (origin + inside.index(True) * step,
            origin + (len(inside) - inside[::-1].index(True)) * step)


# --------------------------------------------------------------------------------------------
# box


def box(r: TmaResult, theme: Theme, width: float,
        selection: frozenset[str] = frozenset()) -> list[Block]:
    p = r.params
    start = box_start(p)
    title = f"Box at ({', '.join(map(str, start))}) in global memory"
    head = heading(title, theme, width, "box-title")
    if not r.zero_filled:
        return tagged("box", head, _refused(r, "box", theme, width), None, None)
    il = interleave_bytes(p)
    xs = inner_coordinates(p)
    rows, inner = len(r.zero_filled), len(r.zero_filled[0])
    epc = chunk_elements(r)
    chunks = -(-inner // epc)
    shown_rows, shown_chunks = min(rows, MAX_BOX_ROWS), min(chunks, MAX_BOX_CHUNKS)
    shown_inner = min(inner, shown_chunks * epc)
    outer = row_coordinates(p)
    pt = theme.small_pt
    c = BlockCanvas()
    labels = [_outer_label(outer[i]) for i in range(shown_rows)]
    axis = ", ".join(AXES[1:len(p.box_dims)]) or "y"
    index_w = max(text_width(t, pt) for t in ("row", "run", str(shown_rows - 1))) + 2.5
    label_w = index_w + max(text_width(t, pt, "mono") for t in [*labels, axis]) + 1.2
    room = width - label_w - 0.5
    chunk_w = min(MAX_CHUNK_W, room / shown_chunks)
    ew = chunk_w / epc
    row_h = max(3.4, ink_height(pt) + 1.2)
    # chunk numbers above the grid, the axis name above the row labels
    head_y = cap_height(pt)
    c.text(index_w - 2.5, head_y, "run" if il else "row", pt, theme.muted, anchor="end")
    c.text(label_w - 1.0, head_y, axis, pt, theme.muted, anchor="end", font="mono")
    for k in range(shown_chunks):
        c.text(label_w + (k + 0.5) * chunk_w, head_y, str(k), pt, theme.muted,
               anchor="middle", font="mono")
    top = head_y + 1.2
    zero = zero_style(theme)
    zeros = 0
    for i in range(shown_rows):
        y = top + i * row_h
        c.text(index_w - 2.5, y + row_h / 2, str(i), pt, theme.foreground, anchor="end",
               baseline="middle")
        c.text(label_w - 1.0, y + row_h / 2, labels[i], pt, theme.muted, anchor="end",
               baseline="middle", font="mono")
        filled = r.zero_filled[i]
        for k in range(shown_chunks):
            first, last = k * epc, min(inner, (k + 1) * epc)
            runs: dict[bool, list[tuple[float, float, float, float]]] = {False: [], True: []}
            j = first
            while j < last:  # runs of elements alike (inside the tensor, or zero-filled)
                e = j
                while e < last and filled[e] == filled[j]:
                    e += 1
                runs[filled[j]].append((label_w + j * ew, y + PAD / 2, (e - j) * ew,
                                        row_h - PAD))
                j = e
            zeros += len(runs[True])
            # the chunk's key on its group: the placement prints its number, the box has no
            # room to (a cell keyed here would count as a value cell left blank)
            with c.group(keys.key("chunk", i, k)):
                c.rects(runs[False], _chunk_style(theme, k))
                c.rects(runs[True], zero)
    grid_w = shown_inner * ew
    grid_h = shown_rows * row_h
    if ew >= 1.5:  # element boundaries, where an element is wide enough to see
        c.segments([(label_w + j * ew, top, label_w + j * ew, top + grid_h)
                    for j in range(1, shown_inner) if j % epc],
                   Style(stroke=theme.grid, stroke_width=theme.thin_mm))
    chunk_line = Style(stroke=theme.outline, stroke_width=theme.line_mm)
    c.segments([(label_w + k * chunk_w, top, label_w + k * chunk_w, top + grid_h)
                for k in range(shown_chunks + 1) if k * epc <= shown_inner], chunk_line)
    # the tensor's edge: where a coordinate crosses 0 or the dimension's end inside the box
    edge = Style(stroke=theme.foreground, stroke_width=theme.thick_mm)
    x_in = [0 <= xs[j] < p.global_dims[0] for j in range(shown_inner)]
    row_in = [all(0 <= v < d for v, d in zip(outer[k], p.global_dims[1:], strict=False))
              for k in range(shown_rows)]
    # each edge runs along the tensor's side only: a column edge beside the rows inside, a
    # row edge along the elements inside
    y0, y1 = _span(row_in, top, row_h)
    x0, x1 = _span(x_in, label_w, ew)
    edges = [(label_w + j * ew, y0, label_w + j * ew, y1)
             for j in range(1, shown_inner) if x_in[j] != x_in[j - 1] and y1 > y0]
    edges += [(x0, top + i * row_h, x1, top + i * row_h)
              for i in range(1, shown_rows) if row_in[i] != row_in[i - 1] and x1 > x0]
    c.segments(edges, edge)
    # each chunk's first x under it, centred as its number is above it (under 32B interleave
    # a chunk coordinate spans two columns: centred under both)
    y = top + grid_h + 1.0 + cap_height(pt)
    c.text(label_w - 1.0, y, AXES[0], pt, theme.muted, anchor="end", font="mono")
    span = max(1, il // CHUNK)
    right = label_w
    for k in range(0, shown_chunks, span):
        first = k * epc
        x = label_w + (first + min(shown_inner - first, span * epc) / 2) * ew
        text = str(xs[first])
        w = text_width(text, pt, "mono")
        if x - w / 2 < right + 0.8:
            continue
        c.text(x, y, text, pt, theme.muted, anchor="middle", font="mono")
        right = x + w / 2
    sel = _selected(selection)
    for row, col in sel:
        if 0 <= row < shown_rows and 0 <= col < shown_chunks:
            w = (min(inner, (col + 1) * epc) - col * epc) * ew
            theme.select(c, label_w + col * chunk_w, top + row * row_h, w, row_h)
    height = y + 0.6
    drawing = c.block(min(width, max(label_w + grid_w, right)), height, "box-grid")
    total = sum(len(row) for row in r.zero_filled)
    zeros_n = sum(sum(row) for row in r.zero_filled)
    eb_text = f"{p.element_bytes} byte{'s' if p.element_bytes > 1 else ''}"
    facts: list[str | tuple[str, str]] = [
        ("box", f"{format_number(rows)} rows × {format_number(inner)} elements of {eb_text}")
        if not il else
        ("runs", f"{format_number(rows)} × {p.box_dims[0]} chunks of {il} bytes, "
                 f"{format_number(run_bytes(p))} bytes each"),
        ("zero-filled", f"{format_number(zeros_n)} of {format_number(total)} elements"),
    ]
    cut = [f"the first {shown_rows} of {format_number(rows)} rows"] if shown_rows < rows else []
    if shown_chunks < chunks:
        cut.append(f"{shown_chunks} of {format_number(chunks)} chunks a row")
    if cut:
        facts.append(f"Drawn: {' and '.join(cut)} "
                     f"({format_number(total - shown_rows * shown_inner)} elements not drawn).")
    entries = []
    if zeros:
        entries.append(LegendEntry("zero-filled: outside the tensor", zero))
    if edges:
        entries.append(LegendEntry("the tensor's edge", edge, "line"))
    if any(0 <= row < shown_rows and 0 <= col < shown_chunks for row, col in sel):
        entries.append(LegendEntry("selected chunk", theme.highlight(), "selection"))
    note = ("Rows are labelled with their outer coordinates, chunks numbered across a row, and x "
            "is each chunk's first coordinate. The copy writes zeros for elements outside the "
            "tensor (CUDA C++ Programming Guide, Tensor Memory Access).")
    if il:
        note = (f"Interleaved {p.interleave}: dimension 0 counts {il}-byte chunks (a slice of "
                f"channels, PTX ISA, interleave layout), so each row is a run of box_dims[0] = "
                f"{p.box_dims[0]} whole chunks read contiguously from x·{il} + y·stride[0] + "
                f"z·stride[1], one run for each z; box_dims[1] adds no rows (measured on an "
                f"H100). x is each chunk's coordinate. A run outside the tensor is zeros.")
    legend = chunk_legend(theme, width, entries, note)
    return tagged("box", head, drawing, receipt_block(facts, theme, width), legend)


# --------------------------------------------------------------------------------------------
# placement


def line_address(r: TmaResult, line: int) -> int:
    """Line ``line``'s address A past the 1024-byte-aligned base (what the swizzle reads)."""
    return r.params.smem_offset + line * LINE


def phase(r: TmaResult, line: int) -> int:
    return (line_address(r, line) >> 7) & SWIZZLE_MASK[r.params.swizzle]


def _rows_text(rows: list[int], noun: str = "row") -> str:
    if not rows:
        return ""
    lo, hi = min(rows), max(rows)
    return f"{noun} {lo}" if lo == hi else f"{noun}s {lo}–{hi}"


def placement(r: TmaResult, theme: Theme, width: float,
              selection: frozenset[str] = frozenset()) -> list[Block]:
    p = r.params
    mask = SWIZZLE_MASK[p.swizzle]
    repeat = LINE * (mask + 1)
    head = heading(placement_title(p), theme, width,
                   "placement-title")
    if not r.placement:
        return tagged("placement", head, _refused(r, "placement", theme, width), None, None)
    where = slots(r)
    epc = chunk_elements(r)
    lines = max(line for line, _ in where) + 1
    shown = min(lines, MAX_LINES)
    at = {v: k for k, v in where.items()}
    landed = [(row, col) for row, col in _selected(selection) if (row, col) in at]
    # the first lines, and after a gap the line of a selected chunk past them
    beyond = sorted({at[v][0] for v in landed if at[v][0] >= shown})[:1]
    drawn = [*range(shown), *beyond]
    pt = theme.small_pt
    floor = pt
    c = BlockCanvas()
    noun = "run" if interleave_bytes(p) else "row"
    row_texts = [_rows_text(sorted({where[(ln, s)][0] for s in range(SLOTS) if (ln, s) in where}),
                            noun)
                 for ln in drawn]
    addresses = [str(line_address(r, ln)) for ln in drawn]
    rows_w = max(text_width(t, pt) for t in [*row_texts, f"box {noun}"]) + 1.5
    addr_w = max(text_width(t, pt, "mono") for t in [*addresses, "A"]) + 1.5
    phase_w = text_width("phase", pt) + 2.5
    label_w = rows_w + addr_w + phase_w
    cell = min(MAX_CELL, (width - label_w) / SLOTS)
    row_h = max(3.6, ink_height(pt, "mono") + 1.4)
    head_y = cap_height(pt)
    gx = label_w
    headers: tuple[tuple[str, float, Anchor], ...] = (
        (f"box {noun}", 0.0, "start"), ("A", rows_w + addr_w - 1.5, "end"),
        ("phase", label_w - 1.5, "end"))
    for text, x, side in headers:
        c.text(x, head_y, text, pt, theme.muted, anchor=side)
    for s in range(SLOTS):
        c.text(gx + (s + 0.5) * cell, head_y, str(s), pt, theme.muted, anchor="middle",
               font="mono")
    top = head_y + 1.2
    absent = theme.fill("absent")
    by_col: dict[int, list[tuple[float, float, float, float]]] = {}
    col_keys: dict[int, list[str]] = {}
    empty: list[tuple[float, float, float, float]] = []
    texts: list[tuple[float, float, int, str, str]] = []
    splits: list[tuple[float, float, float, float]] = []
    restarts: list[tuple[float, float, float, float]] = []
    gap = row_h if beyond else 0.0
    line_y = {ln: top + pos * row_h + (gap if pos >= shown else 0.0)
              for pos, ln in enumerate(drawn)}
    if beyond:
        c.text(0.0, top + shown * row_h + gap / 2, "…", pt, theme.muted, baseline="middle")
    for pos, ln in enumerate(drawn):
        y = line_y[ln]
        mid = y + row_h / 2
        c.text(0.0, mid, row_texts[pos], pt, theme.foreground, baseline="middle")
        c.text(rows_w + addr_w - 1.5, mid, addresses[pos], pt, theme.muted, anchor="end",
               baseline="middle", font="mono")
        c.text(label_w - 1.5, mid, str(phase(r, ln)), pt, theme.foreground, anchor="end",
               baseline="middle", font="mono", bold=True)
        if mask and line_address(r, ln) % repeat == 0 and pos > 0 and drawn[pos - 1] == ln - 1:
            restarts.append((rows_w - 1.0, y, gx + SLOTS * cell, y))
        for s in range(SLOTS):
            xywh = (gx + s * cell + PAD / 2, y + PAD / 2, cell - PAD, row_h - PAD)
            got = where.get((ln, s))
            if got is None:
                empty.append(xywh)
                continue
            row, chunk = got
            key = keys.key("chunk", row, chunk)
            zero = all(r.zero_filled[row][chunk * epc:(chunk + 1) * epc])
            col = ZEROS if zero else chunk % SLOTS
            by_col.setdefault(col, []).append(xywh)
            col_keys.setdefault(col, []).append(key)
            texts.append((*xywh[:2], chunk, key,
                          theme.background if zero else column_fill(theme, chunk % SLOTS)))
            before = where.get((ln, s - 1)) if s else None
            if before is not None and before[0] != row:  # another box row starts in the line
                splits.append((gx + s * cell, y, gx + s * cell, y + row_h))
    zeros = zeros_style(theme)
    for col in sorted(by_col):
        c.rects(by_col[col], zeros if col == ZEROS else _chunk_style(theme, col), col_keys[col])
    c.rects(empty, absent)
    for x, y, chunk, key, fill in texts:
        cell_text(c, x, y, cell - PAD, row_h - PAD, str(chunk), pt, theme.ink_on(fill), floor,
                  key)
    split = Style(stroke=theme.muted, stroke_width=theme.thick_mm)  # in another ink than an edge
    c.segments(splits, split)
    restart = Style(stroke=theme.foreground, stroke_width=theme.line_mm, dash=(1.2, 0.6))
    c.segments(restarts, restart)
    for row, col in landed:
        ln, s = at[(row, col)]
        if ln in line_y:
            theme.select(c, gx + s * cell + PAD / 2, line_y[ln] + PAD / 2, cell - PAD,
                         row_h - PAD)
    height = top + len(drawn) * row_h + gap
    drawing = c.block(gx + SLOTS * cell, height, "placement-grid")
    facts: list[str | tuple[str, str]] = []
    for row, col in landed[:2]:
        ln, s = at[(row, col)]
        byte = ln * LINE + s * CHUNK
        facts.append((f"row {row}, chunk {col}",
                      f"line {ln}, slot {s}: bytes {byte}–{byte + CHUNK - 1} (A = "
                      f"{line_address(r, ln) + s * CHUNK}, phase {phase(r, ln)})"))
    if shown < lines:
        facts.append(f"Drawn: the first {shown} of {format_number(lines)} lines"
                     + "".join(f", line {ln}" for ln in beyond)
                     + (f" (the pattern repeats every {mask + 1})." if mask else "."))
    receipt = receipt_block(facts, theme, width) if facts else None
    entries = []
    if ZEROS in by_col:
        entries.append(LegendEntry("a chunk of zeros: its elements lie outside the tensor",
                                   zeros))
    if empty:
        entries.append(LegendEntry("slot the copy does not write", absent))
    if splits:
        entries.append(LegendEntry("another box row starts", split, "line"))
    if restarts:
        entries.append(LegendEntry(f"the pattern restarts: A a multiple of {repeat}", restart,
                                   "line"))
    if any(at[v][0] in line_y for v in landed):
        entries.append(LegendEntry("selected chunk", theme.highlight(), "selection"))
    shift = (p.smem_offset % repeat) // LINE if mask else 0
    note = (f"Columns: the 16-byte slots of a 128-byte line, each printing the logical chunk "
            f"stored there. A: the line's address past a "
            f"1024-byte boundary; P = A ^ (((A >> 7) & {mask}) << 4) XORs its phase into the "
            f"chunk (PTX ISA, tensor swizzling modes)." if mask
            else "Columns: the 16-byte slots of a 128-byte line, each printing the logical chunk "
                 "stored there. A: the line's address past a "
                 "1024-byte boundary. With no swizzle each chunk stays where the box's rows, "
                 "packed, put it (PTX ISA, tensor swizzling modes).")
    if shift:
        note += (f" Offset {p.smem_offset} is not a multiple of {repeat}: line 0 starts in "
                 f"phase {shift}, not 0.")
    legend = chunk_legend(theme, width, entries, note, chunks=bool(set(by_col) - {ZEROS}))
    return tagged("placement", head, drawing, receipt, legend)


# --------------------------------------------------------------------------------------------
# the legend


def column_key(theme: Theme, width: float) -> Block:
    """The chunk columns' tints as the legend's one mark of :data:`CHUNK_LABEL`: the eight
    columns' swatches, each numbered (one swatch stood for eight colours; the same key in both
    parts, whichever columns each draws), then the label."""
    c = BlockCanvas()
    size = theme.small_pt
    cap, desc = cap_height(size, "mono"), descent(size, "mono")
    sw = max(2.6, cap_height(size) * 1.25, cap + desc + 1.0)  # a digit's ink inside its swatch
    cw = max(sw, text_width("0", size, "mono") + 1.6)
    x = SLOTS * cw + 1.0
    lines = wrap(CHUNK_LABEL, size, max(width - x, 10.0))
    with c.group(name=f"legend:{CHUNK_LABEL}"):
        for col in range(SLOTS):
            c.rect(col * cw, 0.0, cw, sw, _chunk_style(theme, col))
        for col in range(SLOTS):  # each digit's ink centred in its swatch
            c.text(col * cw + cw / 2, (sw + cap - desc) / 2, str(col), size,
                   theme.ink_on(column_fill(theme, col)), anchor="middle", font="mono")
        for i, line in enumerate(lines):
            c.text(x, sw / 2 + i * line_step(size), line, size, theme.foreground,
                   baseline="middle")
    used = x + max(room_width(line, size) for line in lines)
    return c.block(min(width, used), sw + (len(lines) - 1) * line_step(size), "chunk key")


def chunk_legend(theme: Theme, width: float, entries: list[LegendEntry], note: str,
                 chunks: bool = True) -> Block:
    """A part's legend: the chunk columns' key (:func:`column_key`, where a chunk of data is
    drawn), then its other ``entries`` and its ``note``."""
    rest = legend_block(entries, theme, width, notes=[note])
    if not chunks:
        return rest
    c = BlockCanvas()
    key = column_key(theme, width)
    place(c, key, 0.0, 0.0)
    gap = 1.4
    place(c, rest, 0.0, key.height + gap)
    return c.block(max(key.width, rest.width), key.height + gap + rest.height, "legend",
                   role="legend")
