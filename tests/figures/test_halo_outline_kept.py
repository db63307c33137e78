"""A knocked-out label's halo is stroked once and kept: a redraw fills the kept outline (stroking
192 labels' glyphs was 11 of traversal-sweep's 25 ms a redraw), and what it paints is what
stroking the glyphs paints."""

from __future__ import annotations

import numpy as np

from gpuviz.figures.display import Canvas, Style

HATCHED = Style(fill="#FFFFFF", stroke="#000000", stroke_width=0.12, hatch="cross",
                hatch_color="#000000")


def _figure():
    c = Canvas()
    for i in range(6):
        c.rect(1.0 + 10 * i, 1.0, 8.0, 5.0, HATCHED)
        c.text(5.0 + 10 * i, 3.5, str(128 + i), 9.0, "#000000", anchor="middle",
               baseline="middle", font="mono", knockout="#FFFFFF")
    return c.figure(62.0, 7.0, "#FFFFFF")


def _paint(fig, stroke_halos: bool = False) -> np.ndarray:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export import qt_painter

    kept = qt_painter._halo
    if stroke_halos:  # the glyphs stroked on every paint, as a redraw did before
        def stroked(text, key, font, width):
            from PySide6.QtCore import QPointF
            from PySide6.QtGui import QPainterPath, QPainterPathStroker

            glyphs = QPainterPath()
            glyphs.addText(QPointF(0.0, 0.0), font, text)
            stroker = QPainterPathStroker()
            stroker.setWidth(width)
            stroker.setJoinStyle(qt_painter.Qt.PenJoinStyle.RoundJoin)
            stroker.setCapStyle(qt_painter.Qt.PenCapStyle.SquareCap)
            return (stroker.createStroke(glyphs),)
        qt_painter._halo = stroked
    try:
        img = QImage(1240, 140, QImage.Format.Format_RGB32)
        p = QPainter(img)
        qt_painter.paint_figure(p, fig, QRectF(0, 0, 1240, 140))
        p.end()
    finally:
        qt_painter._halo = kept
    return np.frombuffer(img.constBits(), np.uint8).reshape(140, 1240, 4)[..., :3].astype(int)


def test_a_redraw_strokes_no_halo_again(qapp):
    from gpuviz.export import qt_painter

    fig = _figure()
    _paint(fig)
    kept = dict(qt_painter._halos)
    assert len(kept) >= 6
    _paint(fig)
    assert all(qt_painter._halos[k] is v for k, v in kept.items()), "the outlines were kept"
    assert len(qt_painter._halos) == len(kept)


def _long_label_figure(text: str, size: float = 9.0):
    c = Canvas()
    c.rect(1.0, 1.0, 300.0, 5.0, HATCHED)
    c.text(2.0, 3.5, text, size, "#000000", baseline="middle", font="mono", knockout="#FFFFFF")
    return c.figure(310.0, 7.0, "#FFFFFF")


_PREDICATE = " and ".join(f"(lane * 7 + warp + {i}) % 5 != 3" for i in range(9))


def test_a_short_label_is_simplified_and_a_very_long_one_stroked_in_pieces(qapp):
    """Simplifying a halo grows faster than its label (2.5 s for a 485-character predicate):
    a long label's halo is stroked in pieces, never simplified; a short one's is simplified."""
    from PySide6.QtCore import Qt

    from gpuviz.export import qt_painter

    qt_painter._halos.clear()
    _paint(_long_label_figure("lane % 5 != 3"))
    [paths] = qt_painter._halos.values()
    assert len(paths) == 1 and paths[0].fillRule() == Qt.FillRule.OddEvenFill, "simplified"
    qt_painter._halos.clear()
    fig = _long_label_figure(_PREDICATE)
    _paint(fig)
    [paths] = qt_painter._halos.values()
    assert len(paths) > 8 and all(p.fillRule() == Qt.FillRule.WindingFill for p in paths)
    assert sum(p.elementCount() for p in paths) > qt_painter.MAX_SIMPLIFIED
    _paint(fig)
    assert next(iter(qt_painter._halos.values())) is paths, "kept as it was"


def test_a_long_halo_in_pieces_paints_what_one_stroke_paints(qapp):
    """A long label's halo is stroked a few words at a time (filling one stroke of the whole
    label grows faster than its length); the pieces cover what the whole stroke covers."""
    from gpuviz.export import qt_painter

    fig = _long_label_figure(_PREDICATE, size=4.0)
    qt_painter._halos.clear()
    pieces = _paint(fig)
    assert len(next(iter(qt_painter._halos.values()))) > 8, "stroked in pieces"
    whole = _paint(fig, stroke_halos=True)
    diff = np.abs(pieces - whole).max(axis=2)
    assert (diff > 0).mean() < 0.002, "differences only on a few edge pixels"
    assert (diff > 96).sum() <= 12


def test_the_kept_halo_paints_what_stroking_the_glyphs_paints(qapp):
    fig = _figure()
    kept, stroked = _paint(fig), _paint(fig, stroke_halos=True)
    diff = np.abs(kept - stroked).max(axis=2)
    assert (diff > 0).mean() < 0.01, "differences only on a few edge pixels"
    assert (diff > 96).sum() <= 12
    assert (kept.sum(axis=2) < 200).sum() > 1000, "the hatch and the digits were painted"
