"""Output-tile traversal: the path over the tile grid, the A row and B column tiles resident in
the LRU cache at a step, what that step hit and loaded, and the sweep of misses against capacity.

The selection may hold ``frame:<n>``: show the state after n steps (0 = before the first step;
absent = after the last). :func:`frame_count` says how many frames a playback has.

Keys: ``tile:r,c`` (output tiles, in every grid drawn), ``atile:r,kk`` and ``btile:kk,c`` (the
A row and B column tiles beside a grid), ``grid:<order>`` (a grid too dense to draw cell by cell,
drawn as an image), ``path:<order>`` (the visiting path), ``run:<order>`` (one order's panel),
``plot:sweep`` and ``plot:loads`` (the plots) and ``series:<label>`` (their lines).
Selecting ``tile:r,c`` outlines that tile and the A and B tiles it needs.
"""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import PT_TO_MM, Canvas, Figure, Style, text_width
from gpuviz.figures.plot import Mark, Series, line_plot
from gpuviz.figures.theme import Theme
from gpuviz.figures.type_scale import build_for_type_size
from gpuviz.models.traversal import SWEEP_ORDERS, OrderRun, StepState, TraversalResult, state_after

WIDTH = 176.0
MARGIN = 6.0
GRID_MAX_H = 78.0
MAX_CELL = 7.0
VECTOR_MIN_CELL = 1.6  # below this a grid is drawn as an image
NUMBER_MIN_CELL = 4.5
PLOT_POINTS = 400
MAX_NUMBERED = 128  # more visit numbers cost more to paint than they help to read
SHADES = 6


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


def _shades(theme: Theme) -> list[str]:
    """Visit-order shades: the theme's 'valid' colour through a lifting veil of background."""
    return [theme.mix(theme.color("valid"), 0.2 + 0.55 * i / (SHADES - 1))
            for i in range(SHADES)]


def sweep_series(capacities, misses_by_order, capacity: int | None,
                 order_name: str) -> tuple[list[Series], tuple[Mark, ...]]:
    """The sweep plot's data (misses against capacity per order, the current capacity marked):
    one definition for the figure and the dock's plot."""
    sweep = [Series(name, list(capacities), list(vals), _color_index(name),
                    markers=len(capacities) <= 40)
             for name, vals in misses_by_order.items()]
    marks: tuple[Mark, ...] = ()
    if capacity in capacities and order_name in misses_by_order:
        i = list(capacities).index(capacity)
        marks = (Mark(capacity, misses_by_order[order_name][i], ""),)
    return sweep, marks


SWEEP_LABELS = ("Sweep: misses against cache capacity", "cache capacity (tiles)",
                "misses (tile loads)")


def _color_index(order_name: str) -> int:
    return SWEEP_ORDERS.index(order_name) if order_name in SWEEP_ORDERS else 4


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _current_style(theme: Theme, outline: bool) -> Style:
    return Style(fill=theme.color("c_output"), stroke=theme.foreground if outline else None,
                 stroke_width=theme.line_mm if outline else 0.0)


def _run_panel(c: Canvas, result: TraversalResult, run: OrderRun, state: StepState,
               x0: float, y0: float, width: float, selected: tuple[int, int] | None,
               theme: Theme) -> float:
    rows, cols, kt = result.rows, result.cols, result.k_tiles
    size, small = theme.text_pt, theme.small_pt
    em = small * PT_TO_MM
    fg, muted = theme.foreground, theme.muted
    c.text(x0, y0 + 3.0, run.order_name, size, fg, bold=True)
    top = y0 + 6.0
    gap = 1.5
    cell = min(MAX_CELL, (width - gap) / (cols + kt), (GRID_MAX_H - gap) / (rows + kt))
    gx, gy = x0 + kt * cell + gap, top + kt * cell + gap
    vector = cell >= VECTOR_MIN_CELL
    outline = cell >= 2.0
    n_tiles = rows * cols
    position = np.empty(n_tiles, dtype=np.int64)  # visit position of each tile
    flat = run.order[:, 0] * cols + run.order[:, 1]
    position[flat] = np.arange(n_tiles)
    done = state.visited
    current_lo = (state.step - 1) * result.in_flight if state.step else 0
    shades = _shades(theme)
    shade_of = np.minimum(position * SHADES // max(n_tiles, 1), SHADES - 1)

    with c.group(f"run:{run.order_name}", name=run.order_name):
        # The output tile grid: visited tiles graded by visit order, the current step's tiles
        # in the output colour, the rest blank.
        if vector:
            rr, cc = np.divmod(np.arange(n_tiles), cols)
            xywh = np.stack([gx + cc * cell, gy + rr * cell, np.full(n_tiles, cell),
                             np.full(n_tiles, cell)], axis=1)
            keys = [f"tile:{r},{k}" for r, k in zip(rr.tolist(), cc.tolist(), strict=True)]
            pending = position >= done
            current = (position >= current_lo) & (position < done)
            groups = [(pending, theme.fill("absent", outline=outline))]
            for s in range(SHADES):
                groups.append(((~pending) & (~current) & (shade_of == s),
                               Style(fill=shades[s], stroke=theme.outline if outline else None,
                                     stroke_width=theme.thin_mm if outline else 0.0)))
            groups.append((current, _current_style(theme, outline)))
            for mask, style in groups:
                idx = np.flatnonzero(mask)
                if len(idx):
                    c.rects(xywh[idx], style, [keys[i] for i in idx])
        else:
            rgb = np.empty((n_tiles, 3), dtype=float)
            shade_rgb = np.array([_rgb(s) for s in shades])
            rgb[:] = shade_rgb[shade_of]
            rgb[position >= done] = _rgb(theme.color("absent"))
            rgb[(position >= current_lo) & (position < done)] = _rgb(theme.color("c_output"))
            c.image(gx, gy, cols * cell, rows * cell,
                    rgb.reshape(rows, cols, 3).round().astype(np.uint8),
                    key=f"grid:{run.order_name}")
            c.rect(gx, gy, cols * cell, rows * cell, theme.stroke("outline", theme.thin_mm))
        numbered = vector and cell >= NUMBER_MIN_CELL and n_tiles <= MAX_NUMBERED
        if numbered:
            shade_ink = [theme.ink_on(v) for v in shades]
            current_ink = theme.ink_on(theme.color("c_output"))
            ink = [current_ink if t >= current_lo else shade_ink[shade_of[flat[t]]]
                   for t in range(n_tiles)]
            # Visit numbers sit in the cell's upper left so the path through the centres stays
            # readable.
            for t, (r, k) in enumerate(run.order.tolist()):
                c.text(gx + k * cell + 0.5, gy + r * cell + small * PT_TO_MM * 0.85, str(t),
                       small * 0.85, ink[t] if t < done else muted)
        if vector and n_tiles > 1:
            centres = [(gx + (k + 0.5) * cell, gy + (r + 0.5) * cell)
                       for r, k in run.order.tolist()]
            if not numbered:
                c.polyline(centres, theme.stroke("muted", theme.thin_mm, dash=(0.6, 0.6)),
                           key=f"path:{run.order_name}")
            if done > 1:
                # The path so far stays light; this step's stretch is drawn strongly.
                c.polyline(centres[:done], theme.stroke("muted", theme.thin_mm * 1.5),
                           key=f"path:{run.order_name}")
                recent = centres[max(0, current_lo - 1):done]
                if len(recent) > 1:
                    c.polyline(recent, theme.stroke("foreground", theme.line_mm),
                               key=f"path:{run.order_name}", arrow_end=True)

        # A row tiles to the left, B column tiles above, lit while resident.
        def strip(mask_res, mask_load, mask_hit, role, prefix, x, y, nr, nc):
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
            dot = Style(fill=theme.color("hit"), stroke=theme.foreground,
                        stroke_width=theme.thin_mm)
            for i in hit.tolist():
                c.circle(xywh[i, 0] + cell / 2, xywh[i, 1] + cell / 2, cell * 0.2, dot)

        strip(state.a_resident, state.a_loaded, state.a_hit, "a_operand", "atile",
              x0, gy, rows, kt)
        strip(state.b_resident, state.b_loaded, state.b_hit, "b_operand", "btile",
              gx, top, kt, cols)
        if selected is not None:
            r, k = selected
            hl = theme.highlight()
            c.rect(gx + k * cell, gy + r * cell, cell, cell, hl)
            c.rect(x0, gy + r * cell, kt * cell, cell, hl)
            c.rect(gx + k * cell, top, cell, kt * cell, hl)

        bottom = gy + rows * cell
        ty = bottom + em * 1.5
        so_far = int(run.cumulative_loads[state.step - 1]) if state.step else 0
        lines = (
            (f"after step {state.step} of {result.steps}: {_count(state.hits, 'hit')}, "
             f"{_count(state.loads, 'load')}", True),
            (f"{_count(so_far, 'load')} so far", False),
            (f"whole order: {run.misses} loads (A {run.a_loads}, B {run.b_loads}), "
             f"{_count(run.hits, 'hit')}", False),
        )
        for text, bold in lines:
            c.text(x0, ty, text, small, fg if bold else muted, bold=bold)
            ty += em * 1.2
    return ty


def _legend(c: Canvas, x: float, y: float, theme: Theme) -> float:
    small = theme.small_pt
    em = small * PT_TO_MM
    sw = em * 1.0
    items = (
        (_current_style(theme, True), "tiles of this step"),
        (Style(fill=_shades(theme)[-2], stroke=theme.outline, stroke_width=theme.thin_mm),
         "done (darker = later)"),
        (theme.fill("a_operand"), "A tile resident"),
        (theme.fill("b_operand"), "B tile resident"),
        (theme.fill("miss"), "loaded in this step (miss)"),
        (None, "hit in this step"),
    )
    lx, ly = x, y
    for style, label in items:
        step = sw + em * 0.5 + text_width(label, small) + em * 1.5
        if lx + step > WIDTH - MARGIN:
            lx, ly = x, ly + em * 1.4
        if style is None:
            c.circle(lx + sw / 2, ly - em * 0.3, sw * 0.4,
                     Style(fill=theme.color("hit"), stroke=theme.foreground,
                           stroke_width=theme.thin_mm))
        else:
            c.rect(lx, ly - em * 0.8, sw, sw, style)
        c.text(lx + sw + em * 0.5, ly, label, small, theme.muted)
        lx += step
    return ly + em * 1.4


def build(result: TraversalResult, selection: frozenset[str], theme: Theme) -> Figure:
    return build_for_type_size(_build, result, selection, theme)


def _build(result: TraversalResult, selection: frozenset[str], theme: Theme) -> Figure:
    c = Canvas()
    frame = _frame(result, selection)
    selected = _selected_tile(selection, result.rows, result.cols)
    fg, muted = theme.foreground, theme.muted
    em = theme.small_pt * PT_TO_MM
    cap = "unbounded" if result.capacity is None else f"{result.capacity} tiles"
    depth = ("K folded away (k_tiles = 1)" if result.k_tiles == 1
             else f"each panel {result.k_tiles} tiles deep along K")
    c.text(MARGIN, 6.0, "Output-tile order and cache reuse", theme.title_pt, fg, bold=True)
    caption = (
        f"{result.rows} × {result.cols} output tiles. Tile (i, j) needs A row panel i and "
        f"B column panel j.",
        f"{depth[0].upper()}{depth[1:]}. {result.in_flight} tile"
        f"{'s' if result.in_flight > 1 else ''} in flight per step.",
        f"LRU cache of {cap}; loads counted in tiles.",
    )
    for i, line in enumerate(caption):
        c.text(MARGIN, 6.0 + em * (1.6 + 1.15 * i), line, theme.small_pt, muted)
    y = 6.0 + em * (1.6 + 1.15 * len(caption) - 0.6)
    runs = [result._main] + ([result.compare] if result.compare is not None else [])
    gap = 8.0
    width = (WIDTH - 2 * MARGIN - gap * (len(runs) - 1)) / len(runs)
    bottom = y
    for i, run in enumerate(runs):
        state = state_after(run, result.rows, result.cols, result.k_tiles, result.in_flight,
                            result.capacity, frame)
        bottom = max(bottom, _run_panel(c, result, run, state, MARGIN + i * (width + gap), y,
                                        width, selected, theme))
    with c.group(name="legend"):
        bottom = _legend(c, MARGIN, bottom + em * 0.6, theme)

    plot_y = bottom + 2.0
    plot_w, plot_h = (WIDTH - 2 * MARGIN - gap) / 2, 52.0
    # Cumulative loads against step, for each order drawn.
    # Every order of the sweep when it was computed (same colours and dashes as the sweep
    # plot), else the orders drawn above.
    curves = dict(result.cumulative_loads_by_order) or {
        run.order_name: tuple(run.cumulative_loads.tolist()) for run in runs}
    # Past a few hundred steps, evenly spaced samples (always with the last) draw the same line.
    picked = np.unique(np.linspace(0, result.steps - 1, min(result.steps, PLOT_POINTS))
                       .round().astype(np.int64))
    steps = (picked + 1).tolist()
    series = [Series(name, steps, np.asarray(vals)[picked].tolist(), _color_index(name))
              for name, vals in curves.items()]
    marks = ()
    if frame > 0:
        marks = (Mark(frame, float(result.cumulative_loads[frame - 1]), ""),)
    c.text(MARGIN, plot_y + 3.0, "Loads so far, step by step", theme.text_pt, fg, bold=True)
    line_plot(c, MARGIN, plot_y + 4.0, plot_w, plot_h, series, theme, x_label="step",
              y_label="cumulative loads (tiles)", marks=marks, key="plot:loads")
    sx = MARGIN + plot_w + gap
    c.text(sx, plot_y + 3.0, "Sweep: misses against cache capacity", theme.text_pt, fg,
           bold=True)
    if result.capacities:
        sweep, marks = sweep_series(result.capacities, result.misses_by_order, result.capacity,
                                    result.order_name)
        line_plot(c, sx, plot_y + 4.0, plot_w, plot_h, sweep, theme,
                  x_label="cache capacity (tiles)", y_label="misses (tile loads)", marks=marks,
                  key="plot:sweep")
    else:
        c.text(sx, plot_y + 10.0, "(sweep not computed: turn on 'sweep')", theme.small_pt, muted)
    end = plot_y + 4.0 + plot_h + 2.0
    return c.figure(WIDTH, end, theme.background, title="Traversal: output-tile order and reuse",
                    description=f"{result.order_name} order over {result.rows} × {result.cols} "
                    f"tiles, state after step {frame} of {result.steps}.")
