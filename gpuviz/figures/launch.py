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
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from gpuviz import keys
from gpuviz.figures.bands import BAND_ROOM
from gpuviz.figures.display import PT_TO_MM, Figure, Style
from gpuviz.figures.kept import Kept
from gpuviz.figures.launch_quantization import (
    centre_shift,
    count,
    dims,
    heading,
    plural_s,
    quantization,
    scenario_sets_matrix,
)
from gpuviz.figures.launch_shape import block_shape
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Reach,
    Target,
    as_part,
    compose,
    counted,
    format_number,
    legend_block,
    place,
    shortened_note,
    table_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, leaves_room, text_width
from gpuviz.figures.theme import Theme
from gpuviz.models.launch import LaunchResult

NATURAL_WIDTH = 172.0
DENSE_BLOCKS = 256  # past this (or past 16 waves) the blocks are drawn as one pixel each
BAR_H = 1.4  # mm, the valid/masked bar under a block or warp
TWO_COLUMNS = 200.0  # mm: from this width on, the sections sit in two columns


def build(result: LaunchResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    r = result
    floor = min(target.min_pt, theme.small_pt)
    word = warp_word(r)
    parts: list[Block] = []

    # a part alone with its title: its heading becomes the title and the launch its subtitle
    alone = target.parts[0] if target.parts and len(target.parts) == 1 \
        and target.chrome == "full" and (target.parts[0] != "quantization"
                                         or scenario_sets_matrix(r)) else None
    # a part alone headed with its name (a page of its own): its heading is that name, and its
    # note stays under it, as the figure's subtitle is not drawn
    noted = "note" if alone is not None and target.part_title else False
    if alone is not None and noted:
        target = replace(target, part_title=_name(heads(r)[alone][0]))
    # without chrome a part keeps its heading (its name) and leaves its note to the caption
    plain: bool | str = "bare" if target.chrome == "none" else True

    def first(width: float) -> Iterator[Block | _LanesPlan]:
        yield as_part("grid", _grid(r, selection, theme, width, floor,
                                     plain if alone != "grid" else noted,
                                     slide=target.gridded))
        yield as_part("grid", _sms(r, theme, width, floor, slide=target.gridded))
        yield as_part("warps", _warps(r, selection, theme, width, floor,
                                       plain if alone != "warps" else noted))
        # the lanes' size before their cells: a design beaten on it goes no further
        yield _LanesPlan(r, theme, width, floor, plain if alone != "lanes" else noted,
                         target.single_column, banded=not target.paged)

    def second(width: float) -> Iterator[Block]:
        if r.block[1] > 1 or r.block[2] > 1:
            yield as_part("warps", block_shape(r, theme, width, selection,
                                               noted=plain is True))
        yield as_part("quantization", quantization(r, theme, width, floor,
                                                   alone != "quantization"))

    def drawn(b: Block | _LanesPlan) -> Block:
        return as_part("lanes", b.draw(selection, theme, floor)) if isinstance(b, _LanesPlan) \
            else b

    def body(width: float) -> Iterator[Block | Reach]:
        # one block at a time, so that the layout search gives up a design as soon as the
        # blocks placed so far (or the size of the next) cannot beat the best one (the
        # legend reads ``parts``)
        parts.clear()
        if width < TWO_COLUMNS or not target.whole:
            for b in itertools.chain(first(width), second(width)):
                if isinstance(b, _LanesPlan) and not leaves_room():
                    yield Reach(b.width, b.height)
                parts.append(drawn(b))
                yield parts[-1]
            return
        # wide (slides, large type): the launch left, shape and quantization right
        half = (width - GAP) / 2
        for column, name in ((first, "launch"), (second, "quantities")):
            blocks = list(column(half))
            if not leaves_room():  # the column's size from its blocks' sizes
                yield Reach(*_flowed_size([(b.width, b.height) for b in blocks], half))
            parts.append(_flowed([drawn(b) for b in blocks], half, name))
            yield parts[-1]

    def side(width: float) -> list[Block]:
        shortened = [p for b in parts if target.shows(*b.parts) for p in b.shortened]
        drawn = ("grid", "warps", "lanes")
        entries = [LegendEntry("valid: inside the problem", theme.fill("valid"), parts=drawn),
                   LegendEntry("masked by the bounds guard", theme.fill("masked"), parts=drawn)]
        if any(not ln.exists for ln in r.lanes):
            entries.append(LegendEntry("lane past the end of the block", theme.fill("absent"),
                                       parts=("lanes",)))
        # the block and warp drawn in detail (the section's selected_block and selected_warp)
        # are filled with the muted ink; a selection (a click, a step's select) has the double outline
        entries.append(LegendEntry(f"block and {word} shown in detail", shown_style(theme),
                                   parts=("grid", "warps")))
        named = {kind: [k for k in selection if k.startswith(keys.prefix(kind))]
                 for kind in ("block", "warp", "lane")}
        chosen = tuple(part for part, kind in (("grid", "block"), ("warps", "warp"),
                                               ("lanes", "lane")) if named[kind])
        if chosen:
            entries.append(LegendEntry("selected", theme.highlight(), "selection", parts=chosen))
        notes = [shortened_note(shortened)] if shortened else []
        return [legend_block(entries, theme, width, notes=notes, target=target)]

    masked = r.threads_launched - r.valid_threads
    title = (f"Launch: grid {dims(r.grid)} × block {dims(r.block)} = "
             f"{format_number(r.threads_launched)} threads for {format_number(r.valid_threads)} "
             "valid outputs")
    subtitle = (f"{format_number(r.blocks)} block{plural_s(r.blocks)} · "
                f"{count(r.warps_per_block, word)} of {r.warp_size} lanes per block · "
                f"{format_number(masked)} masked thread{plural_s(masked)}")
    if alone is not None:
        title, note = heads(r)[alone]
        if alone == "lanes":  # the lanes name their three lines beside or above the cells
            note = ""
        subtitle = (f"Grid {dims(r.grid)} × block {dims(r.block)}: "
                    f"{format_number(r.threads_launched)} threads for "
                    f"{format_number(r.valid_threads)} valid outputs." + (f" {note[0].upper()}"
                                                                       f"{note[1:]}." if note
                                                                       and not note.endswith(".")
                                                                       else f" {note}"))
        if alone == "quantization":  # its first line states the launch
            subtitle = ""
    return compose(
        target, theme, title=title, subtitle=subtitle.rstrip(),
        body=body, side=side, natural_width=NATURAL_WIDTH,
        figure_title="gpuviz launch explorer",
        description=f"A launch of {counted(r.blocks, 'block')} of "
                    f"{counted(r.threads_per_block, 'thread')} for "
                    f"{counted(r.valid_threads, 'valid output')} "
                    f"({counted(masked, 'thread')} masked), with block {r.selected_block} and "
                    f"its {word} {r.selected_warp} selected "
                    f"({counted(len(r.active_lanes), 'active lane')}).")


def warp_word(r: LaunchResult) -> str:
    """What a warp is called: a wavefront where it has 64 lanes (AMD CDNA), as the sector map
    says too."""
    return "wavefront" if r.warp_size > 32 else "warp"


def heads(r: LaunchResult) -> dict[str, tuple[str, str]]:
    """Each part's heading and its note; a part drawn alone with its title takes them as the
    figure's title and subtitle instead."""
    active = len(r.active_lanes)
    word = warp_word(r)
    return {
        "grid": ("Blocks, one row per dispatch wave",
                 f"{count(r.waves, 'wave')} of {format_number(r.slots_per_wave)} block slots "
                 f"({count(r.sm_count, 'SM')} × {r.slots_per_sm}); an illustration, not a CUDA "
                 "scheduling guarantee. The bar under a block: its valid and masked threads."),
        "warps": (f"Block {r.selected_block} {dims(r.selected_block_idx)}: "
                  f"{count(r.warps_per_block, word)}, {format_number(r.selected_block_valid)} "
                  f"of {format_number(r.threads_per_block)} threads valid",
                  f"each {word}: its number, valid lanes / lanes, and a bar of valid and masked"),
        "lanes": (f"{word.capitalize()} {r.selected_warp} of block {r.selected_block}: "
                  f"{count(active, 'lane')} valid, {format_number(r.warp_size - active)} masked",
                  "each lane: lane number, linear thread id (x fastest), global index "
                  "(– when masked)"),
        "quantization": ("Tile and wave quantization", ""),
    }


def _headed(c: BlockCanvas, theme: Theme, width: float, head: tuple[str, str],
            headed: bool | str) -> tuple[float, float]:
    """A section's heading and note (``headed`` True), its heading alone ("bare": drawn
    without chrome, the note left to the caption), nothing (False), or ("note", the part
    headed with the heading's name) what follows that name and the note; the y below and the
    width taken."""
    if not headed:
        return 0.0, 0.0
    if headed == "bare":  # no chrome: the heading names the part, its note is the caption's
        return heading(c, theme, width, head[0])
    if headed is True:
        return heading(c, theme, width, *head)
    note = "; ".join(n for n in (_rest(head[0]), head[1]) if n)
    return heading(c, theme, width, "", note) if note else (0.0, 0.0)


def _name(title: str) -> str:
    """A section heading's name, before its colon: "Block 0 (0, 0, 0)"."""
    return title.partition(": ")[0]


def _rest(title: str) -> str:
    """What a section heading says after its name: "8 warps, 256 of 256 threads valid"."""
    return title.partition(": ")[2]


def shown_style(theme: Theme) -> Style:
    """The block and warp the parts below draw in detail: filled with the ``detail`` role (dark
    on a light ground, light on the dark one), numbers in the ground's colour (a selection is
    the double outline in the ink, :meth:`Theme.select`: the two never share a swatch)."""
    detail = theme.color("detail")
    return Style(fill=detail, stroke=detail, stroke_width=theme.thin_mm)


def _bar(c: BlockCanvas, theme: Theme, x: float, y: float, w: float, share: float) -> None:
    """A thin bar: the valid share of a block's or warp's threads, the rest masked."""
    c.rect(x, y, w, BAR_H, theme.fill("masked", outline=False))
    if share > 0:  # to scale: a sliver for a few valid threads, whose count is printed
        c.rect(x, y, w * share, BAR_H, Style(fill=theme.color("valid")))
    c.rect(x, y, w, BAR_H, Style(stroke=theme.outline, stroke_width=theme.thin_mm))


_GRIDS: Kept[Any] = Kept(4)  # a dense grid's pixels: a layout search draws it in every design


def _grid_pixels(r: LaunchResult, theme: Theme) -> Any:
    """One pixel per block (valid or masked), x fastest, about twice as wide as high."""
    import numpy as np  # only a large grid needs an image

    cols = math.ceil(math.sqrt(r.blocks * 2))
    rows = -(-r.blocks // cols)
    rgb = np.zeros((rows * cols, 3), dtype=np.uint8)
    rgb[: r.blocks] = np.array(_rgb(theme.color("valid")), dtype=np.uint8)
    rgb[: r.blocks][np.asarray(r.block_valid_all()) == 0] = _rgb(theme.color("masked"))
    rgb[r.blocks:] = _rgb(theme.background)
    out = rgb.reshape(rows, cols, 3)
    out.setflags(write=False)  # shared by every figure drawn with it
    return out


def _grid(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
          floor: float, headed: bool | str = True, slide: bool = False) -> Block:
    """The grid's blocks, one row per dispatch wave: at most 100 mm wide in a wide figure (the
    wave's SMs beside it), the whole width on a slide (its height is the scarcer: 255 blocks
    in rows of 16 drew the grid's slide at 6.6 pt)."""
    c = BlockCanvas()
    pt = theme.small_pt
    _, partly, empty = r.block_counts()
    own_w = min(width, 100.0) if width >= 150 and not slide else width
    top, head_w = _headed(c, theme, own_w, heads(r)["grid"], headed)
    if r.blocks > DENSE_BLOCKS or r.waves > 16:
        rgb = _GRIDS.get((r, theme), "grid", lambda: _grid_pixels(r, theme))
        rows, cols = rgb.shape[:2]
        h = min(32.0, own_w * rows / cols)
        c.image(0.0, top, own_w, h, rgb, key="blocks")
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
               key=keys.key("wave", wave))
        for i, b in enumerate(ids):
            row, col = divmod(i, per_line)
            x0 = label_w + col * cell
            y0 = y + row * (cell_h + BAR_H + 1.0)
            key = keys.key("block", b)
            shown = b == r.selected_block  # the block the warps and lanes parts draw
            with c.group(key):
                c.rect(x0, y0, cell - 0.6, cell_h, shown_style(theme) if shown else Style(
                    fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm))
                c.value(x0, y0 - centre_shift(pt), cell - 0.6, cell_h, str(b), pt,
                        theme.background if shown else theme.foreground, floor=floor, key=key)
                _bar(c, theme, x0, y0 + cell_h + 0.3, cell - 0.6,
                     r.block_valid(b) / r.threads_per_block)
            if key in selection:
                theme.select(c, x0 - 0.3, y0 - 0.3, cell, cell_h + BAR_H + 0.9)
            used_w = max(used_w, x0 + cell)
        lines = -(-len(ids) // per_line)
        y += lines * (cell_h + BAR_H + 1.0) + 0.6
    # a partly valid block's bar may be a sliver: its count in words (the first few, one line)
    partial = [b for b in range(r.blocks) if 0 < r.block_valid(b) < r.threads_per_block]
    if partial:  # a table of counts: block numbers over their valid threads
        listed = partial[:4 if len(partial) > 5 else 5]
        more = [f"+{format_number(len(partial) - len(listed))}"] if len(partial) > len(listed) \
            else []
        table = table_block(["", ""], [[f"block {partial[0]}", (
            f"{format_number(r.block_valid(partial[0]))} of "
            f"{format_number(r.threads_per_block)} threads valid")]], theme, own_w,
            name="partly valid") if len(partial) == 1 else table_block(
            ["partly valid block"] + [str(b) for b in listed] + ([""] if more else []),
            [[f"valid of {format_number(r.threads_per_block)}"]
             + [format_number(r.block_valid(b)) for b in listed] + more],
            theme, own_w, right=[False] + [True] * (len(listed) + len(more)), name="partly valid")
        place(c, table, 0.0, y + 0.6)
        used_w = max(used_w, table.width)
        y += 0.6 + table.height
    return c.block(max(used_w, head_w), y, "blocks")


SLIDE_SLOT_LINES = 8  # on a slide, the SMs drawn take at most this many lines of slots


def _sms(r: LaunchResult, theme: Theme, width: float, floor: float,
         slide: bool = False) -> Block:
    """The selected block's wave on the SMs: the first 8 (on a slide, as many as take
    :data:`SLIDE_SLOT_LINES` lines of slots, at least one: its height is the scarcer), the
    rest counted."""
    c = BlockCanvas()
    pt = theme.small_pt
    n_sm, n_slots = r.sm_count, r.slots_per_sm
    shown = min(n_sm, 8)
    slot_w = max(9.0, text_width(f"B{r.blocks - 1}", pt) + 2.0)
    label_w = text_width(f"SM{shown - 1}", pt) + 2.4
    need = label_w + n_slots * (slot_w + 1) + 1
    w = min(width, max(need, 40.0))
    top, head_w = heading(c, theme, w, f"Wave {r.selected_block_wave} on "
                           f"{count(n_sm, 'synthetic SM')}", "the selected block's wave")
    # slots that cannot hold their label at the floor's size wrap onto more lines inside the
    # SM's frame (21 slots in a column: 2.4 mm each, "B0" and "idle" ran into each other)
    least = max(text_width(f"B{r.blocks - 1}", floor), text_width("idle", floor)) + 1.0
    per_line = max(1, min(n_slots, int((w - label_w - 1) // (least + 1))))
    lines = -(-n_slots // per_line)
    if slide:
        shown = max(1, min(shown, SLIDE_SLOT_LINES // lines))
    slot_w = min(slot_w, (w - label_w - 1) / per_line - 1)
    slot_h = ink_height(pt) + 1.6
    first = r.selected_block_wave * r.slots_per_wave
    y = top
    for s in range(shown):
        frame_h = lines * (slot_h + 1) + 1
        with c.group(keys.key("sm", s)):
            c.rect(0.0, y, label_w + per_line * (slot_w + 1) + 1, frame_h, Style(
                fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm), radius=0.8)
            c.text(0.8, y + 1 + slot_h / 2 + 0.0, f"SM{s}", pt, theme.foreground,
                   baseline="middle")
            for k in range(n_slots):
                b = first + k * n_sm + s
                line, col = divmod(k, per_line)
                bx = label_w + col * (slot_w + 1)
                by = y + 1 + line * (slot_h + 1)
                if b < r.blocks:
                    detail = b == r.selected_block
                    c.rect(bx, by, slot_w, slot_h, shown_style(theme) if detail else Style(
                        fill=theme.background, stroke=theme.outline,
                        stroke_width=theme.thin_mm), key=keys.key("block", b))
                    c.value(bx, by - centre_shift(pt, "sans"), slot_w, slot_h, f"B{b}", pt,
                            theme.background if detail else theme.foreground, floor=floor,
                            font="sans", key=keys.key("block", b))
                else:
                    c.rect(bx, by, slot_w, slot_h, theme.fill("absent"))
                    c.value(bx, by - centre_shift(pt, "sans"), slot_w, slot_h, "idle", pt,
                            theme.muted, floor=floor, font="sans")
        y += frame_h + 1
    if n_sm > shown:
        y += cap_height(pt) + 0.5
        c.text(0.0, y, f"… {format_number(n_sm - shown)} more SMs", pt, theme.muted)
        y += descent(pt)
    return c.block(max(w, head_w), y, "sms")


def _warps(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
           floor: float, headed: bool | str = True) -> Block:
    c = BlockCanvas()
    pt = theme.small_pt
    b = r.selected_block
    n = r.warps_per_block
    top, head_w = _headed(c, theme, width, heads(r)["warps"], headed)
    # a selected warp's double outline reaches 0.3 mm beyond its cell and half its line
    # further: the cells keep that margin, so the outline stays inside the part (and the page)
    reach = 0.3 + theme.highlight().stroke_width / 2
    room = width - 2 * reach + 1.0  # the last cell's gap to its right is not drawn
    # as narrow as the counts at the floor's size (value cells shrink to it), so a block's
    # warps keep one row where they can
    cell = max(10.0, text_width(f"{r.warp_size}/{r.warp_size}", floor, "mono") + 1.6)
    per_row = max(1, min(n, 16, int(room // cell)))
    cell = min(20.0, room / per_row) if n <= per_row else cell
    line_h = ink_height(pt, "mono") + 0.5
    cell_h = 2 * line_h + 0.6
    top += reach
    y = top
    for i in range(n):
        row, col = divmod(i, per_row)
        x0 = reach + col * cell
        y0 = top + row * (cell_h + BAR_H + 1.6)
        key = keys.key("warp", b, i)
        valid = r.warp_valid_lanes[i]
        lanes_in_warp = min(r.warp_size, r.threads_per_block - i * r.warp_size)
        shown = i == r.selected_warp  # the warp the lanes part draws
        ink = theme.background if shown else theme.foreground
        with c.group(key):
            c.rect(x0, y0, cell - 1, cell_h, shown_style(theme) if shown else Style(
                fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm))
            c.value(x0, y0 + 0.3 - centre_shift(pt, "sans"), cell - 1, line_h,
                    f"warp {i}" if cell >= 12 and r.warp_size <= 32 else str(i), pt, ink,
                    floor=floor,
                    font="sans", bold=True, key=key)
            c.value(x0, y0 + 0.3 + line_h - centre_shift(pt), cell - 1, line_h,
                    f"{valid}/{lanes_in_warp}", pt, ink, floor=floor, key=key)
            _bar(c, theme, x0, y0 + cell_h + 0.3, cell - 1, valid / max(lanes_in_warp, 1))
        if key in selection:
            theme.select(c, x0 - 0.3, y0 - 0.3, cell - 0.4, cell_h + BAR_H + 0.9)
        y = y0 + cell_h + BAR_H + 0.3 + reach
    return c.block(min(width, max(2 * reach + per_row * cell - 1.0, head_w)), y, "warps")


def _lanes(r: LaunchResult, selection: frozenset[str], theme: Theme, width: float,
           floor: float, headed: bool | str = True, compact: bool = False, *,
           banded: bool = True) -> Block:
    """The selected warp's lanes; ``banded``: a hatched lane leaves room for its hatch's
    bands (not on a slide, whose height is fixed: 64 lanes would shrink its type below 7 pt)."""
    return _LanesPlan(r, theme, width, floor, headed, compact,
                      banded=banded).draw(selection, theme, floor)


class _LanesPlan:
    """The lanes section's geometry for a width (its heading drawn, its size known) before its
    cells are drawn: the layout search gives up most designs on the size alone."""

    def __init__(self, r: LaunchResult, theme: Theme, width: float, floor: float,
                 headed: bool | str = True, compact: bool = False, *, banded: bool = True):
        self.r = r
        self.c = c = BlockCanvas()
        top, head_w = heading(c, theme, width, *heads(r)["lanes"]) if headed is True \
            else heading(c, theme, width, heads(r)["lanes"][0]) if headed == "bare" \
            else (0.0, 0.0)
        # in a journal column a wavefront of 64 lanes sets its cells at the floor's size (7 pt),
        # as value cells shrink to it, so its rows of cells stay inside the column with large type
        self.pt = pt = floor if compact and r.warp_size > 32 else theme.small_pt
        widest = max([format_number(ln.global_index) for ln in r.lanes
                      if ln.global_index is not None]
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
        # no gutter: the three lines named in a note (never without chrome, whose notes are
        # the caption's: there the gutter names them, at the cost of lanes per row)
        named = per_row < lanes_per_row(width) and headed != "bare"
        if named:
            gutter, row_names, per_row = 0.0, (), lanes_per_row(width)
        if headed not in (True, "bare"):  # no heading: its note (and the rest, "note") above
            title, names = heads(r)["lanes"]
            note = "; ".join(n for n in (_rest(title) if headed else "", names if named else "")
                             if n)
            if note:
                top, head_w = heading(c, theme, width, "", note)
        self.top, self.gutter, self.row_names, self.per_row = top, gutter, row_names, per_row
        self.cell = cell = min((width - gutter) / per_row, 14.0)
        self.line_h = line_h = ink_height(pt, "mono") + 0.5
        # where a lane's fill is hatched, room for the hatch in bands above and below its three
        # lines (bands.clear_glyphs)
        hatched = any(theme.fill(role).hatch for role in ("valid", "masked", "absent"))
        self.band = band = BAND_ROOM / 2 if banded and hatched else 0.0
        self.ch = ch = 3 * line_h + 0.8 + 2 * band
        rows = -(-r.warp_size // per_row)
        self.width = max(gutter + per_row * cell, head_w)
        self.height = top + rows * (ch + 1.2) - 1.2

    def draw(self, selection: frozenset[str], theme: Theme, floor: float) -> Block:
        r, c, pt, top, gutter = self.r, self.c, self.pt, self.top, self.gutter
        per_row, cell, line_h, ch, band = (self.per_row, self.cell, self.line_h, self.ch,
                                           self.band)
        # per role and per font once, not per lane: the layout search builds this section a
        # dozen times for a view
        fills = {role: theme.fill(role) for role in ("valid", "masked", "absent")}
        knocks = {role: theme.background if f.hatch is not None else None
                  for role, f in fills.items()}
        inks = {role: theme.ink_on(role) if not knocks[role] else theme.foreground
                for role in fills}
        shifts = {font: centre_shift(pt, font) for font in ("sans", "mono")}
        for row in range(-(-r.warp_size // per_row)):
            y0 = top + row * (ch + 1.2)
            for k, name in enumerate(self.row_names):
                c.text(0.0, y0 + 0.4 + band + k * line_h + line_h / 2 - shifts["sans"], name, pt,
                       theme.muted, baseline="middle")
        for lane in r.lanes:
            row, col = divmod(lane.lane, per_row)
            x0 = gutter + col * cell
            y0 = top + row * (ch + 1.2)
            key = keys.key("lane", lane.lane)
            role = "valid" if lane.valid else ("masked" if lane.exists else "absent")
            knock = knocks[role]
            with c.group(key):
                c.rect(x0, y0, cell - 0.5, ch, fills[role])
                ink = inks[role]
                gi = "–" if lane.global_index is None else format_number(lane.global_index)
                texts = ((str(lane.lane), "sans", True), (format_number(lane.tid), "mono", False),
                         (gi, "mono", False))
                for k, (text, font, bold) in enumerate(texts):
                    t = c.value(x0, y0 + 0.4 + band + k * line_h - shifts[font], cell - 0.5,
                                line_h, text, pt, ink, floor=floor, font=font, bold=bold,  # type: ignore[arg-type]
                                key=key)
                    if knock:
                        c.replace_last(replace(t, knockout=knock))
            if key in selection:
                theme.select(c, x0 - 0.3, y0 - 0.3, cell + 0.1, ch + 0.6)
        return c.block(self.width, self.height, "lanes")


def _flowed(blocks: Sequence[Block], width: float, name: str) -> Block:
    """``blocks`` left to right, wrapping to a new row when the next does not fit ``width``,
    as one block."""
    c = BlockCanvas()
    places, size = _flow_places([(b.width, b.height) for b in blocks], width)
    for b, (x, y) in zip(blocks, places, strict=True):
        place(c, b, x, y)
    return c.block(*size, name)


def _flowed_size(sizes: Sequence[tuple[float, float]], width: float) -> tuple[float, float]:
    """The size of the block :func:`_flowed` makes of blocks of ``sizes``."""
    return _flow_places(sizes, width)[1]


def _flow_places(sizes: Sequence[tuple[float, float]], width: float
                 ) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """Where :func:`_flowed` puts blocks of ``sizes`` (w, h), and the size of the whole."""
    places = []
    x = y = row_h = used = 0.0
    for w, h in sizes:
        if x > 0 and x + w > width + 1e-6:
            y += row_h + GAP
            x = row_h = 0.0
        places.append((x, y))
        used = max(used, x + w)
        x += w + GAP
        row_h = max(row_h, h)
    return places, (used, y + row_h)


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


__all__: Sequence[str] = ("build",)
