"""A hatch kept off the glyphs: where a text lies on a hatched cell, the cell keeps its flat
fill under the text and its hatch only in bands above and below the text's rows, along the
cell's edges, so in print no pattern fragment sits beside a glyph (a dot beside a digit reads
as a decimal point, a line as a minus sign, a cross as an "X"). :func:`clear_glyphs` does this
for a whole figure's items, once, as the composer finishes the figure, so no figure has to
remember it; the lint's ``hatch-glyph`` rule checks the result."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpuviz.figures.display import Group, Item, Rect, Rects, Style, Text, row_list, text_box

if TYPE_CHECKING:
    from collections.abc import Sequence

#: The least band worth drawing (mm): a thinner one shows no pattern.
MIN_BAND = 0.5
#: Clearance between a band and the text's box (mm).
GAP = 0.15
EPS = 1e-6
#: What a hatched cell adds to its text's height to keep a band above and below it (mm).
BAND_ROOM = 2 * (GAP + MIN_BAND)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def unhatched(style: Style) -> Style:
    """``style`` without its hatch: the cell's flat fill, its outline kept."""
    return replace(style, hatch=None, hatch_color=None)


def bands(x: float, y: float, w: float, h: float, glyphs: Sequence[Box]) -> list[Box]:
    """The horizontal bands ``(x, y0, w, h)`` of the cell (x, y, w, h) that the rows of no
    glyph box in ``glyphs`` (x0, y0, x1, y1) meets, each kept :data:`GAP` clear of them;
    bands thinner than :data:`MIN_BAND` are left out. A cell with no room above or below its
    text (a slide's queue slot, whose height is fixed) keeps its hatch in bands along its left
    and right edges instead, where its texts leave room: a mark that survives the size."""
    out = _rows(x, y, w, h, glyphs)
    if out:
        return out
    inside = [b for b in glyphs if b[0] < x + w - EPS and b[2] > x + EPS
              and b[1] < y + h - EPS and b[3] > y + EPS]
    if not inside:
        return out
    left = min(b[0] for b in inside) - GAP - x
    right = x + w - (max(b[2] for b in inside) + GAP)
    if left >= MIN_BAND:
        out.append((x, y, left, h))
    if right >= MIN_BAND:
        out.append((x + w - right, y, right, h))
    return out


def _rows(x: float, y: float, w: float, h: float, glyphs: Sequence[Box]) -> list[Box]:
    taken = sorted((max(y, b[1] - GAP), min(y + h, b[3] + GAP)) for b in glyphs
                   if b[0] < x + w - EPS and b[2] > x + EPS and b[1] < y + h - EPS
                   and b[3] > y + EPS)
    out, top = [], y
    for t0, t1 in [*taken, (y + h, y + h)]:
        if t0 - top >= MIN_BAND:
            out.append((x, top, w, t0 - top))
        top = max(top, t1)
    return out


def clear_glyphs(items: tuple[Item, ...]) -> tuple[Item, ...]:
    """``items`` with every hatched cell (a ``Rect`` or a row of ``Rects``) that a text's box
    meets split into its flat fill and its hatch in :func:`bands` clear of the texts' rows;
    items without hatching or text on it are returned as they are (the same objects)."""
    if not _hatched(items):
        return items
    glyphs = [text_box(t) for t in _texts(items) if t.text.strip()]
    if not glyphs:
        return items
    return tuple(_cleared(items, glyphs))


def _hatched(items: Sequence[Item]) -> bool:
    return any(_hatched(i.items) if isinstance(i, Group)
               else isinstance(i, (Rect, Rects)) and bool(i.style.hatch) for i in items)


def _texts(items: Sequence[Item]):
    for item in items:
        if isinstance(item, Group):
            yield from _texts(item.items)
        elif isinstance(item, Text):
            yield item


def _meets(glyphs: Sequence[Box], x: float, y: float, w: float, h: float) -> bool:
    return any(b[0] < x + w - EPS and b[2] > x + EPS and b[1] < y + h - EPS and b[3] > y + EPS
               for b in glyphs)


def _cleared(items: Sequence[Item], glyphs: list[Box]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Group):
            inner = _cleared(item.items, glyphs)
            changed = len(inner) != len(item.items) or any(
                a is not b for a, b in zip(inner, item.items, strict=False))
            out.append(Group(tuple(inner), item.key, item.name) if changed else item)
        elif isinstance(item, Rect) and item.style.hatch and _meets(glyphs, item.x, item.y,
                                                                     item.w, item.h):
            out.append(replace(item, style=unhatched(item.style)))
            band = _band_style(item.style)
            for bx, by, bw, bh in bands(item.x, item.y, item.w, item.h, glyphs):
                # a rounded cell's bands keep within its corners
                out.append(Rect(bx, by, bw, bh, band, radius=min(item.radius, bh / 2)))
        elif isinstance(item, Rects) and item.style.hatch and len(item.xywh):
            out += _split(item, glyphs)
        else:
            out.append(item)
    return out


def _split(item: Rects, glyphs: list[Box]) -> list[Item]:
    """A batch of hatched cells as its fills and its hatch: whole on the cells no text meets,
    in bands on those some text meets (vectorised: a print figure has thousands of cells)."""
    import numpy as np  # only a print figure with hatching comes here

    a = np.asarray(item.xywh, dtype=float).reshape(-1, 4)
    g = np.asarray(glyphs, dtype=float)
    x0, y0, x1, y1 = a[:, 0, None], a[:, 1, None], (a[:, 0] + a[:, 2])[:, None], \
        (a[:, 1] + a[:, 3])[:, None]
    on = ((g[:, 0] < x1 - EPS) & (g[:, 2] > x0 + EPS)
          & (g[:, 1] < y1 - EPS) & (g[:, 3] > y0 + EPS))
    hit = on.any(axis=1)
    if not hit.any():
        return [item]
    hatch: list = [tuple(r) for r in row_list(a[~hit])]
    for r in np.flatnonzero(hit):
        x, y, w, h = (float(v) for v in a[r])
        hatch += bands(x, y, w, h, [(b[0], b[1], b[2], b[3]) for b in g[on[r]].tolist()])
    out: list[Item] = [Rects(item.xywh, unhatched(item.style), item.keys)]
    if hatch:
        out.append(Rects(tuple(hatch), _band_style(item.style)))
    return out


def _band_style(style: Style) -> Style:
    return Style(opacity=style.opacity, hatch=style.hatch, hatch_color=style.hatch_color)
