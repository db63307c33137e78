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
SHARE_LEVELS = 5  # shades of a strip bin: none, a quarter … all of its K tiles resident
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
    """The tiles of the shown step: ink, a mark no role and no visit shade uses (green stays
    for hits)."""
    return Style(fill=theme.foreground, stroke=theme.foreground if outline else None,
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
              target: Target = NATURAL, grid: bool = True, strips: bool = True) -> Block:
    """One order: its grid with the visiting path (``grid``) and the A and B tiles resident
    after the shown step (``strips``, left of and above the grid; beside each other alone)."""
    c = BlockCanvas()
    rows, cols, kt = result.rows, result.cols, result.k_tiles
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    c.text(0.0, cap_height(size), run.order_name, size, fg, bold=True)
    top = line_step(size, 1.4)
    if strips and not grid:  # room for the strips' names above them
        top += line_step(small)
    gap = 1.5
    per = k_per_bin(rows, cols, kt) if strips else 1
    kb = -(-kt // per) if strips else 0  # K bins the strips draw
    cell = min(MAX_CELL, (width - gap) / (cols + kb), (GRID_MAX_H - gap) / (rows + kb))
    if not grid:  # the strips alone: A beside B, each as deep as it is
        cell = min(MAX_CELL, (width - 2 * gap) / (kb + cols), (GRID_MAX_H - gap) / max(rows, kb))
    gx, gy = (kb * cell + gap if strips else 0.0), top + (kb * cell + gap if strips else 0.0)
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
            return theme.foreground
        return ramp[shade_of[tile]]

    with c.group(f"run:{run.order_name}", name=run.order_name):
        # The output tile grid: visited tiles graded by visit order, the current step's tiles
        # in ink, the rest blank.
        if not grid:
            pass
        elif vector:
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
            rgb[current] = _rgb(theme.foreground)
            c.image(gx, gy, cols * cell, rows * cell,
                    rgb.reshape(rows, cols, 3).round().astype(np.uint8),
                    key=f"grid:{run.order_name}", cells="tile")
            c.rect(gx, gy, cols * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
        biggest = format_number(n_tiles - 1)
        numbered = (grid and vector and n_tiles <= MAX_NUMBERED
                    and text_width(biggest, small) + 0.9 <= cell
                    and ink_height(small) + 0.9 <= cell * 0.62)
        if grid and vector and n_tiles > 1:
            # The path steps between 4-neighbours; where the order jumps (row-major's return to
            # the next row, a group's next column) it breaks instead of crossing the grid.
            centres = np.stack([gx + (run.order[:, 1] + 0.5) * cell,
                                gy + (run.order[:, 0] + 0.5) * cell], axis=1)
            step_ok = np.abs(np.diff(run.order, axis=0)).sum(axis=1) == 1
            if not numbered:
                # the path still ahead, dashed (where it has been, the solid line below runs)
                _path(c, centres, step_ok, max(0, done - 1), n_tiles,
                      theme.stroke("muted", theme.thin_mm, dash=(0.6, 0.6)),
                      f"path:{run.order_name}")
            if done > 1:
                # The path so far stays light; this step's stretch is drawn strongly.
                _path(c, centres, step_ok, 0, done, theme.stroke("muted", theme.thin_mm * 1.5),
                      f"path:{run.order_name}")
                _path(c, centres, step_ok, max(0, current_lo - 1), done,
                      theme.stroke("foreground", theme.line_mm), f"path:{run.order_name}",
                      arrow=True)
        if numbered:
            # Visit numbers in each cell's upper left, on a knockout of the cell's own colour
            # where the path passes under them.
            for t, (r, k) in enumerate(run.order.tolist()):
                tile = r * cols + k
                ground = fill_of(tile)
                ink = muted if pending[tile] else theme.ink_on(ground)
                c.label(gx + k * cell + 0.45, gy + r * cell + 0.45 + cap_height(small),
                        format_number(t), small, ink, knockout=ground, key=f"tile:{r},{k}")

        # A row tiles to the left, B column tiles above, lit while resident; past a depth of a
        # quarter of the grid, K is drawn in bins of ``per`` tiles, shaded by the share resident.
        def strip(share, mask_load, mask_hit, role, prefix, x, y, nr, nc):
            levels = np.round(share * (SHARE_LEVELS - 1)).astype(np.int64)
            tints = [theme.color("absent")] + [
                theme.mix(theme.color(role), (i + 1) / (SHARE_LEVELS - 1))
                for i in range(SHARE_LEVELS - 1)]
            if not vector:
                # as dense as the grid: one pixel per tile (or bin), still pointable
                rgb = np.empty((nr * nc, 3), dtype=np.uint8)
                rgb[:] = np.array([_rgb(s) for s in tints])[levels.reshape(-1)]
                for mask, colour in ((mask_load, theme.color("miss")),
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
            # keys name the first K tile of a bin
            keys = [f"{prefix}:{i * (per if prefix == 'btile' else 1)},"
                    f"{j * (per if prefix == 'atile' else 1)}" for i, j in base.tolist()]
            flat_levels = levels.reshape(-1)
            for level, tint in enumerate(tints):
                idx = np.flatnonzero(flat_levels == level)
                if len(idx):
                    style = theme.fill("absent" if level == 0 else role, outline=outline)
                    if 0 < level < SHARE_LEVELS - 1:
                        style = Style(fill=tint, stroke=style.stroke,
                                      stroke_width=style.stroke_width, hatch=style.hatch,
                                      hatch_color=style.hatch_color)
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

        if strips:
            a_share, a_load, a_hit, b_share, b_load, b_hit = binned_state(state, per)
            ax, ay = (0.0, gy) if grid else (0.0, top)
            bx, by = (gx, top) if grid else (kb * cell + 2 * gap, top)
            strip(a_share, a_load > 0, a_hit > 0, "a_operand", "atile", ax, ay, rows, kb)
            strip(b_share, b_load > 0, b_hit > 0, "b_operand", "btile", bx, by, kb, cols)
            if not outline:  # each strip's extent, where its cells have no outlines
                c.rect(ax, ay, kb * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
                c.rect(bx, by, cols * cell, kb * cell, theme.stroke("outline", theme.thin_mm))
            # the strips named where they meet (the corner above A and left of B) when it has
            # room, or above each when they are drawn alone
            corner = kb * cell
            if not grid:
                c.text(ax, top - 0.5 - descent(small), "A", small, fg, bold=True)
                c.text(bx, top - 0.5 - descent(small), "B", small, fg, bold=True)
            elif _corner_holds(corner, small):
                c.text(ax + 0.4, ay - 0.5 - descent(small), "A", small, fg, bold=True)
                c.text(bx - 0.5, by + 0.5 + cap_height(small), "B", small, fg, anchor="end",
                       bold=True)
        if selected is not None and grid and strips:
            r, k = selected
            hl = theme.highlight()
            c.rect(gx + k * cell, gy + r * cell, cell, cell, hl)
            c.rect(0.0, gy + r * cell, kt * cell, cell, hl)
            c.rect(gx + k * cell, top, cell, kt * cell, hl)

        # The receipt: this step, so far, the whole order.
        so_far = int(run.cumulative_loads[state.step - 1]) if state.step else 0
        requests = run.hits + run.misses
        rate = format_percent(run.hits / requests) if requests else format_percent(0.0)
        lines: tuple[tuple[str, bool], ...] = (
            (f"after step {state.step} of {result.steps}: {_count(state.hits, 'hit')}, "
             f"{_count(state.loads, 'load')}", True),
            (f"{_count(so_far, 'load')} so far", False),
            (f"whole order: {format_number(run.misses)} loads (A {format_number(run.a_loads)}, "
             f"B {format_number(run.b_loads)}), {_count(run.hits, 'hit')} ({rate} of "
             f"requests)", False),
        )
        y = (gy + rows * cell + 1.5) if grid else (top + max(rows, kb) * cell + 1.5)
        used = (gx + cols * cell) if grid else (kb + cols) * cell + 2 * gap
        if strips and per > 1:
            lines = ((f"A, B: {per} K tiles a cell, paler if fewer resident", False), *lines)
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


def _corner_holds(corner: float, size: float) -> bool:
    """Whether the corner above strip A and left of strip B (``corner`` mm square) holds "A"
    at its lower left and "B" at its upper right without their boxes meeting."""
    wa, wb, h = text_width("A", size, bold=True), text_width("B", size, bold=True), \
        ink_height(size)
    alone = max(wa, wb) + 0.9 <= corner and h + 1.0 <= corner
    apart = wa + wb + 1.3 <= corner or 2 * h + 1.5 <= corner
    return alone and apart


def k_per_bin(rows: int, cols: int, k_tiles: int) -> int:
    """K tiles per strip bin: the strips stay within a quarter of the grid's longer side (at
    least 4 bins deep) so the grid keeps most of the area."""
    most = max(4, -(-max(rows, cols) // 4))
    return 1 if k_tiles <= most else -(-k_tiles // most)


_BINNED: dict[tuple[int, int], tuple] = {}


def binned_state(state: StepState, per: int) -> tuple:
    """The A and B strips of a state in bins of ``per`` K tiles: (share resident, any loaded,
    any hit and none loaded) for A, then for B. Kept for the state last asked about (a layout
    search builds the same strips at several widths)."""
    key = (id(state), per)
    kept = _BINNED.get(key)
    if kept is None or kept[6] is not state:
        a = [_bin(m, per, axis=1) for m in (state.a_resident, state.a_loaded, state.a_hit)]
        b = [_bin(m, per, axis=0) for m in (state.b_resident, state.b_loaded, state.b_hit)]
        a[2], b[2] = np.where(a[1] > 0, 0.0, a[2]), np.where(b[1] > 0, 0.0, b[2])
        kept = (*a, *b, state)  # the state kept alive with it, so its id is not reused
        if len(_BINNED) > 8:
            _BINNED.clear()
        _BINNED[key] = kept
    return kept[:6]


def _bin(mask: np.ndarray, per: int, axis: int) -> np.ndarray:
    """The share of each bin of ``per`` K tiles (along ``axis``) that is set."""
    if per == 1:
        return mask.astype(float)
    k = mask.shape[axis]
    bins = -(-k // per)
    shape = list(mask.shape)
    shape[axis] = bins * per
    padded = np.zeros(shape, dtype=float)
    padded[(slice(None), slice(0, k)) if axis == 1 else (slice(0, k), slice(None))] = mask
    counts = np.full(bins, per, dtype=float)
    counts[-1] = k - per * (bins - 1)
    if axis == 1:
        return padded.reshape(mask.shape[0], bins, per).sum(axis=2) / counts[None, :]
    return padded.reshape(bins, per, mask.shape[1]).sum(axis=1) / counts[:, None]


def _path(c: BlockCanvas, centres: np.ndarray, step_ok: np.ndarray, lo: int, hi: int,
          style: Style, key: str, arrow: bool = False) -> None:
    """The path through positions lo … hi − 1 as one batch of 4-neighbour steps (a jump is
    left out); ``arrow``: an arrowhead on its last step."""
    idx = np.arange(lo, max(lo, hi - 1))
    idx = idx[step_ok[idx]] if len(idx) else idx
    if not len(idx):
        return
    seg = np.concatenate([centres[idx], centres[idx + 1]], axis=1)
    if arrow:
        if len(seg) > 1:
            c.segments(seg[:-1], style, [key] * (len(seg) - 1))
        c.polyline([tuple(seg[-1, :2]), tuple(seg[-1, 2:])], style, key=key, arrow_end=True)
    else:
        c.segments(seg, style, [key] * len(seg))


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
    entries = [LegendEntry("tiles of this step", current_style(theme), parts=PATH),
               LegendEntry("not yet visited", theme.fill("absent"), parts=RUN),
               LegendEntry("A tile resident (strip A, left of C)", theme.fill("a_operand"),
                           parts=RESIDENT),
               LegendEntry("B tile resident (strip B, above C)", theme.fill("b_operand"),
                           parts=RESIDENT),
               LegendEntry("loaded in this step (miss)", theme.fill("miss"), parts=RESIDENT),
               LegendEntry("hit in this step", hit_style(theme), "dot", parts=RESIDENT)]
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
    log = log_axis(result.capacities)
    return plot_block(sweep, theme, width, height, x_label="cache capacity",
                      x_unit="tiles, log scale" if log else "tiles", y_label="misses",
                      y_unit="tile loads", marks=marks, key="plot:sweep",
                      title=SWEEP_LABELS[0], target=target, name="sweep plot", x_log=log)


def log_axis(capacities) -> bool:
    """Whether the sweep reads on a log axis: its capacities span a factor of 100 or more."""
    return bool(capacities) and min(capacities) > 0 and \
        max(capacities) >= 100 * min(capacities)


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
    """What a cache sized from the L2 leaves out (none for a cache given in tiles), and the H200's
    measured DRAM traffic beside the model's where these parameters were measured."""
    if result.cache == "tiles":
        return []
    which = ("one L2 partition, half the L2 (on an H200 within 1.5 % of the measured DRAM "
             "traffic for six orders at N = 8192 and 16384, 5 % at 2048–8192 with K steps of 64; "
             "at 4096, where A and B are about twice a partition, off by −24 % to +34 %; "
             "docs/hardware-notes.md)"
             if result.cache == "l2-partition"
             else "the whole L2 (on an H200 it overestimates reuse near the L2's size)")
    notes = [f"L2 model: an LRU of {which}. Left out: set associativity, address hashing, C "
             "write-back and other traffic."]

    measured = measured_note(result)
    return notes + ([measured] if measured else [])


NEAR = 0.10  # a model this far from the measurement says why on the figure


def measured_note(result: TraversalResult) -> str:
    """"H200 measured (Nsight Compute): 12.7 × the bytes of A and B; this model 12.6 × (1 %
    under)", with the reason where they differ by more than NEAR; "" where not measured."""
    from gpuviz.measurements import lookup, number

    m = lookup("traversal", result._params)
    if m is None:
        return ""
    off = m.difference(result.operand_traffic)
    text = (f"{m.device.replace('NVIDIA ', '')} measured (Nsight Compute, DRAM bytes read): "
            f"{number(m.measured)} × the bytes of A and B; this model "
            f"{number(result.operand_traffic)} × ({abs(off) * 100:.0f} % "
            f"{'over' if off > 0 else 'under'}).")
    if abs(off) > NEAR:
        text += (" A and B are about twice one partition here: every reuse distance sits near "
                 "the capacity, where an LRU's all-or-nothing rule is least like the real L2 "
                 "(the blocks' schedule and the K step were measured and ruled out).")
    return text


PATH = ("path",)  # an order's grid of C tiles and its visiting path
RESIDENT = ("resident",)  # the A and B tiles resident after the shown step, hits and loads
RUN = PATH + RESIDENT
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
        grid, strips = target.shows(*PATH), target.shows(*RESIDENT)
        drawn = (PATH if grid else ()) + (RESIDENT if strips else ())
        blocks = [as_part(drawn, run_block(result, run, state, theme,
                                           each if len(runs) > 1 else width, selected, target,
                                           grid=grid, strips=strips))
                  for run, state in zip(runs, states, strict=True)] if drawn else []
        blocks.append(as_part("loads", loads_plot(result, frame, theme, each, target)))
        blocks.append(as_part("sweep", sweep_plot(result, theme, each, target)))
        return blocks

    def side(width: float) -> list[Block]:
        return [as_part(PATH, ramp_block(theme, width, target), "legend"),
                plot_legend_block(legend_entries(result, theme), theme, width, target=target,
                                  notes=model_notes(result))]

    return compose(target, theme, title="Output-tile order and cache reuse",
                   subtitle=subtitle(result), body=body, side=side,
                   natural_width=NATURAL_WIDTH,
                   figure_title="Traversal: output-tile order and reuse",
                   description=f"The {result.order_name} order over {result.rows} × "
                               f"{result.cols} output tiles through an LRU cache, at step "
                               f"{frame} of {result.steps}.")
