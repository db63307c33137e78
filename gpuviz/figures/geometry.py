"""Plane geometry over batches of display shapes, shared by the figures that place labels clear
of lines and by the lint that checks they are."""

from __future__ import annotations

import numpy as np

EPS = 0.05  # mm: touching is not overlapping


def segment_hits_box(s: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Which segments (N, 4) pass through the interior of ``box`` (Liang–Barsky clipping)."""
    return segments_hit_boxes(s, np.broadcast_to(np.asarray(box, dtype=float), (len(s), 4)))


def segments_hit_boxes(s: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Whether segment ``s[i]`` passes through the interior of box ``boxes[i]``, for pairs
    (K, 4) and (K, 4) at once: element i is ``segment_hits_box(s[i:i + 1], boxes[i])[0]``."""
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    x0, y0, x1, y1 = b[:, 0] + EPS, b[:, 1] + EPS, b[:, 2] - EPS, b[:, 3] - EPS
    px, py = s[:, 0], s[:, 1]
    dx, dy = s[:, 2] - px, s[:, 3] - py
    # the four clipping conditions p·t <= q at once (left, right, bottom, top of the box)
    p = np.stack((-dx, dx, -dy, dy))
    q = np.stack((px - x0, x1 - px, py - y0, y1 - py))
    parallel = np.abs(p) < 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        r = q / np.where(parallel, 1.0, p)
    t0 = np.where(p <= -1e-12, r, 0.0).max(axis=0, initial=0.0)  # where the segment enters
    t1 = np.where(p >= 1e-12, r, 1.0).min(axis=0, initial=1.0)  # and leaves
    return (x1 > x0) & (y1 > y0) & ~(parallel & (q < 0)).any(axis=0) & (t0 <= t1)
