"""A long dashed path is painted as its dashes, laid along the path as SVG lays them."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gpuviz.export.qt_painter import dash_segments

points = st.lists(st.tuples(st.floats(0, 50), st.floats(0, 50)), min_size=2, max_size=30)
dashes = st.lists(st.floats(0.1, 3.0), min_size=2, max_size=4).filter(lambda d: len(d) % 2 == 0)


def _length(pts):
    return sum(math.dist(a, b) for a, b in itertools.pairwise(pts))


@given(points, dashes)
def test_dashes_cover_the_on_share_of_the_path_and_lie_on_it(pts, dash):
    segs = dash_segments(pts, dash)
    total = _length(pts)
    on = sum(math.dist(s[:2], s[2:]) for s in segs)
    period, ons = sum(dash), sum(dash[0::2])
    whole = math.floor(total / period)
    rest = total - whole * period
    # whole periods contribute their on-share; the last partial period what it reaches
    expected, left = whole * ons, rest
    for k, d in enumerate(dash):
        step = min(d, left)
        expected += step if k % 2 == 0 else 0.0
        left -= step
    assert math.isclose(on, expected, rel_tol=1e-6, abs_tol=1e-6)
    for x1, y1, x2, y2 in segs:  # every dash lies on one of the path's straight pieces
        assert any(_on_piece((x1, y1), a, b) and _on_piece((x2, y2), a, b)
                   for a, b in itertools.pairwise(pts))


def _on_piece(p, a, b):
    ab, ap = np.subtract(b, a), np.subtract(p, a)
    cross = abs(ab[0] * ap[1] - ab[1] * ap[0])
    dot = float(np.dot(ab, ap))
    return cross <= 1e-6 * max(1.0, float(np.dot(ab, ab))) and -1e-6 <= dot <= float(np.dot(ab, ab)) + 1e-6


def test_the_pattern_runs_on_across_a_vertex():
    segs = dash_segments([(0.0, 0.0), (1.5, 0.0), (1.5, 3.0)], (1.0, 1.0))
    # on 0–1 along x; off 1–1.5 and 0–0.5 up; on 0.5–1.5 up; off; on 2.5–3.0 up
    assert [tuple(round(v, 9) for v in s) for s in segs] == [
        (0.0, 0.0, 1.0, 0.0), (1.5, 0.5, 1.5, 1.5), (1.5, 2.5, 1.5, 3.0)]
