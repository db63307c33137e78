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


def test_few_dashes_are_stroked_by_qt_the_same_as_laid_out(qapp, monkeypatch):
    """A path of few dashes is left to Qt's dash stroker (faster there); it paints the dashes
    that laying them out ourselves paints: the same ink, in the same places."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export import qt_painter
    from gpuviz.figures.display import Canvas, Style

    c = Canvas()
    c.polyline([(2, 2), (30, 2), (30, 14), (8, 14)], Style(stroke="#000000", stroke_width=0.5,
                                                             dash=(2.0, 1.0, 0.5, 1.0)))
    fig = c.figure(32, 16, "#FFFFFF")
    assert qt_painter._dash_count([(2, 2), (30, 2), (30, 14), (8, 14)], (2.0, 1.0, 0.5, 1.0)) \
        < qt_painter.QT_DASHES

    def ink(limit: float) -> np.ndarray:
        monkeypatch.setattr(qt_painter, "QT_DASHES", limit)
        image = QImage(640, 320, QImage.Format.Format_Grayscale8)
        p = QPainter(image)
        qt_painter.paint_figure(p, fig, QRectF(0, 0, 640, 320))
        p.end()
        px = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(320, -1)[:, :640]
        return 255 - px.astype(int)

    by_qt, laid_out = ink(float("inf")), ink(0)
    assert laid_out.sum() > 0
    assert abs(by_qt.sum() - laid_out.sum()) < 0.02 * laid_out.sum()
    assert np.abs(by_qt - laid_out).sum() < 0.06 * laid_out.sum()  # corners join, ends anti-alias
