"""The ``hatch-glyph`` rule: a text whose box meets a hatch fill, knockout or not.

A knockout clears the hatching around each glyph but leaves the pattern's fragments beside it,
and in a table of integers they read as characters: dots as decimal points, line hatches as
minus signs, cross-hatches as "X". A class is encoded by lightness, by a band along the cell's
edge, or by the text itself, never by a pattern under a glyph. Kept apart from :func:`lint`
until every figure meets it."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import Figure, Polyline, Rect, Rects, Text, text_box
from gpuviz.figures.geometry import EPS
from gpuviz.figures.lint import Finding, describe_text, flat_items


def hatch_boxes(figure: Figure) -> np.ndarray:
    """``(n, 4)`` x, y, w, h of every hatch fill in ``figure`` (a closed polyline by its bounds)."""
    out: list[np.ndarray] = []
    for item, _group, _gid in flat_items(figure.items):
        if isinstance(item, Rect) and item.style.hatch:
            out.append(np.array([[item.x, item.y, item.w, item.h]], dtype=float))
        elif isinstance(item, Rects) and item.style.hatch and len(item.xywh):
            out.append(np.asarray(item.xywh, dtype=float).reshape(-1, 4))
        elif isinstance(item, Polyline) and item.closed and item.style.hatch:
            pts = np.asarray(item.points, dtype=float)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            out.append(np.array([[lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]]]))
    return np.vstack(out) if out else np.zeros((0, 4))


def hatch_under_glyph(figure: Figure) -> list[Finding]:
    """A ``hatch-glyph`` finding for each text whose box intersects a hatch fill."""
    h = hatch_boxes(figure)
    if not len(h):
        return []
    out = []
    for item, _group, _gid in flat_items(figure.items):
        if not isinstance(item, Text) or not item.text.strip():
            continue
        x0, y0, x1, y1 = text_box(item)
        on = ((h[:, 0] < x1 - EPS) & (h[:, 0] + h[:, 2] > x0 + EPS)
              & (h[:, 1] < y1 - EPS) & (h[:, 1] + h[:, 3] > y0 + EPS))
        if on.any():
            out.append(Finding("hatch-glyph", describe_text(item), item.key,
                               "lies on a hatch fill: its fragments read as characters; "
                               "encode the class by lightness, an edge band or the text"))
    return out
