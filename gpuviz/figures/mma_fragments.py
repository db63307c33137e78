"""The tensor-core figure's fragment parts (``fragment-a``, ``fragment-b``, ``fragment-c``):
A, B and C/D of the warp-level ``mma.sync`` as grids in the PTX ISA's style, each cell printing
the lane that holds it, tinted by its register; a selected lane or cell spelled out in a receipt."""

from __future__ import annotations

from dataclasses import replace

from gpuviz import keys
from gpuviz.figures.display import Style, selected_numbers
from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    legend_block,
    place,
    receipt_block,
    side_column,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, text_width
from gpuviz.figures.mma_cells import PAD, cell_text, heading, register_style
from gpuviz.figures.theme import Theme
from gpuviz.models.mma import MmaResult
from gpuviz.models.mma_fragments import Fragment

BESIDE_MIN = 34.0  # mm: the narrowest legend set beside a fragment's grid


def _holds(f: Fragment) -> str:
    """Which elements each register of ``f`` holds, as one rule: "A: register j holds a(2j),
    a(2j+1)" (every register alike), or listed where 64-bit elements take two registers."""
    op, per = f.operand, f.elements_per_register
    if f.dtype == "f64":
        regs = sorted({f.register_of(row, col) for row in range(f.rows) for col in range(f.cols)})
        return f"{op.upper()}: " + ", ".join(f"register {j} holds {_register_names(f, j)}"
                                             for j in regs)
    held = {1: f"{op}j",
            2: f"{op}(2j) (low half, even {'k' if op == 'b' else 'column'}) and "
               f"{op}(2j+1)",
            4: f"{op}(4j) … {op}(4j+3), byte {'k' if op == 'b' else 'column'} mod 4"}[per]
    return f"{op.upper()}: register j holds {held}"


def _register_names(f: Fragment, j: int) -> str:
    """The elements register j holds, e.g. ``a0, a1``."""
    per = f.elements_per_register
    if f.dtype == "f64":
        return f"{f.operand}{j // 2} (64-bit: with register {j + 1})"
    names = [f"{f.operand}{i}" for i in range(j * per, (j + 1) * per)]
    return ", ".join(names)


def _fragment_grid(f: Fragment, selection: frozenset[str], theme: Theme, lane: int | None,
                   width: float, floor: float, made: dict | None = None) -> Block:
    """The operand's cells in panels: more than 16 columns split into stacked panels where the
    width asks; more than 16 rows (B of m16n8k32) split into two panels side by side. The
    grid depends on the width only through its cell width and panels: ``made`` keeps one grid
    per such layout for the widths a slide's design search tries. Where the theme must survive
    grayscale (print), a tint cannot tell four registers apart under a number, so each cell
    (or each run of one register's cells) names its lane and register in the PTX ISA's style,
    "5:r1" (:func:`cell_names`)."""
    pt = theme.small_pt
    label_w = text_width("31", pt, "mono") + 1.2
    cell_w = max(text_width("00", min(pt, max(floor, 6.0)), "mono") + 0.6, 2.9)
    # wider where there is room, up to a gap of most of a digit between two cells' numbers
    # (at the least width, "1212131314" runs together)
    roomy = max(3.9, text_width("00", pt, "mono") + 1.6)
    # a 32-row operand (B of m16n8k32) keeps its two panels side by side
    panel = (width - 2.0) / 2 if f.rows > 16 else width
    cell_w = max(cell_w, min(roomy, max(3.9, (panel - label_w) / max(f.cols, 1)),
                             (width - label_w) / max(f.cols, 1)))
    named = bool(theme.hatches)
    span, down = _run(f), _run_down(f)
    need, split = 0.0, False
    if named:  # the least cell that holds its name: "31:r3" over a run, or split down one
        split = down > 1 or span == 2  # lane and register in cells of their own
        need = text_width("31" if split else "31:r3", pt, "mono") + 0.8 + PAD
        cell_w = max(cell_w, need / (1 if split else span))
    chunk = f.cols
    while chunk > 8 and label_w + chunk * cell_w > width + 1e-6:
        chunk //= 2
    run = 1
    if named and span > 1:  # one name a run, every column in one panel
        run, chunk = span, f.cols
        cell_w = max(need / (1 if split else span), min(cell_w, (width - label_w) / f.cols))
    elif chunk < f.cols and span > 1:
        # too wide for a lane number per cell: one number per register's run of columns (the
        # PTX ISA's "T0: {a0, a1, a2, a3}"), so every column keeps to one panel
        narrow = (width - label_w) / f.cols
        if narrow * span >= text_width("00", max(floor, 6.0), "mono") + 0.8:
            run, chunk, cell_w = span, f.cols, min(3.9, narrow)
    panel_w = label_w + min(chunk, f.cols) * cell_w
    side = f.rows > 16 and 2 * panel_w + 2.0 <= width + 1e-6
    key = (f.operand, round(cell_w, 6), chunk, side, run, named)
    if made is not None and key in made:
        return made[key]
    names = cell_names(f, run, down) if named else None
    down = down if named else 1
    block = _GRIDS.get((f, theme), (selection, lane, floor, label_w, cell_w, chunk, side, run,
                                    down),
                       lambda: _grid(f, selection, theme, lane, floor, label_w, cell_w, chunk,
                                     side, run, names, down))
    if made is not None:
        made[key] = block
    return block


def cell_names(f: Fragment, run: int, down: int) -> dict[tuple[int, int], tuple[str, int]]:
    """What each cell of ``f`` prints where the register is named, and over how many cells:
    ``5:r1`` (lane 5, register 1, as the legend numbers registers) in a cell, or over a run of
    ``run`` columns one register fills; a run of two, or one register's run ``down`` a column
    (B), has the lane in its first cell and the register in the rest, so every cell prints."""
    lanes = f.owner[:, :, 0]
    per = f.elements_per_register
    regs = (2 * f.owner[:, :, 1]) if f.dtype == "f64" else f.owner[:, :, 1] // per
    out: dict[tuple[int, int], tuple[str, int]] = {}
    for row in range(f.rows):
        for col in range(f.cols):
            lane, reg = int(lanes[row, col]), int(regs[row, col])
            if down > 1:  # the lane over the register's cells
                out[row, col] = (str(lane) if row % down == 0 else f"r{reg}", 1)
            elif run == 2:  # the lane beside the register
                out[row, col] = (str(lane) if col % 2 == 0 else f"r{reg}", 1)
            elif col % run == 0:
                out[row, col] = (f"{lane}:r{reg}", run)
    return out


def _run(f: Fragment) -> int:
    """How many columns in a row one register of ``f`` covers, lane and register alike, in
    aligned runs (4 for 8-bit A: a(4j) … a(4j+3)); 1 where registers do not run along rows."""
    per = f.elements_per_register
    if per == 1 or f.cols % per:
        return 1
    lanes = f.owner[:, :, 0].reshape(f.rows, f.cols // per, per)
    regs = (f.owner[:, :, 1] // per).reshape(f.rows, f.cols // per, per)
    same = (lanes == lanes[:, :, :1]).all() and (regs == regs[:, :, :1]).all()
    return per if same else 1


def _run_down(f: Fragment) -> int:
    """How many rows in a column one register of ``f`` covers, lane and register alike, in
    aligned runs (2 for 16-bit B: b(2j), b(2j+1) at k 2t, 2t + 1); 1 where they do not."""
    per = f.elements_per_register
    if per == 1 or f.rows % per:
        return 1
    lanes = f.owner[:, :, 0].reshape(f.rows // per, per, f.cols)
    regs = (f.owner[:, :, 1] // per).reshape(f.rows // per, per, f.cols)
    same = (lanes == lanes[:, :1, :]).all() and (regs == regs[:, :1, :]).all()
    return per if same else 1


_GRIDS: Kept[Block] = Kept(32)  # a fragment's grid: a layout search draws it in most designs


def _grid(f: Fragment, selection: frozenset[str], theme: Theme, lane: int | None, floor: float,
          label_w: float, cell_w: float, chunk: int, side: bool, run: int = 1,
          names: dict[tuple[int, int], tuple[str, int]] | None = None,
          down: int = 1) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    cell_h = max(3.0, cap_height(pt, "mono") * 1.45)
    head = cap_height(pt) + 1.2
    sel_lanes = selected_numbers(selection, "lane") | ({lane} if lane is not None else set())
    picked = set(keys.of_kind(selection, f.operand, 2))
    row_parts = [range(0, f.rows)] if f.rows <= 16 else [range(0, f.rows // 2),
                                                         range(f.rows // 2, f.rows)]
    panel_w = label_w + min(chunk, f.cols) * cell_w
    muted = theme.muted
    owner = f.owner
    per = f.elements_per_register
    regs = (2 * owner[:, :, 1]) if f.dtype == "f64" else owner[:, :, 1] // per
    lanes = owner[:, :, 0]
    styles = {int(j): register_style(theme, int(j)) for j in set(regs.flat)}
    inks = {j: theme.ink_on(st.fill or theme.surface) for j, st in styles.items()}
    x0, y0 = 0.0, 0.0
    bottom, right = 0.0, 0.0
    runs: list[tuple[float, float, float, float]] = []  # a register's run of columns, outlined
    for rows in row_parts:
        y = y0
        for start in range(0, f.cols, chunk):
            cols = range(start, min(f.cols, start + chunk))
            # every column's index where two digits fit its width with a space, else every
            # other one (centred over its column), so that "10111213" never runs together
            every = next((e for e in (1, 2, 4, 8) if text_width(str(f.cols - 1), pt, "mono")
                          + 0.8 <= cell_w * e), 8)
            for i, col in enumerate(cols):
                if col % every:
                    continue
                c.value(x0 + label_w + (i - (every - 1) / 2) * cell_w, y, cell_w * every,
                        head - 0.6, str(col), pt, muted, floor=floor, pad=0.05)
            top = y + head
            boxes: dict[int, tuple[list, list]] = {}
            for k, row in enumerate(rows):
                c.text(x0 + label_w - 1.0, top + (k + 0.5) * cell_h, str(row), pt, muted,
                       anchor="end", baseline="middle", font="mono")
                for i, col in enumerate(cols):
                    reg = int(regs[row, col])
                    boxes.setdefault(reg, ([], []))
                    # a run's elements touch; the gap between cells falls between runs
                    left = PAD / 2 if col % run == 0 else 0.0
                    right = PAD / 2 if col % run == run - 1 else 0.0
                    above = PAD / 2 if row % down == 0 else 0.0
                    below = PAD / 2 if row % down == down - 1 else 0.0
                    boxes[reg][0].append((x0 + label_w + i * cell_w + left,
                                          top + k * cell_h + above, cell_w - left - right,
                                          cell_h - above - below))
                    boxes[reg][1].append(keys.key(f.operand, row, col))
                    if run > 1 and col % run == 0:
                        runs.append((x0 + label_w + i * cell_w + PAD / 2,
                                     top + k * cell_h + PAD / 2, cell_w * run - PAD,
                                     cell_h - PAD))
                    elif down > 1 and row % down == 0:  # a register's run down the column
                        runs.append((x0 + label_w + i * cell_w + PAD / 2,
                                     top + k * cell_h + PAD / 2, cell_w - PAD,
                                     cell_h * down - PAD))
            with c.group(name=f"fragment-{f.operand}"):
                for reg, (xywh, cell_keys) in sorted(boxes.items()):
                    style = styles[reg]
                    if run > 1 or down > 1:  # outlined once around the run, below
                        style = style.with_stroke(None, 0.0)
                    c.rects(xywh, style, cell_keys)
                if runs:
                    c.rects(runs, Style(stroke=theme.outline, stroke_width=theme.thin_mm))
                    runs.clear()
                for k, row in enumerate(rows):
                    for i, col in enumerate(cols):
                        reg = int(regs[row, col])
                        style = styles[reg]
                        x, yy = x0 + label_w + i * cell_w + PAD / 2, top + k * cell_h + PAD / 2
                        lane_here = int(lanes[row, col])
                        name = ((str(lane_here), run) if col % run == 0 else None) \
                            if names is None else names.get((row, col))
                        if name is not None:  # one per run of the register's columns
                            text, over = name
                            cell_text(c, x, yy, cell_w * over - PAD, cell_h - PAD, text, pt,
                                      inks[reg], floor, keys.key(f.operand, row, col),
                                      knockout=style.fill if style.hatch else None)
                        if lane_here in sel_lanes and col % run == 0:
                            c.rect(x, yy, cell_w * run - PAD, cell_h - PAD, theme.highlight())
                        elif col % run == 0 and any((row, col + i) in picked
                                                    for i in range(run)):
                            # an element of a run: the run its register fills, whose one
                            # number an element's outline would cut (the receipt names it)
                            c.rect(x, yy, cell_w * run - PAD, cell_h - PAD, theme.highlight())
            y = top + len(rows) * cell_h + 2.0
        bottom = max(bottom, y)
        right = max(right, x0 + panel_w)
        if side:
            x0 += panel_w + 2.0
        else:
            y0 = y
    return c.block(right, bottom - 2.0, f"fragment-{f.operand}")


def fragments(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target, made: dict | None = None,
               operands: tuple[str, ...] = ("a", "b", "c")) -> list[Block]:
    floor = min(target.min_pt, theme.small_pt)
    lane = r.lane
    parts = tuple(f"fragment-{o}" for o in operands)
    blocks = [as_part(parts, heading("Fragments: which lane holds each element", theme, width,
                                      "fragments-title"), "notes")]
    chosen = [f for f in (r.a, r.b, r.c) if f.operand in operands]
    names = {"a": f"A ({r.m} × {r.k}, row-major)", "b": f"B ({r.k} × {r.n}, column-major)",
             "c": f"C, D ({r.m} × {r.n})"}
    # one narrow operand in a column (B or C alone): its legend stands beside the grid, the
    # caption wrapped to the grid's width
    beside = 0.0
    for f in chosen:
        grid = _fragment_grid(f, selection, theme, lane, width, floor, made)
        room = side_column(target, width, grid.width, BESIDE_MIN, kinds=("column",))
        if len(chosen) == 1 and target.parts is not None and room is not None:
            beside = room
        elements = f"{f.elements_per_lane} element{'s' if f.elements_per_lane != 1 else ''}"
        registers = f"{f.registers_per_lane} register{'s' if f.registers_per_lane != 1 else ''}"
        caption = f"{names[f.operand]} · {elements}, {registers} a lane"
        cap_w = grid.width if beside else width
        short = f"{names[f.operand].replace(', ', ' ')}: {elements} a lane, {registers}"
        if len(wrap(short, theme.small_pt, cap_w)) < len(wrap(caption, theme.small_pt, cap_w)):
            caption = short  # the short form, where it takes fewer lines
        cap = text_block(caption, theme, cap_w, color=theme.muted,
                         name=f"fragment-{f.operand}-caption")
        c = BlockCanvas()
        place(c, cap, 0.0, 0.0)
        place(c, grid, 0.0, cap.height + 0.5)
        blocks.append(as_part(f"fragment-{f.operand}",
                              c.block(max(cap.width, grid.width),
                                      cap.height + 0.5 + grid.height, f"operand-{f.operand}")))
    used: set[int] = set()
    for f in chosen:
        used.update(f.register_of(row, col) for row in range(f.rows) for col in range(f.cols))
    # where the cell names its register (print), a swatch per register would explain nothing
    entries = [] if theme.hatches else [
        LegendEntry(f"register {j}", register_style(theme, j), parts=parts)
        for j in sorted(used)]
    each = ("Each cell: the lane holding it and its register (5:r1: lane 5, register 1); "
            "a run of cells one register holds (outlined) names them once, or the lane and "
            "the register side by side or one over the other" if theme.hatches
            else "Each cell: the lane holding it, tinted by register")
    notes = [each + "; lane l is groupID l / 4, threadID_in_group l mod 4. "
             + "; ".join(_holds(f) for f in chosen) + "."]
    rows = _selection_rows(r, selection, operands)
    legend = legend_block(entries, theme, beside or width, notes=notes)
    if beside:  # named apart from the side's legend, it flows in the body beside the grid
        legend = replace(legend, name="legend-beside")
    blocks.append(as_part(parts, legend, "legend"))
    if rows:
        blocks.append(as_part(parts, receipt_block(rows, theme, min(width, 180.0),
                                                   title="Selected")))
    return blocks


def _selection_rows(r: MmaResult, selection: frozenset[str],
                    operands: tuple[str, ...]) -> list[str | tuple[str, str]]:
    rows: list[str | tuple[str, str]] = []
    lanes = sorted(selected_numbers(selection, "lane") | ({r.lane} if r.lane is not None
                                                         else set()))
    for lane in lanes[:2]:
        for f in (r.a, r.b, r.c):
            if f.operand not in operands:
                continue
            cells = ", ".join(_runs_named(f.operand, f.cells_of_lane(lane)))
            rows.append((f"lane {lane} {f.operand.upper()}", cells))
    picked = [(f, row, col) for f in (r.a, r.b, r.c) if f.operand in operands
              for row, col in keys.of_kind(selection, f.operand, 2)
              if 0 <= row < f.rows and 0 <= col < f.cols]
    for f, row, col in picked:
        head = f.operand
        part = ""
        if f.elements_per_register == 2:
            part = ", " + ("low" if f.part_of(row, col) == 0 else "high") + " half"
        elif f.elements_per_register == 4:
            part = f", byte {f.part_of(row, col)}"
        rows.append((f"{head.upper()}[{row}][{col}]",
                     f"lane {f.lane_of(row, col)}, {head}{f.element_of(row, col)}, register "
                     f"{f.register_of(row, col)}{part}"))
    return rows



def _runs_named(op: str, cells: list[tuple[int, int, int]]) -> list[str]:
    """``a0 [1][4]`` for each element, a run of two or more consecutive elements along a row
    or a column as one: ``a0–a1 [1][2–3]`` (a 16-bit register's halves), ``a0–a3 [1][4–7]``
    (8-bit operands hold four to a register)."""
    groups: list[list[tuple[int, int, int]]] = []
    for cell in cells:
        last = groups[-1] if groups else None
        if last and cell[0] == last[-1][0] + 1 and (
                (cell[1] == last[-1][1] and cell[2] == last[-1][2] + 1
                 and all(c[1] == cell[1] for c in last))
                or (cell[2] == last[-1][2] and cell[1] == last[-1][1] + 1
                    and all(c[2] == cell[2] for c in last))):
            last.append(cell)
        else:
            groups.append([cell])
    out = []
    for g in groups:
        if len(g) < 2:
            out += [f"{op}{i} [{row}][{col}]" for i, row, col in g]
            continue
        (i0, r0, c0), (i1, r1, c1) = g[0], g[-1]
        rows = f"{r0}" if r0 == r1 else f"{r0}–{r1}"
        cols = f"{c0}" if c0 == c1 else f"{c0}–{c1}"
        out.append(f"{op}{i0}–{op}{i1} [{rows}][{cols}]")
    return out
