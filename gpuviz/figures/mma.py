"""Figure of the tensor-core fragments, in parts: one builder per part.

- ``fragments``: A, B and C/D of the warp-level ``mma.sync`` as grids in the PTX ISA's style,
  each cell printing the lane that holds it and tinted by the register (the element within the
  register follows from the column: the legend says how); a selected lane or cell is spelled out
  in a receipt (lane, element, register, half or byte).
- ``feed``: ``ldmatrix``/``stmatrix``: per 8 × 8 matrix, the eight lanes that give row addresses
  (with the address), and the 16-byte bank groups those rows hit (four banks each) with how many
  rows each must serve: the wavefronts of that matrix.
- ``warpgroup``: the block's warps grouped in fours, the four chosen warps, whether they form a
  warpgroup, and which warp owns which rows of the wgmma accumulator D.
- ``descriptor``: the matrix descriptor's fields and the core matrices it selects: the physical
  address of each 16-byte row of B's first rows, tinted by its 16-byte bank group.
- ``completion``: the fence / commit / wait steps and whether D may be read.
- ``hierarchy``: block tile → warp tiles → m16n8 tiles, and what the accumulators cost in
  registers and resident blocks.

Keys: ``a:<row>,<col>``, ``b:<k>,<n>``, ``c:<row>,<col>`` (fragment cells), ``lane:<l>`` (a lane
giving an ldmatrix row), ``chunk:<matrix>,<group>`` (a 16-byte bank group), ``warp:<w>``,
``core:<row>,<chunk>`` (a core-matrix row), ``step:<i>`` (a completion step), ``tile:<r>,<c>``
(a warp tile).
"""

from __future__ import annotations

from collections.abc import Callable

from gpuviz.figures.display import PT_TO_MM, Figure, Style, selected_numbers
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    counted,
    format_bytes,
    format_number,
    format_percent,
    knock_out,
    legend_block,
    receipt_block,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.mma import FRAGMENT_PARTS, PARTS, MmaResult
from gpuviz.models.mma_fragments import Fragment

PAD = 0.25  # mm between cells
NATURAL_WIDTH = 172.0
SIDE = ("legend", "receipt", "hierarchy-note")  # blocks that may stand beside the drawing


def owner_keys(r: MmaResult, selection: frozenset[str]) -> frozenset[str]:
    """``lane:<l>`` for the lane that holds each selected fragment cell (``c:9,3`` → ``lane:5``):
    pointing at an element shows its owner and the owner's other elements in A, B and C."""
    fragments = {"a": r.a, "b": r.b, "c": r.c}
    out = set()
    for key in selection:
        kind, _, value = key.partition(":")
        if kind not in fragments or value.count(",") != 1:
            continue
        try:
            row, col = (int(v) for v in value.split(","))
            out.add(f"lane:{fragments[kind].lane_of(row, col)}")
        except (ValueError, IndexError, KeyError):
            continue
    return frozenset(out)


def build(result: MmaResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    selection = selection | owner_keys(result, selection)
    r = result
    # the parts an export asks for, else those the scenario shows
    asked = tuple(p for p in (target.parts or ()) if p in PARTS)
    shown = asked or r.show or FRAGMENT_PARTS

    made: dict[float, list[Block]] = {}  # body and side of one width: one build
    grids: dict = {}  # fragment grids by layout, across the widths tried
    operands = tuple(p[-1] for p in shown if p in FRAGMENT_PARTS)

    def blocks(width: float) -> list[Block]:
        if width not in made:
            out: list[Block] = []
            fragments_done = False
            for part in shown:  # in the order shown; the three fragment parts as one group
                if part in FRAGMENT_PARTS:
                    if not fragments_done:
                        out += _fragments(r, selection, theme, width, target, grids, operands)
                        fragments_done = True
                else:
                    out += BUILDERS[part](r, selection, theme, width, target)
            # the first part's heading is the figure's title
            made[width] = [b for b in out if b.name != f"{_first(shown)}-title"]
        return made[width]

    def body(width: float) -> list[Block]:
        return [b for b in blocks(width) if b.name not in SIDE]

    def side(width: float) -> list[Block]:
        return [b for b in blocks(width) if b.name in SIDE]

    regs = r.registers_per_thread
    g = r.warpgroup
    title, subtitle = _titles(r)[_first(shown)]
    _ = g
    return compose(
        target, theme, title=title, subtitle=subtitle, body=body, side=side, natural_width=NATURAL_WIDTH,
        figure_title="gpuviz tensor-core fragments",
        description=f"The fragments of an mma.sync {r.shape} with {r.dtype} operands "
                    f"accumulated in {r.accumulator}, each lane's registers "
                    f"({', '.join(f'{k.upper()} {v}' for k, v in regs.items())} per thread), "
                    f"fed by ldmatrix in {counted(r.feed.wavefronts, 'wavefront')}, with a "
                    f"{'valid' if r.warpgroup_valid else 'invalid'} warpgroup.")


def _tagged(part: str, heading: Block, drawing: Block, receipt: Block | None,
            legend: Block | None, note: Block | None = None) -> list[Block]:
    """A part's blocks, each marked as the part's: its heading and note are notes, its drawing
    and receipt (the numbers) its drawing, its legend its legend."""
    out = [as_part(part, heading, "notes"), as_part(part, drawing)]
    if receipt is not None:
        out.append(as_part(part, receipt))
    if legend is not None:
        out.append(as_part(part, legend, "legend"))
    if note is not None:
        out.append(as_part(part, note, "notes"))
    return out


def _first(shown: tuple[str, ...]) -> str:
    return "fragments" if shown[0] in FRAGMENT_PARTS else shown[0]


def _titles(r: MmaResult) -> dict[str, tuple[str, str]]:
    """Per first part: the figure's title (the part's heading) and subtitle."""
    fr, g, h = r.feed, r.warpgroup, r.hierarchy
    regs = r.registers_per_thread
    layout = {"row-major": "row-major", "padded": "padded",
              "swizzled": f"{fr.swizzle}-swizzled"}[fr.layout]
    return {
        "fragments": (f"mma.sync.{r.shape} {r.dtype} → {r.accumulator}: which lane holds "
                      "each element",
                      f"One warp; {regs['a']} + {regs['b']} + {regs['c']} registers per lane "
                      "(A + B + C) · PTX ISA, Matrix Fragments for mma." + r.shape),
        "feed": (f"{fr.op}.x{fr.matrices}{'.trans' if fr.trans else ''} of {fr.operand.upper()} "
                 f"from a {layout} tile: {format_number(fr.wavefronts)} wavefront"
                 f"{'s' if fr.wavefronts != 1 else ''}",
                 f"{fr.row_bytes}-byte rows · PTX ISA, ldmatrix/stmatrix; wavefronts by the "
                 "banks model, as an H200 counts them"),
        "warpgroup": (f"wgmma m64n{g.n}k16 on warps {g.warps[0]}–{g.warps[-1]}: "
                      + ("an aligned warpgroup" if g.valid else "not a warpgroup"),
                      "PTX ISA, Asynchronous Warpgroup Level Matrix Multiply-Accumulate"),
        "descriptor": (f"wgmma descriptor {g.descriptor_hex}: B's core matrices",
                       f"{g.swizzle} swizzle · PTX ISA, Matrix Descriptor Format"),
        "completion": (f"wgmma completion: commit, {g.async_steps[-2].event}, read D",
                       "PTX ISA, wgmma.fence, wgmma.commit_group, wgmma.wait_group"),
        "hierarchy": (f"{h.block_m} × {h.block_n} block → {h.warp_m} × {h.warp_n} warp tiles: "
                      f"{h.accumulator_registers} accumulators per thread",
                      "m16n8k16 tiles, f32 accumulators · CUDA C++ Programming Guide, "
                      "Occupancy"),
    }


# --------------------------------------------------------------------------------------------
# Shared pieces


def _heading(text: str, theme: Theme, width: float, name: str) -> Block:
    return text_block(text, theme, width, size=theme.text_pt, bold=True, name=name)


def _cell_text(c: BlockCanvas, x: float, y: float, w: float, h: float, text: str, pt: float,
               color: str, floor: float, key: str, knockout: str | None = None) -> None:
    """A value centred (by its ink) in the cell."""
    shift = 0.36 * pt * PT_TO_MM + (descent(pt, "mono") - cap_height(pt, "mono")) / 2
    t = c.value(x, y - shift, w, h, text, pt, color, floor=floor, key=key, pad=0.1)
    if knockout:
        knock_out(c, t, knockout)


#: Categories of registers 0–3 (blue, orange, bluish green, reddish purple: apart in print gray).
REGISTER_CATEGORIES = (0, 1, 2, 5)


def _register_style(theme: Theme, j: int) -> Style:
    """A light tint of register j's category, hatched where the theme tells categories by
    hatch too (as gemm's blocks)."""
    k = j % len(REGISTER_CATEGORIES)
    hatch = theme.category_hatch(k)
    return Style(fill=theme.mix(theme.category(REGISTER_CATEGORIES[k]), 0.5),
                 stroke=theme.outline, stroke_width=theme.thin_mm, hatch=hatch,
                 hatch_color=theme.muted if hatch else None)


# --------------------------------------------------------------------------------------------
# fragments


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
    per such layout for the widths a slide's design search tries."""
    pt = theme.small_pt
    label_w = text_width("31", pt, "mono") + 1.2
    cell_w = max(text_width("00", min(pt, max(floor, 6.0)), "mono") + 0.6, 2.9)
    cell_w = max(cell_w, min(3.9, (width - label_w) / max(f.cols, 1)))
    chunk = f.cols
    while chunk > 8 and label_w + chunk * cell_w > width + 1e-6:
        chunk //= 2
    panel_w = label_w + min(chunk, f.cols) * cell_w
    side = f.rows > 16 and 2 * panel_w + 2.0 <= width + 1e-6
    key = (f.operand, round(cell_w, 6), chunk, side)
    if made is not None and key in made:
        return made[key]
    block = _grid(f, selection, theme, lane, floor, label_w, cell_w, chunk, side)
    if made is not None:
        made[key] = block
    return block


def _grid(f: Fragment, selection: frozenset[str], theme: Theme, lane: int | None, floor: float,
          label_w: float, cell_w: float, chunk: int, side: bool) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    cell_h = max(3.0, cap_height(pt, "mono") * 1.8)
    head = cap_height(pt) + 1.2
    sel_lanes = selected_numbers(selection, "lane") | ({lane} if lane is not None else set())
    picked = {tuple(int(v) for v in key.split(":", 1)[1].split(","))
              for key in selection if key.startswith(f"{f.operand}:") and key.count(",") == 1
              and all(p.strip().isdigit() for p in key.split(":", 1)[1].split(","))}
    row_parts = [range(0, f.rows)] if f.rows <= 16 else [range(0, f.rows // 2),
                                                         range(f.rows // 2, f.rows)]
    panel_w = label_w + min(chunk, f.cols) * cell_w
    muted = theme.muted
    owner = f.owner
    per = f.elements_per_register
    regs = (2 * owner[:, :, 1]) if f.dtype == "f64" else owner[:, :, 1] // per
    lanes = owner[:, :, 0]
    styles = {int(j): _register_style(theme, int(j)) for j in set(regs.flat)}
    inks = {j: theme.ink_on(st.fill or theme.surface) for j, st in styles.items()}
    x0, y0 = 0.0, 0.0
    bottom, right = 0.0, 0.0
    for rows in row_parts:
        y = y0
        for start in range(0, f.cols, chunk):
            cols = range(start, min(f.cols, start + chunk))
            for i, col in enumerate(cols):
                c.value(x0 + label_w + i * cell_w, y, cell_w, head - 0.6, str(col), pt, muted,
                        floor=floor, pad=0.05)
            top = y + head
            boxes: dict[int, tuple[list, list]] = {}
            for k, row in enumerate(rows):
                c.text(x0 + label_w - 1.0, top + (k + 0.5) * cell_h, str(row), pt, muted,
                       anchor="end", baseline="middle", font="mono")
                for i, col in enumerate(cols):
                    reg = int(regs[row, col])
                    boxes.setdefault(reg, ([], []))
                    boxes[reg][0].append((x0 + label_w + i * cell_w + PAD / 2,
                                          top + k * cell_h + PAD / 2, cell_w - PAD,
                                          cell_h - PAD))
                    boxes[reg][1].append(f"{f.operand}:{row},{col}")
            with c.group(name=f"fragment-{f.operand}"):
                for reg, (xywh, keys) in sorted(boxes.items()):
                    c.rects(xywh, styles[reg], keys)
                for k, row in enumerate(rows):
                    for i, col in enumerate(cols):
                        reg = int(regs[row, col])
                        style = styles[reg]
                        x, yy = x0 + label_w + i * cell_w + PAD / 2, top + k * cell_h + PAD / 2
                        lane_here = int(lanes[row, col])
                        _cell_text(c, x, yy, cell_w - PAD, cell_h - PAD, str(lane_here), pt,
                                   inks[reg], floor, f"{f.operand}:{row},{col}",
                                   knockout=style.fill if style.hatch else None)
                        if lane_here in sel_lanes or (row, col) in picked:
                            c.rect(x, yy, cell_w - PAD, cell_h - PAD, theme.highlight())
            y = top + len(rows) * cell_h + 2.0
        bottom = max(bottom, y)
        right = max(right, x0 + panel_w)
        if side:
            x0 += panel_w + 2.0
        else:
            y0 = y
    return c.block(right, bottom - 2.0, f"fragment-{f.operand}")


def _fragments(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target, made: dict | None = None,
               operands: tuple[str, ...] = ("a", "b", "c")) -> list[Block]:
    floor = min(target.min_pt, theme.small_pt)
    lane = r.lane
    parts = tuple(f"fragment-{o}" for o in operands)
    blocks = [as_part(parts, _heading("Fragments: which lane holds each element", theme, width,
                                      "fragments-title"), "notes")]
    chosen = [f for f in (r.a, r.b, r.c) if f.operand in operands]
    names = {"a": f"A ({r.m} × {r.k}, row-major)", "b": f"B ({r.k} × {r.n}, column-major)",
             "c": f"C and D ({r.m} × {r.n})"}
    for f in chosen:
        grid = _fragment_grid(f, selection, theme, lane, width, floor, made)
        cap = text_block(f"{names[f.operand]} · {f.elements_per_lane} element"
                         f"{'s' if f.elements_per_lane != 1 else ''} per lane in "
                         f"{f.registers_per_lane} register{'s' if f.registers_per_lane != 1 else ''}",
                         theme, max(grid.width, 30.0), color=theme.muted,
                         name=f"fragment-{f.operand}-caption")
        c = BlockCanvas()
        from gpuviz.figures.layout import place
        place(c, cap, 0.0, 0.0)
        place(c, grid, 0.0, cap.height + 1.0)
        blocks.append(as_part(f"fragment-{f.operand}",
                              c.block(max(cap.width, grid.width),
                                      cap.height + 1.0 + grid.height, f"operand-{f.operand}")))
    used: set[int] = set()
    holds: list[str] = []
    for f in chosen:
        regs = sorted({f.register_of(row, col) for row in range(f.rows)
                       for col in range(f.cols)})
        used.update(regs)
        holds.append(f"{f.operand.upper()}: " + "; ".join(
            f"register {j} holds {_register_names(f, j)}" for j in regs) + ".")
    entries = [LegendEntry(f"register {j}", _register_style(theme, j), parts=parts)
               for j in sorted(used)]
    part = {1: "", 2: " A 16-bit element in an even column (even k in B) is the low half.",
            4: " The column (k in B) mod 4 is the byte."}
    notes = [f"Each cell prints the lane that holds it; its tint is the register. Lane l: "
             f"groupID = l / 4, threadID_in_group = l mod 4.{part[r.a.elements_per_register]}",
             " ".join(holds)]
    rows = _selection_rows(r, selection, operands)
    blocks.append(as_part(parts, legend_block(entries, theme, width, notes=notes), "legend"))
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
            cells = ", ".join(f"{f.operand}{i} [{row}][{col}]"
                              for i, row, col in f.cells_of_lane(lane))
            rows.append((f"lane {lane} {f.operand.upper()}", cells))
    for key in sorted(selection):
        head, _, tail = key.partition(":")
        if head not in operands or tail.count(",") != 1:
            continue
        try:
            row, col = (int(v) for v in tail.split(","))
        except ValueError:
            continue
        f = {"a": r.a, "b": r.b, "c": r.c}[head]
        if not (0 <= row < f.rows and 0 <= col < f.cols):
            continue
        part = ""
        if f.elements_per_register == 2:
            part = ", " + ("low" if f.part_of(row, col) == 0 else "high") + " half"
        elif f.elements_per_register == 4:
            part = f", byte {f.part_of(row, col)}"
        rows.append((f"{head.upper()}[{row}][{col}]",
                     f"lane {f.lane_of(row, col)}, {head}{f.element_of(row, col)}, register "
                     f"{f.register_of(row, col)}{part}"))
    return rows


# --------------------------------------------------------------------------------------------
# feed


def _feed(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
          target: Target) -> list[Block]:
    fr = r.feed
    floor = min(target.min_pt, theme.small_pt)
    pt = theme.small_pt
    layout = {"row-major": "row-major", "padded": "padded rows",
              "swizzled": f"{fr.swizzle} swizzle"}[fr.layout]
    title = (f"Feed: {fr.op}.x{fr.matrices}{'.trans' if fr.trans else ''} of "
             f"{fr.operand.upper()} from a {layout} tile ({fr.row_bytes}-byte rows) — "
             f"{format_number(fr.wavefronts)} wavefront{'s' if fr.wavefronts != 1 else ''}")
    c = BlockCanvas()
    label_w = text_width("matrix 3", pt) + 1.5
    lane_w = min(max(text_width("00000", pt, "mono") + 0.8, 7.0), (width - label_w) / 8)
    chunk_w = min(max(text_width("8", pt, "mono") + 1.6, 4.6),
                  (width - label_w - text_width("8 wavefronts", pt) - 2.0) / 8)
    row_h = max(3.0, cap_height(pt, "mono") * 1.8)
    beside = label_w + 8 * lane_w + 3.0 + max(8 * chunk_w + 3.0 + text_width("8 wavefronts", pt),
                                              text_width("rows per bank group g", pt)) <= width
    sel_lanes = selected_numbers(selection, "lane")
    y = cap_height(pt)
    c.text(label_w, y, "lane and row address", pt, theme.muted)
    chunk_x = label_w + 8 * lane_w + 3.0 if beside else label_w
    if beside:
        c.text(chunk_x, y, "rows per bank group g", pt, theme.muted)
    y += 1.5
    used = theme.fill("owned")
    conflict = theme.fill("conflict")
    for j in range(fr.matrices):
        rows = [row for row in fr.rows if row.matrix == j]
        top = y
        c.text(0.0, top + row_h, f"matrix {j}", pt, theme.foreground, baseline="middle")
        with c.group(name=f"matrix-{j}"):
            for i, row in enumerate(rows):
                x = label_w + i * lane_w
                c.rect(x + PAD / 2, top, lane_w - PAD, row_h, theme.fill("valid"),
                       key=f"lane:{row.lane}")
                _cell_text(c, x + PAD / 2, top, lane_w - PAD, row_h, str(row.lane), pt,
                           theme.ink_on("valid"), floor, f"lane:{row.lane}")
                c.rect(x + PAD / 2, top + row_h, lane_w - PAD, row_h,
                       Style(fill=theme.surface, stroke=theme.outline,
                             stroke_width=theme.thin_mm), key=f"lane:{row.lane}")
                _cell_text(c, x + PAD / 2, top + row_h, lane_w - PAD, row_h, str(row.address),
                           pt, theme.foreground, floor, f"lane:{row.lane}")
                if row.lane in sel_lanes:
                    c.rect(x + PAD / 2, top, lane_w - PAD, 2 * row_h, theme.highlight())
            counts = [0] * 8
            for row in rows:
                counts[(row.address // 16) % 8] += 1
            ctop = top if beside else top + 2 * row_h + 1.0
            for g in range(8):
                style = conflict if counts[g] > 1 else used if counts[g] else Style(
                    fill=theme.surface, stroke=theme.grid, stroke_width=theme.thin_mm)
                x = chunk_x + g * chunk_w
                c.rect(x + PAD / 2, ctop, chunk_w - PAD, row_h, style, key=f"chunk:{j},{g}")
                _cell_text(c, x + PAD / 2, ctop, chunk_w - PAD, row_h, str(counts[g]), pt,
                           theme.ink_on(style.fill or theme.surface), floor, f"chunk:{j},{g}",
                           knockout=style.fill if style.hatch else None)
                if j == fr.matrices - 1 or beside:
                    c.text(x + chunk_w / 2, ctop + row_h + cap_height(pt) + 0.6, str(g), pt,
                           theme.muted, anchor="middle", font="mono")
            n = fr.matrix_wavefronts[j]
            c.text(chunk_x + 8 * chunk_w + 2.0, ctop + row_h / 2,
                   f"{n} wavefront{'s' if n != 1 else ''}", pt, theme.foreground,
                   baseline="middle")
        y = (ctop + row_h + 1.6) if not beside else \
            top + 2 * row_h + 2.0
    grid_w = max(label_w + 8 * lane_w, text_width("lane and row address", pt) + label_w,
                 chunk_x + 8 * chunk_w + 2.0 + text_width("8 wavefronts", pt),
                 chunk_x + text_width("rows per bank group g", pt) if beside else 0.0)
    drawing = c.block(min(width, grid_w), y, "feed-rows")
    receipt = receipt_block([
        ("wavefronts", f"{format_number(fr.wavefronts)} (at best {fr.ideal_wavefronts}: one "
                       "per matrix)"),
        ("per matrix", " + ".join(str(n) for n in fr.matrix_wavefronts)),
        ("row pitch", format_bytes(fr.row_bytes)),
    ], theme, width)
    legend = legend_block([
        LegendEntry("bank group read by one row", used),
        LegendEntry("bank group read by several rows (conflict)", conflict),
    ], theme, width, notes=[
        "Bank group g is banks 4g … 4g + 3 (bytes 16g … 16g + 15 of every 128). "
        "A wavefront serves 128 bytes of one 8 × 8 matrix: eight 16-byte rows in eight "
        "distinct bank groups take one; rows sharing a group are served one after another "
        "(the banks model, measured on an H200)."])
    return _tagged("feed", _heading(title, theme, width, "feed-title"), drawing, receipt, legend)


# --------------------------------------------------------------------------------------------
# warpgroup


def _warpgroup(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target) -> list[Block]:
    g = r.warpgroup
    pt = theme.small_pt
    floor = min(target.min_pt, pt)
    c = BlockCanvas()
    warps = max(g.block_warps, g.first_warp + 4)
    box = min(7.0, (width - 2.0) / warps)
    row_h = max(3.4, cap_height(pt) * 2.4)
    chosen = set(g.warps)
    sel = selected_numbers(selection, "warp")
    y = cap_height(pt)
    for grp in range((warps + 3) // 4):
        x0 = 4 * grp * box
        c.text(x0 + 2 * box, y, f"warpgroup {grp}", pt, theme.muted, anchor="middle")
        c.line(x0 + 0.5, y + 1.0, x0 + 4 * box - 0.5, y + 1.0, theme.stroke("muted", theme.line_mm))
    top = y + 2.0
    ok, bad = theme.fill("valid"), theme.fill("undefined")
    for w in range(warps):
        exists = w < g.block_warps
        style = (ok if g.valid else bad) if w in chosen else (
            theme.fill("absent") if not exists else Style(fill=theme.surface,
                                                          stroke=theme.outline,
                                                          stroke_width=theme.thin_mm))
        c.rect(w * box + PAD / 2, top, box - PAD, row_h, style, key=f"warp:{w}")
        _cell_text(c, w * box + PAD / 2, top, box - PAD, row_h, str(w), pt,
                   theme.ink_on(style.fill or theme.surface), floor, f"warp:{w}",
                   knockout=style.fill if style.hatch else None)
        if w in sel:
            c.rect(w * box + PAD / 2, top, box - PAD, row_h, theme.highlight())
    y = top + row_h + 2.0
    # D: four bands of 16 rows, one per warp of the warpgroup, N columns
    band_w = min(width, max(text_width("warp 31: rows 48–63", pt) + 2.0, g.n * 0.45))
    band_h = row_h
    c.text(0.0, y + cap_height(pt), f"D (64 × {g.n}): rows by warp", pt, theme.muted)
    y += cap_height(pt) + 1.2
    for i, w in enumerate(g.warps):
        yy = y + i * band_h
        style = _register_style(theme, i)
        c.rect(0.0, yy + PAD / 2, band_w, band_h - PAD, style, key=f"warp:{w}")
        text = f"warp {w}: rows {16 * i}–{16 * i + 15}"
        c.text(1.0, yy + band_h / 2, text, pt, theme.ink_on(style.fill or theme.surface),
               baseline="middle", key=f"warp:{w}",
               knockout=style.fill if style.hatch else None)
    y += 4 * band_h
    drawing = c.block(max(warps * box, band_w), y, "warpgroup-warps")
    receipt = receipt_block([
        ("warps", f"{g.warps[0]}–{g.warps[-1]} of {g.block_warps}"),
        ("warpgroup", "valid" if g.valid else "not a warpgroup"),
        ("accumulators", f"{g.d_registers_per_thread} f32 registers per thread"),
        ("A", "registers (4 per thread)" if g.a_source == "registers" else
         "shared memory, through a descriptor"),
        g.reason,
    ], theme, width)
    legend = legend_block([
        LegendEntry("the four warps: an aligned warpgroup", ok) if g.valid else
        LegendEntry("the four warps: not a warpgroup (a wgmma on them is undefined)", bad),
    ], theme, width, notes=[
        "Lane l of each warp holds d_i at row l / 4 (+ 8 when i mod 4 ≥ 2), column "
        "8·(i / 4) + 2·(l mod 4) + (i mod 2) of its 16 rows: the m16n8 C fragment, repeated "
        "N / 8 times."])
    title = (f"Warpgroup: wgmma.mma_async m64n{g.n}k16 on warps {g.warps[0]}–{g.warps[-1]} — "
             + ("an aligned warpgroup" if g.valid else "not a warpgroup"))
    return _tagged("warpgroup", _heading(title, theme, width, "warpgroup-title"), drawing,
                   receipt, legend)


# --------------------------------------------------------------------------------------------
# descriptor


def _descriptor(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
                target: Target) -> list[Block]:
    g = r.warpgroup
    pt = theme.small_pt
    floor = min(target.min_pt, pt)
    c = BlockCanvas()
    groups = min(2, max(1, g.n // 8))
    cell_w = max(text_width("000000", pt, "mono") + 1.0, 9.0)
    row_h = max(3.0, cap_height(pt, "mono") * 1.8)
    label_w = text_width("n 15", pt) + 1.5
    y = cap_height(pt)
    c.text(label_w, y, "k 0–7", pt, theme.muted)
    c.text(label_w + cell_w + 1.0, y, "k 8–15", pt, theme.muted)
    top = y + 1.2
    for cm in g.b_core_matrices:
        if cm.group >= groups:
            continue
        x = label_w + cm.chunk * (cell_w + 1.0)
        for i, addr in enumerate(cm.row_addresses):
            row = 8 * cm.group + i
            yy = top + row * row_h + cm.group * 1.0
            style = _register_style(theme, (addr // 16) % 8)
            key = f"core:{row},{cm.chunk}"
            c.rect(x + PAD / 2, yy + PAD / 2, cell_w - PAD, row_h - PAD, style, key=key)
            _cell_text(c, x + PAD / 2, yy + PAD / 2, cell_w - PAD, row_h - PAD, str(addr), pt,
                       theme.ink_on(style.fill or theme.surface), floor, key,
                       knockout=style.fill if style.hatch else None)
            if cm.chunk == 0:
                c.text(label_w - 1.0, yy + row_h / 2, f"n {row}", pt, theme.muted,
                       anchor="end", baseline="middle")
        c.rect(x, top + 8 * cm.group * row_h + cm.group * 1.0, cell_w, 8 * row_h,
               Style(stroke=theme.foreground, stroke_width=theme.line_mm))
    height = top + groups * 8 * row_h + groups * 1.0
    drawing = c.block(label_w + 2 * cell_w + 1.0, height, "descriptor-cores")
    d = g.descriptor
    rows: list[str | tuple[str, str]] = [
        ("descriptor", g.descriptor_hex),
        ("start address", f"{g.start_address} B (bits 0–13: {(d & 0x3FFF)})"),
        ("leading offset", f"{g.leading_byte_offset} B (bits 16–29: {(d >> 16) & 0x3FFF})"
         + (" — unused with a swizzle" if g.swizzle != "none" else "")),
        ("stride offset", f"{g.stride_byte_offset} B (bits 32–45: {(d >> 32) & 0x3FFF})"),
        ("swizzle", f"{g.swizzle} (bits 62–63: {d >> 62})"),
    ]
    receipt = receipt_block(rows, theme, width)
    legend = legend_block([], theme, width, notes=[
        "Each cell is one 16-byte row of a core matrix (8 rows × 16 bytes) of B at K step 0, "
        "printing its shared-memory byte address; its tint is the row's 16-byte bank group "
        "within 128 bytes (eight tints: no two rows of a core matrix in one group, no bank "
        "conflict)."])
    title = (f"Descriptor: B's core matrices through a {g.swizzle} descriptor (first "
             f"{8 * groups} rows of N)")
    return _tagged("descriptor", _heading(title, theme, width, "descriptor-title"), drawing,
                   receipt, legend)


# --------------------------------------------------------------------------------------------
# completion


def _completion(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
                target: Target) -> list[Block]:
    steps = r.warpgroup.async_steps
    pt = theme.small_pt
    c = BlockCanvas()
    row_h = max(3.6, cap_height(pt) * 2.4)
    event_w = max(text_width(s.event, pt, "mono") for s in steps) + 2.0
    state_w = max(text_width("pending 0, 1, 2, 3", pt) + 2.0, 24.0)
    beside = width - event_w - state_w >= 30.0
    note_x = event_w + state_w if beside else 2.0
    note_w = width - note_x - 1.0
    sel = selected_numbers(selection, "step")
    y = 0.0
    ok, bad = theme.fill("ok"), theme.fill("conflict")
    step = pt * PT_TO_MM * 1.3
    for i, s in enumerate(steps):
        hazard = s.event == "read D" and not s.d_readable
        safe = s.event == "read D" and s.d_readable
        lines = _wrap(s.note, pt, note_w)
        style = bad if hazard else ok if safe else Style(fill=theme.surface,
                                                         stroke=theme.outline,
                                                         stroke_width=theme.thin_mm)
        h = max(row_h, len(lines) * step + 1.0) if beside else row_h
        c.rect(0.0, y, event_w - 0.5, row_h - PAD, style, key=f"step:{i}")
        c.text(1.0, y + row_h / 2, s.event, pt, theme.ink_on(style.fill or theme.surface),
               baseline="middle", font="mono", key=f"step:{i}",
               knockout=style.fill if style.hatch else None)
        state = (f"pending {', '.join(map(str, s.pending))}" if s.pending else "none pending")
        c.text(event_w + 1.0, y + row_h / 2, state, pt, theme.foreground, baseline="middle")
        if i in sel:
            c.rect(0.0, y, event_w - 0.5, row_h - PAD, theme.highlight())
        ny = y + (cap_height(pt) + 0.6 if beside else row_h + cap_height(pt) + 0.3)
        for k, line in enumerate(lines):
            c.text(note_x, ny + k * step, line, pt, theme.muted)
        y += h if beside else row_h + len(lines) * step + 0.8
    drawing = c.block(min(width, note_x + note_w), y, "completion-steps")
    readable = steps[-1].d_readable
    legend = legend_block([LegendEntry("D read after its groups completed", ok) if readable
                           else LegendEntry("D read while a group may still write it (hazard)",
                                            bad)], theme, width)
    wait = steps[-2].event
    title = f"Completion: fence, commit, {wait}, then read D"
    return _tagged("completion", _heading(title, theme, width, "completion-title"), drawing,
                   None, legend)


def _wrap(text: str, pt: float, width: float) -> list[str]:
    from gpuviz.figures.layout import wrap

    return wrap(text, pt, width)


# --------------------------------------------------------------------------------------------
# hierarchy


def _hierarchy(r: MmaResult, selection: frozenset[str], theme: Theme, width: float,
               target: Target) -> list[Block]:
    h = r.hierarchy
    pt = theme.small_pt
    c = BlockCanvas()
    side = min(60.0, width * 0.55)
    scale = side / max(h.block_m, h.block_n)
    bw, bh = h.block_n * scale, h.block_m * scale
    wm, wn = h.block_m // h.warp_m, h.block_n // h.warp_n
    sel = {tuple(int(v) for v in k.split(":", 1)[1].split(",")) for k in selection
           if k.startswith("tile:") and k.count(",") == 1
           and all(p.isdigit() for p in k.split(":", 1)[1].split(","))}
    top = cap_height(pt) + 1.0
    c.text(0.0, cap_height(pt), f"block tile {h.block_m} × {h.block_n}", pt, theme.muted)
    c.rect(0.0, top, bw, bh, Style(fill=theme.surface, stroke=theme.foreground,
                                  stroke_width=theme.line_mm))
    tw, th = h.warp_n * scale, h.warp_m * scale
    for i in range(wm):
        for j in range(wn):
            style = _register_style(theme, (i * wn + j) % 8)
            c.rect(j * tw + 0.3, top + i * th + 0.3, tw - 0.6, th - 0.6, style,
                   key=f"tile:{i},{j}")
            if (i, j) in sel:
                c.rect(j * tw + 0.3, top + i * th + 0.3, tw - 0.6, th - 0.6, theme.highlight())
    # warp 0's m16n8 tiles
    mt, nt = h.warp_m // 16, h.warp_n // 8
    if mt * nt <= 256:
        segs = [(j * 8 * scale, top, j * 8 * scale, top + th) for j in range(1, nt)]
        segs += [(0.0, top + i * 16 * scale, tw, top + i * 16 * scale) for i in range(1, mt)]
        c.segments(segs, Style(stroke=theme.foreground, stroke_width=theme.thin_mm))
    label = f"warp 0: {h.warp_m} × {h.warp_n} = {mt} × {nt} m16n8 tiles"
    c.text(0.0, top + bh + cap_height(pt) + 1.0, label, pt, theme.foreground)
    drawing = c.block(max(bw, text_width(label, pt)), top + bh + cap_height(pt) + 1.0
                      + descent(pt), "hierarchy-tiles")
    rows: list[str | tuple[str, str]] = [
        ("warps", f"{h.warps} ({wm} × {wn}), {h.threads_per_block} threads"),
        ("accumulators", f"{h.mma_tiles} tiles × 4 = {h.accumulator_registers} registers"),
        ("A and B fragments", f"{h.fragment_registers} registers (one k16 step)"),
        ("other (estimate)", f"{h.other_registers} registers"),
        ("registers per thread", f"{h.registers_per_thread} "
         f"({format_percent(h.accumulator_share)} accumulators)"),
        ("blocks per SM", f"{h.blocks_per_sm} ({h.warps_per_sm} warps), limited by "
         f"{h.limiter.replace('_', ' ')}"),
    ]
    receipt = receipt_block(rows, theme, width)
    note = text_block(f"Blocks per SM by the occupancy model's rule for {h.arch}: the register "
                      "file allows " + format_number(h.register_limit) + " block"
                      f"{'s' if h.register_limit != 1 else ''} of this size.", theme, width,
                      color=theme.muted, name="hierarchy-note")
    title = (f"Hierarchy: {h.block_m} × {h.block_n} block → {h.warp_m} × {h.warp_n} warp "
             f"tiles → m16n8 tiles: {h.accumulator_registers} accumulator registers per thread")
    return _tagged("hierarchy", _heading(title, theme, width, "hierarchy-title"), drawing,
                   receipt, None, note)


BUILDERS: dict[str, Callable[..., list[Block]]] = {
    "feed": _feed, "warpgroup": _warpgroup,
    "descriptor": _descriptor, "completion": _completion, "hierarchy": _hierarchy,
}
