"""figures.geometry.segments_hit_boxes: the four clipping conditions tested at once give what
Liang–Barsky clipping of each segment against its box gives, one condition at a time, on
random, axis-parallel, grazing and degenerate cases."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.geometry import EPS, segments_hit_boxes


def _clipped(seg: np.ndarray, box: np.ndarray) -> bool:
    x0, y0, x1, y1 = box[0] + EPS, box[1] + EPS, box[2] - EPS, box[3] - EPS
    if not (x1 > x0 and y1 > y0):
        return False
    px, py, dx, dy = seg[0], seg[1], seg[2] - seg[0], seg[3] - seg[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, px - x0), (dx, x1 - px), (-dy, py - y0), (dy, y1 - py)):
        if abs(p) < 1e-12:
            if q < 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    return t0 <= t1


def test_pairs_at_once_clip_as_one_at_a_time():
    rng = np.random.default_rng(7)
    grid = np.array([0.0, 1.0, 2.0, 2.5, 3.0, 1e-13, -1e-13, 2.0 + 1e-13])
    for trial in range(400):
        k = int(rng.integers(1, 40))
        s = rng.choice(grid, size=(k, 4)) if trial % 2 else rng.uniform(-5, 10, (k, 4))
        corner = rng.uniform(-3, 6, (k, 2))
        b = np.concatenate([corner, corner + rng.uniform(-0.2, 4, (k, 2))], axis=1)
        if trial % 3 == 0:
            b = np.round(b * 2) / 2
        got = segments_hit_boxes(s, b)
        assert got.tolist() == [_clipped(s[i], b[i]) for i in range(k)]


def test_a_box_narrower_than_its_margins_is_never_hit():
    s = np.array([[0.0, 0.0, 10.0, 10.0]])
    assert not segments_hit_boxes(s, np.array([[5.0, 0.0, 5.05, 10.0]]))[0]
    assert segments_hit_boxes(s, np.array([[4.0, 4.0, 6.0, 6.0]]))[0]
