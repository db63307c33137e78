"""Output-tile traversal: the path over the tile grid, the A row and B column tiles resident in
the LRU cache at a step, what that step hit and loaded, and the sweep of misses against capacity.

The selection may hold ``frame:<n>``: show the state after n steps (0 = before the first step;
absent = after the last). :func:`frame_count` says how many frames a playback has.

Keys: ``tile:r,c`` (output tiles, in every grid drawn), ``atile:r,kk`` and ``btile:kk,c`` (the
A row and B column tiles beside a grid), ``grid:<order>`` (a grid too dense to draw cell by cell,
drawn as an image), ``path:<order>`` (the visiting path), ``run:<order>`` (one order's panel),
``plot:sweep`` and ``plot:loads`` (the plots) and ``series:<label>`` (their lines).
Selecting ``tile:r,c`` outlines that tile and the A and B tiles it needs.

The pieces are functions of the data and the theme (:func:`run_block`, :func:`loads_plot`,
:func:`sweep_plot`, :func:`legend_entries`), so a dock can draw the same plots in the same style.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from gpuviz.figures.display import Figure, Style
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Target,
    as_part,
    compose,
    format_number,
    format_percent,
    line_step,
    place,
    text_block,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.plot import (
    Mark,
    Series,
    mark_style,
    plot_block,
    plot_legend_block,
    series_legend,
)
from gpuviz.figures.theme import Theme
from gpuviz.models.traversal import SWEEP_ORDERS, OrderRun, StepState, TraversalResult, state_after

NATURAL_WIDTH = 176.0
GRID_MAX_H = 78.0
MAX_CELL = 7.0
VECTOR_MIN_CELL = 1.6  # below this a grid is drawn as an image
PLOT_POINTS = 400
PLOT_H = 52.0
MAX_NUMBERED = 128  # more visit numbers cost more to paint than they help to read
SHADES = 6
TWO_UP = 140.0  # narrower than this, the two orders and the two plots stack
COLUMN_MIN = 66.0  # wide enough for every order and the plots in one row of such columns


def frame_count(result: TraversalResult) -> int:
    """Frames of a playback: before the first step, then after each step."""
    return result.steps + 1


def _frame(result: TraversalResult, selection: frozenset[str]) -> int:
    """The frame the selection asks for (the earliest if several do, as every animated panel
    reads it); after the last step when none does."""
    frames = [int(k[6:]) for k in selection if k.startswith("frame:") and k[6:].isdigit()]
    return max(0, min(min(frames), result.steps)) if frames else result.steps


def _selected_tile(selection: frozenset[str], rows: int, cols: int) -> tuple[int, int] | None:
    for key in sorted(selection):
        if key.startswith("tile:"):
            try:
                r, c = (int(v) for v in key[5:].split(","))
            except ValueError:
                continue
            if 0 <= r < rows and 0 <= c < cols:
                return r, c
    return None


def _rgb(color: str) -> np.ndarray:
    return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def shades(theme: Theme) -> list[str]:
    """Visit-order shades, first to last: the theme's 'valid' colour through a lifting veil of
    background (later tiles carry more of the colour: darker on a light ground, brighter on a
    dark one)."""
    return [theme.mix(theme.color("valid"), 0.2 + 0.55 * i / (SHADES - 1))
            for i in range(SHADES)]


def color_index(order_name: str) -> int:
    """The palette entry (and dash) of an order, the same in every plot and legend."""
    return SWEEP_ORDERS.index(order_name) if order_name in SWEEP_ORDERS else 4


def _count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}" + ("" if n == 1 else "s")


def current_style(theme: Theme, outline: bool = True) -> Style:
    return Style(fill=theme.color("c_output"), stroke=theme.foreground if outline else None,
                 stroke_width=theme.line_mm if outline else 0.0)


def hit_style(theme: Theme) -> Style:
    return Style(fill=theme.color("hit"), stroke=theme.foreground, stroke_width=theme.thin_mm)


def now_style(theme: Theme) -> Style:
    """The dot on each plot at the shown step and at the chosen capacity."""
    return mark_style(theme)


# --------------------------------------------------------------------------------------------
# One order's panel: the grid, its A and B strips, and its receipt


def run_block(result: TraversalResult, run: OrderRun, state: StepState, theme: Theme,
              width: float, selected: tuple[int, int] | None = None,
              target: Target = NATURAL) -> Block:
    c = BlockCanvas()
    rows, cols, kt = result.rows, result.cols, result.k_tiles
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    c.text(0.0, cap_height(size), run.order_name, size, fg, bold=True)
    top = line_step(size, 1.4)
    gap = 1.5
    cell = min(MAX_CELL, (width - gap) / (cols + kt), (GRID_MAX_H - gap) / (rows + kt))
    gx, gy = kt * cell + gap, top + kt * cell + gap
    vector = cell >= VECTOR_MIN_CELL
    outline = cell >= 2.0
    n_tiles = rows * cols
    position = np.empty(n_tiles, dtype=np.int64)  # visit position of each tile
    flat = run.order[:, 0] * cols + run.order[:, 1]
    position[flat] = np.arange(n_tiles)
    done = state.visited
    current_lo = (state.step - 1) * result.in_flight if state.step else 0
    ramp = shades(theme)
    shade_of = np.minimum(position * SHADES // max(n_tiles, 1), SHADES - 1)
    pending = position >= done
    current = (position >= current_lo) & (position < done)

    def fill_of(tile: int) -> str:
        if pending[tile]:
            return theme.color("absent")
        if current[tile]:
            return theme.color("c_output")
        return ramp[shade_of[tile]]

    with c.group(f"run:{run.order_name}", name=run.order_name):
        # The output tile grid: visited tiles graded by visit order, the current step's tiles
        # in the output colour, the rest blank.
        if vector:
            rr, cc = np.divmod(np.arange(n_tiles), cols)
            xywh = np.stack([gx + cc * cell, gy + rr * cell, np.full(n_tiles, cell),
                             np.full(n_tiles, cell)], axis=1)
            keys = [f"tile:{r},{k}" for r, k in zip(rr.tolist(), cc.tolist(), strict=True)]
            groups = [(pending, theme.fill("absent", outline=outline))]
            for s in range(SHADES):
                groups.append(((~pending) & (~current) & (shade_of == s),
                               Style(fill=ramp[s], stroke=theme.outline if outline else None,
                                     stroke_width=theme.thin_mm if outline else 0.0)))
            groups.append((current, current_style(theme, outline)))
            for mask, style in groups:
                idx = np.flatnonzero(mask)
                if len(idx):
                    c.rects(xywh[idx], style, [keys[i] for i in idx])
        else:
            rgb = np.empty((n_tiles, 3), dtype=float)
            shade_rgb = np.array([_rgb(s) for s in ramp])
            rgb[:] = shade_rgb[shade_of]
            rgb[pending] = _rgb(theme.color("absent"))
            rgb[current] = _rgb(theme.color("c_output"))
            c.image(gx, gy, cols * cell, rows * cell,
                    rgb.reshape(rows, cols, 3).round().astype(np.uint8),
                    key=f"grid:{run.order_name}", cells="tile")
            c.rect(gx, gy, cols * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
        biggest = format_number(n_tiles - 1)
        numbered = (vector and n_tiles <= MAX_NUMBERED
                    and text_width(biggest, small) + 0.9 <= cell
                    and ink_height(small) + 0.9 <= cell * 0.62)
        if vector and n_tiles > 1:
            centres = [(gx + (k + 0.5) * cell, gy + (r + 0.5) * cell)
                       for r, k in run.order.tolist()]
            if not numbered:
                # the path still ahead, dashed (where it has been, the solid line below runs)
                c.polyline(centres[max(0, done - 1):] if done > 1 else centres,
                           theme.stroke("muted", theme.thin_mm, dash=(0.6, 0.6)),
                           key=f"path:{run.order_name}")
            if done > 1:
                # The path so far stays light; this step's stretch is drawn strongly.
                c.polyline(centres[:done], theme.stroke("muted", theme.thin_mm * 1.5),
                           key=f"path:{run.order_name}")
                recent = centres[max(0, current_lo - 1):done]
                if len(recent) > 1:
                    c.polyline(recent, theme.stroke("foreground", theme.line_mm),
                               key=f"path:{run.order_name}", arrow_end=True)
        if numbered:
            # Visit numbers in each cell's upper left, on a knockout of the cell's own colour
            # where the path passes under them.
            for t, (r, k) in enumerate(run.order.tolist()):
                tile = r * cols + k
                ground = fill_of(tile)
                ink = muted if pending[tile] else theme.ink_on(ground)
                c.label(gx + k * cell + 0.45, gy + r * cell + 0.45 + cap_height(small),
                        format_number(t), small, ink, knockout=ground, key=f"tile:{r},{k}")

        # A row tiles to the left, B column tiles above, lit while resident.
        def strip(mask_res, mask_load, mask_hit, role, prefix, x, y, nr, nc):
            if not vector:
                # as dense as the grid: one pixel per tile, still pointable tile by tile
                rgb = np.empty((nr * nc, 3), dtype=np.uint8)
                rgb[:] = _rgb(theme.color("absent"))
                for mask, colour in ((mask_res, theme.color(role)),
                                     (mask_load, theme.color("miss")),
                                     (mask_hit, theme.color("hit"))):
                    rgb[mask.reshape(-1)] = _rgb(colour)
                c.image(x, y, nc * cell, nr * cell, rgb.reshape(nr, nc, 3), key=prefix,
                        cells=prefix)
                hatch = theme.hatches.get("miss")
                if hatch:
                    # where the theme hatches loads (print), the loaded tiles' runs carry the
                    # legend's hatch too: a cell under a millimetre is too small for it alone
                    runs = [(x + j * cell, y + i * cell, w * cell, h * cell)
                            for i, j, h, w in _runs(mask_load.reshape(nr, nc))]
                    if runs:
                        c.rects(runs, Style(hatch=hatch, hatch_color=theme.foreground))
                c.rect(x, y, nc * cell, nr * cell, theme.stroke("outline", theme.thin_mm))
                return
            base = np.stack(np.divmod(np.arange(nr * nc), nc), axis=1)
            xywh = np.stack([x + base[:, 1] * cell, y + base[:, 0] * cell,
                             np.full(len(base), cell), np.full(len(base), cell)], axis=1)
            keys = [f"{prefix}:{i},{j}" for i, j in base.tolist()]
            res = mask_res.reshape(-1)
            for mask, style in ((~res, theme.fill("absent", outline=outline)),
                                (res, theme.fill(role, outline=outline))):
                idx = np.flatnonzero(mask)
                if len(idx):
                    c.rects(xywh[idx], style, [keys[i] for i in idx])
            # This step's requests: a square for a miss (a load), a dot for a hit; shapes as
            # well as colours, so grayscale keeps them apart.
            loaded = np.flatnonzero(mask_load.reshape(-1))
            hit = np.flatnonzero(mask_hit.reshape(-1))
            if not outline:
                for idx, role_ in ((loaded, "miss"), (hit, "hit")):
                    if len(idx):
                        c.rects(xywh[idx], theme.fill(role_, outline=False),
                                [keys[i] for i in idx])
                return
            inset = cell * 0.22
            if len(loaded):
                c.rects(xywh[loaded] + np.array([inset, inset, -2 * inset, -2 * inset]),
                        theme.fill("miss"))
            for i in hit.tolist():
                c.circle(xywh[i, 0] + cell / 2, xywh[i, 1] + cell / 2, cell * 0.2,
                         hit_style(theme))

        strip(state.a_resident, state.a_loaded, state.a_hit, "a_operand", "atile",
              0.0, gy, rows, kt)
        strip(state.b_resident, state.b_loaded, state.b_hit, "b_operand", "btile",
              gx, top, kt, cols)
        if selected is not None:
            r, k = selected
            hl = theme.highlight()
            c.rect(gx + k * cell, gy + r * cell, cell, cell, hl)
            c.rect(0.0, gy + r * cell, kt * cell, cell, hl)
            c.rect(gx + k * cell, top, cell, kt * cell, hl)

        # The receipt: this step, so far, the whole order.
        so_far = int(run.cumulative_loads[state.step - 1]) if state.step else 0
        requests = run.hits + run.misses
        rate = format_percent(run.hits / requests) if requests else format_percent(0.0)
        lines = (
            (f"after step {state.step} of {result.steps}: {_count(state.hits, 'hit')}, "
             f"{_count(state.loads, 'load')}", True),
            (f"{_count(so_far, 'load')} so far", False),
            (f"whole order: {format_number(run.misses)} loads (A {format_number(run.a_loads)}, "
             f"B {format_number(run.b_loads)}), {_count(run.hits, 'hit')} ({rate} of "
             f"requests)", False),
        )
        y = gy + rows * cell + 1.5
        used = gx + cols * cell
        for text, bold in lines:
            for line in wrap(text, small, width, bold=bold):
                y += line_step(small)
                c.text(0.0, y, line, small, fg if bold else muted, bold=bold)
                used = max(used, text_width(line, small, bold=bold))
    return c.block(min(width, used), y + descent(small), f"run {run.order_name}")


def _runs(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The set cells of a 2-D mask as runs (row, col, rows, cols) along its longer side."""
    along_rows = mask.shape[0] >= mask.shape[1]
    grid = mask.T if along_rows else mask
    runs = []
    for line, cells in enumerate(grid.tolist()):
        start = None
        for k, on in enumerate([*cells, False]):
            if on and start is None:
                start = k
            elif not on and start is not None:
                runs.append((start, line, k - start, 1) if along_rows
                            else (line, start, 1, k - start))
                start = None
    return runs


def ramp_block(theme: Theme, width: float, target: Target = NATURAL) -> Block:
    """The visit-order shading as a ramp from the first visited tiles to the last."""
    c = BlockCanvas()
    small = max(theme.small_pt, target.min_pt)
    fg = theme.foreground
    sw = max(2.6, cap_height(small) * 1.25)
    lead, tail = "visited tiles, first", "last"
    x = 0.0
    mid = sw / 2
    c.text(x, mid, lead, small, fg, baseline="middle")
    x += text_width(lead, small) + 1.0
    for s in shades(theme):
        c.rect(x, 0.0, sw, sw, Style(fill=s, stroke=theme.outline, stroke_width=theme.thin_mm))
        x += sw
    x += 1.0
    c.text(x, mid, tail, small, fg, baseline="middle")
    x += text_width(tail, small)
    return c.block(min(width, x), sw, "visit order")


def legend_entries(result: TraversalResult, theme: Theme) -> list[LegendEntry]:
    """The grids' marks and the plots' lines, one entry each."""
    entries = [LegendEntry("tiles of this step", current_style(theme), parts=RUN),
               LegendEntry("not yet visited", theme.fill("absent"), parts=RUN),
               LegendEntry("A tile resident", theme.fill("a_operand"), parts=RUN),
               LegendEntry("B tile resident", theme.fill("b_operand"), parts=RUN),
               LegendEntry("loaded in this step (miss)", theme.fill("miss"), parts=RUN),
               LegendEntry("hit in this step", hit_style(theme), "dot", parts=RUN)]
    entries += [replace(e, parts=PLOTS) for e in series_legend(_plot_series(result), theme)]
    entries.append(LegendEntry("shown step; chosen capacity", now_style(theme), "dot",
                               parts=PLOTS))
    return entries


# --------------------------------------------------------------------------------------------
# The plots


def _plot_series(result: TraversalResult) -> list[Series]:
    """The orders the plots draw (every order of the sweep when it was computed, else the
    orders shown above), as label-only series for the legend."""
    names = list(result.cumulative_loads_by_order) or [result.order_name] + (
        [result.compare.order_name] if result.compare is not None else [])
    names += [n for n in result.misses_by_order if n not in names]
    return [Series(n, (), (), color_index(n)) for n in names]


def loads_plot(result: TraversalResult, frame: int, theme: Theme, width: float,
               target: Target = NATURAL, height: float = PLOT_H) -> Block:
    """Cumulative loads against step, one line per order, a dot at the shown step."""
    runs = [result._main] + ([result.compare] if result.compare is not None else [])
    curves = dict(result.cumulative_loads_by_order) or {
        run.order_name: tuple(run.cumulative_loads.tolist()) for run in runs}
    # Past a few hundred steps, evenly spaced samples (always with the last) draw the same line.
    picked = np.unique(np.linspace(0, result.steps - 1, min(result.steps, PLOT_POINTS))
                       .round().astype(np.int64))
    steps = (picked + 1).tolist()
    series = [Series(name, steps, np.asarray(vals)[picked].tolist(), color_index(name))
              for name, vals in curves.items()]
    marks: tuple[Mark, ...] = ()
    if frame > 0:
        marks = (Mark(frame, float(result.cumulative_loads[frame - 1]), ""),)
    per_step = f"{_count(result.in_flight, 'tile')} each"
    return plot_block(series, theme, width, height, x_label="step", x_unit=per_step,
                      y_label="loads so far", y_unit="tiles", marks=marks, key="plot:loads",
                      title="Loads so far, step by step", target=target, name="loads plot")


SWEEP_LABELS = ("Sweep: misses against cache capacity", "cache capacity (tiles)",
                "misses (tile loads)")


def sweep_series(capacities, misses_by_order, capacity: int | None,
                 order_name: str) -> tuple[list[Series], tuple[Mark, ...]]:
    """The sweep plot's data (misses against capacity per order, the current capacity marked):
    one definition for the figure and the dock's interactive plot."""
    sweep = [Series(name, list(capacities), list(vals), color_index(name),
                    markers=len(capacities) <= 40)
             for name, vals in misses_by_order.items()]
    marks: tuple[Mark, ...] = ()
    if capacity is not None and capacity in capacities and order_name in misses_by_order:
        i = list(capacities).index(capacity)
        marks = (Mark(capacity, misses_by_order[order_name][i], ""),)
    return sweep, marks


def sweep_plot(result: TraversalResult, theme: Theme, width: float, target: Target = NATURAL,
               height: float = PLOT_H) -> Block:
    """Misses against cache capacity, one line per order, a dot at the chosen capacity."""
    if not result.capacities:
        return text_block("(sweep not computed: turn on 'sweep')", theme, width,
                          color=theme.muted, name="sweep plot")
    sweep, marks = sweep_series(result.capacities, result.misses_by_order, result.capacity,
                                result.order_name)
    return plot_block(sweep, theme, width, height, x_label="cache capacity", x_unit="tiles",
                      y_label="misses", y_unit="tile loads", marks=marks, key="plot:sweep",
                      title=SWEEP_LABELS[0], target=target, name="sweep plot")


def plots_column(result: TraversalResult, frame: int, theme: Theme, width: float,
                 target: Target = NATURAL) -> Block:
    """Both plots, one above the other, a little lower than on their own."""
    c = BlockCanvas()
    top = loads_plot(result, frame, theme, width, target, PLOT_H * 0.8)
    bottom = sweep_plot(result, theme, width, target, PLOT_H * 0.8)
    place(c, top, 0.0, 0.0)
    place(c, bottom, 0.0, top.height + GAP)
    return c.block(max(top.width, bottom.width), top.height + GAP + bottom.height, "plots")


# --------------------------------------------------------------------------------------------
# The figure


def subtitle(result: TraversalResult) -> str:
    cap = "unbounded" if result.capacity is None else _count(result.capacity, "tile")
    depth = ("K folded away (k_tiles = 1)" if result.k_tiles == 1
             else f"each panel {format_number(result.k_tiles)} tiles deep along K")
    return (f"{format_number(result.rows)} × {format_number(result.cols)} output tiles. Tile "
            f"(i, j) needs A row panel i and B column panel j. {depth[0].upper()}{depth[1:]}. "
            f"{_count(result.in_flight, 'tile')} in flight per step. " + (
                f"LRU cache of {cap}; loads counted in tiles." if result.cache == "tiles" else
                f"{result.cache_label}; loads counted in tiles."))


def model_notes(result: TraversalResult) -> list[str]:
    """What a cache sized from the L2 leaves out (none for a cache given in tiles)."""
    if result.cache == "tiles":
        return []
    which = ("one L2 partition, half the L2 (on an H200 within 5 % of measured DRAM traffic "
             "for N = 2048–8192, except the Hilbert order at 4096; docs/hardware-notes.md)"
             if result.cache == "l2-partition"
             else "the whole L2 (on an H200 it overestimates reuse near the L2's size)")
    return [f"L2 model: an LRU of {which}. Left out: set associativity, address hashing, C "
            "write-back and other traffic."]


RUN = ("path",)  # an order's grids: its visit path over C, with what is resident of A and B
PLOTS = ("loads", "sweep")


def build(result: TraversalResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    frame = _frame(result, selection)
    selected = _selected_tile(selection, result.rows, result.cols)
    runs = [result._main] + ([result.compare] if result.compare is not None else [])
    states = [state_after(run, result.rows, result.cols, result.k_tiles, result.in_flight,
                          result.capacity, frame) for run in runs]

    def body(width: float) -> list[Block]:
        columns = len(runs) + 1
        if width >= COLUMN_MIN * columns + GAP * (columns - 1) and target.whole:
            # Wide (a slide, a wide view): the orders and a column of both plots side by side.
            each = (width - GAP * (columns - 1)) / columns
            blocks = [run_block(result, run, state, theme, each, selected, target)
                      for run, state in zip(runs, states, strict=True)]
            return [*blocks, plots_column(result, frame, theme, each, target)]
        two_up = width >= TWO_UP
        each = (width - GAP) / 2 if two_up else width
        blocks = [as_part(RUN, run_block(result, run, state, theme,
                                         each if len(runs) > 1 else width, selected, target))
                  for run, state in zip(runs, states, strict=True)]
        blocks.append(as_part("loads", loads_plot(result, frame, theme, each, target)))
        blocks.append(as_part("sweep", sweep_plot(result, theme, each, target)))
        return blocks

    def side(width: float) -> list[Block]:
        return [as_part(RUN, ramp_block(theme, width, target), "legend"),
                plot_legend_block(legend_entries(result, theme), theme, width, target=target,
                                  notes=model_notes(result))]

    return compose(target, theme, title="Output-tile order and cache reuse",
                   subtitle=subtitle(result), body=body, side=side,
                   natural_width=NATURAL_WIDTH,
                   figure_title="Traversal: output-tile order and reuse",
                   description=f"{result.order_name} order over {result.rows} × {result.cols} "
                               f"tiles, state after step {frame} of {result.steps}.")
