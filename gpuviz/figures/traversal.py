"""Output-tile traversal: the path over the tile grid, the A row and B column tiles resident in
the LRU cache at a step, what that step hit and loaded, and the sweep of misses against capacity.

The selection may hold ``frame:<n>``: show the state after n steps (0 = before the first step;
absent = after the last). :func:`frame_count` says how many frames a playback has.

Parts: ``path`` (:mod:`gpuviz.figures.traversal_path`), ``resident``
(:mod:`gpuviz.figures.traversal_resident`), ``loads`` and ``sweep``
(:mod:`gpuviz.figures.traversal_plots`). Keys: ``tile:r,c`` (output tiles, in every grid drawn),
``atile:r,kk`` and ``btile:kk,c`` (the A row and B column tiles), ``grid:<order>`` (a grid too
dense to draw cell by cell, drawn as an image), ``path:<order>`` (the visiting path),
``run:<order>`` (one order's panel), ``plot:sweep`` and ``plot:loads`` (the plots) and
``series:<label>`` (their lines). Every one of them is drawn with the selection's double outline
when selected: a tile with the A and B tiles it needs, an A or B tile (and, where the strips are
not drawn, the row or column of C tiles that needs it), an order's grid, its path, a plot, a line.
"""

from __future__ import annotations

from dataclasses import replace

from gpuviz.figures.budget import BUDGETS
from gpuviz.figures.display import Figure
from gpuviz.figures.layout import (
    GAP,
    MARGIN,
    NATURAL,
    Block,
    BlockCanvas,
    LegendEntry,
    Note,
    Target,
    as_part,
    compose,
    format_number,
    format_percent,
    line_step,
    place,
    table_block,
    title_block,
)
from gpuviz.figures.metrics import cap_height, descent, ink_height, text_width
from gpuviz.figures.plot import mark_style, plot_legend_block, series_legend, with_selection
from gpuviz.figures.theme import Theme
from gpuviz.figures.traversal_path import (
    PATH_MIN_CELL,
    VECTOR_MIN_CELL,
    WINDOW_MAX_H,
    WINDOW_MAX_ROWS,
    WINDOW_ROWS,
    PathWindow,
    current_style,
    draw_grid,
    draw_window,
    numbers_fit,
    path_window,
    ramp_block,
    window_words,
)
from gpuviz.figures.traversal_plots import (
    PLOT_H,
    SWEEP_LABELS,
    color_index,
    count,
    loads_plot,
    log_axis,
    plot_series,
    plots_column,
    sweep_plot,
    sweep_series,
)
from gpuviz.figures.traversal_resident import (
    binned_state,
    draw_strip,
    hit_style,
    k_per_bin,
    select_strip_cells,
)
from gpuviz.keys import frame_of, key, of_kind
from gpuviz.models.traversal import OrderRun, StepState, TraversalResult, state_after

__all__ = ["SWEEP_LABELS", "color_index", "k_per_bin", "log_axis", "sweep_series"]

TITLE = "Output-tile order and cache reuse"
NATURAL_WIDTH = 176.0
GRID_MAX_H = 78.0
COLUMN_GRID_H = 56.0  # a journal column's grid (one order to a row): the part stays in budget
SLIDE_GRID_SHARE = 0.6  # of a slide's height, at the design width, for the grids
# ... for grids wider than deep: the run's width bounds them before the page's depth, so they
# (and their path's window) take more of it at the page's scale (a 12 × 16 path fits whole)
WIDE_GRID_SHARE = 0.8
MAX_CELL = 7.0
TWO_UP = 140.0  # narrower than this, the two orders and the two plots stack
COLUMN_MIN = 66.0  # wide enough for every order and the plots in one row of such columns
RUN_MIN = 36.0  # a part's two orders side by side down to this width each
NARROW_RUN = 50.0  # a run narrower than this gives its hits as a share only


def frame_count(result: TraversalResult) -> int:
    """Frames of a playback: before the first step, then after each step."""
    return result.steps + 1


def _frame(result: TraversalResult, selection: frozenset[str]) -> int:
    """The frame the selection asks for (the earliest if several do, as every animated panel
    reads it); after the last step when none does."""
    frame = frame_of(selection)
    return result.steps if frame is None else max(0, min(frame, result.steps))


def now_style(theme: Theme):
    """The dot on each plot at the shown step and at the chosen capacity."""
    return mark_style(theme)


def _strip_labels_fit(corner: float, size: float) -> bool:
    """Whether the corner above strip A and left of strip B (``corner`` mm square) holds "A"
    at its lower left and "B" at its upper right without their boxes meeting."""
    wa, wb, h = text_width("A", size, bold=True), text_width("B", size, bold=True), \
        ink_height(size)
    alone = max(wa, wb) + 0.9 <= corner and h + 1.0 <= corner
    apart = wa + wb + 1.3 <= corner or 2 * h + 1.5 <= corner
    return alone and apart


# --------------------------------------------------------------------------------------------
# One order's panel: the grid, its A and B strips, and its receipt


def run_cell(result: TraversalResult, width: float, grid: bool, strips: bool,
             max_h: float) -> float:
    """The cell size of a run block ``width`` wide and at most ``max_h`` deep."""
    rows, cols, gap = result.rows, result.cols, 1.5
    kb = -(-result.k_tiles // k_per_bin(rows, cols, result.k_tiles)) if strips else 0
    if grid:
        return min(MAX_CELL, (width - (gap if strips else 0.0)) / (cols + kb),
                   (max_h - (gap if strips else 0.0)) / (rows + kb))
    # the strips alone: A beside B, each as deep as it is
    return min(MAX_CELL, (width - 2 * gap) / (kb + cols), max_h / max(rows, kb))


def run_depth(result: TraversalResult, cell: float, grid: bool, strips: bool) -> float:
    """How deep the drawing of a run block with cells of ``cell`` mm is."""
    rows, cols = result.rows, result.cols
    kb = -(-result.k_tiles // k_per_bin(rows, cols, result.k_tiles)) if strips else 0
    return cell * (rows + kb) + (1.5 if strips else 0.0) if grid else cell * max(rows, kb)


WINDOW_SHARE = 0.4  # of a page's grid depth, the most its path's window takes
BAND_SHARE = 0.5  # ... or, to hold a whole GROUP_M band, this much


def run_layout(result: TraversalResult, width: float, grid: bool, strips: bool,
               max_h: float, paged: bool = False, window_h: float = WINDOW_MAX_H
               ) -> tuple[float, PathWindow | None]:
    """The cell size of a run block's grid and the window its path is drawn in (None where the
    grid's cells hold the path). On a page of fixed height (``paged``: a slide, a view) the
    grid and its window share the depth the page gives the grids (``max_h``), the window
    :data:`WINDOW_SHARE` of it at most, so the page keeps its scale: where the run's width
    bounds the grid, the grid takes the depth the window leaves, not the lesser depth its
    width alone gives (a 12 × 16 path then fits its own grid on a slide); elsewhere the window is
    drawn under the grid, ``window_h`` mm deep at most (a journal column's part gives up
    depth in :func:`build`)."""
    cell = run_cell(result, width, grid, strips, max_h)
    if not grid:
        return cell, None
    if not paged:
        return cell, run_window(result, width, cell, strips, window_h)
    depth = max_h
    # a GROUP_M band cut short shows a grouped order wrong: the window holds the whole band
    # at the path's least cells where that takes no more than BAND_SHARE of the depth
    band_h = min(result.rows, _window_band(result), WINDOW_MAX_ROWS) * PATH_MIN_CELL
    most = max(WINDOW_SHARE * depth, band_h if band_h <= BAND_SHARE * depth else 0.0)
    window = run_window(result, width, cell, strips, most)
    if window is None:
        return cell, None
    cell = run_cell(result, width, grid, strips, depth - window.depth)
    return cell, run_window(result, width, cell, strips, most)


def _window_band(result: TraversalResult) -> int:
    """The rows a path's window shows: the GROUP_M band where an order shown is grouped."""
    grouped = "grouped" in {result.main.order_name} | (
        {result.compare.order_name} if result.compare is not None else set())
    return result.group_m if grouped else WINDOW_ROWS


def run_window(result: TraversalResult, width: float, cell: float, strips: bool,
               max_h: float = WINDOW_MAX_H) -> PathWindow | None:
    """The window a run block ``width`` wide with grid cells of ``cell`` mm draws its path in,
    under its grid, at most ``max_h`` mm deep: none where the grid's cells hold the path
    themselves. The window's rows are the GROUP_M band where an order shown is grouped."""
    if cell >= PATH_MIN_CELL:
        return None
    kb = -(-result.k_tiles // k_per_bin(result.rows, result.cols, result.k_tiles)) \
        if strips else 0
    return path_window(result.rows, result.cols, _window_band(result),
                       width - (kb * cell + 1.5 if strips else 0.0), max_h)


def run_block(result: TraversalResult, run: OrderRun, state: StepState, theme: Theme,
              width: float, selection: frozenset[str] = frozenset(),
              target: Target = NATURAL, grid: bool = True, strips: bool = True,
              max_h: float = GRID_MAX_H, window_h: float = WINDOW_MAX_H) -> Block:
    """One order: its grid with the visiting path (``grid``) and the A and B tiles resident
    after the shown step (``strips``, left of and above the grid; beside each other alone),
    ``max_h`` mm deep at most with, under the grid, the window of its path where the grid's
    cells are too small for it (:func:`run_layout`, ``window_h`` mm deep at most), then its
    receipt."""
    c = BlockCanvas()
    rows, cols, kt = result.rows, result.cols, result.k_tiles
    size = max(theme.text_pt, target.min_pt)
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    name = run.order_name
    c.text(0.0, cap_height(size), name, size, fg, bold=True)
    top = line_step(size, 1.4)
    gap = 1.5
    per = k_per_bin(rows, cols, kt) if strips else 1
    kb = -(-kt // per) if strips else 0  # K bins the strips draw
    cell, window = run_layout(result, width, grid, strips, max_h, target.paged,
                              window_h)
    corner = kb * cell
    labels_above = strips and (not grid or not _strip_labels_fit(corner, small))
    if labels_above:  # room for the strips' names above them
        top += line_step(small)
    gx = kb * cell + gap if strips and grid else 0.0
    gy = top + (kb * cell + gap if strips and grid else 0.0)
    vector = cell >= VECTOR_MIN_CELL
    done = state.visited
    current_lo = (state.step - 1) * result.in_flight if state.step else 0
    selected_tiles = [(r, k) for r, k in of_kind(selection, "tile", 2)
                      if 0 <= r < rows and 0 <= k < cols]
    mine = {key("run", name), key("grid", name)} & selection
    below = gy + rows * cell  # the grid's foot, the window's below it
    with c.group(key("run", name), name=name):
        if grid:
            draw_grid(c, theme, run, done, current_lo, rows, cols, gx, gy, cell, small,
                      path_selected=key("path", name) in selection and vector
                      and window is None)
        if window is not None:
            # the window's corner framed on the grid, and drawn again under it with the path
            c.rect(gx, gy, window.cols * cell, window.rows * cell,
                   theme.stroke("foreground", theme.line_mm))
            draw_window(c, theme, run, done, current_lo, rows, cols, window, gx,
                        below + window.depth - window.rows * window.cell,
                        path_selected=key("path", name) in selection)
            for r, k in selected_tiles:
                if r < window.rows and k < window.cols:
                    theme.select(c, gx + k * window.cell, below + window.depth
                                 - (window.rows - r) * window.cell, window.cell, window.cell)
            below += window.depth
        if strips:
            a_share, a_load, a_hit, b_share, b_load, b_hit = binned_state(state, per)
            ax, ay = (0.0, gy) if grid else (0.0, top)
            bx, by = (gx, top) if grid else (kb * cell + 2 * gap, top)
            draw_strip(c, theme, a_share, a_load, a_hit, "a_operand", "atile", ax, ay,
                       cell, per, vector, cell >= 2.0)
            draw_strip(c, theme, b_share, b_load, b_hit, "b_operand", "btile", bx, by,
                       cell, per, vector, cell >= 2.0)
            # the strips named where they meet (the corner above A and left of B) when it has
            # room, else on a line above them
            if labels_above:
                c.text(ax, top - 0.5 - descent(small), "A", small, fg, bold=True)
                c.text(bx, top - 0.5 - descent(small), "B", small, fg, bold=True)
            else:
                c.text(ax + 0.4, ay - 0.5 - descent(small), "A", small, fg, bold=True)
                c.text(bx - 0.5, by + 0.5 + cap_height(small), "B", small, fg, anchor="end",
                       bold=True)
            select_strip_cells(c, theme, selection, "atile", ax, ay, cell, (rows, kb), per)
            select_strip_cells(c, theme, selection, "btile", bx, by, cell, (kb, cols), per)
            for r, k in selected_tiles:  # the A row and B column a selected tile needs
                theme.select(c, ax, ay + r * cell, kb * cell, cell)
                theme.select(c, bx + k * cell, by, cell, kb * cell)
            if mine and not grid:
                theme.select(c, -0.6, top - 0.6, (kb + cols) * cell + 2 * gap + 1.2,
                             max(rows, kb) * cell + 1.2)
        if grid:
            for r, k in selected_tiles:
                theme.select(c, gx + k * cell, gy + r * cell, cell, cell)
            if not strips:  # an A or B tile: the C tiles of its row or column
                for r, _ in of_kind(selection, "atile", 2):
                    if 0 <= r < rows:
                        theme.select(c, gx, gy + r * cell, cols * cell, cell)
                for _, k in of_kind(selection, "btile", 2):
                    if 0 <= k < cols:
                        theme.select(c, gx + k * cell, gy, cell, rows * cell)
            if mine or (key("path", name) in selection and not vector):
                theme.select(c, gx - 0.6, gy - 0.6, cols * cell + 1.2, rows * cell + 1.2)

    # The receipt: this step, so far, the whole order.
    so_far = int(run.cumulative_loads[state.step - 1]) if state.step else 0
    requests = run.hits + run.misses
    rate = format_percent(run.hits / requests) if requests else format_percent(0.0)
    # a table: what each line counts, then its counts (the status lines as values in columns)
    # short names in the first column, so the counts keep most of a narrow run's width
    status_rows: list[list[str]] = [
        ["after step" if width >= NARROW_RUN else "step",
         f"{state.step} of {result.steps}: {count(state.hits, 'hit')}, "
         f"{count(state.loads, 'load')}"]]
    inks = [fg]
    if state.step < result.steps:
        status_rows.append(["so far", count(so_far, "load")])
        inks.append(muted)
    status_rows.append(["order", f"{format_number(run.misses)} loads (A "
                 f"{format_number(run.a_loads)}, B {format_number(run.b_loads)}), " + (
                     f"{count(run.hits, 'hit')} ({rate} of requests)" if width >= NARROW_RUN
                     else f"{rate} of requests hit")])
    inks.append(muted)
    y = (below + 1.5) if grid else (top + max(rows, kb) * cell + 1.5)
    used = (gx + max(cols * cell, window.cols * window.cell if window else 0.0)) if grid \
        else (kb + cols) * cell + 2 * gap
    if strips and per > 1:
        status_rows.insert(0, ["A, B", f"{per} K tiles a cell, paler if fewer resident"])
        inks.insert(0, muted)
    status = table_block(["", ""], status_rows, theme, width, size=small, colors=inks,
                         name="status")
    place(c, status, 0.0, y + line_step(small) - cap_height(small))
    y += line_step(small) - cap_height(small) + status.height - descent(small)
    used = max(used, status.width)
    return c.block(min(width, used), y + descent(small), f"run {name}")


def legend_entries(result: TraversalResult, theme: Theme) -> list[LegendEntry]:
    """The grids' marks and the plots' lines, one entry each."""
    entries = [LegendEntry("tiles of this step", current_style(theme), parts=PATH),
               LegendEntry("empty: C tile not yet visited, A or B tile not resident",
                           theme.fill("absent"), parts=RUN),
               LegendEntry("A tile resident", theme.fill("a_operand"),
                           parts=RESIDENT),
               LegendEntry("B tile resident", theme.fill("b_operand"),
                           parts=RESIDENT),
               LegendEntry("loaded this step (miss)", theme.fill("miss"), parts=RESIDENT),
               LegendEntry("hit this step", hit_style(theme), "dot", parts=RESIDENT)]
    entries += [replace(e, parts=PLOTS) for e in series_legend(plot_series(result), theme)]
    entries.append(LegendEntry("shown step; chosen capacity", now_style(theme), "dot",
                               parts=PLOTS))
    return entries


def grid_note(result: TraversalResult, cell: float, small: float,
              window: PathWindow | None = None) -> str:
    """The rule for what a grid leaves out at the size it is drawn: "" where every tile shows
    its visit number; where its cells are too small for the path, the ``window`` the path is
    drawn in instead."""
    n = result.rows * result.cols
    if numbers_fit(n, cell, small):
        return ""
    if cell < PATH_MIN_CELL:
        head = (f"{format_number(result.rows)} × {format_number(result.cols)} tiles, one cell "
                "each: the shade gives the visit order")
        if window is None:
            return head + " (the path is not drawn at this size)."
        return (f"{head}. Under each grid, its path over the framed "
                f"{window_words(result.rows, result.cols, window)}; the rest follows the same "
                "order.")
    return "Visit numbers are drawn where every cell holds one; the shade gives the order."


def subtitle(result: TraversalResult) -> str:
    cap = "unbounded" if result.capacity is None else count(result.capacity, "tile")
    depth = ("K folded away (k_tiles = 1)" if result.k_tiles == 1
             else f"each panel {format_number(result.k_tiles)} tiles deep along K")
    return (f"{format_number(result.rows)} × {format_number(result.cols)} output tiles. Tile "
            f"(i, j) needs A row panel i and B column panel j. {depth[0].upper()}{depth[1:]}. "
            f"{count(result.in_flight, 'tile')} in flight per step. " + (
                f"LRU cache of {cap}." if result.cache == "tiles" else
                f"{result.cache_label}."))


def model_notes(result: TraversalResult) -> list[Note]:
    """What a cache sized from the L2 leaves out (none for a cache given in tiles), and the H200's
    measured DRAM traffic beside the model's where these parameters were measured (with the
    parts whose plots show the model's traffic: loads so far and the sweep)."""
    if result.cache == "tiles":
        return []
    near = ("" if result.cache == "l2-partition"
            else " An LRU of the whole L2 overestimates an H200's reuse near the L2's size.")
    notes: list[Note] = ["The L2 model leaves out set associativity, address hashing, C "
                         "write-back and other traffic." + near]
    measured = measured_note(result)
    return notes + ([(measured, PLOTS)] if measured else [])


NEAR = 0.10  # a model this far from the measurement says why on the figure


def measured_note(result: TraversalResult) -> str:
    """"H200 measured (Nsight Compute): 12.7 × the bytes of A and B; this model 12.6 × (1 %
    under)", with the reason where they differ by more than NEAR (which LRU capacities would
    give the measurement, :mod:`gpuviz.models.traversal_fit`); "" where not measured."""
    from gpuviz.measurements import lookup, number
    from gpuviz.models.traversal_fit import capacity_fit, reason

    m = lookup("traversal", result.params)
    if m is None:
        return ""
    off = m.difference(result.operand_traffic)
    text = (f"{m.device.replace('NVIDIA ', '')} measured (Nsight Compute, DRAM bytes read): "
            f"{number(m.measured)} × the bytes of A and B; this model "
            f"{number(result.operand_traffic)} × ({abs(off) * 100:.0f} % "
            f"{'over' if off > 0 else 'under'}).")
    if abs(off) > NEAR:
        fit = capacity_fit(result.params, m.measured, NEAR)
        if fit is not None:
            text += " " + reason(fit)
    return text




PATH = ("path",)  # an order's grid of C tiles and its visiting path
RESIDENT = ("resident",)  # the A and B tiles resident after the shown step, hits and loads
RUN = PATH + RESIDENT
PLOTS = ("loads", "sweep")


def _grid_h(target: Target, width: float, result: TraversalResult) -> float:
    """How deep a grid may be: a journal column's stays within its part's budget, a slide's or a
    view's within a share of the page at this width (more for a grid wider than deep)."""
    if target.paged:
        share = WIDE_GRID_SHARE if result.cols > result.rows else SLIDE_GRID_SHARE
        return min(GRID_MAX_H, share * width / target.shape)
    return COLUMN_GRID_H if target.single_column else GRID_MAX_H


def build(result: TraversalResult, selection: frozenset[str], theme: Theme,
          target: Target = NATURAL) -> Figure:
    frame = _frame(result, selection)
    runs = [result.main] + ([result.compare] if result.compare is not None else [])
    states = [state_after(run, result.rows, result.cols, result.k_tiles, result.in_flight,
                          result.capacity, frame) for run in runs]
    cell: list[float] = []  # the grids' cell size, for the legend's note on what they leave out
    window: list[PathWindow | None] = []  # the window each grid draws its path in

    def plots(width: float, both: bool, height: float = PLOT_H) -> list[Block]:
        pw = (width - GAP) / 2 if both and width >= TWO_UP else width
        return [as_part("loads", with_selection(loads_plot(result, frame, theme, pw, target,
                                                           height),
                                                selection, theme, "plot:loads")),
                as_part("sweep", with_selection(sweep_plot(result, theme, pw, target, height),
                                                selection, theme, "plot:sweep"))]

    def runs_for(width: float, each: float, grid: bool, strips: bool,
                 max_h: float, window_h: float = WINDOW_MAX_H) -> list[Block]:
        drawn = (PATH if grid else ()) + (RESIDENT if strips else ())
        laid = run_layout(result, each, grid, strips, max_h, target.paged,
                          window_h)
        cell[:], window[:] = ([laid[0]], [laid[1]]) if grid else ([], [])
        return [as_part(drawn, run_block(result, run, state, theme, each, selection, target,
                                         grid=grid, strips=strips, max_h=max_h,
                                         window_h=window_h))
                for run, state in zip(runs, states, strict=True)]

    def body(width: float) -> list[Block]:
        columns = len(runs) + 1
        if target.whole and width >= COLUMN_MIN * columns + GAP * (columns - 1):
            # Wide (a slide, a wide view): the orders and a column of both plots side by side.
            each = (width - GAP * (columns - 1)) / columns
            laid = run_layout(result, each, True, True, _grid_h(target, width, result),
                              target.paged)
            cell[:], window[:] = [laid[0]], [laid[1]]
            blocks = [run_block(result, run, state, theme, each, selection, target,
                                max_h=_grid_h(target, width, result))
                      for run, state in zip(runs, states, strict=True)]
            return [*blocks, plots_column(result, frame, theme, each, target, selection)]
        grid, strips = target.shows(*PATH), target.shows(*RESIDENT)
        if target.whole:
            each = (width - GAP) / 2 if width >= TWO_UP and len(runs) > 1 else width
        else:  # a part: two orders side by side down to RUN_MIN each
            each = (width - GAP) / 2 if len(runs) > 1 and (width - GAP) / 2 >= RUN_MIN \
                else width
        both = target.parts is None or all(p in target.parts for p in PLOTS)
        plot_blocks = plots(width, both)
        limit = BUDGETS[target.name].max_height if target.name in BUDGETS else None
        if limit is None or target.whole or target.paged:
            limit = None  # only a journal column's part has a height to keep to
        if not (grid or strips):
            over = _height(width, [], plot_blocks) - limit if limit is not None else 0.0
            # a plot alone in a journal column gives up what the page would run over by
            return plots(width, both, max(30.0, PLOT_H - over)) if over > 0 else plot_blocks
        max_h = _grid_h(target, width, result)
        blocks = runs_for(width, each, grid, strips, max_h)
        if limit is not None:
            # a journal column's part: the path's window (down to its band at the least cells),
            # then the grids give up what the page would run over by; where that is not enough,
            # the window keeps two rows only, then (the presentation theme's type) none, and
            # the note says so
            fits = _height(width, blocks, plot_blocks) <= limit
            for least_rows in (WINDOW_MAX_ROWS, 2, 0):
                if fits:
                    break
                window_h = WINDOW_MAX_H if least_rows else 0.0
                blocks = runs_for(width, each, grid, strips, max_h, window_h)
                over = _height(width, blocks, plot_blocks) - limit
                shown, drawn = run_layout(result, each, grid, strips, max_h, window_h=window_h)
                if drawn is not None:
                    window_h = max(PATH_MIN_CELL * min(least_rows, drawn.rows),
                                   drawn.rows * drawn.cell - over)
                    over -= drawn.rows * drawn.cell - window_h
                depth = run_depth(result, shown, grid, strips)
                blocks = runs_for(width, each, grid, strips,
                                  max(12.0, depth - over) if over > 0 else max_h, window_h)
                fits = _height(width, blocks, plot_blocks) <= limit
        return blocks + plot_blocks

    def _height(width: float, blocks: list[Block], plot_blocks: list[Block]) -> float:
        """The page height that ``blocks`` and the shown plots make under the title and above
        the legend (as compose flows them: a row of orders, the plots, each side block)."""
        roles = {"full": ("drawing", "legend", "notes"), "legend": ("drawing", "legend"),
                 "none": ("drawing",)}[target.chrome]
        h = 2 * MARGIN + max((b.height for b in blocks), default=-GAP)
        if target.chrome == "full":
            h += title_block(TITLE, subtitle(result), theme, width).height + GAP
        shown = [b for b in plot_blocks + side(width)
                 if b.height > 0 and target.shows(*b.parts) and b.role in roles]
        return h + sum(GAP + b.height for b in shown)

    def side(width: float) -> list[Block]:
        notes = model_notes(result)
        small = max(theme.small_pt, target.min_pt)
        rule = grid_note(result, cell[0], small, window[0]) if cell else ""
        if rule:
            notes = [(rule, PATH), *notes]
        return [as_part(PATH, ramp_block(theme, width, target), "legend"),
                plot_legend_block(legend_entries(result, theme), theme, width, target=target,
                                  notes=notes)]

    return compose(target, theme, title=TITLE,
                   subtitle=subtitle(result), body=body, side=side,
                   natural_width=NATURAL_WIDTH,
                   figure_title="Traversal: output-tile order and reuse",
                   description=f"The {result.order_name} order over {result.rows} × "
                               f"{result.cols} output tiles through an LRU cache, at step "
                               f"{frame} of {result.steps}.")
