"""The pieces every part of the tensor-core figure shares: a part's blocks tagged as its
own, its heading, a value centred in a cell, and the register tints."""

from __future__ import annotations

from gpuviz.figures.display import PT_TO_MM, Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    as_part,
    knock_out,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent
from gpuviz.figures.theme import Theme, gray_of_lightness

PAD = 0.25  # mm between cells


def tagged(part: str, heading: Block, drawing: Block, receipt: Block | None,
           legend: Block | None, note: Block | None = None) -> list[Block]:
    """A part's blocks, each marked as the part's: its heading and note are notes, its drawing
    and receipt (the numbers) its drawing, its legend its legend."""
    out = [as_part(part, heading, "notes"), as_part(part, drawing)]
    if receipt is not None:
        out.append(as_part(part, receipt))
    if legend is not None:
        out.append(as_part(part, legend, "legend"))
    if note is not None:
        out.append(as_part(part, note, "notes"))
    return out



def heading(text: str, theme: Theme, width: float, name: str) -> Block:
    return text_block(text, theme, width, size=theme.text_pt, bold=True, name=name)


def cell_text(c: BlockCanvas, x: float, y: float, w: float, h: float, text: str, pt: float,
               color: str, floor: float, key: str, knockout: str | None = None) -> None:
    """A value centred (by its ink) in the cell."""
    shift = 0.36 * pt * PT_TO_MM + (descent(pt, "mono") - cap_height(pt, "mono")) / 2
    t = c.value(x, y - shift, w, h, text, pt, color, floor=floor, key=key, pad=0.1)
    if knockout:
        knock_out(c, t, knockout)


#: Categories of registers 0–3 (blue, orange, bluish green, reddish purple: apart in print gray).
REGISTER_CATEGORIES = (0, 1, 2, 5)


#: Gray levels of registers 0–3 where the theme must survive grayscale (12.5 L* apart as
#: printed, the lint's ``lightness`` rule: at 0.11 gray apart registers 1 and 3 printed 9.6
#: apart), in place of a hatch: a pattern under a cell's lane number reads as
#: part of it (dots as decimal points, lines as minus signs).
REGISTER_GRAYS = tuple(gray_of_lightness(v) for v in (58.0, 96.0, 71.0, 83.5))


def register_style(theme: Theme, j: int) -> Style:
    """A light tint of register j's category; where the theme must survive grayscale (it
    hatches), the tint's hue at its own gray level instead of a hatch."""
    k = j % len(REGISTER_CATEGORIES)
    fill = theme.mix(theme.category(REGISTER_CATEGORIES[k]), 0.5)
    if theme.hatches:
        fill = theme.at_gray(theme.category(REGISTER_CATEGORIES[k]), REGISTER_GRAYS[k])
    return Style(fill=fill, stroke=theme.outline, stroke_width=theme.thin_mm)

