"""A category's hatch confined to bands along a cell's top and bottom edges, clear of the text
the cell prints, so in print no pattern fragment sits beside a glyph (a dot beside a digit reads
as a decimal point, a line as a minus sign)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpuviz.figures.display import Style, Text, text_box

if TYPE_CHECKING:
    from gpuviz.figures.display import Canvas

#: The least band worth drawing (mm): a thinner one shows no pattern.
MIN_BAND = 0.35
#: Clearance between a band and the text's box (mm).
GAP = 0.15


def unhatched(style: Style) -> Style:
    """``style`` without its hatch: the cell's flat fill, its outline kept."""
    return replace(style, hatch=None, hatch_color=None)


def edge_bands(c: Canvas, x: float, y: float, w: float, h: float, style: Style,
               label: Text | None) -> None:
    """Draw ``style``'s hatch over the cell ``(x, y, w, h)`` only above and below ``label``'s
    box (the whole cell where there is no label); bands thinner than :data:`MIN_BAND` are
    left out."""
    if not style.hatch:
        return
    band = Style(hatch=style.hatch, hatch_color=style.hatch_color)
    if label is None:
        c.rect(x, y, w, h, band)
        return
    _x0, y0, _x1, y1 = text_box(label)
    for top, bottom in ((y, y0 - GAP), (y1 + GAP, y + h)):
        if bottom - top >= MIN_BAND:
            c.rect(x, top, w, bottom - top, band)
