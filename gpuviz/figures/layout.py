"""The figure layout layer, in one import: measured items, shared builders, and a layout for a
target size.

A panel's ``build(result, selection, theme, target)`` makes *blocks* (self-contained pieces of
display list with a measured size: the data, a legend, a receipt) with the builders, and
:func:`compose` places them for the target: the natural size, a journal column (85 or 178 mm), a
16:9 slide, or the shape of a view in the app. A figure is re-laid out for its target, never
scaled down into it: type keeps its size in points, and a body that is too wide for a column is
rebuilt narrower by its panel (``body(width)`` is a function of the width it gets).

Text is measured with the shipped fonts (:mod:`gpuviz.figures.metrics`). A value that does not
fit its cell shrinks to the target's floor, then is shortened by a stated rule (``5.1k``,
``2²⁴``; the figure lists each shortened value with its exact value), and is never dropped.
Labels that must sit on lines or hatching get a *knockout* (a halo of the background around the
glyphs). :mod:`gpuviz.figures.lint` checks all of this over every bundled figure.

Each name lives in the module that owns it, and the panel figures import them from here:

- :mod:`~gpuviz.figures.targets`: ``Target``, ``NATURAL``, ``SINGLE``, ``DOUBLE``, ``SLIDE``,
  ``TARGETS``, ``view_target``, ``Chrome``, ``CHROMES``, ``Design``, ``DESIGN_FACTORS``;
- :mod:`~gpuviz.figures.numbers`: the one number format (``format_number``, ``counted``,
  ``format_percent``, ``format_bytes``) and shortening (``short_forms``, ``Shortened``,
  ``shortened_note``);
- :mod:`~gpuviz.figures.blocks`: ``Block``, ``Role``, ``as_part``, ``BlockCanvas``,
  ``fit_value``, ``place``, ``place_items``, ``knock_out``, ``shortened_place``;
- :mod:`~gpuviz.figures.text_blocks`: the one word-wrapper (``wrap``, ``without_orphan``,
  ``line_step``) and ``text_block``, ``title_block``, ``receipt_block``, ``table_block``;
- :mod:`~gpuviz.figures.legend`: ``LegendEntry``, ``Note``, ``legend_for``, ``legend_block``;
- :mod:`~gpuviz.figures.composition`: ``compose``, ``BlocksFor``, ``Reach``, ``MARGIN``, ``GAP``,
  ``alt_text``, ``side_column`` (whether notes go beside a drawing or below it);
- :mod:`~gpuviz.figures.transform`: ``transform``.
"""

from __future__ import annotations

from gpuviz.figures.blocks import (
    Block,
    BlockCanvas,
    Role,
    as_part,
    fit_value,
    knock_out,
    place,
    place_items,
    shortened_place,
)
from gpuviz.figures.composition import (
    GAP,
    MARGIN,
    BlocksFor,
    Reach,
    alt_text,
    by_width,
    compose,
    side_column,
)
from gpuviz.figures.legend import LegendEntry, Note, legend_block, legend_for
from gpuviz.figures.numbers import (
    Shortened,
    counted,
    format_bytes,
    format_number,
    format_percent,
    short_forms,
    shortened_note,
)
from gpuviz.figures.targets import (
    CHROMES,
    DESIGN_FACTORS,
    DOUBLE,
    NATURAL,
    SINGLE,
    SLIDE,
    TARGETS,
    Chrome,
    Design,
    Target,
    view_target,
)
from gpuviz.figures.text_blocks import (
    formula_block,
    line_step,
    receipt_block,
    table_block,
    text_block,
    title_block,
    without_orphan,
    wrap,
)
from gpuviz.figures.transform import transform

__all__ = [
    "CHROMES", "DESIGN_FACTORS", "DOUBLE", "GAP", "MARGIN", "NATURAL", "SINGLE", "SLIDE",
    "TARGETS", "Block", "BlockCanvas", "BlocksFor", "Chrome", "Design", "LegendEntry", "Note",
    "Reach", "Role", "Shortened", "Target", "alt_text", "as_part", "by_width", "compose",
    "counted", "fit_value", "format_bytes", "format_number", "format_percent", "formula_block", "knock_out",
    "legend_block", "legend_for", "line_step", "place", "place_items", "receipt_block",
    "short_forms", "shortened_note", "shortened_place", "side_column", "table_block", "text_block",
    "title_block", "transform", "view_target", "without_orphan", "wrap",
]
