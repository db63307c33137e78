"""The traversal figure's plots: loads so far against step (part ``loads``) and misses against
cache capacity (part ``sweep``, on a log axis where its capacities span a factor of 100), one
line per order in the order's colour and dash, a dot at the shown step and the chosen capacity.

Keys: ``plot:loads``, ``plot:sweep`` and ``series:<order>``. :func:`sweep_series` is the one
definition of the sweep's data for the figure and the dock's interactive plot."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.kept import Kept
from gpuviz.figures.layout import (
    GAP,
    NATURAL,
    Block,
    BlockCanvas,
    Target,
    format_number,
    place,
    text_block,
)
from gpuviz.figures.plot import Mark, Series, plot_block, with_selection
from gpuviz.figures.theme import Theme
from gpuviz.models.traversal import SWEEP_ORDERS, TraversalResult

PLOT_POINTS = 400
PLOT_H = 52.0


def color_index(order_name: str) -> int:
    """The palette entry (and dash) of an order, the same in every plot and legend."""
    return SWEEP_ORDERS.index(order_name) if order_name in SWEEP_ORDERS else 4


def count(n: int, noun: str) -> str:
    return f"{format_number(n)} {noun}" + ("" if n == 1 else "s")


def plot_series(result: TraversalResult) -> list[Series]:
    """The orders the plots draw (every order of the sweep when it was computed, else the
    orders shown above), as label-only series for the legend."""
    names = list(result.cumulative_loads_by_order) or [result.order_name] + (
        [result.compare.order_name] if result.compare is not None else [])
    names += [n for n in result.misses_by_order if n not in names]
    return [Series(n, (), (), color_index(n)) for n in names]


_LOADS: Kept[list[Series]] = Kept(4)


def loads_series(result: TraversalResult) -> list[Series]:
    """The loads plot's lines, sampled: past a few hundred steps, evenly spaced samples (always
    with the last) draw the same line. Kept for the last results drawn (a layout search draws
    one result in every design)."""
    return _LOADS.get((result,), "loads", lambda: _sampled(result))


def _sampled(result: TraversalResult) -> list[Series]:
    runs = [result.main] + ([result.compare] if result.compare is not None else [])
    curves = {name: np.asarray(vals) for name, vals in result.cumulative_loads_by_order.items()} \
        or {run.order_name: run.cumulative_loads for run in runs}
    picked = np.unique(np.linspace(0, result.steps - 1, min(result.steps, PLOT_POINTS))
                       .round().astype(np.int64))
    steps = (picked + 1).tolist()
    return [Series(name, steps, vals[picked].tolist(), color_index(name))
            for name, vals in curves.items()]


def loads_plot(result: TraversalResult, frame: int, theme: Theme, width: float,
               target: Target = NATURAL, height: float = PLOT_H) -> Block:
    """Cumulative loads against step, one line per order, a dot at the shown step."""
    series = loads_series(result)
    marks: tuple[Mark, ...] = ()
    if frame > 0:
        marks = (Mark(frame, float(result.cumulative_loads[frame - 1]), ""),)
    per_step = f"{count(result.in_flight, 'tile')} each"
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
                 target: Target = NATURAL, selection: frozenset[str] = frozenset()) -> Block:
    """Both plots, one above the other, a little lower than on their own, each marked for
    ``selection`` (:func:`gpuviz.figures.plot.with_selection`)."""
    c = BlockCanvas()
    top = with_selection(loads_plot(result, frame, theme, width, target, PLOT_H * 0.8),
                         selection, theme, "plot:loads")
    bottom = with_selection(sweep_plot(result, theme, width, target, PLOT_H * 0.8), selection,
                            theme, "plot:sweep")
    place(c, top, 0.0, 0.0)
    place(c, bottom, 0.0, top.height + GAP)
    return c.block(max(top.width, bottom.width), top.height + GAP + bottom.height, "plots")
