"""Unrotated labels of one size share one world transform on the screen (setting a transform
per label was most of a redraw of a figure of a thousand labels: mma-fragments step 3, 24 ms
of painting, 9 ms with it shared); where they land is tests/figures/test_painter_text.py's."""

from __future__ import annotations

from gpuviz.figures.display import Canvas


def test_labels_of_one_size_set_the_world_transform_once(qapp):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from gpuviz.export.qt_painter import paint_figure, register_fonts

    class Counting(QPainter):
        transforms = 0

        def setWorldTransform(self, *args):
            Counting.transforms += 1
            return super().setWorldTransform(*args)

    register_fonts()
    c = Canvas()
    for k in range(200):
        c.text(5 + (k % 20) * 9, 5 + (k // 20) * 9, f"r{k}", 7, "#000000")
    c.text(100, 95, "turned", 7, "#000000", rotate=90)
    c.text(100, 99, "again", 7, "#000000")
    image = QImage(400, 400, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    p = Counting(image)
    paint_figure(p, c.figure(200, 100, "#FFFFFF"), QRectF(0, 0, 400, 400))
    p.end()
    assert Counting.transforms <= 4  # the labels', the turned one's, the labels' again, restore
    painted = [image.pixelColor(x, y).value() < 128 for x in range(400) for y in range(200)]
    assert sum(painted) > 500  # the labels are there
