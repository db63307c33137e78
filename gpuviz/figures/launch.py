"""Figure of the launch explorer.

Parts, top to bottom: the grid's blocks, one row per dispatch wave (an illustration, not a
scheduling guarantee), each with a bar of its valid and masked threads, and the selected block's
wave on the synthetic SMs beside it; the warps of the selected block with their valid-lane
counts; the lanes of the selected warp, valid or masked, with linear thread id and global index;
for a multi-dimensional block, its threads in their drawn shape coloured by warp (x fastest);
and quantization: this launch's own problem in blocks and waves, and, where the scenario sets
one, a matrix output in tiles and the tiles in waves.

Keys: ``block:<b>``, ``sm:<s>``, ``warp:<b>,<w>``, ``lane:<l>``, ``tile:<i>,<j>``, ``wave:<k>``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

from gpuviz.figures.display import PT_TO_MM, Figure, Style
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    format_percent,
    legend_block,
    place,
    shortened_note,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.launch import LaunchResult, QuantizationParams

NATURAL_WIDTH = 172.0
DENSE_BLOCKS = 256  # past this (or past 16 waves) the blocks are drawn as one pixel each
BAR_H = 1.4  # mm, the valid/masked bar under a block or warp
TWO_COLUMNS = 200.0  # mm: from this width on, the sections sit in two columns


def build(result: LaunchResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    floor = min(target.min_pt, theme.small_pt)
    parts: list[Block] = []

    def sections(width: float) -> tuple[list[Block], list[Block]]:
        first = [as_part("grid", _grid(r, selection, theme, width, floor)),
                 as_part("grid", _sms(r, theme, width, floor)),
                 as_part("warps", _warps(r, selection, theme, width, floor)),
                 as_part("lanes", _lanes(r, selection, theme, width, floor))]
        second = []
        if r.block[1] > 1 or r.block[2] > 1:
            second.append(as_part("warps", _block_shape(r, theme, width)))
        second.append(as_part("quantization", _quantization(r, theme, width, floor)))
        return first, second

    def body(width: float) -> list[Block]:
        if width < TWO_COLUMNS or not target.whole:
            first, second = sections(width)
            parts[:] = first + second
            return parts
        # wide (slides, large type): the launch on the left, shape and quantization on the right
        half = (width - GAP) / 2
        first, second = sections(half)
        parts[:] = [_flowed(first, half, "launch"), _flowed(second, half, "quantities")]
        return parts

    def side(width: float) -> list[Block]:
        shortened = [p for b in parts if target.shows(*b.parts) for p in b.shortened]
        drawn = ("grid", "warps", "lanes")
        entries = [LegendEntry("valid: inside the problem", theme.fill("valid"), parts=drawn),
                   LegendEntry("masked by the bounds guard", theme.fill("masked"), parts=drawn)]
        if any(not ln.exists for ln in r.lanes):
            entries.append(LegendEntry("lane past the end of the block", theme.fill("absent"),
                                       parts=("lanes",)))
        # the grid and the warps always outline the selected block and warp; lanes only a lane
        lanes = ("lanes",) if any(k.startswith("lane:") for k in selection) else ()
        entries.append(LegendEntry("selected", theme.highlight(), "selection",
                                   parts=("grid", "warps", *lanes)))
        if any(k.startswith("warp:") for k in selection):
            entries.append(LegendEntry("the warp the selection names", theme.subject(),
                                       parts=("warps",)))
        notes = [shortened_note(shortened)] if shortened else []
        return [legend_block(entries, theme, width, notes=notes, target=target)]

    masked = r.threads_launched - r.valid_threads
    return compose(
        target, theme,
        title=f"Launch: grid {_dims(r.grid)} × block {_dims(r.block)} = "
              f"{format_number(r.threads_launched)} threads for {format_number(r.valid_threads)} "
              "valid outputs",
        subtitle=f"{format_number(r.blocks)} block{_s(r.blocks)} · "
                 f"{_count(r.warps_per_block, 'warp')} of {r.warp_size} lanes per block · "
                 f"{format_number(masked)} masked thread{_s(masked)}",
        body=body, side=side, natural_width=NATURAL_WIDTH,
        figure_title="gpuviz launch explorer",
        description=f"A launch of {counted(r.blocks, 'block')} of "
                    f"{counted(r.threads_per_block, 'thread')} for "
                    f"{counted(r.valid_threads, 'valid output')} "
                    f"({counted(masked, 'thread')} masked), with block {r.selected_block} and "
                    f"its warp {r.selected_warp} selected "
                    f"({counted(len(r.active_lanes), 'active lane')}).")


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}{_s(n)}"


def _dims(v: tuple[int, int, int]) -> str:
    trimmed = list(v)
    while len(trimmed) > 1 and trimmed[-1] == 1:
        trimmed.pop()
    return "(" + ", ".join(format_number(x) for x in trimmed) + ")"


def _times(v: tuple[int, int, int]) -> str:
    """A shape as ``40 × 40`` (trailing 1s dropped)."""
    return _dims(v)[1:-1].replace(", ", " × ")


def _heading(c: BlockCanvas, theme: Theme, width: float, text: str,
             note: str = "") -> tuple[float, float]:
    """A bold section heading and an optional muted note, wrapped; the y below them and the
    width they take."""
    y, used = 0.0, 0.0
    for i, line in enumerate(wrap(text, theme.text_pt, width, bold=True)):
        y += (cap_height(theme.text_pt) if i == 0 else theme.text_pt * PT_TO_MM * 1.3)
        c.text(0.0, y, line, theme.text_pt, theme.foreground, bold=True)
        used = max(used, text_width(line, theme.text_pt, bold=True))
    if note:
        for line in wrap(note, theme.small_pt, width):
            y += theme.small_pt * PT_TO_MM * 1.3
            c.text(0.0, y, line, theme.small_pt, theme.muted)
            used = max(used, text_width(line, theme.small_pt))
    return y + descent(theme.small_pt) + 1.2, used


def _centre_shift(size: float, font: str = "mono") -> float:
    """How far above a cell's centre to put a 'middle' baseline so the ink is centred."""
    return 0.36 * size * PT_TO_MM + (descent(size, font) - cap_height(size, font)) / 2  # type: ignore[arg-type]


def _bar(c: BlockCanvas, theme: Theme, x: float, y: float, w: float, share: float) -> None:
    """A thin bar: the valid share of a block's or warp's threads, the rest masked."""
    c.rect(x, y, w, BAR_H, theme.fill("masked", outline=False))
    if share > 0:  # to scale: a sliver for a few valid threads, whose count is printed
        c.rect(x, y, w * share, BAR_H, Style(fill=theme.color("valid")))
    c.rect(x, y, w, BAR_H, Style(stroke=theme.outline, stroke_width=theme.thin_mm))


def _grid(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
          floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    _, partly, empty = r.block_counts()
    note = (f"{_count(r.waves, 'wave')} of {format_number(r.slots_per_wave)} block slots "
            f"({_count(r.sm_count, 'SM')} × {r.slots_per_sm}); an illustration, not a CUDA "
            "scheduling guarantee. The bar under a block: its valid and masked threads.")
    own_w = min(width, 100.0) if width >= 150 else width
    top, head_w = _heading(c, theme, own_w, "Blocks, one row per dispatch wave", note)
    if r.blocks > DENSE_BLOCKS or r.waves > 16:
        import numpy as np  # one pixel per block: only a large grid needs an image

        cols = math.ceil(math.sqrt(r.blocks * 2))
        rows = -(-r.blocks // cols)
        rgb = np.zeros((rows * cols, 3), dtype=np.uint8)
        valid = np.array(_rgb(theme.color("valid")), dtype=np.uint8)
        rgb[: r.blocks] = valid
        rgb[: r.blocks][np.array(r.block_valid_all()) == 0] = _rgb(theme.color("masked"))
        rgb[r.blocks:] = _rgb(theme.background)
        h = min(32.0, own_w * rows / cols)
        c.image(0.0, top, own_w, h, rgb.reshape(rows, cols, 3), key="blocks")
        y = top + h + 1.0
        for line in wrap(f"{format_number(r.blocks)} blocks, one pixel each, x fastest: "
                         f"{format_number(partly)} partly and {format_number(empty)} wholly "
                         "masked", pt, own_w):
            y += pt * PT_TO_MM * 1.3
            c.text(0.0, y, line, pt, theme.muted)
        return c.block(max(own_w, head_w), y + descent(pt), "blocks")
    label_w = text_width(f"wave {r.waves - 1}", pt) + 1.5
    digits = len(str(r.blocks - 1))
    cell = max(6.0, text_width("0" * digits, pt, "mono") + 1.6)
    per_line = max(1, min(r.slots_per_wave, int((own_w - label_w) // cell)))
    cell_h = ink_height(pt, "mono") + 1.2
    y = top
    used_w = label_w
    for wave in range(r.waves):
        first = wave * r.slots_per_wave
        ids = list(range(first, min(r.blocks, first + r.slots_per_wave)))
        c.text(0.0, y + cell_h / 2, f"wave {wave}", pt, theme.muted, baseline="middle",
               key=f"wave:{wave}")
        for i, b in enumerate(ids):
            row, col = divmod(i, per_line)
            x0 = label_w + col * cell
            y0 = y + row * (cell_h + BAR_H + 1.0)
            key = f"block:{b}"
            with c.group(key):
                c.rect(x0, y0, cell - 0.6, cell_h, Style(fill=theme.surface, stroke=theme.outline,
                                                         stroke_width=theme.thin_mm))
                c.value(x0, y0 - _centre_shift(pt), cell - 0.6, cell_h, str(b), pt,
                        theme.foreground, floor=floor, key=key)
                _bar(c, theme, x0, y0 + cell_h + 0.3, cell - 0.6,
                     r.block_valid(b) / r.threads_per_block)
            if b == r.selected_block or key in selection:
                theme.select(c, x0 - 0.3, y0 - 0.3, cell, cell_h + BAR_H + 0.9)
            used_w = max(used_w, x0 + cell)
        lines = -(-len(ids) // per_line)
        y += lines * (cell_h + BAR_H + 1.0) + 0.6
    # a partly valid block's bar may be a sliver: its count in words (the first few, one line)
    partial = [b for b in range(r.blocks) if 0 < r.block_valid(b) < r.threads_per_block]
    if partial:
        if len(partial) == 1:
            text = (f"block {partial[0]}: {format_number(r.block_valid(partial[0]))} of "
                    f"{format_number(r.threads_per_block)} threads valid")
        else:
            text = (f"partly valid, of {format_number(r.threads_per_block)} threads: "
                    + ", ".join(f"block {b} {format_number(r.block_valid(b))}"
                                for b in partial[:4])
                    + (f", … {format_number(len(partial) - 4)} more" if len(partial) > 4 else ""))
        for line in wrap(text, pt, own_w):
            y += cap_height(pt) + 0.4
            c.text(0.0, y, line, pt, theme.foreground)
            used_w = max(used_w, text_width(line, pt))
            y += descent(pt)
    return c.block(max(used_w, head_w), y, "blocks")


def _sms(r: LaunchResult, theme: Theme, width: float, floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    n_sm, n_slots = r.sm_count, r.slots_per_sm
    shown = min(n_sm, 8)
    slot_w = max(9.0, text_width(f"B{r.blocks - 1}", pt) + 2.0)
    label_w = text_width(f"SM{shown - 1}", pt) + 2.4
    need = label_w + n_slots * (slot_w + 1) + 1
    w = min(width, max(need, 40.0))
    top, head_w = _heading(c, theme, w, f"Wave {r.selected_block_wave} on "
                           f"{_count(n_sm, 'synthetic SM')}", "the selected block's wave")
    slot_w = min(slot_w, (w - label_w - 1) / n_slots - 1)
    slot_h = ink_height(pt) + 1.6
    first = r.selected_block_wave * r.slots_per_wave
    y = top
    for s in range(shown):
        with c.group(f"sm:{s}"):
            c.rect(0.0, y, label_w + n_slots * (slot_w + 1) + 1, slot_h + 2, Style(
                fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm), radius=0.8)
            c.text(0.8, y + 1 + slot_h / 2 + 0.0, f"SM{s}", pt, theme.foreground,
                   baseline="middle")
            for k in range(n_slots):
                b = first + k * n_sm + s
                bx = label_w + k * (slot_w + 1)
                if b < r.blocks:
                    c.rect(bx, y + 1, slot_w, slot_h, Style(fill=theme.background,
                                                             stroke=theme.outline,
                                                             stroke_width=theme.thin_mm),
                           key=f"block:{b}")
                    c.value(bx, y + 1 - _centre_shift(pt, "sans"), slot_w, slot_h, f"B{b}", pt,
                            theme.foreground, floor=floor, font="sans", key=f"block:{b}")
                    if b == r.selected_block:
                        theme.select(c, bx, y + 1, slot_w, slot_h)
                else:
                    c.rect(bx, y + 1, slot_w, slot_h, theme.fill("absent"))
                    c.value(bx, y + 1 - _centre_shift(pt, "sans"), slot_w, slot_h, "idle", pt,
                            theme.muted, floor=floor, font="sans")
        y += slot_h + 3
    if n_sm > shown:
        y += cap_height(pt) + 0.5
        c.text(0.0, y, f"… {format_number(n_sm - shown)} more SMs", pt, theme.muted)
        y += descent(pt)
    return c.block(max(w, head_w), y, "sms")


def _warps(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
           floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    b = r.selected_block
    n = r.warps_per_block
    top, head_w = _heading(c, theme, width, f"Block {b} {_dims(r.selected_block_idx)}: "
                   f"{_count(n, 'warp')}, {format_number(r.selected_block_valid)} of "
                   f"{format_number(r.threads_per_block)} threads valid",
                   "each warp: its number, valid lanes / lanes, and a bar of valid and masked")
    cell = max(10.0, text_width(f"{r.warp_size}/{r.warp_size}", pt, "mono") + 1.6)
    per_row = max(1, min(n, 16, int(width // cell)))
    cell = min(20.0, width / per_row) if n <= per_row else cell
    line_h = ink_height(pt, "mono") + 0.5
    cell_h = 2 * line_h + 0.6
    y = top
    for i in range(n):
        row, col = divmod(i, per_row)
        x0 = col * cell
        y0 = top + row * (cell_h + BAR_H + 1.6)
        key = f"warp:{b},{i}"
        valid = r.warp_valid_lanes[i]
        lanes_in_warp = min(r.warp_size, r.threads_per_block - i * r.warp_size)
        with c.group(key):
            c.rect(x0, y0, cell - 1, cell_h, Style(fill=theme.surface, stroke=theme.outline,
                                                   stroke_width=theme.thin_mm))
            c.value(x0, y0 + 0.3 - _centre_shift(pt, "sans"), cell - 1, line_h,
                    f"warp {i}" if cell >= 12 else str(i), pt, theme.foreground, floor=floor,
                    font="sans", bold=True, key=key)
            c.value(x0, y0 + 0.3 + line_h - _centre_shift(pt), cell - 1, line_h,
                    f"{valid}/{lanes_in_warp}", pt, theme.foreground, floor=floor, key=key)
            _bar(c, theme, x0, y0 + cell_h + 0.3, cell - 1, valid / max(lanes_in_warp, 1))
        if i == r.selected_warp or key in selection:
            theme.select(c, x0 - 0.3, y0 - 0.3, cell - 0.4, cell_h + BAR_H + 0.9)
        if key in selection:  # the warp a step talks about, framed as its subject
            c.rect(x0 - 1.0, y0 - 1.0, cell + 1.0, cell_h + BAR_H + 2.3, theme.subject(),
                   key=key)
        y = y0 + cell_h + BAR_H + 0.6
    return c.block(min(width, max(per_row * cell, head_w)), y, "warps")


def _lanes(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
           floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    active = len(r.active_lanes)
    top, head_w = _heading(c, theme, width,
                           f"Warp {r.selected_warp} of block {r.selected_block}: "
                   f"{_count(active, 'lane')} valid, {format_number(r.warp_size - active)} masked",
                   "each lane: lane number, linear thread id (x fastest), global index "
                   "(– when masked)")
    widest = max([format_number(ln.global_index) for ln in r.lanes if ln.global_index is not None]
                 + [format_number(ln.tid) for ln in r.lanes] + ["00"], key=len)
    need = text_width(widest, pt, "mono") + 1.0
    # each row of cells names its three lines in a gutter (lane, thread id, global index),
    # where the gutter costs no lanes per row; else the heading's note names them
    row_names: tuple[str, ...] = ("lane", "tid", "index")

    def lanes_per_row(room: float) -> int:
        n = 16
        while n > 4 and room / n < max(need + 0.8, 5.0):
            n //= 2
        return n

    gutter = max(text_width(name, pt) for name in row_names) + 1.2
    per_row = lanes_per_row(width - gutter)
    if per_row < lanes_per_row(width):
        gutter, row_names, per_row = 0.0, (), lanes_per_row(width)
    cell = min((width - gutter) / per_row, 14.0)
    line_h = ink_height(pt, "mono") + 0.5
    ch = 3 * line_h + 0.8
    # per role and per font once, not per lane: the layout search builds this section a dozen
    # times for a view
    fills = {role: theme.fill(role) for role in ("valid", "masked", "absent")}
    knocks = {role: theme.background if f.hatch is not None else None for role, f in fills.items()}
    inks = {role: theme.ink_on(role) if not knocks[role] else theme.foreground for role in fills}
    shifts = {font: _centre_shift(pt, font) for font in ("sans", "mono")}
    for row in range(-(-r.warp_size // per_row)):
        y0 = top + row * (ch + 1.2)
        for k, name in enumerate(row_names):
            c.text(0.0, y0 + 0.4 + k * line_h + line_h / 2 - shifts["sans"], name, pt,
                   theme.muted, baseline="middle")
    for lane in r.lanes:
        row, col = divmod(lane.lane, per_row)
        x0 = gutter + col * cell
        y0 = top + row * (ch + 1.2)
        key = f"lane:{lane.lane}"
        role = "valid" if lane.valid else ("masked" if lane.exists else "absent")
        knock = knocks[role]
        with c.group(key):
            c.rect(x0, y0, cell - 0.5, ch, fills[role])
            ink = inks[role]
            gi = "–" if lane.global_index is None else format_number(lane.global_index)
            texts = ((str(lane.lane), "sans", True), (format_number(lane.tid), "mono", False),
                     (gi, "mono", False))
            for k, (text, font, bold) in enumerate(texts):
                t = c.value(x0, y0 + 0.4 + k * line_h - shifts[font], cell - 0.5,
                            line_h, text, pt, ink, floor=floor, font=font, bold=bold,  # type: ignore[arg-type]
                            key=key)
                if knock:
                    c._items[-1] = replace(t, knockout=knock)
        if key in selection:
            theme.select(c, x0 - 0.3, y0 - 0.3, cell + 0.1, ch + 0.6)
    rows = -(-r.warp_size // per_row)
    return c.block(max(gutter + per_row * cell, head_w), top + rows * (ch + 1.2) - 1.2,
                   "lanes")


def _block_shape(r: LaunchResult, theme: Theme, width: float) -> Block:
    c = BlockCanvas()
    bx, by, bz = r.block
    top, head_w = _heading(c, theme, width, f"Block {_dims(r.block)} drawn in 2-D, coloured "
                           "by warp",
                   "consecutive linear ids (x fastest) form a warp, whatever the drawing; "
                   f"block {r.selected_block}'s threads outside the problem are masked")
    rows = by * bz
    warps = -(-bx * rows // r.warp_size)
    legend_w = min(width * 0.4, 40.0) if warps <= 14 else 0.0
    cell = min(4.0, (width - legend_w - GAP) / bx, 40.0 / rows)
    import numpy as np  # a multi-dimensional block only (the default 1-D launch paints without)

    tids = np.arange(bx * rows)
    warp = tids // r.warp_size
    b = r.selected_block_idx
    gx = b[0] * bx + tids % bx
    gy = b[1] * by + (tids // bx) % by
    gz = b[2] * bz + tids // (bx * by)
    masked = (gx >= r.extent[0]) | (gy >= r.extent[1]) | (gz >= r.extent[2])
    xywh = np.column_stack([(tids % bx) * cell, top + (tids // bx) * cell,
                            np.full(len(tids), cell * 0.9), np.full(len(tids), cell * 0.9)])
    # the palette without the colour of "valid" (its first), in turn; past its end, the same
    # hues lighter (then lighter again), so no two warps of a block share a swatch
    base = [col for col in theme.palette if col != theme.color("valid")]
    colours = [theme.mix(col, 1.0 - 0.4 * k) for k in range(3) for col in base]
    by_colour: dict[str, list[int]] = {}
    for w in range(int(warp.max()) + 1):
        colour = colours[w % len(colours)]
        by_colour.setdefault(colour, []).append(w)
        sel = (warp == w) & ~masked
        if sel.any():
            c.rects(xywh[sel], Style(fill=colour),
                    keys=[f"warp:{r.selected_block},{w}"] * int(sel.sum()))
        if w == r.selected_warp:
            ends = xywh[warp == w]
            x0, y0 = ends[:, 0].min(), ends[:, 1].min()
            x1, y1 = (ends[:, 0] + ends[:, 2]).max(), (ends[:, 1] + ends[:, 3]).max()
            if (warp == w).sum() % bx == 0 or (warp == w).sum() < bx:
                theme.select(c, x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4)
    entries = [LegendEntry("warp " + ", ".join(str(w) for w in ws), Style(fill=colour))
               for colour, ws in by_colour.items()]
    if masked.any():
        c.rects(xywh[masked], theme.fill("masked"),
                keys=[f"warp:{r.selected_block},{int(w)}" for w in warp[masked]])
    right = bx * cell
    bottom = top + rows * cell
    # name each warp beside its rows where the names fit one above another (they then carry
    # the meaning, not the hue: a grayscale print keeps them apart); else a colour legend
    pt = theme.small_pt
    centres = [float((xywh[warp == w, 1].min() + xywh[warp == w, 1].max() + cell * 0.9) / 2)
               for w in range(warps)]
    fits = all(b - a >= ink_height(pt) + 0.4 for a, b in itertools.pairwise(centres))
    label_w = text_width(f"warp {warps - 1}", pt) + 1.5
    if fits and right + label_w <= width:
        for w, yc in enumerate(centres):
            c.text(right + 1.5, yc - _centre_shift(pt, "sans"), f"warp {w}", pt,
                   theme.foreground, baseline="middle", key=f"warp:{r.selected_block},{w}")
        right += label_w
        legend_w = min(width - right - GAP, 40.0) if masked.any() else 0.0
        entries = []
    if legend_w > 0:
        leg = legend_block(entries, theme, legend_w,
                           notes=[f"{format_number(int(masked.sum()))} of "
                                  f"{format_number(len(tids))} threads masked"]
                           if masked.any() or entries else [])
        place(c, leg, right + GAP, top)
        right += GAP + leg.width
        bottom = max(bottom, top + leg.height)
    else:
        note = text_block(f"{_count(warps, 'warp')}, coloured in turn from the palette; "
                          f"{format_number(int(masked.sum()))} of {format_number(len(tids))} "
                          "threads masked", theme, width, color=theme.muted)
        place(c, note, 0.0, bottom + 1.0)
        bottom += 1.0 + note.height
    return c.block(min(width, max(right, head_w)), bottom, "block-shape")


def _quantization(r: LaunchResult, theme: Theme, width: float, floor: float) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    fg = theme.foreground
    share = r.valid_threads / r.threads_launched
    last = r.blocks - (r.waves - 1) * r.slots_per_wave
    lines = [
        f"This launch: {_times(r.extent)} outputs in blocks of {_times(r.block)} threads: "
        + (f"{_times(r.grid)} = " if "×" in _times(r.grid) else "")
        + f"{_count(r.blocks, 'block')}, "
        f"{format_number(r.threads_launched)} thread slots, "
        f"{format_number(r.valid_threads)} valid ({format_percent(share)})",
        f"{_count(r.blocks, 'block')} on {format_number(r.slots_per_wave)} slots → "
        f"{_count(r.waves, 'wave')}, last wave {format_percent(last / r.slots_per_wave)} full",
    ]
    show_matrix = _scenario_sets_matrix(r)
    top, _ = _heading(c, theme, width, "Tile quantization and wave quantization")
    y = top
    for text in lines:
        for line in wrap(text, pt, width):
            y += cap_height(pt)
            c.text(0.0, y, line, pt, fg)
            y += pt * PT_TO_MM * 1.3 - cap_height(pt)
    if not show_matrix:
        return c.block(width, y, "quantization")
    pct = r.tile_valid / r.tile_slots
    y += 1.0
    for text in (f"A {format_number(r.matrix[0])} × {format_number(r.matrix[1])} matrix output in "
                 f"{format_number(r.tile[0])} × {format_number(r.tile[1])} tiles: "
                 f"{format_number(r.tiles_m)} × {format_number(r.tiles_n)} = "
                 f"{format_number(r.tiles)} tiles, {format_number(r.tile_slots)} output slots · "
                 f"{format_number(r.tile_valid)} valid ({format_percent(pct)})",):
        for line in wrap(text, pt, width):
            y += cap_height(pt)
            c.text(0.0, y, line, pt, fg)
            y += pt * PT_TO_MM * 1.3 - cap_height(pt)
    y += 1.5
    box = 30.0
    tm, tn = r.tiles_m, r.tiles_n
    cw, chh = box / tn, box / tm
    if tm * tn <= 1024:
        xywh = [(j * cw, y + i * chh, cw, chh) for i in range(tm) for j in range(tn)]
        c.rects(xywh, theme.fill("masked", outline=False),
                keys=[f"tile:{i},{j}" for i in range(tm) for j in range(tn)])
    else:
        c.rect(0.0, y, box, box, theme.fill("masked", outline=False))
    vm = box * r.matrix[0] / (tm * r.tile[0])
    vn = box * r.matrix[1] / (tn * r.tile[1])
    c.rect(0.0, y, vn, vm, Style(fill=theme.color("valid")))
    if tm <= 64 and tn <= 64:
        segs = [(0.0, y + i * chh, box, y + i * chh) for i in range(1, tm)]
        segs += [(j * cw, y, j * cw, y + box) for j in range(1, tn)]
        if segs:
            c.segments(segs, theme.stroke("outline", theme.thin_mm))
    c.rect(0.0, y, box, box, Style(stroke=theme.foreground, stroke_width=theme.line_mm))
    # the valid region's edge in the ink, and the extents in words: a spill of one row past a
    # tile's edge is a sliver at this scale
    c.rect(0.0, y, vn, vm, Style(stroke=theme.foreground, stroke_width=theme.thick_mm))
    edge = (f"valid {format_number(r.matrix[0])} × {format_number(r.matrix[1])} of "
            f"{format_number(tm * r.tile[0])} × {format_number(tn * r.tile[1])} slots")
    y_edge = y + box + 0.6
    for line in wrap(edge, pt, box + GAP):
        y_edge += cap_height(pt)
        c.text(0.0, y_edge, line, pt, fg)
        y_edge += pt * PT_TO_MM * 1.3 - cap_height(pt)
    # the tiles in waves
    wx = box + GAP + 2.0
    bar_w = width - wx
    wave_text = (f"{format_number(r.tiles)} tiles on {format_number(r.tile_slots_per_wave)} slots "
                 f"({_count(r.tile_sms, 'SM')} × {_count(r.tiles_per_sm, 'tile')} at a time) → "
                 f"{_count(r.wave_count, 'wave')}, last wave {format_percent(r.last_wave_fill)} "
                 "full")
    if bar_w < 45.0:  # too narrow beside the tiles: below them
        wx, wy, bar_w = 0.0, y_edge + 2.0, width
    else:
        wy = y
    ty = wy
    for line in wrap(wave_text, pt, bar_w):
        ty += cap_height(pt)
        c.text(wx, ty, line, pt, fg)
        ty += pt * PT_TO_MM * 1.3 - cap_height(pt)
    by = ty + 1.5
    shown = min(r.wave_count, 12)
    label_pt = pt
    seg = bar_w / shown
    # busy slots: a second channel where the theme hatches categories (print: compute and valid
    # are one gray)
    hatch = theme.category_hatch(0)
    busy = Style(fill=theme.color("compute"), stroke=None, hatch=hatch,
                 hatch_color=theme.foreground if hatch else None)
    for k in range(shown):
        wave_no = k if k < shown - 1 or shown == r.wave_count else r.wave_count - 1
        fill = 1.0 if wave_no < r.wave_count - 1 else r.last_wave_fill
        with c.group(f"wave:{wave_no}"):
            c.rect(wx + k * seg, by, seg - 1, 5, Style(fill=theme.background))
            c.rect(wx + k * seg, by, (seg - 1) * fill, 5, busy)
            c.rect(wx + k * seg, by, seg - 1, 5, Style(stroke=theme.outline,
                                                        stroke_width=theme.thin_mm))
            c.value(wx + k * seg, by + 5.4, seg - 1, ink_height(label_pt) + 0.4,
                    str(wave_no) if seg < 10 else f"wave {wave_no}", label_pt, theme.muted,
                    floor=floor, font="sans", key=f"wave:{wave_no}")
    ny = by + 5.4 + ink_height(label_pt) + 1.2
    leg = legend_block([LegendEntry("slots busy in a wave", busy)], theme, bar_w,
                       notes=["Neither effect predicts elapsed time without assumptions about "
                              "block duration."])
    place(c, leg, wx, ny)
    bottom = max(y_edge, ny + leg.height)
    return c.block(width, bottom, "quantization")


def _flowed(blocks: Sequence[Block], width: float, name: str) -> Block:
    """``blocks`` left to right, wrapping to a new row when the next does not fit ``width``,
    as one block."""
    c = BlockCanvas()
    x = y = row_h = used = 0.0
    for b in blocks:
        if x > 0 and x + b.width > width + 1e-6:
            y += row_h + GAP
            x = row_h = 0.0
        place(c, b, x, y)
        used = max(used, x + b.width)
        x += b.width + GAP
        row_h = max(row_h, b.height)
    return c.block(used, y + row_h, name)


def _scenario_sets_matrix(r: LaunchResult) -> bool:
    """Whether the matrix quantization belongs to this scenario: its matrix is this launch's own
    problem (as many outputs as valid threads) or was set away from the model's default."""
    d = QuantizationParams()
    default = (r.matrix == (d.matrix_m, d.matrix_n) and r.tile == (d.tile_m, d.tile_n)
               and r.tile_slots_per_wave == d.sm_count * d.blocks_per_sm)
    return r.matrix[0] * r.matrix[1] == r.valid_threads or not default


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


__all__: Sequence[str] = ("build",)
