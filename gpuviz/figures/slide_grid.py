"""The slide's title-safe grid, defined once for every slide gpuviz makes (``--size slide``
files, the deck): a title band at a fixed top, a body box, and a caption band at a fixed
bottom, all inside title-safe margins: 5 % of the slide's width on the left and right, 5 % of
its height at the top and bottom.

Measured in pixels of the 1280 × 720 slide the budget reads (``figures.budget``); a page of
another width (the 254-mm ``slide`` target, a 13.333-inch deck) scales it. The title band's
top and the caption band's bottom never move, so a lecture's titles sit at one place on every
slide; the body box between them is the same on every slide, a caption drawn or not (a
caption longer than the band's two lines grows the band upwards, on that slide alone), so a
drawing that does not change keeps its place and scale from step to step.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuviz.figures.display import PT_TO_MM
from gpuviz.figures.metrics import cap_height, descent

SLIDE_W_PX, SLIDE_H_PX = 1280.0, 720.0
MARGIN_PX = 0.05 * SLIDE_W_PX  # left and right: 64 px, 5 % of the width
TOP_PX = 0.05 * SLIDE_H_PX  # top and bottom: 36 px, 5 % of the height
TITLE_PX, TITLE_MIN_PX = 32.0, 28.0  # the band's title; a long one shrinks to 28 px
CAPTION_PX, CAPTION_MIN_PX = 20.0, 20.0  # the caption, in the least body type
CAPTION_LINES = 2  # the lines the caption band holds
LEADING = 1.3  # the caption's line step, × its size (``text_blocks.line_step``)
TITLE_GAP_PX = 16.0  # between the title band and the body
CAPTION_GAP_PX = 16.0  # between the body and the caption band


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class SlideGrid:
    """The grid of a slide ``unit`` page units (mm, inches) a pixel: its title band, body box
    and caption band."""

    unit: float
    width: float
    height: float
    title: Box
    body: Box
    caption: Box

    @property
    def margin(self) -> float:
        return MARGIN_PX * self.unit

    def pt(self, px: float) -> float:
        """Type of ``px`` pixels on this slide, in points of its page (page unit: mm)."""
        return px * self.unit / PT_TO_MM


def slide_grid(width: float, height: float, *, title_h: float = 0.0,
               caption_h: float = 0.0) -> SlideGrid:
    """The grid of a ``width`` × ``height`` slide (16:9, in any unit: mm, inches):
    ``title_h``/``caption_h``, the bands' heights where a title or caption takes more lines
    than they hold (else one title line of 32 px, two caption lines of 20 px)."""
    unit = width / SLIDE_W_PX
    m, top_m = MARGIN_PX * unit, TOP_PX * height / SLIDE_H_PX
    inner = width - 2 * m
    title = Box(m, top_m, inner, max(band_height(TITLE_PX, 1) * unit, title_h))
    top = title.bottom + TITLE_GAP_PX * unit
    h = max(band_height(CAPTION_PX, CAPTION_LINES) * unit, caption_h)
    caption = Box(m, height - top_m - h, inner, h)
    foot = caption.y - CAPTION_GAP_PX * unit
    return SlideGrid(unit, width, height, title, Box(m, top, inner, foot - top), caption)


def band_height(px: float, lines: int) -> float:
    """The height in pixels of ``lines`` lines of ``px``-pixel sans type, as ``text_block``
    sets them: the first cap height, a line step between lines, the last descent."""
    pt = px / PT_TO_MM  # 1 mm a pixel: the metrics' sizes in pt give mm
    return (cap_height(pt) + (lines - 1) * px * LEADING + descent(pt))
