"""A dense figure's image item on each device: a raster device (a view, a PNG) is handed its
pixels as 32-bit, which it draws without converting the whole image on every redraw; PDF keeps
the 24-bit pixels it writes into the file. Either way the pixels are the item's, and a view
painting the item shows them."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from gpuviz.export.qt_painter import device_image, paint_figure
from gpuviz.figures.display import Figure, Image


def _pixels(img: QImage) -> np.ndarray:
    rgb = img.convertToFormat(QImage.Format.Format_RGB888)
    row = rgb.bytesPerLine()
    data = np.frombuffer(bytes(rgb.constBits()), np.uint8).reshape(rgb.height(), row)
    return data[:, :3 * rgb.width()].reshape(rgb.height(), rgb.width(), 3)


def test_a_raster_device_gets_32_bit_pixels_and_pdf_keeps_24(qapp):
    rgb = np.random.default_rng(7).integers(0, 256, (13, 29, 3), dtype=np.uint8)
    raster, paged = device_image(rgb, paged=False), device_image(rgb, paged=True)
    assert raster.format() == QImage.Format.Format_RGB32
    assert paged.format() == QImage.Format.Format_RGB888
    assert np.array_equal(_pixels(raster), rgb)
    assert np.array_equal(_pixels(paged), rgb)


def test_a_view_painting_an_image_item_shows_its_pixels(qapp):
    rgb = np.random.default_rng(3).integers(0, 256, (4, 6, 3), dtype=np.uint8)
    figure = Figure(width=60.0, height=40.0, background="#ffffff",
                    items=(Image(0.0, 0.0, 60.0, 40.0, rgb),))
    out = QImage(600, 400, QImage.Format.Format_RGB32)
    p = QPainter(out)
    paint_figure(p, figure, QRectF(0, 0, 600, 400))
    p.end()
    shown = _pixels(out)
    for i in range(4):
        for j in range(6):  # each source pixel a 100 px square: its centre is that pixel
            assert tuple(shown[50 + 100 * i, 50 + 100 * j]) == tuple(rgb[i, j])
