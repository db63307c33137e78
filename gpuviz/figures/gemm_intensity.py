"""The gemm figure's intensity part: FLOPs per requested byte as the tile side T grows, the naive
FP32 level, and the arithmetic that relates the counts table's naive value (K = 4) to the plot's
(K of the calculator): both are 2K / (8K + 4), which tends to 1/4 as K grows.

Keys: ``plot:flops_per_byte`` and ``series:<label>``. :func:`calculator_series` is the one
definition of the plot's data for the figure and the dock's interactive plot."""

from __future__ import annotations

from gpuviz.figures.gemm_owners import fpb
from gpuviz.figures.layout import (
    NATURAL,
    Block,
    BlockCanvas,
    Target,
    format_number,
    line_step,
    wrap,
)
from gpuviz.figures.metrics import cap_height, descent, text_width
from gpuviz.figures.plot import Mark, Series, plot_block
from gpuviz.figures.theme import Theme
from gpuviz.models.gemm import GemmResult

PLOT_W = 84.0
PLOT_H = 50.0



def flops_series(r: GemmResult) -> list[Series]:
    """FLOPs per requested byte against the tile side T, and the naive FP32 level."""
    return [
        Series(f"T × T tile, K = {format_number(r.k_dim)}", r.tile_sizes,
               r.flops_per_byte_by_tile, 0, markers=True),
        Series(f"naive FP32, K = {format_number(r.k_dim)}", r.tile_sizes,
               [r.naive_flops_per_byte] * len(r.tile_sizes), 4),
    ]


CALCULATOR_LABELS = ("FLOPs per requested byte as the tile grows",
                     "tile side T (elements)", "FLOPs/byte")


def calculator_series(r: GemmResult) -> tuple[list[Series], tuple[Mark, ...]]:
    """The requested-bytes plot's data, a dot at the chosen tile: one definition for the figure
    and the dock's interactive plot."""
    marks = (Mark(r.tile, r.tile_flops_per_byte, ""),) if r.tile in r.tile_sizes else ()
    return flops_series(r), marks


def flops_plot(r: GemmResult, theme: Theme, width: float = PLOT_W,
               target: Target = NATURAL, height: float = PLOT_H) -> Block:
    """The calculator's plot, a dot at the chosen tile (its value is in the text beside)."""
    series, marks = calculator_series(r)
    # the tile sides double: a log axis, ticked at the powers of two a kernel uses
    sides = [t for t in r.tile_sizes if t & (t - 1) == 0]
    return plot_block(series, theme, width, height, x_label="tile side T",
                      x_unit="elements, log scale", y_label=CALCULATOR_LABELS[2],
                      x_range=(float(min(r.tile_sizes)), float(max(r.tile_sizes))),
                      x_log=True, x_ticks=sides,
                      y_range=(0.0, max(r.flops_per_byte_by_tile)), marks=marks,
                      key="plot:flops_per_byte", title=CALCULATOR_LABELS[0], target=target,
                      name="calculator plot")


def calculator_block(r: GemmResult, theme: Theme, width: float,
                     target: Target = NATURAL, leading: float = 1.25) -> Block:
    """The arithmetic behind the plot, from the naive product to the T × T tile, its lines
    ``leading`` × the type size apart."""
    c = BlockCanvas()
    small = max(theme.small_pt, target.min_pt)
    fg, muted = theme.foreground, theme.muted
    k = format_number(r.k_dim)
    lines = (
        ("Naive FP32, per output:", True),
        ("2 float loads per MAC + 1 float store", False),
        ("2K / (8K + 4) FLOPs/byte → 1/4 as K grows:", False),
        (f"{fpb(r.strategies['naive'].flops_per_byte)} at K = 4 (the table), "
         f"{fpb(r.naive_flops_per_byte)} at K = {k} (the plot)", False),
        ("", False),
        ("T × T output tile, cooperative loads:", True),
        ("A panel T × K + B panel K × T, once: 8TK bytes", False),
        ("T² stores: 4T² bytes; 2T²K FLOPs", False),
        ("2T²K / (8TK + 4T²) = T / (4 + 2T/K)", False),
        ("", False),
        (f"T = {format_number(r.tile)}, K = {k}: {fpb(r.tile_flops_per_byte)} FLOPs/byte", True),
        (f"large K: T/4 = {format_number(r.tile_flops_per_byte_limit)} FLOPs/byte", True),
        (f"= T/2 = {format_number(r.tile_macs_per_loaded_element)} MACs per loaded element",
         False),
    )
    y, used, first = 0.0, 0.0, True
    for text, bold in lines:
        if not text:
            y += line_step(small, 0.5)
            continue
        for line in wrap(text, small, width, bold=bold):
            y += cap_height(small) if first else line_step(small, leading)
            first = False
            c.text(0.0, y, line, small, fg if bold else muted, bold=bold)
            used = max(used, text_width(line, small, bold=bold))
    return c.block(min(width, used), y + descent(small), "calculator")
