"""The lint's ``fallback`` rule: an SVG with text as text, opened where Inter is not installed,
is set in a wider fallback face (:data:`~gpuviz.figures.metrics.FALLBACK_ROOM`); a text that
would then overlap another text or a mark beside it, or leave the page, is a finding. A figure
laid out with :func:`~gpuviz.figures.metrics.fallback_room` (as the SVG export lays it out) has
none from the shared builders."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import Circle, Figure, Polyline, Rect, Text, text_box
from gpuviz.figures.geometry import EPS
from gpuviz.figures.lint import Finding, describe_text, flat_items, text_overlaps
from gpuviz.figures.metrics import FALLBACK_ROOM


def lint_fallback(figure: Figure) -> list[Finding]:
    """``fallback``: texts that would overlap another text or a mark beside them (a legend's
    swatch, a box), or leave the page, where a wider fallback face sets them (an SVG with text
    as text opened without Inter; each text's box widened by
    :data:`~gpuviz.figures.metrics.FALLBACK_ROOM` from its anchor)."""
    texts: list[Text] = []
    marks: list[tuple[float, float, float, float]] = []
    for item, _, _ in flat_items(figure.items):
        if isinstance(item, Text):
            texts.append(item)
        elif isinstance(item, (Rect, Circle)) or (isinstance(item, Polyline)
                                                  and len(item.points) == 2):
            marks.append(_extent(item))
    boxes, grown = [], []
    for t in texts:
        x0, y0, x1, y1 = text_box(t)
        if t.font == "sans" and not t.rotate:
            grow = (x1 - x0) * (FALLBACK_ROOM[(t.font, t.bold)] - 1.0)
            wx0, wx1 = {"start": (x0, x1 + grow), "middle": (x0 - grow / 2, x1 + grow / 2),
                        "end": (x0 - grow, x1)}[t.anchor]
            grown.append((t, (x0, y0, x1, y1), (wx0, wx1)))
            x0, x1 = wx0, wx1
        boxes.append((x0, y0, x1, y1))
    bx = np.array(boxes, dtype=float).reshape(-1, 4)
    out = [Finding("fallback", f.item, f.key, f.message + " where a wider fallback face sets it")
           for f in text_overlaps(texts, bx)]
    out += [Finding("fallback", describe_text(t), t.key,
                    f"reaches {b[2]:.1f} mm, past the {figure.width:.1f} mm page, where a wider "
                    "fallback face sets it")
            for t, b in zip(texts, bx, strict=True) if b[2] > figure.width + EPS]
    m = np.array(marks, dtype=float).reshape(-1, 4)
    for t, (x0, y0, x1, y1), (wx0, wx1) in grown:
        if not len(m) or wx1 - x1 < EPS:
            continue
        rows = (m[:, 1] < y1 - EPS) & (m[:, 3] > y0 + EPS)
        clear = ~((m[:, 0] < x1 - EPS) & (m[:, 2] > x0 + EPS))  # not already under the text
        ahead = rows & clear & (((m[:, 0] < wx1 - EPS) & (m[:, 0] >= x1 - EPS))
                                | ((m[:, 2] > wx0 + EPS) & (m[:, 2] <= x0 + EPS)))
        if ahead.any():
            r = m[ahead][0]
            out.append(Finding("fallback", describe_text(t), t.key,
                               f"runs into the mark at ({r[0]:.1f}, {r[1]:.1f}) mm where a wider "
                               "fallback face sets it"))
    return out


def _extent(item: Rect | Circle | Polyline) -> tuple[float, float, float, float]:
    if isinstance(item, Rect):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Circle):
        return item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r
    (ax, ay), (bx, by) = item.points
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)
