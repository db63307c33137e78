"""The pieces every part of the tensor-core figure shares: a part's blocks tagged as its
own, its heading, a value centred in a cell, the register tints and the bad states' legend
entry."""

from __future__ import annotations

from dataclasses import dataclass

from gpuviz.figures.bands import unhatched
from gpuviz.figures.display import HATCH_PITCH, PT_TO_MM, Style
from gpuviz.figures.layout import (
    Block,
    BlockCanvas,
    LegendEntry,
    as_part,
    knock_out,
    text_block,
)
from gpuviz.figures.metrics import cap_height, descent
from gpuviz.figures.theme import Theme

PAD = 0.25  # mm between cells
#: A hatched cell's pattern in print: a band along its bottom edge a pitch tall (so it shows
#: the pattern wherever the pattern's grid falls), its text above, clear of it by EDGE_CLEAR:
#: a pattern beside a number reads as part of it ("X3X", "-3-").
EDGE_BAND = HATCH_PITCH + 0.05
EDGE_CLEAR = 0.6


def edge_room(style: Style) -> float:
    """What a cell of ``style`` adds to its height for its pattern's edge band (0: no hatch)."""
    return EDGE_BAND + EDGE_CLEAR if style.hatch else 0.0


def edge_banded(c: BlockCanvas, x: float, y: float, w: float, h: float, style: Style,
                key: str | None = None) -> float:
    """The cell (x, y, w, h) in ``style``: a hatched style as its flat fill with its pattern
    in a band along the bottom edge (:func:`edge_room` of the height is the band's). Returns
    the height above the band, where the cell's text goes."""
    if not style.hatch:
        c.rect(x, y, w, h, style, key=key)
        return h
    c.rect(x, y, w, h, unhatched(style), key=key)
    c.rect(x, y + h - EDGE_BAND, w, EDGE_BAND,
           Style(hatch=style.hatch, hatch_color=style.hatch_color))
    return h - edge_room(style)


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



#: What each part that can draw a bad state calls it in its legend.
BAD_STATES = {
    "feed": "bank group read by several rows (conflict)",
    "warpgroup": "the four warps: not a warpgroup (undefined)",
    "completion": "D read while a group may still write it (hazard)",
}


@dataclass(frozen=True)
class MergedBad:
    """The one legend entry of a figure whose parts draw several bad states: its label, and
    the part whose legend carries it (the first of them; the others' legends leave it out)."""

    label: str
    owner: str


def bad_entries(part: str, style: Style, merged: MergedBad | None) -> list[LegendEntry]:
    """``part``'s legend entry for its bad state: its own, or, where the figure draws several
    parts' bad states (all one vermillion), the one they share, in the first such part's
    legend alone (:func:`merged_bad`)."""
    if merged is None:
        return [LegendEntry(BAD_STATES[part], style)]
    return [LegendEntry(merged.label, style)] if merged.owner == part else []


def merged_bad(parts: list[str]) -> MergedBad | None:
    """One legend entry for the bad states of ``parts`` (the parts of one figure that draw
    one, in order): a conflict, a hazard and an invalid warpgroup are each "a bad state", one
    vermillion in every theme, so one figure names them in one entry rather than one mark for
    three meanings. None for fewer than two."""
    if len(parts) < 2:
        return None
    short = {"feed": "a bank conflict", "warpgroup": "warps that are not a warpgroup",
             "completion": "a hazard read of D"}
    return MergedBad("a bad state: " + ", ".join(short[p] for p in parts), parts[0])


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


def register_style(theme: Theme, j: int) -> Style:
    """A light tint of register j's category; where the theme must survive grayscale (print),
    no tint: four grays under the lane numbers left registers 1 and 3 one gray and another
    legend's near-white one (a pattern instead reads as part of the number), so there the
    cell names its register in its text ("5:r1", as the PTX ISA's fragment figures do)."""
    if theme.hatches:
        return Style(fill=theme.surface, stroke=theme.outline, stroke_width=theme.thin_mm)
    k = j % len(REGISTER_CATEGORIES)
    fill = theme.mix(theme.category(REGISTER_CATEGORIES[k]), 0.5)
    return Style(fill=fill, stroke=theme.outline, stroke_width=theme.thin_mm)
